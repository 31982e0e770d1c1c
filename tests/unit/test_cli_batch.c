/* collcalc batch end to end, in-process: line numbers carried, a bad line
 * reported with its number while the others run, the exit code,
 * --fail-fast, CSV input, comments and blanks, a 1 MB line, NUL bytes,
 * invalid UTF-8, a bad CSV header, and rows identical to the single
 * command's --format csv rows. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include "batch_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static test_cli_run batch(const char *input, const char *options)
{
    char command[256];
    snprintf(command, sizeof command, "collcalc batch - %s", options);
    return test_cli_line(input, command);
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text != '\0'; text++)
        n += *text == '\n';
    return n;
}

static void line_numbers_and_bad_lines(void **unused)
{
    (void)unused;
    test_cli_run run = batch("# header comment\n"
                             "\n"
                             "allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n"
                             "allreduce --size 1MB --gpus 0 --link nvlink5 --algo ring\n"
                             "   \t\n"
                             "allgather --size 1MB --gpus 4 --link nvlink4 --algo ring  # why\n",
                             "--format jsonl");
    assert_int_equal(run.exit_code, 1);
    assert_int_equal(count_lines(run.out), 2);
    assert_true(strncmp(run.out, "{\"line\":3,", 10) == 0);
    assert_non_null(strstr(run.out, "\n{\"line\":6,"));
    assert_int_equal(count_lines(run.err), 1);
    assert_true(strncmp(run.err, "collcalc batch: <stdin>:4: allreduce: --gpus: ", 46) == 0);
    test_cli_run_free(&run);

    run = batch("allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n", "");
    assert_int_equal(run.exit_code, 0);
    assert_string_equal(run.err, "");
    assert_true(strncmp(run.out, "line,size_bytes,op,algorithm,", 29) == 0);
    test_cli_run_free(&run);
}

static void fail_fast_stops(void **unused)
{
    (void)unused;
    const char *input = "allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n"
                        "allreduce --size 1MB --gpus 8 --link nolink --algo ring\n"
                        "allreduce --size 2MB --gpus 8 --link nvlink5 --algo ring\n"
                        "plan --model x\n";
    test_cli_run run = batch(input, "--fail-fast");
    assert_int_equal(run.exit_code, 1);
    assert_int_equal(count_lines(run.out), 2); /* header + line 1 */
    assert_int_equal(count_lines(run.err), 1);
    assert_non_null(strstr(run.err, "<stdin>:2: "));
    test_cli_run_free(&run);
    run = batch(input, "");
    assert_int_equal(run.exit_code, 1);
    assert_int_equal(count_lines(run.out), 3);
    assert_int_equal(count_lines(run.err), 2);
    assert_non_null(strstr(run.err, "<stdin>:4: batch runs collective queries; plan is not one\n"));
    test_cli_run_free(&run);
}

static void csv_input(void **unused)
{
    (void)unused;
    test_cli_run run = batch("# sizes to try\n"
                             "op,size,gpus,link,algo,nvls\n"
                             "allreduce,1MB,8,nvlink5,ring,false\n"
                             "allreduce,\"64MB\",8,nvlink5,ring;tree,no\n"
                             "allreduce,64MB,8,nvlink5\n",
                             "");
    assert_int_equal(run.exit_code, 1);
    assert_int_equal(count_lines(run.out), 4); /* header + 1 + 2 */
    assert_non_null(strstr(run.out, "\n3,1000000,allreduce,ring,"));
    assert_non_null(strstr(run.out, "\n4,64000000,allreduce,ring,"));
    assert_non_null(strstr(run.out, "\n4,64000000,allreduce,tree,"));
    assert_string_equal(run.err, "collcalc batch: <stdin>:5: 4 fields; the header has 6\n");
    test_cli_run_free(&run);

    run = batch("op,size,gpus,link,colour\nallreduce,1MB,8,nvlink5,red\n", "");
    assert_int_equal(run.exit_code, 1);
    assert_string_equal(run.out, "");
    assert_int_equal(count_lines(run.err), 1);
    assert_non_null(strstr(run.err, "<stdin>:1: CSV header: column 'colour' is not an option"));
    test_cli_run_free(&run);
}

