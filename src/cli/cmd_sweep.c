/* collcalc sweep: one collective over a range of sizes, one row per size,
 * optionally in nccl-tests' own layout so runs compare line by line. With a
 * platform the rows are NCCL's tuner's predictions (what nccl-tests would
 * print); otherwise the alpha-beta model's. */
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "collcalc/nccl_tests.h"
#include "collcalc/units.h"
#include "commands.h"
#include "human.h"
#include "nccl_view.h"
#include "report.h"
#include "sizes.h"

#define NCCL_TESTS_COLUMNS                                                                       \
    {"size_bytes", "size (B)", FIELD_INT, COLUMN_BOTH, NULL},                                    \
    {"size", "size", FIELD_BYTES_IEC, COLUMN_TABLE, NULL},                                       \
    {"count", "count", FIELD_INT, COLUMN_MACHINE, NULL},                                         \
    {"type", "type", FIELD_TEXT, COLUMN_MACHINE, NULL},                                          \
    {"redop", "redop", FIELD_TEXT, COLUMN_MACHINE, NULL},                                        \
    {"root", "root", FIELD_INT, COLUMN_MACHINE, NULL}

static const record_column SWEEP_COLUMNS[] = {NCCL_TESTS_COLUMNS, RESULT_COLUMNS};
static const record_schema SWEEP_SCHEMA = {"results", sizeof SWEEP_COLUMNS / sizeof SWEEP_COLUMNS[0],
                                           SWEEP_COLUMNS};

static const record_column SWEEP_NCCL_COLUMNS[] = {
    NCCL_TESTS_COLUMNS,
    {"model", "model", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"algorithm", "algorithm", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"protocol", "protocol", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"channels", "channels", FIELD_INT, COLUMN_BOTH, NULL},
    {"latency_us", "latency", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"bandwidth_us", "bandwidth", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"time_us", "time", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"algbw_GBps", "algbw", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"busbw_GBps", "busbw", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"nccl_time_us", "NCCL's time", FIELD_TIME_US, COLUMN_MACHINE, NULL},
};
static const record_schema SWEEP_NCCL_SCHEMA = {
    "results", sizeof SWEEP_NCCL_COLUMNS / sizeof SWEEP_NCCL_COLUMNS[0], SWEEP_NCCL_COLUMNS};

/* One row's outcome, whichever model computed it. */
typedef struct {
    const char *algorithm; /* static name */
    const char *protocol;  /* NULL for the alpha-beta model */
    double time_us, busbw_GBps;
} sweep_point;

static void nccl_tests_header(document *doc, const collcalc_query *query, const char *model_text,
                              const char *algo_text, uint64_t first, uint64_t last)
{
    char cluster[256], line[COLLCALC_NCCL_TESTS_LINE_MAX];
    report_describe_cluster(&query->cluster, cluster, sizeof cluster);
    doc_text(doc, "# collcalc prediction of %s: %s; %s", collcalc_nccl_tests_binary_name(query->op),
             cluster, model_text);
    doc_text(doc, "# algorithm: %s", algo_text);
    doc_text(doc, "# nThread 1 nGpus 1 minBytes %llu maxBytes %llu (one process per GPU; "
                  "predicted, not measured)",
             (unsigned long long)first, (unsigned long long)last);
    doc_text(doc, "#");
    for (int i = 0; i < 3; i++)
        doc_text(doc, "%s",
                 collcalc_nccl_tests_format_header_line(line, sizeof line,
                                                        COLLCALC_NCCL_TESTS_STYLE_CURRENT, i,
                                                        false));
}

