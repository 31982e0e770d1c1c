/* Checked parsing and 3-significant-digit formatting of sizes, times,
 * bandwidths and counts: the only code in collcalc that calls strtod/strtol. */
#include "collcalc/units.h"
#include "helpers.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define UNITS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define UNITS_PRINTF(fmt, args)
#endif

/* Echoes of the input in messages go through collcalc_echo (status.h), the
 * one helper that keeps every error line bounded. */
enum { QUOTE_BUFFER = COLLCALC_ECHO_BUFFER };

/* The one number grammar (units.h): no exponents anywhere. */
static const char EXPONENT_REFUSED[] =
    "exponents are not allowed; write the digits (e.g. '1000000') or use a unit";

/* Local formatting space: the ladders switch to scientific notation before
 * a number needs more than 16 characters, so these never truncate. */
enum { NUMBER_BUFFER = 64, FORMAT_BUFFER = 128 };

/* ---------------------------------------------------------------- quoting */

/* The echo of length bytes of text, for messages. */
static const char *quote(char out[QUOTE_BUFFER], const char *text, size_t length)
{
    return collcalc_echo_n(out, QUOTE_BUFFER, text, length);
}

static const char *quote_all(char out[QUOTE_BUFFER], const char *text)
{
    return quote(out, text, strlen(text));
}

/* "invalid <kind> '<text>': <detail>" — the shape of every size, time and
 * bandwidth error, so the CLI only has to prefix the option name. */
static collcalc_status reject(collcalc_diag *diag, const char *kind, const char *text,
                              const char *format, ...) UNITS_PRINTF(4, 5);

static collcalc_status reject(collcalc_diag *diag, const char *kind, const char *text,
                              const char *format, ...)
{
    char detail[COLLCALC_DIAG_MESSAGE_MAX];
    char shown[QUOTE_BUFFER];
    va_list args;
    va_start(args, format);
    int written = vsnprintf(detail, sizeof detail, format, args);
    va_end(args);
    if (written < 0)
        detail[0] = '\0';
    return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "invalid %s '%s': %s", kind,
                              quote_all(shown, text), detail);
}

/* ------------------------------------------------------- lexical helpers */

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_ascii_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static char ascii_lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static bool starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

static bool starts_with_ignoring_case(const char *text, const char *prefix)
{
    for (; *prefix != '\0'; text++, prefix++)
        if (ascii_lower(*text) != *prefix)
            return false;
    return true;
}

/* Byte length of a space at text (ASCII white space, or the no-break and
 * thin spaces that copy-paste from documents brings), else 0. */
static size_t space_length(const char *text)
{
    switch (text[0]) {
    case ' ': case '\t': case '\n': case '\v': case '\f': case '\r':
        return 1;
    default:
        break;
    }
    if (starts_with(text, "\xC2\xA0"))
        return 2;
    if (starts_with(text, "\xE2\x80\x89") || starts_with(text, "\xE2\x80\xAF"))
        return 3;
    return 0;
}

static bool contains_space(const char *text)
{
    for (; *text != '\0'; text++)
        if ((unsigned char)*text <= ' ' || (unsigned char)*text >= 0x80) /* else not a space */
            if (space_length(text) > 0)
                return true;
    return false;
}

/* Positions of a decimal number "digits[.digits]" (no exponent: units.h) that
 * starts at text[0] (a digit). */
typedef struct {
    size_t int_end;    /* integer digits are [0, int_end) */
    size_t frac_begin; /* fraction digits are [frac_begin, frac_end) */
    size_t frac_end;
    bool has_dot;
    bool dot_without_digit; /* "1." or "1.K": refused everywhere */
    size_t end;             /* first byte after the number */
} decimal_span;

static decimal_span scan_decimal(const char *text)
{
    decimal_span span = {0, 0, 0, false, false, 0};
    size_t i = 0;
    while (is_digit(text[i]))
        i++;
    span.int_end = i;
    span.frac_begin = span.frac_end = i;
    if (text[i] == '.') {
        span.has_dot = true;
        i++;
        span.frac_begin = i;
        while (is_digit(text[i]))
            i++;
        span.frac_end = i;
        span.dot_without_digit = span.frac_begin == span.frac_end;
    }
    span.end = i;
    return span;
}

/* True when text starts like an exponent ("e6", "E+3") that sizes refuse. */
static bool looks_like_exponent(const char *text)
{
    if (text[0] != 'e' && text[0] != 'E')
        return false;
    size_t j = 1;
    if (text[j] == '+' || text[j] == '-')
        j++;
    return is_digit(text[j]);
}

