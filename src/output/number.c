/* The shortest decimal text that reads back to the same double, fast
 * (number.h). Exactly what the reference loop prints ("%.*g" for the
 * smallest precision 1..17 whose strtod() gives the value back), computed
 * with 128-bit integer arithmetic for the magnitudes collcalc prints
 * (1e-6 .. 2^53); anything else takes the reference loop itself.
 * tests/unit/test_cli_number.c compares the two over millions of values. */
#include "number.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint64_t POW10[20] = {1ull,
                                   10ull,
                                   100ull,
                                   1000ull,
                                   10000ull,
                                   100000ull,
                                   1000000ull,
                                   10000000ull,
                                   100000000ull,
                                   1000000000ull,
                                   10000000000ull,
                                   100000000000ull,
                                   1000000000000ull,
                                   10000000000000ull,
                                   100000000000000ull,
                                   1000000000000000ull,
                                   10000000000000000ull,
                                   100000000000000000ull,
                                   1000000000000000000ull,
                                   10000000000000000000ull};

static const char DIGIT_PAIRS[] = "00010203040506070809101112131415161718192021222324"
                                  "25262728293031323334353637383940414243444546474849"
                                  "50515253545556575859606162636465666768697071727374"
                                  "75767778798081828384858687888990919293949596979899";

/* The decimal digits of value at out (no NUL); returns their count. */
static size_t put_u64(char *out, uint64_t value)
{
    /* The digit count from the bit length (1233/4096 ~ log10(2)), then
     * one comparison. */
    unsigned bits = 64u - (unsigned)__builtin_clzll(value | 1);
    size_t count = (size_t)((bits * 1233u) >> 12);
    count += count < 20 && value >= POW10[count];
    if (count == 0)
        count = 1;
    size_t at = count;
    /* Eight digits at a time split off with one 64-bit division, then
     * pairs in 32-bit arithmetic (cheaper than 64-bit divisions by 100). */
    while (value >= 100000000) {
        uint32_t low = (uint32_t)(value % 100000000);
        value /= 100000000;
        uint32_t upper4 = low / 10000, lower4 = low % 10000; /* two independent halves */
        at -= 8;
        memcpy(out + at, DIGIT_PAIRS + 2 * (upper4 / 100), 2);
        memcpy(out + at + 2, DIGIT_PAIRS + 2 * (upper4 % 100), 2);
        memcpy(out + at + 4, DIGIT_PAIRS + 2 * (lower4 / 100), 2);
        memcpy(out + at + 6, DIGIT_PAIRS + 2 * (lower4 % 100), 2);
    }
    uint32_t rest = (uint32_t)value;
    while (rest >= 100) {
        at -= 2;
        memcpy(out + at, DIGIT_PAIRS + 2 * (rest % 100), 2);
        rest /= 100;
    }
    if (rest >= 10)
        memcpy(out, DIGIT_PAIRS + 2 * rest, 2);
    else
        out[0] = (char)('0' + rest);
    return count;
}

size_t number_format_integer(char *out, long long value)
{
    size_t at = 0;
    uint64_t magnitude = (uint64_t)value;
    if (value < 0) {
        out[at++] = '-';
        magnitude = 0ull - magnitude;
    }
    return at + put_u64(out + at, magnitude);
}

size_t number_format_reference(char *buffer, size_t size, double value)
{
    if (!isfinite(value))
        return (size_t)snprintf(buffer, size, "null");
    if (value == 0.0)
        return (size_t)snprintf(buffer, size, "0");
    if (fabs(value) < 9007199254740992.0 && value == floor(value))
        return (size_t)snprintf(buffer, size, "%.0f", value);
    int length = 0;
    for (int precision = 1; precision <= 17; precision++) {
        length = snprintf(buffer, size, "%.*g", precision, value);
        if (strtod(buffer, NULL) == value)
            break;
    }
    return length > 0 ? (size_t)length : 0;
}

