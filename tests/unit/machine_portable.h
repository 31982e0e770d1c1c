/* machine.h's portable twins, as functions (tests/unit/machine_portable.c). */
#ifndef COLLCALC_TESTS_MACHINE_PORTABLE_H
#define COLLCALC_TESTS_MACHINE_PORTABLE_H

#include <stdint.h>

uint64_t portable_multiply_wide(uint64_t a, uint64_t b, uint64_t *high);
void portable_shift_right_bytes(uint64_t *low, uint64_t *high, unsigned bytes);

#endif
