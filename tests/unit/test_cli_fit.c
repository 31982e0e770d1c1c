/* collcalc fit end to end, in-process (src/cli/cmd_fit.c): the platform
 * file it writes loads with --platforms, and check on the fitted platform
 * does no worse than on the preset. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, chdir */

#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

static void enter_source_dir(void)
{
    const char *dir = getenv("COLLCALC_SOURCE_DIR");
    if (dir != NULL && dir[0] != '\0')
        assert_int_equal(chdir(dir), 0);
}

/* A number from the "query" object of a JSON document. */
static double query_number(const char *json, const char *key)
{
    cJSON *root = cJSON_Parse(json);
    assert_non_null(root);
    const cJSON *query = cJSON_GetObjectItemCaseSensitive(root, "query");
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(query, key);
    assert_true(cJSON_IsNumber(item));
    double value = item->valuedouble;
    cJSON_Delete(root);
    return value;
}

static void fit_file_round_trip(void **state)
{
    (void)state;
    enter_source_dir();
    char path[] = "/tmp/collcalc-test-fit-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char line[512];
    snprintf(line, sizeof line,
             "collcalc fit examples/nccl_allreduce_h100_2node.txt --platform hgx-h100 --nodes 2 "
             "--output %s --format json",
             path);
    test_cli_run run = test_cli_line(NULL, line);
    assert_int_equal(run.exit_code, 0);
    /* The report: each parameter with its bounds, the residuals per run. */
    cJSON *root = cJSON_Parse(run.out);
    assert_non_null(root);
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "parameters");
    assert_int_equal(cJSON_GetArraySize(params), 3);
    const cJSON *bw = cJSON_GetArrayItem(params, 1);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(bw, "parameter")->valuestring,
                        "bw_efficiency");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(bw, "fitted")));
    assert_true(cJSON_GetObjectItemCaseSensitive(bw, "value")->valuedouble == 0.976);
    const cJSON *lat = cJSON_GetArrayItem(params, 0);
    assert_true(cJSON_GetObjectItemCaseSensitive(lat, "value")->valuedouble == 2.2);
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
    assert_int_equal(cJSON_GetArraySize(runs), 1);
    const cJSON *r0 = cJSON_GetArrayItem(runs, 0);
    double before = cJSON_GetObjectItemCaseSensitive(r0, "busbw_error_before")->valuedouble;
    double after = cJSON_GetObjectItemCaseSensitive(r0, "busbw_error_after")->valuedouble;
    assert_true(before > 0.033 && before < 0.035);
    assert_true(after > 0.010 && after < 0.012);
    cJSON_Delete(root);
    assert_non_null(strstr(run.err, "existed and was replaced")); /* mkstemp made it */
    test_cli_run_free(&run);

    /* The file overlays the built-in table. */
    snprintf(line, sizeof line, "collcalc platforms --platforms %s --format csv", path);
    run = test_cli_line(NULL, line);
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "\nhgx-h100-fitted,"));
    test_cli_run_free(&run);

    /* check on the fitted platform: no worse than on the preset. */
    run = test_cli_line(NULL, "collcalc check examples/nccl_allreduce_h100_2node.txt --platform "
                              "hgx-h100 --nodes 2 --format json");
    assert_int_equal(run.exit_code, 0);
    double preset = query_number(run.out, "median_busbw_error");
    test_cli_run_free(&run);
    snprintf(line, sizeof line,
             "collcalc check examples/nccl_allreduce_h100_2node.txt --platforms %s --platform "
             "hgx-h100-fitted --nodes 2 --format json",
             path);
    run = test_cli_line(NULL, line);
    assert_int_equal(run.exit_code, 0);
    double fitted = query_number(run.out, "median_busbw_error");
    assert_true(fitted <= preset + 1e-12);
    test_cli_run_free(&run);
    remove(path);
}

static void fit_refuses_bad_input(void **state)
{
    (void)state;
    enter_source_dir();
    test_cli_run run = test_cli_line(NULL, "collcalc fit examples/topo_pcie_switch_pairs.txt "
                                           "--platform hgx-h100");
    assert_int_equal(run.exit_code, 1);
    assert_string_equal(run.out, "");
    assert_non_null(strstr(run.err, "not nccl-tests output"));
    size_t lines = 0;
    for (const char *c = run.err; *c != '\0'; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 1); /* one line on stderr */
    test_cli_run_free(&run);
    /* Garbage on stdin: one line, exit 1. */
    run = test_cli_line("garbage\n1 2 3\n", "collcalc fit - --platform hgx-h100");
    assert_int_equal(run.exit_code, 1);
    assert_string_equal(run.out, "");
    test_cli_run_free(&run);
    /* A single-node run with only small sizes cannot identify anything. */
    run = test_cli_line("#  size count type redop root time algbw busbw #wrong time algbw busbw "
                        "#wrong\n"
                        "1024 256 float sum -1 20.0 0.05 0.09 0 20.0 0.05 0.09 0\n"
                        "2048 512 float sum -1 20.0 0.10 0.18 0 20.0 0.10 0.18 0\n"
                        "4096 1024 float sum -1 21.0 0.20 0.34 0 21.0 0.20 0.34 0\n",
                        "collcalc fit - --platform hgx-h100 --gpus 8 --op allreduce");
    assert_int_equal(run.exit_code, 1);
    assert_non_null(strstr(run.err, "nothing to fit"));
    test_cli_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fit_file_round_trip),
        cmocka_unit_test(fit_refuses_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
