/* The nvidia-smi topo -m reader: every topo fixture of the validation set
 * (COLLCALC_SHARED_DIR, found by test_shared_path) gives the right islands,
 * bandwidths, nearest NICs and advice; layouts from other drivers and pastes
 * parse; bad input gets one diagnostic naming the line. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collcalc/topo.h"

#define assert_close(got, want, tolerance)                                                 \
    test_assert_close_at((got), (want), (tolerance), __FILE__, __LINE__)

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* No advice text was cut to fit COLLCALC_FINDING_TEXT_MAX. */
static void assert_not_cut(const collcalc_topo *topo)
{
    for (size_t i = 0; i < topo->advice.count; i++) {
        const collcalc_finding *f = &topo->advice.items[i];
        if (strlen(f->message) >= COLLCALC_FINDING_TEXT_MAX - 1 ||
            strlen(f->next_step) >= COLLCALC_FINDING_TEXT_MAX - 1) {
            print_error("finding %s was cut: '%s' / '%s'\n", f->code, f->message, f->next_step);
            fail();
        }
    }
}

static collcalc_topo *parse_text(const char *text, const char *gpu)
{
    collcalc_topo_options options;
    collcalc_topo_options_init(&options);
    options.gpu = gpu;
    collcalc_diag diag = {{0}};
    collcalc_topo *topo = NULL;
    collcalc_status status = collcalc_topo_parse(text, strlen(text), &options, &topo, &diag);
    if (status != COLLCALC_OK) {
        print_error("parse failed: %s\n", diag.message);
        fail();
    }
    assert_not_cut(topo);
    return topo;
}

static collcalc_topo *parse_fixture(const char *name, const char *gpu)
{
    char relative[256];
    snprintf(relative, sizeof relative, "validation/%s", name);
    size_t length = 0;
    char *text = test_read_file(test_shared_path(relative), &length);
    assert_non_null(text);
    collcalc_topo_options options;
    collcalc_topo_options_init(&options);
    options.gpu = gpu;
    collcalc_diag diag = {{0}};
    collcalc_topo *topo = NULL;
    collcalc_status status = collcalc_topo_parse(text, length, &options, &topo, &diag);
    free(text);
    if (status != COLLCALC_OK) {
        print_error("%s: %s\n", name, diag.message);
        fail();
    }
    assert_not_cut(topo);
    return topo;
}

/* A fixture under tests/fuzz/corpus/topo (data in the repository: never skipped). */
static collcalc_topo *parse_corpus(const char *name)
{
    char relative[256];
    snprintf(relative, sizeof relative, "tests/fuzz/corpus/topo/%s", name);
    size_t length = 0;
    char *text = test_read_file(test_source_path(relative), &length);
    assert_non_null(text);
    collcalc_diag diag = {{0}};
    collcalc_topo *topo = NULL;
    collcalc_status status = collcalc_topo_parse(text, length, NULL, &topo, &diag);
    free(text);
    if (status != COLLCALC_OK) {
        print_error("%s: %s\n", name, diag.message);
        fail();
    }
    assert_not_cut(topo);
    return topo;
}

static const collcalc_finding *need_finding(collcalc_topo *topo, const char *code)
{
    const collcalc_finding *finding = collcalc_findings_find(&topo->advice, code);
    if (finding == NULL) {
        print_error("no finding %s\n", code);
        fail();
    }
    return finding;
}

/* One island of 8 at bonds, all-to-all, switched, per_GBps per direction per GPU. */
static void assert_nvswitch_island_of_8(const collcalc_topo *topo, int bonds, double per_GBps)
{
    assert_int_equal(topo->gpu_count, 8);
    assert_int_equal(topo->island_count, 1);
    const collcalc_topo_island *island = &topo->islands[0];
    assert_int_equal(island->gpu_count, 8);
    assert_int_equal(island->first_gpu, 0);
    assert_int_equal(island->min_bonds, bonds);
    assert_int_equal(island->max_bonds, bonds);
    assert_true(island->all_to_all);
    assert_true(island->switched);
    assert_close(island->per_gpu_GBps, per_GBps, 1e-9);
    assert_int_equal(topo->nvlink_pairs, 28);
    for (int g = 0; g < 8; g++) {
        assert_int_equal(topo->devices[g].island, 0);
        assert_close(topo->devices[g].nvlink_GBps, per_GBps, 1e-9);
        for (int h = 0; h < 8; h++) {
            const collcalc_topo_cell *cell = &topo->cells[g][h];
            assert_int_equal(cell->connection, g == h ? COLLCALC_TOPO_SELF : COLLCALC_TOPO_NVLINK);
            assert_int_equal(cell->bonds, g == h ? 0 : bonds);
        }
    }
    assert_close(collcalc_topo_pair_GBps(topo, 0, 7), per_GBps, 1e-9); /* switched: one pair can use all links */
}

static void assert_numa_halves(collcalc_topo *topo, const char *low_cpus,
                               const char *high_cpus)
{
    for (int g = 0; g < 8; g++) {
        assert_int_equal(topo->devices[g].numa_node, g < 4 ? 0 : 1);
        assert_string_equal(topo->devices[g].cpu_affinity, g < 4 ? low_cpus : high_cpus);
    }
    assert_contains(need_finding(topo, "topo-numa")->message,
                    "GPUs on 2 NUMA nodes: NUMA 0: GPU0-GPU3");
}

