/* collcalc kv: KV-cache bytes per token and per shard (MHA/GQA/MLA,
 * sliding windows, TP replication), and the prefill -> decode transfer time
 * over a link or cluster with a transfer backend. */
#include <stdlib.h>
#include <string.h>

#include "collcalc/plan.h"
#include "collcalc/topo.h"
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

/* --no-gdr: the platform's host link (PCIe), per direction. */
static int kv_host_link(cli_context *ctx, collcalc_kv_query *q)
{
    const char *name = arg_value(&ctx->args, OPT_PLATFORM);
    if (name == NULL)
        return cli_usage_error(ctx, "--no-gdr", "needs --platform (its host link)");
    const collcalc_platform *p;
    const collcalc_link_table *links;
    int code = plan_platform(ctx, &p, &links);
    if (code != 0)
        return code;
    const collcalc_link *host = p != NULL ? collcalc_link_table_find(links, p->host_link) : NULL;
    if (host == NULL)
        return cli_usage_error(ctx, "--no-gdr", "platform '%.40s' names no host link", name);
    collcalc_link_params_from_link(host, COLLCALC_BW_PER_DIRECTION, &q->host);
    return 0;
}

/* --topo: the NICs at PCIe distance (PIX, PXB) of GPU0 and the farther
 * ones, with what GPUDirect to a farther NIC delivers (the topology's own
 * estimate for its class). */
static int kv_topo_nics(cli_context *ctx, collcalc_kv_query *q)
{
    const char *path = arg_value(&ctx->args, OPT_TOPO);
    char *text = NULL;
    size_t length = 0;
    int code = cli_read_input(ctx, path, &text, &length);
    if (code != 0)
        return code;
    collcalc_topo *topo = NULL;
    collcalc_diag diag;
    if (collcalc_topo_parse(text, length, NULL, &topo, &diag) != COLLCALC_OK) {
        free(text);
        return cli_data_error(ctx, cli_input_name(path), "%s", diag.message);
    }
    free(text);
    q->near_nics = q->far_nics = 0;
    q->far_nic_GBps = 0;
    for (int d = 0; d < topo->device_count; d++) {
        if (topo->devices[d].kind != COLLCALC_TOPO_NIC)
            continue;
        collcalc_topo_class c = topo->cells[0][d].connection;
        if (c == COLLCALC_TOPO_PIX || c == COLLCALC_TOPO_PXB) {
            q->near_nics++;
        } else {
            double rate = collcalc_topo_pair_GBps(topo, 0, d);
            q->far_nics++;
            if (q->far_nic_GBps == 0 || rate < q->far_nic_GBps)
                q->far_nic_GBps = rate;
        }
    }
    collcalc_topo_free(topo);
    if (q->near_nics == 0)
        return cli_usage_error(ctx, "--topo", "GPU0 has no NIC at PCIe distance (PIX or PXB)");
    return 0;
}

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
    if (code == 0 && arg_given(&ctx->args, OPT_DECODE_TP))
        code = plan_degree(ctx, OPT_DECODE_TP, &q->decode_tp);
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
        static const option_id NEED_CLUSTER[] = {OPT_BACKEND, OPT_BUDGET, OPT_BLOCK_SIZE,
                                                 OPT_KV_PATH, OPT_NO_GDR, OPT_TOPO};
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
    q->nics_per_gpu = single ? 1 : cluster.nics_per_gpu;
    q->intra = cluster.intra;
    const char *path = arg_value(&ctx->args, OPT_KV_PATH);
    if (path != NULL && strcmp(path, "auto") != 0 && strcmp(path, "nvlink") != 0 &&
        strcmp(path, "network") != 0)
        return cli_usage_error(ctx, "--kv-path", "unknown path '%.40s' (auto, nvlink or network)",
                               path);
    long both = (long)q->tp * q->pp + (long)(q->decode_tp > 0 ? q->decode_tp : q->tp) * q->pp;
    if (path != NULL && strcmp(path, "nvlink") == 0) {
        if (single || both > cluster.gpus_per_node)
            return cli_usage_error(ctx, "--kv-path",
                                   "nvlink: prefill and decode (%ld GPUs) do not fit one NVLink "
                                   "domain of %d", both, single ? 1 : cluster.gpus_per_node);
        q->same_domain = true;
    } else if (path == NULL || strcmp(path, "auto") == 0) {
        /* A multi-node NVLink domain (a rack) is meant to hold both. */
        q->same_domain = !single && cluster.gpus_per_node > 8 && both <= cluster.gpus_per_node;
    }
    if (arg_given(&ctx->args, OPT_NO_GDR)) {
        q->no_gdr = true;
        code = kv_host_link(ctx, q);
    }
    if (code == 0 && arg_given(&ctx->args, OPT_TOPO))
        code = kv_topo_nics(ctx, q);
    return code;
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
        if (q.same_domain)
            doc_text(doc, "transfer over NVLink (%s): prefill and decode share the NVLink domain, "
                          "each of the %d prefill GPUs on its own port (%s backend): %s per GPU "
                          "at %s; %s in all, effective %s", q.intra.name, r->senders,
                     collcalc_kv_backend_name(q.backend), c, d, a, b);
        else
            doc_text(doc, "transfer over %d x %s (%s backend): %s per NIC at %s; %s in all, "
                          "effective %s",
                     r->nics_used, q.nic.name, collcalc_kv_backend_name(q.backend), c, d, a, b);
        if (!q.same_domain) {
            const collcalc_kv_backend_params *bp = &r->backend_params;
            doc_text(doc, "  %d sender%s on %d node%s, %d NIC%s each: %s",
                     r->senders, r->senders == 1 ? "" : "s", r->nodes, r->nodes == 1 ? "" : "s",
                     r->nics_per_sender, r->nics_per_sender == 1 ? "" : "s",
                     bp->host_staged ? "through host memory any NIC of the node serves, the "
                                       "node's CPU caps the total"
                     : bp->multi_nic ? (q.near_nics > 0 ? "striped over the NICs at PCIe "
                                                          "distance of the GPU (--topo)"
                                                        : "striped over the GPU's nearest NICs "
                                                          "(its rail; --topo tells more)")
                     : bp->one_nic ? "one NIC per GPU (UCX picks one device)"
                                   : "the GPU's own NIC(s), as NCCL binds them");
        }
        if (r->receivers != r->senders) {
            human_bytes(c, sizeof c, (double)r->bytes_per_receiver);
            human_time_us(d, sizeof d, r->receive_us);
            doc_text(doc, "  re-sharding TP %d -> TP %d: %d decode GPUs each pull %s, %s on the "
                          "busiest receiver", q.tp, q.decode_tp, r->receivers, c, d);
        }
        if (r->staging_us > 0) {
            human_time_us(c, sizeof c, r->staging_us);
            doc_text(doc, "  no GPUDirect RDMA: each GPU's shard crosses %s to host memory first "
                          "(%s)", q.host.name, c);
        }
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
