/* compare's documents: algorithms side by side with the sizes where the
 * fastest changes, NCCL's candidates with its switch points, and the sides
 * of a comparison (links, placements) with their ratios (compare_doc.h). */
#include "compare_doc.h"

#include <stdlib.h>
#include <string.h>

#include "collcalc/units.h"
#include "human.h"
#include "report.h"

static const record_column ALGO_COLUMNS[] = {
    {"size_bytes", "size", FIELD_BYTES, COLUMN_BOTH, NULL},
    RESULT_COLUMNS,
    {"time_ratio", "vs best", FIELD_RATIO, COLUMN_BOTH, NULL},
    {"total", "total", FIELD_TIME_US, COLUMN_TABLE, NULL},
};
static const record_schema ALGO_SCHEMA = {"results", sizeof ALGO_COLUMNS / sizeof ALGO_COLUMNS[0],
                                          ALGO_COLUMNS};

static const record_column CROSSOVER_COLUMNS[] = {
    {"faster_below", "faster below", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"faster_from", "faster from", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"size_bytes", "size", FIELD_INT, COLUMN_MACHINE, NULL},
};
static const record_schema CROSSOVER_SCHEMA = {"crossovers", 3, CROSSOVER_COLUMNS};

static const record_column CONFIG_COLUMNS[] = {
    {"size_bytes", "size", FIELD_BYTES, COLUMN_BOTH, NULL},
    {"configuration", "configuration", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"cluster", "cluster", FIELD_TEXT, COLUMN_MACHINE, NULL},
    RESULT_COLUMNS,
    {"time_ratio", "vs first", FIELD_RATIO, COLUMN_BOTH, NULL},
    {"bandwidth_ratio", "bandwidth vs first", FIELD_RATIO, COLUMN_MACHINE, NULL},
    {"total", "total", FIELD_TIME_US, COLUMN_TABLE, NULL},
};
static const record_schema CONFIG_SCHEMA = {"results",
                                            sizeof CONFIG_COLUMNS / sizeof CONFIG_COLUMNS[0],
                                            CONFIG_COLUMNS};

/* Hides the columns a comparison does not need from its table. */
static void trim_table(record_set *set, bool repeated)
{
    records_hide_column(set, "algbw_GBps");
    records_hide_column(set, "bytes_received_per_gpu");
    if (!repeated)
        records_hide_column(set, "total");
}

static double safe_ratio(double a, double b)
{
    return b > 0 ? a / b : (a > 0 ? 0.0 : 1.0);
}

/* ---- algorithms ------------------------------------------------------------- */

/* Time against size, one series per algorithm, crossovers marked. */
static plot_chart *algorithms_chart(const collcalc_prepared *prepared, const collcalc_algo *algos,
                                    int algo_count, const uint64_t *sizes, int size_count,
                                    const collcalc_crossover *found, int found_count)
{
    const collcalc_query *query = &prepared->query;
    char title[160];
    snprintf(title, sizeof title, "%s on %d GPUs: time by message size (alpha-beta)",
             collcalc_op_title(query->op), query->cluster.gpus);
    plot_chart *chart = plot_new(title);
    plot_set_x_axis(chart, "message size (bytes)", PLOT_UNIT_BYTES);
    plot_set_y_axis(chart, "time (us)", PLOT_UNIT_TIME_US);
    for (int a = 0; a < algo_count; a++) {
        int series = plot_add_series(chart, collcalc_algo_name(algos[a]), PLOT_LINE);
        for (int s = 0; s < size_count; s++) {
            collcalc_result r;
            if (collcalc_evaluate_algorithm(prepared, algos[a], sizes[s], &r, NULL) ==
                COLLCALC_OK)
                plot_add_point(chart, series, (double)sizes[s], r.time_us);
        }
    }
    for (int i = 0; i < found_count; i++) {
        char label[64];
        snprintf(label, sizeof label, "%s -> %s", collcalc_algo_name(algos[found[i].from]),
                 collcalc_algo_name(algos[found[i].to]));
        plot_add_vmarker(chart, (double)found[i].size_bytes, label);
    }
    return chart;
}

