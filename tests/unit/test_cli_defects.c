/* Regression tests of issue 23 (defects an adversarial review found), run
 * in-process: each failed on the code before its fix. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

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
         "collcalc kv: --strict: the transfer takes 9.56 ms, over --budget 1.00 ms\n"},
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

/* Item 12: fit takes any number of files (not 8: the 9th was
 * "unexpected argument"). */
static void fit_takes_many_files(void **unused)
{
    (void)unused;
    char command[8192];
    int used = snprintf(command, sizeof command,
                        "collcalc fit --platform hgx-h100 --nodes 2 --output /dev/null");
    for (int i = 0; i < 40; i++)
        used += snprintf(command + used, sizeof command - (size_t)used,
                         " examples/nccl_allreduce_h100_2node.txt");
    test_cli_run run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 0);
    assert_contains(run.out, "fit of hgx-h100's NCCL model to 40 runs");
    assert_contains(run.out, "all runs");
    test_cli_run_free(&run);

    /* Past eight operands a command that takes one names the last (read
     * beyond the inline operands before: found by fuzz_cli). */
    run = test_cli_line(NULL, "collcalc compare allreduce a b c d e f g h i j --gpus 8");
    assert_int_equal(run.exit_code, 2);
    assert_string_equal(run.err, "collcalc compare: unexpected argument 'j' (see 'collcalc compare "
                                 "--help')\n");
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


/* A scratch directory for output files, removed with what is in it. */
static void scratch_dir(char *path, size_t size)
{
    snprintf(path, size, "/tmp/collcalc-defects-XXXXXX");
    assert_non_null(mkdtemp(path));
}

