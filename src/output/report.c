/* The answer as records: result and phase columns, NCCL's candidates,
 * header lines and explanations (report.h). */
#include "report.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/units.h"
#include "human.h"

/* The phase columns, in their order (phase_value reads them by these). */
enum {
    PHASE_LABEL = 0,
    PHASE_LINK,
    PHASE_SCOPE,
    PHASE_STAGE,
    PHASE_STEPS,
    PHASE_ALPHA_US,
    PHASE_BYTES_SENT,
    PHASE_BYTES_RECEIVED,
    PHASE_BW_GBPS,
    PHASE_EFFICIENCY,
    PHASE_LATENCY_US,
    PHASE_BANDWIDTH_US,
    PHASE_TIME_US,
    PHASE_NOTE,
    PHASE_FIELD_COUNT
};
static const record_column PHASE_COLUMNS[PHASE_FIELD_COUNT] = {
    [PHASE_LABEL] = {"label", "phase", FIELD_TEXT, COLUMN_MACHINE, NULL},
    [PHASE_LINK] = {"link", "link", FIELD_TEXT, COLUMN_MACHINE, NULL},
    [PHASE_SCOPE] = {"scope", "scope", FIELD_TEXT, COLUMN_MACHINE, NULL},
    [PHASE_STAGE] = {"stage", "stage", FIELD_INT, COLUMN_MACHINE, NULL},
    [PHASE_STEPS] = {"steps", "steps", FIELD_INT, COLUMN_MACHINE, NULL},
    [PHASE_ALPHA_US] = {"alpha_us", "alpha", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    [PHASE_BYTES_SENT] = {"bytes_sent", "sent", FIELD_BYTES, COLUMN_MACHINE, NULL},
    [PHASE_BYTES_RECEIVED] = {"bytes_received", "received", FIELD_BYTES, COLUMN_MACHINE, NULL},
    [PHASE_BW_GBPS] = {"bw_GBps", "bandwidth", FIELD_GBPS, COLUMN_MACHINE, NULL},
    [PHASE_EFFICIENCY] = {"efficiency", "efficiency", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    [PHASE_LATENCY_US] = {"latency_us", "latency", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    [PHASE_BANDWIDTH_US] = {"bandwidth_us", "bandwidth term", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    [PHASE_TIME_US] = {"time_us", "time", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    [PHASE_NOTE] = {"note", "note", FIELD_TEXT, COLUMN_MACHINE, NULL},
};
const record_schema PHASE_SCHEMA = {"phases", sizeof PHASE_COLUMNS / sizeof PHASE_COLUMNS[0],
                                    PHASE_COLUMNS};

static const record_column RESULT_COLUMN_LIST[] = {
    {"size_bytes", "size", FIELD_INT, COLUMN_MACHINE, NULL}, RESULT_COLUMNS};
const record_schema RESULT_SCHEMA = {"results",
                                     sizeof RESULT_COLUMN_LIST / sizeof RESULT_COLUMN_LIST[0],
                                     RESULT_COLUMN_LIST};

/* ---- words ---------------------------------------------------------------- */

const char *report_basis_phrase(collcalc_bw_basis basis)
{
    return basis == COLLCALC_BW_HEADLINE
               ? "headline bandwidth (as vendors quote it: NVLink counts both directions)"
               : "per-direction bandwidth";
}

void report_describe_cluster(const collcalc_cluster *cluster, char *buffer, size_t size)
{
    int nodes = collcalc_cluster_nodes(cluster);
    if (nodes <= 1) {
        snprintf(buffer, size, "%d GPU%s over %s", cluster->gpus, cluster->gpus == 1 ? "" : "s",
                 cluster->intra.name);
        return;
    }
    int last = cluster->gpus - (nodes - 1) * cluster->gpus_per_node;
    char partial[64] = "";
    if (last != cluster->gpus_per_node)
        snprintf(partial, sizeof partial, ", last node holds %d", last);
    if (cluster->gpus_per_node == 1)
        snprintf(buffer, size, "%d GPUs, one per node, %d x %s NIC%s per node", cluster->gpus,
                 cluster->nics_per_node, cluster->inter.name,
                 cluster->nics_per_node == 1 ? "" : "s");
    else
        snprintf(buffer, size, "%d GPUs = %d nodes x %d (%s inside, %d x %s NIC%s per node%s)",
                 cluster->gpus, nodes, cluster->gpus_per_node, cluster->intra.name,
                 cluster->nics_per_node, cluster->inter.name,
                 cluster->nics_per_node == 1 ? "" : "s", partial);
}

void report_query(document *doc, const collcalc_query *query, collcalc_bw_basis basis,
                  long layers, long per_layer, bool with_size)
{
    const collcalc_cluster *c = &query->cluster;
    doc_query_text(doc, "op", collcalc_op_name(query->op));
    /* The integer itself: a double would round sizes above 2^53. */
    if (with_size && query->size_bytes <= (uint64_t)LLONG_MAX)
        doc_query_int(doc, "size_bytes", (long long)query->size_bytes);
    else if (with_size)
        doc_query_number(doc, "size_bytes", FIELD_BYTES, (double)query->size_bytes);
    doc_query_int(doc, "gpus", c->gpus);
    int nodes = collcalc_cluster_nodes(c);
    if (c->gpus_per_node >= c->gpus) {
        doc_query_text(doc, "link", c->intra.name);
        doc_query_number(doc, "link_bw_GBps", FIELD_GBPS, c->intra.bw_GBps);
        doc_query_number(doc, "link_alpha_us", FIELD_TIME_US, c->intra.alpha_us);
    } else {
        doc_query_null(doc, "link");
        doc_query_int(doc, "gpus_per_node", c->gpus_per_node);
        doc_query_int(doc, "nodes", nodes);
        doc_query_int(doc, "nics_per_node", c->nics_per_node);
        doc_query_int(doc, "nics_per_gpu", c->nics_per_gpu > 0 ? c->nics_per_gpu : 1);
        doc_query_text(doc, "intra_link", c->intra.name);
        doc_query_number(doc, "intra_bw_GBps", FIELD_GBPS, c->intra.bw_GBps);
        doc_query_number(doc, "intra_alpha_us", FIELD_TIME_US, c->intra.alpha_us);
        doc_query_text(doc, "inter_link", c->inter.name);
        doc_query_number(doc, "inter_bw_GBps", FIELD_GBPS, c->inter.bw_GBps);
        doc_query_number(doc, "inter_alpha_us", FIELD_TIME_US, c->inter.alpha_us);
    }
    doc_query_bool(doc, "nvls", c->nvls_intra);
    doc_query_bool(doc, "sharp", c->sharp_inter);
    doc_query_text(doc, "bw_basis", collcalc_bw_basis_name(basis));
    doc_query_int(doc, "layers", layers);
    doc_query_int(doc, "per_layer", per_layer);
}

/* ---- results ------------------------------------------------------------------ */

/* The value of result column `field` (RESULT_SCHEMA's order; not the
 * phases, a nested list). Text points at static strings or at buffer.
 * The one definition of what each result column holds: the records of
 * report_result_row and the rows of report_result_write both read it. */
static record_value result_value(result_view *v, result_field field, char *buffer,
                                 size_t buffer_size)
{
    const collcalc_result *r = v->result;
    record_value value = {.present = true};
    if (field >= RESULT_TOTAL_LATENCY_US && field <= RESULT_TOTAL_TIME_US) {
        if (v->totals_known < 0)
            v->totals_known = collcalc_repeat_totals(r, v->layers, v->per_layer, &v->totals,
                                                     NULL) == COLLCALC_OK;
        value.present = v->totals_known == 1;
    }
    switch (value.present ? field : RESULT_FIELD_COUNT) {
    case RESULT_SIZE_BYTES: value.as.integer = (long long)r->size_bytes; break;
    case RESULT_OP: value.as.text = collcalc_op_name(r->op); break;
    case RESULT_ALGORITHM: value.as.text = collcalc_algo_name(r->algo); break;
    case RESULT_FASTEST: value.as.flag = v->fastest; break;
    case RESULT_IN_NCCL: value.as.flag = collcalc_algo_in_nccl(r->op, r->algo); break;
    case RESULT_GPUS: value.as.integer = r->gpus; break;
    case RESULT_NODES: value.as.integer = r->nodes; break;
    case RESULT_BW_BASIS: value.as.text = collcalc_bw_basis_name(v->basis); break;
    case RESULT_STEPS: value.as.integer = r->steps; break;
    case RESULT_BYTES_SENT_PER_GPU: value.as.number = r->bytes_sent_per_gpu; break;
    case RESULT_BYTES_RECEIVED_PER_GPU: value.as.number = r->bytes_received_per_gpu; break;
    case RESULT_OTHERS_DIFFER: value.as.flag = r->others_differ; break;
    case RESULT_BYTES_SENT_OTHER_GPU: value.as.number = r->bytes_sent_other_gpu; break;
    case RESULT_BYTES_RECEIVED_OTHER_GPU: value.as.number = r->bytes_received_other_gpu; break;
    case RESULT_LATENCY_US: value.as.number = r->latency_us; break;
    case RESULT_BANDWIDTH_US: value.as.number = r->bandwidth_us; break;
    case RESULT_TIME_US: value.as.number = r->time_us; break;
    case RESULT_ALGBW_GBPS: value.as.number = r->algbw_GBps; break;
    case RESULT_BUSBW_FACTOR: value.as.number = r->busbw_factor; break;
    case RESULT_BUSBW_GBPS: value.as.number = r->busbw_GBps; break;
    case RESULT_DOMINANT: value.as.text = collcalc_dominant_name(r->dominant); break;
    case RESULT_LAYERS: value.as.integer = v->layers; break;
    case RESULT_PER_LAYER: value.as.integer = v->per_layer; break;
    case RESULT_TOTAL_LATENCY_US: value.as.number = v->totals.total_latency_us; break;
    case RESULT_TOTAL_BANDWIDTH_US: value.as.number = v->totals.total_bandwidth_us; break;
    case RESULT_TOTAL_TIME_US: value.as.number = v->totals.total_time_us; break;
    case RESULT_NOTE:
        collcalc_result_explain(v->query, r, buffer, buffer_size);
        value.as.text = buffer;
        break;
    default: value.present = false; break;
    }
    return value;
}

/* The value of column `field` of the result's phase i: as result_value,
 * for PHASE_SCHEMA. */
static record_value phase_value(const result_view *v, int i, int field, char *buffer,
                                size_t buffer_size)
{
    const collcalc_phase *ph = &v->result->phases[i];
    record_value value = {.present = true};
    switch (field) {
    case PHASE_LABEL: value.as.text = ph->label; break;
    case PHASE_LINK: value.as.text = ph->link; break;
    case PHASE_SCOPE: value.as.text = collcalc_scope_name(ph->scope); break;
    case PHASE_STAGE: value.as.integer = ph->stage; break;
    case PHASE_STEPS: value.as.integer = ph->steps; break;
    case PHASE_ALPHA_US: value.as.number = ph->alpha_us; break;
    case PHASE_BYTES_SENT: value.as.number = ph->bytes_sent; break;
    case PHASE_BYTES_RECEIVED: value.as.number = ph->bytes_received; break;
    case PHASE_BW_GBPS: value.as.number = ph->bw_GBps; break;
    case PHASE_EFFICIENCY: value.as.number = ph->efficiency; break;
    case PHASE_LATENCY_US: value.as.number = ph->latency_us; break;
    case PHASE_BANDWIDTH_US: value.as.number = ph->bandwidth_us; break;
    case PHASE_TIME_US: value.as.number = ph->time_us; break;
    case PHASE_NOTE:
        collcalc_phase_explain(v->query, v->result, i, buffer, buffer_size);
        value.as.text = buffer;
        break;
    default: value.present = false; break;
    }
    return value;
}

/* Sets a value read for column (of the schema it was read against) on the
 * set's current row: the setters convert to the kind the set's own schema
 * gives the column. */
static void record_value_as(record_set *set, const record_column *column,
                            const record_value *value)
{
    if (!value->present)
        return;
    switch (column->kind) {
    case FIELD_TEXT: record_text(set, column->name, value->as.text); break;
    case FIELD_BOOL: record_bool(set, column->name, value->as.flag); break;
    case FIELD_INT: record_int(set, column->name, value->as.integer); break;
    default: record_number(set, column->name, value->as.number); break;
    }
}

void report_result_view(result_view *view, const collcalc_query *query, const collcalc_result *r,
                        collcalc_bw_basis basis, long layers, long per_layer, bool fastest)
{
    view->query = query;
    view->result = r;
    view->basis = basis;
    view->layers = layers;
    view->per_layer = per_layer;
    view->fastest = fastest;
    view->totals_known = -1;
}

void report_result_row(record_set *set, const collcalc_query *query, const collcalc_result *r,
                       collcalc_bw_basis basis, long layers, long per_layer, bool fastest)
{
    result_view view;
    report_result_view(&view, query, r, basis, layers, per_layer, fastest);
    char text[COLLCALC_EXPLAIN_MAX];
    record_begin(set);
    for (int field = 0; field < RESULT_PHASES; field++) {
        const char *column = RESULT_SCHEMA.columns[field].name;
        /* The explanation is text to compose: only when it is printed. */
        if (field == RESULT_NOTE && !record_wants(set, column))
            continue;
        record_value value = result_value(&view, (result_field)field, text, sizeof text);
        record_value_as(set, &RESULT_SCHEMA.columns[field], &value);
    }
    if (!record_wants(set, "phases"))
        return;
    record_set *phases = record_nested(set, &PHASE_SCHEMA);
    for (int i = 0; i < r->phase_count; i++) {
        record_begin(phases);
        for (int field = 0; field < PHASE_FIELD_COUNT; field++) {
            record_value value = phase_value(&view, i, field, text, sizeof text);
            record_value_as(phases, &PHASE_COLUMNS[field], &value);
        }
    }
    record_set_records(set, "phases", phases);
}

void report_result_write(row_buffer *out, output_format format, const column_selection *selection,
                         result_view *view, const char *lead, long long lead_value)
{
    char text[COLLCALC_EXPLAIN_MAX];
    rows_begin(out, format, lead, lead_value);
    for (size_t k = 0; k < selection->count; k++) {
        result_field field = (result_field)selection->column[k];
        if (field != RESULT_PHASES) {
            record_value value = result_value(view, field, text, sizeof text);
            rows_field(out, format, &RESULT_SCHEMA.columns[field], &value);
            continue;
        }
        size_t phases = (size_t)view->result->phase_count;
        rows_list_begin(out, format, &RESULT_SCHEMA.columns[field], phases);
        for (int i = 0; i < view->result->phase_count; i++) {
            rows_list_item_begin(out, i == 0);
            for (int column = 0; column < PHASE_FIELD_COUNT; column++) {
                record_value value = phase_value(view, i, column, text, sizeof text);
                rows_list_field(out, format, &PHASE_COLUMNS[column], &value, column == 0);
            }
            rows_list_item_end(out);
        }
        rows_list_end(out, format, phases);
    }
    rows_end(out, format);
}

void report_result_rows(const collcalc_query *query, collcalc_bw_basis basis, long layers,
                        long per_layer, const collcalc_result *results, size_t count,
                        size_t fastest, row_buffer *out, output_format format,
                        const column_selection *selection, const char *lead,
                        long long lead_value)
{
    for (size_t i = 0; i < count; i++) {
        result_view view;
        report_result_view(&view, query, &results[i], basis, layers, per_layer, i == fastest);
        report_result_write(out, format, selection, &view, lead, lead_value);
    }
}

void report_header(document *doc, const collcalc_query *query, collcalc_bw_basis basis)
{
    char size_si[32], size_exact[40], cluster[256], bw[32], bw2[32], a1[32], a2[32];
    report_describe_cluster(&query->cluster, cluster, sizeof cluster);
    human_bytes(size_si, sizeof size_si, (double)query->size_bytes);
    collcalc_u64_format_grouped(size_exact, sizeof size_exact, query->size_bytes);
    doc_text(doc, "%s of %s (%s bytes) on %s", collcalc_op_title(query->op), size_si, size_exact,
             cluster);
    const collcalc_cluster *c = &query->cluster;
    human_bandwidth_GBps(bw, sizeof bw, c->intra.bw_GBps);
    human_time_us(a1, sizeof a1, c->intra.alpha_us);
    if (collcalc_cluster_nodes(c) <= 1) {
        doc_text(doc, "link %s: %s, alpha %s per step; %s", c->intra.name, bw, a1,
                 report_basis_phrase(basis));
        return;
    }
    human_bandwidth_GBps(bw2, sizeof bw2, c->inter.bw_GBps);
    human_time_us(a2, sizeof a2, c->inter.alpha_us);
    doc_text(doc, "intra %s: %s, alpha %s; inter %s: %s per NIC, alpha %s; %s", c->intra.name, bw,
             a1, c->inter.name, bw2, a2, report_basis_phrase(basis));
}

void report_explain(document *doc, const collcalc_query *query, const collcalc_result *r)
{
    char a[32], b[32], c[32], d[32], e[32], text[COLLCALC_EXPLAIN_MAX];
    doc_text(doc, "%s", "");
    doc_text(doc, "%s %s:", collcalc_algo_name(r->algo), collcalc_op_title(r->op));
    for (int i = 0; i < r->phase_count; i++) {
        const collcalc_phase *ph = &r->phases[i];
        bool concurrent = i > 0 && r->phases[i - 1].stage == ph->stage;
        doc_text(doc, "  %d. %s on %s%s", i + 1, ph->label, ph->link,
                 concurrent ? " (at the same time as the previous phase; the slower counts)" : "");
        human_time_us(e, sizeof e, ph->alpha_us);
        human_time_us(a, sizeof a, ph->latency_us);
        doc_text(doc, "     latency:   %ld step%s x %s = %s", ph->steps, ph->steps == 1 ? "" : "s",
                 e, a);
        human_bytes(b, sizeof b, ph->bytes_sent);
        human_bytes(c, sizeof c, ph->bytes_received);
        human_bandwidth_GBps(d, sizeof d, ph->bw_GBps);
        human_time_us(e, sizeof e, ph->bandwidth_us);
        doc_text(doc, "     bandwidth: max(%s out, %s in) / %s = %s", b, c, d, e);
        if (collcalc_phase_explain(query, r, i, text, sizeof text) > 0)
            doc_text(doc, "     (%s)", text);
    }
    if (r->phase_count == 0)
        doc_text(doc, "  no phases: nothing to move");
    double share = r->time_us > 0 ? 100.0 * (r->dominant == COLLCALC_DOMINANT_LATENCY
                                                 ? r->latency_us
                                                 : r->bandwidth_us) / r->time_us
                                  : 0.0;
    human_time_us(a, sizeof a, r->latency_us);
    human_time_us(b, sizeof b, r->bandwidth_us);
    human_time_us(c, sizeof c, r->time_us);
    if (r->dominant != COLLCALC_DOMINANT_NONE)
        doc_text(doc, "  total: latency %s + bandwidth %s = %s (%s dominates, %.0f%%)", a, b, c,
                 collcalc_dominant_name(r->dominant), share);
    else
        doc_text(doc, "  total: latency %s + bandwidth %s = %s", a, b, c);
    if (r->time_us > 0) {
        human_bytes(a, sizeof a, (double)r->size_bytes);
        human_time_us(b, sizeof b, r->time_us);
        human_bandwidth_GBps(c, sizeof c, r->algbw_GBps);
        human_bandwidth_GBps(d, sizeof d, r->busbw_GBps);
        doc_text(doc, "  algbw = %s / %s = %s; busbw = algbw x %.4g = %s", a, b, c,
                 r->busbw_factor, d);
    }
    if (collcalc_result_explain(query, r, text, sizeof text) > 0)
        doc_text(doc, "  note: %s", text);
}

/* ---- NCCL's candidates ---------------------------------------------------------- */

static const record_column NCCL_COLUMNS[] = {
    {"size_bytes", "size", FIELD_BYTES, COLUMN_BOTH, NULL}, /* hidden for one size */
    {"model", "model", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"algorithm", "algorithm", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"protocol", "protocol", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"channels", "channels", FIELD_INT, COLUMN_BOTH, NULL},
    {"selected", "selected", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"latency_us", "latency", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"bandwidth_us", "bandwidth", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"time_us", "time", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"algbw_GBps", "algbw", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"busbw_GBps", "busbw", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"busbw_low_GBps", "busbw low", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"busbw_high_GBps", "busbw high", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"time_low_us", "time low", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"time_high_us", "time high", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"nccl_time_us", "NCCL's time", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"available", "available", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"why", "why", FIELD_TEXT, COLUMN_BOTH, NULL},
};
const record_schema NCCL_SCHEMA = {"results", sizeof NCCL_COLUMNS / sizeof NCCL_COLUMNS[0],
                                   NCCL_COLUMNS};

void report_nccl_choice_text(char *buffer, size_t size, const collcalc_nccl_candidate *candidate)
{
    if (candidate == NULL)
        snprintf(buffer, size, "-");
    else
        snprintf(buffer, size, "%s/%s", collcalc_nccl_algo_name(candidate->algo),
                 collcalc_nccl_proto_name(candidate->proto));
}

void report_nccl_figures(record_set *set, const collcalc_nccl_candidate *candidate)
{
    record_int(set, "channels", candidate->channels_run);
    record_number(set, "latency_us", candidate->latency_pred_us);
    record_number(set, "bandwidth_us", candidate->bandwidth_pred_us);
    record_number(set, "time_us", candidate->time_us);
    record_number(set, "algbw_GBps", candidate->algbw_GBps);
    record_number(set, "busbw_GBps", candidate->busbw_GBps);
    record_number(set, "nccl_time_us", candidate->nccl_time_us);
}

void report_nccl_band(record_set *set, const collcalc_nccl_prediction *prediction,
                      const collcalc_nccl_candidate *candidate)
{
    if (!prediction->band.evidence || candidate->unavailable != COLLCALC_NCCL_OK)
        return; /* no runs of its regime: no range (null) */
    record_number(set, "busbw_low_GBps", candidate->busbw_low_GBps);
    record_number(set, "busbw_high_GBps", candidate->busbw_high_GBps);
    record_number(set, "time_low_us", candidate->time_low_us);
    record_number(set, "time_high_us", candidate->time_high_us);
}

void report_nccl_rows(record_set *set, const collcalc_nccl_prediction *prediction,
                      uint64_t size_bytes, bool all_candidates)
{
    const collcalc_nccl_candidate *chosen = collcalc_nccl_selected(prediction);
    for (size_t i = 0; i < prediction->candidate_count; i++) {
        const collcalc_nccl_candidate *c = &prediction->candidates[i];
        bool available = c->unavailable == COLLCALC_NCCL_OK;
        if (!available && !all_candidates)
            continue;
        record_begin(set);
        record_int(set, "size_bytes", (long long)size_bytes);
        record_text(set, "model", "nccl");
        record_text(set, "algorithm", collcalc_nccl_algo_name(c->algo));
        record_text(set, "protocol", collcalc_nccl_proto_name(c->proto));
        record_bool(set, "selected", c->selected);
        record_bool(set, "available", available);
        if (!available) {
            record_text(set, "why", collcalc_nccl_unavailable_text(c->unavailable));
            continue;
        }
        report_nccl_figures(set, c);
        report_nccl_band(set, prediction, c);
        if (c->selected && c->algo == COLLCALC_NCCL_P2P) {
            record_text(set, "why", "point-to-point sends, which NCCL's tuner does not cost "
                                    "(collcalc's model)");
            records_mark(set, record_count(set) - 1, "<- NCCL's choice");
        } else if (c->selected) {
            record_text(set, "why", "NCCL's tuner picks it (least time in its model)");
            records_mark(set, record_count(set) - 1, "<- NCCL's choice");
        } else if (chosen != NULL) {
            char a[32], b[32];
            human_time_us(a, sizeof a, c->nccl_time_us);
            human_time_us(b, sizeof b, chosen->nccl_time_us);
            record_textf(set, "why", "%s > %s in NCCL's model", a, b);
        }
    }
}

void report_nccl_setup_text(char *buffer, size_t size, const collcalc_prepared *p)
{
    snprintf(buffer, size, "NCCL %s tuner on %s (%s, %s launch%s%s%s)%s", p->constants->version,
             p->platform->name, collcalc_nccl_transport_name(p->system.transport),
             p->launch == COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS ? "single-process"
                                                             : "process-per-gpu",
             p->system.cuda_graph ? ", CUDA graphs" : "",
             p->system.symmetric ? ", symmetric memory" : "",
             p->system.p2p ? "" : ", no P2P",
             p->options.corrections ? "; times with collcalc's corrections"
                                    : "; NCCL's own model, no corrections");
}

static void nccl_header(document *doc, const collcalc_prepared *p, const collcalc_answer *a)
{
    char size_si[32], size_exact[40], cluster[256], setup[256];
    const collcalc_query *query = &a->query;
    report_describe_cluster(&query->cluster, cluster, sizeof cluster);
    human_bytes(size_si, sizeof size_si, (double)query->size_bytes);
    collcalc_u64_format_grouped(size_exact, sizeof size_exact, query->size_bytes);
    doc_text(doc, "%s of %s (%s bytes) on %s", collcalc_op_title(query->op), size_si, size_exact,
             cluster);
    report_nccl_setup_text(setup, sizeof setup, p);
    doc_text(doc, "%s", setup);
    const collcalc_nccl_candidate *c = collcalc_nccl_selected(&a->prediction);
    if (c == NULL) {
        doc_text(doc, "nothing to move");
        return;
    }
    char t[32], alg[32], bus[32];
    human_time_us(t, sizeof t, c->time_us);
    human_bandwidth_GBps(alg, sizeof alg, c->algbw_GBps);
    human_bandwidth_GBps(bus, sizeof bus, c->busbw_GBps);
    doc_text(doc, "NCCL's choice: %s/%s on %d channel%s: nccl-tests would print time %s, algbw "
                  "%s, busbw %s",
             collcalc_nccl_algo_name(c->algo), collcalc_nccl_proto_name(c->proto), c->channels_run,
             c->channels_run == 1 ? "" : "s", t, alg, bus);
    const collcalc_nccl_band *band = &a->prediction.band;
    if (band->evidence) {
        char bl[32], bh[32], tl[32], th[32];
        human_bandwidth_GBps(bl, sizeof bl, c->busbw_low_GBps);
        human_bandwidth_GBps(bh, sizeof bh, c->busbw_high_GBps);
        human_time_us(tl, sizeof tl, c->time_low_us);
        human_time_us(th, sizeof th, c->time_high_us);
        doc_text(doc, "expected from %d validation run%s of its regime (%s): busbw %s to %s, "
                      "time %s to %s",
                 band->runs, band->runs == 1 ? "" : "s", band->regime, bl, bh, tl, th);
    } else {
        doc_text(doc, "no validation run of its regime (%s): no expected range", band->regime);
    }
}

/* ---- the document of one question ------------------------------------------------ */

void report_prepared_query(document *doc, const collcalc_prepared *p, const collcalc_answer *a,
                           bool with_size)
{
    report_query(doc, &a->query, p->basis, p->layers, p->per_layer, with_size);
    if (p->model != COLLCALC_COST_MODEL_NCCL)
        return;
    doc_query_text(doc, "model", "nccl");
    doc_query_text(doc, "platform", p->platform->name);
    doc_query_text(doc, "nccl_version", p->constants->version);
    const collcalc_nccl_candidate *chosen = collcalc_nccl_selected(&a->prediction);
    if (with_size && chosen != NULL) {
        /* The band of the prediction (doc/MODEL.md 15.1); null without evidence. */
        static const char *const keys[4] = {"busbw_low_GBps", "busbw_high_GBps", "time_low_us",
                                            "time_high_us"};
        const double values[4] = {chosen->busbw_low_GBps, chosen->busbw_high_GBps,
                                  chosen->time_low_us, chosen->time_high_us};
        doc_query_text(doc, "regime", a->prediction.band.regime);
        for (int i = 0; i < 4; i++) {
            if (a->prediction.band.evidence)
                doc_query_number(doc, keys[i], i < 2 ? FIELD_GBPS : FIELD_TIME_US, values[i]);
            else
                doc_query_null(doc, keys[i]);
        }
    }
    collcalc_totals totals;
    if (with_size && p->layers * p->per_layer > 1 &&
        collcalc_answer_totals(p, a, &totals, NULL) == COLLCALC_OK)
        doc_query_number(doc, "total_time_us", FIELD_TIME_US, totals.total_time_us);
}

/* The repetition line for people: "x 160 (80 layers x 2 per layer):". */
static void repeat_line(document *doc, long layers, long per_layer)
{
    doc_text(doc, "%s", "");
    doc_text(doc, "x %ld (%ld layer%s x %ld per layer):", layers * per_layer, layers,
             layers == 1 ? "" : "s", per_layer);
}

/* The lines under an alpha-beta table: who moves what when the root
 * differs, the repetition totals, and either the arithmetic or the single
 * note. */
static void alpha_beta_footer(document *doc, const collcalc_prepared *p,
                              const collcalc_answer *answer, bool explain)
{
    char a[32], b[32], c[32], d[32], e[32], f[32];
    const collcalc_result *results = answer->results;
    size_t count = answer->count;
    for (size_t i = 0; i < count; i++) {
        const collcalc_result *r = &results[i];
        if (!r->others_differ)
            continue;
        human_bytes(a, sizeof a, r->bytes_sent_per_gpu + r->bytes_received_per_gpu);
        human_bytes(b, sizeof b, r->bytes_received_per_gpu);
        human_bytes(c, sizeof c, r->bytes_sent_per_gpu);
        human_bytes(d, sizeof d, r->bytes_sent_other_gpu + r->bytes_received_other_gpu);
        human_bytes(e, sizeof e, r->bytes_received_other_gpu);
        human_bytes(f, sizeof f, r->bytes_sent_other_gpu);
        doc_text(doc,
                 "%s: the busiest GPU moves %s (%s in + %s out); every other GPU moves %s (%s in "
                 "+ %s out)",
                 collcalc_algo_name(r->algo), a, b, c, d, e, f);
    }
    if (p->layers * p->per_layer > 1) {
        repeat_line(doc, p->layers, p->per_layer);
        static const record_column COLUMNS[] = {
            {"algorithm", "algorithm", FIELD_TEXT, COLUMN_TABLE, NULL},
            {"total_latency_us", "latency", FIELD_TIME_US, COLUMN_TABLE, NULL},
            {"total_bandwidth_us", "bandwidth", FIELD_TIME_US, COLUMN_TABLE, NULL},
            {"total_time_us", "total", FIELD_TIME_US, COLUMN_TABLE, NULL},
        };
        static const record_schema SCHEMA = {"totals", 4, COLUMNS};
        record_set *totals = doc_records(doc, &SCHEMA);
        records_table_only(totals);
        for (size_t i = 0; i < count; i++) {
            collcalc_totals t;
            if (collcalc_repeat_totals(&results[i], p->layers, p->per_layer, &t, NULL) !=
                COLLCALC_OK)
                continue;
            record_begin(totals);
            record_text(totals, "algorithm", collcalc_algo_name(results[i].algo));
            record_number(totals, "total_latency_us", t.total_latency_us);
            record_number(totals, "total_bandwidth_us", t.total_bandwidth_us);
            record_number(totals, "total_time_us", t.total_time_us);
        }
    }
    char note[COLLCALC_EXPLAIN_MAX];
    if (explain) {
        for (size_t i = 0; i < count; i++)
            report_explain(doc, &answer->query, &results[i]);
    } else if (count == 1 &&
               collcalc_result_explain(&answer->query, &results[0], note, sizeof note) > 0) {
        doc_text(doc, "note: %s", note);
    }
}

static void nccl_answer(document *doc, const collcalc_prepared *p, const collcalc_answer *a,
                        output_format format, bool explain)
{
    if (format == FORMAT_JSON)
        report_prepared_query(doc, p, a, true);
    if (format == FORMAT_TABLE || format == FORMAT_JSON) {
        nccl_header(doc, p, a);
        doc_text(doc, "%s", "");
    }
    record_set *set = doc_records(doc, &NCCL_SCHEMA);
    records_hide_column(set, "size_bytes");
    report_nccl_rows(set, &a->prediction, a->query.size_bytes, explain);
    if (format != FORMAT_TABLE)
        return;
    collcalc_totals totals;
    const collcalc_nccl_candidate *c = collcalc_nccl_selected(&a->prediction);
    if (c != NULL && p->layers * p->per_layer > 1 &&
        collcalc_answer_totals(p, a, &totals, NULL) == COLLCALC_OK) {
        char choice[64], t1[32], t2[32], t3[32];
        repeat_line(doc, p->layers, p->per_layer);
        report_nccl_choice_text(choice, sizeof choice, c);
        human_time_us(t1, sizeof t1, totals.total_latency_us);
        human_time_us(t2, sizeof t2, totals.total_bandwidth_us);
        human_time_us(t3, sizeof t3, totals.total_time_us);
        doc_text(doc, "  NCCL's choice %s: latency %s + bandwidth %s = %s", choice, t1, t2, t3);
    }
    if (!explain)
        doc_text(doc, "(--explain adds the candidates NCCL cannot run here, and why)");
}

void report_answer(document *doc, const collcalc_prepared *p, const collcalc_answer *a,
                   output_format format, bool explain)
{
    if (p->model == COLLCALC_COST_MODEL_NCCL) {
        nccl_answer(doc, p, a, format, explain);
        return;
    }
    bool people = format == FORMAT_TABLE;
    if (format == FORMAT_JSON)
        report_prepared_query(doc, p, a, true);
    if (people) {
        report_header(doc, &a->query, p->basis);
        doc_text(doc, "%s", "");
    }
    record_set *set = doc_records(doc, &RESULT_SCHEMA);
    for (size_t i = 0; i < a->count; i++) {
        report_result_row(set, &a->query, &a->results[i], p->basis, p->layers, p->per_layer,
                          i == a->fastest);
        if (people && a->count > 1 && i == a->fastest)
            records_mark(set, i, "<- fastest");
        else if (people && a->count > 1 && i == a->nccl_best)
            records_mark(set, i, "<- fastest NCCL runs");
    }
    if (people)
        alpha_beta_footer(doc, p, a, explain);
}

/* ---- one side of a comparison ------------------------------------------------------ */

void report_side_result(const collcalc_prepared *p, const collcalc_answer *a,
                        collcalc_result *out)
{
    if (p->model != COLLCALC_COST_MODEL_NCCL && a->headline >= 0) {
        *out = a->results[a->headline];
        return;
    }
    memset(out, 0, sizeof *out);
    out->op = a->query.op;
    out->gpus = a->query.cluster.gpus;
    out->nodes = collcalc_cluster_nodes(&a->query.cluster);
    out->size_bytes = a->query.size_bytes;
    out->latency_us = a->latency_us;
    out->bandwidth_us = a->bandwidth_us;
    out->time_us = a->time_us;
    out->algbw_GBps = a->algbw_GBps;
    out->busbw_GBps = a->busbw_GBps;
    out->busbw_factor = a->prediction.busbw_factor;
    out->dominant = a->time_us <= 0                        ? COLLCALC_DOMINANT_NONE
                    : a->latency_us > a->bandwidth_us ? COLLCALC_DOMINANT_LATENCY
                                                      : COLLCALC_DOMINANT_BANDWIDTH;
}

void report_side_row(record_set *set, const collcalc_prepared *p, const collcalc_answer *a)
{
    collcalc_result r;
    report_side_result(p, a, &r);
    if (p->model != COLLCALC_COST_MODEL_NCCL) {
        report_result_row(set, &a->query, &r, p->basis, p->layers, p->per_layer, false);
        return;
    }
    /* NCCL's choice in the result columns: what the model does not give
     * (steps, bytes per GPU, phases) stays absent. */
    record_begin(set);
    record_int(set, "size_bytes", (long long)a->query.size_bytes);
    record_text(set, "op", collcalc_op_name(r.op));
    char choice[64];
    report_nccl_choice_text(choice, sizeof choice, collcalc_nccl_selected(&a->prediction));
    record_text(set, "algorithm", choice);
    record_bool(set, "fastest", false);
    record_bool(set, "in_nccl", true);
    record_int(set, "gpus", r.gpus);
    record_int(set, "nodes", r.nodes);
    record_text(set, "bw_basis", collcalc_bw_basis_name(p->basis));
    record_number(set, "latency_us", r.latency_us);
    record_number(set, "bandwidth_us", r.bandwidth_us);
    record_number(set, "time_us", r.time_us);
    record_number(set, "algbw_GBps", r.algbw_GBps);
    record_number(set, "busbw_factor", r.busbw_factor);
    record_number(set, "busbw_GBps", r.busbw_GBps);
    record_text(set, "dominant", collcalc_dominant_name(r.dominant));
    record_int(set, "layers", p->layers);
    record_int(set, "per_layer", p->per_layer);
    collcalc_totals t;
    if (collcalc_answer_totals(p, a, &t, NULL) == COLLCALC_OK) {
        record_number(set, "total_latency_us", t.total_latency_us);
        record_number(set, "total_bandwidth_us", t.total_bandwidth_us);
        record_number(set, "total_time_us", t.total_time_us);
    }
    char setup[256];
    report_nccl_setup_text(setup, sizeof setup, p);
    record_text(set, "note", setup);
}
