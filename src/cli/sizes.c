/* Size lists: -b/-e/-f/-i as nccl-tests, or --sizes lists and ranges. */
#include "sizes.h"

#include <stdbool.h>
#include <string.h>

#include "collcalc/answer.h"

/* A size-list error of the library said with the option it came from. */
static int size_error(cli_context *ctx, const collcalc_diag *diag)
{
    const char *text = strchr(diag->message, ':') + 2;
    if (strncmp(diag->message, "count:", 6) == 0)
        return cli_usage_error(ctx, NULL, "%s", text);
    if (strncmp(diag->message, "first:", 6) == 0)
        return cli_usage_error(ctx, "-b", "%s", text);
    return cli_usage_error(ctx, arg_given(&ctx->args, OPT_SIZES) ? "--sizes" : "--size", "%s",
                           text);
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
    collcalc_diag diag;
    collcalc_status status;
    if (list == NULL) {
        if (min_set && !max_set)
            high = low;
        if (step_set)
            factor = 1.0;
        status = collcalc_size_range(low, high, factor, step, sizes, &count, MAX_SWEEP_SIZES, &diag);
    } else {
        status = collcalc_size_list(list, factor, sizes, &count, MAX_SWEEP_SIZES, &diag);
    }
    *out_count = count;
    return status == COLLCALC_OK ? 0 : size_error(ctx, &diag);
}
