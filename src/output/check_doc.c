/* check's documents (check_doc.h): a paste's runs measured against NCCL's
 * model, their verdicts and how they compare; its NCCL_DEBUG lines and its
 * topology matrices. */
#include "check_doc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_check.h"
#include "collcalc/nccl_log.h"
#include "collcalc/topo.h"
#include "collcalc/units.h"
#include "findings_doc.h"
#include "human.h"
#include "topo_doc.h"

static int data_error(collcalc_diag *diag, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int data_error(collcalc_diag *diag, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(diag->message, sizeof diag->message, format, args);
    va_end(args);
    return CHECK_DOC_DATA_ERROR;
}

static const record_column ROW_COLUMNS[] = {
    {"size_bytes", "size", FIELD_BYTES_IEC, COLUMN_BOTH, NULL},
    {"line", "line", FIELD_INT, COLUMN_MACHINE, NULL},
    {"type", "type", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"measured_time_us", "time", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"predicted_time_us", "predicted", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"time_error", "error", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"measured_algbw_GBps", "algbw", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"predicted_algbw_GBps", "predicted algbw", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"measured_busbw_GBps", "busbw", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"predicted_busbw_GBps", "predicted", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"busbw_error", "error", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    /* (predicted - measured) / measured, said so: "+255% busbw" is a
     * prediction 3.55x the measurement */
    {"error", "pred vs meas", FIELD_TEXT, COLUMN_TABLE, NULL},
    {"algorithm", "NCCL algo", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"protocol", "proto", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"channels", "channels", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nccl_time_us", "NCCL model time", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"nccl_busbw_GBps", "NCCL model busbw", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"row_check", "row", FIELD_TEXT, COLUMN_BOTH, NULL},
};
static const record_schema ROW_SCHEMA = {"rows", sizeof ROW_COLUMNS / sizeof ROW_COLUMNS[0],
                                         ROW_COLUMNS};

/* "12.3%", or "-" when no row was counted. */
static const char *percent_or_dash(char *buffer, size_t size, size_t count, double fraction)
{
    if (count == 0)
        snprintf(buffer, size, "-");
    else
        snprintf(buffer, size, "%.1f%%", 100.0 * fraction);
    return buffer;
}

/* Measured busbw as points, predicted as a line, the line rate marked. */
static plot_chart *check_chart(const char *shown, const collcalc_nccl_tests_run *run,
                               const double *predicted_busbw, double line_rate)
{
    char title[200];
    const char *slash = strrchr(shown, '/');
    snprintf(title, sizeof title, "%s: busbw measured and predicted",
             slash != NULL ? slash + 1 : shown);
    plot_chart *chart = plot_new(title);
    plot_set_x_axis(chart, "message size (bytes)", PLOT_UNIT_BYTES);
    plot_set_y_axis(chart, "busbw (GB/s)", PLOT_UNIT_GBPS);
    int measured = plot_add_series(chart, "measured", PLOT_POINTS);
    int predicted = predicted_busbw != NULL ? plot_add_series(chart, "predicted", PLOT_LINE) : -1;
    for (size_t i = 0; i < run->row_count; i++) {
        const collcalc_nccl_tests_read_row *r = &run->rows[i];
        if (r->row.size_bytes == 0)
            continue;
        plot_add_point(chart, measured, (double)r->row.size_bytes,
                       r->row.out_of_place.busbw_GBps);
        if (predicted >= 0 && predicted_busbw[i] > 0.0)
            plot_add_point(chart, predicted, (double)r->row.size_bytes, predicted_busbw[i]);
    }
    if (line_rate > 0.0)
        plot_add_hmarker(chart, line_rate, "line rate");
    return chart;
}

/* What check concluded for one run. */
typedef struct {
    bool predicted;
    bool modelled;
    bool wrong; /* rows with #wrong above 0 or an out-of-bounds count */
    const collcalc_platform *platform;
    int nodes, gpus_per_node;
    const char *constants_version;
    bool corrections;
    double line_rate;
    collcalc_check_summary summary;
    size_t large_count, small_count;
    bool guessed;     /* the platform was guessed from the GPU name */
    char others[160]; /* other presets with that GPU, "" when none */
    const collcalc_platform *first_guess; /* judged on another preset than guessed: the guess */
    const collcalc_platform_table *platforms; /* where the platform came from (NULL: none) */
    char why[200];  /* verdict unknown: why, and the option to give */
    char flag[200];
} judgement;

/* The verdict's name, "wrong-results" before any speed verdict. */
static const char *verdict_text(const judgement *j)
{
    return j->wrong ? "wrong-results" : collcalc_verdict_name(j->summary.verdict);
}

/* Why a run cannot be judged, and the option that would let it be. */
static void unknown_reason(const collcalc_nccl_tests_run *run, bool modelled,
                           const collcalc_platform *platform, const char *shape_problem,
                           char *why, size_t why_size, char *flag, size_t flag_size)
{
    if (!modelled) {
        snprintf(why, why_size, "%s", run->op_source == COLLCALC_NCCL_TESTS_FROM_NONE
                                          ? "the op is not known (no *_perf name, heading or log "
                                            "line says it)"
                                          : "the op is not one collcalc's NCCL model costs");
        snprintf(flag, flag_size, "give --op (all-reduce, all-gather, reduce-scatter, broadcast, "
                                  "reduce, alltoall or sendrecv)");
    } else if (platform == NULL && run->gpu_model[0] == '\0') {
        snprintf(why, why_size, "the cluster is not known: the output names no GPU (nccl-tests "
                                "prints it on its '#  Rank  0 ... device  0 [...] NVIDIA ...' "
                                "lines, cut from this paste)");
        snprintf(flag, flag_size, "give --platform NAME ('collcalc platforms' lists them, e.g. "
                                  "hgx-h100) and --nodes N when the hosts are not listed");
    } else if (platform == NULL && strstr(run->gpu_model, "Graphics Device") != NULL) {
        snprintf(why, why_size, "the cluster is not known: '%.60s' is the name the driver gives a "
                                "board it does not know yet (a pre-release or newer GPU), so it "
                                "names no model", run->gpu_model);
        snprintf(flag, flag_size, "give --platform NAME ('collcalc platforms' lists them, e.g. "
                                  "gb200-nvl72) and --nodes N");
    } else if (platform == NULL) {
        char per_host[32] = "";
        if (run->ranks_per_host > 0)
            snprintf(per_host, sizeof per_host, " with %d per host", run->ranks_per_host);
        snprintf(why, why_size, "the cluster is not known: no platform preset has the GPU '%.60s'%s",
                 run->gpu_model, per_host);
        snprintf(flag, flag_size, "give --platform NAME ('collcalc platforms' lists them) and "
                                  "--nodes N");
    } else if (shape_problem[0] != '\0') {
        snprintf(why, why_size, "%s", shape_problem);
        snprintf(flag, flag_size, "give --nodes N (the run's node count; in a paste of runs on "
                                  "different node counts, check each run on its own)");
    } else if (run->ranks <= 0) {
        snprintf(why, why_size, "the rank count is not known (no '#  Rank' lines, and busbw = "
                                "algbw says nothing of it)");
        snprintf(flag, flag_size, "give --gpus N (the rank count)");
    } else {
        snprintf(why, why_size, "no row has a size and a time");
        snprintf(flag, flag_size, "paste the rows of the table");
    }
}

/* Predicts every row of run (rows into `set` when given, predicted busbw into
 * predicted_busbw when given), adds the verdict's finding to run->findings
 * and fills *j. Returns 0, an exit code of the hooks or CHECK_DOC_DATA_ERROR. */
static int judge_run_on(const check_hooks *hooks, const char *shown, collcalc_nccl_tests_run *run,
                        const collcalc_platform *on, record_set *set, double *predicted_busbw,
                        judgement *j, collcalc_diag *diag)
{
    memset(j, 0, sizeof *j);
    collcalc_nccl_func func = COLLCALC_NCCL_ALLREDUCE;
    bool modelled = run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE &&
                    collcalc_nccl_func_from_op(run->op, &func);
    check_model model;
    memset(&model, 0, sizeof model);
    int code = hooks->model(hooks->context, run, modelled, on, &model);
    if (code != 0)
        return code;
    j->platforms = model.platforms;
    const collcalc_platform *platform = model.platform;
    int nodes = model.platform != NULL ? model.nodes : 1;
    int gpus_per_node = model.platform != NULL ? model.gpus_per_node : 1;
    bool predicted = model.system != NULL && platform != NULL && run->ranks > 0 && modelled;
    collcalc_check *check = malloc(sizeof *check);
    if (check == NULL)
        return data_error(diag, "out of memory");
    j->predicted = predicted;
    j->modelled = modelled;
    j->platform = platform;
    j->nodes = nodes;
    j->gpus_per_node = gpus_per_node;
    j->constants_version = predicted ? model.constants->version : NULL;
    j->corrections = predicted && model.options->corrections != 0;
    j->guessed = platform != NULL && model.guessed;
    if (j->guessed && model.platforms != NULL) {
        size_t used = 0;
        for (size_t k = 0; k < collcalc_platform_table_count(model.platforms) && used < 120; k++) {
            const collcalc_platform *o = collcalc_platform_table_at(model.platforms, k);
            if (o != NULL && o != platform && strcmp(o->gpu, platform->gpu) == 0)
                used += (size_t)snprintf(j->others + used, sizeof j->others - used, "%s%s",
                                         used ? ", " : "", o->name);
        }
    }
    j->wrong = run->rows_wrong > 0 || run->out_of_bounds > 0;
    double line_rate = predicted ? model.line_rate_GBps : 0.0;
    j->line_rate = line_rate;
    collcalc_check_init(check, line_rate);
    size_t too_large = 0;
    long too_large_line = 0;
    if (predicted)
        collcalc_check_use_bands(check, model.system, func); /* doc/MODEL.md 15.1 */
    for (size_t i = 0; i < run->row_count; i++) {
        const collcalc_nccl_tests_read_row *r = &run->rows[i];
        const collcalc_nccl_tests_measurement *m = &r->row.out_of_place;
        if (set != NULL) {
            record_begin(set);
            record_int(set, "size_bytes", (long long)r->row.size_bytes);
            record_int(set, "line", r->line);
            record_text(set, "type", r->has_type ? r->row.type : NULL);
            record_number(set, "measured_time_us", m->time_us);
            record_number(set, "measured_algbw_GBps", m->algbw_GBps);
            record_number(set, "measured_busbw_GBps", m->busbw_GBps);
            bool mismatch = r->out_of_place.algbw == COLLCALC_NCCL_TESTS_CHECK_MISMATCH ||
                            r->out_of_place.busbw == COLLCALC_NCCL_TESTS_CHECK_MISMATCH;
            bool wrong = (m->present && m->wrong > 0) ||
                         (r->row.in_place.present && r->row.in_place.wrong > 0);
            record_text(set, "row_check",
                        wrong      ? "wrong"
                        : mismatch ? "mismatch"
                        : r->zero_time ? "zero-time"
                                       : "ok");
        }
        if (!predicted || r->row.size_bytes == 0 || !(m->time_us > 0.0))
            continue;
        if (r->row.size_bytes > COLLCALC_NCCL_SIZE_MAX) { /* not costed: the others still are */
            if (too_large++ == 0)
                too_large_line = r->line;
            continue;
        }
        collcalc_nccl_prediction prediction;
        collcalc_diag failed;
        if (collcalc_nccl_predict(model.system, model.constants, model.options, func,
                                  r->row.size_bytes, &prediction, &failed) != COLLCALC_OK) {
            free(check);
            return data_error(diag, "line %ld: %s", r->line, failed.message);
        }
        const collcalc_nccl_candidate *c = collcalc_nccl_selected(&prediction);
        if (c == NULL)
            continue;
        double busbw_error = m->busbw_GBps > 0 ? (c->busbw_GBps - m->busbw_GBps) / m->busbw_GBps : 0;
        double time_error = (c->time_us - m->time_us) / m->time_us;
        if (predicted_busbw != NULL)
            predicted_busbw[i] = c->busbw_GBps;
        if (set != NULL) {
            record_number(set, "predicted_time_us", c->time_us);
            record_number(set, "predicted_algbw_GBps", c->algbw_GBps);
            record_number(set, "predicted_busbw_GBps", c->busbw_GBps);
            record_number(set, "time_error", time_error);
            record_number(set, "busbw_error", busbw_error);
            record_text(set, "algorithm", collcalc_nccl_algo_name(c->algo));
            record_text(set, "protocol", collcalc_nccl_proto_name(c->proto));
            record_int(set, "channels", c->channels_run);
            record_number(set, "nccl_time_us", c->nccl_time_us);
            record_number(set, "nccl_busbw_GBps", c->nccl_busbw_GBps);
            bool large = r->row.size_bytes >= COLLCALC_CHECK_LARGE_BYTES;
            record_textf(set, "error", "%+.0f%% %s", 100.0 * (large ? busbw_error : time_error),
                         large ? "busbw" : "time");
        }
        collcalc_check_add(check, r->row.size_bytes, m->time_us, m->busbw_GBps, c);
    }
    if (too_large > 0 && hooks->warn != NULL) {
        char message[256];
        snprintf(message, sizeof message,
                 "%s: line %ld: %zu row%s above 1 PiB, the largest size NCCL's model costs: "
                 "not judged",
                 shown, too_large_line, too_large, too_large == 1 ? "" : "s");
        hooks->warn(hooks->context, message);
    }
    collcalc_check_summary summary;
    collcalc_check_finish(check, &summary);
    if (!predicted)
        summary.verdict = COLLCALC_VERDICT_UNKNOWN;
    j->summary = summary;
    j->large_count = check->large_count;
    j->small_count = check->small_count;

    char sizes[80], a[32], b[32];
    collcalc_findings *findings = &run->findings;
    switch (summary.verdict) {
    case COLLCALC_VERDICT_UNKNOWN:
        unknown_reason(run, modelled, platform, model.shape_problem, j->why, sizeof j->why, j->flag,
                       sizeof j->flag);
        collcalc_findings_add(findings, COLLCALC_SEVERITY_INFO, "verdict-unknown", j->flag,
                              "not enough to judge: %s", j->why);
        break;
    case COLLCALC_VERDICT_BELOW_EXPECTATION:
        collcalc_bytes_format_iec(a, sizeof a, (double)check->below_min_bytes);
        collcalc_bytes_format_iec(b, sizeof b, (double)check->below_max_bytes);
        snprintf(sizes, sizeof sizes, "%s..%s", a, b);
        collcalc_findings_add(
            findings, COLLCALC_SEVERITY_ERROR, "below-expectation",
            nodes > 1 ? "check every NIC is used (NCCL_IB_HCA, 'collcalc diagnose' on an "
                        "NCCL_DEBUG=INFO log), GPUDirect RDMA (NCCL_NET_GDR_LEVEL), the transport "
                        "(NET/IB, not NET/Socket) and the channel count (NCCL_MIN_NCHANNELS)"
                      : "check P2P and NVLink are used (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, 'collcalc "
                        "topo'), NVLS (NCCL_NVLS_ENABLE) and the channel count",
            "below expectation: large messages reach %.0f%% of the predicted busbw (median; "
            "%s at worst %.0f%%)%s%s%s%s%s",
            100.0 * summary.median_ratio, sizes, 100.0 * check->worst_ratio,
            j->others[0] ? "; predicted for " : "", j->others[0] ? platform->name : "",
            j->others[0] ? ", guessed from the GPU: if the cluster is " : "",
            j->others[0] ? j->others : "", j->others[0] ? ", give --platform NAME" : "");
        break;
    case COLLCALC_VERDICT_NO_EVIDENCE:
        collcalc_findings_add(findings, COLLCALC_SEVERITY_INFO, "no-evidence", NULL,
                              "not judged: no validation run of this regime (%s) says how far a "
                              "healthy run falls from the prediction; large messages reach %.0f%% "
                              "of it (median)",
                              check->band.regime[0] != '\0' ? check->band.regime : "its regime",
                              100.0 * summary.median_ratio);
        break;
    case COLLCALC_VERDICT_ABOVE_LINE_RATE:
        collcalc_bytes_format_iec(a, sizeof a, (double)check->above_bytes);
        human_bandwidth_GBps(b, sizeof b, check->above_busbw_GBps);
        collcalc_findings_add(findings, COLLCALC_SEVERITY_WARNING, "above-line-rate",
                              "check whether the fabric reduces in the switches (NVLS, SHARP), the "
                              "rank count the busbw factor used, and the cluster options",
                              "above the line rate: %s at %s reaches %s busbw, more than the %.0f "
                              "GB/s the path carries without in-network reduction",
                              shown, a, b, line_rate);
        break;
    case COLLCALC_VERDICT_HEALTHY:
        if (j->wrong)
            break; /* wrong results are not healthy, however fast */
        collcalc_findings_add(findings, COLLCALC_SEVERITY_INFO, "healthy", NULL,
                              "healthy: large messages reach %.0f%% of the predicted busbw "
                              "(median); median |pred - meas| / meas %s busbw at >= 1 MiB, %s "
                              "time at <= 64 KiB",
                              100.0 * summary.median_ratio,
                              percent_or_dash(a, sizeof a, check->large_count,
                                              summary.median_busbw_error),
                              percent_or_dash(b, sizeof b, check->small_count,
                                              summary.median_time_error));
        break;
    }
    if (run->op_guessed)
        collcalc_findings_add(findings, COLLCALC_SEVERITY_INFO, "op-guessed",
                              "give --op sendrecv (or --op allreduce --gpus N) when it was not",
                              "read as all_reduce_perf on 2 ranks: the table (a reduction, no "
                              "root, busbw = algbw) fits it and sendrecv_perf alike, and both "
                              "give the same busbw");
    collcalc_findings_sort(findings);
    free(check);
    return 0;
}

/* Judges a run. A platform guessed from the GPU name must not raise an alarm
 * that the cluster's own preset would not: when the run is below expectation
 * on the guess, it is judged on the other preset with the same GPU on which
 * it is not and which predicts it best (the median busbw error at >= 1 MiB
 * plus the median time error at <= 64 KiB); the guess is named, and --platform settles it. Exploring
 * passes write no rows; the chosen one writes them. */
static int judge_run(const check_hooks *hooks, const char *shown, collcalc_nccl_tests_run *run,
                     record_set *set, double *predicted_busbw, judgement *j, collcalc_diag *diag)
{
    collcalc_findings *before = malloc(sizeof *before);
    if (before == NULL)
        return data_error(diag, "out of memory");
    *before = run->findings;
    int code = judge_run_on(hooks, shown, run, NULL, NULL, NULL, j, diag);
    const collcalc_platform *guess = j->platform, *chosen = NULL;
    if (code == 0 && j->predicted && j->guessed && j->platforms != NULL &&
        j->summary.verdict == COLLCALC_VERDICT_BELOW_EXPECTATION) {
        double best_error = 0.0;
        for (size_t k = 0; k < collcalc_platform_table_count(j->platforms); k++) {
            const collcalc_platform *o = collcalc_platform_table_at(j->platforms, k);
            if (o == NULL || o == guess || strcmp(o->gpu, guess->gpu) != 0)
                continue;
            judgement alternative;
            run->findings = *before;
            code = judge_run_on(hooks, shown, run, o, NULL, NULL, &alternative, diag);
            if (code != 0)
                break;
            double error =
                (alternative.large_count > 0 ? alternative.summary.median_busbw_error : 0.0) +
                (alternative.small_count > 0 ? alternative.summary.median_time_error : 0.0);
            if (alternative.predicted &&
                alternative.summary.verdict != COLLCALC_VERDICT_BELOW_EXPECTATION &&
                (chosen == NULL || error < best_error)) {
                chosen = o;
                best_error = error;
            }
        }
    }
    run->findings = *before;
    free(before);
    if (code != 0)
        return code;
    code = judge_run_on(hooks, shown, run, chosen, set, predicted_busbw, j, diag);
    if (code == 0 && chosen != NULL) {
        j->first_guess = guess;
        collcalc_findings_add(&run->findings, COLLCALC_SEVERITY_WARNING, "platform-guess-differs",
                              "give --platform NAME for the cluster it ran on",
                              "judged on %s: the GPU also fits %s, on which this run is below "
                              "expectation; which preset is right decides the verdict",
                              chosen->name, guess->name);
        collcalc_findings_sort(&run->findings);
    }
    return code;
}

/* The op as said to people: "all-reduce", "op unknown". */
static const char *op_text(const collcalc_nccl_tests_run *run)
{
    return run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE ? collcalc_op_title(run->op)
                                                           : "op unknown";
}

/* What the NCCL log lines of the paste say, after the runs. */
static const record_column TUNING_COLUMNS[] = {
    {"kind", "kind", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"op", "op", FIELD_TEXT, COLUMN_BOTH | COLUMN_LEFT, NULL},
    {"size_bytes", "size", FIELD_BYTES_IEC, COLUMN_BOTH, NULL},
    {"nccl", "NCCL", FIELD_TEXT, COLUMN_BOTH | COLUMN_LEFT, NULL},
    {"model", "collcalc", FIELD_TEXT, COLUMN_BOTH | COLUMN_LEFT, NULL},
    {"nccl_latency_us", "NCCL latency", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"nccl_bw_GBps", "NCCL bw", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"model_latency_us", "model latency", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"model_bw_GBps", "model bw", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"differs", "differs", FIELD_BOOL, COLUMN_BOTH, NULL},
    {"line", "line", FIELD_INT, COLUMN_BOTH, NULL},
};
static const record_schema TUNING_SCHEMA = {"nccl_tuning",
                                            sizeof TUNING_COLUMNS / sizeof TUNING_COLUMNS[0],
                                            TUNING_COLUMNS};

/* The comparison as rows: each choice, then each table cell. */
static void tuning_records(document *doc, const collcalc_nccl_tuning_comparison *cmp)
{
    record_set *set = doc_records(doc, &TUNING_SCHEMA);
    for (int i = 0; i < cmp->choice_count; i++) {
        const collcalc_nccl_choice_pair *p = &cmp->choices[i];
        record_begin(set);
        record_text(set, "kind", "choice");
        record_text(set, "op", p->op);
        record_int(set, "size_bytes", p->bytes);
        record_text(set, "nccl", p->nccl_choice);
        record_text(set, "model", p->known ? p->model_choice : NULL);
        if (p->known)
            record_bool(set, "differs", !p->same);
        record_int(set, "line", p->line);
    }
    for (int i = 0; i < cmp->cell_count; i++) {
        const collcalc_nccl_tuning_pair *p = &cmp->cells[i];
        record_begin(set);
        record_text(set, "kind", "table");
        record_text(set, "op", p->op);
        record_textf(set, "nccl", "%s/%s %.1f us %.1f GB/s", p->algorithm, p->protocol,
                     p->nccl_latency_us, p->nccl_bw_GBps);
        record_number(set, "nccl_latency_us", p->nccl_latency_us);
        record_number(set, "nccl_bw_GBps", p->nccl_bw_GBps);
        if (p->known && p->model_runs) {
            record_textf(set, "model", "%.1f us %.1f GB/s", p->model_latency_us, p->model_bw_GBps);
            record_number(set, "model_latency_us", p->model_latency_us);
            record_number(set, "model_bw_GBps", p->model_bw_GBps);
        } else if (p->known) {
            record_text(set, "model", "cannot run");
        }
        if (p->known)
            record_bool(set, "differs", p->differs);
        record_int(set, "line", p->line);
    }
}

/* NCCL's TUNING lines beside collcalc's model of the system the log ran
 * on (the cluster from the command, the ranks from the log or the
 * command): the finding into findings, the rows into doc when known. */
static int add_tuning(document *doc, const collcalc_paste_result *paste, const check_hooks *hooks,
                      collcalc_findings *findings, collcalc_diag *diag)
{
    const collcalc_nccl_log *log = paste->log;
    if (log->tuning_cell_count == 0 && log->choice_count == 0)
        return 0;
    collcalc_nccl_tests_run *run = calloc(1, sizeof *run);
    if (run == NULL)
        return data_error(diag, "out of memory");
    run->ranks = log->nranks;
    run->hosts = log->nnodes;
    run->ranks_per_host = log->local_ranks;
    run->op = COLLCALC_OP_ALLREDUCE;
    run->op_source = COLLCALC_NCCL_TESTS_FROM_LOG;
    if (log->version.line > 0)
        snprintf(run->nccl_version, sizeof run->nccl_version, "%.*s",
                 (int)strcspn(log->version.text, " +"), log->version.text);
    check_model model;
    memset(&model, 0, sizeof model);
    int code = hooks->model(hooks->context, run, true, NULL, &model);
    free(run);
    if (code != 0)
        return code;
    if (model.system == NULL) {
        collcalc_findings_add(findings, COLLCALC_SEVERITY_INFO, "nccl-tuning-vs-model",
                              "give --platform NAME ('collcalc platforms'), --nodes N and, when "
                              "the log does not say its ranks, --gpus N",
                              "NCCL's TUNING lines are not set beside collcalc's model: %s",
                              model.platform == NULL ? "the cluster is not known (an NCCL log "
                                                       "does not name the GPU)"
                                                     : "the log does not say its rank count");
        return 0;
    }
    collcalc_nccl_tuning_comparison *cmp = malloc(sizeof *cmp);
    if (cmp == NULL)
        return data_error(diag, "out of memory");
    collcalc_diag failed;
    if (collcalc_nccl_log_compare_tuning(log, model.system, model.constants, model.options, cmp,
                                         findings, &failed) != COLLCALC_OK) {
        free(cmp);
        return data_error(diag, "NCCL's tuning beside the model: %s", failed.message);
    }
    doc_text(doc, "%s", "");
    doc_text(doc, "NCCL's TUNING lines beside collcalc's model of %s, %d node%s x %d GPUs (NCCL %s "
                  "tuner; table cells costed at 1 GiB):",
             model.platform->name, model.nodes, model.nodes == 1 ? "" : "s", model.gpus_per_node,
             model.constants->version);
    tuning_records(doc, cmp);
    free(cmp);
    return 0;
}

/* What the NCCL log lines of the paste say, after the runs. */
static int add_log(document *doc, const collcalc_paste_result *paste, const check_hooks *hooks,
                   bool *unhealthy, collcalc_diag *diag)
{
    if (!paste->has_log)
        return 0;
    collcalc_findings *findings = malloc(sizeof *findings);
    collcalc_diag failed;
    if (findings == NULL)
        return data_error(diag, "out of memory");
    if (collcalc_nccl_log_finish(paste->log, findings, &failed) != COLLCALC_OK) {
        free(findings);
        return 0;
    }
    int code = add_tuning(doc, paste, hooks, findings, diag);
    if (code != 0) {
        free(findings);
        return code;
    }
    collcalc_findings_sort(findings);
    doc_text(doc, "%s", "");
    doc_text(doc, "NCCL_DEBUG lines (%ld of %ld lines; 'collcalc diagnose' shows them alone):",
             paste->log->nccl_lines, paste->lines);
    findings_add(doc, findings);
    if (collcalc_findings_worst(findings) == COLLCALC_SEVERITY_ERROR)
        *unhealthy = true;
    free(findings);
    return 0;
}

static const record_column RUN_COLUMNS[] = {
    {"run", "run", FIELD_INT, COLUMN_BOTH, NULL},
    {"first_line", "line", FIELD_INT, COLUMN_BOTH, NULL},
    {"last_line", "to", FIELD_INT, COLUMN_MACHINE, NULL},
    {"split", "split at", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"label", "heading", FIELD_TEXT, COLUMN_BOTH | COLUMN_LEFT, NULL},
    {"op", "op", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"op_from", "op from", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"ranks", "ranks", FIELD_INT, COLUMN_BOTH, NULL},
    {"row_count", "rows", FIELD_INT, COLUMN_BOTH, NULL},
    {"max_bytes", "largest", FIELD_BYTES_IEC, COLUMN_BOTH, NULL},
    {"busbw_at_max_GBps", "busbw there", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"peak_busbw_GBps", "peak busbw", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"platform", "predicted for", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"median_measured_over_predicted", "of predicted", FIELD_NUMBER, COLUMN_BOTH, NULL},
    {"verdict", "verdict", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"rows", "rows", FIELD_RECORDS, COLUMN_MACHINE, &ROW_SCHEMA},
    {"findings", "findings", FIELD_RECORDS, COLUMN_MACHINE, NULL},
    {"error", "error", FIELD_TEXT, COLUMN_MACHINE, NULL},
};
static const record_schema RUN_SCHEMA = {"runs", sizeof RUN_COLUMNS / sizeof RUN_COLUMNS[0],
                                         RUN_COLUMNS};

/* The topology matrices of the paste, each with its grid and advice
 * (lines counted in the paste when the matrix lines were contiguous). */
static void add_matrices(document *doc, const collcalc_paste_result *paste)
{
    if (paste->topo_text == NULL || paste->topo_length == 0)
        return;
    static const record_column MATRIX_COLUMNS[] = {
        {"matrix", "matrix", FIELD_INT, COLUMN_MACHINE, NULL},
        {"first_line", "line", FIELD_INT, COLUMN_MACHINE, NULL},
        {"source", "source", FIELD_TEXT, COLUMN_MACHINE, NULL},
        {"gpus", "GPUs", FIELD_INT, COLUMN_MACHINE, NULL},
        {"nics", "NICs", FIELD_INT, COLUMN_MACHINE, NULL},
        {"generation", "generation", FIELD_TEXT, COLUMN_MACHINE, NULL},
        {"islands", "islands", FIELD_INT, COLUMN_MACHINE, NULL},
        {"largest_island", "largest island", FIELD_INT, COLUMN_MACHINE, NULL},
        {"error", "error", FIELD_TEXT, COLUMN_MACHINE, NULL},
        {"findings", "findings", FIELD_RECORDS, COLUMN_MACHINE, NULL},
    };
    static const record_schema MATRIX_SCHEMA = {"matrices", 10, MATRIX_COLUMNS};
    record_set *set = doc_records(doc, &MATRIX_SCHEMA);
    records_machine_only(set);
    size_t offset = 0;
    long line = paste->topo_first_line > 0 ? paste->topo_first_line : 1;
    for (int k = 1; k <= 8 && offset < paste->topo_length; k++) {
        collcalc_topo_options options;
        collcalc_topo_options_init(&options);
        options.first_line = line;
        collcalc_topo *topo = NULL;
        collcalc_diag diag;
        record_begin(set);
        record_int(set, "matrix", k);
        record_int(set, "first_line", line);
        doc_text(doc, "%s", "");
        if (collcalc_topo_parse(paste->topo_text + offset, paste->topo_length - offset, &options,
                                &topo, &diag) != COLLCALC_OK) {
            record_text(set, "error", diag.message);
            doc_text(doc, "topology matrix %d (from line %ld): not read: %s", k, line,
                     diag.message);
            return;
        }
        record_text(set, "source", topo->rocm_smi ? "rocm-smi --showtopo" : "nvidia-smi topo -m");
        record_int(set, "gpus", topo->gpu_count);
        record_int(set, "nics", topo->nic_count);
        record_text(set, "generation", collcalc_gpu_generation_name(topo->generation));
        record_int(set, "islands", topo->island_count);
        record_int(set, "largest_island", topo->island_count > 0 ? topo->islands[0].gpu_count : 0);
        /* check reads every matrix: the reader's "only the first was read" is not said */
        collcalc_findings advice;
        collcalc_findings_init(&advice);
        for (size_t i = 0; i < topo->advice.count; i++)
            if (strcmp(topo->advice.items[i].code, "topo-second-matrix") != 0)
                advice.items[advice.count++] = topo->advice.items[i];
        record_set *found = record_nested(set, findings_schema());
        findings_records(found, &advice);
        record_select(set, record_count(set) - 1);
        record_set_records(set, "findings", found);
        doc_text(doc, "topology matrix %d (line %ld; 'collcalc topo' shows it alone):", k,
                 topo->header_line);
        topo_doc_summary_line(doc, topo);
        topo_doc_grid(doc, topo);
        collcalc_findings shown;
        collcalc_findings_init(&shown);
        for (size_t i = 0; i < advice.count; i++)
            if (advice.items[i].severity != COLLCALC_SEVERITY_INFO ||
                strcmp(advice.items[i].code, "topo-nvlink-island") == 0 ||
                strcmp(advice.items[i].code, "topo-nic-far") == 0 ||
                strcmp(advice.items[i].code, "topo-numa") == 0)
                shown.items[shown.count++] = advice.items[i];
        findings_text(doc, &shown);
        size_t next = topo->next_matrix_offset;
        long next_line = topo->next_matrix_line;
        collcalc_topo_free(topo);
        if (next == 0)
            return;
        offset += next;
        line = next_line;
    }
}

/* One line for the runs whose verdict is unknown: why, and what to give. */
static void add_unknown(document *doc, const collcalc_paste_result *paste, const judgement *js)
{
    size_t unknown = 0, first = 0, same = 0;
    for (size_t i = 0; i < paste->run_count; i++) {
        if (!paste->runs[i].read || js[i].predicted ||
            js[i].summary.verdict != COLLCALC_VERDICT_UNKNOWN)
            continue;
        if (unknown++ == 0)
            first = i;
        if (strcmp(js[i].why, js[first].why) == 0)
            same++;
    }
    if (unknown == 0)
        return;
    doc_text(doc, "%s", "");
    doc_text(doc, "verdict unknown on %zu of %zu runs: %s%s", unknown, paste->run_count,
             js[first].why, same < unknown ? " (and other reasons: see each run's findings)" : "");
    doc_text(doc, "        next: %s", js[first].flag);
}

/* A paste of several runs: one line each, their findings, how they compare. */
int check_doc_runs(document *doc, const char *shown, collcalc_paste_result *paste,
                   const check_hooks *hooks, bool *unhealthy_out, collcalc_diag *diag)
{
    doc_query_text(doc, "file", shown);
    doc_query_int(doc, "runs", (long long)paste->run_count);
    doc_text(doc, "%s: %zu runs%s", shown, paste->run_count,
             paste->runs_dropped > 0 ? " kept (more were counted)" : "");
    doc_text(doc, "%s", "");
    record_set *set = doc_records(doc, &RUN_SCHEMA);
    bool unhealthy = false;
    judgement *js = calloc(paste->run_count + 1, sizeof *js);
    if (js == NULL)
        return data_error(diag, "out of memory");
    for (size_t i = 0; i < paste->run_count; i++) {
        collcalc_paste_run *r = &paste->runs[i];
        record_begin(set);
        record_int(set, "run", (long long)i + 1);
        record_int(set, "first_line", r->first_line);
        record_int(set, "last_line", r->last_line);
        record_text(set, "split", collcalc_paste_split_name(r->split));
        record_text(set, "label", r->label[0] ? r->label : NULL);
        if (!r->read) {
            record_text(set, "error", r->error);
            record_text(set, "verdict", "unread");
            unhealthy = true;
            continue;
        }
        collcalc_nccl_tests_run *run = &r->run;
        record_text(set, "op", run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE
                                   ? collcalc_nccl_tests_binary_name(run->op)
                                   : NULL);
        record_text(set, "op_from", collcalc_nccl_tests_source_name(run->op_source));
        record_int(set, "ranks", run->ranks);
        record_int(set, "row_count", (long long)run->row_count);
        record_int(set, "max_bytes", (long long)r->max_bytes);
        record_number(set, "busbw_at_max_GBps", r->busbw_at_max_GBps);
        record_number(set, "peak_busbw_GBps", r->peak_busbw_GBps);
        record_set *rows = record_nested(set, &ROW_SCHEMA);
        int code = judge_run(hooks, shown, run, rows, NULL, &js[i], diag);
        if (code != 0) {
            free(js);
            return code;
        }
        record_select(set, record_count(set) - 1);
        record_set_records(set, "rows", rows);
        record_text(set, "platform", js[i].platform != NULL ? js[i].platform->name : NULL);
        if (js[i].large_count > 0 && js[i].predicted)
            record_number(set, "median_measured_over_predicted", js[i].summary.median_ratio);
        record_text(set, "verdict", verdict_text(&js[i]));
        record_set *found = record_nested(set, findings_schema());
        findings_records(found, &run->findings);
        record_select(set, record_count(set) - 1);
        record_set_records(set, "findings", found);
        if (js[i].wrong || js[i].summary.verdict != COLLCALC_VERDICT_HEALTHY)
            unhealthy = true;
    }
    doc_text(doc, "%s", "");
    for (size_t i = 0; i < paste->run_count; i++) {
        collcalc_paste_run *r = &paste->runs[i];
        if (!r->read) {
            doc_text(doc, "run %zu (line %ld): not read: %s", i + 1, r->first_line, r->error);
            continue;
        }
        const collcalc_nccl_tests_run *run = &r->run;
        doc_text(doc, "run %zu (lines %ld-%ld%s%s%s): %s%s on %d rank%s; %zu rows; verdict %s", i + 1,
                 r->first_line, r->last_line, r->label[0] ? ", '" : "", r->label,
                 r->label[0] ? "'" : "", op_text(run),
                 run->op_guessed ? " (guessed)" : "", run->ranks, run->ranks == 1 ? "" : "s",
                 run->row_count, verdict_text(&js[i]));
        collcalc_findings shown_findings;
        collcalc_findings_init(&shown_findings);
        for (size_t k = 0; k < run->findings.count; k++)
            if (run->findings.items[k].severity != COLLCALC_SEVERITY_INFO ||
                strcmp(run->findings.items[k].code, "healthy") == 0 ||
                strcmp(run->findings.items[k].code, "op-guessed") == 0)
                shown_findings.items[shown_findings.count++] = run->findings.items[k];
        findings_text(doc, &shown_findings);
    }
    add_unknown(doc, paste, js);
    if (paste->findings.count > 0) {
        doc_text(doc, "%s", "");
        doc_text(doc, "how the runs compare:");
        findings_add(doc, &paste->findings);
        if (collcalc_findings_worst(&paste->findings) == COLLCALC_SEVERITY_ERROR)
            unhealthy = true;
    }
    int code = add_log(doc, paste, hooks, &unhealthy, diag);
    if (code == 0)
        add_matrices(doc, paste);
    free(js);
    *unhealthy_out = unhealthy;
    return code;
}

int check_doc_other(document *doc, const char *shown, collcalc_paste_result *paste,
                    const check_hooks *hooks, bool *unhealthy, collcalc_diag *diag)
{
    doc_query_text(doc, "file", shown);
    doc_query_int(doc, "runs", 0);
    doc_text(doc, "%s: no nccl-tests table; %s%s%s", shown,
             paste->has_log ? "NCCL_DEBUG lines" : "",
             paste->has_log && paste->topo_lines > 0 ? " and " : "",
             paste->topo_lines > 0 ? "a topology matrix" : "");
    *unhealthy = false;
    int code = add_log(doc, paste, hooks, unhealthy, diag);
    if (code != 0)
        return code;
    add_matrices(doc, paste);
    return 0;
}

int check_doc_single(document *doc, const char *shown, collcalc_paste_result *paste,
                     size_t run_index, const check_hooks *hooks, bool with_chart,
                     plot_chart **out_chart, bool *unhealthy, const char **verdict_out,
                     collcalc_diag *diag)
{
    collcalc_nccl_tests_run *run = &paste->runs[run_index].run;
    double *predicted_busbw = calloc(run->row_count + 1, sizeof *predicted_busbw);
    if (predicted_busbw == NULL)
        return data_error(diag, "out of memory");
    doc_query_text(doc, "file", shown);
    doc_query_text(doc, "op", run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE
                                  ? collcalc_op_name(run->op)
                                  : NULL);
    doc_query_text(doc, "op_from", collcalc_nccl_tests_source_name(run->op_source));
    doc_query_int(doc, "ranks", run->ranks);
    doc_query_text(doc, "ranks_from", collcalc_nccl_tests_source_name(run->ranks_source));
    doc_query_text(doc, "launch", collcalc_nccl_tests_launch_name(run->launch));
    doc_query_text(doc, "gpu_model", run->gpu_model[0] ? run->gpu_model : NULL);
    doc_query_text(doc, "nccl_version", run->nccl_version[0] ? run->nccl_version : NULL);
    /* Two passes: the lines above the rows need the judgement, the rows
     * come after them. */
    judgement j;
    int code = judge_run(hooks, shown, run, NULL, predicted_busbw, &j, diag);
    if (code != 0) {
        free(predicted_busbw);
        return code;
    }
    doc_query_text(doc, "platform", j.platform != NULL ? j.platform->name : NULL);
    doc_query_int(doc, "nodes", j.predicted ? j.nodes : 0);
    doc_query_int(doc, "gpus_per_node", j.predicted ? j.gpus_per_node : 0);
    doc_query_text(doc, "nccl_constants", j.constants_version);
    doc_query_bool(doc, "corrections", j.corrections);
    doc_text(doc, "%s: %s%s%s on %d rank%s (%s launch)%s%s; %zu rows", shown, op_text(run),
             run->op_guessed ? " (guessed)" : "",
             run->abbreviated ? " (abbreviated table)" : "", run->ranks, run->ranks == 1 ? "" : "s",
             collcalc_nccl_tests_launch_name(run->launch), run->gpu_model[0] ? ", " : "",
             run->gpu_model, run->row_count);
    if (j.predicted && j.guessed && j.others[0] != '\0')
        doc_text(doc, "the cluster is guessed from the GPU: %s; presets with the same GPU: %s "
                      "(give --platform when it is one of them)",
                 j.platform->name, j.others);
    if (j.predicted)
        doc_text(doc, "predicted for %s, %d node%s x %d GPUs, NCCL %s tuner%s%s", j.platform->name,
                 j.nodes, j.nodes == 1 ? "" : "s", j.gpus_per_node, j.constants_version,
                 j.corrections ? " with collcalc's corrections" : " (faithful)",
                 run->nccl_version[0] ? "" : " (the run does not say its NCCL version)");
    doc_text(doc, "%s", "");
    record_set *set = doc_records(doc, &ROW_SCHEMA);
    /* The rows: judged again into the set (same inputs, same numbers); its
     * findings are dropped so the first pass's stand. */
    collcalc_findings kept = run->findings;
    judgement again;
    code = judge_run(hooks, shown, run, set, NULL, &again, diag);
    run->findings = kept;
    if (code != 0) {
        free(predicted_busbw);
        return code;
    }
    const char *verdict = verdict_text(&j);
    doc_query_text(doc, "verdict", verdict);
    /* medians of |predicted - measured| / measured; null without such rows */
    if (j.large_count > 0)
        doc_query_number(doc, "median_busbw_error", FIELD_NUMBER, j.summary.median_busbw_error);
    else
        doc_query_null(doc, "median_busbw_error");
    if (j.small_count > 0)
        doc_query_number(doc, "median_time_error", FIELD_NUMBER, j.summary.median_time_error);
    else
        doc_query_null(doc, "median_time_error");
    if (j.large_count > 0)
        doc_query_number(doc, "median_measured_over_predicted", FIELD_NUMBER,
                         j.summary.median_ratio);
    doc_text(doc, "%s", "");
    doc_text(doc, "verdict: %s", verdict);
    if (!j.predicted && j.summary.verdict == COLLCALC_VERDICT_UNKNOWN) {
        doc_text(doc, "        why: %s", j.why);
        doc_text(doc, "        next: %s", j.flag);
    }
    if (j.large_count > 0)
        doc_text(doc, "median |pred - meas| / meas of busbw over %zu rows >= 1 MiB: %.1f%%",
                 j.large_count,
                 100.0 * j.summary.median_busbw_error);
    if (j.small_count > 0)
        doc_text(doc, "median |pred - meas| / meas of time over %zu rows <= 64 KiB: %.1f%%",
                 j.small_count,
                 100.0 * j.summary.median_time_error);
    doc_text(doc, "%s", "");
    findings_add(doc, &run->findings);
    bool log_unhealthy = false;
    code = add_log(doc, paste, hooks, &log_unhealthy, diag);
    if (code != 0) {
        free(predicted_busbw);
        return code;
    }
    add_matrices(doc, paste);
    if (with_chart)
        *out_chart = check_chart(shown, run, j.predicted ? predicted_busbw : NULL, j.line_rate);
    *unhealthy = j.wrong || j.summary.verdict != COLLCALC_VERDICT_HEALTHY;
    *verdict_out = verdict;
    free(predicted_busbw);
    return 0;
}
