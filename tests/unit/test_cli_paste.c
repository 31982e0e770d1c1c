/* check on whole pastes through the CLI: exit codes and the lines that
 * matter (not the model's numbers, which other tests pin). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <stdbool.h>

#include "support.h"

static test_cli_run check(const char *fixture, const char *extra)
{
    char line[512];
    snprintf(line, sizeof line, "collcalc check %s %s",
             test_source_path(fixture), extra);
    return test_cli_line(NULL, line);
}

/* issue 23 item 1: wrong results are not healthy, and --strict exits 3 */
static void wrong_results_fail_strict(void **state)
{
    (void)state;
    test_cli_run run = check("tests/fuzz/corpus/paste/wrong_rows_no_trailer.txt", "--strict");
    assert_int_equal(run.exit_code, 3);
    assert_non_null(strstr(run.out, "verdict: wrong-results"));
    assert_non_null(strstr(run.out, "error   wrong results: 1 row reports 64 wrong values"));
    test_cli_run_free(&run);
    run = check("tests/fuzz/corpus/paste/wrong_rows_out_of_bounds.txt", "--strict");
    assert_int_equal(run.exit_code, 3);
    assert_non_null(strstr(run.out, "32 out-of-bounds (wrong) values"));
    test_cli_run_free(&run);
}

/* issue 23 item 6: an appended slower table is a second run, and --strict fails */
static void appended_run_fails_strict(void **state)
{
    (void)state;
    test_cli_run run = check("tests/fuzz/corpus/paste/appended_second_table_5x_slower.txt",
                             "--strict");
    assert_int_equal(run.exit_code, 3);
    assert_non_null(strstr(run.out, ": 2 runs"));
    assert_non_null(strstr(run.out, "run 2 (line 34) reaches 5.0x less busbw than run 1"));
    test_cli_run_free(&run);
    run = check("tests/fuzz/corpus/paste/three_runs_then_8x_slower.txt", "--format json");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "\"code\":\"slow-run\""));
    assert_non_null(strstr(run.out, "\"runs\":[{\"run\":1,"));
    test_cli_run_free(&run);
}

static void sweep_names_the_slow_pair(void **state)
{
    (void)state;
    test_cli_run run = check("tests/fuzz/corpus/paste/node_pair_sweep_one_slow.txt", "");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "run 5 (line 70, 'pair gpu02 gpu04') peaks at 2.75 GB/s"));
    test_cli_run_free(&run);
}

/* issue 23 items 12 and 13 (topo parts): --gpu is checked before the file is read */
static void topo_gpu_option_and_size(void **state)
{
    (void)state;
    char line[512];
    snprintf(line, sizeof line, "collcalc topo %s --gpu zz99",
             test_source_path("tests/fuzz/corpus/topo/two_matrices.txt"));
    test_cli_run run = test_cli_line(NULL, line);
    assert_int_equal(run.exit_code, 2);
    assert_non_null(strstr(run.err, "--gpu: unknown GPU 'zz99'"));
    test_cli_run_free(&run);
    size_t big = (1u << 20) + 100;
    char *text = malloc(big + 1);
    assert_non_null(text);
    memset(text, 'a', big);
    text[big] = '\0';
    run = test_cli_line(text, "collcalc topo -");
    free(text);
    assert_int_equal(run.exit_code, 1);
    assert_non_null(strstr(run.err, "more than 1048576 bytes"));
    test_cli_run_free(&run);
}

/* issue 21: no platform in the paste: why the verdict is unknown and which
 * option to give, once for all runs; with it, every run is judged and the
 * send/recv tables take the rank count of the run before them */
