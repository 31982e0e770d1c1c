/* Table-driven tests of the units module: every accepted form, every
 * rejection with its message, and exact formatting output. */
#include "support.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/units.h"
#include "helpers.h"

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

typedef struct {
    const char *input;
    uint64_t bytes;
} size_ok_case;

typedef struct {
    const char *input;
    const char *message; /* substring expected in the diagnostic */
} bad_case;

typedef struct {
    const char *input;
    double value;
} double_ok_case;

typedef struct {
    double value;
    const char *text;
} format_case;

/* Asserts a rejection: status, untouched output, and a one-line message
 * containing want. */
static void check_message(collcalc_status status, const collcalc_diag *diag,
                          const char *input, const char *want)
{
    if (status != COLLCALC_ERR_INVALID || strstr(diag->message, want) == NULL) {
        print_error("input '%s': status %d, message \"%s\", wanted \"%s\"\n", input,
                    (int)status, diag->message, want);
        fail();
    }
    assert_null(strchr(diag->message, '\n'));
}

static void check_close(const char *input, double got, double want)
{
    double tolerance = fabs(want) * 1e-12;
    if (!(fabs(got - want) <= tolerance)) {
        print_error("input '%s': got %.17g, wanted %.17g\n", input, got, want);
        fail();
    }
}

/* ------------------------------------------------------------------ sizes */

static const size_ok_case size_ok[] = {
    {"0", 0},
    {"1", 1},
    {"4096", 4096},
    {"4096B", 4096},
    {"1P", UINT64_C(1) << 50}, /* nccl-tests-style binary P, as K/M/G/T */
    {"2p", UINT64_C(2) << 50},
    {"1PiB", UINT64_C(1) << 50},
    {"1PB", UINT64_C(1000000000000000)},
    {"007", 7},
    {"100MB", UINT64_C(100000000)},
    {"100MiB", UINT64_C(104857600)},
    {"1kB", 1000},
    {"1KB", 1000},
    {"2GB", UINT64_C(2000000000)},
    {"3TB", UINT64_C(3000000000000)},
    {"1PB", UINT64_C(1000000000000000)},
    {"1KiB", 1024},
    {"1GiB", UINT64_C(1073741824)},
    {"1TiB", UINT64_C(1099511627776)},
    {"1PiB", UINT64_C(1125899906842624)},
    {"8", 8},
    {"8K", 8192},
    {"8k", 8192},
    {"1M", UINT64_C(1048576)},
    {"1m", UINT64_C(1048576)},
    {"1G", UINT64_C(1073741824)},
    {"1g", UINT64_C(1073741824)},
    {"2T", UINT64_C(2199023255552)},
    {"2t", UINT64_C(2199023255552)},
    {"1.5GiB", UINT64_C(1610612736)},
    {"1.1KB", 1100},
    {"0.5K", 512},
    {"1.0B", 1},
    {"1.50000000000000000000000000GB", UINT64_C(1500000000)},
    {"0.001kB", 1},
    {"0.0009765625KiB", 1},
    {"175MB", UINT64_C(175000000)},
    {"9223372036854775807", INT64_MAX}, /* the largest: results print sizes as int64 */
    {"9223372036854775807B", INT64_MAX},
    {"8191PiB", UINT64_C(8191) << 50},
    {"8191.9990234375PiB", (UINT64_C(8191) << 50) + (UINT64_C(1023) << 40)},
    {"0.0000019073486328125PiB", UINT64_C(2147483648)}, /* 2^-19: 19 digits, the most */
};