collcalc_status compare_doc_algorithms(document *doc, const collcalc_prepared *prepared,
                                       const uint64_t *sizes, int size_count, bool with_chart,
                                       plot_chart **out_chart, collcalc_diag *diag)
{
    collcalc_query query = prepared->query;
    collcalc_bw_basis basis = prepared->basis;
    long layers = prepared->layers, per_layer = prepared->per_layer;
    collcalc_algo algos[COLLCALC_ALGO_COUNT];
    int algo_count = 0;
    if (prepared->algo_count > 0) {
        for (size_t i = 0; i < prepared->algo_count; i++)
            algos[algo_count++] = prepared->algos[i];
    } else {
        /* Every contender; the counter-examples only on request. */
        collcalc_algo all[COLLCALC_ALGO_COUNT];
        size_t n = collcalc_algos_for_op(query.op, all, COLLCALC_ALGO_COUNT);
        for (size_t a = 0; a < n; a++)
            if (collcalc_algo_may_be_fastest(query.op, all[a]) &&
                collcalc_algo_applies(query.op, all[a], &query.cluster, NULL))
                algos[algo_count++] = all[a];
    }
    if (algo_count == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_UNSUPPORTED, "no algorithm applies");
    report_query(doc, &query, basis, layers, per_layer, false);
    doc_query_text(doc, "mode", "algorithms");
    doc_query_text(doc, "time_ratio_to", "fastest");
    char cluster[256];
    report_describe_cluster(&query.cluster, cluster, sizeof cluster);
    doc_text(doc, "%s on %s; %s", collcalc_op_title(query.op), cluster, report_basis_phrase(basis));
    doc_text(doc, "%s", "");
    record_set *set = doc_records(doc, &ALGO_SCHEMA);
    records_blank_repeats(set, "size_bytes");
    trim_table(set, layers * per_layer > 1);
    for (int s = 0; s < size_count; s++) {
        collcalc_result results[COLLCALC_ALGO_COUNT];
        query.size_bytes = sizes[s];
        for (int i = 0; i < algo_count; i++) {
            collcalc_status status =
                collcalc_evaluate_algorithm(prepared, algos[i], sizes[s], &results[i], diag);
            if (status != COLLCALC_OK)
                return status;
        }
        size_t best = collcalc_fastest_index(results, (size_t)algo_count);
        for (int i = 0; i < algo_count; i++) {
            report_result_row(set, &query, &results[i], basis, layers, per_layer,
                              (size_t)i == best);
            record_number(set, "time_ratio", safe_ratio(results[i].time_us, results[best].time_us));
            record_number(set, "total", results[i].time_us * (double)(layers * per_layer));
            if ((size_t)i == best && algo_count > 1)
                records_mark(set, record_count(set) - 1, "<- fastest");
        }
    }
    collcalc_crossover found[64];
    int found_count = algo_count > 1 ? (int)collcalc_crossovers(prepared, algos, (size_t)algo_count,
                                                                found, 64)
                                     : 0;
    record_set *cross = doc_records(doc, &CROSSOVER_SCHEMA);
    for (int i = 0; i < found_count; i++) {
        record_begin(cross);
        record_text(cross, "faster_below", collcalc_algo_name(algos[found[i].from]));
        record_text(cross, "faster_from", collcalc_algo_name(algos[found[i].to]));
        record_int(cross, "size_bytes", (long long)found[i].size_bytes);
    }
    if (algo_count > 1) {
        doc_text(doc, "%s", "");
        doc_text(doc, "Crossovers (1 B to 1 TiB):");
        if (found_count == 0) {
            int only = collcalc_fastest_at(prepared, algos, (size_t)algo_count, 1);
            doc_text(doc, "  none: %s is fastest at every size",
                     only >= 0 ? collcalc_algo_name(algos[only]) : "no algorithm");
        }
        for (int i = 0; i < found_count; i++) {
            char human[32], exact[40];
            collcalc_bytes_format_iec(human, sizeof human, (double)found[i].size_bytes);
            collcalc_u64_format_grouped(exact, sizeof exact, found[i].size_bytes);
            doc_text(doc, "  %s is faster below %s (%s bytes), %s from there up",
                     collcalc_algo_name(algos[found[i].from]), human, exact,
                     collcalc_algo_name(algos[found[i].to]));
        }
    }
    if (with_chart)
        *out_chart = algorithms_chart(prepared, algos, algo_count, sizes, size_count, found,
                                      found_count);
    return COLLCALC_OK;
}