/* Checks shared by sizes, times and bandwidths, which all must start with a
 * digit. example is shown when nothing else would help. */
static collcalc_status check_quantity_start(const char *text, const char *kind,
                                            const char *example, collcalc_diag *diag)
{
    if (is_digit(text[0]) && !(text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) &&
        !contains_space(text))
        return COLLCALC_OK; /* the usual case, decided at once */
    if (text[0] == '\0')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "invalid %s: the text is empty; expected e.g. %s", kind,
                                  example);
    if (contains_space(text))
        return reject(diag, kind, text, "spaces are not allowed (write e.g. %s)", example);
    if (text[0] == '-')
        return reject(diag, kind, text, "a %s cannot be negative", kind);
    if (text[0] == '+')
        return reject(diag, kind, text, "signs are not allowed (write e.g. %s)", example);
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        return reject(diag, kind, text, "hexadecimal is not allowed; write it in decimal");
    if (starts_with_ignoring_case(text, "nan") || starts_with_ignoring_case(text, "inf"))
        return reject(diag, kind, text, "not a number (nan and infinity are not allowed)");
    if (text[0] == '.')
        return reject(diag, kind, text, "write a digit before the '.' (e.g. '0.5')");
    if (!is_digit(text[0])) {
        char shown[QUOTE_BUFFER];
        return reject(diag, kind, text, "expected a number first, found '%s' (e.g. %s)",
                      quote(shown, text, 1), example);
    }
    return COLLCALC_OK;
}

/* Finds the longest name in names[] that text starts with, or -1. */
static int longest_unit(const char *text, const char *const *names, size_t count)
{
    int best = -1;
    size_t best_length = 0;
    for (size_t i = 0; i < count; i++) {
        size_t length = strlen(names[i]);
        if (length > best_length && strncmp(text, names[i], length) == 0) {
            best = (int)i;
            best_length = length;
        }
    }
    return best;
}

/* Explains why suffix (non-empty, after the number) is not exactly one of
 * names[]; unit_list is appended so the user sees what would work. */
static collcalc_status reject_unit(collcalc_diag *diag, const char *kind, const char *text,
                                   const char *suffix, const char *const *names,
                                   size_t count, const char *unit_list)
{
    char shown_rest[QUOTE_BUFFER];
    int match = longest_unit(suffix, names, count);
    if (match >= 0) {
        char shown_unit[QUOTE_BUFFER];
        size_t length = strlen(names[match]);
        return reject(diag, kind, text, "unexpected '%s' after the unit '%s' (units: %s)",
                      quote_all(shown_rest, suffix + length),
                      quote(shown_unit, suffix, length), unit_list);
    }
    if (suffix[0] == ',' || suffix[0] == '_' || suffix[0] == '\'')
        return reject(diag, kind, text, "digit separators are not allowed");
    if (suffix[0] == '.')
        return reject(diag, kind, text, "a number has at most one '.'");
    if (!is_ascii_letter(suffix[0]) && (unsigned char)suffix[0] < 0xC2)
        return reject(diag, kind, text, "unexpected '%s' after the number",
                      quote(shown_rest, suffix, 1));
    return reject(diag, kind, text, "unknown unit '%s' (units: %s)",
                  quote_all(shown_rest, suffix), unit_list);
}

/* ------------------------------------------------------------------ sizes */

/* The size units and their bytes, pair by pair in the same order: the
 * units people write most first (an exact match stops the search). */
#define KIB (UINT64_C(1) << 10)
#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)
#define TIB (UINT64_C(1) << 40)
#define PIB (UINT64_C(1) << 50)
static const char *const size_unit_names[] = {
    "MB", "GB", "MiB", "GiB", "KiB", "kB", "KB", "TB", "TiB", "PB", "PiB",
    "B",  "K",  "M",   "G",   "k",   "m",  "g",  "T",  "t",   "P",  "p",
};
static const uint64_t size_unit_multipliers[] = {
    UINT64_C(1000000), UINT64_C(1000000000), MIB, GIB, KIB, UINT64_C(1000), UINT64_C(1000),
    UINT64_C(1000000000000), TIB, UINT64_C(1000000000000000), PIB,
    1, KIB, MIB, GIB, KIB, MIB, GIB, TIB, TIB, PIB, PIB,
};
_Static_assert(sizeof size_unit_names / sizeof size_unit_names[0] ==
                   sizeof size_unit_multipliers / sizeof size_unit_multipliers[0],
               "a multiplier for every size unit");
