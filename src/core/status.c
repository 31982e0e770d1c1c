/* Diagnostics helpers: the library's only way to explain a failure. */
#include "collcalc/status.h"
#include "helpers.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

collcalc_status collcalc_diag_fail(collcalc_diag *diag, collcalc_status status,
                                   const char *format, ...)
{
    if (diag != NULL) {
        va_list args;
        va_start(args, format);
        int written = vsnprintf(diag->message, sizeof diag->message, format, args);
        va_end(args);
        if (written < 0)
            diag->message[0] = '\0';
    }
    return status;
}

void collcalc_diag_clear(collcalc_diag *diag)
{
    if (diag != NULL)
        diag->message[0] = '\0';
}

const char *collcalc_status_name(collcalc_status status)
{
    switch (status) {
    case COLLCALC_OK: return "ok";
    case COLLCALC_ERR_INVALID: return "invalid";
    case COLLCALC_ERR_NOT_FOUND: return "not found";
    case COLLCALC_ERR_UNSUPPORTED: return "unsupported";
    case COLLCALC_ERR_NOMEM: return "out of memory";
    }
    return "unknown";
}

/* ------------------------------------------------------------- echoes */

size_t collcalc_utf8_decode(const unsigned char *s, size_t available, uint32_t *out_code)
{
    if (available == 0)
        return 0;
    if (s[0] < 0x80) {
        if (out_code != NULL)
            *out_code = s[0];
        return 1;
    }
    size_t need;
    uint32_t code;
    unsigned char low = 0x80, high = 0xBF; /* the second byte's range */
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        need = 2;
        code = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        need = 3;
        code = s[0] & 0x0Fu;
        if (s[0] == 0xE0)
            low = 0xA0; /* no overlong forms */
        if (s[0] == 0xED)
            high = 0x9F; /* no UTF-16 surrogates */
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        need = 4;
        code = s[0] & 0x07u;
        if (s[0] == 0xF0)
            low = 0x90;
        if (s[0] == 0xF4)
            high = 0x8F; /* nothing past U+10FFFF */
    } else {
        return 0;
    }
    if (need > available || s[1] < low || s[1] > high)
        return 0;
    for (size_t i = 1; i < need; i++) {
        if (i > 1 && (s[i] & 0xC0) != 0x80)
            return 0;
        code = code << 6 | (s[i] & 0x3Fu);
    }
    if (out_code != NULL)
        *out_code = code;
    return need;
}

/* Appends piece (n bytes) when it fits with room for "..." and the NUL. */
static bool echo_append(char *buffer, size_t buffer_size, size_t *used, const char *piece,
                        size_t n)
{
    if (*used + n + 4 > buffer_size)
        return false;
    memcpy(buffer + *used, piece, n);
    *used += n;
    return true;
}

const char *collcalc_echo_n(char *buffer, size_t buffer_size, const char *text, size_t length)
{
    if (buffer == NULL || buffer_size == 0)
        return buffer;
    buffer[0] = '\0';
    if (text == NULL)
        return buffer;
    size_t used = 0, i = 0;
    bool complete = true;
    while (i < length) {
        if (i >= COLLCALC_ECHO_MAX) {
            complete = false;
            break;
        }
        unsigned char c = (unsigned char)text[i];
        char piece[8];
        size_t n, consumed;
        if (c >= 0x20 && c < 0x7F) {
            piece[0] = (char)c;
            n = consumed = 1;
        } else if (c >= 0x80 && (consumed = collcalc_utf8_decode((const unsigned char *)text + i,
                                                                   length - i, NULL)) > 0) {
            if (i + consumed > COLLCALC_ECHO_MAX) {
                complete = false;
                break;
            }
            memcpy(piece, text + i, consumed);
            n = consumed;
        } else {
            snprintf(piece, sizeof piece, "\\x%02X", (unsigned)c);
            n = 4;
            consumed = 1;
        }
        if (!echo_append(buffer, buffer_size, &used, piece, n)) {
            complete = false;
            break;
        }
        i += consumed;
    }
    if (!complete) {
        size_t room = buffer_size - 1 - used;
        size_t n = room < 3 ? room : 3;
        memcpy(buffer + used, "...", n);
        used += n;
    }
    buffer[used] = '\0';
    return buffer;
}

const char *collcalc_echo(char *buffer, size_t buffer_size, const char *text)
{
    return collcalc_echo_n(buffer, buffer_size, text, text != NULL ? strlen(text) : 0);
}

/* --------------------------------------------------------- did you mean */

enum { EDIT_TEXT_MAX = 64 };