/* ---- NCCL's tuner ---------------------------------------------------------------- */

static const record_column SWITCH_COLUMNS[] = {
    {"from_bytes", "from", FIELD_INT, COLUMN_MACHINE, NULL},
    {"to_bytes", "to", FIELD_INT, COLUMN_MACHINE, NULL},
    {"algorithm", "algorithm", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"protocol", "protocol", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"channels", "channels", FIELD_INT, COLUMN_MACHINE, NULL},
};
static const record_schema SWITCH_SCHEMA = {"switch_points", 5, SWITCH_COLUMNS};

enum { MAX_SWITCHES = 64, MAX_CONFIGS = COMPARE_SIDES_MAX };
#define SWITCH_MAX_BYTES (1ULL << 40) /* 1 TiB, as the alpha-beta crossovers */

/* Time against size: NCCL's choice, and the best protocol of each
 * algorithm that can run; NCCL's switch points marked. */
static plot_chart *nccl_chart(const collcalc_query *query, const collcalc_prepared *setup,
                              collcalc_nccl_func func, const uint64_t *sizes, int size_count,
                              const collcalc_nccl_choice_range *ranges, size_t range_count)
{
    char title[160];
    snprintf(title, sizeof title, "%s on %d GPUs of %s: time by message size (NCCL's tuner)",
             collcalc_op_title(query->op), query->cluster.gpus, setup->platform->name);
    plot_chart *chart = plot_new(title);
    plot_set_x_axis(chart, "message size (bytes)", PLOT_UNIT_BYTES);
    plot_set_y_axis(chart, "time (us)", PLOT_UNIT_TIME_US);
    int series[COLLCALC_NCCL_NUM_ALGOS];
    for (int a = 0; a < COLLCALC_NCCL_NUM_ALGOS; a++)
        series[a] = -1;
    for (int s = 0; s < size_count; s++) {
        collcalc_nccl_prediction p;
        if (collcalc_nccl_predict(&setup->system, setup->constants, &setup->options, func,
                                  sizes[s], &p, NULL) != COLLCALC_OK)
            continue;
        for (int a = 0; a < COLLCALC_NCCL_NUM_ALGOS; a++) {
            double best = 0.0;
            for (size_t i = 0; i < p.candidate_count; i++) {
                const collcalc_nccl_candidate *c = &p.candidates[i];
                if ((int)c->algo == a && c->unavailable == COLLCALC_NCCL_OK &&
                    (best == 0.0 || c->time_us < best))
                    best = c->time_us;
            }
            if (best <= 0.0)
                continue;
            if (series[a] < 0)
                series[a] = plot_add_series(chart, collcalc_nccl_algo_name((collcalc_nccl_algo)a),
                                            PLOT_LINE);
            plot_add_point(chart, series[a], (double)sizes[s], best);
        }
    }
    for (size_t i = 1; i < range_count; i++) {
        char label[64];
        snprintf(label, sizeof label, "%s/%s", collcalc_nccl_algo_name(ranges[i].algo),
                 collcalc_nccl_proto_name(ranges[i].proto));
        plot_add_vmarker(chart, (double)ranges[i].from_bytes, label);
    }
    return chart;
}

/* Every candidate NCCL's tuner weighs at each size (its choice marked),
 * then the sizes where its choice changes, to the byte. */
