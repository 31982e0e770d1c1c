/* Unit tests for the link table loader (src/data/links.c), the built-in
 * data/links.json, and the checked JSON access underneath (src/core/json_check.c). */
#include "support.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "collcalc/links.h"
#include "collcalc/model.h"
#include "json_check.h"

/* ---- the built-in table ------------------------------------------------- */

/* Expected figures for every built-in link: the contract with doc/MODEL.md §5-§6
 * and the textbook table. */
typedef struct {
    const char *name;
    collcalc_tier tier;
    collcalc_link_class link_class;
    double bw_per_direction_GBps;
    double headline_GBps;
    collcalc_headline_counts headline_counts;
    double alpha_us;
} expected_link;

static const expected_link expected_links[] = {
    {"hbm2e", COLLCALC_TIER_ON_PACKAGE, COLLCALC_LINK_CLASS_MEMORY, 2039, 2039, COLLCALC_HEADLINE_SINGLE_FIGURE, 0},
    {"hbm3", COLLCALC_TIER_ON_PACKAGE, COLLCALC_LINK_CLASS_MEMORY, 3350, 3350, COLLCALC_HEADLINE_SINGLE_FIGURE, 0},
    {"hbm3e", COLLCALC_TIER_ON_PACKAGE, COLLCALC_LINK_CLASS_MEMORY, 4800, 4800, COLLCALC_HEADLINE_SINGLE_FIGURE, 0},
    {"hbm3e-b200", COLLCALC_TIER_ON_PACKAGE, COLLCALC_LINK_CLASS_MEMORY, 8000, 8000, COLLCALC_HEADLINE_SINGLE_FIGURE, 0},
    {"nv-hbi", COLLCALC_TIER_ON_PACKAGE, COLLCALC_LINK_CLASS_MEMORY, 5000, 10000, COLLCALC_HEADLINE_BOTH_DIRECTIONS, 0},
    {"nvlink2", COLLCALC_TIER_SCALE_UP, COLLCALC_LINK_CLASS_NVLINK, 150, 300, COLLCALC_HEADLINE_BOTH_DIRECTIONS, 2.0},
    {"nvlink3", COLLCALC_TIER_SCALE_UP, COLLCALC_LINK_CLASS_NVLINK, 300, 600, COLLCALC_HEADLINE_BOTH_DIRECTIONS, 2.0},
    {"nvlink4", COLLCALC_TIER_SCALE_UP, COLLCALC_LINK_CLASS_NVLINK, 450, 900, COLLCALC_HEADLINE_BOTH_DIRECTIONS, 2.0},
    {"nvlink4-h800", COLLCALC_TIER_SCALE_UP, COLLCALC_LINK_CLASS_NVLINK, 200, 400, COLLCALC_HEADLINE_BOTH_DIRECTIONS, 2.0},
    {"nvlink-bridge2", COLLCALC_TIER_SCALE_UP, COLLCALC_LINK_CLASS_NVLINK, 50, 100, COLLCALC_HEADLINE_BOTH_DIRECTIONS, 2.0},
    {"nvlink5", COLLCALC_TIER_SCALE_UP, COLLCALC_LINK_CLASS_NVLINK, 900, 1800, COLLCALC_HEADLINE_BOTH_DIRECTIONS, 2.0},
    /* AMD Infinity Fabric (xGMI): 7 links per GPU, a full mesh; NVLink class, as RCCL types it. */
    {"hbm3-mi300x", COLLCALC_TIER_ON_PACKAGE, COLLCALC_LINK_CLASS_MEMORY, 5300, 5300, COLLCALC_HEADLINE_SINGLE_FIGURE, 0},
    {"hbm3-h20", COLLCALC_TIER_ON_PACKAGE, COLLCALC_LINK_CLASS_MEMORY, 4000, 4000, COLLCALC_HEADLINE_SINGLE_FIGURE, 0},
    {"hbm3e-mi355x", COLLCALC_TIER_ON_PACKAGE, COLLCALC_LINK_CLASS_MEMORY, 8000, 8000, COLLCALC_HEADLINE_SINGLE_FIGURE, 0},
    {"xgmi-mi300x", COLLCALC_TIER_SCALE_UP, COLLCALC_LINK_CLASS_NVLINK, 448, 896, COLLCALC_HEADLINE_BOTH_DIRECTIONS, 2.0},
    {"xgmi-mi355x", COLLCALC_TIER_SCALE_UP, COLLCALC_LINK_CLASS_NVLINK, 537.6, 1075.2, COLLCALC_HEADLINE_BOTH_DIRECTIONS, 2.0},
    {"pcie3", COLLCALC_TIER_HOST, COLLCALC_LINK_CLASS_PCI, 15.75, 16, COLLCALC_HEADLINE_PER_DIRECTION, 5.7},
    {"pcie4", COLLCALC_TIER_HOST, COLLCALC_LINK_CLASS_PCI, 31.5, 32, COLLCALC_HEADLINE_PER_DIRECTION, 5.7},
    {"pcie5", COLLCALC_TIER_HOST, COLLCALC_LINK_CLASS_PCI, 63.0, 64, COLLCALC_HEADLINE_PER_DIRECTION, 5.7},
    {"pcie6", COLLCALC_TIER_HOST, COLLCALC_LINK_CLASS_PCI, 121, 128, COLLCALC_HEADLINE_PER_DIRECTION, 5.7},
    {"nvlink-c2c", COLLCALC_TIER_HOST, COLLCALC_LINK_CLASS_NVLINK, 450, 900, COLLCALC_HEADLINE_BOTH_DIRECTIONS, 2.0},
    {"ib-hdr", COLLCALC_TIER_SCALE_OUT, COLLCALC_LINK_CLASS_NET, 25, 25, COLLCALC_HEADLINE_PER_DIRECTION, 14.0},
    {"ib-ndr200", COLLCALC_TIER_SCALE_OUT, COLLCALC_LINK_CLASS_NET, 25, 25, COLLCALC_HEADLINE_PER_DIRECTION, 14.0},
    {"ib-ndr", COLLCALC_TIER_SCALE_OUT, COLLCALC_LINK_CLASS_NET, 50, 50, COLLCALC_HEADLINE_PER_DIRECTION, 14.0},
    {"ib-xdr", COLLCALC_TIER_SCALE_OUT, COLLCALC_LINK_CLASS_NET, 100, 100, COLLCALC_HEADLINE_PER_DIRECTION, 14.0},
    {"eth100", COLLCALC_TIER_SCALE_OUT, COLLCALC_LINK_CLASS_NET, 12.5, 12.5, COLLCALC_HEADLINE_PER_DIRECTION, 14.0},
    {"eth200", COLLCALC_TIER_SCALE_OUT, COLLCALC_LINK_CLASS_NET, 25, 25, COLLCALC_HEADLINE_PER_DIRECTION, 14.0},
    {"eth400", COLLCALC_TIER_SCALE_OUT, COLLCALC_LINK_CLASS_NET, 50, 50, COLLCALC_HEADLINE_PER_DIRECTION, 14.0},
    {"eth800", COLLCALC_TIER_SCALE_OUT, COLLCALC_LINK_CLASS_NET, 100, 100, COLLCALC_HEADLINE_PER_DIRECTION, 14.0},
};