static const bad_case size_bad[] = {
    {"", "invalid size: the text is empty"},
    {" 8M", "invalid size ' 8M': spaces are not allowed"},
    {"8M ", "spaces are not allowed"},
    {"8 M", "invalid size '8 M': spaces are not allowed"},
    {"8\tM", "invalid size '8\\x09M': spaces are not allowed"},
    {"8\xC2\xA0M", "spaces are not allowed"},
    {"-1", "invalid size '-1': a size cannot be negative"},
    {"+1", "invalid size '+1': signs are not allowed"},
    {"0x10", "invalid size '0x10': hexadecimal is not allowed"},
    {"0X10", "hexadecimal is not allowed"},
    {"nan", "invalid size 'nan': not a number"},
    {"NaN", "not a number"},
    {"inf", "invalid size 'inf': not a number"},
    {"Infinity", "not a number"},
    {"MB", "invalid size 'MB': expected a number first, found 'M'"},
    {"abc", "expected a number first"},
    {".5K", "invalid size '.5K': write a digit before the '.'"},
    {"1.K", "invalid size '1.K': write a digit after the '.'"},
    {"1.", "write a digit after the '.'"},
    {"1.5", "invalid size '1.5': a plain number is whole bytes; a fraction needs a unit"},
    {"1.0", "a fraction needs a unit"},
    {"0.3K", "invalid size '0.3K': not a whole number of bytes"},
    {"1.5B", "not a whole number of bytes"},
    {"0.0001kB", "not a whole number of bytes"},
    {"1.00000000000000000001KiB", "too many digits after the '.' (at most 19)"},
    {"0.00000095367431640625PiB", "too many digits after the '.'"}, /* 2^-20, exact but refused */
    {"0.0000000000000000001PB", "not a whole number of bytes"},
    {"8Mx", "invalid size '8Mx': unexpected 'x' after the unit 'M'"},
    {"8MBs", "invalid size '8MBs': unexpected 's' after the unit 'MB'"},
    {"8KiBB", "unexpected 'B' after the unit 'KiB'"},
    {"8x", "invalid size '8x': unknown unit 'x'"},
    {"8Q", "unknown unit 'Q' (units: B, kB/KB"},
    {"8mB", "unexpected 'B' after the unit 'm'"},
    {"8!", "invalid size '8!': unexpected '!' after the number"},
    {"1,000", "digit separators are not allowed"},
    {"1.2.3K", "a number has at most one '.'"},
    {"1e6", "invalid size '1e6': exponents are not allowed; write the digits (e.g. '1000000') "
            "or use a unit"},
    {"1E+3K", "exponents are not allowed"},
    {"1.5e3", "exponents are not allowed"},
    {"16385P", "too large"},
    {"100Mb", "invalid size '100Mb': sizes are in bytes: 'Mb' means megabits; did you mean 'MB'?"},
    {"100mb", "sizes are in bytes: 'mb' means megabits; did you mean 'MB'?"},
    {"1Gbit", "sizes are in bytes: 'Gbit' means gigabits; did you mean 'GB'?"},
    {"2Gbits", "'Gbits' means gigabits; did you mean 'GB'?"},
    {"8b", "sizes are in bytes: 'b' means bits; did you mean 'B'?"},
    {"8kb", "'kb' means kilobits; did you mean 'kB'?"},
    {"8Kb", "'Kb' means kilobits; did you mean 'kB'?"},
    {"8Mib", "'Mib' means mebibits; did you mean 'MiB'?"},
    {"1Pb", "'Pb' means petabits; did you mean 'PB'?"},
    {"8GB/s", "invalid size '8GB/s': 'GB/s' is a bandwidth unit"},
    {"100Gbps", "'Gbps' is a bandwidth unit"},
    {"18446744073709551616", "invalid size '18446744073709551616': too large"},
    {"99999999999999999999", "too large: the largest size is 9223372036854775807 bytes (8 EiB)"},
    {"9223372036854775808", "invalid size '9223372036854775808': too large"},
    {"18446744073709551615", "too large"},
    {"8192PiB", "too large"},
    {"8191.9999999999999999PiB", "not a whole number of bytes"},
    {"20000000TiB", "invalid size '20000000TiB': too large"},
    {"16384PiB", "too large"},
    {"17592186044416M", "too large"},
    {"18446744073709551615.5KiB", "too large"},
    {"8\xB5", "invalid size '8\\xB5': unexpected '\\xB5' after the number"},
    /* Echoes are cut at 60 bytes (collcalc_echo). */
    {"1234567890123456789012345678901234567890123456789012345678901234567890x",
     "invalid size '123456789012345678901234567890123456789012345678901234567890...': unknown "
     "unit 'x'"},
};

static void test_size_accepts(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(size_ok); i++) {
        collcalc_diag diag = {{0}};
        uint64_t bytes = 12345;
        collcalc_status status = collcalc_size_bytes_parse(size_ok[i].input, &bytes, &diag);
        if (status != COLLCALC_OK || bytes != size_ok[i].bytes) {
            print_error("input '%s': status %d (%s), got %llu, wanted %llu\n", size_ok[i].input,
                        (int)status, diag.message, (unsigned long long)bytes,
                        (unsigned long long)size_ok[i].bytes);
            fail();
        }
    }
}

static void test_size_rejects(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(size_bad); i++) {
        collcalc_diag diag = {{0}};
        uint64_t bytes = 12345;
        collcalc_status status = collcalc_size_bytes_parse(size_bad[i].input, &bytes, &diag);
        check_message(status, &diag, size_bad[i].input, size_bad[i].message);
        assert_int_equal(bytes, 12345);
    }
}

/* Every size unit ("" first: none) and its bytes, written out here. */
static const struct {
    const char *unit;
    uint64_t bytes;
} UNITS[] = {
    {"", 1}, {"B", 1}, {"kB", 1000}, {"KB", 1000}, {"MB", 1000000}, {"GB", 1000000000},
    {"TB", 1000000000000}, {"PB", 1000000000000000}, {"KiB", 1024}, {"MiB", 1048576},
    {"GiB", 1073741824}, {"TiB", 1099511627776}, {"PiB", 1125899906842624}, {"K", 1024},
    {"k", 1024}, {"M", 1048576}, {"m", 1048576}, {"G", 1073741824}, {"g", 1073741824},
    {"T", 1099511627776}, {"t", 1099511627776}, {"P", 1125899906842624},
    {"p", 1125899906842624},
};

/* Every unit after every digit count from 1 to 21 (the one-pass reading
 * takes up to 18 digits, the whole grammar the rest): the bytes, or "too
 * large" above 2^63 - 1, computed here in checked 64-bit arithmetic (no
 * unsigned __int128: the suite runs on i386 and armhf too). */
static void test_size_every_unit_and_digit_count(void **state)
{
    (void)state;
    for (size_t u = 0; u < COUNT_OF(UNITS); u++) {
        for (int digits = 1; digits <= 21; digits++) {
            for (int lead = 0; lead < 3; lead++) { /* 999.., 100.., 0..07 */
                char text[40];
                uint64_t number = 0;
                bool over = false; /* the number or its bytes pass 2^64 - 1 */
                for (int i = 0; i < digits; i++) {
                    char c = lead == 0 ? '9' : lead == 1 ? (i == 0 ? '1' : '0')
                                                         : (i == digits - 1 ? '7' : '0');
                    text[i] = c;
                    over |= __builtin_mul_overflow(number, 10, &number);
                    over |= __builtin_add_overflow(number, (uint64_t)(c - '0'), &number);
                }
                snprintf(text + digits, sizeof text - (size_t)digits, "%s", UNITS[u].unit);
                uint64_t want = 0;
                over |= __builtin_mul_overflow(number, UNITS[u].bytes, &want);
                uint64_t bytes = 1;
                collcalc_diag diag = {{0}};
                collcalc_status status = collcalc_size_bytes_parse(text, &bytes, &diag);
                if (over || want > (uint64_t)INT64_MAX) {
                    assert_int_equal(status, COLLCALC_ERR_INVALID);
                    assert_non_null(strstr(diag.message, "too large"));
                } else {
                    assert_int_equal(status, COLLCALC_OK);
                    assert_true(bytes == want);
                }
            }
        }
    }
}