static void test_h100_nv18(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_fixture("topo_h100_8gpu_nv18_stas00.txt", NULL);
    assert_int_equal(topo->device_count, 8);
    assert_int_equal(topo->nic_count, 0);
    assert_int_equal(topo->header_line, 11);
    assert_int_equal(topo->devices[0].line, 12);
    assert_nvswitch_island_of_8(topo, 18, 450.0);
    assert_int_equal(topo->generation, COLLCALC_GPU_HOPPER);
    assert_true(topo->generation_inferred);
    assert_true(topo->generation_ambiguous);
    assert_contains(need_finding(topo, "topo-gpu-generation")->message, "ambiguous, Hopper assumed");
    assert_numa_halves(topo, "0-51", "52-103");
    const collcalc_finding *island = need_finding(topo, "topo-nvlink-island");
    assert_contains(island->message, "NVLink island of 8 GPUs (GPU0-GPU7): NV18 between every pair, "
                                     "an NVSwitch fabric: 450 GB/s per direction per GPU");
    assert_int_equal(island->line_count, 8);
    assert_int_equal(island->lines[0], 12);
    assert_contains(need_finding(topo, "topo-tp-groups")->message, "{GPU0-GPU7} (TP up to 8");
    assert_non_null(collcalc_findings_find(&topo->advice, "topo-ep-groups"));
    assert_null(collcalc_findings_find(&topo->advice, "topo-no-nvlink"));
    assert_null(collcalc_findings_find(&topo->advice, "topo-avoid-sys"));
    assert_int_equal(collcalc_findings_worst(&topo->advice), COLLCALC_SEVERITY_INFO);
    collcalc_topo_free(topo);
}

static void test_h100_nv18_given_blackwell(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_fixture("topo_h100_8gpu_nv18_stas00.txt", "sm100");
    assert_int_equal(topo->generation, COLLCALC_GPU_BLACKWELL);
    assert_false(topo->generation_inferred);
    assert_false(topo->generation_ambiguous);
    assert_nvswitch_island_of_8(topo, 18, 900.0);
    collcalc_topo_free(topo);
}

static void test_hgx_h100_ten_nics(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_fixture("topo_hgx_h100_8gpu_10nic_issue1264.txt", NULL);
    assert_int_equal(topo->device_count, 18);
    assert_int_equal(topo->nic_count, 10);
    assert_int_equal(topo->rows_parsed, 11);
    assert_true(topo->truncated);
    assert_string_equal(topo->devices[8].name, "NIC0");
    assert_int_equal(topo->devices[8].kind, COLLCALC_TOPO_NIC);
    assert_nvswitch_island_of_8(topo, 18, 450.0);
    static const int nearest[8] = {0, 1, 2, 5, 6, 7, 8, 9};
    for (int g = 0; g < 8; g++) {
        const collcalc_topo_device *gpu = &topo->devices[g];
        assert_int_equal(gpu->nearest_nic_count, 1);
        assert_int_equal(gpu->nearest_nic_class, COLLCALC_TOPO_PIX);
        assert_int_equal(gpu->nearest_nics[0], 8 + nearest[g]);
        assert_int_equal(gpu->gpu_numa_id, -1);
    }
    assert_numa_halves(topo, "0-55,112-167", "56-111,168-223");
    /* Lost rows are mirrored from the columns kept: NIC5's row from GPU3's cell. */
    assert_int_equal(topo->cells[13][3].connection, COLLCALC_TOPO_PIX);
    assert_int_equal(topo->cells[13][9].connection, COLLCALC_TOPO_SYS); /* NIC5-NIC1 from NIC1's row */
    assert_int_equal(topo->cells[13][12].connection, COLLCALC_TOPO_SELF); /* both rows lost */
    const collcalc_finding *cut = need_finding(topo, "topo-truncated");
    assert_int_equal(cut->severity, COLLCALC_SEVERITY_WARNING);
    assert_contains(cut->message, "Matrix truncated at row NIC3 (line 26)");
    assert_contains(cut->message, "11 of 18 rows");
    assert_int_equal(cut->line_count, 1);
    assert_int_equal(cut->lines[0], 26);
    assert_contains(need_finding(topo, "topo-nearest-nics")->message,
                    "GPU0->NIC0, GPU1->NIC1, GPU2->NIC2, GPU3->NIC5, GPU4->NIC6, GPU5->NIC7, "
                    "GPU6->NIC8, GPU7->NIC9");
    assert_null(collcalc_findings_find(&topo->advice, "topo-nic-far"));
    /* Sorted: the warning comes first. */
    assert_string_equal(topo->advice.items[0].code, "topo-truncated");
    assert_int_equal(collcalc_findings_worst(&topo->advice), COLLCALC_SEVERITY_WARNING);
    collcalc_topo_free(topo);
}

static void test_a100_nv12(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_fixture("topo_a100_8gpu_nv12_stas00.txt", NULL);
    assert_nvswitch_island_of_8(topo, 12, 300.0);
    assert_int_equal(topo->generation, COLLCALC_GPU_AMPERE);
    assert_false(topo->generation_ambiguous);
    assert_int_equal(topo->pcie_gen, 4);
    assert_numa_halves(topo, "0-23", "24-47");
    assert_contains(need_finding(topo, "topo-nvlink-island")->message,
                    "NV12 between every pair, an NVSwitch fabric: 300 GB/s per direction per GPU");
    collcalc_topo_free(topo);
}