static int entries_in(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static void write_text(const char *path, const char *text)
{
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fputs(text, file);
    assert_int_equal(fclose(file), 0);
}

/* Runs the CLI in a child whose files may not grow past limit bytes (as
 * `ulimit -f` sets it; SIGXFSZ ignored, so a write fails with EFBIG), stdout
 * to /dev/null; returns the exit code, stderr into err. */
static int run_with_file_limit(const char *const *argv, long limit, char *err, size_t size)
{
    int pipe_fds[2];
    assert_int_equal(pipe(pipe_fds), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(pipe_fds[0]);
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {(rlim_t)limit, (rlim_t)limit};
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
            _exit(99);
        FILE *out = fopen("/dev/null", "w"), *errors = fdopen(pipe_fds[1], "w");
        if (out == NULL || errors == NULL)
            _exit(98);
        int argc = 0;
        char *copy[64];
        while (argv[argc] != NULL && argc < 63) {
            copy[argc] = (char *)(uintptr_t)argv[argc];
            argc++;
        }
        copy[argc] = NULL;
        int code = collcalc_cli_main(argc, copy, stdin, out, errors);
        fflush(errors);
        _exit(code);
    }
    close(pipe_fds[1]);
    size_t used = 0;
    ssize_t got;
    while (used + 1 < size && (got = read(pipe_fds[0], err + used, size - 1 - used)) > 0)
        used += (size_t)got;
    err[used] = '\0';
    close(pipe_fds[0]);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* Item 2: a write that fails half-way (here a file-size limit) leaves the
 * file that was there as it was, and no temporary file behind; the reason
 * is named (item 12: "cannot write the platform file" said no more). */
static void failed_writes_keep_the_old_file(void **unused)
{
    (void)unused;
    char dir[64], target[128], err[1024];
    scratch_dir(dir, sizeof dir);
    snprintf(target, sizeof target, "%s/plat.json", dir);
    static const char OLD[] = "{\"schema_version\": 1, \"platforms\": []}\n";
    write_text(target, OLD);
    const char *fit[] = {"collcalc", "fit", "examples/nccl_allreduce_h100_2node.txt",
                         "--platform", "hgx-h100", "--nodes", "2", "--output", target, NULL};
    assert_int_equal(run_with_file_limit(fit, 512, err, sizeof err), 1);
    char expected[512];
    snprintf(expected, sizeof expected,
             "collcalc fit: %s: cannot write the platform file: File too large (the file is as "
             "it was)\n",
             target);
    assert_string_equal(err, expected);
    char *text = test_read_file(target, NULL);
    assert_string_equal(text, OLD);
    free(text);
    assert_int_equal(entries_in(dir), 1);

    snprintf(target, sizeof target, "%s/chart.svg", dir);
    write_text(target, OLD);
    const char *check[] = {"collcalc", "check", "examples/nccl_allreduce_h100_2node.txt",
                           "--platform", "hgx-h100", "--nodes", "2", "--svg", target, NULL};
    assert_int_equal(run_with_file_limit(check, 4096, err, sizeof err), 1);
    assert_contains(err, "chart.svg: cannot write the SVG: File too large (the file is as it was)");
    text = test_read_file(target, NULL);
    assert_string_equal(text, OLD);
    free(text);
    assert_int_equal(entries_in(dir), 2);

    /* Without the limit the same commands replace the files whole. */
    assert_int_equal(run_with_file_limit(check, 1 << 24, err, sizeof err), 0);
    text = test_read_file(target, NULL);
    assert_true(strncmp(text, "<?xml", 5) == 0);
    assert_non_null(strstr(text, "</svg>\n"));
    free(text);
    assert_int_equal(entries_in(dir), 2);
    remove_dir(dir);
}

/* Item 2: an output that is one of the inputs, however it is spelled (a
 * symbolic link, another path), is refused before anything is written. */
static void outputs_never_replace_inputs(void **unused)
{
    (void)unused;
    char dir[64], run_path[128], link_path[128], command[512];
    scratch_dir(dir, sizeof dir);
    snprintf(run_path, sizeof run_path, "%s/run.txt", dir);
    snprintf(link_path, sizeof link_path, "%s/alias.txt", dir);
    char *original = test_read_file("examples/nccl_allreduce_h100_2node.txt", NULL);
    write_text(run_path, original);
    assert_int_equal(symlink("run.txt", link_path), 0);

    snprintf(command, sizeof command,
             "collcalc check %s --platform hgx-h100 --nodes 2 --svg %s/../%s/run.txt", run_path,
             dir, strrchr(dir, '/') + 1);
    test_cli_run run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 2);
    assert_contains(run.err, "collcalc check: --svg: '");
    assert_contains(run.err, "' is the input ");
    assert_contains(run.err, "writing it would replace what is read; give another file");
    assert_string_equal(run.out, "");
    test_cli_run_free(&run);

    snprintf(command, sizeof command, "collcalc fit %s --platform hgx-h100 --nodes 2 -o %s",
             link_path, run_path);
    run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 2);
    assert_contains(run.err, "collcalc fit: -o: '");
    test_cli_run_free(&run);

    char links_path[128], links_alias[128];
    snprintf(links_path, sizeof links_path, "%s/links.json", dir);
    snprintf(links_alias, sizeof links_alias, "%s/links-alias.json", dir);
    char *links = test_read_file("examples/my-links.json", NULL);
    write_text(links_path, links);
    free(links);
    assert_int_equal(link(links_path, links_alias), 0); /* a hard link: the same inode */
    snprintf(command, sizeof command,
             "collcalc sweep allreduce --gpus 8 --link nvlink5 --links %s --svg %s", links_path,
             links_alias);
    run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 2);
    assert_contains(run.err, "collcalc sweep: --svg: '");
    test_cli_run_free(&run);

    char *now = test_read_file(run_path, NULL);
    assert_string_equal(now, original);
    free(now);
    free(original);
    assert_int_equal(entries_in(dir), 4);
    remove_dir(dir);
}

/* Item 13: "-" is standard output (it created a file named '-'), holding
 * the file alone. */
static void dash_is_standard_output(void **unused)
{
    (void)unused;
    char dir[64], cwd[4096];
    scratch_dir(dir, sizeof dir);
    assert_non_null(getcwd(cwd, sizeof cwd));
    char *run_text = test_read_file("examples/nccl_allreduce_h100_2node.txt", NULL);
    assert_int_equal(chdir(dir), 0);
    write_text("run.txt", run_text);
    free(run_text);
    test_cli_run run =
        test_cli_line(NULL, "collcalc check run.txt --platform hgx-h100 --nodes 2 --svg -");
    assert_int_equal(run.exit_code, 0);
    assert_true(strncmp(run.out, "<?xml", 5) == 0);
    assert_null(strstr(run.out, "verdict"));
    test_cli_run_free(&run);
    run = test_cli_line(NULL, "collcalc fit run.txt --platform hgx-h100 --nodes 2 -o -");
    assert_int_equal(run.exit_code, 0);
    assert_true(run.out[0] == '{');
    assert_contains(run.out, "\"name\":\t\"hgx-h100-fitted\"");
    assert_null(strstr(run.out, "wrote"));
    test_cli_run_free(&run);
    run = test_cli_line(NULL, "collcalc check run.txt --platform hgx-h100 --nodes 2 --svg - --plot");
    assert_int_equal(run.exit_code, 2);
    test_cli_run_free(&run);
    assert_int_equal(entries_in("."), 1);
    assert_int_equal(chdir(cwd), 0);
    remove_dir(dir);
}


