/* collcalc allreduce|allgather|reducescatter|alltoall|broadcast|reduce|sendrecv:
 * one collective, one or all algorithms, on a link or a cluster. */
#include <stdlib.h>

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
                       document *doc, output_format format)
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
    bool explain = arg_given(&ctx->args, OPT_EXPLAIN);
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
    int code = collective_document(ctx, doc, ctx->format);
    if (code != 0) {
        doc_free(doc);
        return code;
    }
    return cli_emit(ctx, doc);
}

int collective_document(cli_context *ctx, document *doc, output_format format)
{
    const command_spec *spec = ctx->spec;
    collcalc_query query;
    collcalc_query_init(&query);
    query.op = (collcalc_op)spec->op;
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    if (!arg_given(&ctx->args, OPT_SIZE))
        return cli_usage_error(ctx, "--size", "missing: the message size, e.g. --size 100MB");
    int code = cli_size(ctx, OPT_SIZE, &query.size_bytes);
    collcalc_cluster_spec cluster_spec;
    collcalc_cluster_spec_init(&cluster_spec);
    if (code == 0)
        code = report_spec_from_args(ctx, &cluster_spec);
    collcalc_algo algos[COLLCALC_ALGO_COUNT];
    int algo_count = 0;
    if (code == 0)
        code = report_algos(ctx, query.op, algos, &algo_count);
    long layers = 1, per_layer = 1;
    if (code == 0)
        code = report_repeat(ctx, &layers, &per_layer);
    bool nccl = false;
    if (code == 0)
        code = nccl_view_wanted(ctx, &cluster_spec, query.op, &nccl);
    if (code == 0 && nccl && arg_given(&ctx->args, OPT_LAYERS))
        code = cli_usage_error(ctx, "--layers", "applies to --cost-model alpha-beta for now");
    if (code == 0)
        code = report_resolve(ctx, &cluster_spec, &query.cluster, NULL);
    query.tree_efficiency = cluster_spec.tree_efficiency;
    if (code == 0 && nccl)
        return nccl_answer(ctx, &query, &cluster_spec, doc, format);
    collcalc_result results[COLLCALC_ALGO_COUNT];
    size_t count = 0, fastest = 0;
    if (code == 0)
        code = report_evaluate(ctx, &query, algos, algo_count, results, &count, &fastest);
    if (code != 0)
        return code;

    collcalc_bw_basis basis = cluster_spec.basis;
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
        add_footer(doc, &query, results, count, layers, per_layer,
                   arg_given(&ctx->args, OPT_EXPLAIN));
    return 0;
}