static void test_l40s_pcie_node(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_fixture("topo_l40s_4gpu_pcie_node_aws_g6e12xl_gnosia93.txt", NULL);
    assert_int_equal(topo->gpu_count, 4);
    assert_int_equal(topo->nvlink_pairs, 0);
    assert_int_equal(topo->island_count, 4);
    for (int g = 0; g < 4; g++) {
        assert_int_equal(topo->islands[g].gpu_count, 1);
        assert_close(topo->devices[g].nvlink_GBps, 0.0, 0.0);
        for (int h = 0; h < 4; h++)
            assert_int_equal(topo->cells[g][h].connection,
                             g == h ? COLLCALC_TOPO_SELF : COLLCALC_TOPO_NODE);
    }
    assert_int_equal(topo->generation, COLLCALC_GPU_UNKNOWN);
    assert_int_equal(topo->pcie_gen, 4);
    /* NODE on Gen4: 31.5 GB/s x 0.55. */
    assert_close(collcalc_topo_pair_GBps(topo, 0, 3), 17.325, 1e-9);
    const collcalc_finding *none = need_finding(topo, "topo-no-nvlink");
    assert_contains(none->message, "No NVLink at all: P2P over PCIe, every one of the 6 GPU pairs "
                                   "NODE (between host bridges of one NUMA node); expect about 17.3 "
                                   "GB/s per direction");
    assert_contains(none->next_step, "NCCL_P2P_LEVEL");
    assert_contains(need_finding(topo, "topo-tp-groups")->message, "every pair NODE");
    assert_null(collcalc_findings_find(&topo->advice, "topo-numa"));
    assert_int_equal(collcalc_findings_worst(&topo->advice), COLLCALC_SEVERITY_INFO);
    collcalc_topo_free(topo);

    topo = parse_fixture("topo_l40s_4gpu_pcie_node_aws_g6e12xl_gnosia93.txt", "l40s");
    assert_int_equal(topo->generation, COLLCALC_GPU_ADA);
    assert_int_equal(topo->pcie_gen, 4);
    collcalc_topo_free(topo);
}

static void test_pcie_switch_pairs(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_fixture("topo_8gpu_pcie_switch_pairs_pix_phb_sys_issue1439.txt", NULL);
    assert_int_equal(topo->header_line, 14);
    assert_int_equal(topo->gpu_count, 8);
    assert_int_equal(topo->nvlink_pairs, 0);
    for (int g = 0; g < 8; g++) {
        int partner = g ^ 1;
        assert_int_equal(topo->cells[g][partner].connection, COLLCALC_TOPO_PIX);
        assert_int_equal(topo->cells[g][(g + 4) % 8].connection, COLLCALC_TOPO_SYS);
        assert_int_equal(topo->cells[g][g ^ 2].connection, COLLCALC_TOPO_PHB);
    }
    const collcalc_finding *tp = need_finding(topo, "topo-tp-groups");
    assert_contains(tp->message, "behind one PCIe switch (PIX): use them as TP=2 groups: (GPU0, GPU1), "
                                 "(GPU2, GPU3), (GPU4, GPU5), (GPU6, GPU7) (about 25.2 GB/s");
    const collcalc_finding *sys = need_finding(topo, "topo-avoid-sys");
    assert_contains(sys->message, "16 GPU pairs are SYS");
    assert_contains(sys->message, "{GPU0-GPU3}, {GPU4-GPU7}");
    assert_contains(need_finding(topo, "topo-ep-groups")->message, "{GPU0-GPU3}, {GPU4-GPU7}");
    assert_contains(need_finding(topo, "topo-no-nvlink")->message,
                    "(4 PIX, 8 PHB, 16 SYS pairs); expect about 25.2 GB/s per direction behind one "
                    "PCIe switch (PIX), down to 12.6 GB/s across the CPU interconnect (SYS)");
    collcalc_topo_free(topo);
}

static void test_bridge_nv2(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_fixture("topo_2gpu_desktop_nvlink_bridge_nv2_stas00.txt", NULL);
    assert_int_equal(topo->gpu_count, 2);
    assert_int_equal(topo->island_count, 1);
    assert_int_equal(topo->islands[0].gpu_count, 2);
    assert_int_equal(topo->islands[0].max_bonds, 2);
    assert_true(topo->islands[0].all_to_all);
    assert_false(topo->islands[0].switched);
    assert_close(topo->islands[0].per_gpu_GBps, 50.0, 1e-9);
    assert_int_equal(topo->devices[1].numa_node, -1);
    assert_string_equal(topo->devices[1].cpu_affinity, "0-23");
    assert_contains(need_finding(topo, "topo-nvlink-island")->message, "NV2 between every pair");
    collcalc_topo_free(topo);
}

