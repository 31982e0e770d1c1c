/* Size lists: -b/-e/-f/-i as nccl-tests, or --sizes lists and ranges. */
#include "sizes.h"

#include <stdbool.h>
#include <string.h>

#include "collcalc/units.h"

static int add_size(cli_context *ctx, uint64_t *sizes, int *count, uint64_t size)
{
    if (*count >= MAX_SWEEP_SIZES)
        return cli_usage_error(ctx, NULL, "more than %d sizes: use a larger step (-f, -i)",
                           MAX_SWEEP_SIZES);
    sizes[(*count)++] = size;
    return 0;
}

/* Walks min..max by factor (> 1) or by step, as nccl-tests does. */
static int expand_range(cli_context *ctx, uint64_t min_bytes, uint64_t max_bytes,
                        double factor, uint64_t step, uint64_t *sizes, int *count)
{
    if (min_bytes > max_bytes)
        return cli_usage_error(ctx, "-b", "the first size is larger than the last (-e)");
    uint64_t size = min_bytes;
    for (;;) {
        int code = add_size(ctx, sizes, count, size);
        if (code != 0)
            return code;
        if (size >= max_bytes)
            break;
        uint64_t next;
        if (factor > 1.0) {
            double grown = (double)size * factor;
            next = grown >= 1.8e19 ? UINT64_MAX : (uint64_t)grown;
            if (next <= size)
                next = size + 1;
        } else {
            next = size + step;
        }
        if (next <= size || next > max_bytes)
            break; /* past the end, or past UINT64_MAX */
        size = next;
    }
    return 0;
}

int sizes_expand(cli_context *ctx, const char *default_list, uint64_t default_min,
                 uint64_t default_max, uint64_t *sizes, int *out_count)
{
    int count = 0;
    uint64_t low = default_min, high = default_max, step = 1048576;
    double factor = 2.0;
    bool min_set = arg_given(&ctx->args, OPT_MIN_BYTES), max_set = arg_given(&ctx->args, OPT_MAX_BYTES);
    bool step_set = arg_given(&ctx->args, OPT_STEP_BYTES);
    bool factor_set = arg_given(&ctx->args, OPT_STEP_FACTOR);
    const char *list = arg_value(&ctx->args, OPT_SIZES);
    if (list == NULL && arg_given(&ctx->args, OPT_SIZE))
        list = arg_value(&ctx->args, OPT_SIZE);
    if (list != NULL && (min_set || max_set || step_set))
        return cli_usage_error(ctx, "--sizes", "give a size list or -b/-e/-i, not both");
    if (step_set && factor_set)
        return cli_usage_error(ctx, "-i", "give -f or -i, not both");
    int code = cli_size(ctx, OPT_MIN_BYTES, &low);
    if (code == 0)
        code = cli_size(ctx, OPT_MAX_BYTES, &high);
    if (code == 0)
        code = cli_size(ctx, OPT_STEP_BYTES, &step);
    if (code == 0)
        code = cli_number(ctx, OPT_STEP_FACTOR, 1.0, 1024.0, &factor);
    if (code != 0)
        return code;
    if (step_set && step == 0)
        return cli_usage_error(ctx, "-i", "the step must be at least 1 byte");
    if (factor_set && factor <= 1.0)
        return cli_usage_error(ctx, "-f", "the factor must be more than 1 (use -i to add a step)");
    if (list == NULL && !min_set && !max_set && default_list != NULL)
        list = default_list;
    if (list == NULL) {
        if (min_set && !max_set)
            high = low;
        if (step_set)
            factor = 1.0;
        code = expand_range(ctx, low, high, factor, step, sizes, &count);
        *out_count = count;
        return code;
    }
    collcalc_diag diag;
    char buffer[2048];
    if (strlen(list) >= sizeof buffer)
        return cli_usage_error(ctx, "--sizes", "list too long");
    strcpy(buffer, list);
    char *item = buffer;
    while (item != NULL && code == 0) {
        char *comma = strchr(item, ',');
        if (comma != NULL)
            *comma = '\0';
        char *dots = strstr(item, "..");
        if (dots != NULL) {
            *dots = '\0';
            uint64_t a, b;
            if (collcalc_size_bytes_parse(item, &a, &diag) != COLLCALC_OK ||
                collcalc_size_bytes_parse(dots + 2, &b, &diag) != COLLCALC_OK)
                return cli_usage_error(ctx, "--sizes", "%s", diag.message);
            code = expand_range(ctx, a, b, factor, 1, sizes, &count);
        } else {
            uint64_t size;
            if (collcalc_size_bytes_parse(item, &size, &diag) != COLLCALC_OK)
                return cli_usage_error(ctx, arg_given(&ctx->args, OPT_SIZES) ? "--sizes" : "--size",
                                       "%s", diag.message);
            code = add_size(ctx, sizes, &count, size);
        }
        item = comma != NULL ? comma + 1 : NULL;
    }
    *out_count = count;
    return code;
}
