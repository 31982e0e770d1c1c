/* The CLI end to end, in-process: golden transcripts (tests/cli/NAME.t), the
 * README's console examples, and every documented error with its exit code. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include "cli.h"
#include "commands.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One transcript: "$ collcalc ARGS [< FILE]" then the expected stdout, optionally
 * "[stderr] LINE" lines and "[exit N]" (default 0). A transcript ends at
 * the next "$ " line or the end of the block. */
typedef struct {
    char command[1024];
    char *expected_out;
    size_t out_length;
    char expected_err[2048];
    int expected_exit;
} transcript;

static int run_transcripts(const char *origin, const char *text, size_t length)
{
    int failures = 0, count = 0;
    const char *p = text, *end = text + length;
    transcript t;
    memset(&t, 0, sizeof t);
    t.expected_out = malloc(length + 1);
    assert_non_null(t.expected_out);
    bool active = false;
    while (p <= end) {
        const char *line_end = memchr(p, '\n', (size_t)(end - p));
        if (line_end == NULL)
            line_end = end;
        size_t line_length = (size_t)(line_end - p);
        bool is_command = line_length > 11 && strncmp(p, "$ collcalc ", 11) == 0;
        bool at_end = p >= end;
        if ((is_command || at_end) && active) {
            count++;
            t.expected_out[t.out_length] = '\0';
            /* "... < FILE" feeds FILE (relative to the source tree) on stdin. */
            char *stdin_text = NULL;
            char *redirect = strstr(t.command, " < ");
            if (redirect != NULL) {
                *redirect = '\0';
                stdin_text = test_read_file(test_source_path(redirect + 3), NULL);
            }
            test_cli_run run = test_cli_line(stdin_text, t.command);
            free(stdin_text);
            if (run.exit_code != t.expected_exit || strcmp(run.out, t.expected_out) != 0 ||
                strcmp(run.err, t.expected_err) != 0) {
                print_error("%s: $ %s\n--- exit %d (expected %d)\n--- stdout:\n%s--- expected:\n%s"
                            "--- stderr:\n%s--- expected:\n%s",
                            origin, t.command, run.exit_code, t.expected_exit, run.out,
                            t.expected_out, run.err, t.expected_err);
                failures++;
            }
            test_cli_run_free(&run);
            active = false;
        }
        if (at_end)
            break;
        if (is_command) {
            memset(t.command, 0, sizeof t.command);
            snprintf(t.command, sizeof t.command, "collcalc %.*s", (int)(line_length - 11), p + 11);
            t.out_length = 0;
            t.expected_err[0] = '\0';
            t.expected_exit = 0;
            active = true;
        } else if (active && line_length > 6 && strncmp(p, "[exit ", 6) == 0) {
            t.expected_exit = atoi(p + 6);
        } else if (active && line_length >= 9 && strncmp(p, "[stderr] ", 9) == 0) {
            size_t used = strlen(t.expected_err);
            snprintf(t.expected_err + used, sizeof t.expected_err - used, "%.*s\n",
                     (int)(line_length - 9), p + 9);
        } else if (active) {
            memcpy(t.expected_out + t.out_length, p, line_length);
            t.out_length += line_length;
            t.expected_out[t.out_length++] = '\n';
        }
        p = line_end + 1;
    }
    free(t.expected_out);
    assert_true(count > 0);
    return failures;
}

/* Transcripts name files relative to the source tree (examples/...). */
static void enter_source_dir(void)
{
    const char *dir = getenv("COLLCALC_SOURCE_DIR");
    if (dir != NULL && dir[0] != '\0')
        assert_int_equal(chdir(dir), 0);
}

static void golden_transcripts(void **state)
{
    (void)state;
    enter_source_dir();
    const char *dir_path = test_source_path("tests/cli");
    char dir_copy[4096];
    snprintf(dir_copy, sizeof dir_copy, "%s", dir_path);
    DIR *dir = opendir(dir_copy);
    assert_non_null(dir);
    int failures = 0, files = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        size_t n = strlen(entry->d_name);
        if (n < 3 || strcmp(entry->d_name + n - 2, ".t") != 0)
            continue;
        char path[8400];
        snprintf(path, sizeof path, "%s/%s", dir_copy, entry->d_name);
        size_t length;
        char *text = test_read_file(path, &length);
        failures += run_transcripts(entry->d_name, text, length);
        free(text);
        files++;
    }
    closedir(dir);
    assert_true(files > 0);
    assert_int_equal(failures, 0);
}

