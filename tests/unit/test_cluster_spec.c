/* Unit tests for cluster set-up as library code (src/data/cluster_spec.c):
 * the option setter, the resolver's rules against the built-in tables, the
 * placement language, and the overlay of a user's tables on the built-in
 * ones. Each defect of issue 6 this code fixes has a case here. */
#include "support.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/cluster_spec.h"
#include "collcalc/links.h"
#include "collcalc/platforms.h"

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

#define assert_starts_with(text, prefix)                                                \
    do {                                                                                \
        if (strncmp((text), (prefix), strlen(prefix)) != 0) {                           \
            print_error("expected \"%s\" to start \"%s\"\n", (prefix), (text));         \
            fail();                                                                     \
        }                                                                               \
    } while (0)

typedef struct {
    collcalc_link_table *links;
    collcalc_platform_table *platforms;
} tables;

static int setup_tables(void **state)
{
    tables *t = calloc(1, sizeof *t);
    collcalc_diag diag;
    if (t == NULL || collcalc_link_table_builtin(&t->links, &diag) != COLLCALC_OK ||
        collcalc_platform_table_builtin(t->links, &t->platforms, &diag) != COLLCALC_OK) {
        print_error("built-in tables: %s\n", diag.message);
        return -1;
    }
    *state = t;
    return 0;
}

static int teardown_tables(void **state)
{
    tables *t = *state;
    collcalc_platform_table_free(t->platforms);
    collcalc_link_table_free(t->links);
    free(t);
    return 0;
}

/* Builds a spec from "key=value" / "flag" words (NULL-terminated). */
static collcalc_cluster_spec spec_of(const char *const *words)
{
    collcalc_cluster_spec spec;
    collcalc_cluster_spec_init(&spec);
    for (size_t i = 0; words[i] != NULL; i++) {
        char key[64];
        const char *equals = strchr(words[i], '=');
        size_t length = equals != NULL ? (size_t)(equals - words[i]) : strlen(words[i]);
        memcpy(key, words[i], length);
        key[length] = '\0';
        collcalc_diag diag;
        collcalc_status status =
            collcalc_cluster_spec_set(&spec, key, equals != NULL ? equals + 1 : NULL, &diag);
        if (status != COLLCALC_OK)
            print_error("%s: %s\n", words[i], diag.message);
        assert_int_equal(status, COLLCALC_OK);
    }
    return spec;
}

#define SPEC(...) spec_of((const char *const[]){__VA_ARGS__, NULL})

