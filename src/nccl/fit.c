/* collcalc fit's library half (include/collcalc/fit.h): a bounded, robust
 * fit of a few physical parameters of the NCCL-faithful model to measured
 * rows. The objective is the residual collcalc check reports (the median
 * |error| of busbw at >= 1 MiB and of time at <= 64 KiB, per run) plus a
 * small mean |log time error| term: least squares on log time let the
 * 64 KiB-1 MiB rows, where the model's ramp is weakest, pull the latency
 * up and make the small sizes worse on the EFA and TCPXO runs.
 *
 * Why these parameters (doc/MODEL.md §9.2, §13): what the model cannot know
 * about a cluster is how long one network step takes on its transport (the
 * latency a net plugin would report: EFA, TCPX/TCPXO and RoCE differ from
 * InfiniBand by tens of microseconds), how much of the per-channel
 * bandwidth NCCL's graph search assumes the links really deliver (NIC
 * firmware, PCIe switches, GPUDirect), and, beyond 2 nodes, how much of the
 * network bandwidth the fabric delivers (rails, adaptive routing,
 * oversubscription). Each has a physical range; anything outside it is a
 * wrong table, not a calibration.
 *
 * The search is deterministic: per parameter a grid over its range, then a
 * golden-section refinement around the best grid point, coordinate by
 * coordinate for a few passes. The objective is piecewise smooth (NCCL's
 * choice of algorithm and protocol switches with the parameters), which is
 * why a grid comes first. Fitted values are rounded to what the platform
 * file carries (0.1 us, 0.001) and the "after" residuals are computed with
 * the rounded values, so feeding the file back reproduces them exactly. */
#include "collcalc/fit.h"
#include "collcalc/alloc.h"
#include "helpers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

/* Physical ranges of the fitted parameters. A network step beyond 200 us
 * is a broken transport (plain TCP sockets through the host run ~50-100 us
 * per step); a link delivering less than 20 % of what NCCL's search
 * assumes is a fault to fix, not a figure to calibrate, and more than 125 %
 * means the link table's speed is wrong. */
#define FIT_LATENCY_MIN_US 0.0
#define FIT_LATENCY_MAX_US 200.0
#define FIT_BW_MIN 0.2
#define FIT_BW_MAX 1.25
#define FIT_FABRIC_MIN 0.05
#define FIT_FABRIC_MAX 1.0

/* Rows needed to identify a parameter. */
#define FIT_MIN_ROWS 3
#define FIT_PLATEAU_BYTES (16u * 1048576u) /* a bandwidth fit needs one row this large */

#define FIT_GRID_POINTS 41
#define FIT_GOLDEN_STEPS 24
#define FIT_PASSES 3
#define FIT_TIE_WEIGHT 0.1

static const char *const param_names[COLLCALC_FIT_PARAMS] = {"latency_inter_us", "bw_efficiency",
                                                             "fabric_efficiency"};
static const char *const param_units[COLLCALC_FIT_PARAMS] = {"us", "ratio", "ratio"};
static const char *const param_meanings[COLLCALC_FIT_PARAMS] = {
    "added to every network step's latency (twice for Simple), as a net plugin reports it",
    "share of NCCL's per-channel bandwidth (NVLink, PCIe, NICs) the cluster delivers",
    "share of the network bandwidth the fabric delivers beyond 2 nodes"};
static const double param_min[COLLCALC_FIT_PARAMS] = {FIT_LATENCY_MIN_US, FIT_BW_MIN,
                                                      FIT_FABRIC_MIN};
static const double param_max[COLLCALC_FIT_PARAMS] = {FIT_LATENCY_MAX_US, FIT_BW_MAX,
                                                      FIT_FABRIC_MAX};
/* What the platform file keeps: 0.1 us, 0.001. */
static const double param_quantum[COLLCALC_FIT_PARAMS] = {0.1, 0.001, 0.001};

void collcalc_fit_run_init(collcalc_fit_run *run)
{
    if (run == NULL)
        return;
    memset(run, 0, sizeof *run);
    run->func = COLLCALC_NCCL_ALLREDUCE;
    collcalc_nccl_system_init(&run->system);
    collcalc_nccl_options_init(&run->options);
}

