/* Size lists for sweeps and comparisons: nccl-tests' -b/-e/-f/-i, or an
 * explicit list "64KB,1MB,100MB" or range "8..1G" (doubling). */
#ifndef COLLCALC_CLI_SIZES_H
#define COLLCALC_CLI_SIZES_H

#include <stdint.h>

#include "context.h"

#define MAX_SWEEP_SIZES 4096

/* Expands -b/-e/-f/-i or --sizes (or default_list when none is given, or
 * default_min..default_max doubling when default_list is NULL) into at
 * most MAX_SWEEP_SIZES sizes. Returns 0 or an exit code. */
int sizes_expand(cli_context *ctx, const char *default_list, uint64_t default_min,
                 uint64_t default_max, uint64_t *sizes, int *out_count);

#endif