static void resolve_ok(const tables *t, const collcalc_cluster_spec *spec,
                       collcalc_cluster *cluster, collcalc_cluster_info *info)
{
    collcalc_diag diag = {{0}};
    collcalc_status status =
        collcalc_cluster_resolve(spec, t->links, t->platforms, cluster, info, &diag);
    if (status != COLLCALC_OK)
        print_error("resolve: %s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
}

static void resolve_fails(const tables *t, const collcalc_cluster_spec *spec,
                          collcalc_status want, const char *message_start)
{
    collcalc_diag diag = {{0}};
    collcalc_cluster cluster;
    collcalc_cluster_info info;
    collcalc_status status =
        collcalc_cluster_resolve(spec, t->links, t->platforms, &cluster, &info, &diag);
    if (status != want)
        print_error("status %d, message \"%s\"\n", status, diag.message);
    assert_int_equal(status, want);
    assert_starts_with(diag.message, message_start);
    assert_null(strchr(diag.message, '\n'));
}

/* ---- the setter ------------------------------------------------------ */

static void test_spec_init_is_not_given(void **state)
{
    (void)state;
    collcalc_cluster_spec spec;
    memset(&spec, 0x5A, sizeof spec);
    collcalc_cluster_spec_init(&spec);
    assert_int_equal(spec.gpus, 0);
    assert_int_equal(spec.gpus_per_node, 0);
    assert_int_equal(spec.nodes, 0);
    assert_int_equal(spec.nics_per_node, 0);
    assert_int_equal(spec.nics_per_gpu, 0);
    assert_string_equal(spec.link, "");
    assert_string_equal(spec.platform, "");
    assert_false(spec.bw_set);
    assert_false(spec.alpha_set);
    assert_int_equal(spec.basis, COLLCALC_BW_PER_DIRECTION);
    assert_int_equal(spec.nvls, COLLCALC_SETTING_UNSET);
    assert_int_equal(spec.sharp, COLLCALC_SETTING_UNSET);
    assert_true(spec.tree_efficiency == 0.0);
    collcalc_cluster_spec_init(NULL);
    collcalc_cluster_info_init(NULL);
}

static void test_spec_set_values(void **state)
{
    (void)state;
    collcalc_cluster_spec spec =
        SPEC("gpus=16", "domain-size=8", "nics=4", "nics-per-gpu=2", "link=nvlink5",
             "inter=ib-ndr", "bw-basis=headline", "tree-efficiency=0.9", "no-nvls", "sharp");
    assert_int_equal(spec.gpus, 16);
    assert_int_equal(spec.gpus_per_node, 8);
    assert_int_equal(spec.nics_per_node, 4);
    assert_int_equal(spec.nics_per_gpu, 2);
    assert_string_equal(spec.link, "nvlink5");
    assert_string_equal(spec.inter, "ib-ndr");
    assert_int_equal(spec.basis, COLLCALC_BW_HEADLINE);
    assert_true(spec.basis_set);
    assert_true(spec.tree_efficiency == 0.9);
    assert_int_equal(spec.nvls, COLLCALC_SETTING_OFF);
    assert_int_equal(spec.sharp, COLLCALC_SETTING_ON);
    spec = SPEC("bw=400Gb/s", "alpha=0");
    assert_true(spec.bw_set && spec.bw_GBps == 50.0);
    assert_true(spec.alpha_set && spec.alpha_us == 0.0); /* --alpha 0 needs no unit */
    bool takes = false;
    assert_true(collcalc_cluster_spec_has_key("nics-per-node", &takes) && takes);
    assert_true(collcalc_cluster_spec_has_key("nvls", &takes) && !takes);
    assert_false(collcalc_cluster_spec_has_key("size", &takes));
}

static void test_spec_set_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *key;
        const char *value;
        collcalc_status status;
        const char *message;
    } cases[] = {
        {"gpus-per-node", "0", COLLCALC_ERR_INVALID,
         "--gpus-per-node: '0' is out of range: must be between 1 and 1048576"},
        {"gpus", "1e3", COLLCALC_ERR_INVALID,
         "--gpus: '1e3' is not a whole number: exponents are not allowed"},
        {"nics-per-node", "1025", COLLCALC_ERR_INVALID,
         "--nics-per-node: '1025' is out of range: must be between 1 and 1024"},
        {"nics-per-gpu", "17", COLLCALC_ERR_INVALID, "--nics-per-gpu: '17' is out of range"},
        /* The link table's physical bounds, by the same code. */
        {"bw", "0.0001GB/s", COLLCALC_ERR_INVALID,
         "--bw: must be between 0.001 and 100000 GB/s (got 0.0001)"},
        {"bw", "200TB/s", COLLCALC_ERR_INVALID,
         "--bw: must be between 0.001 and 100000 GB/s (got 200000)"},
        {"bw", "1e-300GB/s", COLLCALC_ERR_INVALID,
         "--bw: invalid bandwidth '1e-300GB/s': exponents are not allowed"},
        {"alpha", "2s", COLLCALC_ERR_INVALID,
         "--alpha: must be 0 or between 0.000001 and 1000000 us (got 2000000)"},
        {"alpha", "1e3ns", COLLCALC_ERR_INVALID, "--alpha: invalid time '1e3ns': exponents"},
        {"alpha", "5", COLLCALC_ERR_INVALID, "--alpha: invalid time '5': a unit is required"},
        {"bw-basis", "both", COLLCALC_ERR_INVALID,
         "--bw-basis: unknown basis 'both' (per-direction or headline)"},
        {"tree-efficiency", "1.5", COLLCALC_ERR_INVALID, "--tree-efficiency: '1.5' is out of range"},
        {"link", "0123456789012345678901234567890123", COLLCALC_ERR_INVALID,
         "--link: '0123456789012345678901234567890123' is not a name: names have at most 31"},
        {"link", "nv link", COLLCALC_ERR_INVALID, "--link: 'nv link' is not a name"},
        {"link", "", COLLCALC_ERR_INVALID, "--link: missing name"},
        {"gpus", NULL, COLLCALC_ERR_INVALID, "--gpus: missing value"},
        {"nvls", "yes", COLLCALC_ERR_INVALID, "--nvls: takes no value (got 'yes')"},
        {"gpus-per-nod", "8", COLLCALC_ERR_NOT_FOUND,
         "unknown option '--gpus-per-nod' (did you mean gpus-per-node?)"},
        {"size", "8", COLLCALC_ERR_NOT_FOUND, "unknown option '--size'"},
    };
    for (size_t i = 0; i < COUNT_OF(cases); i++) {
        collcalc_cluster_spec spec, before;
        collcalc_cluster_spec_init(&spec);
        before = spec;
        collcalc_diag diag = {{0}};
        collcalc_status status =
            collcalc_cluster_spec_set(&spec, cases[i].key, cases[i].value, &diag);
        print_message("%s=%s: %s\n", cases[i].key, cases[i].value ? cases[i].value : "(null)",
                      diag.message);
        assert_int_equal(status, cases[i].status);
        assert_starts_with(diag.message, cases[i].message);
        assert_memory_equal(&spec, &before, sizeof spec); /* unchanged on failure */
    }
    /* Echoed values are cut at 60 bytes. */
    char huge[4096];
    memset(huge, '9', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    collcalc_cluster_spec spec;
    collcalc_cluster_spec_init(&spec);
    collcalc_diag diag;
    assert_int_equal(collcalc_cluster_spec_set(&spec, "gpus", huge, &diag), COLLCALC_ERR_INVALID);
    assert_true(strlen(diag.message) < 160);
    assert_contains(diag.message, "999...' is out of range");
}