#define EXPECTED_COUNT (sizeof expected_links / sizeof expected_links[0])

static collcalc_link_table *load_builtin(void)
{
    collcalc_diag diag = {{0}};
    collcalc_link_table *table = NULL;
    collcalc_status status = collcalc_link_table_builtin(&table, &diag);
    if (status != COLLCALC_OK)
        print_error("builtin table: %s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    assert_non_null(table);
    return table;
}

static void test_builtin_has_every_link(void **state)
{
    (void)state;
    collcalc_link_table *table = load_builtin();
    assert_int_equal(collcalc_link_table_count(table), EXPECTED_COUNT);
    for (size_t i = 0; i < EXPECTED_COUNT; i++) {
        const collcalc_link *link = collcalc_link_table_find(table, expected_links[i].name);
        if (link == NULL)
            print_error("missing link %s\n", expected_links[i].name);
        assert_non_null(link);
        assert_string_equal(link->name, expected_links[i].name);
        /* Every figure is sourced and every link explained (data/README.md). */
        assert_true(strlen(link->description) > 10);
        assert_true(strlen(link->bw_source) > 10);
        assert_true(strlen(link->headline_source) > 10);
        assert_true(strlen(link->alpha_source) > 10);
    }
    collcalc_link_table_free(table);
}

static void test_builtin_figures(void **state)
{
    (void)state;
    collcalc_link_table *table = load_builtin();
    for (size_t i = 0; i < EXPECTED_COUNT; i++) {
        const expected_link *want = &expected_links[i];
        const collcalc_link *link = collcalc_link_table_find(table, want->name);
        assert_non_null(link);
        print_message("%s\n", want->name);
        assert_int_equal(link->tier, want->tier);
        assert_int_equal(link->link_class, want->link_class);
        assert_true(link->bw_per_direction_GBps == want->bw_per_direction_GBps);
        assert_true(link->headline_GBps == want->headline_GBps);
        assert_int_equal(link->headline_counts, want->headline_counts);
        assert_true(link->alpha_us == want->alpha_us);
        /* "both directions" headlines are exactly twice the per-direction figure. */
        if (link->headline_counts == COLLCALC_HEADLINE_BOTH_DIRECTIONS)
            assert_true(link->headline_GBps == 2 * link->bw_per_direction_GBps);
        assert_true(collcalc_link_bandwidth_GBps(link, COLLCALC_BW_PER_DIRECTION) ==
                    want->bw_per_direction_GBps);
        assert_true(collcalc_link_bandwidth_GBps(link, COLLCALC_BW_HEADLINE) ==
                    want->headline_GBps);
    }
    collcalc_link_table_free(table);
}

static double headline(const collcalc_link_table *table, const char *name)
{
    const collcalc_link *link = collcalc_link_table_find(table, name);
    assert_non_null(link);
    return collcalc_link_bandwidth_GBps(link, COLLCALC_BW_HEADLINE);
}

/* The textbook bandwidth-cliff ratios, with --bw-basis headline. */
static void test_seed_ratios(void **state)
{
    (void)state;
    collcalc_link_table *table = load_builtin();
    assert_true(headline(table, "nvlink5") / headline(table, "ib-ndr") == 36.0);
    assert_true(headline(table, "nvlink5") / headline(table, "pcie5") == 28.125);
    assert_true(fabs(headline(table, "pcie5") / headline(table, "ib-ndr") - 1.28) < 1e-12);
    assert_true(fabs(headline(table, "hbm3") / headline(table, "nvlink5") - 1.86) < 0.005);
    assert_true(fabs(headline(table, "hbm3e-b200") / headline(table, "nvlink5") - 4.44) < 0.005);
    assert_true(headline(table, "ib-ndr") / headline(table, "eth100") == 4.0);
    /* Per direction the NVLink/IB cliff is 18x (doc/MODEL.md §5). */
    const collcalc_link *nvl = collcalc_link_table_find(table, "nvlink5");
    const collcalc_link *ndr = collcalc_link_table_find(table, "ib-ndr");
    assert_true(collcalc_link_bandwidth_GBps(nvl, COLLCALC_BW_PER_DIRECTION) /
                    collcalc_link_bandwidth_GBps(ndr, COLLCALC_BW_PER_DIRECTION) ==
                18.0);
    /* NDR's measured point-to-point efficiency (NVIDIA: 46-48 GB/s per NIC)
     * reaches the model's link parameters; links without one stay at 0. */
    assert_true(ndr->p2p_efficiency == 0.94);
    assert_non_null(strstr(ndr->p2p_efficiency_source, "46-48GB/s"));
    assert_true(nvl->p2p_efficiency == 0.0);
    collcalc_link_params params;
    collcalc_link_params_from_link(ndr, COLLCALC_BW_PER_DIRECTION, &params);
    assert_true(params.p2p_efficiency == 0.94);
    collcalc_link_table_free(table);
}

static void test_find_by_alias_and_case(void **state)
{
    (void)state;
    collcalc_link_table *table = load_builtin();
    static const struct {
        const char *query;
        const char *name; /* NULL: not found */
    } cases[] = {
        {"nvlink5", "nvlink5"}, {"NVLink5", "nvlink5"}, {"nvl5", "nvlink5"},
        {"NVL5", "nvlink5"},    {"roce400", "eth400"},  {"400GbE", "eth400"},
        {"ndr", "ib-ndr"},      {"PCIe5.0", "pcie5"},   {"pcie-gen4", "pcie4"},
        {"hbm3-h100", "hbm3"},  {"nvlink", NULL},       {"nvlink55", NULL},
        {"", NULL},             {"nvl5 ", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const collcalc_link *link = collcalc_link_table_find(table, cases[i].query);
        if (cases[i].name == NULL) {
            assert_null(link);
        } else {
            assert_non_null(link);
            assert_string_equal(link->name, cases[i].name);
        }
    }
    assert_null(collcalc_link_table_find(table, NULL));
    assert_null(collcalc_link_table_find(NULL, "nvlink5"));
    collcalc_link_table_free(table);
}

/* The compiled-in text is the file in the tree (the embed step is not stale). */
static void test_builtin_is_data_file(void **state)
{
    (void)state;
    size_t length = 0;
    char *file = test_read_file(test_source_path("data/links.json"), &length);
    assert_int_equal(strlen(collcalc_builtin_links_json()), length);
    assert_memory_equal(collcalc_builtin_links_json(), file, length);
    free(file);
}

static void test_table_accessors_and_names(void **state)
{
    (void)state;
    collcalc_link_table *table = load_builtin();
    assert_string_equal(collcalc_link_table_at(table, 0)->name, "hbm2e");
    assert_null(collcalc_link_table_at(table, EXPECTED_COUNT));
    assert_null(collcalc_link_table_at(NULL, 0));
    assert_int_equal(collcalc_link_table_count(NULL), 0);
    collcalc_link_table_free(table);
    collcalc_link_table_free(NULL);

    assert_string_equal(collcalc_tier_name(COLLCALC_TIER_ON_PACKAGE), "on-package");
    assert_string_equal(collcalc_tier_name(COLLCALC_TIER_SCALE_UP), "scale-up");
    assert_string_equal(collcalc_tier_name(COLLCALC_TIER_HOST), "host");
    assert_string_equal(collcalc_tier_name(COLLCALC_TIER_SCALE_OUT), "scale-out");
    assert_string_equal(collcalc_tier_name((collcalc_tier)42), "unknown");
    assert_string_equal(collcalc_link_class_name(COLLCALC_LINK_CLASS_MEMORY), "memory");
    assert_string_equal(collcalc_link_class_name(COLLCALC_LINK_CLASS_NVLINK), "nvlink");
    assert_string_equal(collcalc_link_class_name(COLLCALC_LINK_CLASS_PCI), "pci");
    assert_string_equal(collcalc_link_class_name(COLLCALC_LINK_CLASS_NET), "net");
    assert_string_equal(collcalc_headline_counts_name(COLLCALC_HEADLINE_BOTH_DIRECTIONS),
                        "both-directions");
    assert_string_equal(collcalc_headline_counts_name(COLLCALC_HEADLINE_PER_DIRECTION),
                        "per-direction");
    assert_string_equal(collcalc_headline_counts_name(COLLCALC_HEADLINE_SINGLE_FIGURE),
                        "single-figure");
    assert_string_equal(collcalc_bw_basis_name(COLLCALC_BW_PER_DIRECTION), "per-direction");
    assert_string_equal(collcalc_bw_basis_name(COLLCALC_BW_HEADLINE), "headline");
    assert_true(isnan(collcalc_link_bandwidth_GBps(NULL, COLLCALC_BW_HEADLINE)));
}

/* ---- user tables ---------------------------------------------------------- */

/* A complete, valid link whose name is given. */
#define LINK(name)                                                                    \
    "{\"name\": \"" name "\", \"tier\": \"scale-up\", \"class\": \"nvlink\", "        \
    "\"bw_per_direction_GBps\": 900, \"headline_GBps\": 1800, "                       \
    "\"headline_counts\": \"both-directions\", \"alpha_us\": 2.0"
#define END "}"
#define DOC(links) "{\"schema_version\": 1, \"links\": [" links "]}"

/* Parses text (length bytes, not NUL-terminated: a copy of exactly that size
 * lets ASan catch any read past the end). */
static collcalc_status parse_exact(const char *text, size_t length, collcalc_link_table **table,
                                   collcalc_diag *diag)
{
    char *copy = malloc(length > 0 ? length : 1);
    assert_non_null(copy);
    memcpy(copy, text, length);
    collcalc_status status = collcalc_link_table_parse(copy, length, table, diag);
    free(copy);
    return status;
}

static void test_minimal_tables_load(void **state)
{
    (void)state;
    static const char *const good[] = {
        DOC(LINK("a") END),
        /* Optional fields present, in another order, with a byte-order mark. */
        "\xEF\xBB\xBF" DOC("{\"sources\": {\"alpha_us\": \"measured\"}, \"aliases\": [], "
                           "\"description\": \"caf\\u00e9 \xC3\xA9 \\ud83d\\ude00\", "
                           "\"alpha_us\": 0, \"headline_counts\": \"per-direction\", "
                           "\"headline_GBps\": 1e5, \"bw_per_direction_GBps\": 1e-3, "
                           "\"class\": \"net\", \"tier\": \"scale-out\", \"name\": \"x.y-1\"}"),
        DOC(LINK("a") ", \"aliases\": [\"b\", \"c\", \"d\", \"e\"]" END ", " LINK("f") END),
        " \r\n\t" DOC(LINK("0123456789012345678901234567890") END) "\n\n",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        collcalc_diag diag = {{0}};
        collcalc_link_table *table = NULL;
        collcalc_status status = parse_exact(good[i], strlen(good[i]), &table, &diag);
        if (status != COLLCALC_OK)
            print_error("case %zu: %s\n", i, diag.message);
        assert_int_equal(status, COLLCALC_OK);
        assert_non_null(table);
        const collcalc_link *first = collcalc_link_table_at(table, 0);
        assert_true(first->bw_per_direction_GBps > 0);
        collcalc_link_table_free(table);
    }

    collcalc_diag diag = {{0}};
    collcalc_link_table *table = NULL;
    assert_int_equal(parse_exact(good[1], strlen(good[1]), &table, &diag), COLLCALC_OK);
    const collcalc_link *link = collcalc_link_table_at(table, 0);
    assert_string_equal(link->name, "x.y-1");
    assert_string_equal(link->description, "caf\xC3\xA9 \xC3\xA9 \xF0\x9F\x98\x80");
    assert_string_equal(link->alpha_source, "measured");
    assert_string_equal(link->bw_source, "");
    assert_string_equal(link->aliases[0], "");
    assert_int_equal(link->tier, COLLCALC_TIER_SCALE_OUT);
    assert_int_equal(link->link_class, COLLCALC_LINK_CLASS_NET);
    collcalc_link_table_free(table);

    assert_int_equal(parse_exact(good[2], strlen(good[2]), &table, &diag), COLLCALC_OK);
    assert_int_equal(collcalc_link_table_count(table), 2);
    assert_ptr_equal(collcalc_link_table_find(table, "E"), collcalc_link_table_at(table, 0));
    assert_ptr_equal(collcalc_link_table_find(table, "f"), collcalc_link_table_at(table, 1));
    collcalc_link_table_free(table);
}

/* A document that must be refused, and what the message must contain (the
 * JSON path, or the line and column of a syntax error). */
typedef struct {
    const char *label;
    const char *text;
    const char *expect;
} bad_case;

static const bad_case bad_cases[] = {
    {"empty text", "", "not valid JSON: the document is empty"},
    {"only spaces", " \n\t ", "not valid JSON: the document is empty"},
    {"not JSON, with line:col", "{\n  \"schema_version\": 1,\n  \"links\": [ }",
     "line 3, column 14: not valid JSON: expected a value"},
    {"truncated", "{\"schema_version\": 1,",
     "line 1, column 22: not valid JSON: unexpected end of document, expected a string key"},
    {"bare word", "links", "line 1, column 1: not valid JSON: expected a value"},
    {"single quotes", "{'schema_version': 1}", "column 2: not valid JSON: expected a string key"},
    {"trailing comma", DOC(LINK("a") ",}"), "not valid JSON: expected a string key"},
    {"trailing text", DOC(LINK("a") END) " x",
     "not valid JSON: unexpected text after the JSON value"},
    {"two documents", DOC(LINK("a") END) DOC(LINK("a") END),
     "not valid JSON: unexpected text after the JSON value"},
    {"leading zero", DOC(LINK("a") ", \"aliases\": [], \"x\": 01" END),
     "not valid JSON: invalid number (leading zero)"},
    {"bare minus", "[-]", "line 1, column 2: not valid JSON: invalid number"},
    {"nan word", "{\"schema_version\": NaN}", "column 20: not valid JSON: expected a value"},
    {"infinity word", "{\"schema_version\": Infinity}", "not valid JSON: expected a value"},
    {"control character in string", "{\"schema_version\": \"a\tb\"}",
     "column 22: not valid JSON: control character in a string"},
    {"line break in string", "{\"a\n\": 1}", "not valid JSON: line break inside a string"},
    {"bad escape", "{\"a\\x\": 1}", "column 4: not valid JSON: invalid escape in a string"},
    {"bad \\u escape", "[\"\\u12G4\"]", "not valid JSON: invalid \\u escape (needs 4 hex digits)"},
    {"\\u0000 in a name", DOC(LINK("a\\u0000b") END),
     "not valid JSON: \\u0000 (NUL) is not allowed in a string"},
    {"lone low surrogate", "[\"\\udc00\"]", "not valid JSON: invalid \\u escape (low surrogate"},
    {"lone high surrogate", "[\"\\ud800x\"]", "not valid JSON: invalid \\u escape (high surrogate"},
    {"invalid UTF-8", "[\"\xC3\x28\"]", "line 1, column 3: not valid JSON: invalid UTF-8"},
    {"overlong UTF-8", "[\"\xC0\xAF\"]", "not valid JSON: invalid UTF-8"},
    {"UTF-8 surrogate", "[\"\xED\xA0\x80\"]", "not valid JSON: invalid UTF-8"},
    {"column counts characters", "[\"\xC3\xA9\xC3\xA9\", x]",
     "line 1, column 8: not valid JSON: expected a value"},
    {"unterminated string", "{\"schema_version\": \"1",
     "line 1, column 20: not valid JSON: unterminated string"},
    {"top-level array", "[]", "top level: must be an object, not an array"},
    {"top-level string", "\"links\"", "top level: must be an object, not a string (\"links\")"},
    {"missing schema_version", "{\"links\": [" LINK("a") END "]}",
     "top level: missing required key 'schema_version'"},
    {"missing links", "{\"schema_version\": 1}", "top level: missing required key 'links'"},
    {"schema_version 2", "{\"schema_version\": 2, \"links\": [" LINK("a") END "]}",
     "schema_version: unsupported version 2 (this collcalc reads 1)"},
    {"schema_version 1.5", "{\"schema_version\": 1.5, \"links\": []}",
     "schema_version: must be a whole number (got 1.5)"},
    {"schema_version as string", "{\"schema_version\": \"1\", \"links\": []}",
     "schema_version: must be a whole number, not a string (\"1\")"},
    {"schema_version huge", "{\"schema_version\": 1e300, \"links\": []}",
     "schema_version: must be <= 2147483647 (got 1e+300)"},
    {"duplicate top-level key", "{\"schema_version\": 1, \"schema_version\": 1, \"links\": []}",
     "top level: duplicate key 'schema_version'"},
    {"unknown top-level key", "{\"schema_version\": 1, \"link\": []}",
     "top level: unknown key 'link' (did you mean 'links'?)"},
    {"links not an array", "{\"schema_version\": 1, \"links\": {}}",
     "links: must be an array, not an object"},
    {"links null", "{\"schema_version\": 1, \"links\": null}", "links: must be an array, not null"},
    {"empty links", DOC(""), "links: must have at least 1 element (has 0)"},
    {"link not an object", DOC(LINK("a") END ", 7"), "links[1]: must be an object, not a number"},
    {"string for a number", DOC(LINK("a") END ", {\"name\": \"b\", \"tier\": \"host\", "
                                "\"class\": \"pci\", \"bw_per_direction_GBps\": \"450\", "
                                "\"headline_GBps\": 1, \"headline_counts\": \"per-direction\", "
                                "\"alpha_us\": 1}"),
     "links[1].bw_per_direction_GBps: must be a number, not a string (\"450\")"},
    {"null for a number",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 1, \"headline_GBps\": null, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].headline_GBps: must be a number, not null"},
    {"negative bandwidth",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": -1, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].bw_per_direction_GBps: must be between 0.001 and 100000 GB/s (got -1)"},
    {"zero bandwidth",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 0, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].bw_per_direction_GBps: must be between 0.001 and 100000 GB/s (got 0)"},
    {"1e999 bandwidth",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 1e999, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].bw_per_direction_GBps: must be a finite number"},
    {"-1e999 headline",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 1, \"headline_GBps\": -1e999, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].headline_GBps: must be a finite number"},
    {"bandwidth above the physical bound",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 100000.5, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].bw_per_direction_GBps: must be between 0.001 and 100000 GB/s (got 100000.5): outside the physical bounds "
     "of data/README.md"},
    {"5e-324 GB/s (accepted before, then every query overflowed)",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 5e-324, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].bw_per_direction_GBps: must be between 0.001 and 100000 GB/s (got 5e-324)"},
    {"headline below the physical bound",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 1, \"headline_GBps\": 0.0009, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].headline_GBps: must be between 0.001 and 100000 GB/s (got 0.0009)"},
    {"alpha above 1 s",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 1, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1000001}"),
     "links[0].alpha_us: must be 0 or between 0.000001 and 1000000 us (got 1000001)"},
    {"alpha below 1 ps",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 1, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1e-300}"),
     "links[0].alpha_us: must be 0 or between 0.000001 and 1000000 us (got 1e-300)"},
    {"1e-999 bandwidth underflows to 0",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 1e-999, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].bw_per_direction_GBps: must be between 0.001 and 100000 GB/s (got 0)"},
    {"negative alpha",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 1, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": -0.5}"),
     "links[0].alpha_us: must be 0 or between 0.000001 and 1000000 us (got -0.5)"},
    {"alpha as boolean",
     DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 1, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": true}"),
     "links[0].alpha_us: must be a number, not a boolean"},
    {"unknown key (typo)", DOC(LINK("a") END ", " LINK("b") ", \"bandwith_GBps\": 1" END ", "
                               LINK("c") END),
     "links[1]: unknown key 'bandwith_GBps' (allowed: name, aliases, description, tier, class, "
     "bw_per_direction_GBps, headline_GBps, headline_counts, alpha_us, p2p_efficiency, sources)"},
    {"p2p efficiency above 1", DOC(LINK("a") ", \"p2p_efficiency\": 1.5" END),
     "links[0].p2p_efficiency: must be a fraction of the line rate, 0.05..1 (got 1.5)"},
    {"p2p efficiency 0", DOC(LINK("a") ", \"p2p_efficiency\": 0" END),
     "links[0].p2p_efficiency: must be a fraction of the line rate, 0.05..1 (got 0)"},
    {"unknown key (near miss)", DOC(LINK("a") ", \"alpha_usec\": 1" END),
     "links[0]: unknown key 'alpha_usec' (did you mean 'alpha_us'?)"},
    {"unknown key (case)", DOC(LINK("a") ", \"Tier\": \"host\"" END),
     "links[0]: unknown key 'Tier' (did you mean 'tier'?)"},
    {"duplicate key in a link", DOC(LINK("a") ", \"alpha_us\": 3" END),
     "links[0]: duplicate key 'alpha_us'"},
    {"missing required key",
     DOC("{\"name\": \"a\", \"class\": \"pci\", \"bw_per_direction_GBps\": 1, "
         "\"headline_GBps\": 1, \"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0]: missing required key 'tier'"},
    {"duplicate link name", DOC(LINK("a") END ", " LINK("b") END ", " LINK("a") END),
     "links[2].name: 'a' is already the name of links[0]"},
    {"alias repeats another link's name",
     DOC(LINK("a") END ", " LINK("b") ", \"aliases\": [\"c\", \"a\"]" END),
     "links[1].aliases[1]: 'a' is already the name of links[0]"},
    {"name repeats another link's alias",
     DOC(LINK("a") ", \"aliases\": [\"x\"]" END ", " LINK("x") END),
     "links[1].name: 'x' is already an alias of links[0] ('a')"},
    {"alias repeats own name", DOC(LINK("a") ", \"aliases\": [\"a\"]" END),
     "links[0].aliases[0]: 'a' is already the name of links[0]"},
    {"alias repeated", DOC(LINK("a") ", \"aliases\": [\"b\", \"b\"]" END),
     "links[0].aliases[1]: 'b' is already an alias of links[0] ('a')"},
    {"too many aliases", DOC(LINK("a") ", \"aliases\": [\"b\", \"c\", \"d\", \"e\", \"f\"]" END),
     "links[0].aliases: must have at most 4 elements (has 5)"},
    {"aliases not an array", DOC(LINK("a") ", \"aliases\": \"b\"" END),
     "links[0].aliases: must be an array, not a string (\"b\")"},
    {"alias not a string", DOC(LINK("a") ", \"aliases\": [\"b\", 5]" END),
     "links[0].aliases[1]: must be a string, not a number"},
    {"bad alias characters", DOC(LINK("a") ", \"aliases\": [\"roce_400\"]" END),
     "links[0].aliases[0]: character 5 ('_') not allowed: use a-z, 0-9, '.' and '-'"},
    {"bad tier word", DOC("{\"name\": \"a\", \"tier\": \"scale_up\", \"class\": \"pci\", "
                          "\"bw_per_direction_GBps\": 1, \"headline_GBps\": 1, "
                          "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].tier: must be one of on-package, scale-up, host, scale-out (got 'scale_up')"},
    {"bad class word", DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"ib\", "
                           "\"bw_per_direction_GBps\": 1, \"headline_GBps\": 1, "
                           "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].class: must be one of memory, nvlink, pci, net (got 'ib')"},
    {"bad headline_counts word", DOC("{\"name\": \"a\", \"tier\": \"host\", \"class\": \"pci\", "
                                     "\"bw_per_direction_GBps\": 1, \"headline_GBps\": 1, "
                                     "\"headline_counts\": \"bidirectional\", \"alpha_us\": 1}"),
     "links[0].headline_counts: must be one of both-directions, per-direction, single-figure "
     "(got 'bidirectional')"},
    {"bad name characters", DOC(LINK("NVLink5") END),
     "links[0].name: character 1 ('N') not allowed: use a-z, 0-9, '.' and '-'"},
    {"space in name", DOC(LINK("nv link") END),
     "links[0].name: character 3 (byte 0x20) not allowed"},
    {"tab escape in name", DOC(LINK("nv\\tlink") END),
     "links[0].name: character 3 (byte 0x09) not allowed"},
    {"empty name", DOC(LINK("") END), "links[0].name: must not be empty"},
    {"name too long", DOC(LINK("01234567890123456789012345678901") END),
     "links[0].name: too long: 32 bytes (at most 31)"},
    {"name not a string",
     DOC("{\"name\": [\"a\"], \"tier\": \"host\", \"class\": \"pci\", "
         "\"bw_per_direction_GBps\": 1, \"headline_GBps\": 1, "
         "\"headline_counts\": \"per-direction\", \"alpha_us\": 1}"),
     "links[0].name: must be a string, not an array"},
    {"description too long",
     DOC(LINK("a") ", \"description\": \""
                   "0123456789012345678901234567890123456789012345678901234567890123"
                   "0123456789012345678901234567890123456789012345678901234567890123"
                   "0123456789012345678901234567890123456789012345678901234567890123"
                   "0123456789012345678901234567890123456789012345678901234567890123"
                   "\"" END),
     "links[0].description: too long: 256 bytes (at most 255)"},
    {"empty description", DOC(LINK("a") ", \"description\": \"\"" END),
     "links[0].description: must not be empty"},
    {"sources not an object", DOC(LINK("a") ", \"sources\": \"seed\"" END),
     "links[0].sources: must be an object, not a string (\"seed\")"},
    {"unknown source key", DOC(LINK("a") ", \"sources\": {\"bandwidth\": \"x\"}" END),
     "links[0].sources: unknown key 'bandwidth'"},
    {"source not a string", DOC(LINK("a") ", \"sources\": {\"alpha_us\": 2}" END),
     "links[0].sources.alpha_us: must be a string, not a number"},
    {"duplicate source key",
     DOC(LINK("a") ", \"sources\": {\"alpha_us\": \"x\", \"alpha_us\": \"y\"}" END),
     "links[0].sources: duplicate key 'alpha_us'"},
    {"unknown key with control characters", DOC(LINK("a") ", \"a\\nb\": 1" END),
     "links[0]: unknown key 'a\\x0Ab'"},
    {"deeply nested garbage",
     "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
     "line 1, column 65: not valid JSON: nested too deeply (at most 64 levels)"},
    {"nesting in a valid place", DOC(LINK("a") ", \"x\": [[[[[[[[[[]]]]]]]]]]" END),
     "links[0]: unknown key 'x'"},
};

static void test_bad_documents(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        collcalc_diag diag = {{0}};
        collcalc_link_table *table = (collcalc_link_table *)&diag; /* must be reset to NULL */
        collcalc_status status = parse_exact(c->text, strlen(c->text), &table, &diag);
        if (status != COLLCALC_ERR_INVALID || strstr(diag.message, c->expect) == NULL)
            print_error("case '%s': status %s, message \"%s\"\n  expected \"%s\"\n", c->label,
                        collcalc_status_name(status), diag.message, c->expect);
        assert_int_equal(status, COLLCALC_ERR_INVALID);
        assert_null(table);
        assert_contains(diag.message, c->expect);
        /* One line, always: the CLI prints it after "collcalc: ". */
        for (const char *p = diag.message; *p != '\0'; p++)
            assert_true((unsigned char)*p >= 0x20);
    }
}

