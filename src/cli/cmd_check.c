/* collcalc check: reads nccl-tests output, predicts every row with the
 * NCCL-faithful model on the cluster the run describes (or the options
 * say), prints measured against predicted, and gives a verdict. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_check.h"
#include "collcalc/nccl_log.h"
#include "collcalc/paste.h"
#include "collcalc/nccl_tests_reader.h"
#include "collcalc/units.h"
#include "chart.h"
#include "commands.h"
#include "findings_out.h"
#include "human.h"
#include "inputs.h"
#include "nccl_setup.h"
#include "request.h"

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

/* Which cluster the run was on: the options, else the run's own words. */
static int find_platform(cli_context *ctx, const collcalc_nccl_tests_run *run,
                         const collcalc_platform **out, int *nodes, int *gpus_per_node)
{
    const collcalc_platform_table *platforms;
    int code = cli_platforms(ctx, &platforms);
    if (code != 0)
        return code;
    const char *name = arg_value(&ctx->args, OPT_PLATFORM);
    *out = NULL;
    if (name != NULL && (code = cli_platform_named(ctx, name, out)) != 0)
        return code;
    long given_nodes = 0;
    if ((code = cli_count(ctx, OPT_NODES, 1, 1L << 20, &given_nodes)) != 0)
        return code;
    int ranks = run->ranks;
    if (*out == NULL)
        *out = collcalc_platform_guess(platforms, run->gpu_model, run->ranks_per_host);
    if (*out == NULL || ranks <= 0)
        return 0;
    const char *field = NULL;
    collcalc_diag diag;
    if (collcalc_run_shape(*out, ranks, run->hosts, given_nodes, nodes, gpus_per_node, &field,
                           &diag) != COLLCALC_OK)
        return request_error(ctx, COLLCALC_ERR_INVALID, field, &diag);
    return 0;
}

/* "12.3%", or "-" when no row was counted. */
static const char *percent_or_dash(char *buffer, size_t size, size_t count, double fraction)
{
    if (count == 0)
        snprintf(buffer, size, "-");
    else
        snprintf(buffer, size, "%.1f%%", 100.0 * fraction);
    return buffer;
}

/* The line rate of the run's path (collcalc_check_line_rate_GBps). */
static double line_rate_GBps(cli_context *ctx, const nccl_setup *setup)
{
    const collcalc_link_table *links;
    if (cli_links(ctx, &links) != 0)
        return 0.0;
    return collcalc_check_line_rate_GBps(
        setup->platform, collcalc_link_table_find(links, setup->platform->intra_link),
        collcalc_link_table_find(links, setup->platform->inter_link), setup->nodes,
        setup->gpus_per_node);
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
} judgement;

/* The verdict's name, "wrong-results" before any speed verdict. */
static const char *verdict_text(const judgement *j)
{
    return j->wrong ? "wrong-results" : collcalc_verdict_name(j->summary.verdict);
}

/* Predicts every row of run (rows into `set` when given, predicted busbw into
 * predicted_busbw when given), adds the verdict's finding to run->findings
 * and fills *j. Returns 0 or an exit code. */
