/* Size lists for sweeps and comparisons: nccl-tests' -b/-e/-f/-i, or an
 * explicit list "64KB,1MB,100MB" or range "8..1G" (doubling). */
#ifndef COLLCALC_CLI_SIZES_H
#define COLLCALC_CLI_SIZES_H

#include <stdbool.h>
#include <stdint.h>

#include "setup.h"

#define MAX_SWEEP_SIZES 4096

typedef struct {
    bool min_set, max_set, factor_set, step_set;
    uint64_t min_bytes, max_bytes, step_bytes;
    double factor;
    const char *list_text; /* --sizes */
} size_request;

/* Applies -b/-e/-f/-i/--sizes; returns 0, an exit code, or -1 when id is not a size option. */
int sizes_apply(cli_settings *settings, size_request *request, int id, const char *option,
                const char *value);

/* Expands the request into at most MAX_SWEEP_SIZES sizes. default_min and
 * default_max apply when neither -b/-e nor --sizes were given. Returns 0 or
 * an exit code. */
int sizes_expand(const cli_settings *settings, const size_request *request, uint64_t default_min,
                 uint64_t default_max, uint64_t *sizes, int *out_count);

#endif
