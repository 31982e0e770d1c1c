/* Unit tests for the platform preset loader (src/data/platforms.c) and the
 * built-in data/platforms.json, checked against the built-in link table. */
#include "support.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "collcalc/links.h"
#include "collcalc/nccl_model.h"
#include "collcalc/platforms.h"

static collcalc_link_table *load_links(void)
{
    collcalc_diag diag = {{0}};
    collcalc_link_table *links = NULL;
    collcalc_status status = collcalc_link_table_builtin(&links, &diag);
    if (status != COLLCALC_OK)
        print_error("builtin links: %s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    return links;
}

/* Each test gets the built-in link table as its state. */
static int setup_links(void **state)
{
    *state = load_links();
    return *state != NULL ? 0 : -1;
}

static int teardown_links(void **state)
{
    collcalc_link_table_free(*state);
    return 0;
}

static collcalc_platform_table *load_builtin(const collcalc_link_table *links)
{
    collcalc_diag diag = {{0}};
    collcalc_platform_table *table = NULL;
    collcalc_status status = collcalc_platform_table_builtin(links, &table, &diag);
    if (status != COLLCALC_OK)
        print_error("builtin platforms: %s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    assert_non_null(table);
    return table;
}

/* ---- the built-in table ------------------------------------------------- */

/* Expected figures for every built-in platform: the contract with
 * data/platforms.json's sources (memory/host "" where the file leaves them out). */
typedef struct {
    const char *name;
    const char *alias; /* NULL: none */
    int gpus_per_node;
    const char *intra_link;
    const char *inter_link;
    int nics_per_node;
    const char *memory_link;
    const char *host_link;
    bool nvls;
    /* Inputs of the NCCL-faithful model. */
    collcalc_gpu_arch arch;
    collcalc_cpu_vendor cpu;
    collcalc_transport transport;
    int nics_per_gpu;
    bool p2p;
    bool nvswitch;
    int nvlink_links;
} expected_platform;

#define SM75 COLLCALC_GPU_ARCH_SM75
#define SM80 COLLCALC_GPU_ARCH_SM80
#define SM89 COLLCALC_GPU_ARCH_SM89
#define SM90 COLLCALC_GPU_ARCH_SM90
#define SM100 COLLCALC_GPU_ARCH_SM100
#define SM103 COLLCALC_GPU_ARCH_SM103
#define SM120 COLLCALC_GPU_ARCH_SM120
#define GFX942 COLLCALC_GPU_ARCH_GFX942
#define GFX950 COLLCALC_GPU_ARCH_GFX950
#define INTEL COLLCALC_CPU_VENDOR_INTEL
#define AMD COLLCALC_CPU_VENDOR_AMD
#define ARM COLLCALC_CPU_VENDOR_ARM
#define CPU_UNKNOWN COLLCALC_CPU_VENDOR_UNKNOWN
#define IB COLLCALC_TRANSPORT_IB
#define ROCE COLLCALC_TRANSPORT_ROCE
#define EFA COLLCALC_TRANSPORT_EFA
#define SOCKET COLLCALC_TRANSPORT_SOCKET

static const expected_platform expected_platforms[] = {
    {"dgx-a100", "hgx-a100", 8, "nvlink3", "ib-hdr", 8, "hbm2e", "pcie4", false, SM80, AMD, IB, 1, true, true, 12},
    {"hgx-a100-ndr200", NULL, 8, "nvlink3", "ib-ndr200", 8, "hbm2e", "pcie4", false, SM80, CPU_UNKNOWN, IB, 1, true, true, 12},
    {"hgx-h100", "dgx-h100", 8, "nvlink4", "ib-ndr", 8, "hbm3", "pcie5", true, SM90, INTEL, IB, 1, true, true, 18},
    {"hgx-h200", "dgx-h200", 8, "nvlink4", "ib-ndr", 8, "hbm3e", "pcie5", true, SM90, INTEL, IB, 1, true, true, 18},
    {"hgx-h800", NULL, 8, "nvlink4-h800", "ib-ndr", 8, "hbm3", "pcie5", true, SM90, INTEL, IB, 1, true, true, 8},
    {"hgx-b200", "dgx-b200", 8, "nvlink5", "ib-ndr", 8, "hbm3e-b200", "pcie5", true, SM100, INTEL, IB, 1, true, true, 18},
    {"hgx-b200-xdr", NULL, 8, "nvlink5", "ib-xdr", 8, "hbm3e-b200", "pcie5", true, SM100, CPU_UNKNOWN, IB, 1, true, true, 18},
    {"gb200-nvl72", "nvl72", 72, "nvlink5", "ib-ndr", 72, "hbm3e-b200", "nvlink-c2c", true, SM100, ARM, IB, 1, true, true, 18},
    {"l40s-8x-pcie", "g6e.48xlarge", 8, "pcie4", "eth400", 1, "", "pcie4", false, SM89, AMD, EFA, 1, false, false, 0},
    {"rtx2080ti-2x-pcie3", "2080ti-2x", 2, "pcie3", "eth100", 1, "", "pcie3", false, SM75, INTEL, SOCKET, 1, true, false, 0},
    {"workstation-2gpu-nvlink", "nvlink-bridge", 2, "nvlink-bridge2", "eth100", 1, "", "", false,
     COLLCALC_GPU_ARCH_UNKNOWN, CPU_UNKNOWN, COLLCALC_TRANSPORT_SOCKET, 1, true, false, 2},
    /* Cloud machines (public instance specs; see each entry's sources). */
    {"aws-p4d", "p4d.24xlarge", 8, "nvlink3", "eth100", 4, "", "pcie4", false, SM80, INTEL, EFA, 1, true, true, 12},
    {"aws-p4de", "p4de.24xlarge", 8, "nvlink3", "eth100", 4, "hbm2e", "pcie4", false, SM80, INTEL, EFA, 1, true, true, 12},
    {"aws-p5", "p5.48xlarge", 8, "nvlink4", "eth100", 32, "hbm3", "pcie5", true, SM90, AMD, EFA, 4, true, true, 18},
    {"aws-p5en", "p5en.48xlarge", 8, "nvlink4", "eth200", 16, "hbm3e", "pcie5", true, SM90, INTEL, EFA, 2, true, true, 18},
    {"aws-p6-b200", "p6-b200.48xlarge", 8, "nvlink5", "eth400", 8, "hbm3e-b200", "pcie5", true, SM100, INTEL, EFA, 1, true, true, 18},
    {"gcp-a3-high", "a3-highgpu-8g", 8, "nvlink4", "eth200", 4, "hbm3", "pcie5", true, SM90, INTEL, COLLCALC_TRANSPORT_TCPX, 1, true, true, 18},
    {"gcp-a3-mega", "a3-megagpu-8g", 8, "nvlink4", "eth200", 8, "hbm3", "pcie5", true, SM90, INTEL, COLLCALC_TRANSPORT_TCPXO, 1, true, true, 18},
    {"gcp-a3-ultra", "a3-ultragpu-8g", 8, "nvlink4", "eth400", 8, "hbm3e", "pcie5", true, SM90, INTEL, ROCE, 1, true, true, 18},
    {"gcp-a4", "a4-highgpu-8g", 8, "nvlink5", "eth400", 8, "hbm3e-b200", "pcie5", true, SM100, INTEL, ROCE, 1, true, true, 18},
    {"gcp-a4x", "a4x-highgpu-4g", 72, "nvlink5", "eth400", 72, "hbm3e-b200", "nvlink-c2c", true, SM100, ARM, ROCE, 1, true, true, 18},
    {"azure-nd-a100-v4", "nd96asr-v4", 8, "nvlink3", "ib-hdr", 8, "", "pcie4", false, SM80, AMD, IB, 1, true, true, 12},
    {"azure-nd-h100-v5", "nd96isr-h100-v5", 8, "nvlink4", "ib-ndr", 8, "hbm3", "pcie5", true, SM90, INTEL, IB, 1, true, true, 18},
    {"azure-nd-h200-v5", "nd96isr-h200-v5", 8, "nvlink4", "ib-ndr", 8, "hbm3e", "pcie5", true, SM90, INTEL, IB, 1, true, true, 18},
    /* The hardware of 2025-2026 (issue 20): Blackwell Ultra, H20, AMD on RCCL, PCIe boxes. */
    {"hgx-b300", "dgx-b300", 8, "nvlink5", "ib-xdr", 8, "hbm3e-b200", "pcie6", true, SM103, INTEL, IB, 1, true, true, 18},
    {"oci-b300", "bm.gpu.b300.8", 8, "nvlink5", "eth400", 16, "hbm3e-b200", "pcie6", true, SM103, INTEL, ROCE, 2, true, true, 18},
    {"hgx-h20", "h20-8x", 8, "nvlink4", "eth400", 4, "hbm3-h20", "pcie5", true, SM90, INTEL, ROCE, 1, true, true, 18},
    {"hgx-h20-ndr", "h20-8x-ndr", 8, "nvlink4", "ib-ndr", 8, "hbm3-h20", "pcie5", true, SM90, INTEL, IB, 1, true, true, 18},
    {"gb300-nvl72", "nvl72-gb300", 72, "nvlink5", "ib-xdr", 72, "hbm3e-b200", "nvlink-c2c", true, SM103, ARM, IB, 1, true, true, 18},
    {"oci-gb300-nvl72", "bm.gpu.gb300.4", 72, "nvlink5", "eth400", 144, "hbm3e-b200", "nvlink-c2c", true, SM103, ARM, ROCE, 2, true, true, 18},
    {"gcp-a4x-max", "a4x-maxgpu-4g-metal", 72, "nvlink5", "eth400", 144, "hbm3e-b200", "nvlink-c2c", true, SM103, ARM, ROCE, 2, true, true, 18},
    {"mi300x-8x", "amd-mi300x", 8, "xgmi-mi300x", "ib-ndr", 8, "hbm3-mi300x", "pcie5", false, GFX942, INTEL, IB, 1, true, false, 0},
    {"mi355x-8x", "amd-mi355x", 8, "xgmi-mi355x", "eth400", 8, "hbm3e-mi355x", "pcie5", false, GFX950, AMD, ROCE, 1, true, false, 0},
    {"oci-mi355x", "bm.gpu.mi355x.8", 8, "xgmi-mi355x", "eth400", 8, "hbm3e-mi355x", "pcie5", false, GFX950, AMD, ROCE, 1, true, false, 0},
    {"rtx-pro6000-8x-pcie5", "rtxpro6000-8x", 8, "pcie5", "eth100", 1, "", "pcie5", false, SM120, AMD, SOCKET, 1, true, false, 0},
    {"l40s-4x-pcie-socket", "r760xa-l40s", 4, "pcie4", "eth100", 1, "", "pcie4", false, SM89, INTEL, SOCKET, 1, false, false, 0},
};

#define EXPECTED_COUNT (sizeof expected_platforms / sizeof expected_platforms[0])

static void test_builtin_loads(void **state)
{
    collcalc_platform_table *table = load_builtin(*state);
    assert_int_equal(collcalc_platform_table_count(table), EXPECTED_COUNT);
    /* In file order, so listings are stable. */
    for (size_t i = 0; i < EXPECTED_COUNT; i++)
        assert_string_equal(collcalc_platform_table_at(table, i)->name,
                            expected_platforms[i].name);
    assert_null(collcalc_platform_table_at(table, EXPECTED_COUNT));
    collcalc_platform_table_free(table);
}

static void test_builtin_figures(void **state)
{
    const collcalc_link_table *links = *state;
    collcalc_platform_table *table = load_builtin(links);
    for (size_t i = 0; i < EXPECTED_COUNT; i++) {
        const expected_platform *want = &expected_platforms[i];
        const collcalc_platform *p = collcalc_platform_table_find(table, want->name);
        if (p == NULL)
            print_error("missing platform %s\n", want->name);
        assert_non_null(p);
        print_message("%s\n", want->name);
        assert_string_equal(p->name, want->name);
        assert_int_equal(p->gpus_per_node, want->gpus_per_node);
        assert_string_equal(p->intra_link, want->intra_link);
        assert_string_equal(p->inter_link, want->inter_link);
        assert_int_equal(p->nics_per_node, want->nics_per_node);
        assert_string_equal(p->memory_link, want->memory_link);
        assert_string_equal(p->host_link, want->host_link);
        /* A host is the node but on the Grace racks: trays of 4 GPUs. */
        assert_int_equal(p->gpus_per_host,
                         strcmp(p->gpu, "GB200") == 0 || strcmp(p->gpu, "GB300") == 0
                             ? 4
                             : want->gpus_per_node);
        assert_int_equal(p->nvls, want->nvls);
        assert_int_equal(p->gpu_arch, want->arch);
        assert_int_equal(p->cpu_vendor, want->cpu);
        assert_int_equal(p->transport, want->transport);
        assert_int_equal(p->nics_per_gpu, want->nics_per_gpu);
        assert_int_equal(p->p2p, want->p2p);
        assert_int_equal(p->nvswitch, want->nvswitch);
        assert_int_equal(p->nvlink_links_per_gpu, want->nvlink_links);
        assert_true(strlen(p->arch_source) > 10);
        assert_true(strlen(p->transport_source) > 10);
        assert_true(strlen(p->fabric_source) > 10);
        assert_false(p->sharp); /* IB SHARP is a property of a cluster, not a node */
        if (want->alias != NULL) {
            assert_string_equal(p->aliases[0], want->alias);
            assert_ptr_equal(collcalc_platform_table_find(table, want->alias), p);
        }
        /* Every figure is sourced and every platform explained. */
        assert_true(strlen(p->gpu) > 0);
        assert_true(strlen(p->description) > 10);
        assert_true(strlen(p->topology_source) > 10);
        assert_true(strlen(p->nics_source) > 10);
        assert_true(strlen(p->nvls_source) > 10);
        /* The names resolve in the link table the platforms were checked against. */
        assert_non_null(collcalc_link_table_find(links, p->intra_link));
        assert_non_null(collcalc_link_table_find(links, p->inter_link));
    }
    collcalc_platform_table_free(table);
}

/* The new architectures: names round-trip, AMD is told apart, and the NCCL
 * rows the model reads are the generation's (sm103/sm120 are Blackwell,
 * gfx942 reads Hopper's rows, gfx950 Blackwell's). */
static void test_gpu_arch_rows(void **state)
{
    (void)state;
    assert_string_equal(collcalc_gpu_arch_name(COLLCALC_GPU_ARCH_SM103), "sm103");
    assert_string_equal(collcalc_gpu_arch_name(COLLCALC_GPU_ARCH_SM120), "sm120");
    assert_string_equal(collcalc_gpu_arch_name(COLLCALC_GPU_ARCH_GFX942), "gfx942");
    assert_string_equal(collcalc_gpu_arch_name(COLLCALC_GPU_ARCH_GFX950), "gfx950");
    assert_string_equal(collcalc_gpu_arch_name((collcalc_gpu_arch)91), "unknown");
    assert_int_equal(collcalc_gpu_arch_nccl_sm(COLLCALC_GPU_ARCH_SM80), 80);
    assert_int_equal(collcalc_gpu_arch_nccl_sm(COLLCALC_GPU_ARCH_SM103), 103);
    assert_int_equal(collcalc_gpu_arch_nccl_sm(COLLCALC_GPU_ARCH_SM120), 120);
    assert_int_equal(collcalc_gpu_arch_nccl_sm(COLLCALC_GPU_ARCH_GFX942), 90);
    assert_int_equal(collcalc_gpu_arch_nccl_sm(COLLCALC_GPU_ARCH_GFX950), 100);
    assert_int_equal(collcalc_gpu_arch_nccl_sm(COLLCALC_GPU_ARCH_UNKNOWN), 0);
    assert_int_equal(collcalc_gpu_arch_nccl_sm((collcalc_gpu_arch)91), 0);
    assert_true(collcalc_gpu_arch_is_amd(COLLCALC_GPU_ARCH_GFX942));
    assert_true(collcalc_gpu_arch_is_amd(COLLCALC_GPU_ARCH_GFX950));
    assert_false(collcalc_gpu_arch_is_amd(COLLCALC_GPU_ARCH_SM103));
    assert_false(collcalc_gpu_arch_is_amd(COLLCALC_GPU_ARCH_UNKNOWN));
}

/* The AMD presets: an xGMI full mesh is NVLink-class without a switch (no
 * NVLS), and every GPU name is one data/gpus.json keys. */
static void test_new_hardware_presets(void **state)
{
    const collcalc_link_table *links = *state;
    collcalc_platform_table *table = load_builtin(links);
    static const char *const amd[] = {"mi300x-8x", "mi355x-8x", "oci-mi355x"};
    for (size_t i = 0; i < sizeof amd / sizeof amd[0]; i++) {
        const collcalc_platform *p = collcalc_platform_table_find(table, amd[i]);
        assert_non_null(p);
        assert_true(collcalc_gpu_arch_is_amd(p->gpu_arch));
        assert_false(p->nvls);
        assert_false(p->nvswitch);
        const collcalc_link *xgmi = collcalc_link_table_find(links, p->intra_link);
        assert_int_equal(xgmi->link_class, COLLCALC_LINK_CLASS_NVLINK);
        /* 7 links to the 7 peers: per-link rate x 7 is the per-direction figure. */
        assert_true(xgmi->bw_per_direction_GBps == (p->gpu_arch == COLLCALC_GPU_ARCH_GFX942
                                                        ? 7 * 64.0
                                                        : 7 * 76.8));
    }
    static const struct {
        const char *platform, *gpu;
    } names[] = {{"hgx-b300", "B300"},   {"gb300-nvl72", "GB300"},
                 {"gcp-a4x-max", "GB300"}, {"mi300x-8x", "MI300X"},
                 {"oci-mi355x", "MI355X"}, {"rtx-pro6000-8x-pcie5", "RTX PRO 6000 Blackwell"},
                 {"hgx-h20", "H20"},     {"l40s-4x-pcie-socket", "L40S"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        assert_string_equal(collcalc_platform_table_find(table, names[i].platform)->gpu,
                            names[i].gpu);
    /* 800 Gb/s per GPU on B300 and GB300, however the ports are split. */
    static const char *const b300[] = {"hgx-b300", "oci-b300", "gb300-nvl72", "oci-gb300-nvl72"};
    for (size_t i = 0; i < sizeof b300 / sizeof b300[0]; i++) {
        const collcalc_platform *p = collcalc_platform_table_find(table, b300[i]);
        const collcalc_link *nic = collcalc_link_table_find(links, p->inter_link);
        assert_true(p->nics_per_node * nic->bw_per_direction_GBps / p->gpus_per_node == 100.0);
    }
    collcalc_platform_table_free(table);
}

/* Cross-checks with the link table: NVLS only on NVLink boxes, and the
 * multi-node ceilings of doc/MODEL.md §3 (8 x 400G = 400 GB/s). */
static void test_builtin_consistency(void **state)
{
    const collcalc_link_table *links = *state;
    collcalc_platform_table *table = load_builtin(links);
    for (size_t i = 0; i < collcalc_platform_table_count(table); i++) {
        const collcalc_platform *p = collcalc_platform_table_at(table, i);
        const collcalc_link *intra = collcalc_link_table_find(links, p->intra_link);
        if (p->nvls)
            assert_int_equal(intra->link_class, COLLCALC_LINK_CLASS_NVLINK);
        assert_true(p->nics_per_node <= p->gpus_per_node * p->nics_per_gpu);
        /* NVLS runs on an NVSwitch of Hopper or newer (NCCL's rule). */
        if (p->nvls) {
            assert_true(p->nvswitch);
            assert_true(p->gpu_arch >= COLLCALC_GPU_ARCH_SM90);
        }
        if (p->nvlink_links_per_gpu > 0)
            assert_int_equal(intra->link_class, COLLCALC_LINK_CLASS_NVLINK);
    }
    const collcalc_platform *h100 = collcalc_platform_table_find(table, "hgx-h100");
    const collcalc_link *ndr = collcalc_link_table_find(links, h100->inter_link);
    assert_true(h100->nics_per_node * ndr->bw_per_direction_GBps == 400.0);
    const collcalc_platform *nvl72 = collcalc_platform_table_find(table, "nvl72");
    const collcalc_link *nvl5 = collcalc_link_table_find(links, nvl72->intra_link);
    assert_true(nvl5->bw_per_direction_GBps == 900.0);
    collcalc_platform_table_free(table);
}

/* The cloud presets' scale-out bandwidth per node, as the providers quote
 * it (Gbps): NICs x per-NIC rate. */
static void test_cloud_network_totals(void **state)
{
    const collcalc_link_table *links = *state;
    collcalc_platform_table *table = load_builtin(links);
    static const struct {
        const char *name;
        double gbps;
    } totals[] = {
        {"p4d.24xlarge", 400},   {"p4de.24xlarge", 400},  {"p5.48xlarge", 3200},
        {"p5en.48xlarge", 3200}, {"p6-b200.48xlarge", 3200}, {"a3-highgpu-8g", 800},
        {"a3-megagpu-8g", 1600}, {"a3-ultragpu-8g", 3200}, {"a4-highgpu-8g", 3200},
        {"nd96asr-v4", 1600},    {"nd96isr-h100-v5", 3200}, {"nd96isr-h200-v5", 3200},
        {"a4x", 72 * 400},
    };
    for (size_t i = 0; i < sizeof totals / sizeof totals[0]; i++) {
        const collcalc_platform *p = collcalc_platform_table_find(table, totals[i].name);
        assert_non_null(p);
        const collcalc_link *nic = collcalc_link_table_find(links, p->inter_link);
        double gbps = p->nics_per_node * nic->bw_per_direction_GBps * 8.0;
        print_message("%s: %g Gbps\n", p->name, gbps);
        assert_true(gbps == totals[i].gbps);
        /* Every NIC is driven: GPUs x NICs per GPU covers them. */
        assert_true(p->nics_per_node <= p->gpus_per_node * p->nics_per_gpu);
    }
    collcalc_platform_table_free(table);
}

static void test_find_by_alias_and_case(void **state)
{
    collcalc_platform_table *table = load_builtin(*state);
    static const struct {
        const char *query;
        const char *name; /* NULL: not found */
    } cases[] = {
        {"hgx-h100", "hgx-h100"},
        {"DGX-H100", "hgx-h100"},
        {"Dgx-A100", "dgx-a100"},
        {"HGX-A100", "dgx-a100"},
        {"NVL72", "gb200-nvl72"},
        {"G6E.48XLarge", "l40s-8x-pcie"},
        {"nvlink-bridge", "workstation-2gpu-nvlink"},
        {"dgx-b200", "hgx-b200"},
        {"hgx-h200", "hgx-h200"},
        {"hgx-h100 ", NULL},
        {"h100", NULL},
        {"nvlink4", NULL}, /* a link, not a platform */
        {"", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const collcalc_platform *p = collcalc_platform_table_find(table, cases[i].query);
        if (cases[i].name == NULL) {
            assert_null(p);
        } else {
            if (p == NULL)
                print_error("'%s' not found\n", cases[i].query);
            assert_non_null(p);
            assert_string_equal(p->name, cases[i].name);
        }
    }
    assert_null(collcalc_platform_table_find(table, NULL));
    assert_null(collcalc_platform_table_find(NULL, "hgx-h100"));
    assert_null(collcalc_platform_table_at(NULL, 0));
    assert_int_equal(collcalc_platform_table_count(NULL), 0);
    collcalc_platform_table_free(NULL);
    collcalc_platform_table_free(table);
}

/* The compiled-in text is the file in the tree (the embed step is not stale). */
static void test_builtin_is_data_file(void **state)
{
    (void)state;
    size_t length = 0;
    char *file = test_read_file(test_source_path("data/platforms.json"), &length);
    assert_non_null(file);
    assert_int_equal(strlen(collcalc_builtin_platforms_json()), length);
    assert_memory_equal(collcalc_builtin_platforms_json(), file, length);
    free(file);
}

/* ---- user tables ---------------------------------------------------------- */

/* A complete, valid platform whose name is given; callers add keys and END. */
#define PLAT(name)                                                                      \
    "{\"name\": \"" name "\", \"gpu\": \"H100 SXM\", \"gpus_per_node\": 8, "            \
    "\"intra_link\": \"nvlink4\", \"inter_link\": \"ib-ndr\", \"nics_per_node\": 8, "   \
    "\"nvls\": true, \"sharp\": false"
/* The same with the number, link and nvls fields given. */
#define PLAT_WITH(gpus, intra, inter, nics, nvls)                                       \
    "{\"name\": \"p\", \"gpu\": \"g\", \"gpus_per_node\": " gpus ", "                   \
    "\"intra_link\": " intra ", \"inter_link\": " inter ", \"nics_per_node\": " nics    \
    ", \"nvls\": " nvls ", \"sharp\": false"
#define END "}"
#define DOC(platforms) "{\"schema_version\": 1, \"platforms\": [" platforms "]}"

/* Parses text (length bytes, not NUL-terminated: a copy of exactly that size
 * lets ASan catch any read past the end). */
static collcalc_status parse_exact(const char *text, size_t length,
                                   const collcalc_link_table *links,
                                   collcalc_platform_table **table, collcalc_diag *diag)
{
    char *copy = malloc(length > 0 ? length : 1);
    assert_non_null(copy);
    memcpy(copy, text, length);
    collcalc_status status = collcalc_platform_table_parse(copy, length, links, table, diag);
    free(copy);
    return status;
}

static void test_minimal_tables_load(void **state)
{
    const collcalc_link_table *links = *state;
    static const char *const good[] = {
        DOC(PLAT("a") END),
        /* Optional fields present, in another order, links by alias and in
         * any case, a 1-GPU node. */
        DOC("{\"sources\": {\"nics\": \"measured\"}, \"aliases\": [], \"sharp\": true, "
            "\"host_link\": \"PCIe5.0\", \"memory_link\": \"hbm3-h100\", \"nvls\": false, "
            "\"nics_per_node\": 100000, \"inter_link\": \"NDR\", \"intra_link\": \"pcie-gen4\", "
            "\"gpus_per_node\": 1, \"gpu\": \"x\", \"description\": \"d\", \"name\": \"x.y-1\"}"),
        DOC(PLAT("a") ", \"aliases\": [\"b\", \"c\", \"d\", \"e\"]" END ", " PLAT("f") END),
        DOC(PLAT("0123456789012345678901234567890") END),
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        collcalc_diag diag = {{0}};
        collcalc_platform_table *table = NULL;
        collcalc_status status = parse_exact(good[i], strlen(good[i]), links, &table, &diag);
        if (status != COLLCALC_OK)
            print_error("case %zu: %s\n", i, diag.message);
        assert_int_equal(status, COLLCALC_OK);
        assert_non_null(table);
        collcalc_platform_table_free(table);
    }

    collcalc_diag diag = {{0}};
    collcalc_platform_table *table = NULL;
    assert_int_equal(parse_exact(good[0], strlen(good[0]), links, &table, &diag), COLLCALC_OK);
    const collcalc_platform *p = collcalc_platform_table_at(table, 0);
    assert_string_equal(p->memory_link, ""); /* optional, absent */
    assert_string_equal(p->host_link, "");
    assert_string_equal(p->description, "");
    assert_string_equal(p->topology_source, "");
    assert_string_equal(p->aliases[0], "");
    assert_true(p->nvls);
    collcalc_platform_table_free(table);

    /* No nccl_fit: not present, neutral values. */
    assert_int_equal(parse_exact(good[0], strlen(good[0]), links, &table, &diag), COLLCALC_OK);
    p = collcalc_platform_table_at(table, 0);
    assert_false(p->nccl_fit.present);
    assert_true(p->nccl_fit.bw_efficiency == 1.0);
    assert_true(p->nccl_fit.latency_inter_us == 0.0);
    assert_true(p->nccl_fit.fabric_efficiency == 0.0);
    collcalc_platform_table_free(table);
    /* nccl_fit read with its values; keys optional. */
    static const char fitted[] = DOC(
        PLAT("a") ", \"nccl_fit\": {\"latency_inter_us\": 12.5, \"bw_efficiency\": 0.93, "
                  "\"fabric_efficiency\": 0.9, \"source\": \"collcalc fit of run.txt\"}" END
        ", " PLAT("b") ", \"nccl_fit\": {}" END);
    assert_int_equal(parse_exact(fitted, strlen(fitted), links, &table, &diag), COLLCALC_OK);
    p = collcalc_platform_table_at(table, 0);
    assert_true(p->nccl_fit.present);
    assert_true(p->nccl_fit.latency_inter_us == 12.5);
    assert_true(p->nccl_fit.bw_efficiency == 0.93);
    assert_true(p->nccl_fit.fabric_efficiency == 0.9);
    assert_string_equal(p->nccl_fit.source, "collcalc fit of run.txt");
    p = collcalc_platform_table_at(table, 1);
    assert_true(p->nccl_fit.present);
    assert_true(p->nccl_fit.bw_efficiency == 1.0);
    assert_true(p->nccl_fit.fabric_efficiency == 0.0);
    collcalc_platform_table_free(table);

    /* Aliases and case are resolved to the links' canonical names. */
    assert_int_equal(parse_exact(good[1], strlen(good[1]), links, &table, &diag), COLLCALC_OK);
    p = collcalc_platform_table_at(table, 0);
    assert_string_equal(p->name, "x.y-1");
    assert_string_equal(p->intra_link, "pcie4");
    assert_string_equal(p->inter_link, "ib-ndr");
    assert_string_equal(p->memory_link, "hbm3");
    assert_string_equal(p->host_link, "pcie5");
    assert_int_equal(p->gpus_per_node, 1);
    assert_int_equal(p->nics_per_node, 100000);
    assert_true(p->sharp);
    assert_false(p->nvls);
    assert_string_equal(p->nics_source, "measured");
    assert_string_equal(p->nvls_source, "");
    collcalc_platform_table_free(table);

    assert_int_equal(parse_exact(good[2], strlen(good[2]), links, &table, &diag), COLLCALC_OK);
    assert_int_equal(collcalc_platform_table_count(table), 2);
    assert_ptr_equal(collcalc_platform_table_find(table, "E"),
                     collcalc_platform_table_at(table, 0));
    assert_ptr_equal(collcalc_platform_table_find(table, "f"),
                     collcalc_platform_table_at(table, 1));
    collcalc_platform_table_free(table);
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
    /* The optional nccl_fit object (collcalc fit). */
    {"nccl_fit not an object", DOC(PLAT("a") ", \"nccl_fit\": 1" END),
     "platforms[0].nccl_fit: must be an object"},
    {"nccl_fit unknown key", DOC(PLAT("a") ", \"nccl_fit\": {\"latency_us\": 1}" END),
     "platforms[0].nccl_fit"},
    {"nccl_fit bandwidth too high", DOC(PLAT("a") ", \"nccl_fit\": {\"bw_efficiency\": 2.5}" END),
     "platforms[0].nccl_fit.bw_efficiency: must be <= 2"},
    {"nccl_fit negative latency",
     DOC(PLAT("a") ", \"nccl_fit\": {\"latency_inter_us\": -1}" END),
     "platforms[0].nccl_fit.latency_inter_us: must be >= 0"},
    {"nccl_fit fabric zero", DOC(PLAT("a") ", \"nccl_fit\": {\"fabric_efficiency\": 0}" END),
     "platforms[0].nccl_fit.fabric_efficiency: must be >= 0.05"},
    {"nccl_fit source empty", DOC(PLAT("a") ", \"nccl_fit\": {\"source\": \"\"}" END),
     "platforms[0].nccl_fit.source"},
    {"not JSON, with line:col", "{\n  \"schema_version\": 1,\n  \"platforms\": [ }",
     "line 3, column 18: not valid JSON: expected a value"},
    {"truncated", "{\"schema_version\": 1, \"platforms\": [",
     "line 1, column 37: not valid JSON: unexpected end of document"},
    {"top-level array", "[]", "top level: must be an object, not an array"},
    {"wrong schema_version", "{\"schema_version\": 2, \"platforms\": [" PLAT("a") END "]}",
     "schema_version: unsupported version 2 (this collcalc reads 1)"},
    {"schema_version as string", "{\"schema_version\": \"1\", \"platforms\": []}",
     "schema_version: must be a whole number, not a string (\"1\")"},
    {"missing schema_version", "{\"platforms\": [" PLAT("a") END "]}",
     "top level: missing required key 'schema_version'"},
    {"missing platforms", "{\"schema_version\": 1}",
     "top level: missing required key 'platforms'"},
    {"unknown top-level key", "{\"schema_version\": 1, \"platform\": []}",
     "top level: unknown key 'platform' (did you mean 'platforms'?)"},
    {"empty platforms array", DOC(""), "platforms: must have at least 1 element (has 0)"},
    {"platforms not an array", "{\"schema_version\": 1, \"platforms\": {}}",
     "platforms: must be an array, not an object"},
    {"platform not an object", DOC(PLAT("a") END ", 7"),
     "platforms[1]: must be an object, not a number"},
    {"unknown key", DOC(PLAT("a") END ", " PLAT("b") ", \"nics_per_nod\": 1" END),
     "platforms[1]: unknown key 'nics_per_nod' (did you mean 'nics_per_node'?)"},
    {"unknown key (case)", DOC(PLAT("a") ", \"NVLS\": true" END),
     "platforms[0]: unknown key 'NVLS'"},
    {"duplicate key", DOC(PLAT("a") ", \"gpus_per_node\": 4" END),
     "platforms[0]: duplicate key 'gpus_per_node'"},
    {"missing required key (gpus_per_node)",
     DOC("{\"name\": \"a\", \"gpu\": \"g\", \"intra_link\": \"nvlink4\", \"inter_link\": "
         "\"ib-ndr\", \"nics_per_node\": 8, \"nvls\": true, \"sharp\": false}"),
     "platforms[0]: missing required key 'gpus_per_node'"},
    {"missing required key (sharp)",
     DOC("{\"name\": \"a\", \"gpu\": \"g\", \"gpus_per_node\": 8, \"intra_link\": \"nvlink4\", "
         "\"inter_link\": \"ib-ndr\", \"nics_per_node\": 8, \"nvls\": true}"),
     "platforms[0]: missing required key 'sharp'"},
    {"gpus_per_node 0", DOC(PLAT_WITH("0", "\"nvlink4\"", "\"ib-ndr\"", "8", "true") END),
     "platforms[0].gpus_per_node: must be >= 1 (got 0)"},
    {"gpus_per_node -8", DOC(PLAT_WITH("-8", "\"nvlink4\"", "\"ib-ndr\"", "8", "true") END),
     "platforms[0].gpus_per_node: must be >= 1 (got -8)"},
    {"gpus_per_node 1.5", DOC(PLAT_WITH("1.5", "\"nvlink4\"", "\"ib-ndr\"", "8", "true") END),
     "platforms[0].gpus_per_node: must be a whole number (got 1.5)"},
    {"gpus_per_node \"8\"",
     DOC(PLAT_WITH("\"8\"", "\"nvlink4\"", "\"ib-ndr\"", "8", "true") END),
     "platforms[0].gpus_per_node: must be a whole number, not a string (\"8\")"},
    {"gpus_per_node 1e300",
     DOC(PLAT_WITH("1e300", "\"nvlink4\"", "\"ib-ndr\"", "8", "true") END),
     "platforms[0].gpus_per_node: must be <= 100000 (got 1e+300)"},
    {"gpus_per_node 1e999",
     DOC(PLAT_WITH("1e999", "\"nvlink4\"", "\"ib-ndr\"", "8", "true") END),
     "platforms[0].gpus_per_node: must be"},
    {"gpus_per_node 100001",
     DOC(PLAT_WITH("100001", "\"nvlink4\"", "\"ib-ndr\"", "8", "true") END),
     "platforms[0].gpus_per_node: must be <= 100000 (got 100001)"},
    {"nics_per_node 0", DOC(PLAT_WITH("8", "\"nvlink4\"", "\"ib-ndr\"", "0", "true") END),
     "platforms[0].nics_per_node: must be >= 1 (got 0)"},
    {"nics_per_node null", DOC(PLAT_WITH("8", "\"nvlink4\"", "\"ib-ndr\"", "null", "true") END),
     "platforms[0].nics_per_node: must be a whole number, not null"},
    {"unknown intra link",
     DOC(PLAT("a") END ", " PLAT("b") END ", "
         PLAT_WITH("8", "\"nvlink9\"", "\"ib-ndr\"", "8", "true") END),
     "platforms[2].intra_link: unknown link 'nvlink9'"},
    {"unknown inter link", DOC(PLAT_WITH("8", "\"nvlink4\"", "\"ib-ndr800\"", "8", "true") END),
     "platforms[0].inter_link: unknown link 'ib-ndr800'"},
    {"inter link of the wrong tier",
     DOC(PLAT_WITH("8", "\"nvlink4\"", "\"nvlink4\"", "8", "true") END),
     "platforms[0].inter_link: 'nvlink4' has tier scale-up; inter_link needs tier scale-out"},
    {"intra link of the wrong tier",
     DOC(PLAT_WITH("8", "\"ib-ndr\"", "\"ib-ndr\"", "8", "false") END),
     "platforms[0].intra_link: 'ib-ndr' has tier scale-out; intra_link needs tier scale-up "
     "or host"},
    {"intra link is HBM", DOC(PLAT_WITH("8", "\"hbm3\"", "\"ib-ndr\"", "8", "false") END),
     "platforms[0].intra_link: 'hbm3' is a memory tier (on-package), not a link between GPUs"},
    {"memory link of the wrong tier", DOC(PLAT("a") ", \"memory_link\": \"pcie4\"" END),
     "platforms[0].memory_link: 'pcie4' has tier host; memory_link needs tier on-package"},
    {"host link of the wrong tier", DOC(PLAT("a") ", \"host_link\": \"hbm3\"" END),
     "platforms[0].host_link: 'hbm3' has tier on-package; host_link needs tier host"},
    {"host of more GPUs than the node", DOC(PLAT("a") ", \"gpus_per_host\": 16" END),
     "platforms[0].gpus_per_host: 16 does not divide gpus_per_node 8"},
    {"host size not dividing the node", DOC(PLAT("a") ", \"gpus_per_host\": 3" END),
     "platforms[0].gpus_per_host: 3 does not divide gpus_per_node 8"},
    {"host size 0", DOC(PLAT("a") ", \"gpus_per_host\": 0" END),
     "platforms[0].gpus_per_host: must be >= 1 (got 0)"},
    {"unknown memory link", DOC(PLAT("a") ", \"memory_link\": \"gddr6\"" END),
     "platforms[0].memory_link: unknown link 'gddr6'"},
    {"link name not a string", DOC(PLAT_WITH("8", "4", "\"ib-ndr\"", "8", "true") END),
     "platforms[0].intra_link: must be a string, not a number"},
    {"empty link name", DOC(PLAT_WITH("8", "\"\"", "\"ib-ndr\"", "8", "true") END),
     "platforms[0].intra_link: must not be empty"},
    {"link name with a line break", DOC(PLAT_WITH("8", "\"nv\\nlink4\"", "\"ib-ndr\"", "8",
                                                  "true") END),
     "platforms[0].intra_link: character 3 (byte 0x0a) not allowed"},
    {"memory link empty", DOC(PLAT("a") ", \"memory_link\": \"\"" END),
     "platforms[0].memory_link: must not be empty"},
    {"nvls on a PCIe box", DOC(PLAT_WITH("8", "\"pcie4\"", "\"eth400\"", "1", "true") END),
     "platforms[0].nvls: NVLS (in-switch reduction) needs an NVSwitch fabric; 'pcie4' is "
     "class pci, not NVLink"},
    {"nvls without an NVSwitch",
     DOC(PLAT_WITH("8", "\"nvlink4\"", "\"ib-ndr\"", "8", "true") ", \"nvswitch\": false" END),
     "platforms[0].nvls: NVLS (in-switch reduction) needs an NVSwitch fabric; 'nvlink4' here "
     "joins GPUs without an NVSwitch"},
    {"nvls before Hopper",
     DOC(PLAT_WITH("8", "\"nvlink3\"", "\"ib-ndr\"", "8", "true") ", \"gpu_arch\": \"sm80\"" END),
     "platforms[0].nvls: NVLS needs a Hopper (sm90) or newer GPU; this one is sm80"},
    {"nvswitch on PCIe",
     DOC(PLAT_WITH("8", "\"pcie4\"", "\"eth400\"", "1", "false") ", \"nvswitch\": true" END),
     "platforms[0].nvswitch: an NVSwitch fabric needs an NVLink intra link ('pcie4' is class "
     "pci)"},
    {"nvlink links on PCIe",
     DOC(PLAT_WITH("8", "\"pcie4\"", "\"eth400\"", "1", "false") ", \"nvlink_links_per_gpu\": 4" END),
     "platforms[0].nvlink_links_per_gpu: 4 needs an NVLink intra_link ('pcie4' is class pci)"},
    {"unknown gpu_arch", DOC(PLAT("a") ", \"gpu_arch\": \"sm91\"" END),
     "platforms[0].gpu_arch: must be one of unknown, sm70, sm75, sm80, sm86, sm89, sm90, sm100, "
     "sm103, sm120, gfx942, gfx950 (got 'sm91')"},
    {"unknown transport", DOC(PLAT("a") ", \"transport\": \"ethernet\"" END),
     "platforms[0].transport: must be one of unknown, ib, roce, efa, tcpx, tcpxo, socket (got "
     "'ethernet')"},
    {"unknown cpu vendor", DOC(PLAT("a") ", \"cpu_vendor\": \"Intel\"" END),
     "platforms[0].cpu_vendor: must be one of unknown, intel, amd, arm (got 'Intel')"},
    {"nics_per_gpu 0", DOC(PLAT("a") ", \"nics_per_gpu\": 0" END),
     "platforms[0].nics_per_gpu: must be >= 1 (got 0)"},
    {"nics_per_gpu too many", DOC(PLAT("a") ", \"nics_per_gpu\": 17" END),
     "platforms[0].nics_per_gpu: must be <= 16 (got 17)"},
    {"p2p not a boolean", DOC(PLAT("a") ", \"p2p\": \"yes\"" END),
     "platforms[0].p2p: must be true or false"},
    {"nvlink links too many", DOC(PLAT("a") ", \"nvlink_links_per_gpu\": 65" END),
     "platforms[0].nvlink_links_per_gpu: must be <= 64 (got 65)"},
    {"unknown source key", DOC(PLAT("a") ", \"sources\": {\"fabrik\": \"x\"}" END),
     "platforms[0].sources: unknown key 'fabrik' (did you mean 'fabric'?)"},
    {"nvls not a boolean", DOC(PLAT_WITH("8", "\"nvlink4\"", "\"ib-ndr\"", "8", "1") END),
     "platforms[0].nvls: must be true or false"},
    {"duplicate platform name", DOC(PLAT("a") END ", " PLAT("b") END ", " PLAT("a") END),
     "platforms[2].name: 'a' is already the name of platforms[0]"},
    {"alias colliding with another name",
     DOC(PLAT("hgx-h100") END ", " PLAT("dgx") ", \"aliases\": [\"x\", \"hgx-h100\"]" END),
     "platforms[1].aliases[1]: 'hgx-h100' is already the name of platforms[0]"},
    {"name colliding with another alias",
     DOC(PLAT("a") ", \"aliases\": [\"x\"]" END ", " PLAT("x") END),
     "platforms[1].name: 'x' is already an alias of platforms[0] ('a')"},
    {"alias repeats own name", DOC(PLAT("a") ", \"aliases\": [\"a\"]" END),
     "platforms[0].aliases[0]: 'a' is already the name of platforms[0]"},
    {"too many aliases",
     DOC(PLAT("a") ", \"aliases\": [\"b\", \"c\", \"d\", \"e\", \"f\"]" END),
     "platforms[0].aliases: must have at most 4 elements (has 5)"},
    {"bad name characters (upper case)", DOC(PLAT("HGX-H100") END),
     "platforms[0].name: character 1 ('H') not allowed: use a-z, 0-9, '.' and '-'"},
    {"bad name characters (underscore)", DOC(PLAT("hgx_h100") END),
     "platforms[0].name: character 4 ('_') not allowed"},
    {"bad name characters (space)", DOC(PLAT("hgx h100") END),
     "platforms[0].name: character 4 (byte 0x20) not allowed"},
    {"bad alias characters", DOC(PLAT("a") ", \"aliases\": [\"g6e/48xl\"]" END),
     "platforms[0].aliases[0]: character 4 ('/') not allowed"},
    {"empty name", DOC(PLAT("") END), "platforms[0].name: must not be empty"},
    {"name too long", DOC(PLAT("01234567890123456789012345678901") END),
     "platforms[0].name: too long: 32 bytes (at most 31)"},
    {"gpu too long",
     DOC("{\"name\": \"a\", \"gpu\": \"01234567890123456789012345678901\", "
         "\"gpus_per_node\": 8, \"intra_link\": \"nvlink4\", \"inter_link\": \"ib-ndr\", "
         "\"nics_per_node\": 8, \"nvls\": true, \"sharp\": false}"),
     "platforms[0].gpu: too long: 32 bytes (at most 31)"},
    {"sources not an object", DOC(PLAT("a") ", \"sources\": \"seed\"" END),
     "platforms[0].sources: must be an object, not a string (\"seed\")"},
    {"unknown source key", DOC(PLAT("a") ", \"sources\": {\"topo\": \"x\"}" END),
     "platforms[0].sources: unknown key 'topo'"},
    {"source not a string", DOC(PLAT("a") ", \"sources\": {\"nvls\": true}" END),
     "platforms[0].sources.nvls: must be a string, not a boolean"},
};

static void test_bad_documents(void **state)
{
    const collcalc_link_table *links = *state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        collcalc_diag diag = {{0}};
        /* Must be reset to NULL on failure. */
        collcalc_platform_table *table = (collcalc_platform_table *)&diag;
        collcalc_status status = parse_exact(c->text, strlen(c->text), links, &table, &diag);
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

/* Misuse and limits that need explicit lengths or are built at run time. */
static void test_bad_calls_and_limits(void **state)
{
    const collcalc_link_table *links = *state;
    collcalc_diag diag = {{0}};
    collcalc_platform_table *table = NULL;
    static const char doc[] = DOC(PLAT("a") END);

    assert_int_equal(collcalc_platform_table_parse(doc, sizeof doc - 1, NULL, &table, &diag),
                     COLLCALC_ERR_INVALID);
    assert_null(table);
    assert_contains(diag.message, "no link table");
    assert_int_equal(collcalc_platform_table_parse(doc, sizeof doc - 1, links, NULL, &diag),
                     COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_platform_table_parse(NULL, 0, links, &table, &diag),
                     COLLCALC_ERR_INVALID);
    assert_null(table);
    assert_int_equal(collcalc_platform_table_builtin(NULL, &table, &diag), COLLCALC_ERR_INVALID);
    assert_null(table);
    /* No diag is fine. */
    assert_int_equal(parse_exact("{", 1, links, &table, NULL), COLLCALC_ERR_INVALID);

    /* The length is honoured: a valid document cut short is a syntax error. */
    assert_int_equal(parse_exact(doc, sizeof doc - 2, links, &table, &diag),
                     COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "unexpected end of document");

    /* More platforms than a table may hold. */
    size_t count = COLLCALC_PLATFORMS_MAX + 1, capacity = 64 + count * 4;
    char *many = malloc(capacity);
    assert_non_null(many);
    size_t length = (size_t)snprintf(many, capacity, "{\"schema_version\": 1, \"platforms\": [");
    for (size_t i = 0; i < count; i++)
        length += (size_t)snprintf(many + length, capacity - length, "%s1", i ? "," : "");
    length += (size_t)snprintf(many + length, capacity - length, "]}");
    assert_int_equal(parse_exact(many, length, links, &table, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "platforms: must have at most 256 elements (has 257)");
    free(many);

    /* The built-in table against a link table that lacks its links: the
     * message names the built-in file and the first bad path. */
    collcalc_link_table *few = NULL;
    static const char few_links[] =
        "{\"schema_version\": 1, \"links\": [{\"name\": \"nvlink3\", \"tier\": \"scale-up\", "
        "\"class\": \"nvlink\", \"bw_per_direction_GBps\": 300, \"headline_GBps\": 600, "
        "\"headline_counts\": \"both-directions\", \"alpha_us\": 2}]}";
    assert_int_equal(collcalc_link_table_parse(few_links, sizeof few_links - 1, &few, &diag),
                     COLLCALC_OK);
    assert_int_equal(collcalc_platform_table_builtin(few, &table, &diag), COLLCALC_ERR_INVALID);
    assert_null(table);
    assert_string_equal(diag.message, "built-in data/platforms.json: platforms[0].inter_link: "
                                      "unknown link 'ib-hdr'");
    collcalc_link_table_free(few);
}

/* ---- allocation failures ------------------------------------------------ */

/* One load of the built-in presets (arg: the link table) for
 * test_allocation_failure_loop. */
static collcalc_status load_builtin_attempt(const void *arg, collcalc_diag *diag)
{
    const char *json = collcalc_builtin_platforms_json();
    collcalc_platform_table *table = NULL;
    collcalc_status status = collcalc_platform_table_parse(json, strlen(json), arg, &table, diag);
    if (status == COLLCALC_OK)
        assert_int_equal(collcalc_platform_table_count(table), EXPECTED_COUNT);
    else
        assert_null(table);
    collcalc_platform_table_free(table);
    return status;
}

/* Every allocation in a load fails in turn: each must report NOMEM with no
 * table and no leak (ASan and valgrind check the leaks). */
static void test_allocation_failures(void **state)
{
    /* > 100: the loop really went through the parse */
    assert_true(test_allocation_failure_loop("platforms builtin", load_builtin_attempt, *state) > 100);
}

/* The preset a run's device lines point at: the GPU family word as a whole
 * word, the NVLink domain that holds the run's GPUs per host. */
static void test_guess_from_gpu_model(void **state)
{
    collcalc_platform_table *table = load_builtin(*state);
    static const struct {
        const char *model;
        int gpus_per_node;
        const char *expected; /* NULL: no guess */
    } cases[] = {
        {"NVIDIA H100 80GB HBM3", 8, "hgx-h100"},
        {"NVIDIA A100-SXM4-80GB", 8, "dgx-a100"}, /* a dash ends the family word */
        {"NVIDIA A100 80GB", 8, "dgx-a100"},
        {"NVIDIA B200", 8, "hgx-b200"},
        {"NVIDIA GB200", 4, "gb200-nvl72"}, /* 4 per host fit the 72-GPU domain */
        {"NVIDIA GeForce RTX 2080 Ti", 2, "rtx2080ti-2x-pcie3"},
        {"NVIDIA L40S", 8, "l40s-8x-pcie"},
        {"NVIDIA B300 SXM6 AC", 8, "hgx-b300"},
        {"NVIDIA GB300", 4, "gb300-nvl72"}, /* not hgx-b300: B300 inside a word */
        {"AMD Instinct MI355X", 8, "mi355x-8x"},
        {"AMD Instinct MI300X", 8, "mi300x-8x"},
        {"NVIDIA RTX PRO 6000 Blackwell Server Edition", 8, "rtx-pro6000-8x-pcie5"},
        {"NVIDIA H20", 8, "hgx-h20"},
        {"NVIDIA H200", 8, "hgx-h200"}, /* H20 followed by a digit */
        {"NVIDIA H1000", 8, NULL}, /* H100 followed by a digit */
        {"NVIDIA GH100", 8, NULL}, /* H100 inside a word */
        {"Tesla V100-SXM2-32GB", 8, NULL}, /* no V100 preset */
        {"", 8, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const collcalc_platform *p =
            collcalc_platform_guess(table, cases[i].model, cases[i].gpus_per_node);
        if (cases[i].expected == NULL) {
            if (p != NULL)
                fail_msg("%s: guessed %s, expected none", cases[i].model, p->name);
        } else {
            if (p == NULL || strcmp(p->name, cases[i].expected) != 0)
                fail_msg("%s: guessed %s, expected %s", cases[i].model,
                         p != NULL ? p->name : "none", cases[i].expected);
        }
    }
    assert_null(collcalc_platform_guess(table, NULL, 8));
    assert_null(collcalc_platform_guess(NULL, "NVIDIA H100", 8));
    collcalc_platform_table_free(table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_builtin_loads, setup_links, teardown_links),
        cmocka_unit_test_setup_teardown(test_guess_from_gpu_model, setup_links, teardown_links),
        cmocka_unit_test_setup_teardown(test_builtin_figures, setup_links, teardown_links),
        cmocka_unit_test_setup_teardown(test_builtin_consistency, setup_links, teardown_links),
        cmocka_unit_test(test_gpu_arch_rows),
        cmocka_unit_test_setup_teardown(test_new_hardware_presets, setup_links, teardown_links),
        cmocka_unit_test_setup_teardown(test_cloud_network_totals, setup_links, teardown_links),
        cmocka_unit_test_setup_teardown(test_find_by_alias_and_case, setup_links,
                                        teardown_links),
        cmocka_unit_test(test_builtin_is_data_file),
        cmocka_unit_test_setup_teardown(test_minimal_tables_load, setup_links, teardown_links),
        cmocka_unit_test_setup_teardown(test_bad_documents, setup_links, teardown_links),
        cmocka_unit_test_setup_teardown(test_bad_calls_and_limits, setup_links, teardown_links),
        cmocka_unit_test_setup_teardown(test_allocation_failures, setup_links, teardown_links),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