#define SIZE_UNIT_COUNT (sizeof size_unit_names / sizeof size_unit_names[0])

/* Where a size unit is looked up, instead of trying each name in turn
 * (which mispredicts on mixed units): the unit's bytes packed in a word
 * (first byte lowest, at most three bytes) times SIZE_UNIT_HASH, whose top
 * five bits pick one of 32 slots; a slot holds 1 + the unit's index in
 * size_unit_names, 0 for none. The multiplier was searched so that no two
 * units share a slot. The name is compared after, so a slot out of place
 * can only refuse its unit, never take another: test_units reads every
 * unit and every other suffix of up to three letters. */
#define SIZE_UNIT_HASH 0x03B96D91u
static const unsigned char SIZE_UNIT_SLOTS[32] = {
    [29] = 1 + 0 /* MB */, [26] = 1 + 1 /* GB */,  [13] = 1 + 2 /* MiB */, [10] = 1 + 3 /* GiB */,
    [12] = 1 + 4 /* KiB */, [11] = 1 + 5 /* kB */, [28] = 1 + 6 /* KB */,  [0] = 1 + 7 /* TB */,
    [16] = 1 + 8 /* TiB */, [31] = 1 + 9 /* PB */, [14] = 1 + 10 /* PiB */, [30] = 1 + 11 /* B */,
    [2] = 1 + 12 /* K */,   [3] = 1 + 13 /* M */,  [1] = 1 + 14 /* G */,   [17] = 1 + 15 /* k */,
    [18] = 1 + 16 /* m */,  [15] = 1 + 17 /* g */, [7] = 1 + 18 /* T */,   [22] = 1 + 19 /* t */,
    [5] = 1 + 20 /* P */,   [20] = 1 + 21 /* p */,
};
_Static_assert(SIZE_UNIT_COUNT == 22, "a new size unit needs a slot in SIZE_UNIT_SLOTS");

/* The index in size_unit_names of the unit that text is exactly, or -1
 * (both the one-pass reading and the whole grammar look units up here). */
static int size_unit_by_slot(const char *text)
{
    uint32_t word = 0;
    size_t n = 0;
    while (n < 4 && text[n] != '\0') {
        word |= (uint32_t)(unsigned char)text[n] << (8 * n);
        n++;
    }
    int unit = (int)SIZE_UNIT_SLOTS[(uint32_t)(word * SIZE_UNIT_HASH) >> 27] - 1;
    if (unit < 0 || n == 4)
        return -1;
    const char *name = size_unit_names[unit];
    for (size_t k = 0; k <= n; k++) /* stops at name's NUL: text[k] is not one before n */
        if (name[k] != text[k])
            return -1;
    return unit;
}
#define SIZE_UNIT_LIST "B, kB/KB, MB, GB, TB, PB, KiB, MiB, GiB, TiB, PiB, K, M, G, T, P"

/* Recognises a bit unit ("b", "Mb", "mb", "Gbit", "Kibits"): a lowercase
 * final b means bits, the classic factor-8 mistake. Fills the bytes unit the
 * user probably meant and the spoken name of the bit unit. */
static bool is_bit_unit(const char *suffix, char suggestion[8], const char **spoken)
{
    static const char prefixes[] = "kmgtp";
    static const char *const si_words[] = {"kilobits", "megabits", "gigabits", "terabits",
                                           "petabits"};
    static const char *const iec_words[] = {"kibibits", "mebibits", "gibibits", "tebibits",
                                            "pebibits"};
    const char *p = suffix;
    int prefix = -1;
    bool binary = false;
    const char *found = *p != '\0' ? strchr(prefixes, ascii_lower(*p)) : NULL;
    if (found != NULL) {
        prefix = (int)(found - prefixes);
        p++;
        if (*p == 'i') {
            binary = true;
            p++;
        }
    }
    if (strcmp(p, "b") != 0 && strcmp(p, "bit") != 0 && strcmp(p, "bits") != 0)
        return false;
    if (prefix < 0) {
        snprintf(suggestion, 8, "B");
        *spoken = "bits";
    } else if (binary) {
        snprintf(suggestion, 8, "%ciB", "KMGTP"[prefix]);
        *spoken = iec_words[prefix];
    } else {
        snprintf(suggestion, 8, "%cB", "kMGTP"[prefix]);
        *spoken = si_words[prefix];
    }
    return true;
}