/* Every ```console block of README.md is a transcript. */
static void readme_examples(void **state)
{
    (void)state;
    enter_source_dir();
    size_t length;
    char *text = test_read_file(test_source_path("README.md"), &length);
    int failures = 0, blocks = 0;
    const char *p = text;
    while ((p = strstr(p, "```console\n")) != NULL) {
        p += strlen("```console\n");
        const char *close = strstr(p, "```\n");
        assert_non_null(close);
        failures += run_transcripts("README.md", p, (size_t)(close - p));
        blocks++;
        p = close + 4;
    }
    free(text);
    assert_true(blocks >= 3);
    assert_int_equal(failures, 0);
}

/* Bad input: one line on stderr naming the option or place, nothing on
 * stdout, the documented exit code. */
static void errors(void **state)
{
    (void)state;
    const struct {
        const char *command;
        int exit_code;
        const char *stderr_has;
    } rows[] = {
        {"collcalc", 2, "missing command"},
        {"collcalc frobnicate", 2, "unknown command 'frobnicate'"},
        {"collcalc allreduce --size 8Mx --gpus 8 --link nvlink5", 2, "--size"},
        {"collcalc allreduce --size -1 --gpus 8 --link nvlink5", 2, "--size"},
        {"collcalc allreduce --size nan --gpus 8 --link nvlink5", 2, "--size"},
        {"collcalc allreduce --size 100Mb --gpus 8 --link nvlink5", 2, "bits"},
        {"collcalc allreduce --size 99999999999999999999 --gpus 8 --link nvlink5", 2, "--size"},
        {"collcalc allreduce --size 1MB --gpus 0 --link nvlink5", 2, "--gpus"},
        {"collcalc allreduce --size 1MB --gpus 1x --link nvlink5", 2, "--gpus"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink9", 2, "unknown link 'nvlink9' (did you mean nvlink2, nvlink3 or nvlink4?); known: "},
        {"collcalc allreduce --gpus 8 --link nvlink5", 2, "--size: missing"},
        {"collcalc allreduce --size 1MB --link nvlink5", 2, "--gpus: missing"},
        {"collcalc allreduce --size 1MB --gpus 8", 2, "--link: missing"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --algo bruck", 2, "--algo: not an algorithm of this operation: 'bruck'; all-reduce has: ring, tree,"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --algo warp", 2, "unknown algorithm 'warp'"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --format xml", 2, "--format"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --bw-basis both", 2, "--bw-basis"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --bogus", 2, "unknown option '--bogus'"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --size", 2, "needs a value"},
        {"collcalc allreduce --size --gpus 8 --link nvlink5", 2, "--size: needs a value (SIZE) before --gpus"},
        {"collcalc allreduce --size -9MB --gpus 8 --link nvlink5", 2, "--size: invalid size '-9MB': a size cannot be negative"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 extra", 2, "unexpected argument 'extra'"},
        {"collcalc allreduce --size 1MB --gpus 8 --bw 400Gx", 2, "--bw"},
        {"collcalc allreduce --size 1MB --gpus 8 --bw 400GB/s --alpha -1us", 2, "--alpha"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --layers 0", 2, "--layers"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --links /nonexistent/links.json", 1, "/nonexistent/links.json: cannot open"},
        {"collcalc sweep -b 8 -e 1G --gpus 8 --link nvlink5", 2, "missing the operation"},
        {"collcalc sweep allreduce -b 1G -e 8 --gpus 8 --link nvlink5", 2, "larger than the last"},
        {"collcalc sweep allreduce -b 8 -e 1G -f 0.5 --gpus 8 --link nvlink5", 2, "-f"},
        {"collcalc sweep allreduce --gpus 8 --link nvlink5 --style fancy", 2, "unknown style"},
        {"collcalc sweep allreduce -b 1 -e 1G -i 1 --gpus 8 --link nvlink5", 2, "more than 4096 sizes"},
        {"collcalc allreduce --size 1MB --gpus 8 --bw 1e9GB/s", 2, "--bw: invalid bandwidth '1e9GB/s': exponents are not allowed"},
        {"collcalc allreduce --size 1MB --gpus 8 --bw 1000000TB/s", 2, "--bw: must be between"},
        {"collcalc allreduce --size 1e6 --gpus 8 --link nvlink5", 2, "exponents are not allowed"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --alpha 1e3ns", 2, "exponents are not allowed"},
        {"collcalc allreduce --size 1MB --gpus 8 --bw 400GB/s --alpha 2s", 2, "--alpha"},
        {"collcalc allreduce --size 1MB --gpus 16 --gpus-per-node 8 --intra nvlink4 --inter ib-ndr --bw 400GB/s", 2, "--bw"},
        {"collcalc platforms --bogus", 2, "unknown option '--bogus'"},
        {"collcalc links --platform nope", 2, "unknown platform 'nope'"},
        {"collcalc links --platforms /nonexistent/p.json", 1, "/nonexistent/p.json: cannot open"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --platforms /nonexistent/p.json", 1, "cannot open"},
        {"collcalc compare --gpus 8 --link nvlink5", 2, "missing the operation"},
        {"collcalc compare allreduce --gpus 8 --link nvlink5 --sizes 1MB,xyz", 2, "--sizes"},
        {"collcalc compare allreduce --size 1MB --placement gpus-per-node=8,color=red", 2, "unknown key 'color'"},
        {"collcalc links --path nvlink5", 2, "at least two"},
        {"collcalc links --path nvlink5,warp9", 2, "unknown link 'warp9'"},
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        test_cli_run run = test_cli_line(NULL, rows[i].command);
        size_t newlines = 0;
        for (const char *c = run.err; *c != '\0'; c++)
            newlines += *c == '\n';
        if (run.exit_code != rows[i].exit_code || strstr(run.err, rows[i].stderr_has) == NULL ||
            run.out[0] != '\0' || newlines != 1) {
            print_error("$ %s\n  exit %d (expected %d)\n  stderr: %s  stdout: %s\n", rows[i].command,
                        run.exit_code, rows[i].exit_code, run.err, run.out);
            failures++;
        }
        test_cli_run_free(&run);
    }
    assert_int_equal(failures, 0);
}

/* Bad --links tables: exit 1, the file and the JSON path named. */
static void bad_link_tables(void **state)
{
    (void)state;
    const struct {
        const char *json;
        const char *stderr_has;
    } rows[] = {
        {"", "links.json"},
        {"not json", "links.json"},
        {"{\"schema_version\": 1, \"links\": [{\"name\": \"x\", \"description\": \"d\", \"tier\": \"scale-up\", "
         "\"class\": \"nvlink\", \"bw_per_direction_GBps\": \"450\", \"headline_GBps\": 900, \"headline_counts\": "
         "\"both-directions\", \"alpha_us\": 2, \"sources\": {\"bw_per_direction_GBps\": \"s\", \"headline_GBps\": "
         "\"s\", \"alpha_us\": \"s\"}}]}",
         "links[0].bw_per_direction_GBps"},
        {"{\"schema_version\": 1, \"links\": [{\"name\": \"x\", \"description\": \"d\", \"tier\": \"scale-up\", "
         "\"class\": \"nvlink\", \"bw_per_direction_GBps\": 1e999, \"headline_GBps\": 900, \"headline_counts\": "
         "\"both-directions\", \"alpha_us\": 2, \"sources\": {\"bw_per_direction_GBps\": \"s\", \"headline_GBps\": "
         "\"s\", \"alpha_us\": \"s\"}}]}",
         "links[0].bw_per_direction_GBps"},
        {"{\"schema_version\": 1, \"schema_version\": 1, \"links\": []}", "schema_version"},
        {"{\"schema_version\": 1, \"links\": [{\"name\": \"x\", \"tier\": \"scale-up\", "
         "\"class\": \"nvlink\", \"bw_per_direction_GBps\": -450, \"headline_GBps\": 900, \"headline_counts\": "
         "\"both-directions\", \"alpha_us\": 2}]}",
         "links[0].bw_per_direction_GBps"},
        {"{\"schema_version\": 1, \"links\": [{\"name\": \"x\", \"tier\": \"scale-up\", "
         "\"class\": \"nvlink\", \"bw_per_direction_GBps\": 450, \"headline_GBps\": 900, \"headline_counts\": "
         "\"both-directions\", \"alpha_us\": 2, \"bandwith_GBps\": 3}]}",
         "links[0]: unknown key 'bandwith_GBps'"},
    };
    char path[] = "/tmp/collcalc-test-XXXXXX";
    char *dir = mkdtemp(path);
    assert_non_null(dir);
    char file[256];
    snprintf(file, sizeof file, "%s/links.json", dir);
    int failures = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        FILE *f = fopen(file, "w");
        assert_non_null(f);
        fputs(rows[i].json, f);
        fclose(f);
        char command[512];
        snprintf(command, sizeof command,
                 "collcalc allreduce --size 1MB --gpus 8 --link x --links %s", file);
        test_cli_run run = test_cli_line(NULL, command);
        if (run.exit_code != 1 || strstr(run.err, rows[i].stderr_has) == NULL || run.out[0] != '\0' ||
            strchr(run.err, '\n') != run.err + strlen(run.err) - 1) {
            print_error("table %zu: exit %d stderr %s stdout %s\n", i, run.exit_code, run.err, run.out);
            failures++;
        }
        test_cli_run_free(&run);
    }
    remove(file);
    rmdir(dir);
    assert_int_equal(failures, 0);
}

/* A broken --platforms table: exit 1, file and JSON path named; a good one
 * of the user's own works, and explicit options beat its preset. */
static void platform_tables(void **state)
{
    (void)state;
    char path[] = "/tmp/collcalc-test-XXXXXX";
    char *dir = mkdtemp(path);
    assert_non_null(dir);
    char file[256], command[512];
    snprintf(file, sizeof file, "%s/platforms.json", dir);
    const char *broken =
        "{\"schema_version\": 1, \"platforms\": [{\"name\": \"box\", \"gpu\": \"X\", "
        "\"gpus_per_node\": 8, \"intra_link\": \"nvlink9\", \"inter_link\": \"ib-ndr\", "
        "\"nics_per_node\": 8, \"nvls\": false, \"sharp\": false}]}";
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs(broken, f);
    fclose(f);
    snprintf(command, sizeof command,
             "collcalc allreduce --size 1MB --platform box --nodes 2 --platforms %s", file);
    test_cli_run run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 1);
    assert_non_null(strstr(run.err, "platforms[0].intra_link"));
    assert_non_null(strstr(run.err, file));
    assert_string_equal(run.out, "");
    test_cli_run_free(&run);

    const char *good =
        "{\"schema_version\": 1, \"platforms\": [{\"name\": \"box\", \"gpu\": \"X\", "
        "\"gpus_per_node\": 4, \"intra_link\": \"nvlink4\", \"inter_link\": \"ib-ndr\", "
        "\"nics_per_node\": 2, \"nvls\": false, \"sharp\": false}]}";
    f = fopen(file, "w");
    assert_non_null(f);
    fputs(good, f);
    fclose(f);
    snprintf(command, sizeof command,
             "collcalc allreduce --size 1TB --platform box --nodes 2 --platforms %s --cost-model alpha-beta --algo ring "
             "--format csv",
             file);
    run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 0);
    /* 8 GPUs = 2 nodes x 4; the ring runs at min(450, 2 x 50) = 100 GB/s */
    assert_non_null(strstr(run.out, "\n1000000000000,allreduce,ring,true,true,8,2,"));
    assert_non_null(strstr(run.out, ",99.9"));
    test_cli_run_free(&run);
    snprintf(command, sizeof command,
             "collcalc allreduce --size 1TB --platform box --nodes 2 --platforms %s --cost-model alpha-beta --algo ring "
             "--nics-per-node 8 --format csv",
             file);
    run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 0);
    /* A GPU drives one NIC: 4 GPUs use 4 of the 8 NICs, min(450, 4 x 50) = 200 */
    assert_non_null(strstr(run.out, ",199."));
    test_cli_run_free(&run);
    snprintf(command, sizeof command,
             "collcalc allreduce --size 1TB --platform box --nodes 2 --platforms %s --cost-model alpha-beta --algo ring "
             "--nics-per-node 8 --nics-per-gpu 2 --format csv",
             file);
    run = test_cli_line(NULL, command);
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, ",399.")); /* min(450, 8 x 50) = 400 */
    test_cli_run_free(&run);
    remove(file);
    rmdir(dir);
}