__extension__ typedef unsigned __int128 u128;

/* The p-digit rounding of X = Q + R / 2^t (Q has 17 digits), half to even
 * on the exact value, as printf rounds. */
static uint64_t round_to(uint64_t q17, u128 rem, int t, int p)
{
    if (p == 17) {
        u128 half = (u128)1 << (t - 1);
        bool up = rem > half || (rem == half && (q17 & 1) != 0);
        return q17 + (up ? 1 : 0);
    }
    uint64_t d = POW10[17 - p], q, r;
    switch (17 - p) { /* the usual ones with constant divisors */
    case 1: q = q17 / 10; r = q17 % 10; break;
    case 2: q = q17 / 100; r = q17 % 100; break;
    default: q = q17 / d; r = q17 % d; break;
    }
    uint64_t half = d / 2;
    bool up = r > half || (r == half && (rem != 0 || (q & 1) != 0));
    return q + (up ? 1 : 0);
}

/* Does c (in units of the 17-digit scale) read back as the value
 * X = Q + R / 2^t whose half-ulp in those units is 10^s0 / 2^(t+1)? */
static bool reads_back(uint64_t c, uint64_t q17, u128 rem, int t, u128 pow10_s0, bool even,
                       bool narrow_below)
{
    if (c > q17 + 16 || c + 16 < q17)
        return false; /* the half-ulp is at most about 11 units */
    /* In units of 2^-(t+2): the distance is |c - Q| 2^(t+2) -/+ 4R; the
     * half-ulps are 2 x 10^s0 above and below (10^s0 below a power of
     * two). */
    u128 up = 2 * pow10_s0, down = narrow_below ? pow10_s0 : up, r4 = rem << 2;
    if (c > q17) {
        u128 distance = ((u128)(c - q17) << (t + 2)) - r4;
        return even ? distance <= up : distance < up;
    }
    u128 distance = ((u128)(q17 - c) << (t + 2)) + r4;
    if (distance == 0)
        return true;
    return even ? distance <= down : distance < down;
}

/* "%.*g" of the p-digit decimal n x 10^(k - p + 1) (n has p digits). */
static size_t put_g(char *out, bool negative, uint64_t n, int p, int k)
{
    size_t at = 0;
    if (negative)
        out[at++] = '-';
    bool scientific = k < -4 || k >= p;
    if (!scientific && k < 0) { /* 0.000ddd */
        out[at++] = '0';
        out[at++] = '.';
        for (int i = 0; i < -k - 1; i++)
            out[at++] = '0';
    }
    /* The digits are written one place to the right, then those before
     * the point moved left over the gap, where the point goes. */
    char *digits = out + at + 1;
    size_t count = put_u64(digits, n);
    while (count > 1 && digits[count - 1] == '0')
        count--;
    if (!scientific && k < 0) {
        for (size_t i = 0; i < count; i++)
            out[at + i] = digits[i];
        return at + count;
    }
    size_t lead = scientific ? 1 : (size_t)k + 1; /* the digits before the point */
    size_t shown = lead < count ? lead : count;
    for (size_t i = 0; i < shown; i++)
        out[at + i] = digits[i];
    if (lead >= count) { /* no fraction: zeros up to the point */
        for (size_t i = count; i < lead; i++)
            out[at + i] = '0';
        at += lead;
    } else {
        out[at + lead] = '.';
        at += count + 1;
    }
    if (!scientific)
        return at;
    out[at++] = 'e';
    int e = k;
    out[at++] = e < 0 ? '-' : '+';
    if (e < 0)
        e = -e;
    if (e < 10)
        out[at++] = '0';
    return at + put_u64(out + at, (uint64_t)e);
}