/* "ring 8 B..1 MiB, nvls 2 MiB..1 GiB": which algorithm each size uses. */
static void describe_runs(const sweep_point *points, const uint64_t *sizes, int count, char *text,
                          size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    int start = 0;
    for (int i = 1; i <= count && used < size; i++) {
        bool same = i < count && strcmp(points[i].algorithm, points[start].algorithm) == 0 &&
                    (points[i].protocol == NULL || strcmp(points[i].protocol, points[start].protocol) == 0);
        if (same)
            continue;
        char from[32], to[32];
        collcalc_format_bytes_iec(from, sizeof from, (double)sizes[start]);
        collcalc_format_bytes_iec(to, sizeof to, (double)sizes[i - 1]);
        used += (size_t)snprintf(text + used, size - used, "%s%s%s%s %s..%s", start ? ", " : "",
                                 points[start].algorithm, points[start].protocol ? "/" : "",
                                 points[start].protocol ? points[start].protocol : "", from, to);
        start = i;
    }
}

/* The row's prediction: NCCL's tuner, or the alpha-beta model's named or
 * fastest-NCCL-runs algorithm(s). Alpha-beta rows may be several (one per
 * --algo). Returns 0 or an exit code. */
static int predict_row(cli_context *ctx, collcalc_query *query, const nccl_setup *setup,
                       const collcalc_algo *algos, int algo_count, record_set *set,
                       collcalc_bw_basis basis, sweep_point *point)
{
    collcalc_diag diag;
    if (setup != NULL) {
        collcalc_nccl_func func = COLLCALC_NCCL_ALLREDUCE;
        collcalc_nccl_func_from_op(query->op, &func);
        collcalc_nccl_prediction prediction;
        if (collcalc_nccl_predict(&setup->system, setup->constants, &setup->options, func,
                                  query->size_bytes, &prediction, &diag) != COLLCALC_OK)
            return cli_usage_error(ctx, NULL, "%s", diag.message);
        const collcalc_nccl_candidate *c = collcalc_nccl_selected(&prediction);
        record_begin(set);
        record_text(set, "model", "nccl");
        if (c != NULL) {
            record_text(set, "algorithm", collcalc_nccl_algo_name(c->algo));
            record_text(set, "protocol", collcalc_nccl_proto_name(c->proto));
            nccl_view_record_figures(set, c);
        }
        *point = (sweep_point){c ? collcalc_nccl_algo_name(c->algo) : "-",
                               c ? collcalc_nccl_proto_name(c->proto) : "-", c ? c->time_us : 0.0,
                               c ? c->busbw_GBps : 0.0};
        return 0;
    }
    collcalc_result results[COLLCALC_ALGO_COUNT];
    size_t count = 0, fastest = 0;
    int code = report_evaluate(ctx, query, algos, algo_count, results, &count, &fastest);
    if (code != 0)
        return code;
    size_t choice = report_fastest_in_nccl(results, count);
    if (choice >= count)
        choice = fastest;
    size_t first = algo_count > 0 ? 0 : choice, last = algo_count > 0 ? count : choice + 1;
    for (size_t k = first; k < last; k++)
        report_result_row(set, query, &results[k], basis, 1, 1, k == fastest);
    *point = (sweep_point){collcalc_algo_name(results[first].algo), NULL, results[first].time_us,
                           results[first].busbw_GBps};
    return 0;
}

/* busbw against size, one series; the line rate and the sizes where the
 * algorithm changes marked. */
static plot_chart *sweep_chart(const collcalc_query *query, const sweep_point *points,
                               const uint64_t *sizes, int count, const char *series)
{
    char title[160];
    snprintf(title, sizeof title, "%s on %d GPUs: busbw by message size",
             collcalc_op_title(query->op), query->cluster.gpus);
    plot_chart *chart = plot_new(title);
    plot_set_x_axis(chart, "message size (bytes)", PLOT_UNIT_BYTES);
    plot_set_y_axis(chart, "busbw (GB/s)", PLOT_UNIT_GBPS);
    int s = plot_add_series(chart, series, PLOT_LINE);
    for (int i = 0; i < count; i++) {
        plot_add_point(chart, s, (double)sizes[i], points[i].busbw_GBps);
        if (i > 0 && strcmp(points[i].algorithm, points[i - 1].algorithm) != 0) {
            char label[64];
            snprintf(label, sizeof label, "%s -> %s", points[i - 1].algorithm, points[i].algorithm);
            plot_add_vmarker(chart, (double)sizes[i], label);
        }
    }
    double line = collcalc_cluster_nodes(&query->cluster) > 1 ? 0.0 : query->cluster.intra.bw_GBps;
    if (line > 0)
        plot_add_hmarker(chart, line, "line rate");
    return chart;
}