/* The JSON contract scripts rely on. */
static void json_contract(void **state)
{
    (void)state;
    test_cli_run run = test_cli_line(NULL, "collcalc allreduce --size 100MB --gpus 8 --link nvlink5 "
                                           "--algo ring --bw-basis headline --format json");
    assert_int_equal(run.exit_code, 0);
    const char *fields[] = {"\"query\"", "\"op\":\"allreduce\"", "\"size_bytes\":100000000",
                            "\"gpus\":8", "\"link\":\"nvlink5\"", "\"bw_basis\":\"headline\"",
                            "\"results\"", "\"algorithm\":\"ring\"", "\"steps\":14",
                            "\"bytes_sent_per_gpu\":175000000", "\"bytes_received_per_gpu\":175000000",
                            "\"latency_us\":28", "\"bandwidth_us\":97.22222222222223", "\"time_us\"",
                            "\"algbw_GBps\"", "\"busbw_GBps\"", "\"dominant\":\"bandwidth\"", "\"phases\""};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (strstr(run.out, fields[i]) == NULL)
            print_error("missing %s in\n%s", fields[i], run.out);
        assert_non_null(strstr(run.out, fields[i]));
    }
    test_cli_run_free(&run);
    run = test_cli_line(NULL, "collcalc allreduce --size 100MB --gpus 8 --link nvlink5 --format csv");
    assert_int_equal(run.exit_code, 0);
    const char *header = "size_bytes,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,"
                         "bytes_sent_per_gpu,bytes_received_per_gpu,";
    assert_true(strncmp(run.out, header, strlen(header)) == 0);
    assert_non_null(strstr(run.out, "\n100000000,allreduce,ring,"));
    test_cli_run_free(&run);
}