static void test_spec_given_twice(void **state)
{
    (void)state;
    collcalc_cluster_spec spec = SPEC("gpus=8", "nvls", "sharp");
    collcalc_diag diag;
    assert_int_equal(collcalc_cluster_spec_set(&spec, "gpus", "16", &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "--gpus: given twice; give it once");
    assert_int_equal(spec.gpus, 8);
    assert_int_equal(collcalc_cluster_spec_set(&spec, "no-nvls", NULL, &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "--no-nvls: nvls and no-nvls contradict each other");
    assert_int_equal(collcalc_cluster_spec_set(&spec, "sharp", NULL, &diag), COLLCALC_OK);
}

static void test_spec_overlay(void **state)
{
    (void)state;
    collcalc_cluster_spec base = SPEC("gpus=16", "link=nvlink4", "bw-basis=headline", "nvls");
    collcalc_cluster_spec over = SPEC("platform=hgx-h100", "nodes=2", "no-nvls");
    collcalc_cluster_spec_overlay(&base, &over);
    assert_int_equal(base.gpus, 16);
    assert_int_equal(base.nodes, 2);
    assert_string_equal(base.platform, "hgx-h100");
    assert_string_equal(base.link, "nvlink4");
    assert_int_equal(base.basis, COLLCALC_BW_HEADLINE);
    assert_int_equal(base.nvls, COLLCALC_SETTING_OFF);
}

/* ---- the resolver ---------------------------------------------------- */

static void test_single_link(void **state)
{
    const tables *t = *state;
    collcalc_cluster c;
    collcalc_cluster_info info;
    collcalc_cluster_spec spec = SPEC("gpus=8", "link=nvl5");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.gpus, 8);
    assert_int_equal(c.gpus_per_node, 8);
    assert_string_equal(c.intra.name, "nvlink5"); /* the canonical name */
    assert_true(c.intra.bw_GBps == 900.0);
    assert_true(c.intra.alpha_us == 2.0);
    assert_true(c.intra.nvlink);
    assert_true(info.single_link);
    assert_null(info.platform);
    assert_int_equal(info.warning_count, 0);

    spec = SPEC("gpus=8", "link=nvlink5", "bw-basis=headline", "alpha=0");
    resolve_ok(t, &spec, &c, NULL);
    assert_true(c.intra.bw_GBps == 1800.0);
    assert_true(c.intra.alpha_us == 0.0);

    spec = SPEC("gpus=4", "bw=100GB/s", "alpha=3us");
    resolve_ok(t, &spec, &c, NULL);
    assert_string_equal(c.intra.name, "custom");
    assert_true(c.intra.bw_GBps == 100.0 && c.intra.alpha_us == 3.0);
    assert_false(c.intra.nvlink);

    spec = SPEC("link=nvlink5");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--gpus: missing");
    spec = SPEC("gpus=8");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--link: missing: name a link");
    spec = SPEC("gpus=8", "link=nvlink5", "nics-per-gpu=2");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--nics-per-gpu: a single --link has no NICs");
}

static void test_unknown_names_suggest(void **state)
{
    const tables *t = *state;
    collcalc_cluster_spec spec = SPEC("gpus=8", "link=nvlnk5");
    resolve_fails(t, &spec, COLLCALC_ERR_NOT_FOUND,
                  "--link: unknown link 'nvlnk5' (did you mean nvlink5?); known: hbm2e, hbm3");
    spec = SPEC("platform=hgx-h10");
    resolve_fails(t, &spec, COLLCALC_ERR_NOT_FOUND,
                  "--platform: unknown platform 'hgx-h10' (did you mean hgx-h100 or hgx-h20?); known: "
                  "dgx-a100, hgx-a100-ndr200");
    spec = SPEC("gpus=16", "gpus-per-node=8", "intra=nvlink4", "inter=ib-nd");
    resolve_fails(t, &spec, COLLCALC_ERR_NOT_FOUND,
                  "--inter: unknown link 'ib-nd' (did you mean ib-ndr?)");
    spec = SPEC("gpus=8", "link=zzzzzz");
    resolve_fails(t, &spec, COLLCALC_ERR_NOT_FOUND, "--link: unknown link 'zzzzzz'; known: ");
    /* Bounded even with every name listed. */
    collcalc_diag diag;
    collcalc_cluster c;
    assert_int_equal(collcalc_cluster_resolve(&spec, t->links, t->platforms, &c, NULL, &diag),
                     COLLCALC_ERR_NOT_FOUND);
    assert_true(strlen(diag.message) < COLLCALC_DIAG_MESSAGE_MAX);
}

/* HBM and NV-HBI are memory tiers: refused as a GPU-to-GPU or NIC link. */
static void test_memory_tier_refused(void **state)
{
    const tables *t = *state;
    collcalc_cluster_spec spec = SPEC("gpus=8", "link=hbm3");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID,
                  "--link: 'hbm3' is a memory tier (on-package), not a link between GPUs");
    spec = SPEC("gpus=16", "gpus-per-node=8", "intra=nv-hbi", "inter=ib-ndr");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--intra: 'nv-hbi' is a memory tier");
    spec = SPEC("gpus=16", "gpus-per-node=8", "intra=nvlink4", "inter=hbm3e");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--inter: 'hbm3e' is a memory tier");
}

/* `--platform l40s-8x-pcie --nvls` printed 49 GB/s busbw over a 31.5 GB/s
 * PCIe link: refused now, naming the option. */
static void test_nvls_needs_nvswitch(void **state)
{
    const tables *t = *state;
    collcalc_cluster_spec spec = SPEC("platform=l40s-8x-pcie", "nvls");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID,
                  "--nvls: NVLS (in-switch reduction) needs an NVSwitch fabric; 'pcie4' is class "
                  "pci, not NVLink");
    spec = SPEC("gpus=8", "link=pcie5", "nvls");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--nvls: NVLS (in-switch reduction) needs");
    spec = SPEC("gpus=8", "bw=100GB/s", "nvls");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--nvls: NVLS (in-switch reduction) needs");
    /* An NVLink bridge is NVLink without a switch: the preset says so. */
    spec = SPEC("platform=workstation-2gpu-nvlink", "nvls");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID,
                  "--nvls: NVLS (in-switch reduction) needs an NVSwitch fabric; 'nvlink-bridge2' "
                  "here joins GPUs without an NVSwitch");
    /* NVSwitch gen 2 (A100) cannot reduce in the switch. */
    spec = SPEC("platform=dgx-a100", "nvls");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID,
                  "--nvls: NVLS needs a Hopper (sm90) or newer GPU; this one is sm80");
    /* Allowed where it exists. */
    collcalc_cluster c;
    spec = SPEC("gpus=8", "link=nvlink4", "nvls");
    resolve_ok(t, &spec, &c, NULL);
    assert_true(c.nvls_intra);
    spec = SPEC("platform=hgx-h100");
    collcalc_cluster_info info;
    resolve_ok(t, &spec, &c, &info);
    assert_true(c.nvls_intra);
    assert_true(info.preset_nvls);
    spec = SPEC("platform=hgx-h100", "no-nvls");
    resolve_ok(t, &spec, &c, &info);
    assert_false(c.nvls_intra);
    /* A preset's NVLS belongs to its own fabric: another --intra drops it. */
    spec = SPEC("platform=hgx-h100", "intra=pcie5");
    resolve_ok(t, &spec, &c, &info);
    assert_false(c.nvls_intra);
    assert_false(info.preset_nvls);
    assert_string_equal(c.intra.name, "pcie5");
}