/* The one UTF-8 decoder (core's helpers.h): lengths and code points of
 * well-formed sequences; 0 for overlong forms, surrogates, code points past
 * U+10FFFF, stray continuation bytes and cut sequences. */
static void test_utf8_decode(void **state)
{
    (void)state;
    static const struct {
        const char *bytes;
        size_t available;
        size_t length;
        uint32_t code;
    } CASES[] = {
        {"A", 1, 1, 0x41},
        {"\xC2\xB5s", 3, 2, 0xB5},
        {"\xE2\x82\xAC", 3, 3, 0x20AC},
        {"\xF0\x9F\x98\x80", 4, 4, 0x1F600},
        {"\xF4\x8F\xBF\xBF", 4, 4, 0x10FFFF},
        {"\xED\x9F\xBF", 3, 3, 0xD7FF},
        {"\xC0\x80", 2, 0, 0},         /* overlong */
        {"\xC1\xBF", 2, 0, 0},         /* overlong */
        {"\xE0\x80\x80", 3, 0, 0},     /* overlong */
        {"\xF0\x80\x80\x80", 4, 0, 0}, /* overlong */
        {"\xED\xA0\x80", 3, 0, 0},     /* a surrogate */
        {"\xF4\x90\x80\x80", 4, 0, 0}, /* past U+10FFFF */
        {"\xF5\x80\x80\x80", 4, 0, 0},
        {"\x80", 1, 0, 0},             /* a continuation byte */
        {"\xE2\x82\xAC", 2, 0, 0},     /* cut by available */
        {"\xE2\x82", 4, 0, 0},         /* cut by the NUL */
        {"\xE2\x28\xAC", 3, 0, 0},     /* not a continuation */
        {"A", 0, 0, 0},
    };
    for (size_t i = 0; i < COUNT_OF(CASES); i++) {
        uint32_t code = 0xFFFFFFFF;
        size_t length =
            collcalc_utf8_decode((const unsigned char *)CASES[i].bytes, CASES[i].available, &code);
        if (length != CASES[i].length || (length > 0 && code != CASES[i].code)) {
            print_error("case %zu: length %zu code %x\n", i, length, (unsigned)code);
            fail();
        }
        assert_int_equal(collcalc_utf8_decode((const unsigned char *)CASES[i].bytes,
                                              CASES[i].available, NULL),
                         CASES[i].length);
    }
}

/* Every suffix of one to three letters after a number: a unit gives its
 * bytes, anything else is refused (the one-pass reading finds units
 * through a hashed table; the whole grammar must agree with it). */
static void test_size_short_suffixes(void **state)
{
    (void)state;
    static const char LETTERS[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    size_t taken = 0;
    for (size_t a = 0; a < 52; a++) {
        for (size_t b = 0; b <= 52; b++) {
            for (size_t c = 0; c <= 52; c++) {
                if (b == 52 && c < 52) /* "12X" + "" + letter is a two-letter suffix */
                    continue;
                char text[8] = {'1', '2', LETTERS[a], b < 52 ? LETTERS[b] : '\0',
                                c < 52 ? LETTERS[c] : '\0', '\0'};
                uint64_t want = 0;
                for (size_t u = 0; u < COUNT_OF(UNITS); u++)
                    if (strcmp(text + 2, UNITS[u].unit) == 0)
                        want = 12 * UNITS[u].bytes;
                uint64_t bytes = 0;
                collcalc_status status = collcalc_size_bytes_parse(text, &bytes, NULL);
                if (want == 0) {
                    assert_int_not_equal(status, COLLCALC_OK);
                } else {
                    assert_int_equal(status, COLLCALC_OK);
                    assert_true(bytes == want);
                    taken++;
                }
            }
        }
    }
    assert_int_equal(taken, COUNT_OF(UNITS) - 1); /* all but "" */
}

static void test_size_null_arguments(void **state)
{
    (void)state;
    uint64_t bytes = 7;
    collcalc_diag diag = {{0}};
    check_message(collcalc_size_bytes_parse(NULL, &bytes, &diag), &diag, "(null)",
                  "the text is empty");
    assert_int_equal(collcalc_size_bytes_parse("8Mx", &bytes, NULL), COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_size_bytes_parse("8M", NULL, NULL), COLLCALC_OK);
    assert_int_equal(bytes, 7);
}

/* ------------------------------------------------------------------ times */

static const double_ok_case time_ok[] = {
    {"0s", 0.0},
    {"0us", 0.0},
    {"750ns", 0.75},
    {"1ns", 0.001},
    {"5us", 5.0},
    {"1.5us", 1.5},
    {"2\xC2\xB5s", 2.0}, /* MICRO SIGN */
    {"2\xCE\xBCs", 2.0}, /* GREEK SMALL LETTER MU */
    {"1.5ms", 1500.0},
    {"3s", 3e6},
    {"1000ns", 1.0},
    {"0.0025s", 2500.0},
    {"0", 0.0}, /* zero needs no unit */
    {"0.00", 0.0},
    {"0.000001us", 1e-6},
};

static const bad_case time_bad[] = {
    {"", "invalid time: the text is empty"},
    {"5", "invalid time '5': a unit is required (ns, us, \xC2\xB5s, ms, s)"},
    {"1.5", "a unit is required"},
    {"2 us", "invalid time '2 us': spaces are not allowed"},
    {" 2us", "spaces are not allowed"},
    {"2us ", "spaces are not allowed"},
    {"-1us", "invalid time '-1us': a time cannot be negative"},
    {"+1us", "signs are not allowed"},
    {"nanus", "not a number"},
    {"infs", "not a number"},
    {"0x1us", "hexadecimal is not allowed"},
    {".5us", "write a digit before the '.'"},
    {"5.us", "write a digit after the '.'"},
    {"5usx", "invalid time '5usx': unexpected 'x' after the unit 'us'"},
    {"5sec", "unexpected 'ec' after the unit 's'"},
    {"5min", "unknown unit 'min' (units: ns, us, \xC2\xB5s, ms, s)"},
    {"5US", "unknown unit 'US'"},
    {"5\xC2\xB5", "unknown unit '\xC2\xB5'"},
    {"1e3ns", "invalid time '1e3ns': exponents are not allowed; write the digits"},
    {"2.5E-3s", "exponents are not allowed"},
    {"1e999s", "invalid time '1e999s': exponents are not allowed"},
    {"0.5", "a unit is required"},
    {"00x", "unknown unit 'x'"},
    {"us", "expected a number first, found 'u'"},
};

static void test_time_accepts(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(time_ok); i++) {
        collcalc_diag diag = {{0}};
        double us = -1.0;
        collcalc_status status = collcalc_time_us_parse(time_ok[i].input, &us, &diag);
        if (status != COLLCALC_OK) {
            print_error("input '%s': %s\n", time_ok[i].input, diag.message);
            fail();
        }
        check_close(time_ok[i].input, us, time_ok[i].value);
    }
}