/* --help teaches every command, exit 0, on stdout. */
static void help_everywhere(void **state)
{
    (void)state;
    const char *commands[] = {"collcalc --help", "collcalc allreduce --help", "collcalc allgather --help",
                              "collcalc reducescatter --help", "collcalc alltoall --help",
                              "collcalc broadcast --help", "collcalc reduce --help",
                              "collcalc sendrecv --help", "collcalc compare --help",
                              "collcalc sweep --help", "collcalc links --help", "collcalc help sweep",
                              "collcalc platforms --help",
                              "collcalc a2a --help"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        test_cli_run run = test_cli_line(NULL, commands[i]);
        assert_int_equal(run.exit_code, 0);
        assert_non_null(strstr(run.out, "Usage: collcalc"));
        assert_string_equal(run.err, "");
        test_cli_run_free(&run);
    }
    test_cli_run run = test_cli_line(NULL, "collcalc --version");
    assert_int_equal(run.exit_code, 0);
    assert_true(strncmp(run.out, "collcalc ", 9) == 0);
    test_cli_run_free(&run);
}

/* The man page names every command the CLI has (it is kept by hand). */
static void man_page_lists_every_command(void **state)
{
    (void)state;
    test_cli_run run = test_cli_line(NULL, "collcalc --help");
    char *man = test_read_file(test_source_path("doc/collcalc.1"), NULL);
    const char *p = strstr(run.out, "Commands:\n");
    assert_non_null(p);
    p += strlen("Commands:\n");
    int commands = 0;
    while (strncmp(p, "  ", 2) == 0) {
        char name[32];
        assert_int_equal(sscanf(p, " %31s", name), 1);
        if (strstr(man, name) == NULL)
            print_error("doc/collcalc.1 does not mention '%s'\n", name);
        assert_non_null(strstr(man, name));
        commands++;
        p = strchr(p, '\n') + 1;
    }
    assert_true(commands >= 11);
    free(man);
    test_cli_run_free(&run);
}