/* Overflow-checked arithmetic (the compilers' builtins where they exist:
 * no division per digit; batch parses sizes by the million). */
static bool checked_multiply(uint64_t a, uint64_t b, uint64_t *out)
{
#if defined(__GNUC__) || defined(__clang__)
    return !__builtin_mul_overflow(a, b, out);
#else
    if (a != 0 && b > UINT64_MAX / a)
        return false;
    *out = a * b;
    return true;
#endif
}

static bool checked_add(uint64_t a, uint64_t b, uint64_t *out)
{
    if (b > UINT64_MAX - a)
        return false;
    *out = a + b;
    return true;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* 10^19 is the largest power of ten in a uint64_t, which bounds how many
 * significant fraction digits can be handled exactly. */
enum { SIZE_FRACTION_DIGITS_MAX = 19 };

/* The usual size, "<digits>[unit]" with at most 18 digits (so no
 * overflow before the unit), read in one pass. False sends anything else
 * to the whole grammar (collcalc_size_bytes_parse), which gives these the
 * same bytes. */
static bool parse_plain_size(const char *text, uint64_t *out_bytes)
{
    uint64_t integer = 0;
    size_t i = 0;
    unsigned digit;
    while ((digit = (unsigned)(unsigned char)text[i] - '0') <= 9 && i < 18) {
        integer = integer * 10 + digit;
        i++;
    }
    if (i == 0 || digit <= 9)
        return false;
    uint64_t multiplier = 1;
    if (text[i] != '\0') {
        int unit = size_unit_by_slot(text + i);
        if (unit < 0)
            return false;
        multiplier = size_unit_multipliers[unit];
    }
    uint64_t bytes;
    if (!checked_multiply(integer, multiplier, &bytes) || bytes > INT64_MAX)
        return false;
    *out_bytes = bytes;
    return true;
}

collcalc_status collcalc_size_bytes_parse(const char *text, uint64_t *out_bytes,
                                          collcalc_diag *diag)
{
    uint64_t plain_bytes;
    if (text != NULL && parse_plain_size(text, &plain_bytes)) {
        if (out_bytes != NULL)
            *out_bytes = plain_bytes;
        return COLLCALC_OK;
    }
    static const char kind[] = "size";
    static const char example[] = "'4096', '8M' or '1GiB'";
    /* Every output prints a size as a signed 64-bit integer (units.h). */
    const char *too_large = "too large: the largest size is 9223372036854775807 bytes (8 EiB)";
    if (text == NULL)
        text = "";
    collcalc_status status = check_quantity_start(text, kind, example, diag);
    if (status != COLLCALC_OK)
        return status;

    decimal_span span = scan_decimal(text);
    if (span.dot_without_digit)
        return reject(diag, kind, text, "write a digit after the '.' (e.g. '1.0')");
    const char *suffix = text + span.end;

    uint64_t multiplier = 1;
    if (suffix[0] != '\0') {
        char suggestion[8];
        const char *spoken = NULL;
        int unit = size_unit_by_slot(suffix);
        if (unit >= 0) {
            multiplier = size_unit_multipliers[unit];
        } else if (is_bit_unit(suffix, suggestion, &spoken)) {
            char shown[QUOTE_BUFFER];
            return reject(diag, kind, text,
                          "sizes are in bytes: '%s' means %s; did you mean '%s'?",
                          quote_all(shown, suffix), spoken, suggestion);
        } else if (looks_like_exponent(suffix)) {
            return reject(diag, kind, text, "%s", EXPONENT_REFUSED);
        } else if (strstr(suffix, "/s") != NULL ||
                   (strlen(suffix) >= 2 && strcmp(suffix + strlen(suffix) - 2, "ps") == 0)) {
            char shown[QUOTE_BUFFER];
            return reject(diag, kind, text, "'%s' is a bandwidth unit; a size takes %s",
                          quote_all(shown, suffix), SIZE_UNIT_LIST);
        } else {
            return reject_unit(diag, kind, text, suffix, size_unit_names, SIZE_UNIT_COUNT,
                               SIZE_UNIT_LIST);
        }
    } else if (span.has_dot) {
        return reject(diag, kind, text,
                      "a plain number is whole bytes; a fraction needs a unit (e.g. '1.5K')");
    }

    /* Nineteen digits cannot overflow (10^19 - 1 < 2^64); any after them
     * are checked. */
    uint64_t integer = 0;
    size_t unchecked = span.int_end < 19 ? span.int_end : 19;
    for (size_t i = 0; i < unchecked; i++)
        integer = integer * 10 + (uint64_t)(text[i] - '0');
    for (size_t i = unchecked; i < span.int_end; i++)
        if (!checked_multiply(integer, 10, &integer) ||
            !checked_add(integer, (uint64_t)(text[i] - '0'), &integer))
            return reject(diag, kind, text, "%s", too_large);

    /* Trailing zeros do not change the value, and dropping them keeps
     * "1.50000000000000000000GB" within exact integer arithmetic. */
    size_t frac_end = span.frac_end;
    while (frac_end > span.frac_begin && text[frac_end - 1] == '0')
        frac_end--;
    size_t digits = frac_end - span.frac_begin;
    if (digits > SIZE_FRACTION_DIGITS_MAX)
        return reject(diag, kind, text, "too many digits after the '.' (at most %d)",
                      SIZE_FRACTION_DIGITS_MAX);
    if (digits == 0) { /* a whole number of units */
        uint64_t bytes;
        if (!checked_multiply(integer, multiplier, &bytes) || bytes > INT64_MAX)
            return reject(diag, kind, text, "%s", too_large);
        if (out_bytes != NULL)
            *out_bytes = bytes;
        return COLLCALC_OK;
    }
    uint64_t fraction = 0, scale = 1;
    for (size_t i = span.frac_begin; i < frac_end; i++) {
        fraction = fraction * 10 + (uint64_t)(text[i] - '0');
        scale *= 10;
    }

    /* fraction/scale * multiplier is whole exactly when the reduced
     * denominator divides the fraction; the quotient is below multiplier. */
    uint64_t common = gcd_u64(multiplier, scale);
    uint64_t denominator = scale / common;
    if (fraction % denominator != 0)
        return reject(diag, kind, text, "not a whole number of bytes");
    uint64_t fraction_bytes, bytes;
    if (!checked_multiply(fraction / denominator, multiplier / common, &fraction_bytes) ||
        !checked_multiply(integer, multiplier, &bytes) ||
        !checked_add(bytes, fraction_bytes, &bytes) || bytes > INT64_MAX)
        return reject(diag, kind, text, "%s", too_large);
    if (out_bytes != NULL)
        *out_bytes = bytes;
    return COLLCALC_OK;
}

/* ------------------------------------------------------ times, bandwidths */

/* Whether the number of span is zero ("0", "0.00"). */
static bool is_zero(const char *text, decimal_span span)
{
    for (size_t i = 0; i < span.end; i++)
        if (text[i] != '0' && text[i] != '.')
            return false;
    return true;
}

/* Parses "number unit" where number is a strtod-compatible decimal and unit
 * one of names[] exactly; factors[] convert to the result unit. */
static collcalc_status parse_scaled(const char *text, const char *kind, const char *example,
                                    const char *const *names, const double *factors,
                                    size_t count, const char *unit_list,
                                    bool zero_needs_no_unit, double *out_value,
                                    collcalc_diag *diag)
{
    if (text == NULL)
        text = "";
    collcalc_status status = check_quantity_start(text, kind, example, diag);
    if (status != COLLCALC_OK)
        return status;
    decimal_span span = scan_decimal(text);
    if (span.dot_without_digit)
        return reject(diag, kind, text, "write a digit after the '.' (e.g. '1.0')");
    const char *suffix = text + span.end;
    if (looks_like_exponent(suffix))
        return reject(diag, kind, text, "%s", EXPONENT_REFUSED);
    if (suffix[0] == '\0' && zero_needs_no_unit && is_zero(text, span)) {
        if (out_value != NULL)
            *out_value = 0.0;
        return COLLCALC_OK;
    }
    if (suffix[0] == '\0')
        return reject(diag, kind, text, "a unit is required (%s), e.g. %s", unit_list,
                      example);
    int unit = longest_unit(suffix, names, count);
    if (unit < 0 || strcmp(suffix, names[unit]) != 0)
        return reject_unit(diag, kind, text, suffix, names, count, unit_list);

    /* The grammar above is a subset of strtod's decimal form, so strtod must
     * stop exactly where the scan did; anything else is a bug worth refusing. */
    char *end = NULL;
    errno = 0;
    double number = strtod(text, &end);
    if (end != suffix)
        return reject(diag, kind, text, "not a decimal number");
    double value = number * factors[unit];
    if (!isfinite(number) || !isfinite(value))
        return reject(diag, kind, text, "too large");
    if (out_value != NULL)
        *out_value = value;
    return COLLCALC_OK;
}

collcalc_status collcalc_time_us_parse(const char *text, double *out_us, collcalc_diag *diag)
{
    static const char *const names[] = {"ns", "us", "\xC2\xB5s", "\xCE\xBCs", "ms", "s"};
    static const double factors[] = {1e-3, 1.0, 1.0, 1.0, 1e3, 1e6};
    return parse_scaled(text, "time", "'5us' or '1.5ms'", names, factors,
                        sizeof names / sizeof names[0], "ns, us, \xC2\xB5s, ms, s", true,
                        out_us, diag);
}

collcalc_status collcalc_parse_bandwidth_GBps(const char *text, double *out_GBps,
                                              collcalc_diag *diag)
{
    static const char *const names[] = {"MB/s", "GB/s", "TB/s", "MBps", "GBps", "TBps",
                                        "Mb/s", "Gb/s", "Tb/s", "Mbps", "Gbps", "Tbps"};
    static const double factors[] = {1e-3,      1.0,      1e3,     1e-3,     1.0,
                                     1e3,       1e-3 / 8, 1.0 / 8, 1e3 / 8,  1e-3 / 8,
                                     1.0 / 8,   1e3 / 8};
    static const char kind[] = "bandwidth";
    static const char example[] = "'900GB/s' or '400Gb/s'";
    if (text != NULL && text[0] != '\0') {
        /* "400G" is how NICs are sold, but it is ambiguous by a factor of 8. */
        decimal_span span = scan_decimal(text);
        const char *suffix = text + span.end;
        /* The number is echoed twice: keep it short. */
        int digits = span.end < 24 ? (int)span.end : 24;
        if (is_digit(text[0]) && !span.dot_without_digit &&
            (strcmp(suffix, "M") == 0 || strcmp(suffix, "G") == 0 || strcmp(suffix, "T") == 0))
            return reject(diag, kind, text,
                          "ambiguous unit '%s': write '%.*s%sb/s' for bits or '%.*s%sB/s' "
                          "for bytes",
                          suffix, digits, text, suffix, digits, text, suffix);
    }
    double value = 0.0;
    collcalc_status status = parse_scaled(
        text, kind, example, names, factors, sizeof names / sizeof names[0],
        "MB/s, GB/s, TB/s, MBps, GBps, TBps; bits: Mb/s, Gb/s, Tb/s, Mbps, Gbps, Tbps", false,
        &value, diag);
    if (status != COLLCALC_OK)
        return status;
    if (!(value > 0.0))
        return reject(diag, kind, text, "must be greater than zero");
    if (out_GBps != NULL)
        *out_GBps = value;
    return COLLCALC_OK;
}

/* ---------------------------------------------------- counts and numbers */

collcalc_status collcalc_count_parse(const char *text, long min_value, long max_value,
                                     long *out_value, collcalc_diag *diag)
{
    char shown[QUOTE_BUFFER];
    if (text == NULL || text[0] == '\0')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "expected a whole number, got nothing");
    quote_all(shown, text);
    if (min_value > max_value)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' cannot be checked: empty range %ld..%ld", shown,
                                  min_value, max_value);
    if (contains_space(text))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is not a whole number: spaces are not allowed", shown);
    size_t start = (text[0] == '-') ? 1 : 0;
    size_t i = start;
    while (is_digit(text[i]))
        i++;
    bool all_digits = i > start && text[i] == '\0';
    if (all_digits && start == 1 && min_value >= 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is out of range: must be between %ld and %ld", shown,
                                  min_value, max_value);
    if (text[0] == '-' || text[0] == '+')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is not a whole number: write it without a sign", shown);
    if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is not a whole number: write it in decimal", shown);
    if (!all_digits && i > start && looks_like_exponent(text + i))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "'%s' is not a whole number: %s",
                                  shown, EXPONENT_REFUSED);
    if (!all_digits)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "'%s' is not a whole number",
                                  shown);

    errno = 0;
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (errno == ERANGE || *end != '\0' || value < min_value || value > max_value)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is out of range: must be between %ld and %ld", shown,
                                  min_value, max_value);
    if (out_value != NULL)
        *out_value = value;
    return COLLCALC_OK;
}