int cmd_sweep(cli_context *ctx)
{
    collcalc_query query;
    collcalc_query_init(&query);
    int code = cli_operation(ctx, &query.op);
    const char *style = arg_value(&ctx->args, OPT_STYLE);
    bool nccl_style = false;
    if (code == 0 && style != NULL) {
        nccl_style = strcmp(style, "nccl-tests") == 0;
        if (!nccl_style && strcmp(style, "table") != 0)
            code = cli_usage_error(ctx, "--style", "unknown style '%.60s' (table or nccl-tests)",
                                   style);
        else if (nccl_style && ctx->format != FORMAT_TABLE)
            code = cli_usage_error(ctx, "--style",
                                   "nccl-tests is a layout for people; --format json/csv "
                                   "already carry its count, type, redop and root columns");
    }
    chart_request charts;
    if (code == 0)
        code = chart_options(ctx, &charts);
    uint64_t sizes[MAX_SWEEP_SIZES];
    int size_count = 0;
    if (code == 0)
        code = sizes_expand(ctx, NULL, 8, 1ULL << 30, sizes, &size_count);
    collcalc_cluster_spec spec;
    collcalc_cluster_spec_init(&spec);
    if (code == 0)
        code = report_spec_from_args(ctx, &spec);
    collcalc_algo algos[COLLCALC_ALGO_COUNT];
    int algo_count = 0;
    if (code == 0)
        code = report_algos(ctx, query.op, algos, &algo_count);
    bool nccl = false;
    if (code == 0)
        code = nccl_view_wanted(ctx, &spec, query.op, &nccl);
    if (code == 0)
        code = report_resolve(ctx, &spec, &query.cluster, NULL);
    if (code == 0 && nccl_style && algo_count > 1)
        code = cli_usage_error(ctx, "--algo", "the nccl-tests layout shows one algorithm");
    nccl_setup *setup = NULL;
    if (code == 0 && nccl) {
        setup = malloc(sizeof *setup);
        code = setup == NULL ? cli_data_error(ctx, NULL, "out of memory")
                             : nccl_view_setup(ctx, &spec, &query.cluster, setup);
    }
    collcalc_nccl_tests_row *rows = NULL;
    sweep_point *points = NULL;
    if (code == 0) {
        rows = calloc((size_t)size_count, sizeof *rows);
        points = calloc((size_t)size_count, sizeof *points);
        if (rows == NULL || points == NULL)
            code = cli_data_error(ctx, NULL, "out of memory");
    }
    if (code != 0) {
        free(setup);
        free(rows);
        free(points);
        return code;
    }
    query.tree_efficiency = spec.tree_efficiency;

    /* Two passes: the first finds what each size runs (the header names
     * the algorithms), the second records the rows below that header. */
    for (int i = 0; i < size_count && code == 0; i++) {
        collcalc_diag diag;
        if (collcalc_nccl_tests_row_for(query.op, sizes[i], query.cluster.gpus, 0, "float",
                                        &rows[i], &diag) != COLLCALC_OK) {
            code = cli_usage_error(ctx, NULL, "%s", diag.message);
            break;
        }
        /* Predict what nccl-tests measures: the size it actually moves. */
        query.size_bytes = rows[i].size_bytes;
        code = predict_row(ctx, &query, setup, algos, algo_count, NULL, spec.basis, &points[i]);
        rows[i].out_of_place = collcalc_nccl_tests_measure(query.op, query.cluster.gpus,
                                                           rows[i].size_bytes, points[i].time_us,
                                                           COLLCALC_NCCL_TESTS_WRONG_NA);
        rows[i].in_place = rows[i].out_of_place;
    }
    if (code != 0) {
        free(setup);
        free(rows);
        free(points);
        return code;
    }
    char algo_text[512], model_text[160];
    if (algo_count > 0) {
        size_t used = (size_t)snprintf(algo_text, sizeof algo_text, "%s", "as named:");
        for (int k = 0; k < algo_count && used < sizeof algo_text; k++)
            used += (size_t)snprintf(algo_text + used, sizeof algo_text - used, " %s",
                                     collcalc_algo_name(algos[k]));
    } else {
        char runs[400];
        describe_runs(points, sizes, size_count, runs, sizeof runs);
        snprintf(algo_text, sizeof algo_text, "%s: %s",
                 nccl ? "NCCL's choice at each size" : "the fastest NCCL runs at each size", runs);
    }
    if (nccl)
        snprintf(model_text, sizeof model_text, "NCCL %s tuner on %s%s", setup->constants->version,
                 setup->platform->name,
                 setup->options.corrections ? " with collcalc's corrections" : " (faithful)");
    else
        snprintf(model_text, sizeof model_text, "alpha-beta model, %s",
                 report_basis_phrase(spec.basis));

    document *doc = doc_new(ctx->name);
    report_query(doc, &query, spec.basis, 1, 1, false);
    doc_query_text(doc, "model", nccl ? "nccl" : "alpha-beta");
    if (nccl_style) {
        nccl_tests_header(doc, &query, model_text, algo_text, sizes[0], sizes[size_count - 1]);
    } else {
        char cluster[256];
        report_describe_cluster(&query.cluster, cluster, sizeof cluster);
        doc_text(doc, "%s sweep on %s; %s", collcalc_op_title(query.op), cluster, model_text);
        doc_text(doc, "algorithm: %s", algo_text);
    }
    record_set *set = doc_records(doc, nccl ? &SWEEP_NCCL_SCHEMA : &SWEEP_SCHEMA);
    if (nccl_style)
        records_machine_only(set);
    for (int i = 0; i < size_count && code == 0; i++) {
        size_t before = record_count(set);
        query.size_bytes = rows[i].size_bytes;
        sweep_point again;
        code = predict_row(ctx, &query, setup, algos, algo_count, set, spec.basis, &again);
        /* nccl-tests' own columns on every row of this size */
        for (size_t k = before; code == 0 && k < record_count(set); k++) {
            record_select(set, k);
            record_int(set, "size_bytes", (long long)rows[i].size_bytes);
            record_int(set, "size", (long long)rows[i].size_bytes);
            record_int(set, "count", (long long)rows[i].count);
            record_text(set, "type", rows[i].type);
            record_text(set, "redop", rows[i].redop);
            record_int(set, "root", rows[i].root);
        }
        if (nccl_style) {
            char line[COLLCALC_NCCL_TESTS_LINE_MAX];
            doc_text(doc, "%s",
                     collcalc_nccl_tests_format_row(line, sizeof line,
                                                    COLLCALC_NCCL_TESTS_STYLE_CURRENT, &rows[i]));
        }
    }
    if (code == 0 && nccl_style) {
        char line[COLLCALC_NCCL_TESTS_LINE_MAX];
        doc_text(doc, "%s", collcalc_nccl_tests_format_footer_errors(line, sizeof line, 0));
        doc_text(doc, "%s",
                 collcalc_nccl_tests_format_footer_avg_busbw(
                     line, sizeof line,
                     collcalc_nccl_tests_average_busbw(rows, (size_t)size_count)));
        doc_text(doc, "#");
    }
    if (code == 0 && chart_wanted(&charts))
        code = chart_finish(ctx, &charts, doc,
                            sweep_chart(&query, points, sizes, size_count,
                                        nccl            ? "NCCL's choice (predicted)"
                                        : algo_count > 0 ? points[0].algorithm
                                                         : "fastest NCCL runs (alpha-beta)"));
    free(setup);
    free(rows);
    free(points);
    if (code != 0) {
        doc_free(doc);
        return code;
    }
    return cli_emit(ctx, doc);
}