static bool row_usable(const collcalc_fit_row *row)
{
    /* The model's own limit (collcalc_nccl_predict). */
    return row->size_bytes > 0 && row->size_bytes <= COLLCALC_NCCL_SIZE_MAX &&
           isfinite(row->time_us) && row->time_us > 0.0;
}

static collcalc_platform_nccl_fit values_of(const double p[COLLCALC_FIT_PARAMS])
{
    collcalc_platform_nccl_fit v;
    memset(&v, 0, sizeof v);
    v.present = true;
    v.latency_inter_us = p[COLLCALC_FIT_LATENCY];
    v.bw_efficiency = p[COLLCALC_FIT_BANDWIDTH];
    v.fabric_efficiency = p[COLLCALC_FIT_FABRIC];
    return v;
}

/* Predicted time and busbw of one row with the fit applied to system. */
static collcalc_status predict_row(const collcalc_fit_run *run, const collcalc_nccl_system *system,
                                   const collcalc_fit_row *row, double *time_us, double *busbw,
                                   collcalc_diag *diag)
{
    collcalc_nccl_prediction prediction;
    collcalc_status status = collcalc_nccl_predict(system, run->constants, &run->options, run->func,
                                                   row->size_bytes, &prediction, diag);
    if (status != COLLCALC_OK)
        return status;
    const collcalc_nccl_candidate *c = collcalc_nccl_selected(&prediction);
    *time_us = c != NULL ? c->time_us : 0.0;
    *busbw = c != NULL ? c->busbw_GBps : 0.0;
    return COLLCALC_OK;
}

typedef struct {
    const collcalc_fit_run *runs;
    size_t run_count;
    double *large, *small;  /* scratch: one slot per row */
    collcalc_status status; /* first prediction failure */
    collcalc_diag *diag;
} problem;

static double median(double *values, size_t count);

/* Sum over runs of the two medians collcalc check reports (|busbw error|
 * at >= 1 MiB, |time error| at <= 64 KiB), plus a tenth of the mean
 * |ln(predicted / measured time)| over every row, which breaks the ties
 * the medians leave and keeps the mid sizes in view. */
static double objective(problem *pb, const double p[COLLCALC_FIT_PARAMS])
{
    collcalc_platform_nccl_fit v = values_of(p);
    double sum = 0.0;
    for (size_t r = 0; r < pb->run_count && pb->status == COLLCALC_OK; r++) {
        const collcalc_fit_run *run = &pb->runs[r];
        collcalc_nccl_system system = run->system;
        pb->status = collcalc_nccl_system_apply_fit(&v, &system, pb->diag);
        size_t nl = 0, ns = 0, n = 0;
        double logs = 0.0;
        for (size_t i = 0; i < run->row_count && pb->status == COLLCALC_OK; i++) {
            const collcalc_fit_row *row = &run->rows[i];
            if (!row_usable(row))
                continue;
            double t = 0.0, bus = 0.0;
            pb->status = predict_row(run, &system, row, &t, &bus, pb->diag);
            if (pb->status != COLLCALC_OK || !(t > 0.0) || !isfinite(t))
                continue;
            logs += fabs(log(t / row->time_us));
            n++;
            if (row->size_bytes >= COLLCALC_FIT_LARGE_BYTES && row->busbw_GBps > 0.0 &&
                isfinite(row->busbw_GBps))
                pb->large[nl++] = fabs(bus - row->busbw_GBps) / row->busbw_GBps;
            if (row->size_bytes <= COLLCALC_FIT_SMALL_BYTES)
                pb->small[ns++] = fabs(t - row->time_us) / row->time_us;
        }
        sum += median(pb->large, nl) + median(pb->small, ns) +
               (n > 0 ? FIT_TIE_WEIGHT * logs / (double)n : 0.0);
    }
    return pb->status == COLLCALC_OK ? sum : HUGE_VAL;
}