static void test_crlf_ansi_and_legend(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_text(
        "user@box:~$ nvidia-smi topo -m\r\n"
        "\x1b[4m\tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\x1b[0m\r\n"
        "GPU0\t X \tNV4\tPXB\tSYS\t0-11\t0\t\tN/A\r\n"
        "GPU1\tNV4\t X \tSYS\tNODE\t12-23\t1\t\t3\r\n"
        "NIC0\tPXB\tSYS\t X \tSYS\r\n"
        "NIC1\tSYS\tNODE\tSYS\t X \r\n"
        "\r\n"
        "Legend:\r\n"
        "\r\n"
        "  X    = Self\r\n"
        "  NV#  = Connection traversing a bonded set of # NVLinks\r\n"
        "\r\n"
        "NIC Legend:\r\n"
        "\r\n"
        "  NIC0: mlx5_0\r\n"
        "  NIC1: mlx5_bond_0\r\n",
        NULL);
    assert_int_equal(topo->header_line, 2);
    assert_int_equal(topo->device_count, 4);
    assert_false(topo->truncated);
    assert_true(topo->has_nic_legend);
    assert_string_equal(topo->devices[2].legend_name, "mlx5_0");
    assert_string_equal(topo->devices[3].legend_name, "mlx5_bond_0");
    assert_int_equal(topo->devices[1].gpu_numa_id, 3);
    assert_int_equal(topo->devices[1].numa_node, 1);
    assert_int_equal(topo->islands[0].max_bonds, 4);
    assert_close(topo->islands[0].per_gpu_GBps, 100.0, 1e-9);
    assert_int_equal(topo->devices[0].nearest_nic_class, COLLCALC_TOPO_PXB);
    assert_int_equal(topo->devices[1].nearest_nic_class, COLLCALC_TOPO_NODE);
    assert_int_equal(topo->devices[1].nearest_nics[0], 3);
    const collcalc_finding *far = need_finding(topo, "topo-nic-far");
    assert_int_equal(far->severity, COLLCALC_SEVERITY_WARNING);
    assert_contains(far->message, "GPU1 (NODE NIC1 (mlx5_bond_0))");
    assert_contains(far->next_step, "NCCL_NET_GDR_LEVEL");
    assert_int_equal(far->lines[0], 4);
    collcalc_topo_free(topo);
}

static void test_glued_cells_and_old_driver(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_text("        GPU0    GPU1    GPU2    CPU Affinity    NUMA Affinity\n"
                                     "GPU0     X      NV18NV18        0-51            0\n"
                                     "GPU1    NV18     X      NV180-51 0\n"
                                     "GPU2    NV18NV18 X 0-51 0\n",
                                     NULL);
    assert_int_equal(topo->islands[0].gpu_count, 3);
    assert_true(topo->islands[0].switched);
    assert_string_equal(topo->devices[1].cpu_affinity, "0-51");
    assert_int_equal(topo->devices[1].numa_node, 0);
    collcalc_topo_free(topo);

    topo = parse_text("\tGPU0\tGPU1\tmlx5_0\tCPU Affinity\n"
                      "GPU0\t X \tSOC\tPHB\t0-9\n"
                      "GPU1\tSOC\t X \tSOC\t10-19\n"
                      "mlx5_0\tPHB\tSOC\t X \n",
                      NULL);
    assert_int_equal(topo->nic_count, 1);
    assert_string_equal(topo->devices[2].name, "mlx5_0");
    assert_int_equal(topo->cells[0][1].connection, COLLCALC_TOPO_SYS);
    assert_int_equal(topo->devices[0].nearest_nic_class, COLLCALC_TOPO_PHB);
    assert_int_equal(topo->devices[1].nearest_nic_class, COLLCALC_TOPO_SYS);
    assert_contains(need_finding(topo, "topo-nic-far")->message, "GPU1 (SYS mlx5_0)");
    assert_contains(need_finding(topo, "topo-avoid-sys")->message, "1 GPU pairs are SYS");
    collcalc_topo_free(topo);
}

/* issue 21: a matrix missing its last GPU row (and its NIC rows) keeps what
 * is complete, says so once, and names the GPUs without a near NIC (PXN) */
static void test_lenient_last_row(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_corpus("topo_h100_8gpu_6nic_only4_gpus_pix_issue1357.txt");
    assert_int_equal(topo->gpu_count, 8);
    assert_int_equal(topo->nic_count, 6);
    assert_int_equal(topo->cells[7][0].connection, COLLCALC_TOPO_NVLINK);
    assert_int_equal(topo->cells[7][0].bonds, 18);
    assert_int_equal(topo->cells[7][8].connection, COLLCALC_TOPO_SYS);
    const collcalc_finding *last = need_finding(topo, "topo-last-gpu-row");
    assert_non_null(strstr(last->message, "Row GPU7 is missing"));
    const collcalc_finding *far = need_finding(topo, "topo-nic-far");
    assert_non_null(strstr(far->message, "GPU1 (SYS NIC0), GPU3 (SYS NIC0), GPU5 (SYS NIC0)"));
    assert_non_null(strstr(far->next_step, "PXN"));
    collcalc_topo_free(topo);

    topo = parse_corpus("cut_inside_last_gpu_row.txt");
    assert_int_equal(topo->gpu_count, 3);
    assert_int_equal(topo->cells[2][1].bonds, 18);
    assert_int_equal(topo->cells[2][3].connection, COLLCALC_TOPO_SYS);
    assert_non_null(strstr(need_finding(topo, "topo-last-gpu-row")->message, "Row GPU2 is cut short"));
    collcalc_topo_free(topo);

    topo = parse_corpus("two_matrices.txt");
    assert_int_equal(topo->gpu_count, 2);
    assert_int_equal(topo->cells[0][1].bonds, 2);
    assert_non_null(strstr(need_finding(topo, "topo-second-matrix")->message,
                           "A second matrix starts at line 7"));
    collcalc_topo_free(topo);
}