static unsigned char fold(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c - 'A' + 'a') : c;
}

size_t collcalc_edit_distance(const char *a, const char *b)
{
    if (a == NULL)
        a = "";
    if (b == NULL)
        b = "";
    size_t la = strlen(a), lb = strlen(b);
    if (la > EDIT_TEXT_MAX || lb > EDIT_TEXT_MAX)
        return EDIT_TEXT_MAX + 1;
    /* Three rows of the optimal-string-alignment table. */
    size_t before[EDIT_TEXT_MAX + 1], previous[EDIT_TEXT_MAX + 1], row[EDIT_TEXT_MAX + 1];
    for (size_t j = 0; j <= lb; j++)
        previous[j] = before[j] = j;
    for (size_t i = 1; i <= la; i++) {
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            unsigned char ca = fold((unsigned char)a[i - 1]), cb = fold((unsigned char)b[j - 1]);
            size_t best = previous[j - 1] + (ca == cb ? 0 : 1);
            if (previous[j] + 1 < best)
                best = previous[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (i > 1 && j > 1 && ca == fold((unsigned char)b[j - 2]) &&
                fold((unsigned char)a[i - 2]) == cb && before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            row[j] = best;
        }
        memcpy(before, previous, sizeof before);
        memcpy(previous, row, sizeof previous);
    }
    return previous[lb];
}

static bool same_ignoring_case(const char *a, const char *b)
{
    for (; *a != '\0' && *b != '\0'; a++, b++)
        if (fold((unsigned char)*a) != fold((unsigned char)*b))
            return false;
    return *a == *b;
}

size_t collcalc_suggest(const char *name, const char *const *known, size_t known_count,
                        const char **out, size_t out_capacity)
{
    if (out_capacity > COLLCALC_SUGGEST_MAX)
        out_capacity = COLLCALC_SUGGEST_MAX;
    if (name == NULL || name[0] == '\0' || known == NULL || out == NULL)
        return 0;
    size_t distances[COLLCALC_SUGGEST_MAX];
    size_t count = 0;
    for (size_t k = 0; k < known_count; k++) {
        const char *candidate = known[k];
        if (candidate == NULL || candidate[0] == '\0')
            continue;
        bool seen = false;
        for (size_t s = 0; s < count && !seen; s++)
            seen = same_ignoring_case(out[s], candidate);
        if (seen)
            continue;
        size_t limit = strlen(candidate) / 3;
        if (limit < 1)
            limit = 1;
        if (limit > 3)
            limit = 3;
        size_t d = collcalc_edit_distance(name, candidate);
        if (d > limit)
            continue;
        /* Only the nearest are worth naming: a closer one drops the rest. */
        if (count > 0 && d > distances[0])
            continue;
        if (count > 0 && d < distances[0])
            count = 0;
        /* Insert in order of distance, keeping earlier ones first on ties. */
        size_t at = count;
        while (at > 0 && distances[at - 1] > d)
            at--;
        if (at >= out_capacity)
            continue;
        size_t last = count < out_capacity ? count : out_capacity - 1;
        for (size_t s = last; s > at; s--) {
            out[s] = out[s - 1];
            distances[s] = distances[s - 1];
        }
        out[at] = candidate;
        distances[at] = d;
        if (count < out_capacity)
            count++;
    }
    return count;
}

const char *collcalc_suggest_text(char *buffer, size_t buffer_size, const char *name,
                                  const char *const *known, size_t known_count)
{
    return collcalc_suggest_text_prefixed(buffer, buffer_size, name, known, known_count, "");
}

const char *collcalc_suggest_text_prefixed(char *buffer, size_t buffer_size, const char *name,
                                           const char *const *known, size_t known_count,
                                           const char *prefix)
{
    if (buffer == NULL || buffer_size == 0)
        return buffer;
    buffer[0] = '\0';
    const char *found[COLLCALC_SUGGEST_MAX];
    size_t count = collcalc_suggest(name, known, known_count, found, COLLCALC_SUGGEST_MAX);
    if (count == 0)
        return buffer;
    size_t used = 0;
    int n = snprintf(buffer, buffer_size, " (did you mean ");
    used = n > 0 ? (size_t)n : 0;
    for (size_t i = 0; i < count && used < buffer_size; i++) {
        const char *separator = i == 0 ? "" : (i + 1 == count ? " or " : ", ");
        n = snprintf(buffer + used, buffer_size - used, "%s%s%s", separator, prefix, found[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used < buffer_size)
        snprintf(buffer + used, buffer_size - used, "?)");
    return buffer;
}