collcalc_status collcalc_number_parse(const char *text, double min_value, double max_value,
                                      double *out_value, collcalc_diag *diag)
{
    char shown[QUOTE_BUFFER];
    if (text == NULL || text[0] == '\0')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "expected a number, got nothing");
    quote_all(shown, text);
    if (!(min_value <= max_value))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' cannot be checked: empty range", shown);
    if (contains_space(text))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is not a number: spaces are not allowed", shown);
    /* A sign is fine here: the range, not the grammar, decides "-1". */
    size_t start = (text[0] == '-' || text[0] == '+') ? 1 : 0;
    const char *body = text + start;
    if (starts_with_ignoring_case(body, "nan") || starts_with_ignoring_case(body, "inf"))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is not a number (nan and infinity are not allowed)",
                                  shown);
    if (body[0] == '0' && (body[1] == 'x' || body[1] == 'X'))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is not a number: write it in decimal", shown);
    if (body[0] == '.')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is not a number: write a digit before the '.'", shown);
    decimal_span span = scan_decimal(body);
    if (is_digit(body[0]) && !span.dot_without_digit && looks_like_exponent(body + span.end))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "'%s' is not a number: %s",
                                  shown, EXPONENT_REFUSED);
    if (!is_digit(body[0]) || span.dot_without_digit || body[span.end] != '\0')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "'%s' is not a number", shown);

    errno = 0;
    char *end = NULL;
    double value = strtod(text, &end);
    if (*end != '\0')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "'%s' is not a number", shown);
    if (!isfinite(value) || value < min_value || value > max_value)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is out of range: must be between %.15g and %.15g", shown,
                                  min_value, max_value);
    if (value == 0.0)
        value = fabs(value); /* "-0" must not print as "-0" later */
    if (out_value != NULL)
        *out_value = value;
    return COLLCALC_OK;
}

