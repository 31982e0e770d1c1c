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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wrong_results_fail_strict),
        cmocka_unit_test(appended_run_fails_strict),
        cmocka_unit_test(sweep_names_the_slow_pair),
        cmocka_unit_test(topo_gpu_option_and_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