/* Best value of coordinate k in [lo, hi], the others fixed. */
static void search_coordinate(problem *pb, double p[COLLCALC_FIT_PARAMS], int k)
{
    double lo = param_min[k], hi = param_max[k];
    double step = (hi - lo) / (FIT_GRID_POINTS - 1);
    double trial[COLLCALC_FIT_PARAMS];
    memcpy(trial, p, sizeof trial);
    double best_x = p[k];
    double best_f = objective(pb, p);
    for (int i = 0; i < FIT_GRID_POINTS && pb->status == COLLCALC_OK; i++) {
        trial[k] = lo + step * i;
        double f = objective(pb, trial);
        if (f < best_f) {
            best_f = f;
            best_x = trial[k];
        }
    }
    /* Golden section around the best point. */
    double a = best_x - step < lo ? lo : best_x - step;
    double b = best_x + step > hi ? hi : best_x + step;
    const double g = 0.6180339887498949;
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    trial[k] = x1;
    double f1 = objective(pb, trial);
    trial[k] = x2;
    double f2 = objective(pb, trial);
    for (int i = 0; i < FIT_GOLDEN_STEPS && pb->status == COLLCALC_OK; i++) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            trial[k] = x1;
            f1 = objective(pb, trial);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            trial[k] = x2;
            f2 = objective(pb, trial);
        }
    }
    if (f1 < best_f) {
        best_f = f1;
        best_x = x1;
    }
    if (f2 < best_f)
        best_x = x2;
    p[k] = best_x;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, size_t count)
{
    if (count == 0)
        return 0.0;
    qsort(values, count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

/* Residual medians of every run and of all rows together, with values v
 * applied; after selects the before/after fields. scratch holds 3 x total
 * doubles. */
static collcalc_status residuals(problem *pb, const collcalc_platform_nccl_fit *v, bool after,
                                 double *scratch, size_t total, collcalc_fit_result *out)
{
    double *large_all = scratch, *small_all = scratch + total, *logs = scratch + 2 * total;
    size_t nl_all = 0, ns_all = 0, nlog_all = 0;
    double sq_all = 0.0;
    for (size_t r = 0; r < pb->run_count; r++) {
        const collcalc_fit_run *run = &pb->runs[r];
        collcalc_nccl_system system = run->system;
        collcalc_status status = collcalc_nccl_system_apply_fit(v, &system, pb->diag);
        if (status != COLLCALC_OK)
            return status;
        size_t l0 = nl_all, s0 = ns_all, n_log = 0;
        double sq = 0.0;
        for (size_t i = 0; i < run->row_count; i++) {
            const collcalc_fit_row *row = &run->rows[i];
            if (!row_usable(row))
                continue;
            double t = 0.0, bus = 0.0;
            status = predict_row(run, &system, row, &t, &bus, pb->diag);
            if (status != COLLCALC_OK)
                return status;
            if (!(t > 0.0) || !isfinite(t))
                continue;
            double lr = log(t / row->time_us);
            sq += lr * lr;
            n_log++;
            if (row->size_bytes >= COLLCALC_FIT_LARGE_BYTES && row->busbw_GBps > 0.0 &&
                isfinite(row->busbw_GBps))
                large_all[nl_all++] = fabs(bus - row->busbw_GBps) / row->busbw_GBps;
            if (row->size_bytes <= COLLCALC_FIT_SMALL_BYTES)
                small_all[ns_all++] = fabs(t - row->time_us) / row->time_us;
        }
        collcalc_fit_residuals *res = &out->runs[r];
        res->large_rows = nl_all - l0;
        res->small_rows = ns_all - s0;
        /* Medians of this run's slice, on copies: the slices stay for the total. */
        double *copy = logs;
        memcpy(copy, large_all + l0, res->large_rows * sizeof *copy);
        double busbw_error = median(copy, res->large_rows);
        memcpy(copy, small_all + s0, res->small_rows * sizeof *copy);
        double time_error = median(copy, res->small_rows);
        double rms = n_log > 0 ? sqrt(sq / (double)n_log) : 0.0;
        if (after) {
            res->busbw_error_after = busbw_error;
            res->time_error_after = time_error;
            res->log_rms_after = rms;
        } else {
            res->busbw_error_before = busbw_error;
            res->time_error_before = time_error;
            res->log_rms_before = rms;
        }
        sq_all += sq;
        nlog_all += n_log;
    }
    collcalc_fit_residuals *t = &out->total;
    t->large_rows = nl_all;
    t->small_rows = ns_all;
    double busbw_error = median(large_all, nl_all);
    double time_error = median(small_all, ns_all);
    double rms = nlog_all > 0 ? sqrt(sq_all / (double)nlog_all) : 0.0;
    if (after) {
        t->busbw_error_after = busbw_error;
        t->time_error_after = time_error;
        t->log_rms_after = rms;
    } else {
        t->busbw_error_before = busbw_error;
        t->time_error_before = time_error;
        t->log_rms_before = rms;
    }
    return COLLCALC_OK;
}

/* What the rows can identify (see collcalc_fit). */
typedef struct {
    size_t small_multi;    /* rows <= 64 KiB in runs on > 1 node */
    size_t large_near;     /* rows >= 1 MiB in runs on 1-2 nodes */
    uint64_t largest_near; /* their largest size */
    size_t large_far;      /* rows >= 1 MiB in runs on > 2 nodes */
    uint64_t largest_far;
    size_t runs_multi, runs_near, runs_far;
} coverage;

static void cover(const collcalc_fit_run *runs, size_t run_count, coverage *c)
{
    memset(c, 0, sizeof *c);
    for (size_t r = 0; r < run_count; r++) {
        int nodes = runs[r].system.nnodes;
        c->runs_multi += nodes > 1;
        c->runs_near += nodes <= 2;
        c->runs_far += nodes > 2;
        for (size_t i = 0; i < runs[r].row_count; i++) {
            const collcalc_fit_row *row = &runs[r].rows[i];
            if (!row_usable(row))
                continue;
            if (nodes > 1 && row->size_bytes <= COLLCALC_FIT_SMALL_BYTES)
                c->small_multi++;
            if (row->size_bytes >= COLLCALC_FIT_LARGE_BYTES && nodes <= 2) {
                c->large_near++;
                if (row->size_bytes > c->largest_near)
                    c->largest_near = row->size_bytes;
            }
            if (row->size_bytes >= COLLCALC_FIT_LARGE_BYTES && nodes > 2) {
                c->large_far++;
                if (row->size_bytes > c->largest_far)
                    c->largest_far = row->size_bytes;
            }
        }
    }
}

static void size_text(char *buffer, size_t size, uint64_t bytes)
{
    if (bytes >= 1048576u)
        snprintf(buffer, size, "%llu MiB", (unsigned long long)(bytes / 1048576u));
    else if (bytes >= 1024u)
        snprintf(buffer, size, "%llu KiB", (unsigned long long)(bytes / 1024u));
    else
        snprintf(buffer, size, "%llu B", (unsigned long long)bytes);
}

static void decide(const coverage *c, collcalc_fit_parameter params[COLLCALC_FIT_PARAMS])
{
    char largest[32];
    collcalc_fit_parameter *lat = &params[COLLCALC_FIT_LATENCY];
    if (c->runs_multi == 0)
        snprintf(lat->why_not, sizeof lat->why_not,
                 "needs a run on more than one node (NCCL's model has no per-step NVLink "
                 "latency to fit on one node)");
    else if (c->small_multi < FIT_MIN_ROWS)
        snprintf(lat->why_not, sizeof lat->why_not,
                 "needs at least %d rows of 64 KiB or less in a multi-node run (has %zu)",
                 FIT_MIN_ROWS, c->small_multi);
    collcalc_fit_parameter *bw = &params[COLLCALC_FIT_BANDWIDTH];
    size_text(largest, sizeof largest, c->largest_near);
    if (c->runs_near == 0)
        snprintf(bw->why_not, sizeof bw->why_not,
                 "needs a run on 1 or 2 nodes (beyond 2 nodes it cannot be told from the "
                 "fabric efficiency)");
    else if (c->large_near < FIT_MIN_ROWS || c->largest_near < FIT_PLATEAU_BYTES)
        snprintf(bw->why_not, sizeof bw->why_not,
                 "needs at least %d rows of 1 MiB or more, one of 16 MiB or more, in a run on "
                 "1 or 2 nodes (has %zu, largest %s)",
                 FIT_MIN_ROWS, c->large_near, c->large_near > 0 ? largest : "none");
    collcalc_fit_parameter *fab = &params[COLLCALC_FIT_FABRIC];
    size_text(largest, sizeof largest, c->largest_far);
    if (c->runs_far == 0)
        snprintf(fab->why_not, sizeof fab->why_not, "needs a run on more than 2 nodes");
    else if (c->large_far < FIT_MIN_ROWS || c->largest_far < FIT_PLATEAU_BYTES)
        snprintf(fab->why_not, sizeof fab->why_not,
                 "needs at least %d rows of 1 MiB or more, one of 16 MiB or more, in a run on "
                 "more than 2 nodes (has %zu, largest %s)",
                 FIT_MIN_ROWS, c->large_far, c->large_far > 0 ? largest : "none");
    for (int k = 0; k < COLLCALC_FIT_PARAMS; k++)
        params[k].fitted = params[k].why_not[0] == '\0';
}

static collcalc_status fit_into(const collcalc_fit_run *runs, size_t run_count,
                                collcalc_fit_result *out, collcalc_diag *diag)
{
    if (out == NULL || (runs == NULL && run_count > 0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no runs or no place for the fit");
    memset(out, 0, sizeof *out);
    if (run_count == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "a fit takes at least one run");
    size_t total = 0;
    for (size_t r = 0; r < run_count; r++) {
        if (runs[r].constants == NULL || (runs[r].rows == NULL && runs[r].row_count > 0))
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "run %zu: no constants or no rows", r + 1);
        if (runs[r].row_count > ((size_t)1 << 24))
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "run %zu: too many rows",
                                      r + 1);
        if (runs[r].row_count > ((size_t)1 << 26) - total)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "run %zu: too many rows in all",
                                      r + 1);
        total += runs[r].row_count;
    }
    out->runs = collcalc_mem_calloc(run_count, sizeof *out->runs);
    if (out->runs == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory for %zu runs", run_count);
    out->run_count = run_count;
    for (int k = 0; k < COLLCALC_FIT_PARAMS; k++) {
        out->params[k].name = param_names[k];
        out->params[k].unit = param_units[k];
        out->params[k].meaning = param_meanings[k];
        out->params[k].min_value = param_min[k];
        out->params[k].max_value = param_max[k];
    }
    coverage c;
    cover(runs, run_count, &c);
    decide(&c, out->params);
    bool any = false;
    for (int k = 0; k < COLLCALC_FIT_PARAMS; k++)
        any = any || out->params[k].fitted;
    if (!any)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "nothing to fit: latency_inter_us %s; bw_efficiency %s",
                                  out->params[COLLCALC_FIT_LATENCY].why_not,
                                  out->params[COLLCALC_FIT_BANDWIDTH].why_not);

    double *scratch = collcalc_mem_malloc((3 * total + 1) * sizeof *scratch);
    if (scratch == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory for the residuals");
    problem pb = {runs, run_count, scratch, scratch + total, COLLCALC_OK, diag};
    /* Neutral start: no added latency, full bandwidth, the model's own
     * fabric efficiency (0 = leave it). */
    double p[COLLCALC_FIT_PARAMS] = {0.0, 1.0, 0.0};
    /* Bandwidth first (large rows dominate the residual), then the
     * fabric, then latency. */
    static const int order[COLLCALC_FIT_PARAMS] = {COLLCALC_FIT_BANDWIDTH, COLLCALC_FIT_FABRIC,
                                                   COLLCALC_FIT_LATENCY};
    if (out->params[COLLCALC_FIT_FABRIC].fitted)
        p[COLLCALC_FIT_FABRIC] = 1.0;
    for (int pass = 0; pass < FIT_PASSES && pb.status == COLLCALC_OK; pass++)
        for (int j = 0; j < COLLCALC_FIT_PARAMS && pb.status == COLLCALC_OK; j++)
            if (out->params[order[j]].fitted)
                search_coordinate(&pb, p, order[j]);
    if (pb.status != COLLCALC_OK) {
        collcalc_mem_free(scratch);
        return pb.status;
    }
    for (int k = 0; k < COLLCALC_FIT_PARAMS; k++) {
        if (!out->params[k].fitted)
            continue;
        double q = param_quantum[k];
        double v = floor(p[k] / q + 0.5) * q;
        v = v < param_min[k] ? param_min[k] : v > param_max[k] ? param_max[k] : v;
        p[k] = v;
        out->params[k].value = v;
        out->params[k].at_bound = v <= param_min[k] + 0.5 * q || v >= param_max[k] - 0.5 * q;
    }
    /* Rounding must not leave the fit worse than no fit. */
    double neutral_p[COLLCALC_FIT_PARAMS] = {0.0, 1.0, 0.0}; /* fabric 0: the model's own */
    if (objective(&pb, p) > objective(&pb, neutral_p)) {
        memcpy(p, neutral_p, sizeof p);
        for (int k = 0; k < COLLCALC_FIT_PARAMS; k++)
            if (out->params[k].fitted) {
                out->params[k].value = p[k];
                out->params[k].at_bound = false;
            }
    }
    if (pb.status != COLLCALC_OK) {
        collcalc_mem_free(scratch);
        return pb.status;
    }
    if (!out->params[COLLCALC_FIT_BANDWIDTH].fitted)
        out->params[COLLCALC_FIT_BANDWIDTH].value = 1.0;
    out->values = values_of(p);

    collcalc_platform_nccl_fit neutral = values_of((double[COLLCALC_FIT_PARAMS]){0.0, 1.0, 0.0});
    collcalc_status status = residuals(&pb, &neutral, false, scratch, total, out);
    if (status == COLLCALC_OK)
        status = residuals(&pb, &out->values, true, scratch, total, out);
    collcalc_mem_free(scratch);
    return status;
}

collcalc_status collcalc_fit(const collcalc_fit_run *runs, size_t run_count,
                             collcalc_fit_result *out, collcalc_diag *diag)
{
    if (out != NULL)
        memset(out, 0, sizeof *out); /* nothing the caller had is freed */
    collcalc_status status = fit_into(runs, run_count, out, diag);
    if (status != COLLCALC_OK && out != NULL)
        collcalc_fit_result_free(out);
    return status;
}

void collcalc_fit_result_free(collcalc_fit_result *r)
{
    if (r == NULL)
        return;
    collcalc_mem_free(r->runs);
    r->runs = NULL;
    r->run_count = 0;
}

/* ---- the platform overlay ---------------------------------------------- */

static bool name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= COLLCALC_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = name[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '-'))
            return false;
    }
    return true;
}

