/* collcalc allreduce|allgather|reducescatter|alltoall|broadcast|reduce|sendrecv:
 * one collective, one or all algorithms, on a link or a cluster. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "nccl_view.h"
#include "human.h"
#include "report.h"

/* The lines under the table: who moves what when the root differs, the
 * repetition totals, and either the arithmetic or the single note. */
static void add_footer(document *doc, const collcalc_query *query, const collcalc_result *results,
                       size_t count, long layers, long per_layer, bool explain)
{
    char a[32], b[32], c[32], d[32], e[32], f[32];
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
    if (layers * per_layer > 1) {
        doc_text(doc, "%s", "");
        doc_text(doc, "x %ld (%ld layer%s x %ld per layer):", layers * per_layer, layers,
                 layers == 1 ? "" : "s", per_layer);
        record_set *totals = NULL;
        static const record_column COLUMNS[] = {
            {"algorithm", "algorithm", FIELD_TEXT, COLUMN_TABLE, NULL},
            {"total_latency_us", "latency", FIELD_TIME_US, COLUMN_TABLE, NULL},
            {"total_bandwidth_us", "bandwidth", FIELD_TIME_US, COLUMN_TABLE, NULL},
            {"total_time_us", "total", FIELD_TIME_US, COLUMN_TABLE, NULL},
        };
        static const record_schema SCHEMA = {"totals", 4, COLUMNS};
        totals = doc_records(doc, &SCHEMA);
        records_table_only(totals);
        for (size_t i = 0; i < count; i++) {
            collcalc_totals t;
            if (collcalc_repeat_totals(&results[i], layers, per_layer, &t, NULL) != COLLCALC_OK)
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
            report_explain(doc, query, &results[i]);
    } else if (count == 1 && collcalc_result_explain(query, &results[0], note, sizeof note) > 0) {
        doc_text(doc, "note: %s", note);
    }
}

/* With a platform: NCCL's own tuner, its choice and the rivals it beat. */
static int nccl_answer(cli_context *ctx, collcalc_query *query, const collcalc_cluster_spec *spec,
                       bool explain, document *doc, output_format format)
{
    nccl_setup *setup = malloc(sizeof *setup);
    if (setup == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    int code = nccl_view_setup(ctx, spec, &query->cluster, setup);
    collcalc_nccl_func func = COLLCALC_NCCL_ALLREDUCE;
    collcalc_nccl_func_from_op(query->op, &func);
    collcalc_nccl_prediction prediction;
    collcalc_diag diag;
    if (code == 0 && collcalc_nccl_predict(&setup->system, setup->constants, &setup->options, func,
                                           query->size_bytes, &prediction, &diag) != COLLCALC_OK)
        code = cli_usage_error(ctx, NULL, "%s", diag.message);
    if (code != 0) {
        free(setup);
        return code;
    }
    if (format == FORMAT_JSON) {
        report_query(doc, query, spec->basis, 1, 1, true);
        doc_query_text(doc, "model", "nccl");
        doc_query_text(doc, "platform", setup->platform->name);
        doc_query_text(doc, "nccl_version", setup->constants->version);
    }
    if (format == FORMAT_TABLE || format == FORMAT_JSON) {
        nccl_view_header(doc, query, setup, &prediction);
        doc_text(doc, "%s", "");
    }
    record_set *set = doc_records(doc, &NCCL_SCHEMA);
    records_hide_column(set, "size_bytes");
    nccl_view_rows(set, &prediction, query->size_bytes, explain);
    if (!explain && format == FORMAT_TABLE)
        doc_text(doc, "(--explain adds the candidates NCCL cannot run here, and why)");
    free(setup);
    return 0;
}

int cmd_collective(cli_context *ctx)
{
    document *doc = doc_new(ctx->name);
    if (doc == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    collective_plan plan;
    int code = collective_document(ctx, doc, ctx->format, &plan);
    if (code != 0) {
        doc_free(doc);
        return code;
    }
    return cli_emit(ctx, doc);
}

int collective_document(cli_context *ctx, document *doc, output_format format,
                        collective_plan *out_plan)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    if (!arg_given(&ctx->args, OPT_SIZE))
        return cli_usage_error(ctx, "--size", "missing: the message size, e.g. --size 100MB");
    uint64_t size_bytes = 0;
    int code = cli_size(ctx, OPT_SIZE, &size_bytes);
    if (code == 0)
        code = collective_prepare(ctx, out_plan);
    if (code == 0)
        code = collective_answer(ctx, out_plan, size_bytes, doc, format);
    return code;
}

int collective_prepare(cli_context *ctx, collective_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    collcalc_query_init(&plan->query);
    plan->query.op = (collcalc_op)ctx->spec->op;
    plan->explain = arg_given(&ctx->args, OPT_EXPLAIN);
    collcalc_cluster_spec_init(&plan->cluster_spec);
    int code = report_spec_from_args(ctx, &plan->cluster_spec);
    if (code == 0)
        code = report_algos(ctx, plan->query.op, plan->algos, &plan->algo_count);
    if (code == 0)
        code = report_repeat(ctx, &plan->layers, &plan->per_layer);
    if (code == 0)
        code = nccl_view_wanted(ctx, &plan->cluster_spec, plan->query.op, &plan->nccl);
    if (code == 0 && plan->nccl && arg_given(&ctx->args, OPT_LAYERS))
        code = cli_usage_error(ctx, "--layers", "applies to --cost-model alpha-beta for now");
    if (code == 0)
        code = report_resolve(ctx, &plan->cluster_spec, &plan->query.cluster, NULL);
    plan->query.tree_efficiency = plan->cluster_spec.tree_efficiency;
    if (code == 0 && !plan->nccl)
        code = report_rows(ctx, &plan->query, plan->algos, plan->algo_count, plan->rows,
                           &plan->row_count);
    return code;
}

int collective_answer(cli_context *ctx, const collective_plan *plan, uint64_t size_bytes,
                      document *doc, output_format format)
{
    collcalc_query query = plan->query;
    query.size_bytes = size_bytes;
    if (plan->nccl)
        return nccl_answer(ctx, &query, &plan->cluster_spec, plan->explain, doc, format);
    collcalc_result results[COLLCALC_ALGO_COUNT];
    size_t count = 0, fastest = 0;
    int code = collective_plan_results(ctx, plan, size_bytes, results, &count, &fastest);
    if (code != 0)
        return code;

    long layers = plan->layers, per_layer = plan->per_layer;
    collcalc_bw_basis basis = plan->cluster_spec.basis;
    bool people = format == FORMAT_TABLE;
    if (format == FORMAT_JSON)
        report_query(doc, &query, basis, layers, per_layer, true);
    if (people) {
        report_header(doc, &query, basis);
        doc_text(doc, "%s", "");
    }
    record_set *set = doc_records(doc, &RESULT_SCHEMA);
    size_t nccl_best = report_fastest_in_nccl(results, count);
    for (size_t i = 0; i < count; i++) {
        report_result_row(set, &query, &results[i], basis, layers, per_layer, i == fastest);
        if (people && count > 1 && i == fastest)
            records_mark(set, i, "<- fastest");
        else if (people && count > 1 && i == nccl_best)
            records_mark(set, i, "<- fastest NCCL runs");
    }
    if (people)
        add_footer(doc, &query, results, count, layers, per_layer, plan->explain);
    return 0;
}

CLI_FLATTEN int collective_plan_results(cli_context *ctx, const collective_plan *plan,
                                        uint64_t size_bytes, collcalc_result *results,
                                        size_t *out_count, size_t *out_fastest)
{
    /* The plan's query as it is: nothing here reads its size. */
    return report_cost(ctx, &plan->query, plan->rows, plan->row_count, size_bytes, results,
                       out_count, out_fastest);
}

void collective_write_rows(const collcalc_query *query, collcalc_bw_basis basis,
                           long layers, long per_layer,
                           const collcalc_result *results, size_t count,
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
