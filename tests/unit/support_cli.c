/* Running the CLI in-process with captured output (tests that need the CLI). */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static char *slurp_stream(FILE *stream)
{
    fflush(stream);
    long size = ftell(stream);
    assert_true(size >= 0);
    rewind(stream);
    char *text = malloc((size_t)size + 1);
    assert_non_null(text);
    size_t got = fread(text, 1, (size_t)size, stream);
    text[got] = '\0';
    return text;
}

test_cli_run test_cli(const char *stdin_text, const char *const *argv)
{
    int argc = 0;
    while (argv[argc] != NULL)
        argc++;
    char **copy = calloc((size_t)argc + 1, sizeof *copy);
    assert_non_null(copy);
    for (int i = 0; i < argc; i++)
        copy[i] = strdup(argv[i]);

    FILE *in = tmpfile(), *out = tmpfile(), *err = tmpfile();
    assert_non_null(in);
    assert_non_null(out);
    assert_non_null(err);
    if (stdin_text != NULL)
        fputs(stdin_text, in);
    rewind(in);

    test_cli_run run;
    run.exit_code = collcalc_cli_main(argc, copy, in, out, err);
    run.out = slurp_stream(out);
    run.err = slurp_stream(err);
    fclose(in);
    fclose(out);
    fclose(err);
    for (int i = 0; i < argc; i++)
        free(copy[i]);
    free(copy);
    return run;
}

test_cli_run test_cli_line(const char *stdin_text, const char *command_line)
{
    const char *argv[128];
    char words[8192];
    size_t used = 0;
    int argc = 0;
    const char *p = command_line;
    while (*p != '\0') {
        while (*p == ' ')
            p++;
        if (*p == '\0')
            break;
        assert_true(argc < 127);
        argv[argc++] = &words[used];
        while (*p != '\0' && *p != ' ') {
            if (*p == '\'' || *p == '"') {
                char quote = *p++;
                while (*p != '\0' && *p != quote) {
                    assert_true(used < sizeof words - 2);
                    words[used++] = *p++;
                }
                if (*p == quote)
                    p++;
            } else {
                assert_true(used < sizeof words - 2);
                words[used++] = *p++;
            }
        }
        words[used++] = '\0';
    }
    argv[argc] = NULL;
    return test_cli(stdin_text, argv);
}

void test_cli_run_free(test_cli_run *run)
{
    free(run->out);
    free(run->err);
    run->out = run->err = NULL;
}