/* issue 23 item 4: 256 GPUs all NV18 (330 KB) analysed in O(n^2), not O(n^4) */
static void test_large_matrix_fast(void **state)
{
    (void)state;
    enum { N = 256 };
    size_t cap = 400000, used = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    used += (size_t)snprintf(text + used, cap - used, " ");
    for (int i = 0; i < N; i++)
        used += (size_t)snprintf(text + used, cap - used, "\tGPU%d", i);
    used += (size_t)snprintf(text + used, cap - used, "\n");
    for (int i = 0; i < N; i++) {
        used += (size_t)snprintf(text + used, cap - used, "GPU%d", i);
        for (int j = 0; j < N; j++)
            used += (size_t)snprintf(text + used, cap - used, i == j ? "\t X " : "\tNV18");
        used += (size_t)snprintf(text + used, cap - used, "\n");
    }
    clock_t start = clock();
    collcalc_topo *topo = parse_text(text, "h100");
    double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
    free(text);
    assert_int_equal(topo->gpu_count, N);
    assert_int_equal(topo->islands[0].gpu_count, N);
    assert_null(collcalc_findings_find(&topo->advice, "topo-odd-bond"));
    collcalc_topo_free(topo);
    if (seconds > 2.0) { /* 9.7 s before (93 s under ASan) */
        print_error("256 GPUs took %.2f s\n", seconds);
        fail();
    }
}

static void test_gpu_option(void **state)
{
    (void)state;
    collcalc_gpu_generation generation = COLLCALC_GPU_UNKNOWN;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_gpu_generation_parse("h100", &generation, &diag), COLLCALC_OK);
    assert_int_equal(generation, COLLCALC_GPU_HOPPER);
    assert_int_equal(collcalc_gpu_generation_parse("zz99", &generation, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "unknown GPU 'zz99'"));
}

static void test_odd_bond(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_text("\tGPU0\tGPU1\tGPU2\tGPU3\n"
                                     "GPU0\t X \tNV4\tNV4\tNV4\n"
                                     "GPU1\tNV4\t X \tNV4\tNV4\n"
                                     "GPU2\tNV4\tNV4\t X \tNV3\n"
                                     "GPU3\tNV4\tNV4\tNV3\t X \n",
                                     "a100");
    assert_false(topo->islands[0].all_to_all);
    assert_int_equal(topo->islands[0].min_bonds, 3);
    const collcalc_finding *odd = need_finding(topo, "topo-odd-bond");
    assert_int_equal(odd->severity, COLLCALC_SEVERITY_WARNING);
    assert_contains(odd->message, "GPU2-GPU3 shows NV3 where GPU2's other NVLink pairs show NV4");
    assert_int_equal(odd->line_count, 2);
    assert_int_equal(odd->lines[0], 4);
    assert_int_equal(odd->lines[1], 5);
    collcalc_topo_free(topo);

    /* DGX-1 (V100) hybrid cube mesh: NV1 and NV2 by design, 6 links per GPU; not flagged. */
    topo = parse_text("\tGPU0\tGPU1\tGPU2\tGPU3\tGPU4\tGPU5\tGPU6\tGPU7\n"
                      "GPU0\t X \tNV1\tNV1\tNV2\tNV2\tSYS\tSYS\tSYS\n"
                      "GPU1\tNV1\t X \tNV2\tNV1\tSYS\tNV2\tSYS\tSYS\n"
                      "GPU2\tNV1\tNV2\t X \tNV2\tSYS\tSYS\tNV1\tSYS\n"
                      "GPU3\tNV2\tNV1\tNV2\t X \tSYS\tSYS\tSYS\tNV1\n"
                      "GPU4\tNV2\tSYS\tSYS\tSYS\t X \tNV1\tNV1\tNV2\n"
                      "GPU5\tSYS\tNV2\tSYS\tSYS\tNV1\t X \tNV2\tNV1\n"
                      "GPU6\tSYS\tSYS\tNV1\tSYS\tNV1\tNV2\t X \tNV2\n"
                      "GPU7\tSYS\tSYS\tSYS\tNV1\tNV2\tNV1\tNV2\t X \n",
                      "v100");
    assert_int_equal(topo->island_count, 1);
    assert_int_equal(topo->islands[0].gpu_count, 8);
    assert_false(topo->islands[0].all_to_all);
    /* 6 links x 25 GB/s on every GPU. */
    for (int g = 0; g < 8; g++)
        assert_close(topo->devices[g].nvlink_GBps, 150.0, 1e-9);
    assert_null(collcalc_findings_find(&topo->advice, "topo-asymmetric"));
    assert_null(collcalc_findings_find(&topo->advice, "topo-odd-bond"));
    collcalc_topo_free(topo);
}

typedef struct {
    const char *text;
    const char *message; /* substring expected in the diagnostic */
} bad_case;

