/* Collective results as records, header lines and explanations (report.h). */
#include "report.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/topo_cluster.h"

#include "collcalc/units.h"
#include "commands.h"
#include "human.h"
#include "messages.h"

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

/* ---- options -> cluster ------------------------------------------------------ */

/* Cluster options, spelled as the library's spec keys. */
static const option_id CLUSTER_OPTIONS[] = {
    OPT_GPUS,      OPT_GPUS_PER_NODE, OPT_NODES,        OPT_NICS_PER_NODE, OPT_NICS_PER_GPU,
    OPT_LINK,      OPT_INTRA,         OPT_INTER,        OPT_PLATFORM,      OPT_BW,
    OPT_ALPHA,     OPT_BW_BASIS,      OPT_TREE_EFFICIENCY, OPT_NVLS,       OPT_NO_NVLS,
    OPT_SHARP,
};

int report_spec_from_args(cli_context *ctx, collcalc_cluster_spec *spec)
{
    for (size_t i = 0; i < sizeof CLUSTER_OPTIONS / sizeof CLUSTER_OPTIONS[0]; i++) {
        option_id id = CLUSTER_OPTIONS[i];
        if (!arg_given(&ctx->args, id))
            continue;
        const option_def *def = option_def_of(id);
        collcalc_diag diag;
        const char *value = def->value_name != NULL ? arg_value(&ctx->args, id) : NULL;
        if (collcalc_cluster_spec_set(spec, def->name, value, &diag) != COLLCALC_OK)
            return cli_usage_error(ctx, NULL, "%s", diag.message);
    }
    if (arg_given(&ctx->args, OPT_NVLS) && arg_given(&ctx->args, OPT_NO_NVLS))
        return cli_usage_error(ctx, "--no-nvls", "give --nvls or --no-nvls, not both");
    return 0;
}

/* The per-step latency of the table's first link of a class (the NVLink
 * and PCIe figures a topology's paths take). */
static double class_alpha_us(const collcalc_link_table *links, collcalc_link_class link_class)
{
    for (size_t i = 0; i < collcalc_link_table_count(links); i++) {
        const collcalc_link *link = collcalc_link_table_at(links, i);
        if (link->link_class == link_class)
            return link->alpha_us;
    }
    return 0.0;
}

/* --topo FILE: the box's own intra-node path. Without another cluster
 * option it is a one-node query over the topology's GPUs; with one it
 * replaces the intra link (and the GPUs per node) of that cluster. */
static int apply_topo(cli_context *ctx, const collcalc_cluster_spec *spec,
                      const collcalc_link_table *links, collcalc_cluster *cluster, bool resolved)
{
    const char *path = arg_value(&ctx->args, OPT_TOPO);
    char *text;
    size_t length;
    int code = cli_read_input(ctx, path, &text, &length);
    if (code != 0)
        return code;
    const char *shown = cli_input_name(path);
    collcalc_topo *topo = NULL;
    collcalc_diag diag;
    collcalc_status status = collcalc_topo_parse(text, length, NULL, &topo, &diag);
    free(text);
    if (status != COLLCALC_OK)
        return cli_data_error(ctx, shown, "%s", diag.message);
    collcalc_link_params intra;
    status = collcalc_topo_intra_link(topo, class_alpha_us(links, COLLCALC_LINK_CLASS_NVLINK),
                                      class_alpha_us(links, COLLCALC_LINK_CLASS_PCI), &intra, &diag);
    int gpus = topo->gpu_count;
    collcalc_topo_free(topo);
    if (status != COLLCALC_OK)
        return cli_data_error(ctx, shown, "%s", diag.message);
    if (!resolved) {
        long p = spec->gpus > 0 ? spec->gpus : gpus;
        if (p > gpus)
            return cli_usage_error(ctx, "--gpus", "%ld GPUs, but %s shows %d in the box", p, shown,
                                   gpus);
        collcalc_cluster_single_link((int)p, &intra, cluster);
        cluster->nvls_intra = intra.nvlink && spec->nvls == COLLCALC_SETTING_ON;
    } else {
        cluster->intra = intra;
        if (spec->gpus_per_node == 0)
            cluster->gpus_per_node = gpus;
        if (!intra.nvlink)
            cluster->nvls_intra = false;
    }
    return 0;
}

