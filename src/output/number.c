/* The shortest decimal text that reads back to the same double, fast
 * (number.h). Exactly what the reference loop prints ("%.*g" for the
 * smallest precision 1..17 whose strtod() gives the value back), computed
 * in exact integer arithmetic (one 128-bit product, the rest in 64 bits)
 * for the magnitudes collcalc prints (1e-6 .. 2^53, powers of two aside);
 * anything else takes the reference loop itself.
 * tests/unit/test_cli_number.c and tests/fuzz/fuzz_number.c compare the
 * two. */
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

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DIGITS_IN_REGISTERS 1
/* The eight ASCII digits of x < 10^8, leading zeros kept, as the bytes of
 * a word in memory order (first digit in the low byte), computed in the
 * word's lanes at once: two halves of four digits (32-bit lanes), each
 * split into two pairs (16-bit lanes), each into two digits (bytes). The
 * reciprocals are exact here: h x 10486 / 2^20 is h / 100 for h < 10^4,
 * p x 103 / 2^10 is p / 10 for p < 100, and no lane overflows. */
static uint64_t digits8(uint32_t x)
{
    uint64_t halves = (uint64_t)(x / 10000) | (uint64_t)(x % 10000) << 32;
    uint64_t hundreds = ((halves * 10486) >> 20) & 0x0000007F0000007Full;
    uint64_t pairs = hundreds | (halves - hundreds * 100) << 16;
    uint64_t tens = ((pairs * 103) >> 10) & 0x000F000F000F000Full;
    uint64_t digits = tens | (pairs - tens * 10) << 8;
    return digits + 0x3030303030303030ull;
}
#endif

/* The eight decimal digits of x < 10^8 at out, leading zeros kept. */
static void put_8_digits(char *out, uint32_t x)
{
#ifdef DIGITS_IN_REGISTERS
    uint64_t word = digits8(x);
    memcpy(out, &word, 8);
#else /* two four-digit halves, each as two pairs */
    uint32_t upper4 = x / 10000, lower4 = x % 10000;
    memcpy(out, DIGIT_PAIRS + 2 * (upper4 / 100), 2);
    memcpy(out + 2, DIGIT_PAIRS + 2 * (upper4 % 100), 2);
    memcpy(out + 4, DIGIT_PAIRS + 2 * (lower4 / 100), 2);
    memcpy(out + 6, DIGIT_PAIRS + 2 * (lower4 % 100), 2);
#endif
}

/* The decimal digits of value at out (no NUL; up to 20 bytes written);
 * returns their count. */