static const bad_case bad_cases[] = {
    {"", "no header line"},
    {"hello world\nthis is not a matrix\n", "not an nvidia-smi topo -m matrix: no header line"},
    {"GPU0 X NV1\n", "line 1: row GPU0 before any header line"},
    {"\tGPU0\tGPU1\nGPU0\t X \tNVX\nGPU1\tNVX\t X \n",
     "line 2: unknown connection word 'NVX' in row GPU0, column GPU1"},
    {"\tGPU0\tGPU1\nGPU0\t X \tPIX\nGPU1\tPIX\t X \tFOO\n", "line 3: row GPU1 has more cells"},
    {"\tGPU0\tGPU1\tGPU2\nGPU0\t X \tNV1\tNV1\nGPU1\tNV1\t X",
     "line 3: matrix truncated in row GPU1 (2 of 3 cells)"},
    {"\tGPU0\tGPU1\nGPU0\t X \tNV1\n", "matrix truncated: row GPU1 is missing"},
    /* issue 23 item 12: a word is read whole */
    {"\tGPU0\tGPU1\nGPU0\t X \tXYZ\nGPU1\tNV2\t X \n",
     "line 2: unknown connection word 'XYZ' in row GPU0, column GPU1"},
    {"\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV999999999999\t0-7\nGPU1\tNV2\t X \t0-7\n",
     "line 2: 'NV999999999999' in row GPU0, column GPU1 is not an NVLink count (NV1 to NV18)"},
    {"\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \t0-3\nGPU1\tPIX\t X \t0-3\n",
     "line 2: row GPU0 has 1 cells, the header has 2 device columns"},
    {"\tGPU0\tGPU1\tNIC0\tNIC1\nGPU0\t X \tPIX\tPIX\tSYS\nGPU1\tPIX\t X \tPIX\tSYS\nNIC0\tPIX\n"
     "NIC1\tSYS\tSYS\tSYS\t X \n",
     "line 4: row NIC0 has 1 cells, the header has 4 device columns"},
    {"\tGPU0\tGPU1\nGPU1\tPIX\t X \n", "line 2: row GPU1 where row GPU0 was expected"},
    {"\tGPU0\tGPU1\nGPU0\t X \t X \n", "line 2: row GPU0, column GPU1 is X"},
    {"\tGPU0\tGPU1\nGPU0\tPIX\tPIX\n", "line 2: row GPU0, column GPU0 is PIX"},
    {"\tGPU0\tGPU0\n", "line 1: the header names GPU0 twice"},
    {"\tGPU0\tCPU Affinity\tGPU1\n", "after the affinity columns"},
    {"x\n\tGPU0\x01\n", "line 2: binary data (byte 0x01)"},
};

static void test_bad_input(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(bad_cases); i++) {
        collcalc_diag diag = {{0}};
        collcalc_topo *topo = (collcalc_topo *)&diag; /* must be reset to NULL */
        collcalc_status status = collcalc_topo_parse(bad_cases[i].text, strlen(bad_cases[i].text),
                                                     NULL, &topo, &diag);
        if (status != COLLCALC_ERR_INVALID || topo != NULL ||
            strstr(diag.message, bad_cases[i].message) == NULL) {
            print_error("case %zu: status %d, message \"%s\", wanted \"%s\"\n", i, (int)status,
                        diag.message, bad_cases[i].message);
            fail();
        }
        assert_null(strchr(diag.message, '\n'));
    }
}

static void test_limits(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    collcalc_topo *topo = NULL;
    /* A NUL byte is binary, even inside an otherwise good matrix. */
    static const char nul[] = "\tGPU0\nGPU0\t X \0\n";
    assert_int_equal(collcalc_topo_parse(nul, sizeof nul - 1, NULL, &topo, &diag),
                     COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "line 2: binary data (byte 0x00)");

    size_t big = COLLCALC_TOPO_TEXT_MAX_BYTES + 1;
    char *text = malloc(big);
    assert_non_null(text);
    memset(text, ' ', big);
    assert_int_equal(collcalc_topo_parse(text, big, NULL, &topo, &diag), COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "1048577 bytes is more than a topo matrix");

    /* 257 GPU columns. */
    size_t used = 0;
    for (int g = 0; g < 257; g++)
        used += (size_t)snprintf(text + used, big - used, "\tGPU%d", g);
    assert_int_equal(collcalc_topo_parse(text, used, NULL, &topo, &diag), COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "line 1: the header names more than 256 devices");
    free(text);

    collcalc_topo_options options;
    collcalc_topo_options_init(&options);
    options.gpu = "sm42";
    assert_int_equal(collcalc_topo_parse("\tGPU0\nGPU0 X\n", 13, &options, &topo, &diag),
                     COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "unknown GPU 'sm42'");
    assert_null(topo);
}

static void test_one_gpu_and_names(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_text("\tGPU0\tCPU Affinity\tNUMA Affinity\nGPU0\t X \t0-7\t0\n", NULL);
    assert_int_equal(topo->gpu_count, 1);
    assert_int_equal(topo->island_count, 1);
    assert_int_equal(topo->devices[0].numa_node, 0);
    assert_int_equal(collcalc_findings_worst(&topo->advice), COLLCALC_SEVERITY_INFO);
    assert_close(collcalc_topo_pair_GBps(topo, 0, 0), 0.0, 0.0);
    assert_close(collcalc_topo_pair_GBps(topo, 0, 5), 0.0, 0.0);
    collcalc_topo_free(topo);
    collcalc_topo_free(NULL);
    assert_string_equal(collcalc_topo_class_name(COLLCALC_TOPO_NODE), "NODE");
    assert_string_equal(collcalc_gpu_generation_name(COLLCALC_GPU_BLACKWELL), "blackwell");
    assert_close(collcalc_topo_class_estimate_GBps(COLLCALC_TOPO_PIX, 5), 50.4, 1e-9);
    assert_close(collcalc_topo_class_estimate_GBps(COLLCALC_TOPO_SYS, 3), 6.3, 1e-9);
    assert_close(collcalc_topo_class_estimate_GBps(COLLCALC_TOPO_NVLINK, 4), 0.0, 0.0);
}