/* Item 9: one row above 1 PiB (sizes up to 8 EiB are allowed) is left out
 * of check and fit with a warning naming file and line, and a size the
 * NCCL model cannot cost names the option that gave it. */
static void huge_rows_and_sizes(void **unused)
{
    (void)unused;
    char dir[64], path[128], command[512];
    scratch_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/big.txt", dir);
    char *text = test_read_file("examples/nccl_allreduce_h100_2node.txt", NULL);
    char *last = strstr(text, "\n 17179869184 ");
    assert_non_null(last);
    char *after = strchr(last + 1, '\n') + 1;
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fwrite(text, 1, (size_t)(after - text), file);
    fputs("  2251799813685248  562949953421312     float     sum      -1  9000000000  250.20  "
          "469.13      0  9000000000  250.20  469.13      0\n",
          file);
    fputs(after, file);
    assert_int_equal(fclose(file), 0);
    long line = 1;
    for (const char *c = text; c < after; c++)
        line += *c == '\n';
    free(text);

    char expected[256];
    snprintf(command, sizeof command, "collcalc check %s --platform hgx-h100 --nodes 2", path);
    test_cli_run run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 0);
    assert_contains(run.out, "verdict: healthy");
    snprintf(expected, sizeof expected,
             "collcalc check: warning: %s: line %ld: 1 row above 1 PiB, the largest size NCCL's "
             "model costs: not judged\n",
             path, line);
    assert_string_equal(run.err, expected);
    test_cli_run_free(&run);

    snprintf(command, sizeof command,
             "collcalc fit %s --platform hgx-h100 --nodes 2 --output /dev/null", path);
    run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 0);
    snprintf(expected, sizeof expected,
             "collcalc fit: warning: %s: line %ld: 1 row above 1 PiB, the largest size NCCL's "
             "model costs: left out of the fit\n",
             path, line);
    assert_contains(run.err, expected);
    test_cli_run_free(&run);
    remove_dir(dir);

    static const struct {
        const char *command, *option;
    } SIZES[] = {
        {"collcalc allreduce --size 2PB --platform hgx-h100", "allreduce: --size: "},
        {"collcalc sweep allreduce --sizes 1MB,2PB --platform hgx-h100", "sweep: --sizes: "},
        {"collcalc sweep allreduce -b 1K -e 8PB --platform hgx-h100", "sweep: -e: "},
        {"collcalc compare allreduce --sizes 1MB,2PB --platform hgx-h100", "compare: --sizes: "},
    };
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        run = test_cli_line(NULL, SIZES[i].command);
        assert_int_equal(run.exit_code, 2);
        assert_contains(run.err, SIZES[i].option);
        assert_contains(run.err, " bytes is above 1 PiB, the largest size NCCL's model costs");
        test_cli_run_free(&run);
    }
}


/* Item 13: the readers of line files finish on /dev/zero (no line break,
 * ever) with one line naming the file and the line. */
static void endless_lines_are_refused(void **unused)
{
    (void)unused;
    static const char *const COMMANDS[] = {
        "collcalc batch /dev/zero",
        "collcalc check /dev/zero --platform hgx-h100",
        "collcalc fit /dev/zero --platform hgx-h100",
        "collcalc diagnose /dev/zero",
    };
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++) {
        test_cli_run run = test_cli_line(NULL, COMMANDS[i]);
        assert_int_equal(run.exit_code, 1);
        assert_int_equal(count_lines(run.err), 1);
        assert_contains(run.err, ": /dev/zero: line 1: over ");
        assert_string_equal(run.out, "");
        test_cli_run_free(&run);
    }
    /* batch: the lines before it are answered. */
    char dir[64], path[128], command[256];
    scratch_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/q.txt", dir);
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fputs("allreduce --size 1MB --gpus 8 --link nvlink5 --algo ring\n", file);
    static char zeros[1 << 20];
    for (int i = 0; i < 17; i++)
        assert_int_equal(fwrite(zeros, 1, sizeof zeros, file), sizeof zeros);
    assert_int_equal(fclose(file), 0);
    snprintf(command, sizeof command, "collcalc batch %s --format jsonl", path);
    test_cli_run run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 1);
    assert_int_equal(count_lines(run.out), 1);
    assert_contains(run.err, "q.txt: line 2: over 16 MiB without a line break");
    test_cli_run_free(&run);
    remove_dir(dir);
}