static void test_time_rejects(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(time_bad); i++) {
        collcalc_diag diag = {{0}};
        double us = -1.0;
        collcalc_status status = collcalc_time_us_parse(time_bad[i].input, &us, &diag);
        check_message(status, &diag, time_bad[i].input, time_bad[i].message);
        assert_true(us == -1.0);
    }
}

/* -------------------------------------------------------------- bandwidth */

static const double_ok_case bandwidth_ok[] = {
    {"900GB/s", 900.0},
    {"900GBps", 900.0},
    {"1.8TB/s", 1800.0},
    {"1.8TBps", 1800.0},
    {"500MB/s", 0.5},
    {"500MBps", 0.5},
    {"400Gb/s", 50.0},
    {"400Gbps", 50.0},
    {"100Mb/s", 0.0125},
    {"100Mbps", 0.0125},
    {"1.6Tb/s", 200.0},
    {"1.6Tbps", 200.0},
    {"1000GB/s", 1000.0},
};

static const bad_case bandwidth_bad[] = {
    {"", "invalid bandwidth: the text is empty"},
    {"900", "invalid bandwidth '900': a unit is required"},
    {"400G", "invalid bandwidth '400G': ambiguous unit 'G': write '400Gb/s' for bits or "
             "'400GB/s' for bytes"},
    {"0GB/s", "invalid bandwidth '0GB/s': must be greater than zero"},
    {"0.0Gbps", "must be greater than zero"},
    {"1e-400GB/s", "invalid bandwidth '1e-400GB/s': exponents are not allowed"},
    {"1e-300GB/s", "exponents are not allowed"},
    {"1e3GB/s", "exponents are not allowed"},
    {"-1GB/s", "a bandwidth cannot be negative"},
    {"+1GB/s", "signs are not allowed"},
    {"900 GB/s", "spaces are not allowed"},
    {"nanGB/s", "not a number"},
    {"infGB/s", "not a number"},
    {"0x10GB/s", "hexadecimal is not allowed"},
    {"900GB/sx", "unexpected 'x' after the unit 'GB/s'"},
    {"900GiB/s", "unknown unit 'GiB/s'"},
    {"900gb/s", "unknown unit 'gb/s'"},
    {"900GB", "unknown unit 'GB' (units: MB/s, GB/s"},
    {"1e999GB/s", "exponents are not allowed"},
};

static void test_bandwidth_accepts(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(bandwidth_ok); i++) {
        collcalc_diag diag = {{0}};
        double GBps = -1.0;
        collcalc_status status =
            collcalc_parse_bandwidth_GBps(bandwidth_ok[i].input, &GBps, &diag);
        if (status != COLLCALC_OK) {
            print_error("input '%s': %s\n", bandwidth_ok[i].input, diag.message);
            fail();
        }
        check_close(bandwidth_ok[i].input, GBps, bandwidth_ok[i].value);
    }
}

static void test_bandwidth_rejects(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(bandwidth_bad); i++) {
        collcalc_diag diag = {{0}};
        double GBps = -1.0;
        collcalc_status status =
            collcalc_parse_bandwidth_GBps(bandwidth_bad[i].input, &GBps, &diag);
        check_message(status, &diag, bandwidth_bad[i].input, bandwidth_bad[i].message);
        assert_true(GBps == -1.0);
    }
}

/* ----------------------------------------------------------------- counts */

typedef struct {
    const char *input;
    long min_value, max_value;
    long value;
} count_ok_case;

typedef struct {
    const char *input;
    long min_value, max_value;
    const char *message;
} count_bad_case;

static const count_ok_case count_ok[] = {
    {"8", 1, 1000000, 8},
    {"1", 1, 1000000, 1},
    {"1000000", 1, 1000000, 1000000},
    {"0", 0, 10, 0},
    {"0008", 1, 10, 8},
    {"9223372036854775807", 0, 9223372036854775807L, 9223372036854775807L},
};

