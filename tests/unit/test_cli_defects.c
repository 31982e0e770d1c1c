/* Regression tests of issue 23 (defects an adversarial review found), run
 * in-process: each failed on the code before its fix. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text != '\0'; text++)
        n += *text == '\n';
    return n;
}

/* Files are named relative to the source tree (examples/...). */
static int enter_source_dir(void **unused)
{
    (void)unused;
    const char *dir = getenv("COLLCALC_SOURCE_DIR");
    if (dir != NULL && dir[0] != '\0' && chdir(dir) != 0)
        return -1;
    return 0;
}

/* Item 8: a --strict failure (exit 3) says why on stderr, in one line. */
static void strict_failures_say_why(void **unused)
{
    (void)unused;
    static const struct {
        const char *command, *stderr_start;
    } CASES[] = {
        {"collcalc kv --model llama-3-70b --tokens 8192 --tp 8 --platform hgx-h100 --backend "
         "mooncake --budget 1ms --strict",
         "collcalc kv: --strict: the transfer takes 14.0 ms, over --budget 1.00 ms\n"},
        {"collcalc plan --model llama-3-70b --phase decode --tokens 64 --tp 16 --platform "
         "hgx-h100 --strict",
         "collcalc plan: --strict: 1 error finding (tp-crosses-node)\n"},
        {"collcalc check examples/nccl_allreduce_h100_2node.txt --platform hgx-a100 --nodes 2 "
         "--strict",
         "collcalc check: --strict: examples/nccl_allreduce_h100_2node.txt: the verdict is "
         "above-line-rate, not healthy\n"},
        {"collcalc diagnose examples/nccl_debug_socket_fallback.log --strict",
         "collcalc diagnose: --strict: 1 error finding (net-socket-fallback)\n"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        test_cli_run run = test_cli_line(NULL, CASES[i].command);
        assert_int_equal(run.exit_code, 3);
        assert_string_equal(run.err, CASES[i].stderr_start);
        assert_true(run.out[0] != '\0'); /* the report itself is still printed */
        test_cli_run_free(&run);
    }
}

/* Item 12: fit takes as many files as the fit does (not 8: the 9th was
 * "unexpected argument"); past that, a clear usage error. */
static void fit_takes_many_files(void **unused)
{
    (void)unused;
    char command[4096];
    int used = snprintf(command, sizeof command,
                        "collcalc fit --platform hgx-h100 --nodes 2 --output /dev/null");
    for (int i = 0; i < 16; i++)
        used += snprintf(command + used, sizeof command - (size_t)used,
                         " examples/nccl_allreduce_h100_2node.txt");
    test_cli_run run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 0);
    assert_contains(run.out, "fit of hgx-h100's NCCL model to 16 runs");
    test_cli_run_free(&run);

    snprintf(command + used, sizeof command - (size_t)used, " examples/nccl_allreduce_h100_2node.txt");
    run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 2);
    assert_string_equal(run.err, "collcalc fit: 17 runs: fit takes at most 16 at once (see "
                                 "'collcalc fit --help')\n");
    test_cli_run_free(&run);
}

/* Item 12: query.size_bytes is the integer given, not a double's rounding
 * (2^53 + 1 printed as ...992). */
static void query_size_is_exact(void **unused)
{
    (void)unused;
    test_cli_run run = test_cli_line(NULL, "collcalc allreduce --size 9007199254740993 --gpus 8 "
                                           "--link nvlink5 --algo ring --format json");
    assert_int_equal(run.exit_code, 0);
    assert_contains(run.out, "\"query\":{\"op\":\"allreduce\",\"size_bytes\":9007199254740993,");
    test_cli_run_free(&run);

    run = test_cli_line(NULL, "collcalc allreduce --size 9223372036854775807 --gpus 8 --link nvlink5 --algo ring "
                              "--format json");
    assert_int_equal(run.exit_code, 0);
    assert_contains(run.out, "\"size_bytes\":9223372036854775807,");
    assert_int_equal(count_lines(run.err), 0);
    test_cli_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strict_failures_say_why),
        cmocka_unit_test(fit_takes_many_files),
        cmocka_unit_test(query_size_is_exact),
    };
    return cmocka_run_group_tests(tests, enter_source_dir, NULL);
}