/* ------------------------------------------------------------- formatting */

/* Copies the finished text into the caller's buffer, truncating safely. */
static char *finish(char *buffer, size_t buffer_size, const char *text)
{
    if (buffer == NULL || buffer_size == 0)
        return buffer;
    size_t length = strlen(text);
    if (length >= buffer_size)
        length = buffer_size - 1;
    memcpy(buffer, text, length);
    buffer[length] = '\0';
    return buffer;
}

/* Writes value (finite, > 0) with 3 significant digits: 2 decimals below
 * 10, 1 below 100, none from 100, and enough for 3 digits below 1
 * ("0.188"). Decimals are re-chosen after rounding so 9.996 gives "10.0",
 * not "10.00". Returns how many digits the rounded integer part has. */
static size_t format_3_significant(char *out, size_t out_size, double value)
{
    int decimals;
    if (value >= 100.0)
        decimals = 0;
    else if (value >= 10.0)
        decimals = 1;
    else if (value >= 1.0)
        decimals = 2;
    else
        decimals = 2 - (int)floor(log10(value));
    for (;;) {
        snprintf(out, out_size, "%.*f", decimals, value);
        int significant = 0;
        bool leading = true;
        for (const char *p = out; *p != '\0'; p++) {
            if (!is_digit(*p) || (leading && *p == '0'))
                continue;
            leading = false;
            significant++;
        }
        if (significant <= 3 || decimals == 0)
            break;
        decimals--;
    }
    return strcspn(out, ".");
}

