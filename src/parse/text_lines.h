/* Line and word helpers shared by the parse-layer readers (topo.c,
 * nccl_log.c): splitting text into lines, cleaning a line (CR, ANSI escapes,
 * control bytes) into a bounded NUL-terminated buffer, whitespace words, and
 * appending to a bounded message buffer.
 * Private to src/parse; static inline so each reader carries its own copy
 * and nothing is exported. */
#ifndef COLLCALC_TEXT_LINES_H
#define COLLCALC_TEXT_LINES_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* One line of a text: start and length without the '\n' (a '\r' before it
 * is kept; text_clean drops it). */
typedef struct {
    const char *start;
    size_t length;
} text_line;

/* Reads the line at *offset and moves *offset past its '\n'. Returns 0 when
 * the text is exhausted. A last line without '\n' counts as a line. */
static inline int text_next_line(const char *text, size_t length, size_t *offset,
                                  text_line *line)
{
    if (*offset >= length)
        return 0;
    const char *start = text + *offset;
    size_t left = length - *offset;
    const char *newline = memchr(start, '\n', left);
    size_t used = newline != NULL ? (size_t)(newline - start) : left;
    line->start = start;
    line->length = used;
    *offset += newline != NULL ? used + 1 : used;
    return 1;
}

/* Length of the escape sequence starting at in[0] == ESC: CSI sequences
 * (ESC '[' parameters final-byte) whole, any other escape as a pair. */
static inline size_t text_escape_length(const char *in, size_t length)
{
    if (length < 2)
        return length;
    if (in[1] != '[')
        return 2;
    size_t at = 2;
    while (at < length) {
        unsigned char c = (unsigned char)in[at++];
        if (c >= 0x40 && c <= 0x7e)
            break;
    }
    return at;
}

/* Copies a line into out (capacity cap >= 1, always NUL-terminated): drops
 * ANSI escape sequences and a trailing '\r', and turns every other control
 * byte except '\t' into a space. Returns the cleaned length; *cut is set when
 * the line did not fit (the rest is dropped). */
static inline size_t text_clean(const char *in, size_t length, char *out, size_t cap, int *cut)
{
    size_t used = 0;
    *cut = 0;
    if (length > 0 && in[length - 1] == '\r')
        length--;
    for (size_t at = 0; at < length;) {
        unsigned char c = (unsigned char)in[at];
        if (c == 0x1b) {
            at += text_escape_length(in + at, length - at);
            continue;
        }
        at++;
        if (used + 1 >= cap) {
            *cut = 1;
            break;
        }
        out[used++] = (c < 0x20 && c != '\t') || c == 0x7f ? ' ' : (char)c;
    }
    out[used] = '\0';
    return used;
}

/* Non-zero for a byte that cannot appear in a text file (NUL and the C0
 * controls other than tab, LF, CR, ESC, form feed). */
static inline int text_is_binary_byte(unsigned char c)
{
    if (c >= 0x20)
        return 0;
    return c != '\t' && c != '\n' && c != '\r' && c != 0x1b && c != '\f';
}

/* Splits a NUL-terminated line on runs of spaces and tabs, in place (writes
 * NULs). Stores up to max word pointers; returns the number of words found
 * (may exceed max: the rest are counted, not stored). */
static inline size_t text_split_words(char *line, char **words, size_t max)
{
    size_t count = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            break;
        if (count < max)
            words[count] = p;
        count++;
        while (*p != '\0' && *p != ' ' && *p != '\t')
            p++;
        if (*p == '\0')
            break;
        *p++ = '\0';
    }
    return count;
}

/* Non-zero when text starts with prefix. */
static inline int text_starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* Parses the decimal digits at *cursor (at most 9, so the value fits an
 * int) into *value and moves the cursor past them. Returns 0 (cursor
 * untouched) when no digit is there. */
static inline int text_read_digits(const char **cursor, long *value)
{
    const char *p = *cursor;
    long result = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 9) {
        result = result * 10 + (*p - '0');
        p++;
        digits++;
    }
    if (digits == 0)
        return 0;
    *value = result;
    *cursor = p;
    return 1;
}