/* A 1 MB line, a NUL byte and invalid UTF-8 are errors for their line. */
static void hostile_lines(void **unused)
{
    (void)unused;
    char path[] = "/tmp/collcalc-batch-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *file = fdopen(fd, "wb");
    assert_non_null(file);
    fputs("allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n", file);
    fputs("allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring --alpha ", file);
    for (int i = 0; i < 1 << 20; i++)
        fputc('1', file);
    fputs("\nallreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n", file);
    fwrite("allreduce --size 1MB --gpus 8 --link nv\0link5\n", 1, 46, file);
    fputs("allreduce --size 1MB --gpus 8 --link \xc3\x28 --algo ring\n", file);
    fputs("allreduce --size 1MB --gpus 8 --link \xed\xa0\x80 --algo ring\n", file);
    fputs("allreduce --size 3MB --gpus 8 --link nvlink5 --algo ring", file); /* no newline */
    fclose(file);
    char command[128];
    snprintf(command, sizeof command, "collcalc batch %s --format jsonl", path);
    test_cli_run run = test_cli_line(NULL, command);
    unlink(path);
    assert_int_equal(run.exit_code, 1);
    assert_int_equal(count_lines(run.out), 3);
    assert_true(strncmp(run.out, "{\"line\":1,", 10) == 0);
    assert_non_null(strstr(run.out, "\n{\"line\":3,")); /* after the long line */
    assert_non_null(strstr(run.out, "\n{\"line\":7,\"size_bytes\":3000000,"));
    assert_non_null(strstr(run.err, ":2: longer than 65536 bytes; skipped\n"));
    assert_non_null(strstr(run.err, ":4: a NUL byte at column 40; skipped\n"));
    assert_non_null(strstr(run.err, ":5: not valid UTF-8 at column 38; skipped\n"));
    assert_non_null(strstr(run.err, ":6: not valid UTF-8 at column 38; skipped\n"));
    assert_int_equal(count_lines(run.err), 4);
    test_cli_run_free(&run);
}

/* Each batch row is the single command's --format csv row, line first. */
static void rows_match_the_single_command(void **unused)
{
    (void)unused;
    static const char *const QUERIES[] = {
        "allreduce --size 100MB --gpus 8 --link nvlink5",
        "allreduce --size 1GB --gpus 16 --gpus-per-node 8 --intra nvlink4 --inter ib-ndr",
        "alltoall --size 64MB --gpus 32 --platform hgx-h100 --cost-model alpha-beta",
        "reduce --size 1GB --gpus 6 --link pcie5 --layers 80",
        "broadcast --size 3 --gpus 7 --link pcie5 --bw-basis headline",
        NULL};
    for (int i = 0; QUERIES[i] != NULL; i++) {
        char line[300], command[320];
        snprintf(line, sizeof line, "%s\n", QUERIES[i]);
        snprintf(command, sizeof command, "collcalc %s --format csv", QUERIES[i]);
        test_cli_run single = test_cli_line(NULL, command);
        test_cli_run many = batch(line, "");
        assert_int_equal(single.exit_code, 0);
        assert_int_equal(many.exit_code, 0);
        /* strip "line," from the header and "1," from each row */
        char *expected = single.out, *got = many.out;
        assert_true(strncmp(got, "line,", 5) == 0);
        got += 5;
        for (;;) {
            char *end = strchr(expected, '\n');
            char *got_end = strchr(got, '\n');
            assert_non_null(got_end);
            assert_int_equal(end - expected, got_end - got);
            assert_true(memcmp(expected, got, (size_t)(end - expected)) == 0);
            expected = end + 1;
            got = got_end + 1;
            if (*expected == '\0')
                break;
            assert_true(strncmp(got, "1,", 2) == 0);
            got += 2;
        }
        assert_string_equal(got, "");
        test_cli_run_free(&single);
        test_cli_run_free(&many);
    }
}

static void splitters(void **unused)
{
    (void)unused;
    char text[] = "allreduce  --size '1 MB'\t--link \"a b\"c # note";
    char *words[8];
    const char *error = NULL;
    int n = batch_split_words(text, strlen(text), words, 8, &error);
    assert_int_equal(n, 5);
    assert_string_equal(words[2], "1 MB");
    assert_string_equal(words[4], "a bc");
    char quoted[] = "--size 'oops";
    assert_int_equal(batch_split_words(quoted, strlen(quoted), words, 8, &error), -1);
    char csv[] = " a , \"b,\"\"c\"\" \" ,,d";
    n = batch_split_csv(csv, strlen(csv), words, 8, &error);
    assert_int_equal(n, 4);
    assert_string_equal(words[0], "a");
    assert_string_equal(words[1], "b,\"c\" ");
    assert_string_equal(words[2], "");
    assert_string_equal(words[3], "d");
    assert_true(batch_looks_like_csv("op,size,gpus", 12));
    assert_false(batch_looks_like_csv("allreduce --sizes 1MB,2MB", 25));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_numbers_and_bad_lines), cmocka_unit_test(fail_fast_stops),
        cmocka_unit_test(csv_input),                  cmocka_unit_test(hostile_lines),
        cmocka_unit_test(rows_match_the_single_command), cmocka_unit_test(splitters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