static void add_text(cJSON *object, const char *key, const char *text, bool *ok)
{
    if (text[0] != '\0' && cJSON_AddStringToObject(object, key, text) == NULL)
        *ok = false;
}

collcalc_status collcalc_fit_platform_json(const collcalc_platform *platform, const char *name,
                                           const collcalc_platform_nccl_fit *fit,
                                           char **out_json, collcalc_diag *diag)
{
    if (out_json == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the document");
    *out_json = NULL;
    if (platform == NULL || fit == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no platform or fit");
    bool renamed = name != NULL && name[0] != '\0' && strcmp(name, platform->name) != 0;
    if (renamed && !name_ok(name))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "platform name '%.40s' must be 1..%d characters of a-z, 0-9, "
                                  "'.' and '-'",
                                  name, COLLCALC_NAME_MAX - 1);
    bool ok = true;
    cJSON *root = cJSON_CreateObject();
    cJSON *version = root != NULL ? cJSON_AddNumberToObject(root, "schema_version", 1) : NULL;
    cJSON *list = version != NULL ? cJSON_AddArrayToObject(root, "platforms") : NULL;
    cJSON *p = cJSON_CreateObject();
    if (root == NULL || list == NULL || p == NULL) {
        cJSON_Delete(p);
        cJSON_Delete(root);
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");
    }
    cJSON_AddItemToArray(list, p);
    add_text(p, "name", renamed ? name : platform->name, &ok);
    if (!renamed && platform->aliases[0][0] != '\0') {
        cJSON *aliases = cJSON_AddArrayToObject(p, "aliases");
        ok = ok && aliases != NULL;
        for (int i = 0; aliases != NULL && i < COLLCALC_MAX_ALIASES; i++)
            if (platform->aliases[i][0] != '\0')
                ok = ok && cJSON_AddItemToArray(aliases, cJSON_CreateString(platform->aliases[i]));
    }
    add_text(p, "description", platform->description, &ok);
    add_text(p, "gpu", platform->gpu, &ok);
    ok = ok && cJSON_AddNumberToObject(p, "gpus_per_node", platform->gpus_per_node) != NULL;
    if (platform->gpus_per_host > 0 && platform->gpus_per_host != platform->gpus_per_node)
        ok = ok && cJSON_AddNumberToObject(p, "gpus_per_host", platform->gpus_per_host) != NULL;
    add_text(p, "intra_link", platform->intra_link, &ok);
    add_text(p, "inter_link", platform->inter_link, &ok);
    ok = ok && cJSON_AddNumberToObject(p, "nics_per_node", platform->nics_per_node) != NULL;
    add_text(p, "memory_link", platform->memory_link, &ok);
    add_text(p, "host_link", platform->host_link, &ok);
    ok = ok && cJSON_AddBoolToObject(p, "nvls", platform->nvls) != NULL;
    ok = ok && cJSON_AddBoolToObject(p, "sharp", platform->sharp) != NULL;
    add_text(p, "gpu_arch", collcalc_gpu_arch_name(platform->gpu_arch), &ok);
    add_text(p, "cpu_vendor", collcalc_cpu_vendor_name(platform->cpu_vendor), &ok);
    add_text(p, "transport", collcalc_transport_name(platform->transport), &ok);
    ok = ok && cJSON_AddNumberToObject(p, "nics_per_gpu",
                                       platform->nics_per_gpu > 0 ? platform->nics_per_gpu : 1);
    ok = ok && cJSON_AddBoolToObject(p, "p2p", platform->p2p) != NULL;
    ok = ok && cJSON_AddBoolToObject(p, "nvswitch", platform->nvswitch) != NULL;
    ok = ok &&
         cJSON_AddNumberToObject(p, "nvlink_links_per_gpu", platform->nvlink_links_per_gpu) != NULL;
    cJSON *fitted = cJSON_AddObjectToObject(p, "nccl_fit");
    ok = ok && fitted != NULL;
    if (fitted != NULL) {
        ok = ok && cJSON_AddNumberToObject(fitted, "latency_inter_us", fit->latency_inter_us);
        ok = ok && cJSON_AddNumberToObject(fitted, "bw_efficiency", fit->bw_efficiency);
        if (fit->fabric_efficiency > 0.0)
            ok = ok && cJSON_AddNumberToObject(fitted, "fabric_efficiency",
                                               fit->fabric_efficiency);
        add_text(fitted, "source", fit->source, &ok);
    }
    const char *const sources[] = {platform->topology_source, platform->nics_source,
                                   platform->nvls_source,     platform->arch_source,
                                   platform->transport_source, platform->fabric_source};
    const char *const source_keys[] = {"topology", "nics", "nvls", "arch", "transport", "fabric"};
    bool any_source = false;
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++)
        any_source = any_source || sources[i][0] != '\0';
    if (any_source) {
        cJSON *s = cJSON_AddObjectToObject(p, "sources");
        ok = ok && s != NULL;
        for (size_t i = 0; s != NULL && i < sizeof sources / sizeof sources[0]; i++)
            add_text(s, source_keys[i], sources[i], &ok);
    }
    char *text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (text == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory writing the platform");
    *out_json = text;
    return COLLCALC_OK;
}

void collcalc_fit_text_free(char *text)
{
    if (text != NULL)
        cJSON_free(text);
}
