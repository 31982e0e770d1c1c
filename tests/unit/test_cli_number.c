/* The fast shortest-double printer (src/output/number.c) prints exactly
 * what the reference loop ("%.*g", smallest precision that reads back)
 * prints: random bit patterns, random magnitudes in the range the fast path
 * takes, the model's own ratios, ties, powers of two and the boundaries. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include "number.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static double POW10_TEST(int n)
{
    double p = 1;
    while (n-- > 0)
        p *= 10;
    return p;
}

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static int check(double value)
{
    char fast[64], slow[64];
    number_format(fast, sizeof fast, value);
    number_format_reference(slow, sizeof slow, value);
    if (strcmp(fast, slow) != 0) {
        print_error("%.17g: fast '%s', reference '%s'\n", value, fast, slow);
        return 1;
    }
    return 0;
}

static void same_text_as_reference(void **unused)
{
    (void)unused;
    int failures = 0;
    static const double fixed[] = {0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.2, 0.3, 1e-6, 1e-7, 9.999999e-7,
                                   1.75, 194.44444444444446, 222.44444444444446, 449.5504495504496,
                                   786.7132867132867, 0.0003125, 1e-300, 1e300, 5e-324, 2.5, 0.125,
                                   9007199254740991.0, 9007199254740992.0, 9007199254740993.5,
                                   4503599627370495.5, 0.999999999999999, 9.9999999999999995e-5,
                                   123456.5, 99999.99999999999, 1e15, 1e16 + 2, 1.0 / 3.0};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        failures += check(fixed[i]);
        failures += check(-fixed[i]);
        failures += check(nextafter(fixed[i], 0.0));
        failures += check(nextafter(fixed[i], INFINITY));
    }
    for (int e = -30; e < 60; e++) /* powers of two: the narrow interval below */
        failures += check(ldexp(1.0, e));
    for (int i = 0; i < 40000 && failures < 20; i++) {
        uint64_t bits = next_random();
        double value;
        memcpy(&value, &bits, sizeof value);
        failures += check(value);
        /* magnitudes the fast path takes: 1e-7 .. 1e16 */
        double scaled = ldexp((double)(next_random() >> 11), -53) * pow(10.0, (double)(int)(next_random() % 24) - 7);
        failures += check(scaled);
        /* short decimals and model-like quotients */
        double shortish = (double)(next_random() % 100000) / (double)POW10_TEST((int)(next_random() % 8));
        failures += check(shortish);
        failures += check((double)(next_random() % 1000000000) / (double)(1 + next_random() % 2000));
    }
    assert_int_equal(failures, 0);
}

/* The integer printer against printf at every digit count and the ends. */
static void integers_as_printf(void **unused)
{
    (void)unused;
    long long values[64 * 2 + 4];
    size_t count = 0;
    for (int digits = 1; digits <= 19; digits++) {
        long long p = 1;
        for (int i = 1; i < digits; i++)
            p *= 10;
        values[count++] = p;         /* 1, 10, 100, ... */
        values[count++] = p - 1;     /* 0, 9, 99, ... */
        values[count++] = -p;
        values[count++] = p + p / 3; /* a digit of every kind */
    }
    values[count++] = LLONG_MAX;
    values[count++] = LLONG_MIN;
    values[count++] = LLONG_MIN + 1;
    for (size_t i = 0; i < count; i++) {
        char fast[32], slow[32];
        size_t n = number_format_integer(fast, values[i]);
        fast[n] = '\0';
        snprintf(slow, sizeof slow, "%lld", values[i]);
        assert_string_equal(fast, slow);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(same_text_as_reference),
                                       cmocka_unit_test(integers_as_printf)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