/* Item 5: SIGINT during batch stops it at a line boundary: every row out
 * is whole (the output ended inside a row at a 4 KiB boundary), one line on
 * stderr, exit 130 (it was killed by the signal). */
static void interrupted_batch_ends_on_a_row(void **unused)
{
    (void)unused;
    char dir[64], path[128];
    scratch_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/q.txt", dir);
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    for (int i = 0; i < 400000; i++) /* sizes differ: every row is costed */
        fprintf(file, "allreduce --size %dB --gpus 8 --link nvlink5 --algo ring\n", 1000 + i);
    assert_int_equal(fclose(file), 0);
    int out_pipe[2], err_pipe[2];
    assert_int_equal(pipe(out_pipe), 0);
    assert_int_equal(pipe(err_pipe), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        FILE *out = fdopen(out_pipe[1], "w"), *err = fdopen(err_pipe[1], "w");
        if (out == NULL || err == NULL)
            _exit(98);
        char *argv[] = {(char *)(uintptr_t) "collcalc", (char *)(uintptr_t) "batch", path,
                        (char *)(uintptr_t) "--format", (char *)(uintptr_t) "jsonl",
                        (char *)(uintptr_t) "--columns", (char *)(uintptr_t) "time_us", NULL};
        int code = collcalc_cli_main(7, argv, stdin, out, err);
        fflush(out);
        fflush(err);
        _exit(code);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    size_t capacity = 1 << 26, used = 0;
    char *text = malloc(capacity);
    assert_non_null(text);
    bool sent = false;
    ssize_t got;
    while ((got = read(out_pipe[0], text + used, capacity - 1 - used)) > 0) {
        used += (size_t)got;
        if (!sent && used > (1u << 20)) { /* past a flush of the output buffer */
            assert_int_equal(kill(child, SIGINT), 0);
            sent = true;
        }
        assert_true(used < capacity - 1);
    }
    text[used] = '\0';
    char err[1024];
    got = read(err_pipe[0], err, sizeof err - 1);
    err[got > 0 ? got : 0] = '\0';
    close(out_pipe[0]);
    close(err_pipe[0]);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(sent);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    /* Whole rows only: each line a complete JSON object, numbered on. */
    assert_true(used > 0 && text[used - 1] == '\n');
    long rows = 0;
    for (char *line = text; *line != '\0';) {
        char *end = strchr(line, '\n');
        assert_non_null(end);
        assert_true(line[0] == '{' && end[-1] == '}');
        rows++;
        char expected[32];
        snprintf(expected, sizeof expected, "{\"line\":%ld,", rows);
        assert_true(strncmp(line, expected, strlen(expected)) == 0);
        line = end + 1;
    }
    assert_true(rows < 400000);
    char expected[256];
    snprintf(expected, sizeof expected,
             "collcalc batch: interrupted: stopped after line %ld of %s; the rows of the lines "
             "before are written whole\n",
             rows, path);
    assert_string_equal(err, expected);
    free(text);
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strict_failures_say_why),
        cmocka_unit_test(fit_takes_many_files),
        cmocka_unit_test(query_size_is_exact),
        cmocka_unit_test(failed_writes_keep_the_old_file),
        cmocka_unit_test(outputs_never_replace_inputs),
        cmocka_unit_test(dash_is_standard_output),
        cmocka_unit_test(huge_rows_and_sizes),
        cmocka_unit_test(endless_lines_are_refused),
        cmocka_unit_test(interrupted_batch_ends_on_a_row),
    };
    return cmocka_run_group_tests(tests, enter_source_dir, NULL);
}