static void unknown_verdict_says_why(void **state)
{
    (void)state;
    static const char *file =
        "tests/fuzz/corpus/paste/nccl_all5_h100_10node_80gpu_ib_8x400g_inferred_nccl2.29.2_xxrjun.txt";
    test_cli_run run = check(file, "");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, ": 17 runs"));
    assert_non_null(strstr(run.out, "verdict unknown on 17 of 17 runs: the cluster is not known: "
                                    "the output names no GPU"));
    assert_non_null(strstr(run.out, "next: give --platform NAME"));
    assert_non_null(strstr(run.out, "run 5 (lines 161-190): send/recv on 80 ranks"));
    test_cli_run_free(&run);
    run = check(file, "--platform hgx-h100");
    assert_int_equal(run.exit_code, 0);
    /* The 10-rank runs (1 GPU per node on 10 nodes, hosts cut) are not
     * packed onto 8-GPU nodes by guess and called below expectation: they
     * are not judged, and say which option would judge them. */
    assert_null(strstr(run.out, "below-expectation"));
    assert_non_null(strstr(run.out, "verdict unknown on 5 of 17 runs: 10 ranks do not fill "
                                    "hgx-h100's 8-GPU nodes and the run does not list its hosts"));
    assert_non_null(strstr(run.out, "next: give --nodes N (the run's node count"));
    assert_non_null(strstr(run.out, "run 1 (lines 1-80): all-reduce on 80 ranks; 10 rows; "
                                    "verdict healthy"));
    assert_non_null(strstr(run.out, "run 13 (lines 369-396, 'single-node"));
    assert_non_null(strstr(run.out, "all-reduce on 8 ranks; 10 rows; verdict healthy"));
    test_cli_run_free(&run);
    /* --nodes 10 judges the 1-GPU-per-node runs; the runs it does not fit
     * (16 ranks, 8 ranks) are not judged instead of failing the paste. */
    run = check(file, "--platform hgx-h100 --nodes 10");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "run 11 (lines 327-347, 'pairwise"));
    assert_non_null(strstr(run.out, "16 ranks do not split evenly over 10 nodes"));
    assert_non_null(strstr(run.out, "run 6 (lines 190-217, 'logs/nccl_N10_G1.log verbatim (1 GPU "
                                    "per node x 10 nodes; rank lines removed)'): all-reduce on 10 "
                                    "ranks; 10 rows; verdict healthy"));
    test_cli_run_free(&run);
    run = check(file, "--format json");
    assert_non_null(strstr(run.out, "\"code\":\"ranks-from-previous-run\""));
    assert_non_null(strstr(run.out, "\"code\":\"verdict-unknown\""));
    test_cli_run_free(&run);
}

/* A board the driver does not know yet prints as "NVIDIA Graphics Device"
 * (CoreWeave's GB200 NVL72 table, one rank line): check says so instead of
 * "no preset has the GPU with 0 per host", and --platform judges it. */
static void graphics_device_says_why(void **state)
{
    (void)state;
    static const char *paste =
        "#  Rank 71 Group  0 Pid  14840 on slurm-gb200-207-171 device  3 [0x01] NVIDIA Graphics "
        "Device\n"
        "#       size         count      type   redop    root     time   algbw   busbw #wrong\n"
        "   536870912     134217728     float     sum      -1   1806.7  297.16  586.06      0\n"
        "  4294967296    1073741824     float     sum      -1    10094  425.49  839.16      0\n"
        "  8589934592    2147483648     float     sum      -1    20299  423.16  834.57      0\n";
    test_cli_run run = test_cli_line(paste, "collcalc check -");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "'NVIDIA Graphics Device' is the name the driver gives a "
                                    "board it does not know yet"));
    assert_null(strstr(run.out, "0 per host"));
    test_cli_run_free(&run);
    run = test_cli_line(paste, "collcalc check - --platform gb200-nvl72");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "verdict: healthy"));
    test_cli_run_free(&run);
}

/* issue 21: a paste holding only a matrix or only NCCL_DEBUG lines is read,
 * and check renders the matrices it finds (every one of them) */
static void check_renders_matrices_and_logs(void **state)
{
    (void)state;
    test_cli_run run = check(
        "tests/fuzz/corpus/topo/topo_amd_mi308x_8gpu_rocm_smi_showtopo_xgmi_msswift.txt", "");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "no nccl-tests table; a topology matrix"));
    assert_non_null(strstr(run.out, "8 GPUs, 0 NICs (rocm-smi --showtopo, cdna3); xGMI islands: {GPU0-7}"));
    assert_non_null(strstr(run.out, "GPU7    XGMI  XGMI  XGMI  XGMI  XGMI  XGMI  XGMI     X"));
    test_cli_run_free(&run);
    run = check("tests/fuzz/corpus/topo/two_matrices.txt", "--format json");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "\"matrices\":[{\"matrix\":1,\"first_line\":2,"));
    assert_non_null(strstr(run.out, "{\"matrix\":2,\"first_line\":7,"));
    test_cli_run_free(&run);
    run = check("tests/fuzz/corpus/topo/two_matrices.txt", "");
    assert_non_null(strstr(run.out, "topology matrix 2 (line 7;"));
    assert_non_null(strstr(run.out, "GPU1     PHB     X"));
    test_cli_run_free(&run);
    run = check("tests/fuzz/corpus/nccl_log/nccl_debug_h800_1node_8gpu_0_nvls_channels_issue892.txt", "");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "no nccl-tests table; NCCL_DEBUG lines"));
    assert_non_null(strstr(run.out, "16 coll channels but 0 NVLS channels"));
    test_cli_run_free(&run);
}