/* `--platform X` alone means one node of X. */
static void test_platform_alone_is_one_node(void **state)
{
    const tables *t = *state;
    collcalc_cluster c;
    collcalc_cluster_info info;
    collcalc_cluster_spec spec = SPEC("platform=dgx-h100");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.gpus, 8);
    assert_int_equal(c.gpus_per_node, 8);
    assert_int_equal(info.nodes, 1);
    assert_true(info.preset_gpus);
    assert_true(info.preset_gpus_per_node && info.preset_intra && info.preset_inter);
    assert_true(info.preset_nics_per_node && !info.nics_scaled);
    assert_string_equal(info.platform->name, "hgx-h100");
    assert_string_equal(c.intra.name, "nvlink4");
    assert_string_equal(c.inter.name, "ib-ndr");
    assert_int_equal(c.nics_per_node, 8);
    assert_int_equal(c.nics_per_gpu, 1);
    spec = SPEC("platform=gb200-nvl72");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.gpus, 72);
    assert_int_equal(info.nodes, 1);
}

/* `--platform gb200-nvl72 --gpus-per-node 36` printed 72 NICs per node: the
 * NICs follow the overridden domain size at the preset's NICs-per-GPU. */
static void test_nics_follow_gpus_per_node(void **state)
{
    const tables *t = *state;
    collcalc_cluster c;
    collcalc_cluster_info info;
    collcalc_cluster_spec spec = SPEC("platform=gb200-nvl72", "gpus-per-node=36", "gpus=72");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.gpus, 72);
    assert_int_equal(c.gpus_per_node, 36);
    assert_int_equal(c.nics_per_node, 36);
    assert_int_equal(info.nodes, 2);
    assert_true(info.preset_nics_per_node && info.nics_scaled);
    /* AWS p5: 32 NICs for 8 GPUs, 4 per GPU; half a node keeps the ratio. */
    spec = SPEC("platform=aws-p5", "gpus-per-node=4", "nodes=2");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.nics_per_node, 16);
    assert_int_equal(c.nics_per_gpu, 4);
    assert_int_equal(c.gpus, 8);
    /* One L40S NIC for 8 GPUs: a smaller node still has one. */
    spec = SPEC("platform=l40s-8x-pcie", "gpus-per-node=2", "gpus=4");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.nics_per_node, 1);
    /* An explicit count wins. */
    spec = SPEC("platform=gb200-nvl72", "gpus-per-node=36", "gpus=72", "nics-per-node=18");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.nics_per_node, 18);
    assert_false(info.preset_nics_per_node);
}

/* A GPU drives one NIC unless the platform says nics_per_gpu. */
static void test_nic_defaults(void **state)
{
    const tables *t = *state;
    collcalc_cluster c;
    collcalc_cluster_info info;
    collcalc_cluster_spec spec = SPEC("gpus=2", "gpus-per-node=1", "inter=ib-ndr",
                                      "nics-per-node=8");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.nics_per_node, 8);
    assert_int_equal(c.nics_per_gpu, 1); /* the model uses min(8, 1 x 1) = 1 NIC */
    assert_int_equal(info.warning_count, 0);
    spec = SPEC("gpus=16", "gpus-per-node=8", "intra=nvlink4", "inter=ib-ndr");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.nics_per_node, 8); /* one per GPU */
    spec = SPEC("gpus=16", "gpus-per-node=8", "intra=nvlink4", "inter=ib-ndr", "nics-per-gpu=2");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.nics_per_node, 16);
    assert_int_equal(c.nics_per_gpu, 2);
    spec = SPEC("platform=aws-p5", "nics-per-gpu=1");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.nics_per_gpu, 1);
    assert_false(info.preset_nics_per_gpu);
}

/* `--gpus P --nodes N` is P/N GPUs in each of N nodes. */
static void test_gpus_over_nodes(void **state)
{
    const tables *t = *state;
    collcalc_cluster c;
    collcalc_cluster_info info;
    /* 8 GPUs of one NVL72 domain (refused before). */
    collcalc_cluster_spec spec = SPEC("platform=gb200-nvl72", "gpus=8", "nodes=1");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.gpus, 8);
    assert_int_equal(c.gpus_per_node, 8);
    assert_int_equal(c.nics_per_node, 8);
    assert_true(c.nvls_intra);
    assert_int_equal(info.nodes, 1);
    spec = SPEC("platform=hgx-h100", "gpus=8", "nodes=2");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.gpus_per_node, 4);
    assert_int_equal(c.nics_per_node, 4);
    assert_int_equal(info.nodes, 2);
    spec = SPEC("platform=hgx-h100", "gpus=16", "nodes=3");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--nodes: 16 GPUs do not divide into 3 nodes");
    spec = SPEC("platform=hgx-h100", "gpus=16", "nodes=1");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID,
                  "--nodes: 16 GPUs in 1 node is 16 per node, more than the 8 of one hgx-h100 "
                  "NVLink domain");
    spec = SPEC("gpus=16", "nodes=2", "gpus-per-node=4", "intra=nvlink4", "inter=ib-ndr");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID,
                  "--nodes: 2 nodes x 4 GPUs per node = 8 GPUs, but --gpus says 16");
    spec = SPEC("platform=hgx-h100", "nodes=4");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.gpus, 32);
    /* Without a platform, P/N sets the node size. */
    spec = SPEC("gpus=16", "nodes=2", "intra=nvlink4", "inter=ib-ndr");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.gpus_per_node, 8);
}

