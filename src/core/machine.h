/* What the hot paths (number_format, batch's line scans and plan cache)
 * may use of the machine, chosen at compile time, each with a portable
 * twin that gives the same results:
 *   MACHINE_INT128  the compiler's unsigned __int128 (absent on i386 and
 *                   armhf, where 64 x 64 -> 128-bit products are made of
 *                   four 32-bit ones instead);
 *   MACHINE_SSE2    SSE2 compares, sixteen bytes at a time (x86; else
 *                   eight at a time in a 64-bit word, or one by one).
 * COLLCALC_PORTABLE (the CMake option of that name) turns both off, so
 * that the portable twins are built and tested on any machine (.ci/run
 * runs the suite once that way). */
#ifndef COLLCALC_CORE_MACHINE_H
#define COLLCALC_CORE_MACHINE_H

#include <stdint.h>

#if defined(__SIZEOF_INT128__) && !defined(COLLCALC_PORTABLE)
#define MACHINE_INT128 1
#endif
#if defined(__SSE2__) && !defined(COLLCALC_PORTABLE)
#define MACHINE_SSE2 1
#endif

/* a x b: returns the product's low 64 bits, its high 64 in *high. */
static inline uint64_t machine_multiply_wide(uint64_t a, uint64_t b, uint64_t *high)
{
#ifdef MACHINE_INT128
    __extension__ typedef unsigned __int128 u128;
    u128 product = (u128)a * b;
    *high = (uint64_t)(product >> 64);
    return (uint64_t)product;
#else
    /* Schoolbook on 32-bit halves. cross cannot overflow: it is at most
     * 2 (2^32 - 1) + (2^32 - 1)^2 = 2^64 - 1. */
    uint64_t a_low = (uint32_t)a, a_high = a >> 32, b_low = (uint32_t)b, b_high = b >> 32;
    uint64_t low_low = a_low * b_low, high_low = a_high * b_low;
    uint64_t low_high = a_low * b_high, high_high = a_high * b_high;
    uint64_t cross = (low_low >> 32) + (uint32_t)high_low + low_high;
    *high = high_high + (high_low >> 32) + (cross >> 32);
    return cross << 32 | (uint32_t)low_low;
#endif
}

/* The 128-bit word high:low shifted right by 8 x bytes bits (bytes < 16). */
static inline void machine_shift_right_bytes(uint64_t *low, uint64_t *high, unsigned bytes)
{
#ifdef MACHINE_INT128
    __extension__ typedef unsigned __int128 u128;
    u128 word = (u128)*high << 64 | *low;
    word >>= 8 * bytes;
    *low = (uint64_t)word;
    *high = (uint64_t)(word >> 64);
#else
    if (bytes >= 8) {
        *low = *high >> (8 * (bytes - 8));
        *high = 0;
    } else if (bytes > 0) {
        *low = *low >> (8 * bytes) | *high << (64 - 8 * bytes);
        *high >>= 8 * bytes;
    }
#endif
}

#endif