/* Every example a --help text shows runs, exit 0, something on stdout. */
static void help_examples_run(void **state)
{
    (void)state;
    enter_source_dir();
    size_t count;
    const command_spec *commands = command_table(&count);
    int failures = 0, examples = 0;
    for (size_t i = 0; i < count; i++)
        for (const char *const *example = commands[i].examples; *example != NULL; example++) {
            test_cli_run run = test_cli_line(NULL, *example);
            examples++;
            if (run.exit_code != 0 || run.out[0] == '\0') {
                print_error("help example failed: %s\n  exit %d, stderr: %s\n", *example,
                            run.exit_code, run.err);
                failures++;
            }
            test_cli_run_free(&run);
        }
    assert_true(examples >= (int)count);
    assert_int_equal(failures, 0);
}

/* The man page covers every command and every option any command accepts
 * (the option registry is the list). */
static void man_page_covers_every_option(void **state)
{
    (void)state;
    char *man = test_read_file(test_source_path("doc/collcalc.1"), NULL);
    size_t count;
    const command_spec *commands = command_table(&count);
    int failures = 0;
    for (size_t i = 0; i < count; i++) {
        if (strstr(man, commands[i].name) == NULL) {
            print_error("doc/collcalc.1 does not mention the command '%s'\n", commands[i].name);
            failures++;
        }
        for (const option_group *group = commands[i].groups; group->title != NULL; group++)
            for (const option_use *use = group->options; use->id != OPT_NONE; use++) {
                const option_def *def = option_def_of(use->id);
                char troff[80] = "\\-\\-";
                size_t n = strlen(troff);
                for (const char *c = def->name; *c != '\0' && n + 3 < sizeof troff; c++) {
                    if (*c == '-')
                        troff[n++] = '\\';
                    troff[n++] = *c;
                }
                troff[n] = '\0';
                if (strstr(man, troff) == NULL) {
                    print_error("doc/collcalc.1 does not document --%s (%s)\n", def->name,
                                commands[i].name);
                    failures++;
                }
            }
    }
    free(man);
    assert_int_equal(failures, 0);
}

