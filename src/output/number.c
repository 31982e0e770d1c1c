/* The shortest decimal text that reads back to the same double, fast
 * (number.h). Exactly what the reference loop prints ("%.*g" for the
 * smallest precision 1..17 whose strtod() gives the value back), computed
 * in exact integer arithmetic (64 x 64 -> 128-bit products, machine.h;
 * the rest in 64 bits) for the magnitudes collcalc prints (1e-6 .. 2^53, powers of
 * two aside);
 * anything else takes the reference loop itself.
 * tests/unit/test_cli_number.c and tests/fuzz/fuzz_number.c compare the
 * two. */
#include "number.h"

#include "machine.h"

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
 * p x 103 / 2^10 is p / 10 for p < 100, and no lane overflows. Each split
 * of v into quotient q (low lane) and remainder (high lane) takes one
 * multiply: q + ((v - q d) << w) is (v << w) - q ((d << w) - 1). */
static uint64_t digits8(uint32_t x)
{
    uint64_t halves = ((uint64_t)x << 32) - (uint64_t)(x / 10000) * ((10000ull << 32) - 1);
    uint64_t hundreds = ((halves * 10486) >> 20) & 0x0000007F0000007Full;
    uint64_t pairs = (halves << 16) - hundreds * ((100 << 16) - 1);
    uint64_t tens = ((pairs * 103) >> 10) & 0x000F000F000F000Full;
    uint64_t digits = (pairs << 8) - tens * ((10 << 8) - 1);
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

/* put_u64 past eight digits (or without DIGITS_IN_REGISTERS): count
 * digits at out. Out of line, so that its registers and constants are not
 * set up for the short numbers too. */
__attribute__((noinline)) static size_t put_u64_long(char *out, uint64_t value, size_t count)
{
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
    return put_u64_long(out, value, count);
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

/* For s0 = 0 .. 22: 5^s0 << (lead - 1), lead putting its top bit at bit
 * 63 (half of the normalized 5^s0: the half-ulp below is a shift of it),
 * and the bit length of 10^s0 (s0 plus that of 5^s0). magnitude = m / 2^t
 * times 10^s0 is m x 5^s0 / 2^(t - s0), so with a = length - t,
 * (m << a) x (5^s0 << lead) is magnitude x 10^s0 x 2^64 exactly: the
 * integer part in the product's high word, the fraction in its low word.
 * For the magnitudes number_format takes, 1 <= a <= 5 (m << a stays below
 * 2^58). */
static const struct {
    uint64_t five_half;
    int length;
} POW5_TOP[23] = {
    {1ull << 62, 1},
    {5ull << 60, 4},
    {25ull << 58, 7},
    {125ull << 56, 10},
    {625ull << 53, 14},
    {3125ull << 51, 17},
    {15625ull << 49, 20},
    {78125ull << 46, 24},
    {390625ull << 44, 27},
    {1953125ull << 42, 30},
    {9765625ull << 39, 34},
    {48828125ull << 37, 37},
    {244140625ull << 35, 40},
    {1220703125ull << 32, 44},
    {6103515625ull << 30, 47},
    {30517578125ull << 28, 50},
    {152587890625ull << 25, 54},
    {762939453125ull << 23, 57},
    {3814697265625ull << 21, 60},
    {19073486328125ull << 18, 64},
    {95367431640625ull << 16, 67},
    {476837158203125ull << 14, 70},
    {2384185791015625ull << 11, 74}};

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

/* The paths number_format rarely takes are kept out of it, so that it
 * sets up no registers for them. */
#define RARE __attribute__((noinline, cold))

/* put_g of digits17 x 10^(k - 16) (10^16 <= digits17 <= 10^17, its first
 * p digits significant), NUL-terminated. */
RARE static size_t put_general(char *out, bool negative, uint64_t digits17, int p, int k)
{
    uint64_t n = digits17 / POW10[17 - p];
    if (n == POW10[p]) { /* 9.99 -> 10.0: one more decimal place up */
        n /= 10;
        k++;
    }
    size_t length = put_g(out, negative, n, p, k);
    out[length] = '\0';
    return length;
}

/* A whole magnitude below 2^53, as "%.0f" prints it (common, but out of
 * number_format too). */
__attribute__((noinline)) static size_t put_whole(char *out, bool negative, uint64_t magnitude)
{
    size_t length = 0;
    if (negative)
        out[length++] = '-';
    length += put_u64(out + length, magnitude);
    out[length] = '\0';
    return length;
}

#ifdef DIGITS_IN_REGISTERS
/* The sixteen bytes of the 128-bit word high:low at out, as two 64-bit
 * stores from its halves: a 16-byte store of it would go through the
 * stack, and its reload could not be forwarded from the two stores that
 * put it there (a stall on every number, seen in a perf profile of batch). */
static inline void put_16(char *out, uint64_t low, uint64_t high)
{
    memcpy(out, &low, 8);
    memcpy(out + 8, &high, 8);
}

/* "%.*g" of digits17 x 10^(k - 16) (10^16 <= digits17 < 10^17, its first
 * p digits significant) in fixed notation, NUL-terminated, for
 * 0 <= k <= p - 2 (a fraction follows the point) or -4 <= k < 0
 * ("0.000ddd"). The p-th digit is not 0 (else a shorter precision would
 * read back), so nothing is trimmed. The digits are made in registers
 * and stored whole, the first alone and sixteen in a 128-bit word, which
 * a shift splits at the point; the zeros past the p-th land after the
 * text, overwritten by its NUL or past it. */
__attribute__((always_inline)) static inline size_t put_fixed(char *out, bool negative,
                                                              uint64_t digits17, int p, int k)
{
    uint64_t high = digits17 / 100000000; /* < 10^9 */
    uint32_t first = (uint32_t)high / 100000000;
    uint64_t rest_low = digits8((uint32_t)high - first * 100000000);
    uint64_t rest_high = digits8((uint32_t)(digits17 - high * 100000000));
    size_t at = negative ? 1 : 0, length;
    out[0] = '-';
    if (k >= 0) {
        out[at] = (char)('0' + first);
        put_16(out + at + 1, rest_low, rest_high);
        out[at + (size_t)k + 1] = '.';
        machine_shift_right_bytes(&rest_low, &rest_high, (unsigned)k); /* the digits after the point */
        put_16(out + at + (size_t)k + 2, rest_low, rest_high);
        length = at + (size_t)p + 1;
    } else {
        memcpy(out + at, "0.000000", 8);
        out[at + (size_t)(1 - k)] = (char)('0' + first);
        put_16(out + at + (size_t)(2 - k), rest_low, rest_high);
        length = at + (size_t)(1 - k + p);
    }
    out[length] = '\0';
    return length;
}
#endif

/* digits17 x 10^(k - 16), a multiple of 100 (15 digits or fewer, 1 at
 * least): each further 0 of digits17 / 100 drops one more digit. */
RARE static size_t put_hundreds(char *out, bool negative, uint64_t digits17, int k)
{
    int p = 15;
    for (uint64_t rest = digits17 / 100; p > 1 && rest % 10 == 0; rest /= 10)
        p--;
#ifdef DIGITS_IN_REGISTERS
    if (digits17 != POW10[17] && k >= -4 && k <= p - 2)
        return put_fixed(out, negative, digits17, p, k);
#endif
    return put_general(out, negative, digits17, p, k);
}

/* 10^(i - 6) as doubles, i = 0 .. 22: where floor(log10) steps. Each
 * negative power but 1e-6 is rounded up, and no double lies between it
 * and the exact power, so ">=" against it is exact; 1e-6 is rounded down,
 * and number_format takes only magnitudes above it. */
static const double POW10_DOUBLE[23] = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0,  1e1,
                                        1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                        1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16};

size_t number_format(char *buffer, size_t size, double value)
{
    char *text = buffer; /* written in place: size >= NUMBER_TEXT_MAX */
    double magnitude = fabs(value);
    if (!(magnitude > 1e-6 && magnitude < 9007199254740992.0) || size < NUMBER_TEXT_MAX)
        return number_format_reference(buffer, size, value);
    bool negative = value < 0;
    /* (int64_t, not uint64_t: below 2^53 both are exact, and the signed
     * conversions are single instructions) */
    if ((double)(int64_t)magnitude == magnitude)
        return put_whole(text, negative, (uint64_t)(int64_t)magnitude);
    uint64_t bits;
    memcpy(&bits, &magnitude, sizeof bits);
    uint64_t fraction = bits & ((1ull << 52) - 1);
    /* A power of two has a narrower interval below it; the reference
     * takes those (exact binary fractions: 0.5, 0.25, ...). */
    if (fraction == 0)
        return number_format_reference(buffer, size, value);
    uint64_t m = fraction | 1ull << 52;
    /* magnitude = m / 2^t; 1e-6 .. 2^53, not whole: 1 <= t <= 72 */
    int t = 1075 - (int)(bits >> 52);
    /* k = floor(log10(magnitude)): floor(e2 log10(2)) (1233/4096, exact
     * for these e2; >> rounds down), then one comparison with the power
     * of ten above. */
    int e2 = 52 - t; /* 2^e2 <= magnitude < 2^(e2+1) */
    int k = (e2 * 1233) >> 12;
    k += magnitude >= POW10_DOUBLE[k + 7]; /* k + 1 is in -6 .. 16 */
    /* X = magnitude x 10^(16-k), 10^16 <= X < 10^17 (its seventeen digits
     * before the point), as a 64.64 fixed point number (POW5_TOP):
     * x = X 2^64. */
    int s0 = 16 - k; /* 1 .. 22 */
    uint64_t five_half = POW5_TOP[s0].five_half;
    int a = POW5_TOP[s0].length - t; /* 1 .. 5 */
    uint64_t q17; /* X's integer part; rem its fraction, in 2^-64 */
    uint64_t rem = machine_multiply_wide(m << a, five_half << 1, &q17);
    /* The read-back interval: X +- the half-ulp, 10^(16-k) / 2^(t+1) units
     * of X, which is five_half << a in 2^-64 units, a whole part (0 .. 11,
     * see below) and a fraction. strtod breaks ties to the even mantissa,
     * so the interval's ends count for an even m only: one 2^-64 less for
     * an odd one (the fraction is a nonzero multiple of 2^12: no borrow).
     * The integers in it are then q17 - below .. q17 + above, the carries
     * of rem -/+ the fraction deciding (below may be -1). */
    uint64_t reach_whole; /* (a multiply: both words at once) */
    uint64_t reach_fraction = machine_multiply_wide(five_half, 1ull << a, &reach_whole) - (m & 1);
    uint64_t above = reach_whole + (rem > ~reach_fraction);
    uint64_t below = reach_whole - (rem > reach_fraction);
    uint64_t span = below + above; /* one less than their count */
    /* The reference prints X rounded to the fewest digits that read back.
     * X rounded to 17 - j digits reads back if and only if some multiple
     * of 10^j lies in the interval (the nearest one is then no farther
     * from X, and the interval is the same either side: number_format
     * leaves powers of two to the reference); it is then a multiple of
     * 10^(j-1) too, so that j is the largest such.
     * Seventeen digits always read back: the half-ulp is
     * 10^(16-k) / 2^(t+1) units, and 2^-t = magnitude / m >= 10^k / 2^53,
     * so it is at least 10^16 / 2^54 = 0.555 units, more than the
     * rounding's half unit; it is below 10^17 / 2^53 = 11.1 units
     * (magnitude < 10^(k+1), m > 2^52), so the interval holds at most one
     * multiple of 100 but up to three of 10.
     * So X's nearest multiples of 1, 10 and 100 are all made, as small
     * offsets from q17 (printf's rounding, half to even on the exact X),
     * and tested against the interval; sixteen or seventeen digits are
     * chosen without a branch (how many a value needs is as good as
     * random), fifteen or fewer out of line. The digits are kept
     * seventeen long (zeros after the last one). */
    /* q17 mod 100 from the fraction of q17 / 100 (Lemire, Kaser, Kurz,
     * "Faster remainder by direct computation": exact for q17 < 2^57 with
     * 64 bits of fraction, 57 + 7 bits of 100), then its two digits. */
    uint64_t hundredths = q17 * (UINT64_MAX / 100 + 1);
    uint64_t r15;
    machine_multiply_wide(hundredths, 100, &r15);
    uint64_t tens = (r15 * 103) >> 10; /* r15 / 10 (exact below 100); its parity is q17 / 10's */
    uint64_t r16 = r15 - 10 * tens;
    /* The odd bit or'ed in makes exactly half round up for an odd q17. */
    uint64_t round17 = (rem | (q17 & 1)) > 1ull << 63;
    /* r + sticky > 5: above half, or half with a fraction or an odd
     * quotient. */
    uint64_t round16 = 10 * (uint64_t)(r16 + ((rem != 0) | (tens & 1)) > 5) - r16;
    /* (a tie cannot read back: it is 50 units away) */
    uint64_t round15 = 100 * (uint64_t)(r15 >= 50) - r15;
    if (round15 + below <= span) /* (wraps around when below the interval) */
        return put_hundreds(text, negative, q17 + round15, k);
    uint64_t take16 = 0 - (uint64_t)(round16 + below <= span);
    /* < 10^17: 10^17 would take fewer digits */
    uint64_t digits17 = q17 + round17 + ((round16 - round17) & take16);
    int p = 17 - (int)(take16 & 1);
#ifdef DIGITS_IN_REGISTERS
    if ((unsigned)(k + 4) <= (unsigned)(p + 2)) /* -4 <= k <= p - 2 (k < -4 wraps around) */
        return put_fixed(text, negative, digits17, p, k);
#endif
    return put_general(text, negative, digits17, p, k); /* exponents, no fraction */
}
