/* Fitting the NCCL-faithful model to measured nccl-tests runs: a few
 * physically meaningful parameters (the network's per-step latency, the
 * share of NCCL's per-channel bandwidth the cluster delivers, the fabric
 * efficiency beyond 2 nodes) chosen by a robust fit of log time,
 * each bounded to a physical range, with the residuals before and after.
 * The values go into a platform's "nccl_fit" object (platforms.h), which
 * the platform -> system mapping reads back (collcalc_nccl_system_apply_fit).
 *
 * Values in, values out: the caller reads the runs and builds, per run,
 * the NCCL system, constants and options it predicts with (without any
 * fit applied). Deterministic (grid search then golden-section refinement,
 * coordinate by coordinate); no I/O. doc/MODEL.md §9.3 describes the fit. */
#ifndef COLLCALC_FIT_H
#define COLLCALC_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/nccl_check.h"
#include "collcalc/nccl_model.h"
#include "collcalc/platforms.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* The residual regions (the same as collcalc check's). */
/* The same split of sizes as check's verdicts (collcalc/nccl_check.h). */
#define COLLCALC_FIT_LARGE_BYTES COLLCALC_CHECK_LARGE_BYTES /* busbw error at >= 1 MiB */
#define COLLCALC_FIT_SMALL_BYTES COLLCALC_CHECK_SMALL_BYTES /* time error at <= 64 KiB */

/* One measured row (nccl-tests' out-of-place columns). */
typedef struct {
    uint64_t size_bytes;
    double time_us;    /* > 0; rows with 0 or a 0-byte size are ignored */
    double busbw_GBps; /* as printed; used for the busbw residual */
} collcalc_fit_row;

/* One run and how to predict it. */
typedef struct {
    const collcalc_fit_row *rows; /* rows[0..row_count), borrowed during the call */
    size_t row_count;
    collcalc_nccl_func func;
    collcalc_nccl_system system;              /* the cluster, with no fit applied */
    const collcalc_nccl_constants *constants; /* borrowed during the call */
    collcalc_nccl_options options;            /* copied; options.refined borrowed */
} collcalc_fit_run;

/* No rows, AllReduce, collcalc_nccl_system_init, NULL constants,
 * collcalc_nccl_options_init. */
void collcalc_fit_run_init(collcalc_fit_run *run);

/* The fitted parameters, in this order in collcalc_fit_result.params. */
typedef enum {
    COLLCALC_FIT_LATENCY = 0, /* latency_inter_us */
    COLLCALC_FIT_BANDWIDTH,   /* bw_efficiency */
    COLLCALC_FIT_FABRIC       /* fabric_efficiency */
} collcalc_fit_param;
#define COLLCALC_FIT_PARAMS 3

typedef struct {
    const char *name;    /* "latency_inter_us": the platform's nccl_fit key; static */
    const char *unit;    /* "us", "ratio"; static */
    const char *meaning; /* what it changes, one sentence; static */
    bool fitted;         /* false: value is the neutral one and why_not says why */
    double value;        /* rounded as written to the platform file */
    double min_value, max_value;
    bool at_bound; /* fitted to min_value or max_value: the runs want a value outside the
                      physical range (a wrong platform, node count or degraded run) */
    char why_not[COLLCALC_TEXT_MAX]; /* "" when fitted */
} collcalc_fit_parameter;

/* Medians of |predicted - measured| / measured (0 when there are no rows). */
typedef struct {
    size_t large_rows; /* rows >= COLLCALC_FIT_LARGE_BYTES with a busbw */
    size_t small_rows; /* rows <= COLLCALC_FIT_SMALL_BYTES */
    double busbw_error_before, busbw_error_after;
    double time_error_before, time_error_after;
    double log_rms_before, log_rms_after; /* RMS of ln(predicted / measured time), all rows */
} collcalc_fit_residuals;

typedef struct {
    collcalc_fit_parameter params[COLLCALC_FIT_PARAMS];
    collcalc_platform_nccl_fit values; /* ready for a platform (source ""); present true */
    size_t run_count;
    collcalc_fit_residuals *runs; /* run_count of them, in input order (collcalc_fit_result_free) */
    collcalc_fit_residuals total; /* over every row of every run */
} collcalc_fit_result;

/* Fits the parameters the runs identify:
 *   latency_inter_us  needs a run on more than one node with at least 3
 *                     rows <= 64 KiB (NCCL's model has no per-step NVLink
 *                     latency input, so single-node runs cannot set it);
 *   bw_efficiency     needs at least 3 rows >= 1 MiB, one of them >= 16 MiB,
 *                     in runs on 1 or 2 nodes (beyond 2 nodes it cannot be
 *                     told from the fabric efficiency);
 *   fabric_efficiency needs the same in a run on more than 2 nodes.
 * Parameters the data cannot identify keep their neutral value, with
 * why_not naming the sizes or runs missing. COLLCALC_ERR_INVALID (one
 * message naming what is missing) when no parameter can be fitted, for
 * NULLs, no runs or a run without constants (any number of runs: their
 * residuals are allocated in out->runs, for collcalc_fit_result_free;
 * after a failure nothing is left to free);
 * prediction errors are passed on. The objective is robust: per run, the
 * two medians collcalc check reports (|busbw error| at >= 1 MiB, |time
 * error| at <= 64 KiB) plus a tenth of the mean |ln(predicted / measured
 * time)| over every row; it never ends above the neutral values'. */
collcalc_status collcalc_fit(const collcalc_fit_run *runs, size_t run_count,
                             collcalc_fit_result *out, collcalc_diag *diag);
/* Frees what collcalc_fit allocated in r (r itself is the caller's); NULL
 * or a result already freed is fine. */
void collcalc_fit_result_free(collcalc_fit_result *r);

/* Applies fitted values to a system (what the platform -> system mapping
 * does with a platform's nccl_fit): adds latency_inter_us, multiplies every
 * graph's per-channel bandwidths and the NVLink and PCIe figures by
 * bw_efficiency, sets fabric_efficiency when it is > 0. A fit that is not
 * present changes nothing. COLLCALC_ERR_INVALID for values out of the
 * ranges of platforms.h (the system is then unchanged). Implemented in
 * src/nccl/nccl_system.c. */
collcalc_status collcalc_nccl_system_apply_fit(const collcalc_platform_nccl_fit *fit,
                                               collcalc_nccl_system *system,
                                               collcalc_diag *diag);

/* A platforms overlay document (data/README.md schema, loadable with
 * --platforms) holding one platform: a copy of `platform` named `name`
 * (NULL or "": the same name, which replaces the preset), carrying `fit`
 * as its "nccl_fit" object. A new name drops the aliases (they would clash
 * with the preset's). On success the caller owns *out_json (NUL-terminated;
 * free with collcalc_fit_text_free). COLLCALC_ERR_INVALID for a bad name. */
collcalc_status collcalc_fit_platform_json(const collcalc_platform *platform, const char *name,
                                           const collcalc_platform_nccl_fit *fit,
                                           char **out_json, collcalc_diag *diag);

/* Frees text from collcalc_fit_platform_json (NULL-safe). */
void collcalc_fit_text_free(char *text);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
