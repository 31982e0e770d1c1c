/* Fuzz target: batch input. The input is fed to `collcalc batch -` (any
 * bytes: junk, NUL, invalid UTF-8, long lines, CSV headers); the run must
 * end with a documented exit code, a failure must say why on stderr, and
 * every stderr line must carry the batch prefix. The line splitters also
 * run on the raw input. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_lines.h"
#include "cli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 17)
        return 0;
    char *copy = malloc(size + 1);
    if (copy == NULL)
        return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    char *words[BATCH_WORDS_MAX];
    const char *why;
    char reason[96];
    batch_check_text(copy, size, reason, sizeof reason);
    batch_split_words(copy, size, words, NULL, NULL, BATCH_WORDS_MAX, &why);
    memcpy(copy, data, size);
    batch_split_csv(copy, size, words, BATCH_WORDS_MAX, &why);
    free(copy);

    FILE *in = tmpfile(), *out = tmpfile(), *err = tmpfile();
    if (in == NULL || out == NULL || err == NULL)
        abort();
    fwrite(data, 1, size, in);
    rewind(in);
    static char program[] = "collcalc", command[] = "batch", dash[] = "-", format[] = "--format",
                jsonl[] = "jsonl";
    char *argv[] = {program, command, dash, format, jsonl, NULL};
    int argc = (size > 0 && (data[0] & 1)) ? 5 : 3; /* CSV or JSON lines out */
    int code = collcalc_cli_main(argc, argv, in, out, err);
    if (code < 0 || code > 3)
        abort();
    long err_size = ftell(err);
    if (code != 0 && err_size <= 0)
        abort(); /* a failure always says why */
    rewind(err);
    char line[4096];
    while (fgets(line, sizeof line, err) != NULL)
        if (strncmp(line, "collcalc batch: ", 16) != 0)
            abort();
    fclose(in);
    fclose(out);
    fclose(err);
    return 0;
}
