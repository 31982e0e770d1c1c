/* Verdicts on nccl-tests runs (include/collcalc/nccl_check.h; doc/MODEL.md
 * §15). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_check.h"

double collcalc_check_line_rate_GBps(const collcalc_platform *platform, const collcalc_link *intra,
                                     const collcalc_link *inter, int nodes, int gpus_per_node)
{
    if (platform == NULL)
        return 0.0;
    double rate = intra != NULL ? intra->bw_per_direction_GBps : 0.0;
    if (nodes > 1 && inter != NULL) {
        int per_gpu = platform->nics_per_gpu > 0 ? platform->nics_per_gpu : 1;
        int drivable = gpus_per_node * per_gpu;
        int nics = platform->nics_per_node < drivable ? platform->nics_per_node : drivable;
        double net = nics * inter->bw_per_direction_GBps;
        /* One GPU per node: the NICs alone set the ceiling. */
        rate = gpus_per_node > 1 && rate > 0.0 && rate < net ? rate : net;
    }
    return rate > 0.0 && isfinite(rate) ? rate : 0.0;
}

void collcalc_check_init(collcalc_check *check, double line_rate_GBps)
{
    memset(check, 0, sizeof *check);
    check->line_rate_GBps = line_rate_GBps > 0.0 && isfinite(line_rate_GBps) ? line_rate_GBps : 0.0;
    check->worst_ratio = 1.0;
}

void collcalc_check_use_bands(collcalc_check *check, const collcalc_nccl_system *system,
                              collcalc_nccl_func func)
{
    if (check == NULL)
        return;
    check->system = system;
    check->func = func;
}

static bool in_network(collcalc_nccl_algo algo)
{
    return algo == COLLCALC_NCCL_NVLS || algo == COLLCALC_NCCL_NVLS_TREE ||
           algo == COLLCALC_NCCL_COLLNET_DIRECT || algo == COLLCALC_NCCL_COLLNET_CHAIN;
}

void collcalc_check_add(collcalc_check *check, uint64_t size_bytes, double measured_time_us,
                        double measured_busbw_GBps, const collcalc_nccl_candidate *predicted)
{
    if (predicted == NULL || size_bytes == 0 || !(measured_time_us > 0.0) ||
        !isfinite(measured_time_us))
        return;
    double time_error = fabs(predicted->time_us - measured_time_us) / measured_time_us;
    if (size_bytes <= COLLCALC_CHECK_SMALL_BYTES) {
        if (check->small_count < COLLCALC_CHECK_ROWS_MAX)
            check->time_error[check->small_count++] = time_error;
        else
            check->rows_over_cap++;
    }
    if (size_bytes < COLLCALC_CHECK_LARGE_BYTES || !(predicted->busbw_GBps > 0.0) ||
        !(measured_busbw_GBps > 0.0) || !isfinite(measured_busbw_GBps))
        return;
    double ratio = measured_busbw_GBps / predicted->busbw_GBps;
    if (check->large_count < COLLCALC_CHECK_ROWS_MAX) {
        check->busbw_error[check->large_count] =
            fabs(predicted->busbw_GBps - measured_busbw_GBps) / measured_busbw_GBps;
        check->ratio_large[check->large_count++] = ratio;
    } else {
        check->rows_over_cap++;
    }
    double below = COLLCALC_CHECK_BELOW_RATIO;
    if (check->system != NULL) {
        collcalc_nccl_band band;
        collcalc_nccl_band_of(check->system, check->func, size_bytes, &band);
        if (!band.evidence) {
            check->unjudged_count++;
            if (check->judged_count == 0)
                check->band = band; /* names the regime a no-evidence verdict is about */
            below = 0.0; /* no row is below a band that does not exist */
        } else {
            below = band.low_ratio;
            if (check->judged_count < COLLCALC_CHECK_ROWS_MAX)
                check->over_low[check->judged_count++] = ratio / band.low_ratio;
            if (size_bytes >= check->band_bytes) {
                check->band = band;
                check->band_bytes = size_bytes;
            }
        }
    }
    if (ratio < below) {
        if (check->below_count++ == 0)
            check->below_min_bytes = size_bytes;
        check->below_max_bytes = size_bytes;
        if (ratio < check->worst_ratio)
            check->worst_ratio = ratio;
    }
    if (!check->above_line && !in_network(predicted->algo) && check->line_rate_GBps > 0.0 &&
        measured_busbw_GBps > check->line_rate_GBps * COLLCALC_CHECK_LINE_SLACK &&
        ratio > COLLCALC_CHECK_ABOVE_RATIO) {
        check->above_line = true;
        check->above_bytes = size_bytes;
        check->above_busbw_GBps = measured_busbw_GBps;
    }
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of values[0..count), which it sorts; `fallback` when empty. */
static double median_of(double *values, size_t count, double fallback)
{
    if (count == 0)
        return fallback;
    qsort(values, count, sizeof values[0], compare_doubles);
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

void collcalc_check_finish(collcalc_check *check, collcalc_check_summary *out)
{
    out->median_ratio = median_of(check->ratio_large, check->large_count, 1.0);
    out->median_busbw_error = median_of(check->busbw_error, check->large_count, 0.0);
    out->median_time_error = median_of(check->time_error, check->small_count, 0.0);
    out->median_over_low = median_of(check->over_low, check->judged_count, 0.0);
    bool banded = check->system != NULL;
    if (check->large_count == 0 && check->small_count == 0)
        out->verdict = COLLCALC_VERDICT_UNKNOWN;
    else if (check->above_line)
        out->verdict = COLLCALC_VERDICT_ABOVE_LINE_RATE;
    else if (banded && check->large_count > 0 && check->judged_count == 0)
        out->verdict = COLLCALC_VERDICT_NO_EVIDENCE;
    else if (banded && check->judged_count > 0 && out->median_over_low < 1.0)
        out->verdict = COLLCALC_VERDICT_BELOW_EXPECTATION;
    else if (!banded && check->large_count > 0 && out->median_ratio < COLLCALC_CHECK_BELOW_RATIO)
        out->verdict = COLLCALC_VERDICT_BELOW_EXPECTATION;
    else
        out->verdict = COLLCALC_VERDICT_HEALTHY;
}

const char *collcalc_verdict_name(collcalc_verdict verdict)
{
    switch (verdict) {
    case COLLCALC_VERDICT_HEALTHY:
        return "healthy";
    case COLLCALC_VERDICT_BELOW_EXPECTATION:
        return "below-expectation";
    case COLLCALC_VERDICT_ABOVE_LINE_RATE:
        return "above-line-rate";
    case COLLCALC_VERDICT_NO_EVIDENCE:
        return "no-evidence";
    case COLLCALC_VERDICT_UNKNOWN:
        break;
    }
    return "unknown";
}