/* issue 21 item 2: NCCL's TUNING table and per-size choices beside
 * collcalc's model of the system the command names (validation file copied
 * into the corpus); without a cluster, what to give */
static void tuning_beside_the_model(void **state)
{
    (void)state;
    static const char *file = "tests/fuzz/corpus/nccl_log/"
                              "nccl_debug_tuning_algo_proto_table_rtx5090_socket_2rank_nccl2.29.7_ncclebpf.txt";
    test_cli_run run = check(file, "");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "NCCL's TUNING lines are not set beside collcalc's model: the "
                                    "cluster is not known"));
    assert_non_null(strstr(run.out, "next: give --platform NAME"));
    assert_non_null(strstr(run.out, "AllGather 64 KiB..64 MiB Ring/Simple"));
    test_cli_run_free(&run);
    run = check(file, "--platform rtx-pro6000-8x-pcie5 --gpus 2 --nodes 2");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "NCCL's TUNING lines beside collcalc's model of "
                                    "rtx-pro6000-8x-pcie5, 2 nodes x 1 GPUs"));
    assert_non_null(strstr(run.out, "AllGather       32 KiB  PAT/Simple                    "
                                    "Ring/LL                yes    37"));
    assert_non_null(strstr(run.out, "AllGather        1 MiB  Ring/Simple                   "
                                    "Ring/Simple              -    42"));
    /* the table's latencies are the model's; its bandwidths are not */
    assert_non_null(strstr(run.out, "Ring/LL 11.6 us 2.4 GB/s      11.6 us 12.0 GB/s      yes"));
    assert_non_null(strstr(run.out, "NCCL's tuning differs from collcalc's model of this system: 3 "
                                    "of 23 choices and 4 of 12 table cells"));
    test_cli_run_free(&run);
    run = check(file, "--platform rtx-pro6000-8x-pcie5 --gpus 2 --nodes 2 --format json");
    assert_non_null(strstr(run.out, "\"nccl_tuning\":[{\"kind\":\"choice\",\"op\":\"AllGather\","
                                    "\"size_bytes\":16,\"nccl\":\"Ring/LL\",\"model\":\"Ring/LL\""));
    assert_non_null(strstr(run.out, "\"code\":\"nccl-tuning-vs-model\""));
    test_cli_run_free(&run);
}

/* issue 21, must hold: every file of ../shared/validation read as a new user
 * reads it (no options), its key findings pinned. The set is found with
 * test_shared_path (skipped, visibly, without it); a file added to the set
 * and not listed here fails the test. */
typedef struct {
    const char *file, *command;
    int exit_code;
    const char *expect[4];
} validation_case;

