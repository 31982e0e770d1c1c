/* Judging an nccl-tests run against the NCCL-faithful model: rows are fed
 * one at a time (measured figures beside the model's selected candidate),
 * and the verdict says whether the run is healthy, below expectation, or
 * faster than its path could carry without in-network reduction.
 * The thresholds and why they are what they are: doc/MODEL.md §15.
 * Values only, no I/O. */
#ifndef COLLCALC_NCCL_CHECK_H
#define COLLCALC_NCCL_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/links.h"
#include "collcalc/nccl_model.h"
#include "collcalc/platforms.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Large messages are judged on busbw, small ones on time. */
#define COLLCALC_CHECK_LARGE_BYTES 1048576u
#define COLLCALC_CHECK_SMALL_BYTES 65536u
/* Below expectation: the median large-message busbw under 80 % of the
 * prediction (the model's median error on healthy runs is under 10 %). */
#define COLLCALC_CHECK_BELOW_RATIO 0.80
/* Above the line rate: 15 % over the prediction and 2 % over the path's
 * line rate, with no in-network algorithm (NVLS, CollNet) selected. */
#define COLLCALC_CHECK_ABOVE_RATIO 1.15
#define COLLCALC_CHECK_LINE_SLACK 1.02
/* Rows that enter the medians; later rows are still judged for the
 * line rate and counted. */
#define COLLCALC_CHECK_ROWS_MAX 4096

typedef enum {
    COLLCALC_VERDICT_HEALTHY = 0,
    COLLCALC_VERDICT_BELOW_EXPECTATION,
    COLLCALC_VERDICT_ABOVE_LINE_RATE,
    COLLCALC_VERDICT_UNKNOWN,    /* nothing predicted */
    COLLCALC_VERDICT_NO_EVIDENCE /* predicted, but no validation run of this regime to say
                                    how far a healthy run may fall from the prediction */
} collcalc_verdict;

typedef struct {
    double line_rate_GBps; /* the path's busbw ceiling; 0 = not known */
    size_t large_count, small_count, rows_over_cap;
    double ratio_large[COLLCALC_CHECK_ROWS_MAX]; /* measured / predicted busbw */
    double busbw_error[COLLCALC_CHECK_ROWS_MAX]; /* |predicted - measured| / measured */
    double time_error[COLLCALC_CHECK_ROWS_MAX];  /* |predicted - measured| / measured */
    size_t below_count;                          /* large rows under the below ratio */
    uint64_t below_min_bytes, below_max_bytes;
    double worst_ratio;
    bool above_line;
    uint64_t above_bytes; /* the first row above the line rate */
    double above_busbw_GBps;
    /* Bands (collcalc_check_use_bands): large rows are judged against the
     * low edge of their regime's band instead of COLLCALC_CHECK_BELOW_RATIO. */
    const collcalc_nccl_system *system; /* borrowed; NULL = the fixed ratio */
    collcalc_nccl_func func;
    size_t judged_count;                       /* large rows whose regime has a band */
    double over_low[COLLCALC_CHECK_ROWS_MAX];  /* measured busbw / the band's low edge */
    size_t unjudged_count;                     /* large rows without evidence */
    collcalc_nccl_band band;                   /* the band of the largest judged row */
    uint64_t band_bytes;
} collcalc_check;

typedef struct {
    collcalc_verdict verdict;
    double median_ratio;        /* measured / predicted busbw, large rows; 1 when none */
    double median_busbw_error;  /* over large rows; 0 when none */
    double median_time_error;   /* over small rows; 0 when none */
    double median_over_low;     /* with bands: measured / the band's low edge, judged rows; 0 none */
} collcalc_check_summary;

/* The busbw one GPU cannot beat on this cluster without reduction in the
 * network: the NVLink rate inside a node, the NICs a node's GPUs can drive
 * across nodes (the slower of the two). intra/inter may be NULL (unknown:
 * that part is left out); 0 when nothing is known. */
double collcalc_check_line_rate_GBps(const collcalc_platform *platform, const collcalc_link *intra,
                                     const collcalc_link *inter, int nodes, int gpus_per_node);

void collcalc_check_init(collcalc_check *check, double line_rate_GBps);

/* Judge the rows against the bands of the model's regimes (doc/MODEL.md
 * §15.1) on `system` (borrowed until collcalc_check_finish) for func:
 * below-expectation only when the median large row falls under its band's
 * low edge; no-evidence when no large row's regime has a band. */
void collcalc_check_use_bands(collcalc_check *check, const collcalc_nccl_system *system,
                              collcalc_nccl_func func);

/* One row: its size, measured time and busbw, and the model's selected
 * candidate. Rows with a zero size or time are ignored. */
void collcalc_check_add(collcalc_check *check, uint64_t size_bytes, double measured_time_us,
                        double measured_busbw_GBps, const collcalc_nccl_candidate *predicted);

/* The verdict; UNKNOWN when no row was added. Sorts the row arrays (the
 * order rows were added in is not kept). */
void collcalc_check_finish(collcalc_check *check, collcalc_check_summary *out);

/* "healthy", "below-expectation", "above-line-rate", "unknown", "no-evidence". */
const char *collcalc_verdict_name(collcalc_verdict verdict);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