static void test_partial_last_node(void **state)
{
    const tables *t = *state;
    collcalc_cluster c;
    collcalc_cluster_info info;
    collcalc_cluster_spec spec = SPEC("platform=hgx-h100", "gpus=9");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(c.gpus, 9);
    assert_int_equal(c.gpus_per_node, 8);
    assert_int_equal(info.nodes, 2);
    assert_int_equal(info.gpus_in_last_node, 1);
    assert_false(info.preset_gpus);
}

static void test_cluster_refusals(void **state)
{
    const tables *t = *state;
    collcalc_cluster_spec spec = SPEC("platform=hgx-h100", "bw=100GB/s");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID,
                  "--bw: --bw and --alpha describe a single --link");
    spec = SPEC("gpus=16", "gpus-per-node=8", "alpha=1us", "intra=nvlink4", "inter=ib-ndr");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--alpha: --bw and --alpha describe");
    spec = SPEC("gpus=16", "inter=ib-ndr");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--gpus-per-node: missing");
    spec = SPEC("gpus=16", "gpus-per-node=8", "inter=ib-ndr");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--intra: missing");
    spec = SPEC("gpus=16", "gpus-per-node=8", "intra=nvlink4");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--inter: missing");
    /* One GPU in one node with no link at all (found by fuzz_placement:
     * the cluster resolved with 0 GB/s links). */
    spec = SPEC("gpus=1", "nodes=1");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--intra: missing: name the link");
    spec = SPEC("gpus-per-node=8", "intra=nvlink4");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--gpus: missing: give --gpus or --nodes");
    spec = SPEC("nodes=1048576", "gpus-per-node=8", "intra=nvlink4", "inter=ib-ndr");
    resolve_fails(t, &spec, COLLCALC_ERR_INVALID, "--nodes: more than 1048576 GPUs");
    collcalc_cluster c;
    collcalc_diag diag;
    assert_int_equal(collcalc_cluster_resolve(NULL, t->links, NULL, &c, NULL, &diag),
                     COLLCALC_ERR_INVALID);
    spec = SPEC("platform=hgx-h100");
    assert_int_equal(collcalc_cluster_resolve(&spec, t->links, NULL, &c, NULL, &diag),
                     COLLCALC_ERR_NOT_FOUND);
}

/* "intra slower than inter" only when nodes hold more than one GPU. */
static void test_slow_intra_warning(void **state)
{
    const tables *t = *state;
    collcalc_cluster c;
    collcalc_cluster_info info;
    collcalc_cluster_spec spec =
        SPEC("gpus=16", "gpus-per-node=8", "intra=pcie4", "inter=ib-xdr");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(info.warning_count, 1);
    assert_string_equal(info.warnings[0],
                        "--intra: the intra-node link pcie4 (31.5 GB/s) is slower than the "
                        "inter-node link ib-xdr (100 GB/s)");
    spec = SPEC("gpus=2", "gpus-per-node=1", "intra=pcie4", "inter=ib-xdr");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(info.warning_count, 0);
    spec = SPEC("gpus=8", "gpus-per-node=8", "intra=pcie4", "inter=ib-xdr");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(info.warning_count, 0); /* one node: the NICs are not used */
    spec = SPEC("platform=l40s-8x-pcie", "nodes=2");
    resolve_ok(t, &spec, &c, &info);
    assert_int_equal(info.warning_count, 1);
    assert_string_equal(info.warnings[0],
                        "--platform: the intra-node link pcie4 (31.5 GB/s) is slower than the "
                        "inter-node link eth400 (50.0 GB/s)");
}

/* Every built-in platform resolves alone, and at two nodes. */
static void test_every_platform_resolves(void **state)
{
    const tables *t = *state;
    for (size_t i = 0; i < collcalc_platform_table_count(t->platforms); i++) {
        const collcalc_platform *p = collcalc_platform_table_at(t->platforms, i);
        collcalc_cluster_spec spec;
        collcalc_cluster_spec_init(&spec);
        memcpy(spec.platform, p->name, sizeof spec.platform);
        collcalc_cluster c;
        collcalc_cluster_info info;
        print_message("%s\n", p->name);
        resolve_ok(t, &spec, &c, &info);
        assert_int_equal(c.gpus, p->gpus_per_node);
        assert_int_equal(c.nics_per_node, p->nics_per_node);
        assert_int_equal(c.nics_per_gpu, p->nics_per_gpu);
        assert_int_equal(c.nvls_intra, p->nvls);
        spec.nodes = 2;
        resolve_ok(t, &spec, &c, &info);
        assert_int_equal(c.gpus, 2 * p->gpus_per_node);
        assert_true(c.inter.bw_GBps > 0 && c.intra.bw_GBps > 0);
    }
}

/* ---- placements ------------------------------------------------------ */