/* Each command's --help lists exactly the algorithms the model has for it. */
static void help_lists_the_op_algorithms(void **state)
{
    (void)state;
    test_cli_run run = test_cli_line(NULL, "collcalc alltoall --help");
    assert_non_null(strstr(run.out, "all-to-all algorithms: pairwise, bruck\n"));
    assert_null(strstr(run.out, "rabenseifner"));
    test_cli_run_free(&run);
    run = test_cli_line(NULL, "collcalc sendrecv --help");
    assert_non_null(strstr(run.out, "send/recv algorithms: direct\n"));
    assert_null(strstr(run.out, "pairwise"));
    test_cli_run_free(&run);
    /* The three ways to ask are one text. */
    test_cli_run a = test_cli_line(NULL, "collcalc sweep --help");
    test_cli_run b = test_cli_line(NULL, "collcalc help sweep");
    test_cli_run c = test_cli_line(NULL, "collcalc --help sweep");
    assert_string_equal(a.out, b.out);
    assert_string_equal(a.out, c.out);
    test_cli_run_free(&a);
    test_cli_run_free(&b);
    test_cli_run_free(&c);
}

/* stdout that cannot be written is an error (exit 1, one line), on every
 * path: results, --help and --version. */
static void write_errors_are_reported(void **state)
{
    (void)state;
    char line0[] = "collcalc --help", line1[] = "collcalc --version",
         line2[] = "collcalc allreduce --help",
         line3[] = "collcalc allreduce --size 1MB --gpus 8 --link nvlink5";
    char *lines[] = {line0, line1, line2, line3};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        FILE *full = fopen("/dev/full", "w");
        if (full == NULL)
            skip();
        char *argv[12];
        int argc = 0;
        for (char *word = strtok(lines[i], " "); word != NULL && argc < 10; word = strtok(NULL, " "))
            argv[argc++] = word;
        argv[argc] = NULL;
        char *err_text = NULL;
        size_t err_length = 0;
        FILE *err = open_memstream(&err_text, &err_length);
        assert_non_null(err);
        int code = collcalc_cli_main(argc, argv, stdin, full, err);
        fclose(err);
        fclose(full);
        if (code != 1)
            print_error("%s: %s", argv[1], err_text);
        assert_int_equal(code, 1);
        assert_non_null(strstr(err_text, "error writing output"));
        free(err_text);
    }
}

