/* Fuzz target: batch input. The input is fed to `collcalc batch -` (any
 * bytes: junk, NUL, invalid UTF-8, long lines, CSV headers); the run must
 * end with a documented exit code, a failure must say why on stderr, and
 * every stderr line must carry the batch prefix. The line splitters also
 * run on the raw input. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_input.h"
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
    /* The checks, sixteen bytes at a time, against what they must say:
     * printable ASCII is fine; a NUL before any byte >= 0x80 is not. */
    const char *verdict = batch_check_text(copy, size, reason, sizeof reason);
    size_t first_high = 0, first_nul = 0;
    while (first_high < size && data[first_high] < 0x80)
        first_high++;
    while (first_nul < size && data[first_nul] != 0)
        first_nul++;
    if ((first_high == size && first_nul == size) != (verdict == NULL) && first_high == size)
        abort();
    if (first_nul < first_high && verdict == NULL)
        abort();
    /* The end of a word's plain part, against a byte-by-byte scan. */
    for (size_t from = 0; from <= size; from += 1 + from / 2) {
        size_t end = from;
        while (end < size && data[end] != ' ' && data[end] != '\t' && data[end] != '\'' &&
               data[end] != '"')
            end++;
        if (batch_plain_end(copy, from, size) != end)
            abort();
    }
    size_t lengths[BATCH_WORDS_MAX];
    int n = batch_split_words(copy, size, words, lengths, BATCH_WORDS_MAX, &why);
    /* Without quotes every word is where it was, unchanged (batch keeps
     * plans on that); with no NUL in the input each length is the word's. */
    bool quoted = memchr(data, '\'', size) != NULL || memchr(data, '"', size) != NULL;
    bool has_nul = memchr(data, 0, size) != NULL;
    for (int i = 0; i < n; i++)
        if ((!has_nul && strlen(words[i]) != lengths[i]) ||
            (!quoted && memcmp(words[i], data + (words[i] - copy), lengths[i]) != 0))
            abort();
    /* The size option, sixteen bytes at a time, against a byte-by-byte
     * search. */
    size_t option = size;
    for (size_t i = 1; i + 7 <= size && option == size; i++)
        if ((data[i - 1] == ' ' || data[i - 1] == '\t') && memcmp(data + i, "--size", 6) == 0 &&
            (data[i + 6] == ' ' || data[i + 6] == '\t'))
            option = i;
    if (batch_size_option((const char *)data, size) != option)
        abort();
    memcpy(copy, data, size);
    batch_split_csv(copy, size, words, BATCH_WORDS_MAX, &why);
    free(copy);

    FILE *in = tmpfile(), *out = tmpfile(), *err = tmpfile();
    if (in == NULL || out == NULL || err == NULL)
        abort();
    fwrite(data, 1, size, in);
    /* The reader's lines: "plain" only when no byte of the line is NUL or
     * >= 0x80 (then batch_check_text passes it). */
    rewind(in);
    batch_reader reader;
    batch_file source = {in, false}; /* lives as long as the reader (not a literal in the if) */
    if (!batch_reader_init(&reader, batch_file_read, &source))
        abort();
    for (;;) {
        char *text;
        size_t length;
        batch_line_status status = batch_read_line(&reader, &text, &length);
        if (status == BATCH_LINE_END || status == BATCH_LINE_READ_ERROR)
            break;
        if (status != BATCH_LINE_OK || !reader.plain)
            continue;
        for (size_t i = 0; i < length; i++)
            if (text[i] == '\0' || (unsigned char)text[i] >= 0x80)
                abort();
        if (batch_check_text(text, length, reason, sizeof reason) != NULL)
            abort();
    }
    batch_reader_free(&reader);
    rewind(in);
    static char program[] = "collcalc", command[] = "batch", dash[] = "-", format[] = "--format",
                jsonl[] = "jsonl", columns[] = "--columns", some[] = "time_us,algorithm,note";
    char *argv[8] = {program, command, dash};
    int argc = 3;
    if (size > 0 && (data[0] & 1)) { /* CSV or JSON lines out */
        argv[argc++] = format;
        argv[argc++] = jsonl;
    }
    if (size > 0 && (data[0] & 2)) { /* all columns, or a few (the direct row path) */
        argv[argc++] = columns;
        argv[argc++] = some;
    }
    argv[argc] = NULL;
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