collcalc_status compare_doc_nccl(document *doc, const collcalc_prepared *setup,
                                 const uint64_t *sizes, int size_count, bool with_chart,
                                 plot_chart **out_chart, collcalc_diag *diag)
{
    const collcalc_query *query = &setup->query;
    collcalc_nccl_func func = setup->func;
    collcalc_nccl_choice_range ranges[MAX_SWITCHES];
    size_t range_count = 0;
    collcalc_status status = collcalc_nccl_switch_points(
        &setup->system, setup->constants, &setup->options, func, 1, SWITCH_MAX_BYTES, ranges,
        MAX_SWITCHES, &range_count, diag);
    if (status != COLLCALC_OK)
        return status;
    report_query(doc, query, setup->basis, 1, 1, false);
    doc_query_text(doc, "mode", "nccl-tuner");
    doc_query_text(doc, "model", "nccl");
    doc_query_text(doc, "platform", setup->platform->name);
    doc_query_text(doc, "nccl_version", setup->constants->version);
    char cluster[256];
    report_describe_cluster(&query->cluster, cluster, sizeof cluster);
    doc_text(doc, "%s on %s", collcalc_op_title(query->op), cluster);
    doc_text(doc, "NCCL %s tuner on %s%s: every candidate it weighs, its choice marked",
             setup->constants->version, setup->platform->name,
             setup->options.corrections ? "; times with collcalc's corrections" : " (faithful)");
    doc_text(doc, "%s", "");
    record_set *set = doc_records(doc, &NCCL_SCHEMA);
    records_blank_repeats(set, "size_bytes");
    for (int s = 0; s < size_count; s++) {
        collcalc_nccl_prediction p;
        status = collcalc_nccl_predict(&setup->system, setup->constants, &setup->options, func,
                                       sizes[s], &p, diag);
        if (status != COLLCALC_OK)
            return status;
        report_nccl_rows(set, &p, sizes[s], false);
    }
    record_set *switches = doc_records(doc, &SWITCH_SCHEMA);
    doc_text(doc, "%s", "");
    doc_text(doc, "NCCL's choice by size (1 B to 1 TiB):");
    for (size_t i = 0; i < range_count; i++) {
        const collcalc_nccl_choice_range *r = &ranges[i];
        record_begin(switches);
        record_int(switches, "from_bytes", (long long)r->from_bytes);
        record_int(switches, "to_bytes", (long long)r->to_bytes);
        record_text(switches, "algorithm", r->runs ? collcalc_nccl_algo_name(r->algo) : NULL);
        record_text(switches, "protocol", r->runs ? collcalc_nccl_proto_name(r->proto) : NULL);
        if (r->runs)
            record_int(switches, "channels", r->channels);
        char from[32], to[32], exact[40];
        collcalc_bytes_format_iec(from, sizeof from, (double)r->from_bytes);
        collcalc_bytes_format_iec(to, sizeof to, (double)r->to_bytes);
        collcalc_u64_format_grouped(exact, sizeof exact, r->from_bytes);
        char choice[64];
        if (r->runs)
            snprintf(choice, sizeof choice, "%s/%s", collcalc_nccl_algo_name(r->algo),
                     collcalc_nccl_proto_name(r->proto));
        else
            snprintf(choice, sizeof choice, "nothing can run");
        if (i == 0)
            doc_text(doc, "  %-16s up to %s", choice, to);
        else
            doc_text(doc, "  %-16s from %s (%s bytes)%s%s", choice, from, exact,
                     i + 1 < range_count ? " up to " : "", i + 1 < range_count ? to : "");
    }
    if (with_chart)
        *out_chart = nccl_chart(query, setup, func, sizes, size_count, ranges, range_count);
    return COLLCALC_OK;
}

/* ---- sides ------------------------------------------------------------------------ */

/* The phase that costs most, for the "why" line. */
static const collcalc_phase *costliest_phase(const collcalc_result *r)
{
    const collcalc_phase *worst = NULL;
    for (int i = 0; i < r->phase_count; i++)
        if (worst == NULL || r->phases[i].time_us > worst->time_us)
            worst = &r->phases[i];
    return worst;
}