static const validation_case VALIDATION[] = {
    {"kv_transfer_engine_raw_bandwidth.txt", "check", 1,
     {"nothing to read: no nccl-tests table, no NCCL_DEBUG line and no topology matrix"}},
    {"moe_deepep_normal_kernels_h800_cx7.txt", "check", 1,
     {"nothing to read: no nccl-tests table, no NCCL_DEBUG line and no topology matrix"}},
    {"reported_numbers_and_maintainer_expectations.txt", "check", 1,
     {"not an nccl-tests table row", "no table was found"}},
    {"reported_numbers_ep_kv_small_msg.txt", "check", 1,
     {"not an nccl-tests table row", "no table was found"}},
    {"nccl_all5_h100_10node_80gpu_ib_8x400g_inferred_nccl2.29.2_xxrjun.txt", "check", 0,
     {": 17 runs", "run 5 (lines 161-190): send/recv on 80 ranks",
      "verdict unknown on 17 of 17 runs: the cluster is not known", "give --platform NAME"}},
    {"nccl_allgather_2080ti_2gpu_pcie_nop2p_autodl.txt", "check", 0,
     {"all-gather on 2 ranks (single-process launch), NVIDIA GeForce RTX 2080 Ti; 28 rows",
      "predicted for rtx2080ti-2x-pcie3", "verdict: below-expectation"}},
    {"nccl_allreduce_2080ti_2gpu_pcie_nop2p_autodl.txt", "check", 0,
     {"all-reduce on 2 ranks (single-process launch), NVIDIA GeForce RTX 2080 Ti; 28 rows",
      "verdict: below-expectation", "check P2P and NVLink are used"}},
    {"nccl_allgather_h100_2node_16gpu_tcpxo_8x200g_gcp_a3mega_clustertoolkit.txt", "check", 0,
     {"all-gather on 16 ranks", "verdict: unknown", "why: the cluster is not known"}},
    {"nccl_allreduce_a100_2node_16gpu_efa400_p4de_awsome.txt", "check", 0,
     {"all-reduce on 16 ranks", "verdict: unknown", "next: give --platform NAME"}},
    {"nccl_allreduce_a100_8gpu_nvlink3_stas00.txt", "check", 0,
     {"all-reduce (abbreviated table) on 8 ranks", "verdict: unknown"}},
    {"nccl_allreduce_alltoall_b300_8gpu_oci_1_2nodes_roce_8x800g_nccl2.28.9.txt", "check", 0,
     {": 4 runs", "run 3 (lines 55-75, 'All-to-All - Single Node'): all-to-all on 8 ranks",
      "run 4 (lines 75-88, 'All-to-All - 2 Nodes'): all-to-all on 16 ranks",
      "the printed average busbw 102.495 is not the mean of the rows above it (181)"}},
    {"nccl_allreduce_alltoall_gb200_nvl72_oci_1_2_16_32_48hosts_nccl2.27.3.txt", "check", 0,
     {": 9 runs", "'NCCL All to All Scale Performance 32 Hosts 2 Racks'): all-to-all on 128 ranks",
      "'NVIDIA Graphics Device' is the name the driver gives a board it does not know yet"}},
    {"nccl_allreduce_gb300_nvl72_oci_1_2_16_32hosts_mnnvl_roce8x400g_nccl2.28.7.txt", "check", 0,
     {": 4 runs", "'NCCL All Reduce Scale Performance Multi-node 2 Racks - 32 nodes'): all-reduce "
                  "on 128 ranks; 2 rows; verdict healthy"}},
    {"nccl_allreduce_b200_8gpu_nvlink5_nccl2.27.txt", "check", 0,
     {"all-reduce on 8 ranks", "; 31 rows", "verdict: unknown"}},
    {"nccl_allreduce_gb200_nvl72_1rack_72gpu_mnnvl_nccl2.26_coreweave.txt", "check", 0,
     {"all-reduce on 72 ranks", "NVIDIA Graphics Device",
      "'NVIDIA Graphics Device' is the name the driver gives a board it does not know yet"}},
    {"nccl_allreduce_h100_2node_16gpu_ib400_ring_minctas24_qps2_issue309.txt", "check", 0,
     {"all-reduce on 16 ranks (process-per-gpu launch); 14 rows", "verdict: unknown"}},
    {"nccl_allreduce_h100_2node_16gpu_ndr400_xe9680_nccl2.26_issue309.txt", "check", 0,
     {"all-reduce on 16 ranks (process-per-gpu launch); 32 rows", "verdict: unknown"}},
    {"nccl_allreduce_h100_8gpu_1node_nvls_issue290.txt", "check", 0,
     {"NVIDIA H100 80GB HBM3; 6 rows", "verdict: healthy"}},
    {"nccl_allreduce_h200_gke_a3ultra_2pod_1gpu_1nic_roce400_dranet.txt", "check", 0,
     {"all-reduce on 2 ranks (process-per-gpu launch), NVIDIA H200; 24 rows",
      "predicted for gcp-a3-ultra, 2 nodes x 1 GPUs", "verdict: healthy",
      "judged on gcp-a3-ultra: the GPU also fits hgx-h200, on which this run is below "
      "expectation"}},
    {"nccl_allreduce_l40s_2node_1gpu_socket_openshift_schmaustech.txt", "check", 0,
     {"NVIDIA L40S; 31 rows", "predicted for l40s-4x-pcie-socket, 2 nodes x 1 GPUs",
      "verdict: healthy",
      "judged on l40s-4x-pcie-socket: the GPU also fits l40s-8x-pcie, on which this run is "
      "below expectation"}},
    {"rccl_allreduce_alltoall_mi355x_8gpu_oci_1node_xgmi.txt", "check", 0,
     {": 2 runs", "run 2 (lines 42-75, 'All 2 All'): all-to-all on 8 ranks; 2 rows; verdict healthy"}},
    {"rccl_allreduce_alltoall_mi355x_pollara400_oci_1_2_4nodes_rccl2.26.6.txt", "check", 0,
     {": 6 runs", "run 2 (lines 34-46, 'All 2 All - Single Node'): all-to-all on 8 ranks",
      "run 6 (lines 91-101, 'All 2 All - 4 Nodes'): all-to-all on 32 ranks"}},
    {"nccl_debug_a100_p4d_1node_4gpu_p2p_cumem_nvlink_gnosia93.txt", "diagnose", 0,
     {"4 ranks", "channels: 24 collective, 0 NVLS", "24 trees; isAllDirectP2p 1; hops: 51 via "
                                                    "P2P/CUMEM/read"}},
    {"nccl_debug_gb200_mnnvl_4gpu_aarch64_nvls_error_issue1769.txt", "diagnose", 0,
     {"Multi-node NVLink: 4 GPU lines report the fabric", "clique 0x7ffe",
      "NCCL_NVLS_ENABLE=1"}},
    {"nccl_debug_h800_1node_8gpu_0_nvls_channels_issue892.txt", "diagnose", 0,
     {"channels: 16 collective, 0 NVLS", "16 coll channels but 0 NVLS channels"}},
    {"nccl_debug_l40s_g6e48xl_1node_4gpu_shm_no_p2p_gnosia93.txt", "diagnose", 0,
     {"NCCL 2.27.3+cuda12.9, 4 ranks on 1 node", "P2P unavailable between GPUs of one node: 14 "
                                                 "hops go via SHM/direct/direct"}},
    {"nccl_debug_l40s_g6e8xl_4node_socket_fallback_efa_plugin_failed_gnosia93.txt", "diagnose", 0,
     {"4 ranks on 4 nodes (1 per node)", "network: Socket",
      "NET/Socket in use because the network plugin failed", "Bootstrap took 59.8 s"}},
    {"nccl_debug_mi250x_rccl_2node_8rank_xgmi_trees_issue_rccl1026.txt", "diagnose", 0,
     {"RCCL (version not in the log), 8 ranks", "2 hosts seen", "4 trees", "NCCL_P2P_LEVEL=XGMI"}},
    {"nccl_debug_tuning_algo_proto_table_rtx5090_socket_2rank_nccl2.29.7_ncclebpf.txt", "check", 0,
     {"AllGather 16 B..16 KiB Ring/LL; AllGather 32 KiB PAT/Simple; AllGather 64 KiB..64 MiB "
      "Ring/Simple",
      "AllGather Ring/LL 11.6 us 2.4 GB/s",
      "NCCL's TUNING lines are not set beside collcalc's model"}},
    {"topo_2gpu_desktop_nvlink_bridge_nv2_stas00.txt", "topo", 0,
     {"NVLink island of 2 GPUs (GPU0, GPU1): NV2 between every pair, direct links: 50 GB/s"}},
    {"topo_8gpu_pcie_switch_pairs_pix_phb_sys_issue1439.txt", "topo", 0,
     {"No NVLink at all: P2P over PCIe (4 PIX, 8 PHB, 16 SYS pairs)",
      "TP=2 groups: (GPU0, GPU1), (GPU2, GPU3), (GPU4, GPU5), (GPU6, GPU7)"}},
    {"topo_a100_8gpu_nv12_stas00.txt", "topo", 0,
     {"NV12 between every pair, an NVSwitch fabric: 300 GB/s per direction per GPU"}},
    {"topo_a100_pcie_8gpu_nvlink_bridge_pairs_nv12_issue178.txt", "topo", 0,
     {"NVLink island of 2 GPUs (GPU6, GPU7): NV12 between every pair, direct links"}},
    {"topo_amd_mi308x_8gpu_rocm_smi_showtopo_xgmi_msswift.txt", "topo", 0,
     {"GPU generation cdna3 (64.0 GB/s per xGMI link per direction, PCIe Gen5)",
      "xGMI full mesh of 8 GPUs (GPU0-GPU7)", "NUMA 0: GPU0-GPU3; NUMA 1: GPU4-GPU7"}},
    {"topo_h100_8gpu_6nic_only4_gpus_pix_issue1357.txt", "topo", 0,
     {"Row GPU7 is missing", "GPU1 (SYS NIC0), GPU3 (SYS NIC0), GPU5 (SYS NIC0), GPU7 (SYS NIC0)"}},
    {"topo_h100_8gpu_nv18_stas00.txt", "topo", 0,
     {"NV18 between every pair, an NVSwitch fabric: 450 GB/s per direction per GPU"}},
    {"topo_hgx_h100_8gpu_10nic_issue1264.txt", "topo", 0,
     {"8 GPUs, 10 NICs", "Matrix truncated at row NIC3"}},
    {"topo_l40s_4gpu_pcie_node_aws_g6e12xl_gnosia93.txt", "topo", 0,
     {"every one of the 6 GPU pairs NODE"}},
    {"topo_rtxpro6000_8gpu_asus_esc8000a_pex890xx_pix_node_sys_voipmonitor.txt", "topo", 0,
     {"No NVLink at all: P2P over PCIe (4 PIX, 8 NODE, 16 SYS pairs)",
      "Pairs to avoid: 16 GPU pairs are SYS"}},
};