static void test_placement_parse(void **state)
{
    (void)state;
    collcalc_placement p;
    collcalc_diag diag;
    assert_int_equal(collcalc_placement_parse("label=nvl72,platform=gb200-nvl72", &p, &diag),
                     COLLCALC_OK);
    assert_string_equal(p.label, "nvl72");
    assert_true(p.label_given);
    assert_string_equal(p.spec.platform, "gb200-nvl72");
    assert_int_equal(p.spec.gpus_per_node, 0);

    assert_int_equal(collcalc_placement_parse("platform=hgx-h100,nodes=2,nics=4,no-nvls,sharp",
                                              &p, &diag),
                     COLLCALC_OK);
    assert_string_equal(p.label, "platform=hgx-h100,nodes=2,nics=4,no-nvls,sharp");
    assert_false(p.label_given);
    assert_int_equal(p.spec.nodes, 2);
    assert_int_equal(p.spec.nics_per_node, 4);
    assert_int_equal(p.spec.nvls, COLLCALC_SETTING_OFF);
    assert_int_equal(p.spec.sharp, COLLCALC_SETTING_ON);

    assert_int_equal(collcalc_placement_parse("gpus-per-node=8,intra=nvlink4,inter=ib-ndr,"
                                              "link=nvlink4,domain-size=8",
                                              &p, &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "--placement: domain-size: given twice; give it once");

    /* The default label is the text, cut to 63 bytes. */
    char text[200];
    snprintf(text, sizeof text, "platform=hgx-h100,nodes=2,gpus-per-node=8,intra=nvlink4,"
                                "inter=ib-ndr,nics-per-node=8");
    assert_int_equal(collcalc_placement_parse(text, &p, &diag), COLLCALC_OK);
    assert_int_equal(strlen(p.label), COLLCALC_PLACEMENT_LABEL_MAX - 1);
    assert_memory_equal(p.label, text, COLLCALC_PLACEMENT_LABEL_MAX - 1);

    /* Then resolved like the command line. */
    tables *t = NULL;
    assert_int_equal(setup_tables((void **)&t), 0);
    assert_int_equal(collcalc_placement_parse("label=8 of 72,platform=nvl72,gpus=8,nodes=1", &p,
                                              &diag),
                     COLLCALC_OK);
    collcalc_cluster c;
    resolve_ok(t, &p.spec, &c, NULL);
    assert_int_equal(c.gpus, 8);
    assert_int_equal(c.nics_per_node, 8);
    assert_string_equal(p.label, "8 of 72");
    teardown_tables((void **)&t);
}

static void test_placement_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        const char *message;
    } cases[] = {
        {"", "--placement: empty; expected e.g. label=nvl72,platform=gb200-nvl72"},
        {"platform=hgx-h100,,nodes=2", "--placement: item 2 is empty"},
        {"platform=hgx-h100,", "--placement: item 2 is empty"},
        {"nodes=0", "--placement: nodes: '0' is out of range: must be between 1 and 1048576"},
        {"nodes=2x", "--placement: nodes: '2x' is not a whole number"},
        {"platfrom=hgx-h100",
         "--placement: unknown key 'platfrom' (did you mean platform?); keys: label, platform"},
        {"lable=x", "--placement: unknown key 'lable' (did you mean label?)"},
        {"nvls=1", "--placement: nvls: takes no value (got '1')"},
        {"nodes", "--placement: 'nodes' is not KEY=VALUE (nodes needs a value)"},
        {"label=a,label=b", "--placement: label: given twice; give it once"},
        {"label=", "--placement: label: missing text"},
        {"label=a\tb", "--placement: label: 'a\\x09b' holds a control character"},
        {"label=0123456789012345678901234567890123456789012345678901234567890123",
         "--placement: label: '012345678901234567890123456789012345678901234567890123456789...' "
         "is longer than 63 bytes"},
        {"nvls,no-nvls", "--placement: no-nvls: nvls and no-nvls contradict each other"},
        {"bw=1e3GB/s", "--placement: bw: invalid bandwidth '1e3GB/s': exponents are not allowed"},
        {"link=nv=link4", "--placement: link: 'nv=link4' is not a name"},
    };
    for (size_t i = 0; i < COUNT_OF(cases); i++) {
        collcalc_placement p;
        collcalc_diag diag = {{0}};
        collcalc_status status = collcalc_placement_parse(cases[i].text, &p, &diag);
        print_message("%s -> %s\n", cases[i].text, diag.message);
        assert_int_equal(status, COLLCALC_ERR_INVALID);
        assert_starts_with(diag.message, cases[i].message);
        assert_string_equal(p.label, "");
    }
    char huge[COLLCALC_PLACEMENT_TEXT_MAX + 2];
    memset(huge, 'a', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    collcalc_placement p;
    collcalc_diag diag;
    assert_int_equal(collcalc_placement_parse(huge, &p, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "--placement: longer than 512 bytes");
    assert_int_equal(collcalc_placement_parse(NULL, &p, &diag), COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_placement_parse("nodes=1", NULL, &diag), COLLCALC_ERR_INVALID);
}

/* ---- overlay tables -------------------------------------------------- */

/* `--links examples/my-links.json` made every built-in link and platform
 * unknown: overlaid, the file adds and replaces, and the built-in
 * platforms still resolve against the merged table. */
static void test_links_overlay_keeps_builtin(void **state)
{
    const tables *t = *state;
    size_t length = 0;
    char *text = test_read_file(test_source_path("examples/my-links.json"), &length);
    assert_non_null(text);
    collcalc_diag diag = {{0}};
    collcalc_link_table *user = NULL, *merged = NULL;
    assert_int_equal(
        collcalc_link_table_parse_named(text, length, "examples/my-links.json", &user, &diag),
        COLLCALC_OK);
    free(text);
    assert_int_equal(collcalc_link_table_overlay(t->links, user, &merged, &diag), COLLCALC_OK);
    size_t builtin_count = collcalc_link_table_count(t->links);
    assert_int_equal(collcalc_link_table_count(merged), builtin_count + 1);
    assert_int_equal(collcalc_link_table_replaced_count(merged), 1);
    /* nvlink-bridge2 replaced in place; roce400-measured appended. */
    const collcalc_link *bridge = collcalc_link_table_find(merged, "nvlink-bridge2");
    size_t bridge_index = (size_t)(bridge - collcalc_link_table_at(merged, 0));
    assert_string_equal(collcalc_link_table_at(t->links, bridge_index)->name, "nvlink-bridge2");
    assert_int_equal(collcalc_link_table_origin(merged, bridge_index), COLLCALC_ENTRY_REPLACED);
    assert_string_equal(collcalc_link_table_at(merged, builtin_count)->name, "roce400-measured");
    assert_int_equal(collcalc_link_table_origin(merged, builtin_count), COLLCALC_ENTRY_ADDED);
    assert_int_equal(collcalc_link_table_origin(merged, 0), COLLCALC_ENTRY_BASE);
    assert_non_null(collcalc_link_table_find(merged, "nvlink5"));
    assert_int_equal(collcalc_link_table_origin(user, 0), COLLCALC_ENTRY_BASE);

    /* Built-in platforms check against the merged table. */
    collcalc_platform_table *platforms = NULL;
    assert_int_equal(collcalc_platform_table_builtin(merged, &platforms, &diag), COLLCALC_OK);
    collcalc_cluster_spec spec;
    collcalc_cluster_spec_init(&spec);
    snprintf(spec.platform, sizeof spec.platform, "hgx-h100");
    snprintf(spec.inter, sizeof spec.inter, "roce400-measured");
    spec.nodes = 2;
    collcalc_cluster c;
    assert_int_equal(collcalc_cluster_resolve(&spec, merged, platforms, &c, NULL, &diag),
                     COLLCALC_OK);
    assert_true(c.inter.bw_GBps == 42.6);
    collcalc_platform_table_free(platforms);
    collcalc_link_table_free(merged);
    collcalc_link_table_free(user);
}

static collcalc_link_table *parse_links(const char *text)
{
    collcalc_diag diag;
    collcalc_link_table *table = NULL;
    collcalc_status status =
        collcalc_link_table_parse_named(text, strlen(text), "<stdin>", &table, &diag);
    if (status != COLLCALC_OK)
        print_error("%s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    return table;
}

#define LINK_DOC(name, extra)                                                            \
    "{\"schema_version\": 1, \"links\": [{\"name\": \"" name "\"" extra ", \"tier\": "   \
    "\"scale-out\", \"class\": \"net\", \"bw_per_direction_GBps\": 40, "                  \
    "\"headline_GBps\": 50, \"headline_counts\": \"per-direction\", \"alpha_us\": 9}]}"

static void test_links_overlay_replaces_and_refuses(void **state)
{
    const tables *t = *state;
    collcalc_diag diag;
    collcalc_link_table *user = parse_links(LINK_DOC("ib-ndr", ""));
    collcalc_link_table *merged = NULL;
    assert_int_equal(collcalc_link_table_overlay(t->links, user, &merged, &diag), COLLCALC_OK);
    assert_int_equal(collcalc_link_table_count(merged), collcalc_link_table_count(t->links));
    const collcalc_link *ndr = collcalc_link_table_find(merged, "ib-ndr");
    assert_true(ndr->bw_per_direction_GBps == 40.0);
    assert_null(collcalc_link_table_find(merged, "ndr")); /* the built-in aliases went too */
    collcalc_link_table_free(merged);
    collcalc_link_table_free(user);

    /* A name that is another built-in link's alias would make lookups ambiguous. */
    user = parse_links(LINK_DOC("my-nic", ", \"aliases\": [\"nvl5\"]"));
    assert_int_equal(collcalc_link_table_overlay(t->links, user, &merged, &diag),
                     COLLCALC_ERR_INVALID);
    assert_null(merged);
    assert_string_equal(diag.message,
                        "links[0]: 'nvl5' is already an alias of the built-in entry 'nvlink5'; "
                        "rename it, or name the entry 'nvlink5' to replace that one");
    collcalc_link_table_free(user);

    /* Messages name the document. */
    collcalc_link_table *bad = NULL;
    const char *text = "{\"schema_version\": 1, \"links\": []}";
    assert_int_equal(collcalc_link_table_parse_named(text, strlen(text), "<stdin>", &bad, &diag),
                     COLLCALC_ERR_INVALID);
    assert_starts_with(diag.message, "<stdin>: links: ");
    assert_int_equal(collcalc_link_table_overlay(NULL, t->links, &merged, &diag),
                     COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_link_table_overlay(t->links, t->links, NULL, &diag),
                     COLLCALC_ERR_INVALID);
    /* The built-in table on itself replaces everything. */
    assert_int_equal(collcalc_link_table_overlay(t->links, t->links, &merged, &diag), COLLCALC_OK);
    assert_int_equal(collcalc_link_table_replaced_count(merged),
                     collcalc_link_table_count(t->links));
    collcalc_link_table_free(merged);
}

static void test_platforms_overlay(void **state)
{
    const tables *t = *state;
    static const char text[] =
        "{\"schema_version\": 1, \"platforms\": ["
        "{\"name\": \"hgx-h100\", \"gpu\": \"H100 SXM\", \"gpus_per_node\": 8, "
        "\"intra_link\": \"nvlink4\", \"inter_link\": \"ib-ndr\", \"nics_per_node\": 4, "
        "\"nvls\": false, \"sharp\": false},"
        "{\"name\": \"my-box\", \"gpu\": \"L4\", \"gpus_per_node\": 4, "
        "\"intra_link\": \"pcie4\", \"inter_link\": \"eth100\", \"nics_per_node\": 1, "
        "\"nvls\": false, \"sharp\": false, \"gpu_arch\": \"sm89\", \"p2p\": false}]}";
    collcalc_diag diag;
    collcalc_platform_table *user = NULL, *merged = NULL;
    assert_int_equal(collcalc_platform_table_parse_named(text, strlen(text), "mine.json",
                                                         t->links, &user, &diag),
                     COLLCALC_OK);
    /* Defaults of the model inputs a user's table leaves out. */
    const collcalc_platform *box = collcalc_platform_table_find(user, "my-box");
    assert_int_equal(box->gpu_arch, COLLCALC_GPU_ARCH_SM89);
    assert_int_equal(box->cpu_vendor, COLLCALC_CPU_VENDOR_UNKNOWN);
    assert_int_equal(box->transport, COLLCALC_TRANSPORT_UNKNOWN);
    assert_int_equal(box->nics_per_gpu, 1);
    assert_false(box->p2p);
    assert_false(box->nvswitch);
    assert_int_equal(box->nvlink_links_per_gpu, 0);
    assert_true(collcalc_platform_table_find(user, "hgx-h100")->p2p);

    assert_int_equal(collcalc_platform_table_overlay(t->platforms, user, &merged, &diag),
                     COLLCALC_OK);
    size_t count = collcalc_platform_table_count(t->platforms);
    assert_int_equal(collcalc_platform_table_count(merged), count + 1);
    assert_int_equal(collcalc_platform_table_replaced_count(merged), 1);
    assert_int_equal(collcalc_platform_table_origin(merged, count), COLLCALC_ENTRY_ADDED);
    assert_null(collcalc_platform_table_find(merged, "dgx-h100")); /* alias went with it */
    collcalc_cluster_spec spec;
    collcalc_cluster_spec_init(&spec);
    snprintf(spec.platform, sizeof spec.platform, "hgx-h100");
    collcalc_cluster c;
    assert_int_equal(collcalc_cluster_resolve(&spec, t->links, merged, &c, NULL, &diag),
                     COLLCALC_OK);
    assert_int_equal(c.nics_per_node, 4);
    assert_false(c.nvls_intra);
    snprintf(spec.platform, sizeof spec.platform, "hgx-b200");
    assert_int_equal(collcalc_cluster_resolve(&spec, t->links, merged, &c, NULL, &diag),
                     COLLCALC_OK);
    collcalc_platform_table_free(merged);
    collcalc_platform_table_free(user);

    static const char bad[] = "{\"schema_version\": 1, \"platforms\": [{\"name\": \"x\"}]}";
    assert_int_equal(collcalc_platform_table_parse_named(bad, strlen(bad), "<stdin>", t->links,
                                                         &user, &diag),
                     COLLCALC_ERR_INVALID);
    assert_starts_with(diag.message, "<stdin>: platforms[0]: missing required key");
    assert_int_equal(collcalc_platform_table_origin(NULL, 0), COLLCALC_ENTRY_BASE);
    assert_int_equal(collcalc_platform_table_replaced_count(NULL), 0);
}

static void test_fabric_check(void **state)
{
    const tables *t = *state;
    const collcalc_link *nvl4 = collcalc_link_table_find(t->links, "nvlink4");
    const collcalc_link *pcie = collcalc_link_table_find(t->links, "pcie4");
    const char *key = "x";
    collcalc_diag diag;
    assert_int_equal(collcalc_fabric_check(nvl4, true, true, COLLCALC_GPU_ARCH_SM90, &key, &diag),
                     COLLCALC_OK);
    assert_null(key);
    assert_int_equal(collcalc_fabric_check(nvl4, false, false, COLLCALC_GPU_ARCH_SM70, &key,
                                           &diag),
                     COLLCALC_OK);
    assert_int_equal(collcalc_fabric_check(pcie, false, true, COLLCALC_GPU_ARCH_UNKNOWN, &key,
                                           &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(key, "nvswitch");
    assert_int_equal(collcalc_fabric_check(NULL, true, true, COLLCALC_GPU_ARCH_UNKNOWN, &key,
                                           &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(key, "nvls");
    assert_string_equal(collcalc_gpu_arch_name(COLLCALC_GPU_ARCH_SM100), "sm100");
    assert_string_equal(collcalc_gpu_arch_name((collcalc_gpu_arch)91), "unknown");
    assert_string_equal(collcalc_cpu_vendor_name(COLLCALC_CPU_VENDOR_ARM), "arm");
    assert_string_equal(collcalc_transport_name(COLLCALC_TRANSPORT_TCPXO), "tcpxo");
    assert_string_equal(collcalc_transport_name((collcalc_transport)99), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_init_is_not_given),
        cmocka_unit_test(test_spec_set_values),
        cmocka_unit_test(test_spec_set_refusals),
        cmocka_unit_test(test_spec_given_twice),
        cmocka_unit_test(test_spec_overlay),
        cmocka_unit_test(test_single_link),
        cmocka_unit_test(test_unknown_names_suggest),
        cmocka_unit_test(test_memory_tier_refused),
        cmocka_unit_test(test_nvls_needs_nvswitch),
        cmocka_unit_test(test_platform_alone_is_one_node),
        cmocka_unit_test(test_nics_follow_gpus_per_node),
        cmocka_unit_test(test_nic_defaults),
        cmocka_unit_test(test_gpus_over_nodes),
        cmocka_unit_test(test_partial_last_node),
        cmocka_unit_test(test_cluster_refusals),
        cmocka_unit_test(test_slow_intra_warning),
        cmocka_unit_test(test_every_platform_resolves),
        cmocka_unit_test(test_placement_parse),
        cmocka_unit_test(test_placement_refusals),
        cmocka_unit_test(test_links_overlay_keeps_builtin),
        cmocka_unit_test(test_links_overlay_replaces_and_refuses),
        cmocka_unit_test(test_platforms_overlay),
        cmocka_unit_test(test_fabric_check),
    };
    return cmocka_run_group_tests(tests, setup_tables, teardown_tables);
}
