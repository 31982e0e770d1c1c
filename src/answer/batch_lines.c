/* batch's line reader, checks and splitters (batch_lines.h). */
#include "batch_lines.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "machine.h"

#ifdef MACHINE_SSE2
#include <emmintrin.h>
/* x86-64 always has SSE2: the scans below take sixteen bytes at a time
 * (machine.h; else eight at a time in a word, or one by one). */
#define SIXTEEN_AT_A_TIME 1

static __m128i load16(const void *at)
{
    return _mm_loadu_si128((const __m128i *)at);
}

/* The bytes of x equal to c, as bits (bit k: byte k). */
static unsigned bytes_of(__m128i x, char c)
{
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(c)));
}

/* The bytes of x that are NUL or >= 0x80, as bits. */
static unsigned nul_or_high(__m128i x)
{
    return (unsigned)_mm_movemask_epi8(x) | bytes_of(x, '\0');
}
#endif

/* READ_SLACK zeros after the buffer's capacity let a scan read the last
 * piece of the data as a whole sixteen bytes (all of it initialised, so
 * valgrind has nothing to say). */
enum { READ_CHUNK = 1 << 20, READ_SLACK = 32 };

bool batch_reader_init(batch_reader *reader, batch_read_fn read, void *source)
{
    memset(reader, 0, sizeof *reader);
    reader->read = read;
    reader->source = source;
    reader->runaway_bytes = BATCH_LINE_RUNAWAY_BYTES;
    reader->capacity = BATCH_LINE_MAX + READ_CHUNK;
    reader->buffer = calloc(1, reader->capacity + READ_SLACK);
    return reader->buffer != NULL;
}

/* The first '\n' of from[0, available), or NULL; *plain: no NUL and no
 * byte >= 0x80 before it (the check batch_check_text makes, found in the
 * same pass). */
static char *find_newline(char *from, size_t available, bool *plain)
{
#ifdef SIXTEEN_AT_A_TIME
    unsigned bad_before = 0;
    for (size_t i = 0; i < available; i += 16) {
        __m128i x = load16(from + i); /* past the data: the slack, or older data */
        unsigned newline = bytes_of(x, '\n'), bad = nul_or_high(x);
        if (newline != 0) {
            unsigned at = (unsigned)__builtin_ctz(newline);
            if (i + at >= available)
                return NULL;
            *plain = (bad_before | (bad & ((1u << at) - 1))) == 0;
            return from + i + at;
        }
        bad_before |= bad;
    }
    return NULL;
#else
    char *newline = memchr(from, '\n', available);
    bool bad = false;
    for (const char *c = from; newline != NULL && c < newline; c++)
        bad |= *c == '\0' || (unsigned char)*c >= 0x80;
    *plain = !bad;
    return newline;
#endif
}

void batch_reader_free(batch_reader *reader)
{
    free(reader->buffer);
    reader->buffer = NULL;
}