static const count_bad_case count_bad[] = {
    {"0", 1, 1000000, "'0' is out of range: must be between 1 and 1000000"},
    {"1000001", 1, 1000000, "'1000001' is out of range: must be between 1 and 1000000"},
    {"-1", 1, 1000000, "'-1' is out of range: must be between 1 and 1000000"},
    {"-1", -5, 5, "'-1' is not a whole number: write it without a sign"},
    {"+1", 1, 10, "'+1' is not a whole number: write it without a sign"},
    {"1x", 1, 10, "'1x' is not a whole number"},
    {"1.5", 1, 10, "'1.5' is not a whole number"},
    {"8M", 1, 10, "'8M' is not a whole number"},
    {"1e3", 1, 10000, "'1e3' is not a whole number: exponents are not allowed"},
    {"8E2", 1, 10000, "exponents are not allowed"},
    {"0x10", 1, 100, "'0x10' is not a whole number: write it in decimal"},
    {" 8", 1, 10, "' 8' is not a whole number: spaces are not allowed"},
    {"8 ", 1, 10, "spaces are not allowed"},
    {"", 1, 10, "expected a whole number, got nothing"},
    {"nan", 1, 10, "'nan' is not a whole number"},
    {"9223372036854775808", 0, 9223372036854775807L, "is out of range"},
    {"99999999999999999999999", 1, 10, "'99999999999999999999999' is out of range"},
    {"5", 10, 1, "empty range"},
};

static void test_count_accepts(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(count_ok); i++) {
        collcalc_diag diag = {{0}};
        long value = -99;
        collcalc_status status = collcalc_count_parse(count_ok[i].input, count_ok[i].min_value,
                                                      count_ok[i].max_value, &value, &diag);
        if (status != COLLCALC_OK || value != count_ok[i].value) {
            print_error("input '%s': status %d (%s), got %ld\n", count_ok[i].input, (int)status,
                        diag.message, value);
            fail();
        }
    }
}

static void test_count_rejects(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(count_bad); i++) {
        collcalc_diag diag = {{0}};
        long value = -99;
        collcalc_status status = collcalc_count_parse(count_bad[i].input, count_bad[i].min_value,
                                                      count_bad[i].max_value, &value, &diag);
        check_message(status, &diag, count_bad[i].input, count_bad[i].message);
        assert_int_equal(value, -99);
    }
}

/* ---------------------------------------------------------------- numbers */

typedef struct {
    const char *input;
    double min_value, max_value;
    double value;
} number_ok_case;

typedef struct {
    const char *input;
    double min_value, max_value;
    const char *message;
} number_bad_case;

static const number_ok_case number_ok[] = {
    {"0.92", 0.0, 1.0, 0.92},
    {"1", 0.0, 1.0, 1.0},
    {"0", 0.0, 1.0, 0.0},
    {"1000", 0.0, 1e6, 1000.0},
    {"0.25", 0.0, 1.0, 0.25},
    {"-2", -10.0, 10.0, -2.0},
    {"+2", -10.0, 10.0, 2.0},
    {"1000000", 1.0, 1000000.0, 1000000.0},
};

static const number_bad_case number_bad[] = {
    {"", 0.0, 1.0, "expected a number, got nothing"},
    {"1.5", 0.0, 1.0, "'1.5' is out of range: must be between 0 and 1"},
    {"-1", 0.0, 1.0, "'-1' is out of range: must be between 0 and 1"},
    {"2000000", 1.0, 1000000.0, "must be between 1 and 1000000"},
    {"1e999", 0.0, 1e300, "'1e999' is not a number: exponents are not allowed"},
    {"1e3", 0.0, 1e6, "'1e3' is not a number: exponents are not allowed"},
    {"2.5E-1", 0.0, 1.0, "exponents are not allowed"},
    {"nan", 0.0, 1.0, "'nan' is not a number (nan and infinity are not allowed)"},
    {"-inf", -1e9, 1.0, "'-inf' is not a number (nan and infinity"},
    {"INF", 0.0, 1.0, "not a number"},
    {"0x1p3", 0.0, 100.0, "'0x1p3' is not a number: write it in decimal"},
    {"0.5x", 0.0, 1.0, "'0.5x' is not a number"},
    {"1e", 0.0, 10.0, "'1e' is not a number"},
    {"1.", 0.0, 10.0, "'1.' is not a number"},
    {".5", 0.0, 1.0, "'.5' is not a number: write a digit before the '.'"},
    {" 0.5", 0.0, 1.0, "' 0.5' is not a number: spaces are not allowed"},
    {"0.5 ", 0.0, 1.0, "spaces are not allowed"},
    {"-", 0.0, 1.0, "'-' is not a number"},
    {"0.5", 1.0, 0.0, "empty range"},
};

static void test_number_accepts(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(number_ok); i++) {
        collcalc_diag diag = {{0}};
        double value = -99.0;
        collcalc_status status = collcalc_number_parse(
            number_ok[i].input, number_ok[i].min_value, number_ok[i].max_value, &value, &diag);
        if (status != COLLCALC_OK || value != number_ok[i].value) {
            print_error("input '%s': status %d (%s), got %.17g\n", number_ok[i].input,
                        (int)status, diag.message, value);
            fail();
        }
    }
}

static void test_number_rejects(void **state)
{
    (void)state;
    for (size_t i = 0; i < COUNT_OF(number_bad); i++) {
        collcalc_diag diag = {{0}};
        double value = -99.0;
        collcalc_status status = collcalc_number_parse(
            number_bad[i].input, number_bad[i].min_value, number_bad[i].max_value, &value, &diag);
        check_message(status, &diag, number_bad[i].input, number_bad[i].message);
        assert_true(value == -99.0);
    }
}