size_t number_format(char *buffer, size_t size, double value)
{
    char *text = buffer; /* written in place: size >= NUMBER_TEXT_MAX */
    size_t length = 0;
    double magnitude = fabs(value);
    if (!(magnitude >= 1e-6 && magnitude < 9007199254740992.0) || size < NUMBER_TEXT_MAX)
        return number_format_reference(buffer, size, value);
    bool negative = value < 0;
    if ((double)(uint64_t)magnitude == magnitude) {
        if (negative)
            text[length++] = '-';
        length += put_u64(text + length, (uint64_t)magnitude);
        buffer[length] = '\0';
        return length;
    }
    uint64_t bits;
    memcpy(&bits, &magnitude, sizeof bits);
    int biased = (int)(bits >> 52);
    uint64_t m = (bits & ((1ull << 52) - 1)) | (1ull << 52);
    int t = 1075 - biased; /* magnitude = m / 2^t; non-integer below 2^53: t >= 1 */
    if (t < 1 || t > 120)
        return number_format_reference(buffer, size, value);
    /* k = floor(log10(magnitude)), fixed so that Q has 17 digits. */
    int e2 = 52 - t; /* 2^e2 <= magnitude < 2^(e2+1) */
    int k = e2 >= 0 ? (e2 * 1233) >> 12 : -((-e2 * 1233 + 4095) >> 12);
    uint64_t q17 = 0;
    u128 rem = 0, pow10_s0 = 0;
    int s0 = 0;
    for (int tries = 0; tries < 4; tries++) {
        s0 = 16 - k;
        if (s0 < 1 || s0 > 22)
            return number_format_reference(buffer, size, value);
        u128 scale = s0 > 19 ? (u128)POW10[19] * POW10[s0 - 19] : (u128)POW10[s0];
        pow10_s0 = scale;
        u128 x = (u128)m * scale;
        u128 q = x >> t;
        rem = x & (((u128)1 << t) - 1);
        if (q < POW10[16]) {
            k--;
            continue;
        }
        if (q >= POW10[17]) {
            k++;
            continue;
        }
        q17 = (uint64_t)q;
        break;
    }
    if (q17 == 0)
        return number_format_reference(buffer, size, value);
    bool even = (m & 1) == 0;
    bool narrow_below = m == (1ull << 52) && biased > 1;
    /* Trailing zeros / nines of Q above its last two digits: a precision
     * dropping j >= 3 digits can read back only through them. */
    unsigned last2 = (unsigned)(q17 % 100);
    int zeros = 0, nines = 0;
    if (last2 <= 16 || last2 >= 83) {
        uint64_t upper = q17 / 100;
        for (uint64_t u = upper; zeros < 15 && u % 10 == 0; u /= 10)
            zeros++;
        for (uint64_t u = upper; nines < 15 && u % 10 == 9; u /= 10)
            nines++;
    }
    /* The shortest precision that can read back drops at most jmax digits. */
    int jmax = 2;
    if (last2 <= 16 && zeros + 2 > jmax)
        jmax = zeros + 2;
    if (last2 >= 83 && nines + 2 > jmax)
        jmax = nines + 2;
    for (int p = jmax >= 16 ? 1 : 17 - jmax; p <= 17; p++) {
        int j = 17 - p;
        /* Dropping two digits or more lands at least 17 units from Q
         * unless its last two digits are near 00: reads_back would say
         * no. */
        if (j >= 2 && !((j - 2 <= zeros && last2 <= 16) || (j - 2 <= nines && last2 >= 83)))
            continue;
        uint64_t n = round_to(q17, rem, t, p);
        uint64_t c = n * POW10[j];
        if (!reads_back(c, q17, rem, t, pow10_s0, even, narrow_below))
            continue;
        int kk = k;
        if (n == POW10[p]) { /* 9.99 -> 10.0: one more decimal place up */
            n /= 10;
            kk++;
        }
        length = put_g(text, negative, n, p, kk);
        buffer[length] = '\0';
        return length;
    }
    return number_format_reference(buffer, size, value);
}