/* issue 21: AMD's rocm-smi --showtopo (validation file copied into the
 * corpus): an xGMI full mesh of 8, weights, hops, NUMA nodes */
static void test_rocm_smi_showtopo(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_corpus("topo_amd_mi308x_8gpu_rocm_smi_showtopo_xgmi_msswift.txt");
    assert_int_equal(topo->rocm_smi, 1);
    assert_int_equal(topo->gpu_count, 8);
    assert_int_equal(topo->nic_count, 0);
    assert_int_equal(topo->generation, COLLCALC_GPU_CDNA3);
    assert_int_equal(topo->generation_inferred, 1);
    assert_int_equal(topo->cells[0][7].connection, COLLCALC_TOPO_NVLINK);
    assert_int_equal(topo->cells[0][7].bonds, 1);
    assert_int_equal(topo->cells[3][5].weight, 15);
    assert_int_equal(topo->cells[3][5].hops, 1);
    assert_int_equal(topo->cells[2][2].connection, COLLCALC_TOPO_SELF);
    assert_int_equal(topo->devices[3].numa_node, 0);
    assert_int_equal(topo->devices[4].numa_node, 1);
    assert_int_equal(topo->devices[0].line, 33); /* its Link Type row */
    assert_int_equal(topo->island_count, 1);
    assert_int_equal(topo->islands[0].gpu_count, 8);
    assert_true(topo->islands[0].all_to_all);
    assert_false(topo->islands[0].switched); /* 7 point-to-point links, no switch */
    assert_close(topo->islands[0].per_gpu_GBps, 7 * 64.0, 1e-9);
    assert_close(collcalc_topo_pair_GBps(topo, 0, 1), 64.0, 1e-9);
    char cell[16];
    assert_string_equal(collcalc_topo_cell_name(topo, &topo->cells[0][1], cell, sizeof cell), "XGMI");
    assert_string_equal(collcalc_topo_fabric_name(topo), "xGMI");
    assert_contains(need_finding(topo, "topo-nvlink-island")->message,
                    "xGMI full mesh of 8 GPUs (GPU0-GPU7)");
    assert_contains(need_finding(topo, "topo-numa")->message, "NUMA 0: GPU0-GPU3; NUMA 1: GPU4-GPU7.");
    assert_contains(need_finding(topo, "topo-gpu-generation")->next_step, "mi355x");
    assert_null(collcalc_findings_find(&topo->advice, "topo-xgmi-hops"));
    collcalc_topo_free(topo);

    /* the GPU named: CDNA4's 76.8 GB/s per link */
    size_t length = 0;
    char *text = test_read_file(
        test_source_path("tests/fuzz/corpus/topo/topo_amd_mi308x_8gpu_rocm_smi_showtopo_xgmi_msswift.txt"),
        &length);
    assert_non_null(text);
    collcalc_topo_options options;
    collcalc_topo_options_init(&options);
    options.gpu = "mi355x";
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_topo_parse(text, length, &options, &topo, &diag), COLLCALC_OK);
    assert_int_equal(topo->generation, COLLCALC_GPU_CDNA4);
    assert_close(topo->islands[0].per_gpu_GBps, 7 * 76.8, 1e-9);
    collcalc_topo_free(topo);
    free(text);

    /* pairs of xGMI, PCIE inside a NUMA node (PHB) and across (SYS) */
    topo = parse_corpus("rocm_pairs_pcie.txt");
    assert_int_equal(topo->island_count, 2);
    assert_int_equal(topo->cells[0][2].connection, COLLCALC_TOPO_PHB);
    assert_int_equal(topo->cells[0][3].connection, COLLCALC_TOPO_SYS);
    assert_int_equal(topo->cells[0][2].hops, 2);
    assert_contains(need_finding(topo, "topo-tp-groups")->message, "{GPU0, GPU1}, {GPU2, GPU3}");
    collcalc_topo_free(topo);

    /* an xGMI pair of two hops is said */
    topo = parse_text("=== Link Type between two GPUs ===\n GPU0 GPU1 GPU2\n"
                      "GPU0 0 XGMI XGMI\nGPU1 XGMI 0 XGMI\nGPU2 XGMI XGMI 0\n"
                      "=== Hops between two GPUs ===\n GPU0 GPU1 GPU2\n"
                      "GPU0 0 1 2\nGPU1 1 0 1\nGPU2 2 1 0\n",
                      NULL);
    assert_contains(need_finding(topo, "topo-xgmi-hops")->message, "GPU0-GPU2, 2 hops");
    collcalc_topo_free(topo);

    /* refusals name the line */
    static const struct {
        const char *text, *message;
    } bad[] = {
        {"=== Weight between two GPUs ===\n GPU0 GPU1\nGPU0 0 15\nGPU1 15 0\n",
         "without its 'Link Type between two GPUs' block"},
        {"=== Link Type between two GPUs ===\n GPU0 GPU1\nGPU0 0 NVLINK\nGPU1 XGMI 0\n",
         "line 3: unknown link type 'NVLINK' in row GPU0, column GPU1"},
        {"=== Link Type between two GPUs ===\n GPU0 GPU1\nGPU0 0 XGMI\n",
         "line 1: the 'Link Type between two GPUs' block has no row GPU1 (1 rows for 2 GPUs)"},
        {"=== Link Type between two GPUs ===\n GPU0 GPU1\nGPU0 0 XGMI\nGPU0 0 XGMI\n",
         "block has no row GPU1 (2 rows for 2 GPUs)"},
        {"=== Link Type between two GPUs ===\n GPU0 GPU1\nGPU0 0 XGMI XGMI\n",
         "line 3: row GPU0 has 3 cells, the block names 2 GPUs"},
        {"=== Link Type between two GPUs ===\n GPU0 GPU1\nGPU0 XGMI 0\n",
         "line 3: row GPU0, column GPU0 is 'XGMI'"},
        {"=== Hops between two GPUs ===\n GPU0 GPU1\nGPU0 0 x1\n",
         "line 3: 'x1' in row GPU0, column GPU1 is not a hop count"},
        {"=== Hops between two GPUs ===\n GPU0 GPU1\nGPU5 0 1\n",
         "line 3: row GPU5 is not among the block's GPUs"},
        {"=== Hops between two GPUs ===\n GPU0 GPU1\n=== Link Type between two GPUs ===\n GPU0\n",
         "line 4: this block names 1 GPUs, the first block 2"},
        {"=== Hops between two GPUs ===\n", "without a GPU matrix"},
    };
    for (size_t i = 0; i < COUNT_OF(bad); i++) {
        collcalc_topo *none = NULL;
        collcalc_diag failed = {{0}};
        assert_int_equal(collcalc_topo_parse(bad[i].text, strlen(bad[i].text), NULL, &none, &failed),
                         COLLCALC_ERR_INVALID);
        assert_null(none);
        assert_contains(failed.message, bad[i].message);
    }
}