static size_t put_u64(char *out, uint64_t value)
{
    /* The digit count from the bit length (1233/4096 ~ log10(2)), then
     * one comparison. */
    unsigned bits = 64u - (unsigned)__builtin_clzll(value | 1);
    size_t count = (size_t)((bits * 1233u) >> 12);
    count += count < 20 && value >= POW10[count];
    if (count == 0)
        count = 1;
#ifdef DIGITS_IN_REGISTERS
    if (value < 100000000) { /* one word, its leading zeros shifted out */
        uint64_t word = digits8((uint32_t)value) >> (8 * (8 - count));
        memcpy(out, &word, 8);
        return count;
    }
#endif
    size_t at = count;
    /* Eight digits at a time split off with one 64-bit division, the
     * rest in pairs in 32-bit arithmetic (cheaper than 64-bit divisions). */
    while (value >= 100000000) {
        at -= 8;
        put_8_digits(out + at, (uint32_t)(value % 100000000));
        value /= 100000000;
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

/* X = magnitude x 10^(16-k) = Q + R / 2^u exactly, Q of 17 digits:
 * magnitude = m / 2^t and 10^s0 = 5^s0 x 2^s0 (s0 = 16 - k), so
 * X = m x 5^s0 / 2^u with u = t - s0, at most 51 bits of fraction for the
 * magnitudes number_format takes (u ~ 36 - 0.7 log2(magnitude)). The
 * half-ulp is 10^s0 / 2^(t+1) = 5^s0 / 2^(u+1) units of Q. Everything
 * below fits in 64 bits. */
typedef struct {
    uint64_t q17, rem; /* Q and R */
    int u;
    uint64_t half_unit; /* 2^(u-1): R against half a unit of Q (all ones when u = 0: R = 0) */
    uint64_t scale;     /* 5^s0: twice the half-ulp, in units of 2^-u */
    bool even;          /* m even: a text exactly half an ulp away reads back */
} scaled_value;

static const uint64_t POW5[24] = {
    1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull, 390625ull, 1953125ull,
    9765625ull, 48828125ull, 244140625ull, 1220703125ull, 6103515625ull, 30517578125ull,
    152587890625ull, 762939453125ull, 3814697265625ull, 19073486328125ull, 95367431640625ull,
    476837158203125ull, 2384185791015625ull, 11920928955078125ull};

/* X's p-digit rounding, half to even on the exact value, as printf
 * rounds. The conditions are combined with & and | (no branch: which way
 * a number rounds is as good as random). */
static uint64_t round_to(const scaled_value *x, int p)
{
    if (p == 17)
        return x->q17 + ((x->rem > x->half_unit) |
                         ((x->rem == x->half_unit) & ((x->q17 & 1) != 0)));
    uint64_t d = POW10[17 - p], q, r;
    switch (17 - p) { /* the usual ones with constant divisors */
    case 1: q = x->q17 / 10; r = x->q17 % 10; break;
    case 2: q = x->q17 / 100; r = x->q17 % 100; break;
    default: q = x->q17 / d; r = x->q17 % d; break;
    }
    uint64_t half = d / 2;
    return q + ((r > half) | ((r == half) & ((x->rem != 0) | ((q & 1) != 0))));
}

/* Does c (in units of Q) read back as X: is it within the half-ulp (or
 * exactly on it, for an even m)? The interval is the same above and below
 * (number_format leaves powers of two to the reference). Masks, not ?:
 * (which the compilers may turn into branches); c and Q are below 2^57. */
static bool reads_back(const scaled_value *x, uint64_t c)
{
    int64_t signed_gap = (int64_t)(c - x->q17);
    uint64_t sign = (uint64_t)(signed_gap >> 63); /* all ones when c < Q */
    uint64_t gap = ((uint64_t)signed_gap ^ sign) - sign;
    bool near = gap <= 16; /* the half-ulp is below 11.1 units */
    gap &= 0 - (uint64_t)near; /* keeps the shift below in range */
    /* In units of 2^-u: |c - X| is gap 2^u - R above Q, gap 2^u + R at or
     * below it (below 2^56); the half-ulp is 5^s0 / 2. */
    uint64_t above = 0 - (uint64_t)(signed_gap > 0);
    uint64_t twice = 2 * ((gap << x->u) + ((x->rem ^ above) - above));
    return near & ((twice < x->scale) | (x->even & (twice == x->scale)));
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

#ifdef DIGITS_IN_REGISTERS
/* "%.*g" of the p-digit n x 10^(k - p + 1) in fixed notation, for
 * 0 <= k <= p - 2 (a fraction follows the point) or -4 <= k < 0
 * ("0.000ddd"). n's last digit is not 0 (else a shorter precision would
 * read back), so nothing is trimmed. The digits are made in registers
 * and stored whole: n x 10^(17-p) has seventeen digits, the first alone
 * and sixteen in a 128-bit word, which a shift splits at the point. */
static size_t put_fixed(char *out, bool negative, uint64_t n, int p, int k)
{
    uint64_t all = n * POW10[17 - p]; /* 10^16 <= all < 10^17 */
    uint64_t high = all / 100000000;  /* < 10^9 */
    uint32_t first = (uint32_t)(high / 100000000);
    u128 rest = (u128)digits8((uint32_t)(high - (uint64_t)first * 100000000)) |
                (u128)digits8((uint32_t)(all - high * 100000000)) << 64;
    size_t at = negative ? 1 : 0;
    out[0] = '-';
    if (k >= 0) {
        out[at] = (char)('0' + first);
        memcpy(out + at + 1, &rest, 16);
        out[at + (size_t)k + 1] = '.';
        rest >>= 8 * k; /* the digits after the point */
        memcpy(out + at + (size_t)k + 2, &rest, 16);
        return at + (size_t)p + 1;
    }
    memcpy(out + at, "0.000000", 8);
    out[at + (size_t)(1 - k)] = (char)('0' + first);
    memcpy(out + at + (size_t)(2 - k), &rest, 16);
    return at + (size_t)(1 - k + p);
}
#endif

/* 10^(i - 6) as doubles, i = 0 .. 22: where floor(log10) steps. */
static const double POW10_DOUBLE[23] = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0,  1e1,
                                        1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                        1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16};

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
    int t = 1075 - biased; /* magnitude = m / 2^t; 1e-6 .. 2^53, not whole: 1 <= t <= 72 */
    /* A power of two has a narrower interval below it; the reference
     * takes those (exact binary fractions: 0.5, 0.375, ...). */
    if (t < 1 || t > 72 || m == (1ull << 52))
        return number_format_reference(buffer, size, value);
    /* k = floor(log10(magnitude)): from the binary exponent, then one
     * comparison with the power of ten above. */
    int e2 = 52 - t; /* 2^e2 <= magnitude < 2^(e2+1) */
    int k = e2 >= 0 ? (e2 * 1233) >> 12 : -((-e2 * 1233 + 4095) >> 12);
    k += magnitude >= POW10_DOUBLE[k + 7]; /* k + 1 is in -6 .. 16 */
    /* X = Q + R / 2^u (scaled_value); Q has 17 digits but next to a
     * power of ten that a double cannot hold. */
    int s0 = 16 - k; /* 1 .. 22 */
    scaled_value x = {.u = t - s0, .scale = POW5[s0], .even = (m & 1) == 0};
    if (x.u < 0 || x.u > 56) /* (0 .. 51 here; the bound keeps reads_back in 64 bits) */
        return number_format_reference(buffer, size, value);
    u128 product = (u128)m * x.scale;
    u128 q = product >> x.u;
    if (q < POW10[16] || q >= POW10[17])
        return number_format_reference(buffer, size, value);
    x.q17 = (uint64_t)q;
    x.rem = (uint64_t)product & ((1ull << x.u) - 1);
    x.half_unit = x.u > 0 ? 1ull << (x.u - 1) : ~0ull;
    /* The shortest precision that reads back: if dropping j digits does,
     * dropping fewer does too (the nearest multiple of 10^(j-1) is no
     * farther), so drop one more while it still reads back. Seventeen
     * digits always do: the half-ulp is 10^(16-k) / 2^(t+1) units, and
     * 2^-t = magnitude / m >= 10^k / 2^53, so it is at least
     * 10^16 / 2^54 = 0.555 units, more than the rounding's half unit.
     * Sixteen and fifteen digits are tried at once and chosen without a
     * branch; fewer only when fifteen read back. */
    uint64_t n17 = round_to(&x, 17), n16 = round_to(&x, 16), n15 = round_to(&x, 15);
    bool ok16 = reads_back(&x, n16 * 10);
    bool ok15 = ok16 & reads_back(&x, n15 * 100);
    uint64_t take16 = 0 - (uint64_t)ok16, take15 = 0 - (uint64_t)ok15;
    uint64_t n = (((n17 & ~take16) | (n16 & take16)) & ~take15) | (n15 & take15);
    int j = (int)ok16 + (int)ok15;
    while (ok15 && j < 16) {
        uint64_t shorter = round_to(&x, 16 - j);
        if (!reads_back(&x, shorter * POW10[j + 1]))
            break;
        n = shorter;
        j++;
    }
    int p = 17 - j;
#ifdef DIGITS_IN_REGISTERS
    if (n != POW10[p] && k >= -4 && k <= p - 2) {
        length = put_fixed(text, negative, n, p, k);
        buffer[length] = '\0';
        return length;
    }
#endif
    if (n == POW10[p]) { /* 9.99 -> 10.0: one more decimal place up */
        n /= 10;
        k++;
    }
    length = put_g(text, negative, n, p, k); /* exponents, no fraction */
    buffer[length] = '\0';
    return length;
}
