/* Where NCCL's tuner changes its mind across message sizes
 * (collcalc_nccl_switch_points in include/collcalc/nccl_model.h). */
#include <string.h>

#include "collcalc/nccl_model.h"

typedef struct {
    bool runs; /* something can run at this size */
    collcalc_nccl_algo algo;
    collcalc_nccl_proto proto;
    int channels;
} choice;

static collcalc_status choose(const collcalc_nccl_system *system,
                              const collcalc_nccl_constants *constants,
                              const collcalc_nccl_options *options, collcalc_nccl_func func,
                              uint64_t size_bytes, choice *out, collcalc_diag *diag)
{
    collcalc_nccl_prediction prediction;
    collcalc_status status =
        collcalc_nccl_predict(system, constants, options, func, size_bytes, &prediction, diag);
    if (status != COLLCALC_OK)
        return status;
    const collcalc_nccl_candidate *c = collcalc_nccl_selected(&prediction);
    memset(out, 0, sizeof *out);
    if (c != NULL) {
        out->runs = true;
        out->algo = c->algo;
        out->proto = c->proto;
        out->channels = c->channels_run;
    }
    return COLLCALC_OK;
}

static bool same(const choice *a, const choice *b)
{
    return a->runs == b->runs && (!a->runs || (a->algo == b->algo && a->proto == b->proto));
}

collcalc_status collcalc_nccl_switch_points(const collcalc_nccl_system *system,
                                            const collcalc_nccl_constants *constants,
                                            const collcalc_nccl_options *options,
                                            collcalc_nccl_func func, uint64_t min_bytes,
                                            uint64_t max_bytes, collcalc_nccl_choice_range *ranges,
                                            size_t capacity, size_t *out_count,
                                            collcalc_diag *diag)
{
    if (ranges == NULL || out_count == NULL || capacity == 0 || min_bytes == 0 ||
        max_bytes < min_bytes)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "switch points need 1 <= min <= max bytes and room for a range");
    *out_count = 0;
    choice current;
    collcalc_status status = choose(system, constants, options, func, min_bytes, &current, diag);
    if (status != COLLCALC_OK)
        return status;
    size_t count = 0;
    ranges[0] = (collcalc_nccl_choice_range){min_bytes, max_bytes, current.runs, current.algo,
                                             current.proto, current.channels};
    /* Probe at every power of two above min (and at max); where the choice
     * differs from the last probe, bisect to the first byte of the new one. */
    uint64_t low = min_bytes;
    while (low < max_bytes) {
        uint64_t high = low > (max_bytes >> 1) ? max_bytes : low * 2;
        if (high > max_bytes)
            high = max_bytes;
        choice probe;
        if ((status = choose(system, constants, options, func, high, &probe, diag)) !=
            COLLCALC_OK)
            return status;
        if (!same(&probe, &current)) {
            /* current holds at low, probe at high: find the first byte of a
             * different choice in (low, high]. */
            uint64_t a = low, b = high;
            choice at_b = probe;
            while (b - a > 1) {
                uint64_t mid = a + (b - a) / 2;
                choice m;
                if ((status = choose(system, constants, options, func, mid, &m, diag)) !=
                    COLLCALC_OK)
                    return status;
                if (same(&m, &current))
                    a = mid;
                else {
                    b = mid;
                    at_b = m;
                }
            }
            ranges[count].to_bytes = a;
            if (count + 1 == capacity) {
                *out_count = capacity;
                return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                          "more than %zu changes of NCCL's choice", capacity - 1);
            }
            count++;
            ranges[count] = (collcalc_nccl_choice_range){b, max_bytes, at_b.runs, at_b.algo,
                                                         at_b.proto, at_b.channels};
            current = at_b;
            low = b;
            continue; /* the next probe doubles from the switch */
        }
        low = high;
    }
    *out_count = count + 1;
    return COLLCALC_OK;
}
