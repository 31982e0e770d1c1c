/* Size lists and ranges as nccl-tests walks them (collcalc/answer.h). */
#include <stdio.h>
#include <string.h>

#include "collcalc/answer.h"
#include "collcalc/units.h"

static collcalc_status add_size(uint64_t *sizes, int *count, int capacity, uint64_t size,
                                collcalc_diag *diag)
{
    if (*count >= capacity)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "count: more than %d sizes: use a larger step (-f, -i)",
                                  capacity);
    sizes[(*count)++] = size;
    return COLLCALC_OK;
}

collcalc_status collcalc_size_range(uint64_t first, uint64_t last, double factor, uint64_t step,
                                    uint64_t *sizes, int *count, int capacity,
                                    collcalc_diag *diag)
{
    if (first > last)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "first: the first size is larger than the last (-e)");
    uint64_t size = first;
    for (;;) {
        collcalc_status status = add_size(sizes, count, capacity, size, diag);
        if (status != COLLCALC_OK)
            return status;
        if (size >= last)
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
        if (next <= size || next > last)
            break; /* past the end, or past UINT64_MAX */
        size = next;
    }
    return COLLCALC_OK;
}

collcalc_status collcalc_size_list(const char *list, double factor, uint64_t *sizes, int *count,
                                   int capacity, collcalc_diag *diag)
{
    char buffer[2048];
    if (strlen(list) >= sizeof buffer)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "list: list too long");
    strcpy(buffer, list);
    collcalc_status status = COLLCALC_OK;
    collcalc_diag failed;
    for (char *item = buffer; item != NULL && status == COLLCALC_OK;) {
        char *comma = strchr(item, ',');
        if (comma != NULL)
            *comma = '\0';
        char *dots = strstr(item, "..");
        uint64_t a, b;
        if (dots != NULL)
            *dots = '\0';
        if (collcalc_size_bytes_parse(item, &a, &failed) != COLLCALC_OK ||
            (dots != NULL && collcalc_size_bytes_parse(dots + 2, &b, &failed) != COLLCALC_OK))
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "list: %s", failed.message);
        status = dots != NULL ? collcalc_size_range(a, b, factor, 1, sizes, count, capacity, diag)
                              : add_size(sizes, count, capacity, a, diag);
        item = comma != NULL ? comma + 1 : NULL;
    }
    return status;
}