static void ratio_lines(document *doc, const compare_side *configs, int config_count,
                        const collcalc_result *results, const char *size_text, long repeat)
{
    const collcalc_result *first = &results[0];
    for (int c = 1; c < config_count; c++) {
        const collcalc_result *r = &results[c];
        const collcalc_phase *worst = costliest_phase(r);
        char a[32], b[32], ra[32], rb[32];
        human_time_us(a, sizeof a, r->bandwidth_us);
        human_time_us(b, sizeof b, first->bandwidth_us);
        human_ratio(ra, sizeof ra, safe_ratio(r->time_us, first->time_us));
        human_ratio(rb, sizeof rb, safe_ratio(r->bandwidth_us, first->bandwidth_us));
        doc_text(doc, "%s vs %s at %s: %s the time (bandwidth term %s vs %s, %s)%s%s%s%s",
                 configs[c].label, configs[0].label, size_text, ra, a, b, rb,
                 worst != NULL ? "; costliest phase: " : "", worst != NULL ? worst->label : "",
                 worst != NULL ? " on " : "", worst != NULL ? worst->link : "");
        if (repeat > 1) {
            char c1[32], c2[32], d1[32], d2[32];
            human_time_us(c1, sizeof c1, first->bandwidth_us * (double)repeat);
            human_time_us(c2, sizeof c2, r->bandwidth_us * (double)repeat);
            human_time_us(d1, sizeof d1, first->time_us * (double)repeat);
            human_time_us(d2, sizeof d2, r->time_us * (double)repeat);
            doc_text(doc, "  x %ld: bandwidth terms %s vs %s; totals %s vs %s", repeat, c1, c2,
                     d1, d2);
        }
    }
}

collcalc_status compare_doc_sides(document *doc, const collcalc_request *request,
                                  const compare_side *configs, int config_count,
                                  const uint64_t *sizes, int size_count, collcalc_answer *answer,
                                  const char **out_field, collcalc_diag *diag)
{
    *out_field = NULL;
    if (request->algo_count > 1) {
        *out_field = "algos";
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "algos: name one algorithm to run on every side (or none: each "
                                  "side's fastest NCCL runs)");
    }
    const collcalc_prepared *first = &configs[0].prepared;
    long repeat = first->layers * first->per_layer;
    collcalc_query query = first->query;
    report_query(doc, &query, first->basis, first->layers, first->per_layer, false);
    doc_query_text(doc, "mode", "configurations");
    doc_query_text(doc, "time_ratio_to", "first");
    doc_query_text(doc, "algorithm_choice",
                   request->algo_count > 0 ? "named" : "fastest NCCL runs");
    doc_text(doc, "%s, %s; %s%s", collcalc_op_title(query.op), report_basis_phrase(first->basis),
             request->algo_count > 0 ? "every side runs "
                                     : "each side runs the fastest algorithm NCCL runs",
             request->algo_count > 0 ? collcalc_algo_name(request->algos[0]) : "");
    doc_text(doc, "%s", "");
    record_set *set = doc_records(doc, &CONFIG_SCHEMA);
    records_blank_repeats(set, "size_bytes");
    trim_table(set, repeat > 1);
    records_hide_column(set, "steps");
    collcalc_result *results = malloc((size_t)size_count * MAX_CONFIGS * sizeof *results);
    if (results == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");
    for (int s = 0; s < size_count; s++) {
        collcalc_result *row = &results[(size_t)s * MAX_CONFIGS];
        for (int c = 0; c < config_count; c++) {
            const collcalc_prepared *p = &configs[c].prepared;
            collcalc_status status = collcalc_evaluate(p, sizes[s], answer, diag);
            if (status != COLLCALC_OK) {
                free(results);
                /* NCCL's refusals are the question's (its forcing), the rest data */
                *out_field = p->model == COLLCALC_COST_MODEL_NCCL ? "" : NULL;
                return status;
            }
            report_side_result(p, answer, &row[c]);
            char cluster[256];
            report_describe_cluster(&p->query.cluster, cluster, sizeof cluster);
            report_side_row(set, p, answer);
            record_text(set, "configuration", configs[c].label);
            record_text(set, "cluster", cluster);
            record_number(set, "time_ratio", safe_ratio(row[c].time_us, row[0].time_us));
            record_number(set, "bandwidth_ratio",
                          safe_ratio(row[c].bandwidth_us, row[0].bandwidth_us));
            record_number(set, "total", row[c].time_us * (double)repeat);
        }
    }
    doc_text(doc, "%s", "");
    for (int s = 0; s < size_count; s++) {
        char size_text[32];
        human_bytes(size_text, sizeof size_text, (double)sizes[s]);
        ratio_lines(doc, configs, config_count, &results[(size_t)s * MAX_CONFIGS], size_text,
                    repeat);
    }
    free(results);
    return COLLCALC_OK;
}