static void every_validation_file(void **state)
{
    (void)state;
    const char *dir = test_shared_path("validation");
    DIR *listing = opendir(dir);
    assert_non_null(listing);
    size_t files = 0;
    struct dirent *entry;
    while ((entry = readdir(listing)) != NULL) {
        size_t n = strlen(entry->d_name);
        if (n < 5 || strcmp(entry->d_name + n - 4, ".txt") != 0)
            continue;
        files++;
        bool listed = false;
        for (size_t i = 0; i < sizeof VALIDATION / sizeof VALIDATION[0]; i++)
            listed |= strcmp(VALIDATION[i].file, entry->d_name) == 0;
        if (!listed) {
            print_error("validation file %s is not pinned here\n", entry->d_name);
            fail();
        }
    }
    closedir(listing);
    assert_int_equal(files, sizeof VALIDATION / sizeof VALIDATION[0]);
    for (size_t i = 0; i < sizeof VALIDATION / sizeof VALIDATION[0]; i++) {
        const validation_case *c = &VALIDATION[i];
        char line[1024];
        snprintf(line, sizeof line, "collcalc %s %s/%s", c->command, dir, c->file);
        test_cli_run run = test_cli_line(NULL, line);
        if (run.exit_code != c->exit_code) {
            print_error("%s: exit %d, expected %d\n%s%s\n", c->file, run.exit_code, c->exit_code,
                        run.out, run.err);
            fail();
        }
        for (int k = 0; k < 4 && c->expect[k] != NULL; k++) {
            const char *text = c->exit_code == 0 ? run.out : run.err;
            if (strstr(text, c->expect[k]) == NULL) {
                print_error("%s (%s): no '%s' in\n%s\n", c->file, c->command, c->expect[k], text);
                fail();
            }
        }
        test_cli_run_free(&run);
        /* check, the one judgement, reads every file the other two read */
        if (strcmp(c->command, "check") != 0) {
            snprintf(line, sizeof line, "collcalc check %s/%s", dir, c->file);
            run = test_cli_line(NULL, line);
            assert_int_equal(run.exit_code, 0);
            assert_non_null(strstr(run.out, strcmp(c->command, "topo") == 0
                                                ? "topology matrix 1 (line "
                                                : "NCCL_DEBUG lines ("));
            test_cli_run_free(&run);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wrong_results_fail_strict),
        cmocka_unit_test(appended_run_fails_strict),
        cmocka_unit_test(sweep_names_the_slow_pair),
        cmocka_unit_test(unknown_verdict_says_why),
        cmocka_unit_test(graphics_device_says_why),
        cmocka_unit_test(check_renders_matrices_and_logs),
        cmocka_unit_test(tuning_beside_the_model),
        cmocka_unit_test(every_validation_file),
        cmocka_unit_test(topo_gpu_option_and_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
