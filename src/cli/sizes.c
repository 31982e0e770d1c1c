/* Size lists: -b/-e/-f/-i as nccl-tests, or --sizes lists and ranges. */
#include "sizes.h"

#include <string.h>

#include "collcalc/units.h"

int sizes_apply(cli_settings *settings, size_request *request, int id, const char *option,
                const char *value)
{
    collcalc_diag diag;
    switch (id) {
    case OPT_MIN_BYTES:
        if (collcalc_parse_size_bytes(value, &request->min_bytes, &diag) != COLLCALC_OK)
            return usage_error(settings, option, "%s", diag.message);
        request->min_set = true;
        return 0;
    case OPT_MAX_BYTES:
        if (collcalc_parse_size_bytes(value, &request->max_bytes, &diag) != COLLCALC_OK)
            return usage_error(settings, option, "%s", diag.message);
        request->max_set = true;
        return 0;
    case OPT_STEP_BYTES:
        if (collcalc_parse_size_bytes(value, &request->step_bytes, &diag) != COLLCALC_OK)
            return usage_error(settings, option, "%s", diag.message);
        if (request->step_bytes == 0)
            return usage_error(settings, option, "the step must be at least 1 byte");
        request->step_set = true;
        return 0;
    case OPT_STEP_FACTOR:
        if (collcalc_parse_number(value, 1.0, 1024.0, &request->factor, &diag) != COLLCALC_OK)
            return usage_error(settings, option, "%s", diag.message);
        request->factor_set = true;
        return 0;
    case OPT_SIZES:
        request->list_text = value;
        return 0;
    default:
        return -1;
    }
}

static int add_size(const cli_settings *settings, uint64_t *sizes, int *count, uint64_t size)
{
    if (*count >= MAX_SWEEP_SIZES)
        return usage_error(settings, NULL, "more than %d sizes: use a larger step (-f, -i)",
                           MAX_SWEEP_SIZES);
    sizes[(*count)++] = size;
    return 0;
}

/* Walks min..max by factor (> 1) or by step, as nccl-tests does. */
static int expand_range(const cli_settings *settings, uint64_t min_bytes, uint64_t max_bytes,
                        double factor, uint64_t step, uint64_t *sizes, int *count)
{
    if (min_bytes > max_bytes)
        return usage_error(settings, "-b", "the first size is larger than the last (-e)");
    uint64_t size = min_bytes;
    for (;;) {
        int code = add_size(settings, sizes, count, size);
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

int sizes_expand(const cli_settings *settings, const size_request *request, uint64_t default_min,
                 uint64_t default_max, uint64_t *sizes, int *out_count)
{
    int count = 0, code = 0;
    collcalc_diag diag;
    if (request->list_text != NULL) {
        char buffer[2048];
        if (strlen(request->list_text) >= sizeof buffer)
            return usage_error(settings, "--sizes", "list too long");
        strcpy(buffer, request->list_text);
        char *item = buffer;
        while (item != NULL && code == 0) {
            char *comma = strchr(item, ',');
            if (comma != NULL)
                *comma = '\0';
            char *dots = strstr(item, "..");
            if (dots != NULL) {
                *dots = '\0';
                uint64_t low, high;
                if (collcalc_parse_size_bytes(item, &low, &diag) != COLLCALC_OK ||
                    collcalc_parse_size_bytes(dots + 2, &high, &diag) != COLLCALC_OK)
                    return usage_error(settings, "--sizes", "%s", diag.message);
                double factor = request->factor_set ? request->factor : 2.0;
                code = expand_range(settings, low, high, factor, 1, sizes, &count);
            } else {
                uint64_t size;
                if (collcalc_parse_size_bytes(item, &size, &diag) != COLLCALC_OK)
                    return usage_error(settings, "--sizes", "%s", diag.message);
                code = add_size(settings, sizes, &count, size);
            }
            item = comma != NULL ? comma + 1 : NULL;
        }
    } else {
        uint64_t low = request->min_set ? request->min_bytes : default_min;
        uint64_t high = request->max_set ? request->max_bytes : (request->min_set ? low : default_max);
        double factor = request->factor_set ? request->factor : (request->step_set ? 1.0 : 2.0);
        uint64_t step = request->step_set ? request->step_bytes : 1048576;
        code = expand_range(settings, low, high, factor, step, sizes, &count);
    }
    *out_count = count;
    return code;
}
