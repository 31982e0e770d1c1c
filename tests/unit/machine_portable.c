/* machine.h's portable twins, compiled with COLLCALC_PORTABLE defined
 * (tests/CMakeLists.txt), for test_machine to compare with the paths the
 * rest of the build uses. */
#include <stdint.h>

#include "machine.h"
#include "machine_portable.h"

#if defined(MACHINE_INT128) || defined(MACHINE_SSE2)
#error "machine_portable.c must be compiled with COLLCALC_PORTABLE"
#endif

uint64_t portable_multiply_wide(uint64_t a, uint64_t b, uint64_t *high)
{
    return machine_multiply_wide(a, b, high);
}

void portable_shift_right_bytes(uint64_t *low, uint64_t *high, unsigned bytes)
{
    machine_shift_right_bytes(low, high, bytes);
}