typedef struct {
    const char *name;
    double scale; /* value of one of this unit in the caller's base unit */
} unit_step;

/* Below 1e-3 of the smallest unit or from 1e15 of the largest the plain
 * form is unreadable (and unbounded in length), so those use "1.23e-05". */
static const double TINY = 1e-3, HUGE_PLAIN = 1e15;

/* Formats magnitude (finite, > 0) in the largest unit it reaches, moving up
 * one unit when rounding makes it 1000 ("999.7 MB" -> "1.00 GB"). whole_in
 * says which units print exact whole multiples as integers. */
static void format_ladder(char *out, size_t out_size, double magnitude, const unit_step *units,
                          size_t count, bool (*whole_in)(size_t index, double scaled))
{
    size_t index = 0;
    while (index + 1 < count && magnitude >= units[index + 1].scale)
        index++;
    char number[NUMBER_BUFFER];
    for (;;) {
        double scaled = magnitude / units[index].scale;
        if ((index == 0 && scaled < TINY) || scaled >= HUGE_PLAIN) {
            snprintf(number, sizeof number, "%.2e", scaled);
        } else if (whole_in != NULL && whole_in(index, scaled)) {
            snprintf(number, sizeof number, "%.0f", scaled);
        } else if (format_3_significant(number, sizeof number, scaled) > 3 &&
                   index + 1 < count) {
            index++;
            continue;
        }
        snprintf(out, out_size, "%s %s", number, units[index].name);
        return;
    }
}