static void test_number_negative_zero_is_zero(void **state)
{
    (void)state;
    double value = 1.0;
    assert_int_equal(collcalc_number_parse("-0", 0.0, 1.0, &value, NULL), COLLCALC_OK);
    assert_true(value == 0.0 && !signbit(value));
}

/* ------------------------------------------------------------- formatting */

typedef char *(*format_function)(char *, size_t, double);

static void check_formats(format_function format, const format_case *cases, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        char buffer[64];
        memset(buffer, 'Z', sizeof buffer);
        char *returned = format(buffer, sizeof buffer, cases[i].value);
        assert_ptr_equal(returned, buffer);
        if (strcmp(buffer, cases[i].text) != 0) {
            print_error("value %.17g: got \"%s\", wanted \"%s\"\n", cases[i].value, buffer,
                        cases[i].text);
            fail();
        }
        assert_true(strlen(buffer) < 32);
    }
}

static const format_case bytes_si_cases[] = {
    {175000000.0, "175 MB"},
    {1.4e9, "1.40 GB"},
    {64000.0, "64.0 kB"},
    {512.0, "512 B"},
    {8.0, "8 B"},
    {0.0, "0 B"},
    {-0.0, "0 B"},
    {999.0, "999 B"},
    {1000.0, "1.00 kB"},
    {999.5, "1.00 kB"},
    {1234.0, "1.23 kB"},
    {12345.0, "12.3 kB"},
    {999700000.0, "1.00 GB"},
    {99960.0, "100 kB"},
    {9996.0, "10.0 kB"},
    {0.5, "0.500 B"},
    {1.5, "1.50 B"},
    {18446744073709551615.0, "18.4 EB"},
    {1e21, "1000 EB"},
    {1e40, "1.00e+22 EB"},
    {-2.5e6, "-2.50 MB"},
    {NAN, "n/a"},
    {INFINITY, "n/a"},
    {-INFINITY, "n/a"},
};

static const format_case bytes_iec_cases[] = {
    {262144.0, "256 KiB"},
    {1073741824.0, "1 GiB"},
    {100.0, "100 B"},
    {1023.0, "1023 B"},
    {1024.0, "1 KiB"},
    {1536.0, "1.50 KiB"},
    {1024000.0, "1000 KiB"},
    {1023.7, "1.00 KiB"},
    {104857600.0, "100 MiB"},
    {1610612736.0, "1.50 GiB"},
    {1000000.0, "977 KiB"},
    {100000000.0, "95.4 MiB"},
    {1099511627776.0, "1 TiB"},
    {1152921504606846976.0, "1 EiB"},
    {18446744073709551615.0, "16 EiB"},
    {0.0, "0 B"},
    {0.25, "0.250 B"},
    {-2048.0, "-2 KiB"},
    {NAN, "n/a"},
    {INFINITY, "n/a"},
};

static const format_case time_cases[] = {
    {97.2, "97.2 us"},
    {3500.0, "3.50 ms"},
    {280000.0, "280 ms"},
    {1.2e6, "1.20 s"},
    {0.75, "750 ns"},
    {0.0, "0 us"},
    {1.0, "1.00 us"},
    {999.96, "1.00 ms"},
    {0.9996, "1.00 us"},
    {0.0005, "0.500 ns"},
    {1e-9, "1.00e-06 ns"},
    {100.0, "100 us"},
    {9.999, "10.0 us"},
    {99.99, "100 us"},
    {3.6e9, "3600 s"},
    {1e22, "1.00e+16 s"},
    {-5.0, "-5.00 us"},
    {NAN, "n/a"},
    {-INFINITY, "n/a"},
};

static const format_case bandwidth_cases[] = {
    {900.0, "900 GB/s"},
    {12.5, "12.5 GB/s"},
    {1800.0, "1,800 GB/s"},
    {50.0, "50.0 GB/s"},
    {0.188, "0.188 GB/s"},
    {0.1875, "0.188 GB/s"},
    {0.0125, "0.0125 GB/s"},
    {999.4, "999 GB/s"},
    {999.6, "1,000 GB/s"},
    {1234567.4, "1,234,567 GB/s"},
    {0.0, "0 GB/s"},
    {1e-5, "1.00e-05 GB/s"},
    {1e15, "1.00e+15 GB/s"},
    {999999999999999.0, "999,999,999,999,999 GB/s"},
    {-3.0, "-3.00 GB/s"},
    {NAN, "n/a"},
    {INFINITY, "n/a"},
};

static void test_format_bytes_si(void **state)
{
    (void)state;
    check_formats(collcalc_bytes_format_si, bytes_si_cases, COUNT_OF(bytes_si_cases));
}

static void test_format_bytes_iec(void **state)
{
    (void)state;
    check_formats(collcalc_bytes_format_iec, bytes_iec_cases, COUNT_OF(bytes_iec_cases));
}

static void test_format_time(void **state)
{
    (void)state;
    check_formats(collcalc_time_us_format, time_cases, COUNT_OF(time_cases));
}

static void test_format_bandwidth(void **state)
{
    (void)state;
    check_formats(collcalc_format_bandwidth_GBps, bandwidth_cases, COUNT_OF(bandwidth_cases));
}

