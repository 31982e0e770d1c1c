/* Fuzz target: the whole CLI. The input is an argument vector, one argument
 * per line; every run must return a documented exit code without crashing,
 * and a failing run must print exactly one line on stderr. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX_ARGS = 64 };
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static char program[] = "collcalc";
    char *argv[MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = program;
    char *save = NULL;
    for (char *word = strtok_r(text, "\n", &save); word != NULL && argc < MAX_ARGS;
         word = strtok_r(NULL, "\n", &save))
        argv[argc++] = word;
    argv[argc] = NULL;
    /* Reading files named by the input is fine; writing is not possible:
     * no command writes files. */
    FILE *in = tmpfile(), *out = tmpfile(), *err = tmpfile();
    if (in == NULL || out == NULL || err == NULL)
        abort();
    int code = collcalc_cli_main(argc, argv, in, out, err);
    if (code < 0 || code > 3)
        abort();
    long err_size = ftell(err);
    if (code != 0 && err_size <= 0)
        abort(); /* a failure always says why */
    fclose(in);
    fclose(out);
    fclose(err);
    free(text);
    return 0;
}
