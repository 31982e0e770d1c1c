/* collcalc batch end to end, in-process: line numbers carried, a bad line
 * reported with its number while the others run, the exit code,
 * --fail-fast, CSV input, comments and blanks, a 1 MB line, NUL bytes,
 * invalid UTF-8, a bad CSV header, and rows identical to the single
 * command's --format csv rows. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include "batch_input.h"
#include "report.h"

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

/* Appends line to the input text at input + *used (kept NUL-terminated). */
static void append_line(char *input, size_t *used, const char *line)
{
    size_t n = strlen(line);
    memcpy(input + *used, line, n + 1);
    *used += n;
}

/* Row line numbers are counted up from the last row's text (rows.c): across
 * 9/10, 99/100 and 999/1000, and after skipped lines (blanks, comments,
 * bad lines, some right before a new digit), in CSV and JSON lines. */
static void line_numbers_count_up(void **unused)
{
    (void)unused;
    enum { LINES = 1200 };
    static char input[LINES * 64];
    static bool answered[LINES + 1];
    size_t used = 0;
    for (int i = 1; i <= LINES; i++) {
        const char *line = "allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n";
        answered[i] = true;
        if (i % 7 == 0 || i == 99 || i == 1000) {
            line = i % 2 == 0 ? "# a comment\n" : "allreduce --size 1MB --gpus 0 --link nvlink5\n";
            answered[i] = false;
        }
        append_line(input, &used, line);
    }
    for (int format = 0; format < 2; format++) {
        test_cli_run run =
            batch(input, format == 0 ? "--columns time_us" : "--columns time_us --format jsonl");
        const char *at = run.out;
        if (format == 0) /* the header */
            at = strchr(at, '\n') + 1;
        for (int i = 1; i <= LINES; i++) {
            if (!answered[i])
                continue;
            char want[32];
            int n = snprintf(want, sizeof want, format == 0 ? "%d," : "{\"line\":%d,", i);
            assert_true(strncmp(at, want, (size_t)n) == 0);
            at = strchr(at, '\n');
            assert_non_null(at);
            at++;
        }
        assert_string_equal(at, "");
        test_cli_run_free(&run);
    }
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

/* Rows answered from kept plans are written a few at a time (batch_rows.h,
 * batch_rows_flush_pending): around lines that take the whole path (new plans, other
 * ops, every-algorithm queries of several rows), bad lines and skipped
 * ones, every row comes out in its line's order, and --fail-fast still
 * writes the rows of the lines before the failing one and none after. */
static void pending_rows_keep_their_order(void **unused)
{
    (void)unused;
    enum { LINES = 200 };
    static char input[LINES * 80];
    static int rows_of[LINES + 1];
    size_t used = 0;
    for (int i = 1; i <= LINES; i++) {
        char line[96];
        rows_of[i] = 1;
        if (i == 150) {
            snprintf(line, sizeof line, "allreduce --size 1MB --gpus 0 --link nvlink5\n");
            rows_of[i] = 0;
        } else if (i % 23 == 0) {
            snprintf(line, sizeof line, "# comment\n");
            rows_of[i] = 0;
        } else if (i % 17 == 0) { /* a new plan each time: the whole path */
            snprintf(line, sizeof line,
                     "allgather --size %dMB --gpus %d --link nvlink4 --algo ring\n", i, 2 + i);
        } else if (i % 5 == 0) { /* every algorithm: several rows a line */
            snprintf(line, sizeof line, "allreduce --size %dkB --gpus 8 --link nvlink5\n", i);
            rows_of[i] = -1;
        } else {
            snprintf(line, sizeof line,
                     "allreduce --size %dkB --gpus 8 --link nvlink5 --algo ring\n", i);
        }
        append_line(input, &used, line);
    }
    for (int fail_fast = 0; fail_fast < 2; fail_fast++) {
        test_cli_run run = batch(input, fail_fast ? "--columns time_us --fail-fast"
                                                  : "--columns time_us");
        assert_int_equal(run.exit_code, 1);
        assert_int_equal(count_lines(run.err), 1);
        assert_non_null(strstr(run.err, "<stdin>:150: allreduce: --gpus: "));
        const char *at = strchr(run.out, '\n') + 1; /* past the header */
        for (int i = 1; i <= LINES && !(fail_fast && i >= 150); i++) {
            char want[32];
            int n = snprintf(want, sizeof want, "%d,", i);
            int rows = 0;
            while (strncmp(at, want, (size_t)n) == 0) {
                at = strchr(at, '\n') + 1;
                rows++;
            }
            if (rows_of[i] >= 0)
                assert_int_equal(rows, rows_of[i]);
            else
                assert_true(rows > 1);
        }
        assert_string_equal(at, "");
        test_cli_run_free(&run);
    }
}

/* More plans than the table keeps (batch_cache.c: 512 sets of 8): kept
 * plans are replaced again and again, and every row is still the one a
 * line never answered from a kept plan gives ("--size=VALUE" always takes
 * the whole path). Two passes over 6,000 GPU counts, the second in
 * another order, so lines meet both kept and replaced plans. */
static void replaced_plans_answer_as_the_whole_path(void **unused)
{
    (void)unused;
    enum { PLANS = 6000, LINES = 2 * PLANS };
    static char kept[LINES * 72], never[LINES * 72];
    size_t kept_used = 0, never_used = 0;
    for (int i = 0; i < LINES; i++) {
        int plan = i < PLANS ? i : (int)(((long)(i - PLANS) * 4099) % PLANS);
        char line[96];
        snprintf(line, sizeof line, "allreduce --size %dkB --gpus %d --link nvlink5 --algo ring\n",
                 1 + i, 2 + plan);
        append_line(kept, &kept_used, line);
        snprintf(line, sizeof line, "allreduce --size=%dkB --gpus %d --link nvlink5 --algo ring\n",
                 1 + i, 2 + plan);
        append_line(never, &never_used, line);
    }
    test_cli_run a = batch(kept, "--columns time_us,gpus");
    test_cli_run b = batch(never, "--columns time_us,gpus");
    assert_int_equal(a.exit_code, 0);
    assert_int_equal(b.exit_code, 0);
    assert_int_equal(count_lines(a.out), LINES + 1);
    assert_string_equal(a.out, b.out);
    assert_non_null(strstr(a.out, "\n12000,"));
    test_cli_run_free(&a);
    test_cli_run_free(&b);
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

/* A UTF-8 byte order mark before the first line (a spreadsheet's CSV
 * export) is not part of the header or the query; elsewhere it is text. */
static void byte_order_mark(void **unused)
{
    (void)unused;
    test_cli_run run = batch("\xEF\xBB\xBFop,size,gpus,link\nallreduce,1MB,8,nvlink5\n", "");
    assert_string_equal(run.err, "");
    assert_int_equal(run.exit_code, 0);
    assert_true(strncmp(run.out, "line,size_bytes,op,", 19) == 0);
    assert_non_null(strstr(run.out, "\n2,1000000,allreduce,"));
    test_cli_run_free(&run);

    run = batch("\xEF\xBB\xBF" "allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n",
                "--format jsonl");
    assert_string_equal(run.err, "");
    assert_int_equal(run.exit_code, 0);
    assert_true(strncmp(run.out, "{\"line\":1,\"size_bytes\":1000000,", 31) == 0);
    test_cli_run_free(&run);

    run = batch("allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n"
                "\xEF\xBB\xBF" "allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n",
                "--format jsonl");
    assert_int_equal(run.exit_code, 1);
    assert_int_equal(count_lines(run.out), 1);
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

static void expect_single(const char *const *queries, char *rows, size_t rows_size, char *errors,
                          size_t errors_size);

/* Each batch row is the single command's --format csv row, line first; the
 * header is the single command's after "line". */
static void rows_match_the_single_command(void **unused)
{
    (void)unused;
    static const char *const QUERIES[] = {
        "allreduce --size 100MB --gpus 8 --link nvlink5",
        "allreduce --size 1GB --gpus 16 --gpus-per-node 8 --intra nvlink4 --inter ib-ndr",
        "alltoall --size 64MB --gpus 32 --platform hgx-h100 --cost-model alpha-beta",
        "reduce --size 1GB --gpus 6 --link pcie5 --layers 80",
        "broadcast --size 3 --gpus 7 --link pcie5 --bw-basis headline",
        /* one GPU: no phases, "[]" unquoted as the CSV renderer writes it;
         * the second line is answered from the first one's plan */
        "reducescatter --size 3 --gpus 1 --link nvlink5",
        "reducescatter --size 4 --gpus 1 --link nvlink5",
        NULL};
    static char input[2048], rows[65536], errors[4096];
    input[0] = '\0';
    for (int i = 0; QUERIES[i] != NULL; i++)
        snprintf(input + strlen(input), sizeof input - strlen(input), "%s\n", QUERIES[i]);
    expect_single(QUERIES, rows, sizeof rows, errors, sizeof errors);
    assert_string_equal(errors, "");
    test_cli_run many = batch(input, "");
    assert_int_equal(many.exit_code, 0);
    char command[320];
    snprintf(command, sizeof command, "collcalc %s --format csv", QUERIES[0]);
    test_cli_run single = test_cli_line(NULL, command);
    size_t header = strcspn(single.out, "\n") + 1;
    assert_true(strncmp(many.out, "line,", 5) == 0);
    assert_true(strncmp(many.out + 5, single.out, header) == 0);
    assert_string_equal(many.out + 5 + header, rows);
    test_cli_run_free(&single);
    test_cli_run_free(&many);
}

/* The rows (without header) and the messages the single commands give for
 * each query line, numbered as batch numbers them. */
static void expect_single(const char *const *queries, char *rows, size_t rows_size, char *errors,
                          size_t errors_size)
{
    rows[0] = errors[0] = '\0';
    for (int i = 0; queries[i] != NULL; i++) {
        char command[320];
        snprintf(command, sizeof command, "collcalc %s --format csv", queries[i]);
        test_cli_run single = test_cli_line(NULL, command);
        const char *row = strchr(single.out, '\n'); /* after the header */
        for (row = row != NULL ? row + 1 : ""; *row != '\0';) {
            const char *end = strchr(row, '\n');
            snprintf(rows + strlen(rows), rows_size - strlen(rows), "%d,%.*s\n", i + 1,
                     (int)(end - row), row);
            row = end + 1;
        }
        /* "collcalc allreduce: message" -> "collcalc batch: <stdin>:N: allreduce: message" */
        for (const char *line = single.err; *line != '\0';) {
            const char *end = strchr(line, '\n');
            const char *text = strncmp(line, "collcalc ", 9) == 0 ? line + 9 : line;
            snprintf(errors + strlen(errors), errors_size - strlen(errors),
                     "collcalc batch: <stdin>:%d: %.*s\n", i + 1, (int)(end - text), text);
            line = end + 1;
        }
        test_cli_run_free(&single);
    }
}

/* Lines that differ only in --size are answered from the first one's plan:
 * every row and message must be what the whole path gives, including bad
 * sizes on a kept line, other spellings of --size, and lines whose plan
 * warned (never kept). */
static void kept_plans_answer_as_the_whole_path(void **unused)
{
    (void)unused;
    static const char *const QUERIES[] = {
        "allreduce --size 1MB --gpus 8 --link nvlink5",
        "allreduce --size 2GiB --gpus 8 --link nvlink5",
        "allreduce --size 1XB --gpus 8 --link nvlink5",
        "allreduce --size 3 --gpus 8 --link nvlink5",
        "allreduce -s 4MB --gpus 8 --link nvlink5",
        "allreduce --gpus 8 --size 5MB --link nvlink5",
        "allreduce --size 1MB --gpus 16 --gpus-per-node 8 --intra pcie3 --inter ib-xdr",
        "allreduce --size 7MB --gpus 16 --gpus-per-node 8 --intra pcie3 --inter ib-xdr",
        "allreduce --size 1MB --size 2MB --gpus 8 --link nvlink5",
        "allgather --size 9MB --gpus 8 --link nvlink5 --algo ring",
        "allgather --size 1.5GB --gpus 8 --link nvlink5 --algo ring",
        "allreduce --size 6MB --gpus 8 --link nvlink5",
        NULL};
    static char input[2048], rows[65536], errors[4096];
    input[0] = '\0';
    for (int i = 0; QUERIES[i] != NULL; i++)
        snprintf(input + strlen(input), sizeof input - strlen(input), "%s\n", QUERIES[i]);
    expect_single(QUERIES, rows, sizeof rows, errors, sizeof errors);
    test_cli_run run = batch(input, "");
    assert_int_equal(run.exit_code, 1);
    const char *body = strchr(run.out, '\n');
    assert_non_null(body);
    assert_string_equal(body + 1, rows);
    assert_string_equal(run.err, errors);
    assert_non_null(strstr(run.err, ":3: allreduce: --size: invalid size '1XB'"));
    assert_non_null(strstr(run.err, ":7: allreduce: warning: --intra: the intra-node link pcie3"));
    assert_non_null(strstr(run.err, ":8: allreduce: warning: --intra: ")); /* again */
    test_cli_run_free(&run);
}

/* Lines keyed as read (blanks kept, the size value cut out) and lines keyed
 * by their words (quotes, comments, other spellings) answer as the single
 * command does; each pair is a batch line and the command it means. */
static void line_keys_answer_as_the_words(void **unused)
{
    (void)unused;
    static const char *const PAIRS[][2] = {
        {"allreduce --size 1MB --gpus 8 --link nvlink5", NULL},
        {"allreduce  --size 2MB --gpus 8 --link nvlink5",
         "allreduce --size 2MB --gpus 8 --link nvlink5"},
        {"allreduce --size\t4MB --gpus 8 --link nvlink5",
         "allreduce --size 4MB --gpus 8 --link nvlink5"},
        {"allreduce --size 8MB --gpus 8 --link nvlink5 # eight",
         "allreduce --size 8MB --gpus 8 --link nvlink5"},
        {"allreduce --size 16MB --gpus 8 --link 'nvlink5'", NULL},
        {"allreduce --size 3MB --gpus 8 --link nvlink5", NULL},
        {"allreduce --size 5MB --gpus 8 --link 'nvlink5'", NULL},
        {"allreduce --size=7MB --gpus 8 --link nvlink5", NULL},
        {"allreduce --size 7MB --gpus 8 --link nvlink5 --no-nvls", NULL},
        {"allreduce --size 1MB --gpus 8 --link nvlink4 --algo tree", NULL},
        {"allreduce --size 9MB --gpus 8 --link nvlink4 --algo tree", NULL},
        {"allreduce --size -9MB --gpus 8 --link nvlink4 --algo tree", NULL},
        {"allreduce --size 9ZB --gpus 8 --link nvlink4 --algo tree", NULL},
        {"allreduce --size 9MB --gpus 8 --link nvlink4 --algo tree --sizes 2", NULL},
        {"allreduce --size 9MB --gpus 8 --link nvlink4 --algo tree -s 2MB", NULL},
        {"allreduce --size 2MB --gpus 8 --link 'nvlink5' --link nvlink4", NULL},
        {"allreduce --size 3MB --gpus 8 --link nvlink5", NULL},
        /* A quote right after the value, a value that starts a comment,
         * "--size" inside a quoted word: never answered from a kept plan. */
        {"allreduce --size 3MB'' --gpus 8 --link nvlink5", NULL},
        {"allreduce --size 3MB'x' --gpus 8 --link nvlink5", NULL},
        {"allreduce --link 'nvlink5 --size 3MB x' --size 3MB --gpus 8", NULL},
        {"allreduce --link nvlink5 --size 5MB' --gpus 8'", NULL},
        {"allreduce --size 6MB --gpus 8 --link 'nvlink5'", NULL},
        {"allreduce --gpus 8 --sizes 2 --size 6MB --link nvlink5", NULL},
    };
    enum { COUNT = sizeof PAIRS / sizeof PAIRS[0] };
    const char *singles[COUNT + 1];
    static char input[4096], rows[131072], errors[16384];
    input[0] = '\0';
    for (int i = 0; i < COUNT; i++) {
        snprintf(input + strlen(input), sizeof input - strlen(input), "%s\n", PAIRS[i][0]);
        singles[i] = PAIRS[i][1] != NULL ? PAIRS[i][1] : PAIRS[i][0];
    }
    singles[COUNT] = NULL;
    expect_single(singles, rows, sizeof rows, errors, sizeof errors);
    test_cli_run run = batch(input, "--columns time_us,busbw_GBps");
    test_cli_run full = batch(input, "");
    assert_int_equal(run.exit_code, 1);
    assert_string_equal(full.err, errors);
    assert_string_equal(run.err, errors);
    const char *body = strchr(full.out, '\n');
    assert_non_null(body);
    assert_string_equal(body + 1, rows);
    assert_int_equal(count_lines(run.out), count_lines(full.out));
    assert_non_null(strstr(run.err, ":13: allreduce: --size: invalid size '9ZB'"));
    assert_non_null(strstr(run.err, ":14: allreduce: unknown option '--sizes'"));
    test_cli_run_free(&run);
    test_cli_run_free(&full);
    /* A value that starts a comment: the option has none. */
    run = batch("allreduce --size 3MB --gpus 8 --link nvlink5 --algo ring\n"
                "allreduce --size #3MB --gpus 8 --link nvlink5 --algo ring\n", "--columns time_us");
    assert_int_equal(run.exit_code, 1);
    assert_string_equal(run.out, "line,time_us\n1,33.833333333333336\n");
    assert_string_equal(run.err, "collcalc batch: <stdin>:2: allreduce: --size: needs a value "
                                 "(SIZE) (see 'collcalc allreduce --help')\n");
    test_cli_run_free(&run);
}

/* --columns: exactly the named columns of the full rows, in the order
 * given; names checked before any line runs. */
static void columns_select(void **unused)
{
    (void)unused;
    /* Lines 2, 4 and 5 differ from an earlier one only in --size: they are
     * answered from its plan, straight into rows. */
    const char *input = "allreduce --size 1MB --gpus 8 --link nvlink5\n"
                        "allreduce --size 3GB --gpus 8 --link nvlink5\n"
                        "allreduce --size 64MB --gpus 16 --gpus-per-node 8 --intra nvlink4 "
                        "--inter ib-ndr\n"
                        "allreduce --size 5 --gpus 16 --gpus-per-node 8 --intra nvlink4 "
                        "--inter ib-ndr\n"
                        "allreduce --size 7KiB --gpus 8 --link nvlink5\n";
    test_cli_run full = batch(input, "");
    test_cli_run some = batch(input, "--columns busbw_GBps,algorithm,time_us,fastest");
    assert_int_equal(full.exit_code, 0);
    assert_int_equal(some.exit_code, 0);
    assert_int_equal(count_lines(some.out), count_lines(full.out));
    /* Pick the columns out of the full CSV (no field of these has a comma
     * or quote before the phases column). */
    const char *header = "line,busbw_GBps,algorithm,time_us,fastest\n";
    assert_true(strncmp(some.out, header, strlen(header)) == 0);
    int want[4] = {-1, -1, -1, -1};
    {
        const char *names[4] = {"busbw_GBps", "algorithm", "time_us", "fastest"};
        int column = 0;
        for (const char *at = full.out; *at != '\n'; column++) {
            size_t n = strcspn(at, ",\n");
            for (int k = 0; k < 4; k++)
                if (strlen(names[k]) == n && strncmp(at, names[k], n) == 0)
                    want[k] = column;
            at += n + (at[n] == ',');
        }
    }
    for (int k = 0; k < 4; k++)
        assert_true(want[k] > 0);
    int last = want[0];
    for (int k = 1; k < 4; k++)
        last = want[k] > last ? want[k] : last;
    const char *row = strchr(full.out, '\n') + 1, *got = strchr(some.out, '\n') + 1;
    while (*row != '\0') {
        char fields[32][64], expected[5 * 64 + 8];
        int column = 0;
        const char *at = row;
        while (column < 32 && *at != '\n') {
            size_t n = strcspn(at, ",\n");
            snprintf(fields[column++], sizeof fields[0], "%.*s", (int)(n < 63 ? n : 63), at);
            if (at[n] != ',' || column > last)
                break;
            at += n + 1;
        }
        snprintf(expected, sizeof expected, "%s,%s,%s,%s,%s\n", fields[0], fields[want[0]],
                 fields[want[1]], fields[want[2]], fields[want[3]]);
        assert_true(strncmp(got, expected, strlen(expected)) == 0);
        got += strlen(expected);
        row = strchr(row, '\n') + 1;
    }
    assert_string_equal(got, "");
    assert_true(count_lines(some.out) > 6); /* every algorithm: several rows per line */
    test_cli_run_free(&full);
    test_cli_run_free(&some);

    test_cli_run jsonl = batch("allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n",
                               "--format jsonl --columns time_us,phases");
    assert_int_equal(jsonl.exit_code, 0);
    assert_true(strncmp(jsonl.out, "{\"line\":1,\"time_us\":", 20) == 0);
    assert_non_null(strstr(jsonl.out, ",\"phases\":[{\"label\":\"reduce-scatter\""));
    assert_null(strstr(jsonl.out, "busbw"));
    test_cli_run_free(&jsonl);

    static const struct {
        const char *columns, *message;
    } BAD[] = {
        {"tim_us", "collcalc batch: --columns: no column 'tim_us' in results (did you mean "
                   "time_us?)"},
        {"bogus", "collcalc batch: --columns: no column 'bogus' in results; the columns: "
                  "size_bytes, op, algorithm,"},
        {"time_us,time_us", "collcalc batch: --columns: column 'time_us' named twice"},
        {"time_us,,steps", "collcalc batch: --columns: an empty column name"},
        {"line,time_us", "collcalc batch: --columns: 'line' is always the first column"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char options[80];
        snprintf(options, sizeof options, "--columns %s", BAD[i].columns);
        test_cli_run bad = batch("allreduce --size 1MB --gpus 8 --link nvlink5\n", options);
        assert_int_equal(bad.exit_code, 2);
        assert_string_equal(bad.out, "");
        assert_true(strncmp(bad.err, BAD[i].message, strlen(BAD[i].message)) == 0);
        assert_int_equal(count_lines(bad.err), 1);
        test_cli_run_free(&bad);
    }
    /* A column only NCCL's results have: an alpha-beta line says so. */
    test_cli_run nccl = batch("allreduce --size 1MB --gpus 8 --link nvlink5\n",
                              "--columns nccl_time_us");
    assert_int_equal(nccl.exit_code, 1);
    assert_non_null(strstr(nccl.err, "<stdin>:1: allreduce: --columns: no column "
                                     "'nccl_time_us' in results"));
    assert_non_null(strstr(nccl.err, "(the alpha-beta model answered this line)"));
    test_cli_run_free(&nccl);
}

/* The field enum the direct row path indexes by is RESULT_SCHEMA's order. */
static void result_fields_are_the_schema(void **unused)
{
    (void)unused;
    static const struct {
        result_field field;
        const char *name;
    } FIELDS[] = {
        {RESULT_SIZE_BYTES, "size_bytes"}, {RESULT_OP, "op"}, {RESULT_ALGORITHM, "algorithm"},
        {RESULT_FASTEST, "fastest"}, {RESULT_IN_NCCL, "in_nccl"}, {RESULT_GPUS, "gpus"},
        {RESULT_NODES, "nodes"}, {RESULT_BW_BASIS, "bw_basis"}, {RESULT_STEPS, "steps"},
        {RESULT_BYTES_SENT_PER_GPU, "bytes_sent_per_gpu"},
        {RESULT_BYTES_RECEIVED_PER_GPU, "bytes_received_per_gpu"},
        {RESULT_OTHERS_DIFFER, "others_differ"},
        {RESULT_BYTES_SENT_OTHER_GPU, "bytes_sent_other_gpu"},
        {RESULT_BYTES_RECEIVED_OTHER_GPU, "bytes_received_other_gpu"},
        {RESULT_LATENCY_US, "latency_us"}, {RESULT_BANDWIDTH_US, "bandwidth_us"},
        {RESULT_TIME_US, "time_us"}, {RESULT_ALGBW_GBPS, "algbw_GBps"},
        {RESULT_BUSBW_FACTOR, "busbw_factor"}, {RESULT_BUSBW_GBPS, "busbw_GBps"},
        {RESULT_DOMINANT, "dominant"}, {RESULT_LAYERS, "layers"},
        {RESULT_PER_LAYER, "per_layer"}, {RESULT_TOTAL_LATENCY_US, "total_latency_us"},
        {RESULT_TOTAL_BANDWIDTH_US, "total_bandwidth_us"},
        {RESULT_TOTAL_TIME_US, "total_time_us"}, {RESULT_NOTE, "note"},
        {RESULT_PHASES, "phases"}};
    assert_int_equal(RESULT_SCHEMA.column_count, RESULT_FIELD_COUNT);
    assert_int_equal(sizeof FIELDS / sizeof FIELDS[0], RESULT_FIELD_COUNT);
    for (size_t i = 0; i < sizeof FIELDS / sizeof FIELDS[0]; i++)
        assert_string_equal(RESULT_SCHEMA.columns[FIELDS[i].field].name, FIELDS[i].name);
}

static void splitters(void **unused)
{
    (void)unused;
    char text[] = "allreduce  --size '1 MB'\t--link \"a b\"c # note";
    char *words[8];
    const char *error = NULL;
    size_t lengths[8];
    int n = batch_split_words(text, strlen(text), words, lengths, 8, &error);
    assert_int_equal(n, 5);
    assert_string_equal(words[0], "allreduce");
    assert_string_equal(words[2], "1 MB");
    assert_string_equal(words[4], "a bc");
    for (int i = 0; i < n; i++)
        assert_int_equal(lengths[i], strlen(words[i]));
    char plain[] = "allreduce --size 1MB\t --gpus 8";
    n = batch_split_words(plain, strlen(plain), words, lengths, 8, &error);
    assert_int_equal(n, 5);
    assert_true(words[3] == plain + 22 && lengths[3] == 6); /* in place */
    /* The first "--size" that is a word after the first, followed by a
     * blank; none: the length. */
    static const struct {
        const char *line;
        size_t at;
    } SIZES[] = {
        {"allreduce --size 1MB", 10},
        {"allreduce --gpus 8 --sizes 2 --size\t1MB", 29},
        {"allreduce x--size 1MB --size 2", 22},
        {"allreduce --size", 16},
        {"allreduce --size=1MB", 20},
        {"--size 1MB", 10},
        {"allreduce -s 1MB", 16},
        {"allreduce\t--size 1MB", 10},
    };
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++)
        assert_int_equal(batch_size_option(SIZES[i].line, strlen(SIZES[i].line)), SIZES[i].at);
    /* Every length and place around the sixteen-byte pieces: found once,
     * where it is, and never read past the line. */
    for (size_t length = 1; length <= 48; length++) {
        char line[56];
        for (size_t at = 1; at + 7 <= length; at++) {
            memset(line, 'a', sizeof line);
            line[at - 1] = ' ';
            memcpy(line + at, "--size ", 7);
            assert_int_equal(batch_size_option(line, length), at);
            line[at + 6] = 'x'; /* "--sizex": not the option */
            assert_int_equal(batch_size_option(line, length), length);
        }
        memset(line, 'a', sizeof line);
        /* The plain part of a word ends at the first blank or quote. */
        if (length >= 2)
            line[length - 2] = ' ';
        assert_int_equal(batch_plain_end(line, 0, length), length >= 2 ? length - 2 : length);
        assert_int_equal(batch_plain_end(line, length - 1, length), length);
    }
    /* The reader marks a line plain (no NUL, no byte >= 0x80) as it finds
     * its end, at every length around the sixteen-byte pieces; a bad byte
     * anywhere before the newline unmarks it, one after it does not. */
    for (size_t length = 0; length <= 40; length++) {
        for (int bad = -1; bad < (int)length + 2; bad++) {
            char input[64];
            memset(input, 'a', sizeof input);
            input[length] = '\n';
            memcpy(input + length + 1, "b\n", 2);
            if (bad >= 0 && bad != (int)length)
                input[bad] = bad % 2 == 0 ? '\0' : (char)0xC3;
            FILE *in = fmemopen(input, length + 3, "rb");
            assert_non_null(in);
            batch_reader reader;
            assert_true(batch_reader_init(&reader, batch_file_read, &(batch_file){in, false}));
            char *line;
            size_t got;
            assert_int_equal(batch_read_line(&reader, &line, &got), BATCH_LINE_OK);
            assert_int_equal(got, length);
            assert_int_equal(reader.plain, bad < 0 || bad >= (int)length);
            assert_int_equal(batch_read_line(&reader, &line, &got), BATCH_LINE_OK);
            assert_int_equal(reader.plain, bad != (int)length + 1);
            assert_int_equal(batch_read_line(&reader, &line, &got), BATCH_LINE_END);
            batch_reader_free(&reader);
            fclose(in);
        }
    }
    /* A NUL or a byte >= 0x80 in the last piece of a line is found. */
    char reason[96];
    char tail[] = "allreduce --size 1MB --gpus 8";
    size_t tail_length = strlen(tail);
    assert_null(batch_check_text(tail, tail_length, reason, sizeof reason));
    tail[tail_length - 2] = '\0';
    assert_string_equal(batch_check_text(tail, tail_length, reason, sizeof reason),
                        "a NUL byte at column 28");
    tail[tail_length - 2] = (char)0xFF;
    assert_string_equal(batch_check_text(tail, tail_length, reason, sizeof reason),
                        "not valid UTF-8 at column 28");
    char quoted_text[] = "--size 'oops";
    assert_int_equal(
        batch_split_words(quoted_text, strlen(quoted_text), words, NULL, 8, &error), -1);
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

/* batch_read_buffered_line takes the lines the buffer holds whole and
 * moves nothing: lines taken before stay readable; a last line without
 * '\n' and a line longer than BATCH_LINE_MAX are left to batch_read_line
 * (read_lines keys a few lines ahead this way, cmd_batch.c). */
static void buffered_lines_stay_put(void **unused)
{
    (void)unused;
    static char input[BATCH_LINE_MAX + 64];
    size_t used = 0;
    append_line(input, &used, "a\r\nbb\n");
    memset(input + used, 'y', BATCH_LINE_MAX + 1);
    used += BATCH_LINE_MAX + 1;
    append_line(input, &used, "\nz\nccc");
    FILE *in = fmemopen(input, used, "rb");
    assert_non_null(in);
    batch_reader reader;
    assert_true(batch_reader_init(&reader, batch_file_read, &(batch_file){in, false}));
    char *first, *second, *line;
    size_t got;
    assert_int_equal(batch_read_line(&reader, &first, &got), BATCH_LINE_OK);
    assert_string_equal(first, "a");
    assert_true(batch_read_buffered_line(&reader, &second, &got));
    assert_int_equal(got, 2);
    assert_string_equal(second, "bb");
    assert_int_equal(reader.line, 2);
    assert_true(reader.plain);
    assert_string_equal(first, "a"); /* still where it was */
    assert_false(batch_read_buffered_line(&reader, &line, &got)); /* too long */
    assert_int_equal(reader.line, 2);
    assert_int_equal(batch_read_line(&reader, &line, &got), BATCH_LINE_TOO_LONG);
    assert_int_equal(reader.line, 3);
    assert_true(batch_read_buffered_line(&reader, &line, &got));
    assert_string_equal(line, "z");
    assert_false(batch_read_buffered_line(&reader, &line, &got)); /* no '\n' after it */
    assert_int_equal(reader.line, 4);
    assert_int_equal(batch_read_line(&reader, &line, &got), BATCH_LINE_OK);
    assert_string_equal(line, "ccc");
    assert_int_equal(reader.line, 5);
    assert_int_equal(batch_read_line(&reader, &line, &got), BATCH_LINE_END);
    batch_reader_free(&reader);
    fclose(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_numbers_and_bad_lines), cmocka_unit_test(fail_fast_stops),
        cmocka_unit_test(line_numbers_count_up), cmocka_unit_test(pending_rows_keep_their_order),
        cmocka_unit_test(replaced_plans_answer_as_the_whole_path),
        cmocka_unit_test(csv_input), cmocka_unit_test(byte_order_mark),                  cmocka_unit_test(hostile_lines),
        cmocka_unit_test(rows_match_the_single_command), cmocka_unit_test(splitters),
        cmocka_unit_test(kept_plans_answer_as_the_whole_path), cmocka_unit_test(columns_select),
        cmocka_unit_test(result_fields_are_the_schema),
        cmocka_unit_test(line_keys_answer_as_the_words),
        cmocka_unit_test(buffered_lines_stay_put),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
