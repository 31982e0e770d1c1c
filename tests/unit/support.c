/* Shared test helpers: source-tree paths, file reading, in-process CLI runs. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char *env_dir(const char *name, const char *fallback)
{
    const char *value = getenv(name);
    return (value != NULL && value[0] != '\0') ? value : fallback;
}

const char *test_source_path(const char *relative)
{
    static char buffer[4096];
    snprintf(buffer, sizeof buffer, "%s/%s", env_dir("COLLCALC_SOURCE_DIR", "."), relative);
    return buffer;
}

const char *test_shared_path(const char *relative)
{
    static char buffer[4096];
    snprintf(buffer, sizeof buffer, "%s/%s", env_dir("COLLCALC_SHARED_DIR", "../shared"), relative);
    return buffer;
}

char *test_read_file(const char *path, size_t *out_length)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        print_error("cannot open %s\n", path);
        fail();
    }
    size_t capacity = 1 << 16, length = 0, got;
    char *data = malloc(capacity + 1);
    assert_non_null(data);
    while ((got = fread(data + length, 1, capacity - length, file)) > 0) {
        length += got;
        if (length == capacity) {
            capacity *= 2;
            data = realloc(data, capacity + 1);
            assert_non_null(data);
        }
    }
    fclose(file);
    data[length] = '\0';
    if (out_length != NULL)
        *out_length = length;
    return data;
}

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
