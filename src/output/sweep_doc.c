/* sweep's document: one collective over a range of sizes, a row per size
 * (NCCL's choice, or the alpha-beta model's named or fastest-NCCL-runs
 * algorithm), optionally in nccl-tests' own layout (sweep_doc.h). */
#include "sweep_doc.h"

#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_tests.h"
#include "collcalc/units.h"
#include "report.h"

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
    {"busbw_low_GBps", "busbw low", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"busbw_high_GBps", "busbw high", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"time_low_us", "time low", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"time_high_us", "time high", FIELD_TIME_US, COLUMN_MACHINE, NULL},
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
                 collcalc_nccl_tests_header_line_format(line, sizeof line,
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
        collcalc_bytes_format_iec(from, sizeof from, (double)sizes[start]);
        collcalc_bytes_format_iec(to, sizeof to, (double)sizes[i - 1]);
        used += (size_t)snprintf(text + used, size - used, "%s%s%s%s %s..%s", start ? ", " : "",
                                 points[start].algorithm, points[start].protocol ? "/" : "",
                                 points[start].protocol ? points[start].protocol : "", from, to);
        start = i;
    }
}

/* The row's prediction (the answer at query->size_bytes): NCCL's choice,
 * or the alpha-beta model's named or fastest-NCCL-runs algorithm(s).
 * Alpha-beta rows may be several (one per --algo). set NULL: the point
 * only. Returns 0 or an exit code. */
static collcalc_status predict_row(const collcalc_prepared *prepared, uint64_t size_bytes,
                                   collcalc_answer *answer, record_set *set, sweep_point *point,
                                   collcalc_diag *diag)
{
    collcalc_status status = collcalc_evaluate(prepared, size_bytes, answer, diag);
    if (status != COLLCALC_OK)
        return status;
    *point = (sweep_point){collcalc_answer_algorithm(prepared, answer),
                           collcalc_answer_protocol(prepared, answer), answer->time_us,
                           answer->busbw_GBps};
    if (set == NULL)
        return 0;
    if (prepared->model == COLLCALC_COST_MODEL_NCCL) {
        const collcalc_nccl_candidate *c = collcalc_nccl_selected(&answer->prediction);
        record_begin(set);
        record_text(set, "model", "nccl");
        if (c != NULL) {
            record_text(set, "algorithm", collcalc_nccl_algo_name(c->algo));
            record_text(set, "protocol", collcalc_nccl_proto_name(c->proto));
            report_nccl_figures(set, c);
            report_nccl_band(set, &answer->prediction, c);
        }
        return COLLCALC_OK;
    }
    size_t first = prepared->algo_count > 0 ? 0 : (size_t)answer->headline;
    size_t last = prepared->algo_count > 0 ? answer->count : first + 1;
    for (size_t k = first; k < last; k++)
        report_result_row(set, &answer->query, &answer->results[k], prepared->basis, 1, 1,
                          k == answer->fastest);
    return COLLCALC_OK;
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

collcalc_status sweep_doc(document *doc, const collcalc_prepared *setup, const uint64_t *sizes,
                          int size_count, bool nccl_style, bool with_chart,
                          plot_chart **out_chart, bool *out_nccl_refused, collcalc_diag *diag)
{
    *out_nccl_refused = false;
    size_t algo_count = setup->algo_count;
    bool nccl = setup->model == COLLCALC_COST_MODEL_NCCL;
    collcalc_query query = setup->query;
    collcalc_answer *answer = malloc(sizeof *answer);
    collcalc_nccl_tests_row *rows = calloc((size_t)size_count, sizeof *rows);
    sweep_point *points = calloc((size_t)size_count, sizeof *points);
    collcalc_status status = COLLCALC_OK;
    if (answer == NULL || rows == NULL || points == NULL)
        status = collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");

    /* Two passes: the first finds what each size runs (the header names
     * the algorithms), the second records the rows below that header. */
    for (int i = 0; i < size_count && status == COLLCALC_OK; i++) {
        status = collcalc_nccl_tests_row_for(query.op, sizes[i], query.cluster.gpus, 0, "float",
                                             &rows[i], diag);
        if (status != COLLCALC_OK) {
            *out_nccl_refused = true;
            break;
        }
        /* Predict what nccl-tests measures: the size it actually moves. */
        query.size_bytes = rows[i].size_bytes;
        status = predict_row(setup, query.size_bytes, answer, NULL, &points[i], diag);
        *out_nccl_refused = nccl;
        rows[i].out_of_place = collcalc_nccl_tests_measure(query.op, query.cluster.gpus,
                                                           rows[i].size_bytes, points[i].time_us,
                                                           COLLCALC_NCCL_TESTS_WRONG_NA);
        rows[i].in_place = rows[i].out_of_place;
    }
    if (status != COLLCALC_OK) {
        free(answer);
        free(rows);
        free(points);
        return status;
    }
    *out_nccl_refused = false;
    char algo_text[512], model_text[160];
    if (algo_count > 0) {
        size_t used = (size_t)snprintf(algo_text, sizeof algo_text, "%s", "as named:");
        for (size_t k = 0; k < algo_count && used < sizeof algo_text; k++)
            used += (size_t)snprintf(algo_text + used, sizeof algo_text - used, " %s",
                                     collcalc_algo_name(setup->algos[k]));
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
                 report_basis_phrase(setup->basis));

    report_query(doc, &query, setup->basis, 1, 1, false);
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
    for (int i = 0; i < size_count && status == COLLCALC_OK; i++) {
        size_t before = record_count(set);
        query.size_bytes = rows[i].size_bytes;
        sweep_point again;
        status = predict_row(setup, query.size_bytes, answer, set, &again, diag);
        *out_nccl_refused = nccl && status != COLLCALC_OK;
        /* nccl-tests' own columns on every row of this size */
        for (size_t k = before; status == COLLCALC_OK && k < record_count(set); k++) {
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
                     collcalc_nccl_tests_row_format(line, sizeof line,
                                                    COLLCALC_NCCL_TESTS_STYLE_CURRENT, &rows[i]));
        }
    }
    if (status == COLLCALC_OK && nccl_style) {
        char line[COLLCALC_NCCL_TESTS_LINE_MAX];
        doc_text(doc, "%s", collcalc_nccl_tests_footer_errors_format(line, sizeof line, 0));
        doc_text(doc, "%s",
                 collcalc_nccl_tests_footer_avg_busbw_format(
                     line, sizeof line,
                     collcalc_nccl_tests_average_busbw(rows, (size_t)size_count)));
        doc_text(doc, "#");
    }
    if (status == COLLCALC_OK && with_chart)
        *out_chart = sweep_chart(&query, points, sizes, size_count,
                                 nccl             ? "NCCL's choice (predicted)"
                                 : algo_count > 0 ? points[0].algorithm
                                                  : "fastest NCCL runs (alpha-beta)");
    free(answer);
    free(rows);
    free(points);
    return status;
}