/* Moves the unread bytes to the front and reads more after them. */
static void refill(batch_reader *r)
{
    if (r->eof || r->error)
        return;
    if (r->start > 0) {
        memmove(r->buffer, r->buffer + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    size_t got = 0;
    batch_source_status status = r->read(r->source, r->buffer + r->end, r->capacity - r->end, &got);
    r->end += got;
    if (status == BATCH_SOURCE_STOPPED) { /* stopped: what came is read */
        r->interrupted = r->eof = true;
        return;
    }
    if (got == 0) {
        if (status == BATCH_SOURCE_ERROR)
            r->error = true;
        else
            r->eof = true;
    }
}

/* Takes the line at r->start, ended by newline (NULL: the data's last
 * line, without one), NUL-terminated. */
static batch_line_status take_line(batch_reader *r, char *newline, bool plain, bool too_long,
                                   char **out_text, size_t *out_length)
{
    char *from = r->buffer + r->start;
    size_t length = newline != NULL ? (size_t)(newline - from) : r->end - r->start;
    r->start += newline != NULL ? length + 1 : length;
    r->line++;
    if (too_long || length > BATCH_LINE_MAX) {
        if (!too_long) { /* all of it was in the buffer */
            r->prefix_length = BATCH_LINE_PREFIX;
            memcpy(r->prefix, from, BATCH_LINE_PREFIX);
        }
        return BATCH_LINE_TOO_LONG;
    }
    if (r->line == 1 && length >= 3 && memcmp(from, "\xEF\xBB\xBF", 3) == 0) {
        /* A UTF-8 byte order mark (a spreadsheet's CSV export) is not text. */
        from += 3;
        length -= 3;
    }
    if (length > 0 && from[length - 1] == '\r')
        length--;
    from[length] = '\0';
    *out_text = from;
    *out_length = length;
    r->plain = plain && newline != NULL; /* a last line without '\n' is checked */
    return BATCH_LINE_OK;
}

bool batch_read_buffered_line(batch_reader *r, char **out_text, size_t *out_length)
{
    bool plain = false;
    char *newline = find_newline(r->buffer + r->start, r->end - r->start, &plain);
    if (newline == NULL || (size_t)(newline - (r->buffer + r->start)) > BATCH_LINE_MAX)
        return false;
    take_line(r, newline, plain, false, out_text, out_length);
    return true;
}

batch_line_status batch_read_line(batch_reader *r, char **out_text, size_t *out_length)
{
    bool too_long = false;
    r->skipped = 0;
    for (;;) {
        size_t available = r->end - r->start;
        bool plain = false;
        char *newline = find_newline(r->buffer + r->start, available, &plain);
        if (newline != NULL || ((r->eof || r->error) && available > 0))
            return take_line(r, newline, plain, too_long, out_text, out_length);
        if (r->error)
            return BATCH_LINE_READ_ERROR;
        if (r->eof)
            return too_long ? (r->line++, BATCH_LINE_TOO_LONG) : BATCH_LINE_END;
        if (available > BATCH_LINE_MAX) {
            /* Too long: drop what is buffered, keep reading to its end. */
            if (!too_long) {
                r->prefix_length = available < BATCH_LINE_PREFIX ? available : BATCH_LINE_PREFIX;
                memcpy(r->prefix, r->buffer + r->start, r->prefix_length);
            }
            too_long = true;
            r->skipped += available;
            r->start = r->end = 0;
            if (r->skipped > r->runaway_bytes) {
                r->line++;
                r->eof = true; /* nothing after it is read */
                return BATCH_LINE_RUNAWAY;
            }
        }
        refill(r);
    }
}

const char *batch_check_text(const char *text, size_t length, char *buffer, size_t size)
{
    /* Byte by byte: batch reads only the lines its reader did not find
     * plain (reader->plain), which hold a NUL or a byte >= 0x80. */
    const unsigned char *c = (const unsigned char *)text;
    size_t i = 0;
    while (i < length) {
        unsigned char b = c[i];
        if (b == 0) {
            snprintf(buffer, size, "a NUL byte at column %zu", i + 1);
            return buffer;
        }
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t n = collcalc_utf8_decode(c + i, length - i, NULL);
        if (n == 0) {
            snprintf(buffer, size, "not valid UTF-8 at column %zu", i + 1);
            return buffer;
        }
        i += n;
    }
    return NULL;
}

bool batch_is_blank(const char *text, size_t length)
{
    size_t i = 0;
    while (i < length && (text[i] == ' ' || text[i] == '\t'))
        i++;
    return i == length || text[i] == '#';
}

/* The bytes that end the plain part of a word: blanks and quotes. */
static const bool WORD_STOP[256] = {[' '] = true, ['\t'] = true, ['\''] = true, ['"'] = true};

#if !defined(SIXTEEN_AT_A_TIME) && (defined(__GNUC__) || defined(__clang__)) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Without SSE2, eight bytes at a time in a 64-bit word: the bytes of x
 * equal to c, as their high bits (exactly those lanes: no carry crosses a
 * lane). */
static uint64_t bytes_equal(uint64_t x, unsigned char c)
{
    const uint64_t ones = 0x0101010101010101ull, low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t v = x ^ (ones * c);
    return ~(((v & low7) + low7) | v | low7);
}
#define EIGHT_AT_A_TIME 1
#endif

size_t batch_plain_end(const char *text, size_t i, size_t length)
{
#ifdef SIXTEEN_AT_A_TIME
    for (; i + 16 <= length; i += 16) {
        __m128i x = load16(text + i);
        unsigned hit = bytes_of(x, ' ') | bytes_of(x, '\t') | bytes_of(x, '\'') | bytes_of(x, '"');
        if (hit != 0)
            return i + (size_t)__builtin_ctz(hit);
    }
#elif defined(EIGHT_AT_A_TIME)
    for (; i + 8 <= length; i += 8) {
        uint64_t x;
        memcpy(&x, text + i, 8);
        uint64_t hit = bytes_equal(x, ' ') | bytes_equal(x, '\t') | bytes_equal(x, '\'') |
                       bytes_equal(x, '"');
        if (hit != 0)
            return i + (size_t)__builtin_ctzll(hit) / 8;
    }
#endif
    while (i < length && !WORD_STOP[(unsigned char)text[i]])
        i++;
    return i;
}

size_t batch_size_option(const char *text, size_t length)
{
    static const char OPTION[] = "--size";
    size_t i = 1; /* the first word is the command: an option follows a blank */
#ifdef SIXTEEN_AT_A_TIME
    /* Sixteen starts at a time: a blank, then "--s"; each candidate is
     * then read whole. Bytes i-1 .. i+17 are read: all inside the line. */
    for (; i + 18 <= length; i += 16) {
        __m128i before = load16(text + i - 1);
        unsigned starts = (bytes_of(before, ' ') | bytes_of(before, '\t')) &
                          bytes_of(load16(text + i), '-') & bytes_of(load16(text + i + 1), '-') &
                          bytes_of(load16(text + i + 2), 's');
        for (; starts != 0; starts &= starts - 1) {
            size_t at = i + (size_t)__builtin_ctz(starts);
            if (at + 7 <= length && memcmp(text + at, OPTION, 6) == 0 &&
                (text[at + 6] == ' ' || text[at + 6] == '\t'))
                return at;
        }
    }
#endif
    for (; i + 7 <= length; i++)
        if ((text[i - 1] == ' ' || text[i - 1] == '\t') && memcmp(text + i, OPTION, 6) == 0 &&
            (text[i + 6] == ' ' || text[i + 6] == '\t'))
            return i;
    return length;
}

int batch_split_words(char *text, size_t length, char **words, size_t *lengths, int max,
                      const char **error)
{
    int count = 0;
    size_t i = 0;
    for (;;) {
        while (i < length && (text[i] == ' ' || text[i] == '\t'))
            i++;
        if (i >= length || text[i] == '#') /* a comment runs to the end of the line */
            return count;
        if (count >= max) {
            *error = "too many words";
            return -1;
        }
        char *start = text + i;
        /* Most words have no quote: they stay where they are. */
        i = batch_plain_end(text, i, length);
        char *out = text + i;
        while (i < length && text[i] != ' ' && text[i] != '\t') {
            char c = text[i];
            if (c == '\'' || c == '"') {
                char *close = memchr(text + i + 1, c, length - i - 1);
                if (close == NULL) {
                    *error = "a quote is not closed";
                    return -1;
                }
                size_t n = (size_t)(close - (text + i + 1));
                memmove(out, text + i + 1, n);
                out += n;
                i += n + 2;
            } else {
                *out++ = c;
                i++;
            }
        }
        bool end = i >= length;
        *out = '\0'; /* out <= text + i: never past the word's end */
        words[count] = start;
        if (lengths != NULL)
            lengths[count] = (size_t)(out - start);
        count++;
        if (end)
            return count;
        i++;
    }
}

int batch_split_csv(char *text, size_t length, char **fields, int max, const char **error)
{
    int count = 0;
    size_t i = 0;
    for (;;) {
        if (count >= max) {
            *error = "too many fields";
            return -1;
        }
        while (i < length && (text[i] == ' ' || text[i] == '\t'))
            i++;
        char *out = text + i;
        fields[count++] = out;
        if (i < length && text[i] == '"') {
            i++;
            for (;;) {
                if (i >= length) {
                    *error = "a quoted field is not closed";
                    return -1;
                }
                if (text[i] == '"') {
                    if (i + 1 < length && text[i + 1] == '"') {
                        *out++ = '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                *out++ = text[i++];
            }
            while (i < length && (text[i] == ' ' || text[i] == '\t'))
                i++;
            if (i < length && text[i] != ',') {
                *error = "text after a quoted field";
                return -1;
            }
        } else {
            char *last = out;
            while (i < length && text[i] != ',') {
                if (text[i] != ' ' && text[i] != '\t')
                    last = out + 1;
                *out++ = text[i++];
            }
            out = last;
        }
        bool end = i >= length;
        *out = '\0';
        if (end)
            return count;
        i++; /* the comma */
    }
}

bool batch_looks_like_csv(const char *text, size_t length)
{
    if (memchr(text, ',', length) == NULL)
        return false;
    for (size_t i = 0; i + 1 < length; i++)
        if ((text[i] == ' ' || text[i] == '\t') && text[i + 1] == '-')
            return false;
    return true;
}

bool batch_csv_header_read(batch_csv_header *header, char *text, size_t length,
                           batch_csv_resolve_fn resolve, void *context, char *why, size_t size)
{
    char *fields[BATCH_WORDS_MAX];
    const char *error = NULL;
    int n = batch_split_csv(text, length, fields, BATCH_WORDS_MAX, &error);
    if (n < 0) {
        snprintf(why, size, "CSV header: %s", error);
        return false;
    }
    header->columns = n;
    header->op_column = -1;
    for (int c = 0; c < n; c++) {
        const char *name = fields[c];
        while (*name == '-')
            name++;
        if (strcmp(name, "op") == 0 && header->op_column < 0) {
            header->op_column = c;
            continue;
        }
        char tail[256];
        if (!resolve(context, name, &header->column[c], tail, sizeof tail)) {
            char shown[COLLCALC_ECHO_BUFFER];
            collcalc_echo(shown, sizeof shown, fields[c]);
            snprintf(why, size, "CSV header: column '%s'%s", shown, tail);
            return false;
        }
    }
    if (header->op_column < 0) {
        snprintf(why, size, "CSV header: no 'op' column (the collective of each row: "
                            "allreduce, allgather, ...)");
        return false;
    }
    return true;
}

static bool word_in(const char *word, const char *const *list)
{
    for (; *list != NULL; list++)
        if (strcmp(word, *list) == 0)
            return true;
    return false;
}

int batch_csv_row_words(batch_csv_header *header, char *text, size_t length, char **argv,
                        size_t *lengths, int max, char *why, size_t size)
{
    static const char *const YES[] = {"true", "yes", "1", "on", NULL};
    static const char *const NO[] = {"false", "no", "0", "off", NULL};
    char *fields[BATCH_WORDS_MAX];
    const char *error = NULL;
    int n = batch_split_csv(text, length, fields, BATCH_WORDS_MAX, &error);
    if (n < 0) {
        snprintf(why, size, "%s", error);
        return -1;
    }
    if (n != header->columns) {
        snprintf(why, size, "%d field%s; the header has %d", n, n == 1 ? "" : "s",
                 header->columns);
        return -1;
    }
    int argc = 0;
    argv[argc++] = fields[header->op_column];
    for (int c = 0; c < n; c++) {
        if (c == header->op_column || fields[c][0] == '\0')
            continue;
        batch_csv_column *column = &header->column[c];
        if (column->flag) {
            if (word_in(fields[c], NO))
                continue;
            if (!word_in(fields[c], YES)) {
                char shown[COLLCALC_ECHO_BUFFER];
                collcalc_echo(shown, sizeof shown, fields[c]);
                snprintf(why, size, "column '%s': true or false, not '%s'", column->name, shown);
                return -1;
            }
            argv[argc++] = column->spelled;
            continue;
        }
        char *value = fields[c];
        for (;;) {
            char *next = column->repeatable ? strchr(value, ';') : NULL;
            if (next != NULL)
                *next = '\0';
            if (argc + 2 > max) {
                snprintf(why, size, "too many values");
                return -1;
            }
            argv[argc++] = column->spelled;
            argv[argc++] = value;
            if (next == NULL)
                break;
            value = next + 1;
        }
    }
    argv[argc] = NULL;
    if (argv[0][0] == '\0') {
        snprintf(why, size, "no op (the 'op' column is empty)");
        return -1;
    }
    for (int i = 0; i < argc; i++)
        lengths[i] = strlen(argv[i]);
    return argc;
}