/* Shared front of every human format: n/a, zero and sign handling. */
static bool format_special(char *local, size_t local_size, double value, const char *zero)
{
    if (!isfinite(value)) {
        snprintf(local, local_size, "n/a");
        return true;
    }
    if (value == 0.0) {
        snprintf(local, local_size, "%s", zero);
        return true;
    }
    return false;
}

static bool whole_bytes_only(size_t index, double scaled)
{
    return index == 0 && scaled == floor(scaled);
}

static bool whole_multiple(size_t index, double scaled)
{
    (void)index;
    return scaled == floor(scaled);
}

/* A human quantity on a unit ladder: n/a, the zero text, a sign, then the
 * magnitude in the largest unit that keeps it >= 1. */
static char *format_on_ladder(char *buffer, size_t buffer_size, double value, const char *zero,
                              const unit_step *units, size_t count,
                              bool (*whole_in)(size_t index, double scaled))
{
    char local[FORMAT_BUFFER];
    if (!format_special(local, sizeof local, value, zero)) {
        local[0] = '-';
        size_t skip = value < 0 ? 1 : 0;
        format_ladder(local + skip, sizeof local - skip, fabs(value), units, count, whole_in);
    }
    return finish(buffer, buffer_size, local);
}

char *collcalc_bytes_format_si(char *buffer, size_t buffer_size, double bytes)
{
    static const unit_step units[] = {{"B", 1.0},   {"kB", 1e3},  {"MB", 1e6},
                                      {"GB", 1e9},  {"TB", 1e12}, {"PB", 1e15},
                                      {"EB", 1e18}};
    return format_on_ladder(buffer, buffer_size, bytes, "0 B", units, sizeof units / sizeof units[0],
                            whole_bytes_only);
}

char *collcalc_bytes_format_iec(char *buffer, size_t buffer_size, double bytes)
{
    static const unit_step units[] = {
        {"B", 1.0},           {"KiB", 1024.0},           {"MiB", 1048576.0},
        {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}, {"PiB", 1125899906842624.0},
        {"EiB", 1152921504606846976.0}};
    return format_on_ladder(buffer, buffer_size, bytes, "0 B", units, sizeof units / sizeof units[0],
                            whole_multiple);
}

char *collcalc_time_us_format(char *buffer, size_t buffer_size, double time_us)
{
    static const unit_step units[] = {{"ns", 1e-3}, {"us", 1.0}, {"ms", 1e3}, {"s", 1e6}};
    return format_on_ladder(buffer, buffer_size, time_us, "0 us", units, sizeof units / sizeof units[0],
                            NULL);
}

/* Writes value with a comma every three digits into out (>= 27 bytes). */
static void group_digits(char *out, uint64_t value)
{
    char digits[24];
    int count = snprintf(digits, sizeof digits, "%llu", (unsigned long long)value);
    size_t used = 0;
    for (int i = 0; i < count; i++) {
        if (i > 0 && (count - i) % 3 == 0)
            out[used++] = ',';
        out[used++] = digits[i];
    }
    out[used] = '\0';
}

char *collcalc_format_bandwidth_GBps(char *buffer, size_t buffer_size, double GBps)
{
    char local[FORMAT_BUFFER];
    if (format_special(local, sizeof local, GBps, "0 GB/s"))
        return finish(buffer, buffer_size, local);
    double magnitude = fabs(GBps);
    char number[NUMBER_BUFFER];
    if (magnitude < TINY || magnitude >= HUGE_PLAIN)
        snprintf(number, sizeof number, "%.2e", magnitude);
    else if (magnitude >= 1000.0 || format_3_significant(number, sizeof number, magnitude) > 3)
        group_digits(number, (uint64_t)round(magnitude));
    snprintf(local, sizeof local, "%s%s GB/s", GBps < 0 ? "-" : "", number);
    return finish(buffer, buffer_size, local);
}

char *collcalc_u64_format_grouped(char *buffer, size_t buffer_size, uint64_t value)
{
    char local[32];
    group_digits(local, value);
    return finish(buffer, buffer_size, local);
}
