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
    assert_null(strstr(run.out, "verdict unknown on"));
    assert_non_null(strstr(run.out, "run 13 (lines 369-396, 'single-node"));
    assert_non_null(strstr(run.out, "all-reduce on 8 ranks; 10 rows; verdict healthy"));
    test_cli_run_free(&run);
    run = check(file, "--format json");
    assert_non_null(strstr(run.out, "\"code\":\"ranks-from-previous-run\""));
    assert_non_null(strstr(run.out, "\"code\":\"verdict-unknown\""));
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wrong_results_fail_strict),
        cmocka_unit_test(appended_run_fails_strict),
        cmocka_unit_test(sweep_names_the_slow_pair),
        cmocka_unit_test(unknown_verdict_says_why),
        cmocka_unit_test(check_renders_matrices_and_logs),
        cmocka_unit_test(tuning_beside_the_model),
        cmocka_unit_test(topo_gpu_option_and_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