int report_resolve(cli_context *ctx, const collcalc_cluster_spec *spec,
                   collcalc_cluster *out_cluster, collcalc_cluster_info *info)
{
    const collcalc_link_table *links;
    const collcalc_platform_table *platforms = NULL;
    int code = cli_links(ctx, &links);
    if (code != 0)
        return code;
    bool need_platforms = spec->platform[0] != '\0' ||
                          arg_given(&ctx->args, OPT_PLATFORMS_FILE) ||
                          arg_given(&ctx->args, OPT_PLATFORMS_ONLY);
    if (need_platforms && (code = cli_platforms(ctx, &platforms)) != 0)
        return code;
    collcalc_cluster_info local;
    if (info == NULL)
        info = &local;
    collcalc_cluster_info_init(info);
    bool topo = arg_given(&ctx->args, OPT_TOPO);
    bool other_cluster = spec->link[0] || spec->intra[0] || spec->platform[0] || spec->inter[0] ||
                         spec->gpus_per_node > 0 || spec->bw_set;
    if (topo && !other_cluster) {
        info->single_link = true;
        return apply_topo(ctx, spec, links, out_cluster, false);
    }
    collcalc_cluster_spec with_intra = *spec;
    if (topo && !spec->link[0] && !spec->intra[0] && !spec->platform[0]) {
        /* The topology gives the intra link; any NVLink entry stands in
         * for it while the rest of the cluster resolves. */
        for (size_t i = 0; i < collcalc_link_table_count(links); i++)
            if (collcalc_link_table_at(links, i)->link_class == COLLCALC_LINK_CLASS_NVLINK) {
                snprintf(with_intra.intra, sizeof with_intra.intra, "%s",
                         collcalc_link_table_at(links, i)->name);
                break;
            }
        spec = &with_intra;
    }
    collcalc_diag diag;
    if (collcalc_cluster_resolve(spec, links, platforms, out_cluster, info, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    for (size_t i = 0; i < info->warning_count; i++)
        cli_warn(ctx, "%s", info->warnings[i]);
    return topo ? apply_topo(ctx, spec, links, out_cluster, true) : 0;
}

/* ---- algorithms ------------------------------------------------------------- */

int report_algos(cli_context *ctx, collcalc_op op, collcalc_algo *algos, int *count)
{
    *count = 0;
    for (int i = 0; i < ctx->args.count[OPT_ALGO]; i++) {
        const char *value = ctx->args.values[OPT_ALGO][i];
        if (strcmp(value, "all") == 0) {
            *count = 0;
            return 0;
        }
        collcalc_algo algo;
        collcalc_algo available[COLLCALC_ALGO_COUNT];
        size_t n = collcalc_algos_for_op(op, available, COLLCALC_ALGO_COUNT);
        bool known = collcalc_algo_from_name(value, &algo, NULL) == COLLCALC_OK;
        bool for_op = false;
        for (size_t k = 0; known && k < n; k++)
            for_op = for_op || available[k] == algo;
        if (!for_op) {
            /* the names for the message only (batch checks millions of --algo) */
            const char *names[COLLCALC_ALGO_COUNT];
            char list[256] = "";
            size_t used = 0;
            for (size_t k = 0; k < n; k++) {
                names[k] = collcalc_algo_name(available[k]);
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "",
                                         names[k]);
            }
            char shown[COLLCALC_ECHO_BUFFER], hint[160];
            collcalc_echo(shown, sizeof shown, value);
            message_suggest(hint, sizeof hint, value, names, n, "");
            return cli_usage_error(ctx, "--algo", "%s '%s'%s; %s has: %s",
                                   known ? "not an algorithm of this operation:" : "unknown algorithm",
                                   shown, hint, collcalc_op_title(op), list);
        }
        bool seen = false;
        for (int k = 0; k < *count; k++)
            seen = seen || algos[k] == algo;
        if (!seen)
            algos[(*count)++] = algo;
    }
    return 0;
}

int report_rows(cli_context *ctx, const collcalc_query *query, const collcalc_algo *algos,
                int algo_count, collcalc_model_row *rows, size_t *out_row_count)
{
    collcalc_diag diag;
    size_t count = 0;
    collcalc_status status = collcalc_model_rows(query, algos, algo_count > 0 ? (size_t)algo_count : 0,
                                                 rows, COLLCALC_ALGO_COUNT, &count, &diag);
    if (status == COLLCALC_ERR_UNSUPPORTED)
        return cli_usage_error(ctx, "--algo", "%s", diag.message);
    if (status != COLLCALC_OK)
        return cli_data_error(ctx, NULL, "%s", diag.message);
    if (count == 0)
        return cli_usage_error(ctx, "--algo", "no algorithm applies");
    *out_row_count = count;
    return 0;
}

int report_cost(cli_context *ctx, const collcalc_query *query, const collcalc_model_row *rows,
                size_t row_count, uint64_t size_bytes, collcalc_result *results,
                size_t *out_count, size_t *out_fastest)
{
    collcalc_diag diag;
    for (size_t i = 0; i < row_count; i++)
        if (collcalc_model_evaluate_row(query, rows[i], size_bytes, &results[i], &diag) !=
            COLLCALC_OK)
            return cli_data_error(ctx, NULL, "%s", diag.message);
    *out_count = row_count;
    *out_fastest = collcalc_fastest_index(results, row_count);
    return 0;
}

int report_evaluate(cli_context *ctx, const collcalc_query *query, const collcalc_algo *algos,
                    int algo_count, collcalc_result *results, size_t *out_count,
                    size_t *out_fastest)
{
    collcalc_model_row rows[COLLCALC_ALGO_COUNT];
    size_t row_count = 0;
    int code = report_rows(ctx, query, algos, algo_count, rows, &row_count);
    if (code == 0)
        code = report_cost(ctx, query, rows, row_count, query->size_bytes, results, out_count,
                           out_fastest);
    return code;
}

int report_repeat(cli_context *ctx, long *layers, long *per_layer)
{
    *layers = 1;
    *per_layer = 1;
    int code = cli_count(ctx, OPT_LAYERS, 1, 1000000, layers);
    if (code == 0)
        code = cli_count(ctx, OPT_PER_LAYER, 1, 1000, per_layer);
    return code;
}

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

size_t report_fastest_in_nccl(const collcalc_result *results, size_t count)
{
    size_t best = count;
    for (size_t i = 0; i < count; i++)
        if (collcalc_algo_in_nccl(results[i].op, results[i].algo) &&
            (best == count || results[i].time_us < results[best].time_us))
            best = i;
    return best;
}

void report_header(document *doc, const collcalc_query *query, collcalc_bw_basis basis)
{
    char size_si[32], size_exact[40], cluster[256], bw[32], bw2[32], a1[32], a2[32];
    report_describe_cluster(&query->cluster, cluster, sizeof cluster);
    human_bytes(size_si, sizeof size_si, (double)query->size_bytes);
    collcalc_format_grouped_u64(size_exact, sizeof size_exact, query->size_bytes);
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