/* Bad documents that need explicit lengths or are built at run time. */
static void test_bad_documents_binary(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    collcalc_link_table *table = NULL;

    static const char with_nul[] = "{\"schema_version\": 1,\n \"li\0nks\": []}";
    assert_int_equal(parse_exact(with_nul, sizeof with_nul - 1, &table, &diag),
                     COLLCALC_ERR_INVALID);
    assert_null(table);
    assert_string_equal(diag.message, "line 2, column 5: not valid JSON: contains a NUL byte");

    /* A NUL right after a complete document is still refused (a C reader
     * would have stopped there, the length says otherwise). */
    static const char nul_after[] = DOC(LINK("a") END) "\0";
    assert_int_equal(parse_exact(nul_after, sizeof nul_after - 1, &table, &diag),
                     COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "contains a NUL byte");

    /* The length is honoured: a valid document cut short is a syntax error. */
    static const char whole[] = DOC(LINK("a") END);
    assert_int_equal(parse_exact(whole, sizeof whole - 2, &table, &diag), COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "unexpected end of document, expected ',' or '}'");
    assert_int_equal(collcalc_link_table_parse(NULL, 0, &table, &diag), COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_link_table_parse(whole, sizeof whole - 1, NULL, &diag),
                     COLLCALC_ERR_INVALID);

    /* 100,000 levels of nesting: refused at level 65, no stack overflow. */
    size_t depth = 100000;
    char *deep = malloc(2 * depth);
    assert_non_null(deep);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    assert_int_equal(parse_exact(deep, 2 * depth, &table, &diag), COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "line 1, column 65: not valid JSON: nested too deeply");
    free(deep);

    /* 64 levels are fine for the syntax (and then wrong for the schema). */
    char ok_depth[129];
    memset(ok_depth, '[', 64);
    memset(ok_depth + 64, ']', 64);
    assert_int_equal(parse_exact(ok_depth, 128, &table, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "top level: must be an object, not an array");

    /* More links than a table may hold. */
    size_t count = COLLCALC_LINKS_MAX + 1, capacity = 64 + count * 4;
    char *many = malloc(capacity);
    assert_non_null(many);
    size_t length = (size_t)snprintf(many, capacity, "{\"schema_version\": 1, \"links\": [");
    for (size_t i = 0; i < count; i++)
        length += (size_t)snprintf(many + length, capacity - length, "%s1", i ? "," : "");
    length += (size_t)snprintf(many + length, capacity - length, "]}");
    assert_int_equal(parse_exact(many, length, &table, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "links: must have at most 256 elements (has 257)");
    free(many);
}

/* ---- allocation failures ------------------------------------------------ */

/* One load of the built-in table for test_allocation_failure_loop. */
static collcalc_status load_builtin_attempt(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    const char *json = collcalc_builtin_links_json();
    collcalc_link_table *table = NULL;
    collcalc_status status = collcalc_link_table_parse(json, strlen(json), &table, diag);
    if (status == COLLCALC_OK)
        assert_int_equal(collcalc_link_table_count(table), EXPECTED_COUNT);
    else
        assert_null(table);
    collcalc_link_table_free(table);
    return status;
}

/* Every allocation in a load fails in turn: each must report NOMEM with no
 * table and no leak (ASan and valgrind check the leaks). */
static void test_allocation_failures(void **state)
{
    (void)state;
    /* > 100: the loop really went through the parse */
    assert_true(test_allocation_failure_loop("links builtin", load_builtin_attempt, NULL) > 100);
}

/* ---- json_check, the generic layer -------------------------------------- */

static cJSON *parse_ok(collcalc_json_ctx *ctx, const char *text)
{
    cJSON *root = NULL;
    collcalc_status status = collcalc_json_parse(ctx, text, strlen(text), &root);
    if (status != COLLCALC_OK)
        print_error("%s\n", ctx->diag != NULL ? ctx->diag->message : "");
    assert_int_equal(status, COLLCALC_OK);
    assert_non_null(root);
    return root;
}

static void test_json_path_builder(void **state)
{
    (void)state;
    collcalc_json_path path;
    collcalc_json_path_init(&path);
    assert_string_equal(collcalc_json_path_text(&path), "top level");
    collcalc_json_path_push_key(&path, "links");
    collcalc_json_path_push_index(&path, 3);
    collcalc_json_path_push_key(&path, "bw_per_direction_GBps");
    assert_string_equal(collcalc_json_path_text(&path), "links[3].bw_per_direction_GBps");
    collcalc_json_path_pop(&path);
    collcalc_json_path_push_key(&path, "odd key\"");
    assert_string_equal(collcalc_json_path_text(&path), "links[3][\"odd key\"\"]");
    collcalc_json_path_pop(&path);
    collcalc_json_path_pop(&path);
    collcalc_json_path_pop(&path);
    collcalc_json_path_pop(&path); /* one too many: harmless */
    assert_string_equal(collcalc_json_path_text(&path), "top level");
    collcalc_json_path_push_index(&path, 0);
    assert_string_equal(collcalc_json_path_text(&path), "[0]");
    collcalc_json_path_pop(&path);

    /* Deeper than the mark stack and longer than the buffer: truncated,
     * terminated, and balanced again after as many pops. */
    for (int i = 0; i < 3 * COLLCALC_JSON_DEPTH_MAX; i++)
        collcalc_json_path_push_key(&path, "abcdefghij");
    assert_true(strlen(path.text) < COLLCALC_JSON_PATH_MAX);
    assert_non_null(strstr(path.text, "..."));
    for (int i = 0; i < 3 * COLLCALC_JSON_DEPTH_MAX; i++)
        collcalc_json_path_pop(&path);
    assert_string_equal(collcalc_json_path_text(&path), "top level");
}

static void test_json_parse_positions(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    collcalc_json_ctx ctx;
    collcalc_json_ctx_init(&ctx, "links.json", &diag);
    cJSON *root = (cJSON *)&diag;
    assert_int_equal(collcalc_json_parse(&ctx, "{\n  \"a\": 1,\n  \"b\": tru }", 24, &root),
                     COLLCALC_ERR_INVALID);
    assert_null(root);
    assert_string_equal(diag.message, "links.json:3:8: not valid JSON: expected a value");
    assert_int_equal(collcalc_json_parse(&ctx, "", 0, &root), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "links.json: not valid JSON: the document is empty");

    /* Only length bytes are read. */
    root = NULL;
    assert_int_equal(collcalc_json_parse(&ctx, "[1, 2]garbage", 6, &root), COLLCALC_OK);
    assert_int_equal(cJSON_GetArraySize(root), 2);
    cJSON_Delete(root);

    /* No diag is fine. */
    collcalc_json_ctx_init(&ctx, NULL, NULL);
    assert_int_equal(collcalc_json_parse(&ctx, "{", 1, &root), COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_json_fail(&ctx, "x %d", 1), COLLCALC_ERR_INVALID);
}

static void test_json_integer_getter(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    collcalc_json_ctx ctx;
    collcalc_json_ctx_init(&ctx, "f.json", &diag);
    cJSON *root = parse_ok(&ctx, "{\"half\": 1.5, \"huge\": 1e300, \"big\": 1e16, \"edge\": "
                                 "9007199254740992, \"neg\": -0, \"text\": \"7\", \"yes\": true, "
                                 "\"inf\": 1e999, \"ok\": 42}");
    int64_t value = -1;
    static const struct {
        const char *key;
        int64_t min, max;
        const char *expect;
    } bad[] = {
        {"half", 0, 100, "f.json: half: must be a whole number (got 1.5)"},
        {"huge", 0, 100, "f.json: huge: must be <= 100 (got 1e+300)"},
        {"huge", INT64_MIN, INT64_MAX, "f.json: huge: must be <= 9223372036854775807 (got 1e+300)"},
        {"big", INT64_MIN, INT64_MAX, "f.json: big: too large to be exact (got 1e+16; at most 2^53)"},
        {"text", 0, 100, "f.json: text: must be a whole number, not a string (\"7\")"},
        {"yes", 0, 100, "f.json: yes: must be a whole number, not a boolean"},
        {"inf", 0, 100, "f.json: inf: must be a finite number"},
        {"ok", 0, 41, "f.json: ok: must be <= 41 (got 42)"},
        {"ok", 43, 100, "f.json: ok: must be >= 43 (got 42)"},
        {"absent", 0, 100, "f.json: absent: required but missing"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(collcalc_json_get_integer(&ctx, root, bad[i].key, bad[i].min,
                                                   bad[i].max, &value),
                         COLLCALC_ERR_INVALID);
        assert_contains(diag.message, bad[i].expect);
        assert_int_equal(value, -1); /* untouched on failure */
    }
    assert_int_equal(collcalc_json_get_integer(&ctx, root, "ok", 42, 42, &value), COLLCALC_OK);
    assert_int_equal(value, 42);
    assert_int_equal(collcalc_json_get_integer(&ctx, root, "neg", -1, 1, &value), COLLCALC_OK);
    assert_int_equal(value, 0);
    assert_int_equal(
        collcalc_json_get_integer(&ctx, root, "edge", INT64_MIN, INT64_MAX, &value), COLLCALC_OK);
    assert_int_equal(value, INT64_C(9007199254740992));
    assert_string_equal(collcalc_json_path_text(&ctx.path), "top level"); /* balanced */
    cJSON_Delete(root);
}

static void test_json_number_getter(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    collcalc_json_ctx ctx;
    collcalc_json_ctx_init(&ctx, NULL, &diag);
    cJSON *root = parse_ok(&ctx, "{\"zero\": 0, \"one\": 1, \"str\": \"450\", \"minf\": -1e999, "
                                 "\"tiny\": 2.5e-7, \"arr\": [1]}");
    double value = -1;
    assert_int_equal(collcalc_json_get_number(&ctx, root, "zero", 0, 1, 0u, &value), COLLCALC_OK);
    assert_true(value == 0);
    assert_int_equal(collcalc_json_get_number(&ctx, root, "zero", 0, 1,
                                              COLLCALC_JSON_MIN_EXCLUSIVE, &value),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "zero: must be > 0 (got 0)");
    assert_int_equal(collcalc_json_get_number(&ctx, root, "one", 0, 1,
                                              COLLCALC_JSON_MAX_EXCLUSIVE, &value),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "one: must be < 1 (got 1)");
    assert_int_equal(collcalc_json_get_number(&ctx, root, "str", 0, 1000, 0u, &value),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "str: must be a number, not a string (\"450\")");
    assert_int_equal(collcalc_json_get_number(&ctx, root, "minf", -1e308, 0, 0u, &value),
                     COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "minf: must be a finite number");
    assert_int_equal(collcalc_json_get_number(&ctx, root, "tiny", 1e-6, 1, 0u, &value),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "tiny: must be >= 1e-06 (got 2.5e-07)");
    assert_int_equal(collcalc_json_get_number(&ctx, root, "arr", 0, 1, 0u, &value),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "arr: must be a number, not an array");

    /* NaN cannot come from JSON text, but a tree built in code can hold one. */
    cJSON *nan_item = cJSON_CreateNumber(NAN);
    assert_non_null(nan_item);
    assert_int_equal(collcalc_json_as_number(&ctx, nan_item, -1e308, 1e308, 0u, &value),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "top level: must be a finite number (got nan)");
    cJSON_Delete(nan_item);
    assert_int_equal(collcalc_json_as_number(&ctx, NULL, 0, 1, 0u, &value), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "top level: required but missing");
    assert_true(value == 0);
    cJSON_Delete(root);
}

static void test_json_string_enum_bool_array(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    collcalc_json_ctx ctx;
    collcalc_json_ctx_init(&ctx, NULL, &diag);
    cJSON *root = parse_ok(&ctx, "{\"s\": \"abc\", \"e\": \"\", \"n\": 5, \"b\": false, "
                                 "\"a\": [1, 2, 3], \"o\": {}}");
    const char *text = NULL;
    assert_int_equal(collcalc_json_get_string(&ctx, root, "s", 3, &text), COLLCALC_OK);
    assert_string_equal(text, "abc");
    assert_int_equal(collcalc_json_get_string(&ctx, root, "s", 2, &text), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "s: too long: 3 bytes (at most 2)");
    assert_int_equal(collcalc_json_get_string(&ctx, root, "e", 2, &text), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "e: must not be empty");
    assert_int_equal(collcalc_json_get_string(&ctx, root, "n", 2, &text), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "n: must be a string, not a number");

    char buffer[4];
    assert_int_equal(collcalc_json_get_string_copy(&ctx, root, "s", buffer, sizeof buffer),
                     COLLCALC_OK);
    assert_string_equal(buffer, "abc");
    assert_int_equal(collcalc_json_get_string_copy(&ctx, root, "s", buffer, 3),
                     COLLCALC_ERR_INVALID);

    static const char *const words[] = {"xyz", "abc"};
    size_t index = 9;
    assert_int_equal(collcalc_json_get_enum(&ctx, root, "s", words, 2, &index), COLLCALC_OK);
    assert_int_equal(index, 1);
    assert_int_equal(collcalc_json_get_enum(&ctx, root, "e", words, 2, &index),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "e: must be one of xyz, abc (got '')");
    assert_int_equal(collcalc_json_get_enum(&ctx, root, "n", words, 2, &index),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "n: must be a string, not a number");

    bool flag = true;
    assert_int_equal(collcalc_json_get_bool(&ctx, root, "b", &flag), COLLCALC_OK);
    assert_false(flag);
    assert_int_equal(collcalc_json_get_bool(&ctx, root, "n", &flag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "n: must be true or false, not a number");

    size_t count = 0;
    const cJSON *array = collcalc_json_enter(&ctx, root, "a");
    assert_int_equal(collcalc_json_as_array(&ctx, array, 1, 3, &count), COLLCALC_OK);
    assert_int_equal(count, 3);
    assert_int_equal(collcalc_json_as_array(&ctx, array, 4, 9, &count), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "a: must have at least 4 elements (has 3)");
    assert_int_equal(collcalc_json_as_array(&ctx, array, 0, 1, &count), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "a: must have at most 1 element (has 3)");
    collcalc_json_leave(&ctx);
    array = collcalc_json_enter(&ctx, root, "o");
    assert_int_equal(collcalc_json_as_array(&ctx, array, 0, 1, &count), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "o: must be an array, not an object");
    collcalc_json_leave(&ctx);

    assert_true(collcalc_json_has(root, "s"));
    assert_false(collcalc_json_has(root, "S")); /* unlike cJSON_HasObjectItem */
    cJSON_Delete(root);
}

static void test_json_check_object(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    collcalc_json_ctx ctx;
    collcalc_json_ctx_init(&ctx, NULL, &diag);
    static const collcalc_json_key keys[] = {{"name", true}, {"size_bytes", false}};
    static const struct {
        const char *text;
        const char *expect; /* NULL: valid */
    } cases[] = {
        {"{\"name\": 1}", NULL},
        {"{\"size_bytes\": 1, \"name\": 1}", NULL},
        {"{}", "top level: missing required key 'name'"},
        {"{\"name\": 1, \"name\": 2}", "top level: duplicate key 'name'"},
        {"{\"name\": 1, \"sise_bytes\": 2}", "unknown key 'sise_bytes' (did you mean 'size_bytes'?)"},
        {"{\"name\": 1, \"colour\": 2}", "unknown key 'colour' (allowed: name, size_bytes)"},
        {"{\"\": 1}", "unknown key '' (allowed: name, size_bytes)"},
        {"{\"name\": 1, \"0123456789012345678901234567890123456789012345678901234567890\": 2}",
         "unknown key '012345678901234567890123456789012345678901234567890123456789...' (allowed"},
        {"[]", "top level: must be an object, not an array"},
        {"null", "top level: must be an object, not null"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *root = parse_ok(&ctx, cases[i].text);
        collcalc_status status = collcalc_json_check_object(&ctx, root, keys, 2);
        if (cases[i].expect == NULL) {
            assert_int_equal(status, COLLCALC_OK);
        } else {
            assert_int_equal(status, COLLCALC_ERR_INVALID);
            assert_contains(diag.message, cases[i].expect);
        }
        cJSON_Delete(root);
    }
    assert_int_equal(collcalc_json_check_object(&ctx, NULL, keys, 2), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "top level: required but missing");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_has_every_link),
        cmocka_unit_test(test_builtin_figures),
        cmocka_unit_test(test_seed_ratios),
        cmocka_unit_test(test_find_by_alias_and_case),
        cmocka_unit_test(test_builtin_is_data_file),
        cmocka_unit_test(test_table_accessors_and_names),
        cmocka_unit_test(test_minimal_tables_load),
        cmocka_unit_test(test_bad_documents),
        cmocka_unit_test(test_bad_documents_binary),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_json_path_builder),
        cmocka_unit_test(test_json_parse_positions),
        cmocka_unit_test(test_json_integer_getter),
        cmocka_unit_test(test_json_number_getter),
        cmocka_unit_test(test_json_string_enum_bool_array),
        cmocka_unit_test(test_json_check_object),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