static void test_format_grouped(void **state)
{
    (void)state;
    static const struct {
        uint64_t value;
        const char *text;
    } cases[] = {
        {0, "0"},
        {7, "7"},
        {999, "999"},
        {1000, "1,000"},
        {175000000, "175,000,000"},
        {UINT64_C(1234567890), "1,234,567,890"},
        {UINT64_MAX, "18,446,744,073,709,551,615"},
    };
    for (size_t i = 0; i < COUNT_OF(cases); i++) {
        char buffer[32];
        assert_ptr_equal(collcalc_u64_format_grouped(buffer, sizeof buffer, cases[i].value),
                         buffer);
        assert_string_equal(buffer, cases[i].text);
    }
}

/* Short buffers truncate, stay NUL-terminated and never write past the end. */
static void test_format_truncates(void **state)
{
    (void)state;
    char buffer[16];
    memset(buffer, 'Z', sizeof buffer);
    collcalc_u64_format_grouped(buffer, 5, 175000000);
    assert_string_equal(buffer, "175,");
    assert_int_equal(buffer[5], 'Z');

    memset(buffer, 'Z', sizeof buffer);
    collcalc_format_bandwidth_GBps(buffer, 4, 1800.0);
    assert_string_equal(buffer, "1,8");
    assert_int_equal(buffer[4], 'Z');

    memset(buffer, 'Z', sizeof buffer);
    collcalc_time_us_format(buffer, 1, 97.2);
    assert_string_equal(buffer, "");
    assert_int_equal(buffer[1], 'Z');

    memset(buffer, 'Z', sizeof buffer);
    assert_ptr_equal(collcalc_bytes_format_si(buffer, 0, 1.0), buffer);
    assert_int_equal(buffer[0], 'Z');

    memset(buffer, 'Z', sizeof buffer);
    collcalc_bytes_format_iec(buffer, 3, NAN);
    assert_string_equal(buffer, "n/");
}

/* Every size the formatter names can be parsed back to the same bytes. */
static void test_size_round_trip(void **state)
{
    (void)state;
    static const uint64_t values[] = {0, 1, 1023, 1024, 262144, 1073741824, INT64_MAX}; /* the largest size */
    for (size_t i = 0; i < COUNT_OF(values); i++) {
        char text[32], plain[32];
        collcalc_u64_format_grouped(text, sizeof text, values[i]);
        size_t used = 0;
        for (const char *p = text; *p != '\0'; p++)
            if (*p != ',')
                plain[used++] = *p;
        plain[used] = '\0';
        uint64_t back = 0;
        assert_int_equal(collcalc_size_bytes_parse(plain, &back, NULL), COLLCALC_OK);
        assert_true(back == values[i]);
    }
    /* Exact IEC names parse back too once the space is removed. */
    static const uint64_t exact[] = {100, 262144, 1073741824, UINT64_C(1) << 50};
    for (size_t i = 0; i < COUNT_OF(exact); i++) {
        char text[32], joined[32];
        collcalc_bytes_format_iec(text, sizeof text, (double)exact[i]);
        const char *space = strchr(text, ' ');
        assert_non_null(space);
        snprintf(joined, sizeof joined, "%.*s%s", (int)(space - text), text, space + 1);
        uint64_t back = 0;
        assert_int_equal(collcalc_size_bytes_parse(joined, &back, NULL), COLLCALC_OK);
        assert_true(back == exact[i]);
    }
}

/* ------------------------------------------------- echoes, did-you-mean */

/* One grammar for every quantity: an exponent is refused by each parser. */
static void test_exponents_refused_everywhere(void **state)
{
    (void)state;
    collcalc_diag diag;
    uint64_t bytes = 7;
    double value = 7.0;
    long count = 7;
    assert_int_equal(collcalc_size_bytes_parse("1e6", &bytes, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "exponents are not allowed"));
    assert_int_equal(collcalc_time_us_parse("1e3ns", &value, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "exponents are not allowed"));
    assert_int_equal(collcalc_parse_bandwidth_GBps("1e-300GB/s", &value, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "exponents are not allowed"));
    assert_int_equal(collcalc_count_parse("1e3", 1, 100000, &count, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "exponents are not allowed"));
    assert_int_equal(collcalc_number_parse("1e3", 0.0, 1e6, &value, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "exponents are not allowed"));
    assert_true(bytes == 7 && value == 7.0 && count == 7);
    /* --alpha 0 needs no unit; other times do. */
    assert_int_equal(collcalc_time_us_parse("0", &value, &diag), COLLCALC_OK);
    assert_true(value == 0.0);
    assert_int_equal(collcalc_time_us_parse("2", &value, &diag), COLLCALC_ERR_INVALID);
}

/* A pasted megabyte is echoed as 60 bytes and "...". */
static void test_echo_is_bounded(void **state)
{
    (void)state;
    size_t length = (size_t)1 << 20;
    char *huge = malloc(length + 3);
    assert_non_null(huge);
    memset(huge, '7', length);
    memcpy(huge + length, "MB", 3);
    collcalc_diag diag;
    assert_int_equal(collcalc_size_bytes_parse(huge, NULL, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "...': too large"));
    huge[length] = 'x';
    assert_int_equal(collcalc_size_bytes_parse(huge, NULL, &diag), COLLCALC_ERR_INVALID);
    /* "invalid size '" + 60 digits + "...': too large..." */
    assert_true(strlen(diag.message) < 200);
    assert_non_null(strstr(diag.message, "7777777777...'"));
    char echo[COLLCALC_ECHO_BUFFER];
    collcalc_echo(echo, sizeof echo, huge);
    assert_int_equal(strlen(echo), COLLCALC_ECHO_MAX + 3);
    assert_string_equal(echo + COLLCALC_ECHO_MAX, "...");
    free(huge);

    assert_string_equal(collcalc_echo(echo, sizeof echo, "8\tM"), "8\\x09M");
    assert_string_equal(collcalc_echo(echo, sizeof echo, NULL), "");
    assert_string_equal(collcalc_echo(echo, sizeof echo, "2\xC2\xB5s"), "2\xC2\xB5s");
    assert_string_equal(collcalc_echo(echo, sizeof echo, "\xFF"), "\\xFF");
    /* A multi-byte character is never split at the cut. */
    char text[80];
    memset(text, 'a', 59);
    memcpy(text + 59, "\xC2\xB5zz", 5);
    collcalc_echo(echo, sizeof echo, text);
    assert_int_equal(strlen(echo), 59 + 3);
    /* A small buffer still ends in a NUL. */
    char tiny[8];
    collcalc_echo(tiny, sizeof tiny, "abcdefghijkl");
    assert_true(strlen(tiny) < sizeof tiny);
    assert_string_equal(tiny, "abcd...");
    assert_int_equal(collcalc_echo_n(echo, sizeof echo, "abc", 2)[2], '\0');
}