/* Copies at most n bytes of src into dst (capacity cap >= 1), NUL-terminated. */
static inline void text_copy_n(char *dst, size_t cap, const char *src, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Copies src into dst (capacity cap >= 1), cut to fit, NUL-terminated. */
static inline void text_copy(char *dst, size_t cap, const char *src)
{
    text_copy_n(dst, cap, src, strlen(src));
}

/* Appends printf-style text to buf (capacity cap, NUL-terminated), cut to
 * fit; nothing once buf is full. */
static inline void text_append(char *buf, size_t cap, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static inline void text_append(char *buf, size_t cap, const char *format, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= cap)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(buf + used, cap - used, format, args);
    va_end(args);
}

static inline int text_is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static inline int text_is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static inline int text_is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || text_is_digit(c) || c == '_' ||
           c == '.' || c == '-';
}

/* Launcher prefixes: "0: " (srun -l), "[1,0]<stdout>:" (mpirun --tag-output),
 * "rank0:" / "rank 3:", "host-1: " (pdsh). Returns the offset past them. */
static inline size_t text_skip_launcher(const char *s, size_t n)
{
    size_t i = 0;
    for (int round = 0; round < 4; round++) {
        while (i < n && text_is_blank(s[i]))
            i++;
        size_t j = i;
        if (j < n && text_is_digit(s[j])) {
            while (j < n && text_is_digit(s[j]))
                j++;
            if (j < n && s[j] == ':' && (j + 1 >= n || text_is_blank(s[j + 1]) || s[j + 1] == '#')) {
                i = j + 1;
                continue;
            }
            break;
        }
        if (j < n && s[j] == '[') {
            j++;
            while (j < n && (text_is_digit(s[j]) || s[j] == ',' || s[j] == ' '))
                j++;
            if (j >= n || s[j] != ']')
                break;
            j++;
            if (j < n && s[j] == '<') {
                while (j < n && s[j] != '>')
                    j++;
                if (j >= n)
                    break;
                j++;
            }
            if (j < n && s[j] == ':')
                j++;
            i = j;
            continue;
        }
        if (j + 4 < n && (s[j] == 'r' || s[j] == 'R') && strncmp(s + j + 1, "ank", 3) == 0) {
            size_t k = j + 4;
            if (k < n && s[k] == ' ')
                k++;
            size_t digits = k;
            while (k < n && text_is_digit(s[k]))
                k++;
            if (k > digits && k < n && s[k] == ':') {
                i = k + 1;
                continue;
            }
        }
        /* pdsh-style "host: " only when a table line or comment follows */
        if (j < n && ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z'))) {
            size_t k = j;
            while (k < n && k - j < 64 && text_is_name_char(s[k]))
                k++;
            if (k < n && s[k] == ':' && k + 1 < n && s[k + 1] == ' ') {
                size_t after = k + 1;
                while (after < n && text_is_blank(s[after]))
                    after++;
                if (after < n && (s[after] == '#' || text_is_digit(s[after]))) {
                    i = k + 1;
                    continue;
                }
            }
        }
        break;
    }
    return i;
}

/* Lower-case letters and digits of in: "CollNet Direct" -> "collnetdirect"
 * (NCCL's names compared however they are printed). */
static inline void text_squeeze(char *out, size_t cap, const char *in)
{
    size_t n = 0;
    for (; *in != '\0' && n + 1 < cap; in++) {
        char c = *in >= 'A' && *in <= 'Z' ? (char)(*in - 'A' + 'a') : *in;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out[n++] = c;
    }
    out[n] = '\0';
}

/* A byte count in the largest binary unit it is a whole multiple of:
 * "16 B", "32 KiB", "64 MiB" (NCCL's per-size choices). */
static inline void text_format_size(char *out, size_t cap, long long bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        u++;
    }
    snprintf(out, cap, "%lld %s", bytes, units[u]);
}

#endif