/* What a review found, each a line of its own: bounded echoes, one pointer,
 * values given twice, options before the command, did-you-mean. */
static void errors_teach(void **state)
{
    (void)state;
    char *big = malloc(1 << 20);
    assert_non_null(big);
    memset(big, '7', (1 << 20) - 1);
    big[(1 << 20) - 1] = '\0';
    const char *argv[] = {"collcalc", "allreduce", "--size", big, "--gpus", "8", "--link",
                          "nvlink5", NULL};
    test_cli_run run = test_cli(NULL, argv);
    assert_int_equal(run.exit_code, 2);
    assert_true(strlen(run.err) < 300);
    assert_non_null(strstr(run.err, "..."));
    test_cli_run_free(&run);
    free(big);
    const struct {
        const char *command;
        int exit_code;
        const char *stderr_has;
    } rows[] = {
        {"collcalc allreduce --size 1MB --size 2MB --gpus 8 --link nvlink5", 2, "--size: given twice"},
        {"collcalc allreduce --size 1MB --gpus 8 --gpus 4 --link nvlink5", 2, "--gpus: given twice"},
        {"collcalc --size 1MB allreduce", 2, "before the command"},
        {"collcalc allreduse --size 1MB", 2, "did you mean allreduce?"},
        {"collcalc allreduce --sise 1MB --gpus 8 --link nvlink5", 2, "did you mean --size?"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlnk5", 2, "did you mean nvlink5?"},
        {"collcalc allreduce --size 1MB --platform hgx-h10 --nodes 2", 2, "did you mean hgx-h100"},
        {"collcalc allreduce --size 1MB --gpus 8 --link nvlink5 --algo rnig", 2, "did you mean ring?"},
        {"collcalc alltoall --size 1MB --gpus 8 --link nvlink5 --algo ring", 2, "all-to-all has: pairwise, bruck"},
        {"collcalc allreduce --size 1MB --platform l40s-8x-pcie --nvls", 2, "--nvls"},
        {"collcalc allreduce --size 1MB --gpus 8 --link hbm3", 2, "memory tier"},
        {"collcalc sweep allreduce --gpus 8 --link nvlink5 --style nccl-tests --format json", 2, "--style"},
        {"collcalc compare allreduce --size 1MB --placement platform=hgx-h100 --link nvlink5", 2, "inside each placement"},
        {"collcalc compare allreduce --size 1MB --gpus 8 --link nvlink5 --explain", 2, "unknown option '--explain'"},
        {"collcalc sweep allreduce --gpus 8 --link nvlink5 --layers 80", 2, "unknown option '--layers'"},
    };
    int failures = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        run = test_cli_line(NULL, rows[i].command);
        size_t newlines = 0, pointers = 0;
        for (const char *c = run.err; *c != '\0'; c++)
            newlines += *c == '\n';
        for (const char *c = run.err; (c = strstr(c, "(see ")) != NULL; c++)
            pointers++;
        if (run.exit_code != rows[i].exit_code || strstr(run.err, rows[i].stderr_has) == NULL ||
            run.out[0] != '\0' || newlines != 1 || pointers > 1) {
            print_error("$ %s\n  exit %d (expected %d)\n  stderr: %s  stdout: %s\n", rows[i].command,
                        run.exit_code, rows[i].exit_code, run.err, run.out);
            failures++;
        }
        test_cli_run_free(&run);
    }
    assert_int_equal(failures, 0);
}

