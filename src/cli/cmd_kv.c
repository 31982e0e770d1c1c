/* collcalc kv: KV-cache bytes per token and per shard (MHA/GQA/MLA,
 * sliding windows, TP replication), and the prefill -> decode transfer time
 * over a link or cluster with a transfer backend. */
#include <stdlib.h>
#include <string.h>

#include "collcalc/plan.h"
#include "commands.h"
#include "findings_out.h"
#include "human.h"
#include "plan_args.h"

static const record_column KV_COLUMNS[] = {
    {"kv_bytes_per_token", "per token", FIELD_INT, COLUMN_BOTH, NULL},
    {"kv_bytes_total", "total (unique)", FIELD_INT, COLUMN_BOTH, NULL},
    {"kv_bytes_per_shard", "per shard", FIELD_INT, COLUMN_BOTH, NULL},
    {"kv_bytes_transferred", "shipped", FIELD_INT, COLUMN_BOTH, NULL},
    {"replication", "replicas", FIELD_INT, COLUMN_BOTH, NULL},
    {"kv_heads_per_shard", "KV heads/shard", FIELD_INT, COLUMN_MACHINE, NULL},
    {"window_layers", "window layers", FIELD_INT, COLUMN_MACHINE, NULL},
    {"senders", "senders", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nics_used", "NICs", FIELD_INT, COLUMN_MACHINE, NULL},
    {"bytes_per_nic", "per NIC", FIELD_INT, COLUMN_MACHINE, NULL},
    {"block_bytes", "block", FIELD_INT, COLUMN_MACHINE, NULL},
    {"blocks_per_nic", "blocks per NIC", FIELD_INT, COLUMN_MACHINE, NULL},
    {"line_GBps", "line rate", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"rate_per_nic_GBps", "rate per NIC", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"bandwidth_us", "bandwidth", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"block_overhead_us", "block overhead", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"setup_us", "setup", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"transfer_us", "transfer", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"effective_GBps", "effective", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"backend", "backend", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"backend_efficiency", "efficiency", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"backend_source", "backend source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"fits_budget", "fits budget", FIELD_BOOL, COLUMN_MACHINE, NULL},
};
static const record_schema KV_SCHEMA = {"results", sizeof KV_COLUMNS / sizeof KV_COLUMNS[0],
                                        KV_COLUMNS};

static int kv_query(cli_context *ctx, collcalc_kv_query *q, const collcalc_model_shape *model)
{
    q->model = model;
    int code = plan_tokens(ctx, &q->tokens);
    if (code == 0)
        code = cli_dtype(ctx, OPT_DTYPE, COLLCALC_DTYPE_BF16, &q->dtype);
    if (code == 0)
        code = plan_degree(ctx, OPT_TP, &q->tp);
    if (code == 0)
        code = plan_degree(ctx, OPT_PP, &q->pp);
    q->dedup = arg_given(&ctx->args, OPT_DEDUP);
    const char *backend = arg_value(&ctx->args, OPT_BACKEND);
    collcalc_diag diag;
    if (code == 0 && backend != NULL &&
        collcalc_kv_backend_from_name(backend, &q->backend, &diag) != COLLCALC_OK)
        code = cli_usage_error(ctx, "--backend", "%s", diag.message);
    if (code == 0 && arg_given(&ctx->args, OPT_BUDGET))
        code = cli_time(ctx, OPT_BUDGET, &q->budget_us);
    if (code == 0)
        code = cli_size(ctx, OPT_BLOCK_SIZE, &q->block_bytes);
    if (code != 0 || !plan_has_cluster(ctx)) {
        static const option_id NEED_CLUSTER[] = {OPT_BACKEND, OPT_BUDGET, OPT_BLOCK_SIZE};
        for (size_t i = 0; code == 0 && i < sizeof NEED_CLUSTER / sizeof NEED_CLUSTER[0]; i++)
            if (arg_given(&ctx->args, NEED_CLUSTER[i]))
                code = cli_usage_error(ctx, cli_spelled(ctx, NEED_CLUSTER[i]),
                                       "needs a path to time the transfer over (--link or "
                                       "--platform)");
        return code;
    }
    collcalc_cluster cluster;
    bool single = false;
    collcalc_bw_basis basis;
    code = plan_cluster(ctx, (long)q->tp * q->pp, &cluster, &single, &basis);
    if (code != 0)
        return code;
    q->with_transfer = true;
    q->nic = single ? cluster.intra : cluster.inter;
    q->gpus_per_node = single ? 1 : cluster.gpus_per_node;
    q->nics_per_node = single ? 1 : cluster.nics_per_node;
    q->intra = cluster.intra;
    return 0;
}

int cmd_kv(cli_context *ctx)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    const collcalc_model_shape *model;
    int code = cli_model(ctx, &model);
    collcalc_kv_query q;
    collcalc_kv_query_init(&q);
    if (code == 0)
        code = kv_query(ctx, &q, model);
    if (code != 0)
        return code;
    collcalc_kv_result *r = malloc(sizeof *r);
    if (r == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    collcalc_diag diag;
    if (collcalc_kv_evaluate(&q, r, &diag) != COLLCALC_OK) {
        free(r);
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    }
    document *doc = doc_new(ctx->name);
    doc_query_text(doc, "model", model->name);
    doc_query_int(doc, "tokens", (long long)q.tokens);
    doc_query_text(doc, "dtype", collcalc_dtype_name(q.dtype));
    doc_query_int(doc, "tp", q.tp);
    doc_query_int(doc, "pp", q.pp);
    doc_query_bool(doc, "dedup", q.dedup);
    if (q.with_transfer) {
        doc_query_text(doc, "link", q.nic.name);
        doc_query_number(doc, "link_bw_GBps", FIELD_GBPS, q.nic.bw_GBps);
        doc_query_int(doc, "nics_per_node", q.nics_per_node);
        doc_query_text(doc, "backend", collcalc_kv_backend_name(q.backend));
        if (q.budget_us > 0)
            doc_query_number(doc, "budget_us", FIELD_TIME_US, q.budget_us);
    }
    char a[32], b[32], c[32], d[32];
    human_bytes(a, sizeof a, (double)r->kv_bytes_per_token);
    doc_text(doc, "%s, %s KV cache: %llu bytes (%s) per token (%s%s)", model->name,
             collcalc_dtype_name(q.dtype), (unsigned long long)r->kv_bytes_per_token, a,
             collcalc_attention_name(model->attention),
             model->sliding_window_layers > 0 ? ", sliding-window layers capped" : "");
    human_bytes(a, sizeof a, (double)r->kv_bytes_total);
    human_bytes(b, sizeof b, (double)r->kv_bytes_per_shard);
    human_bytes(c, sizeof c, (double)r->kv_bytes_transferred);
    doc_text(doc, "%llu tokens: %llu bytes (%s) unique; %s per shard on TP %d x PP %d; %s shipped%s",
             (unsigned long long)q.tokens, (unsigned long long)r->kv_bytes_total, a, b, q.tp, q.pp,
             c, r->replication > 1 ? (q.dedup ? " (replicas deduplicated)" : " (replicas included)")
                                   : "");
    record_set *set = doc_records(doc, &KV_SCHEMA);
    records_machine_only(set);
    record_begin(set);
    record_int(set, "kv_bytes_per_token", (long long)r->kv_bytes_per_token);
    record_int(set, "kv_bytes_total", (long long)r->kv_bytes_total);
    record_int(set, "kv_bytes_per_shard", (long long)r->kv_bytes_per_shard);
    record_int(set, "kv_bytes_transferred", (long long)r->kv_bytes_transferred);
    record_int(set, "replication", r->replication);
    record_int(set, "kv_heads_per_shard", r->kv_heads_per_shard);
    record_int(set, "window_layers", r->window_layers);
    if (q.with_transfer) {
        record_int(set, "senders", r->senders);
        record_int(set, "nics_used", r->nics_used);
        record_int(set, "bytes_per_nic", (long long)r->bytes_per_nic);
        record_int(set, "block_bytes", (long long)r->block_bytes);
        record_int(set, "blocks_per_nic", (long long)r->blocks_per_nic);
        record_number(set, "line_GBps", r->line_GBps);
        record_number(set, "rate_per_nic_GBps", r->rate_per_nic_GBps);
        record_number(set, "bandwidth_us", r->bandwidth_us);
        record_number(set, "block_overhead_us", r->block_overhead_us);
        record_number(set, "setup_us", r->setup_us);
        record_number(set, "transfer_us", r->transfer_us);
        record_number(set, "effective_GBps", r->effective_GBps);
        record_text(set, "backend", collcalc_kv_backend_name(q.backend));
        record_number(set, "backend_efficiency", r->backend_params.efficiency);
        record_text(set, "backend_source", r->backend_params.source);
        if (r->has_budget)
            record_bool(set, "fits_budget", r->fits_budget);
        human_time_us(a, sizeof a, r->transfer_us);
        human_bandwidth_GBps(b, sizeof b, r->effective_GBps);
        human_bytes(c, sizeof c, (double)r->bytes_per_nic);
        human_bandwidth_GBps(d, sizeof d, r->rate_per_nic_GBps);
        doc_text(doc, "%s", "");
        doc_text(doc, "transfer over %d x %s (%s backend): %s per NIC at %s = %s, effective %s", 
                 r->nics_used, q.nic.name, collcalc_kv_backend_name(q.backend), c, d, a, b);
        human_time_us(a, sizeof a, r->setup_us);
        human_time_us(b, sizeof b, r->bandwidth_us);
        human_time_us(c, sizeof c, r->block_overhead_us);
        doc_text(doc, "  setup %s + max(bandwidth %s, %llu blocks x per-block cost = %s); %s-bound",
                 a, b, (unsigned long long)r->blocks_per_nic, c,
                 r->dominant == COLLCALC_DOMINANT_LATENCY ? "per-block cost" : "bandwidth");
    }
    if (r->findings.count > 0) {
        doc_text(doc, "%s", "");
        findings_add(doc, &r->findings);
    }
    bool over_budget = r->has_budget && !r->fits_budget && arg_given(&ctx->args, OPT_STRICT);
    char took[32], budget[32];
    human_time_us(took, sizeof took, r->transfer_us);
    human_time_us(budget, sizeof budget, q.budget_us);
    free(r);
    code = cli_emit(ctx, doc);
    if (code == 0 && over_budget)
        code = cli_strict_failure(ctx, "the transfer takes %s, over --budget %s", took, budget);
    return code;
}
