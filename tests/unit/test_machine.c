/* machine.h: the 128-bit products and shifts of the hot paths, built on
 * unsigned __int128 where the compiler has it and from 32-bit halves
 * otherwise (COLLCALC_PORTABLE), give the same words: exact values at the
 * edges, then both paths on a million pseudo-random operands. */
#include "support.h"

#include <stdint.h>

#include "machine.h"
#include "machine_portable.h"

/* a x b, both ways, against the expected words. */
static void assert_product(uint64_t a, uint64_t b, uint64_t want_high, uint64_t want_low)
{
    uint64_t high = 0, low = machine_multiply_wide(a, b, &high);
    assert_true(high == want_high && low == want_low);
    high = 0;
    low = portable_multiply_wide(a, b, &high);
    assert_true(high == want_high && low == want_low);
}

static void test_products_at_the_edges(void **state)
{
    (void)state;
    const uint64_t max = UINT64_MAX;
    assert_product(0, 0, 0, 0);
    assert_product(max, 0, 0, 0);
    assert_product(max, 1, 0, max);
    assert_product(max, max, max - 1, 1); /* (2^64 - 1)^2 = 2^128 - 2^65 + 1 */
    assert_product(1ull << 32, 1ull << 32, 1, 0);
    assert_product(0xFFFFFFFFull, 0xFFFFFFFFull, 0, 0xFFFFFFFE00000001ull);
    assert_product(1ull << 63, 2, 1, 0);
    /* 10^17 x 10^3 = 10^20 = 5 x 2^64 + 7766279631452241920 */
    assert_product(100000000000000000ull, 1000, 5, 7766279631452241920ull);
}

/* A splitmix64 step: a fixed sequence, the same on every machine. */
static uint64_t next(uint64_t *seed)
{
    uint64_t z = (*seed += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void test_both_paths_agree(void **state)
{
    (void)state;
    uint64_t seed = 19;
    for (int i = 0; i < 1000000; i++) {
        uint64_t a = next(&seed), b = next(&seed);
        if (i % 4 == 1)
            a >>= (unsigned)(b % 64); /* short operands too */
        uint64_t high = 0, low = machine_multiply_wide(a, b, &high);
        uint64_t portable_high = 0, portable_low = portable_multiply_wide(a, b, &portable_high);
        if (high != portable_high || low != portable_low) {
            print_error("%llx x %llx\n", (unsigned long long)a, (unsigned long long)b);
            fail();
        }
    }
}

static void test_shifts(void **state)
{
    (void)state;
    const uint64_t low0 = 0x0807060504030201ull, high0 = 0x100F0E0D0C0B0A09ull;
    for (unsigned bytes = 0; bytes < 16; bytes++) {
        uint64_t low = low0, high = high0, portable_low = low0, portable_high = high0;
        machine_shift_right_bytes(&low, &high, bytes);
        portable_shift_right_bytes(&portable_low, &portable_high, bytes);
        /* byte j of the result is byte j + bytes of the word: j + bytes + 1 */
        for (unsigned j = 0; j < 16; j++) {
            uint64_t word = j < 8 ? low : high;
            unsigned got = (unsigned)(word >> (8 * (j % 8))) & 0xFF;
            assert_int_equal(got, j + bytes < 16 ? j + bytes + 1 : 0);
        }
        assert_true(low == portable_low && high == portable_high);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_products_at_the_edges),
        cmocka_unit_test(test_both_paths_agree),
        cmocka_unit_test(test_shifts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