/* Machine formats: one object with schema_version, command and query;
 * numbers at full precision; CSV columns are the JSON record fields. */
static void machine_formats(void **state)
{
    (void)state;
    test_cli_run run = test_cli_line(NULL, "collcalc allreduce --size 8 --gpus 8 --link nvlink5 "
                                           "--algo ring --format json");
    assert_int_equal(run.exit_code, 0);
    assert_true(strncmp(run.out, "{\"schema_version\":1,\"command\":\"allreduce\",\"query\":{", 51) == 0);
    /* 8 B x 7/8 x 2 = 14 B in 28.0000155... us: not rounded to 0.0003 */
    assert_non_null(strstr(run.out, "\"bandwidth_us\":1.5555555555555555e-05"));
    assert_non_null(strstr(run.out, "\"bytes_sent_per_gpu\":14,"));
    test_cli_run_free(&run);
    run = test_cli_line(NULL, "collcalc allreduce --size 8 --gpus 8 --link nvlink5 --algo ring "
                              "--layers 80 --format csv");
    assert_int_equal(run.exit_code, 0);
    const char *header =
        "size_bytes,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,"
        "bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,"
        "latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,"
        "per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases\n";
    assert_true(strncmp(run.out, header, strlen(header)) == 0);
    assert_non_null(strstr(run.out, ",80,1,2240,"));
    test_cli_run_free(&run);
}

/* A user's table adds to the built-in one; '-' reads it from stdin. */
static void tables_overlay(void **state)
{
    (void)state;
    enter_source_dir();
    test_cli_run run = test_cli_line(NULL, "collcalc allreduce --size 1MB --gpus 8 --link nvlink5 "
                                           "--links examples/my-links.json --algo ring");
    if (run.exit_code != 0)
        print_error("%s", run.err);
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "over nvlink5"));
    test_cli_run_free(&run);
    char *table = test_read_file(test_source_path("examples/my-links.json"), NULL);
    run = test_cli_line(table, "collcalc links --links - --format csv");
    if (run.exit_code != 0)
        print_error("%s", run.err);
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "\nnvlink5,"));
    test_cli_run_free(&run);
    run = test_cli_line(table, "collcalc links --links-only - --path nvlink-bridge2,roce400-measured --format csv");
    assert_int_equal(run.exit_code, 0);
    assert_null(strstr(run.out, "\nnvlink5,"));
    test_cli_run_free(&run);
    free(table);
}

/* nccl-tests' layout: the count column is per rank for all-gather, and the
 * prediction uses the size nccl-tests moves. */
static void sweep_nccl_tests_counts(void **state)
{
    (void)state;
    test_cli_run run = test_cli_line(NULL, "collcalc sweep allgather -b 1K -e 1K --gpus 8 --link "
                                           "nvlink4 --style nccl-tests");
    assert_int_equal(run.exit_code, 0);
    assert_non_null(strstr(run.out, "\n        1024            32     float    none      -1"));
    test_cli_run_free(&run);
    run = test_cli_line(NULL, "collcalc sweep allreduce -b 1K -e 1K --gpus 8 --link nvlink4 "
                              "--format csv");
    assert_non_null(strstr(run.out, "\n1024,256,float,sum,-1,allreduce,tree,"));
    test_cli_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(golden_transcripts), cmocka_unit_test(readme_examples),
        cmocka_unit_test(errors),             cmocka_unit_test(bad_link_tables),
        cmocka_unit_test(json_contract),      cmocka_unit_test(help_everywhere),
        cmocka_unit_test(man_page_lists_every_command),
        cmocka_unit_test(platform_tables),
        cmocka_unit_test(help_examples_run),
        cmocka_unit_test(man_page_covers_every_option),
        cmocka_unit_test(help_lists_the_op_algorithms),
        cmocka_unit_test(write_errors_are_reported),
        cmocka_unit_test(errors_teach),
        cmocka_unit_test(machine_formats),
        cmocka_unit_test(tables_overlay),
        cmocka_unit_test(sweep_nccl_tests_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