static int judge_run(cli_context *ctx, const char *shown, collcalc_nccl_tests_run *run,
                     record_set *set, double *predicted_busbw, judgement *j)
{
    memset(j, 0, sizeof *j);
    const collcalc_platform *platform = NULL;
    int nodes = 1, gpus_per_node = 1;
    int code = find_platform(ctx, run, &platform, &nodes, &gpus_per_node);
    nccl_setup *setup = malloc(sizeof *setup);
    collcalc_check *check = malloc(sizeof *check);
    collcalc_nccl_func func = COLLCALC_NCCL_ALLREDUCE;
    bool modelled = run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE && nccl_func_of(run->op, &func);
    bool predicted = code == 0 && platform != NULL && run->ranks > 0 && modelled;
    if (code == 0 && (setup == NULL || check == NULL))
        code = cli_data_error(ctx, NULL, "out of memory");
    collcalc_nccl_launch launch =
        run->launch == COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS   ? COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS
        : run->launch == COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU ? COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU
        : collcalc_nccl_launch_default(nodes, platform != NULL ? platform->gpus_per_node : 0);
    if (code == 0 && predicted)
        code = nccl_setup_build(ctx, platform, nodes, gpus_per_node,
                                run->nccl_version[0] ? run->nccl_version : NULL, launch, setup);
    if (code == 0 && run->graph > 0 && predicted)
        setup->system.cuda_graph = true;
    if (code != 0) {
        free(setup);
        free(check);
        return code;
    }
    j->predicted = predicted;
    j->modelled = modelled;
    j->platform = platform;
    j->nodes = nodes;
    j->gpus_per_node = gpus_per_node;
    j->constants_version = predicted ? setup->constants->version : NULL;
    j->corrections = predicted && setup->options.corrections != 0;
    j->wrong = run->rows_wrong > 0 || run->out_of_bounds > 0;
    double line_rate = predicted ? line_rate_GBps(ctx, setup) : 0.0;
    j->line_rate = line_rate;
    collcalc_check_init(check, line_rate);
    size_t too_large = 0;
    long too_large_line = 0;
    if (predicted)
        collcalc_check_use_bands(check, &setup->system, func); /* doc/MODEL.md 15.1 */
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
        collcalc_diag diag;
        if (collcalc_nccl_predict(&setup->system, setup->constants, &setup->options, func,
                                  r->row.size_bytes, &prediction, &diag) != COLLCALC_OK) {
            free(setup);
            free(check);
            return cli_data_error(ctx, shown, "line %ld: %s", r->line, diag.message);
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
    if (too_large > 0)
        cli_warn(ctx,
                 "%s: line %ld: %zu row%s above 1 PiB, the largest size NCCL's model costs: "
                 "not judged",
                 shown, too_large_line, too_large, too_large == 1 ? "" : "s");
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
        collcalc_findings_add(findings, COLLCALC_SEVERITY_INFO, "verdict-unknown",
                              !modelled ? "give --op (all-reduce, all-gather, reduce-scatter, "
                                          "broadcast or reduce: the collectives NCCL's tuner costs)"
                              : platform == NULL ? "give --platform (see 'collcalc platforms') "
                                                   "and --nodes"
                                                 : "give --gpus (the rank count)",
                              "not enough to judge: %s",
                              !modelled ? "the op is not one NCCL's tuner costs, or unknown"
                              : platform == NULL ? "the cluster is not known"
                              : run->ranks <= 0  ? "the rank count is not known"
                                                 : "no row has a size and a time");
        break;
    case COLLCALC_VERDICT_BELOW_EXPECTATION:
        collcalc_format_bytes_iec(a, sizeof a, (double)check->below_min_bytes);
        collcalc_format_bytes_iec(b, sizeof b, (double)check->below_max_bytes);
        snprintf(sizes, sizeof sizes, "%s..%s", a, b);
        collcalc_findings_add(
            findings, COLLCALC_SEVERITY_ERROR, "below-expectation",
            nodes > 1 ? "check every NIC is used (NCCL_IB_HCA, 'collcalc diagnose' on an "
                        "NCCL_DEBUG=INFO log), GPUDirect RDMA (NCCL_NET_GDR_LEVEL), the transport "
                        "(NET/IB, not NET/Socket) and the channel count (NCCL_MIN_NCHANNELS)"
                      : "check P2P and NVLink are used (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, 'collcalc "
                        "topo'), NVLS (NCCL_NVLS_ENABLE) and the channel count",
            "below expectation: large messages reach %.0f%% of the predicted busbw (median; "
            "%s at worst %.0f%%)",
            100.0 * summary.median_ratio, sizes, 100.0 * check->worst_ratio);
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
        collcalc_format_bytes_iec(a, sizeof a, (double)check->above_bytes);
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
    free(setup);
    free(check);
    return 0;
}

/* The op as said to people: "all-reduce", "op unknown". */
static const char *op_text(const collcalc_nccl_tests_run *run)
{
    return run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE ? collcalc_op_title(run->op)
                                                           : "op unknown";
}

/* What the NCCL log lines of the paste say, after the runs. */
static void add_log(document *doc, const collcalc_paste_result *paste)
{
    if (!paste->has_log)
        return;
    collcalc_findings *findings = malloc(sizeof *findings);
    collcalc_diag diag;
    if (findings == NULL || collcalc_nccl_log_finish(paste->log, findings, &diag) != COLLCALC_OK) {
        free(findings);
        return;
    }
    doc_text(doc, "%s", "");
    doc_text(doc, "NCCL_DEBUG lines (%ld of %ld lines; 'collcalc diagnose' shows them alone):",
             paste->log->nccl_lines, paste->lines);
    findings_add(doc, findings);
    free(findings);
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

/* A paste of several runs: one line each, their findings, how they compare. */
static int check_runs(cli_context *ctx, const char *shown, collcalc_paste_result *paste)
{
    document *doc = doc_new(ctx->name);
    doc_query_text(doc, "file", shown);
    doc_query_int(doc, "runs", (long long)paste->run_count);
    doc_text(doc, "%s: %zu runs%s", shown, paste->run_count,
             paste->runs_dropped > 0 ? " kept (more were counted)" : "");
    doc_text(doc, "%s", "");
    record_set *set = doc_records(doc, &RUN_SCHEMA);
    bool unhealthy = false;
    judgement *js = calloc(paste->run_count + 1, sizeof *js);
    if (js == NULL) {
        doc_free(doc);
        return cli_data_error(ctx, NULL, "out of memory");
    }
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
        int code = judge_run(ctx, shown, run, rows, NULL, &js[i]);
        if (code != 0) {
            free(js);
            doc_free(doc);
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
    if (paste->findings.count > 0) {
        doc_text(doc, "%s", "");
        doc_text(doc, "how the runs compare:");
        findings_add(doc, &paste->findings);
        if (collcalc_findings_worst(&paste->findings) == COLLCALC_SEVERITY_ERROR)
            unhealthy = true;
    }
    add_log(doc, paste);
    free(js);
    int code = cli_emit(ctx, doc);
    if (code == 0 && unhealthy && arg_given(&ctx->args, OPT_STRICT))
        code = cli_strict_failure(ctx, "%s: not every run is healthy, or the runs differ", shown);
    return code;
}

int cmd_check(cli_context *ctx)
{
    const char *path;
    chart_request charts;
    int code = chart_options(ctx, &charts);
    if (code == 0)
        code = input_operand(ctx, &path);
    collcalc_paste_result paste;
    memset(&paste, 0, sizeof paste);
    if (code == 0)
        code = read_paste(ctx, path, &paste);
    if (code != 0)
        return code;
    const char *shown = input_shown(path);
    size_t read_runs = 0, index = 0;
    for (size_t i = 0; i < paste.run_count; i++)
        if (paste.runs[i].read) {
            read_runs++;
            index = i;
        }
    if (paste.run_count > 1) {
        code = check_runs(ctx, shown, &paste);
        collcalc_paste_result_free(&paste);
        return code;
    }
    if (read_runs == 0) {
        code = paste.run_count > 0
                   ? cli_data_error(ctx, shown, "%s", paste.runs[0].error)
                   : cli_data_error(ctx, shown,
                                    "no nccl-tests table (expected a header such as '#  size  "
                                    "count  type  redop  root  time  algbw  busbw  #wrong ...' "
                                    "followed by rows of numbers)%s",
                                    paste.has_log ? "; for the NCCL_DEBUG lines alone use "
                                                    "'collcalc diagnose'"
                                                  : "");
        collcalc_paste_result_free(&paste);
        return code;
    }
    collcalc_nccl_tests_run *run = &paste.runs[index].run;
    double *predicted_busbw = calloc(run->row_count + 1, sizeof *predicted_busbw);
    if (predicted_busbw == NULL) {
        collcalc_paste_result_free(&paste);
        return cli_data_error(ctx, NULL, "out of memory");
    }
    document *doc = doc_new(ctx->name);
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
    record_set *set = NULL;
    judgement j;
    code = judge_run(ctx, shown, run, NULL, predicted_busbw, &j);
    if (code != 0) {
        free(predicted_busbw);
        doc_free(doc);
        collcalc_paste_result_free(&paste);
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
    if (j.predicted)
        doc_text(doc, "predicted for %s, %d node%s x %d GPUs, NCCL %s tuner%s%s", j.platform->name,
                 j.nodes, j.nodes == 1 ? "" : "s", j.gpus_per_node, j.constants_version,
                 j.corrections ? " with collcalc's corrections" : " (faithful)",
                 run->nccl_version[0] ? "" : " (the run does not say its NCCL version)");
    doc_text(doc, "%s", "");
    set = doc_records(doc, &ROW_SCHEMA);
    /* The rows: judged again into the set (same inputs, same numbers); its
     * findings are dropped so the first pass's stand. */
    collcalc_findings kept = run->findings;
    judgement again;
    code = judge_run(ctx, shown, run, set, NULL, &again);
    run->findings = kept;
    if (code != 0) {
        free(predicted_busbw);
        doc_free(doc);
        collcalc_paste_result_free(&paste);
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
    add_log(doc, &paste);
    if (chart_wanted(&charts))
        code = chart_finish(ctx, &charts, doc,
                            check_chart(shown, run, j.predicted ? predicted_busbw : NULL,
                                        j.line_rate));
    bool unhealthy = j.wrong || j.summary.verdict != COLLCALC_VERDICT_HEALTHY;
    free(predicted_busbw);
    collcalc_paste_result_free(&paste);
    if (code != 0) {
        doc_free(doc);
        return code;
    }
    code = cli_emit(ctx, doc);
    if (code == 0 && unhealthy && arg_given(&ctx->args, OPT_STRICT))
        code = cli_strict_failure(ctx, "%s: the verdict is %s, not healthy", shown,
                                  verdict);
    return code;
}