/* issue 21: nvidia-smi topo -mp (PCIe paths only, NIC legend) */
static void test_topo_mp(void **state)
{
    (void)state;
    collcalc_topo *topo = parse_corpus("topo_mp_4gpu_2nic.txt");
    assert_int_equal(topo->gpu_count, 4);
    assert_int_equal(topo->nic_count, 2);
    assert_int_equal(topo->nvlink_pairs, 0);
    assert_int_equal(topo->cells[0][1].connection, COLLCALC_TOPO_PXB);
    assert_int_equal(topo->cells[1][2].connection, COLLCALC_TOPO_SYS);
    assert_string_equal(topo->devices[5].legend_name, "mlx5_1");
    assert_int_equal(topo->devices[2].nearest_nics[0], 5);
    assert_int_equal(topo->devices[2].numa_node, 1);
    assert_contains(need_finding(topo, "topo-tp-groups")->message,
                    "TP=2 groups: (GPU0, GPU1), (GPU2, GPU3)");
    assert_null(collcalc_findings_find(&topo->advice, "topo-second-matrix"));
    assert_int_equal(topo->next_matrix_offset, 0);
    collcalc_topo_free(topo);
}

/* issue 21: the second matrix of a file is found where it starts, and read
 * from there with its own line numbers */
static void test_second_matrix_offset(void **state)
{
    (void)state;
    size_t length = 0;
    char *text = test_read_file(test_source_path("tests/fuzz/corpus/topo/two_matrices.txt"), &length);
    assert_non_null(text);
    collcalc_diag diag = {{0}};
    collcalc_topo *first = NULL, *second = NULL;
    assert_int_equal(collcalc_topo_parse(text, length, NULL, &first, &diag), COLLCALC_OK);
    assert_int_equal(first->next_matrix_line, 7);
    assert_true(first->next_matrix_offset > 0 && first->next_matrix_offset < length);
    collcalc_topo_options options;
    collcalc_topo_options_init(&options);
    options.first_line = first->next_matrix_line;
    assert_int_equal(collcalc_topo_parse(text + first->next_matrix_offset,
                                         length - first->next_matrix_offset, &options, &second,
                                         &diag),
                     COLLCALC_OK);
    assert_int_equal(second->header_line, 7);
    assert_int_equal(second->cells[0][1].connection, COLLCALC_TOPO_PHB);
    assert_int_equal(second->devices[1].line, 9);
    assert_int_equal(second->next_matrix_offset, 0);
    collcalc_topo_free(first);
    collcalc_topo_free(second);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h100_nv18),
        cmocka_unit_test(test_h100_nv18_given_blackwell),
        cmocka_unit_test(test_hgx_h100_ten_nics),
        cmocka_unit_test(test_a100_nv12),
        cmocka_unit_test(test_l40s_pcie_node),
        cmocka_unit_test(test_pcie_switch_pairs),
        cmocka_unit_test(test_bridge_nv2),
        cmocka_unit_test(test_crlf_ansi_and_legend),
        cmocka_unit_test(test_glued_cells_and_old_driver),
        cmocka_unit_test(test_odd_bond),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_lenient_last_row),
        cmocka_unit_test(test_rocm_smi_showtopo),
        cmocka_unit_test(test_topo_mp),
        cmocka_unit_test(test_second_matrix_offset),
        cmocka_unit_test(test_large_matrix_fast),
        cmocka_unit_test(test_gpu_option),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_one_gpu_and_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