static void test_edit_distance(void **state)
{
    (void)state;
    assert_int_equal(collcalc_edit_distance("nvlnk5", "nvlink5"), 1);
    assert_int_equal(collcalc_edit_distance("NVLINK5", "nvlink5"), 0);
    assert_int_equal(collcalc_edit_distance("rign", "ring"), 1); /* a swap */
    assert_int_equal(collcalc_edit_distance("", "abc"), 3);
    assert_int_equal(collcalc_edit_distance("kitten", "sitting"), 3);
    assert_int_equal(collcalc_edit_distance(NULL, NULL), 0);
    char long_text[100];
    memset(long_text, 'a', 99);
    long_text[99] = '\0';
    assert_int_equal(collcalc_edit_distance(long_text, "a"), 65);
}

static void test_suggest(void **state)
{
    (void)state;
    static const char *const links[] = {"nvlink2", "nvlink3", "nvlink4", "nvlink5", "pcie4",
                                        "ib-ndr",  "ndr",     "eth400",  "NVLINK5", "", NULL};
    const size_t n = sizeof links / sizeof links[0];
    const char *out[COLLCALC_SUGGEST_MAX];
    size_t count = collcalc_suggest("nvlnk5", links, n, out, COLLCALC_SUGGEST_MAX);
    assert_int_equal(count, 1); /* nvlink5 at 1; nvlink2..4 at 2 are dropped */
    assert_string_equal(out[0], "nvlink5");
    count = collcalc_suggest("nvlink", links, n, out, COLLCALC_SUGGEST_MAX);
    assert_int_equal(count, 3); /* all at 1: the first three in table order */
    assert_string_equal(out[0], "nvlink2");
    assert_string_equal(out[1], "nvlink3");
    assert_string_equal(out[2], "nvlink4");
    count = collcalc_suggest("ib-nd", links, n, out, COLLCALC_SUGGEST_MAX);
    assert_int_equal(count, 1);
    assert_string_equal(out[0], "ib-ndr");
    assert_int_equal(collcalc_suggest("hbm3", links, n, out, COLLCALC_SUGGEST_MAX), 0);
    assert_int_equal(collcalc_suggest("", links, n, out, COLLCALC_SUGGEST_MAX), 0);
    assert_int_equal(collcalc_suggest("nvlink", links, n, out, 1), 1);
    char text[128];
    assert_string_equal(collcalc_suggest_text(text, sizeof text, "nvlnk5", links, n),
                        " (did you mean nvlink5?)");
    assert_string_equal(collcalc_suggest_text(text, sizeof text, "nvlink", links, n),
                        " (did you mean nvlink2, nvlink3 or nvlink4?)");
    assert_string_equal(collcalc_suggest_text(text, sizeof text, "pcie5", links, n),
                        " (did you mean pcie4?)");
    assert_string_equal(collcalc_suggest_text(text, sizeof text, "zzzzzz", links, n), "");
    static const char *const commands[] = {"allreduce", "allgather", "reducescatter", "alltoall",
                                           "broadcast", "reduce",    "sendrecv",      "links"};
    assert_string_equal(collcalc_suggest_text(text, sizeof text, "allredcue", commands, 8),
                        " (did you mean allreduce?)");
    assert_string_equal(collcalc_suggest_text(text, sizeof text, "lnks", commands, 8),
                        " (did you mean links?)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_accepts),
        cmocka_unit_test(test_size_rejects),
        cmocka_unit_test(test_size_every_unit_and_digit_count),
        cmocka_unit_test(test_utf8_decode),
        cmocka_unit_test(test_size_short_suffixes),
        cmocka_unit_test(test_size_null_arguments),
        cmocka_unit_test(test_time_accepts),
        cmocka_unit_test(test_time_rejects),
        cmocka_unit_test(test_bandwidth_accepts),
        cmocka_unit_test(test_bandwidth_rejects),
        cmocka_unit_test(test_count_accepts),
        cmocka_unit_test(test_count_rejects),
        cmocka_unit_test(test_number_accepts),
        cmocka_unit_test(test_number_rejects),
        cmocka_unit_test(test_number_negative_zero_is_zero),
        cmocka_unit_test(test_format_bytes_si),
        cmocka_unit_test(test_format_bytes_iec),
        cmocka_unit_test(test_format_time),
        cmocka_unit_test(test_format_bandwidth),
        cmocka_unit_test(test_format_grouped),
        cmocka_unit_test(test_format_truncates),
        cmocka_unit_test(test_size_round_trip),
        cmocka_unit_test(test_exponents_refused_everywhere),
        cmocka_unit_test(test_echo_is_bounded),
        cmocka_unit_test(test_edit_distance),
        cmocka_unit_test(test_suggest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
