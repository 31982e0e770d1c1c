/* KV-cache bytes per token, per shard and in flight, and the prefill ->
 * decode transfer time over a backend (src/plan/calibration.c has the
 * backend figures and their sources).
 *
 *   GQA/MHA: bytes per layer-token = 2 x kv_heads x head_dim x b
 *   MLA:     bytes per layer-token = (kv_lora_rank + rope_head_dim) x b
 *   total  = per layer-token x (full layers x T + window layers x min(T, W))
 *
 * TP splits GQA KV heads over its ranks (kv_heads / tp each); when TP
 * exceeds the KV heads each head is replicated on tp / kv_heads ranks. The
 * MLA latent is shared by all heads, so every TP rank holds all of it. PP
 * splits layers. Each prefill GPU ships its own shard; replicas are shipped
 * too unless dedup. */
#include "plan_internal.h"

#include <math.h>
#include <string.h>

void collcalc_kv_query_init(collcalc_kv_query *query)
{
    if (query == NULL)
        return;
    memset(query, 0, sizeof *query);
    query->dtype = COLLCALC_DTYPE_BF16;
    query->tp = 1;
    query->pp = 1;
    query->gpus_per_node = 1;
    query->nics_per_node = 1;
    query->backend = COLLCALC_KV_BACKEND_NCCL;
}

static collcalc_status check_query(const collcalc_kv_query *q, collcalc_diag *diag)
{
    if (q->model == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no model given");
    if (q->tokens == 0 || q->tokens > COLLCALC_TOKENS_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "tokens must be between 1 and %llu (got %llu)",
                                  (unsigned long long)COLLCALC_TOKENS_MAX,
                                  (unsigned long long)q->tokens);
    if (collcalc_dtype_bytes(q->dtype) == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown KV dtype");
    if (q->tp < 1 || q->tp > 1000000 || q->pp < 1 || q->pp > 1000000)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "tp and pp must be between 1 and 1000000 (got tp %d, pp %d)",
                                  q->tp, q->pp);
    /* plan's TP rule (tp-heads): a degree that splits the heads evenly. */
    if (q->check_tp && !plan_tp_divides_heads(q->model, q->tp))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--tp: %d does not divide %s's %d attention heads", q->tp,
                                  q->model->name, q->model->heads);
    if (q->check_tp && q->decode_tp != 0 && !plan_tp_divides_heads(q->model, q->decode_tp))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--decode-tp: %d does not divide %s's %d attention heads",
                                  q->decode_tp, q->model->name, q->model->heads);
    if (q->tp > q->model->heads)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "tp %d is larger than %s's %d attention heads", q->tp,
                                  q->model->name, q->model->heads);
    if (q->decode_tp < 0 || q->decode_tp > q->model->heads)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--decode-tp: %d is not between 1 and %s's %d attention heads",
                                  q->decode_tp, q->model->name, q->model->heads);
    if (q->pp > q->model->layers)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "pp %d is larger than %s's %d layers", q->pp, q->model->name,
                                  q->model->layers);
    if (!q->with_transfer)
        return COLLCALC_OK;
    if (q->gpus_per_node < 1 || q->gpus_per_node > 1000000 || q->nics_per_node < 1 ||
        q->nics_per_node > 1000000 || q->gpus_per_host < 0 || q->gpus_per_host > 1000000)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "GPUs and NICs per node must be between 1 and 1000000 (GPUs "
                                  "per host 0 to 1000000)");
    collcalc_status status = plan_check_link(q->same_domain ? &q->intra : &q->nic,
                                             q->same_domain ? "intra-node link" : "NIC", diag);
    if (status != COLLCALC_OK)
        return status;
    if (!plan_in_range(q->budget_us, 0.0, 1e12))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "budget must be finite and >= 0");
    if (q->block_bytes > (UINT64_C(1) << 40))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "block size above 1 TiB");
    if (q->nics_per_gpu < 0 || q->nics_per_gpu > 1024 || q->near_nics < 0 ||
        q->near_nics > 1024 || q->far_nics < 0 || q->far_nics > 1024 ||
        !plan_in_range(q->far_nic_GBps, 0.0, 1e6))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "NICs per GPU, near and far NICs must be between 0 and 1024, "
                                  "the far NIC rate finite and >= 0");
    if ((q->no_gdr && !q->same_domain) || q->host.bw_GBps != 0) {
        collcalc_status host = plan_check_link(&q->host, "host link", diag);
        if (host != COLLCALC_OK)
            return host;
    }
    if (q->backend_override) {
        const collcalc_kv_backend_params *b = &q->backend_params;
        if (!plan_in_range(b->efficiency, 1e-6, 1.0) || !plan_in_range(b->per_nic_cap_GBps, 0, 1e6) ||
            !plan_in_range(b->per_node_cap_GBps, 0, 1e6) || !plan_in_range(b->per_block_us, 0, 1e9) ||
            !plan_in_range(b->setup_us, 0, 1e9))
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "backend figures out of range (efficiency in (0, 1], caps "
                                      "and costs finite, >= 0)");
    }
    return COLLCALC_OK;
}

/* NICs one GPU's shard goes out on, by the backend's rule (see
 * collcalc_kv_backend_params); per_node GPUs of the node (of node_nics
 * NICs) send at once. */
static int nics_per_sender(const collcalc_kv_query *q, const collcalc_kv_backend_params *b,
                           int per_node, int node_nics)
{
    if (q->same_domain)
        return 1; /* the GPU's own NVLink port */
    int rail = q->nics_per_gpu > 0 ? q->nics_per_gpu : q->nics_per_node / q->gpus_per_node;
    if (rail < 1)
        rail = 1;
    int n = rail;
    if (b->host_staged)
        n = (node_nics + per_node - 1) / per_node; /* the node's NICs, shared */
    else if (b->multi_nic && q->near_nics > 0)
        n = q->near_nics + (q->far_nic_GBps > 0 ? q->far_nics : 0);
    else if (b->one_nic)
        n = 1;
    if (n < 1)
        n = 1;
    return n;
}

/* The host-staged backend on a node of several hosts (gpus_per_host). */
static bool kv_per_host(const collcalc_kv_query *q, const collcalc_kv_backend_params *b)
{
    return b->host_staged && !q->same_domain && q->gpus_per_host > 0 &&
           q->gpus_per_host < q->gpus_per_node;
}

/* GPUs and NICs of the unit a sender's NICs and caps come from: the node,
 * or for kernel TCP on a node of several hosts one host (a GB200 NVL72
 * tray: 4 GPUs of the 72, their share of the NICs, their CPU). */
static int kv_unit(const collcalc_kv_query *q, const collcalc_kv_backend_params *b,
                   int *out_nics)
{
    *out_nics = q->nics_per_node;
    if (!kv_per_host(q, b))
        return q->gpus_per_node;
    long share = (long)q->nics_per_node * q->gpus_per_host / q->gpus_per_node;
    *out_nics = share < 1 ? 1 : (int)share;
    return q->gpus_per_host;
}

/* Time one side (senders or receivers) needs to push its bytes out; the
 * busiest NIC's bytes into *out_nic_bytes. */
static double side_us(const collcalc_kv_query *q, const collcalc_kv_backend_params *b,
                      int gpus, uint64_t bytes_per_gpu, double *out_rate, int *out_nics,
                      int *out_nodes, int *out_per_gpu, double *out_nic_bytes)
{
    int all_nics;
    int g = kv_unit(q, b, &all_nics);
    int nodes = (gpus + g - 1) / g;
    int per_node = gpus < g ? gpus : g;
    int per_gpu = nics_per_sender(q, b, per_node, all_nics);
    int node_nics = per_node * per_gpu;
    if (!q->same_domain && node_nics > all_nics)
        node_nics = all_nics;
    double line = q->same_domain ? q->intra.bw_GBps : q->nic.bw_GBps;
    double rate = b->efficiency * line;
    if (b->per_nic_cap_GBps > 0 && rate > b->per_nic_cap_GBps && !q->same_domain)
        rate = b->per_nic_cap_GBps;
    if (b->per_node_cap_GBps > 0 && !q->same_domain && rate * node_nics > b->per_node_cap_GBps)
        rate = b->per_node_cap_GBps / node_nics;
    /* Mooncake schedules its NICs with equal shares: with far NICs among
     * them, every share runs at the slowest NIC's rate. */
    if (!q->same_domain && b->multi_nic && q->near_nics > 0 && q->far_nics > 0 &&
        q->far_nic_GBps > 0 && q->far_nic_GBps < rate)
        rate = q->far_nic_GBps;
    /* Kernel TCP sends from host memory over any NIC: the node's bytes split
     * evenly. NCCL, NIXL and Mooncake bind each GPU to its NIC(s) (NCCL's
     * net device per GPU, UCX's device, Mooncake's rail): per_node x per_gpu
     * bindings on node_nics NICs put ceil(bindings / NICs) of them on the
     * busiest NIC (8 GPUs on 3 NICs: 3/3/2), each 1/per_gpu of a shard. */
    long bindings = (long)per_node * per_gpu;
    double nic_bytes = (double)bytes_per_gpu * per_node / node_nics;
    if (!b->host_staged && !q->same_domain)
        nic_bytes = (double)bytes_per_gpu / per_gpu * (double)((bindings + node_nics - 1) / node_nics);
    double us = nic_bytes / (rate * 1e3);
    *out_nic_bytes = nic_bytes;
    *out_rate = rate;
    *out_nics = nodes * node_nics;
    *out_nodes = nodes;
    *out_per_gpu = per_gpu;
    return us;
}

/* Transfer time of the KV over the prefill GPUs' NICs (and, re-sharding,
 * the decode GPUs' NICs). */
static collcalc_status transfer(const collcalc_kv_query *q, collcalc_kv_result *r,
                                uint64_t layer_shard_bytes, collcalc_diag *diag)
{
    collcalc_kv_backend_params b;
    if (q->backend_override) {
        b = q->backend_params;
        if (b.source == NULL)
            b.source = "given";
    } else {
        collcalc_status status = collcalc_kv_backend_defaults(q->backend, &b, diag);
        if (status != COLLCALC_OK)
            return status;
    }
    r->backend_params = b;
    int senders = q->tp * q->pp;
    r->senders = senders;
    uint64_t per_sender = (r->kv_bytes_transferred + (uint64_t)senders - 1) / (uint64_t)senders;
    double nic_bytes, rx_nic_bytes;
    double send_us = side_us(q, &b, senders, per_sender, &r->rate_per_nic_GBps, &r->nics_used,
                             &r->nodes, &r->nics_per_sender, &nic_bytes);
    r->per_host = kv_per_host(q, &b);
    kv_unit(q, &b, &r->node_nics);
    double line_per_nic = q->same_domain ? q->intra.bw_GBps : q->nic.bw_GBps;
    r->line_GBps = line_per_nic * r->nics_used;
    uint64_t nics = (uint64_t)r->nics_used;
    r->bytes_per_nic = (r->kv_bytes_transferred + nics - 1) / nics; /* the mean NIC's */
    if (nic_bytes > (double)r->bytes_per_nic + 1.0)
        r->bytes_per_nic = plan_bytes(nic_bytes); /* uneven: the busiest NIC's */
    r->receive_us = 0;
    if (r->receivers != senders) {
        double rate;
        int rx_nics, rx_nodes, rx_per;
        r->receive_us = side_us(q, &b, r->receivers, r->bytes_per_receiver, &rate, &rx_nics,
                                &rx_nodes, &rx_per, &rx_nic_bytes);
    }
    /* Without GPUDirect RDMA (and always for kernel TCP) the KV crosses the
     * sender GPU's host link (PCIe) into host memory before the NIC reads
     * it, and the receiver's after. Backends that stage in chunks overlap
     * the copies with the wire: the slowest stage plus one chunk of each
     * other (pipeline fill); the others copy, then send (doc/MODEL.md
     * section 19.2). */
    double wire_us = send_us > r->receive_us ? send_us : r->receive_us;
    r->staging_us = r->staging_exposed_us = 0;
    r->staged = !q->same_domain && (q->no_gdr || b.host_staged) && q->host.bw_GBps > 0;
    if (r->staged) {
        double host = q->host.bw_GBps * 1e3; /* bytes per us */
        double out_us = (double)per_sender / host, in_us = (double)r->bytes_per_receiver / host;
        r->staging_us = out_us + in_us;
        r->staging_exposed_us = r->staging_us;
        if (b.staging_chunk_bytes > 0 && per_sender > 0) {
            double chunk = b.staging_chunk_bytes < (double)per_sender ? b.staging_chunk_bytes
                                                                      : (double)per_sender;
            double chunk_host = chunk / host, chunk_wire = send_us * chunk / (double)per_sender;
            double slowest = fmax(wire_us, fmax(out_us, in_us));
            double fill = 2 * chunk_host + chunk_wire - fmax(chunk_host, chunk_wire);
            r->staging_exposed_us = slowest - wire_us + fill;
            r->staging_hidden = slowest <= wire_us;
        }
    }
    uint64_t block = q->block_bytes != 0 ? q->block_bytes : layer_shard_bytes;
    if (block == 0)
        block = 1;
    r->block_bytes = block;
    /* Re-sharding splits each block among the receivers it feeds. */
    uint64_t pieces = 1;
    if (r->receivers > senders)
        pieces = (uint64_t)((r->receivers + senders - 1) / senders);
    r->blocks_per_nic = (r->bytes_per_nic + block - 1) / block * pieces;
    r->bandwidth_us = wire_us; /* the wire alone; the copies are staging_exposed_us */
    r->block_overhead_us = (double)r->blocks_per_nic * b.per_block_us;
    r->setup_us = b.setup_us;
    /* One request's blocks are issued and completed by the connector in
     * series with the wire (Hockney's alpha + bytes / beta per message, as
     * everywhere in this tool): the published single-request transfers of
     * vLLM on H800 and SGLang on H20 grow as setup + blocks x cost + bytes /
     * rate, not as the larger of the two (doc/published.md). */
    r->transfer_us =
        r->setup_us + r->block_overhead_us + r->bandwidth_us + r->staging_exposed_us;
    r->effective_GBps =
        r->transfer_us > 0 ? (double)r->kv_bytes_transferred / (r->transfer_us * 1e3) : 0.0;
    r->dominant = r->bandwidth_us + r->staging_exposed_us >= r->block_overhead_us + r->setup_us
                      ? COLLCALC_DOMINANT_BANDWIDTH
                      : COLLCALC_DOMINANT_LATENCY;
    if (q->no_gdr && (q->same_domain || b.host_staged))
        collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_INFO, "kv-no-gdr-moot", NULL,
                              "--no-gdr changes nothing here: %s",
                              q->same_domain ? "the KV goes over NVLink, and GPUDirect RDMA is "
                                               "a NIC path"
                                             : "kernel TCP copies through host memory anyway");
    if (q->budget_us > 0) {
        r->has_budget = true;
        r->fits_budget = r->transfer_us <= q->budget_us;
        if (r->fits_budget)
            collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_INFO, "kv-budget-fits", NULL,
                                  "the KV transfer takes %.1f us of the %.1f us budget (%.0f %%)",
                                  r->transfer_us, q->budget_us,
                                  100.0 * r->transfer_us / q->budget_us);
        else
            collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_ERROR, "kv-budget-exceeded",
                                  "ship fewer replicas (dedup), use more NICs or a faster "
                                  "backend, or shorten the prompt",
                                  "the KV transfer takes %.1f us, over the %.1f us budget",
                                  r->transfer_us, q->budget_us);
    }
    return COLLCALC_OK;
}

collcalc_status collcalc_kv_evaluate(const collcalc_kv_query *query, collcalc_kv_result *out_result,
                                     collcalc_diag *diag)
{
    if (query == NULL || out_result == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no KV query");
    collcalc_status status = check_query(query, diag);
    if (status != COLLCALC_OK)
        return status;
    const collcalc_model_shape *m = query->model;
    collcalc_kv_result *r = out_result;
    memset(r, 0, sizeof *r);
    collcalc_findings_init(&r->findings);
    uint64_t b = collcalc_dtype_bytes(query->dtype);
    uint64_t tp = (uint64_t)query->tp, pp = (uint64_t)query->pp;

    uint64_t layer_token;
    uint64_t shard_num, shard_den; /* a TP rank's fraction of one layer's KV */
    if (m->attention == COLLCALC_ATTENTION_MLA) {
        layer_token = (uint64_t)(m->kv_lora_rank + m->rope_head_dim) * b;
        r->kv_heads_per_shard = 1;
        r->replication = query->tp;
        shard_num = 1;
        shard_den = 1;
        if (query->tp > 1)
            collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_WARNING, "kv-mla-replicated",
                                  "use DP attention (tp 1 per attention replica) to keep one "
                                  "copy per GPU",
                                  "the MLA latent is shared by all heads: each of the %d TP "
                                  "ranks holds all of it (%d copies)", query->tp, query->tp);
    } else {
        uint64_t kv = (uint64_t)m->kv_heads;
        layer_token = 2 * kv * (uint64_t)m->head_dim * b;
        if (tp <= kv) {
            r->kv_heads_per_shard = (int)((kv + tp - 1) / tp);
            r->replication = 1;
            shard_num = (uint64_t)r->kv_heads_per_shard;
            shard_den = kv;
        } else {
            r->kv_heads_per_shard = 1;
            r->replication = (int)((tp + kv - 1) / kv);
            shard_num = 1;
            shard_den = kv;
            collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_WARNING, "tp-kv-replication",
                                  "keep tp <= kv_heads, or ship with dedup",
                                  "tp %d exceeds %s's %d KV heads: each head is replicated on "
                                  "%d ranks", query->tp, m->name, m->kv_heads, r->replication);
        }
    }
    r->kv_bytes_per_layer_token = layer_token;
    r->kv_bytes_per_token = layer_token * (uint64_t)m->layers;
    uint64_t t = query->tokens;
    uint64_t window_layers = (uint64_t)m->sliding_window_layers;
    uint64_t kept = t;
    if (window_layers > 0 && (uint64_t)m->sliding_window_tokens < t)
        kept = (uint64_t)m->sliding_window_tokens;
    r->window_layers = m->sliding_window_layers;
    r->window_tokens_kept = window_layers > 0 ? kept : 0;
    uint64_t full_layers = (uint64_t)m->layers - window_layers;
    uint64_t token_layers = full_layers * t + window_layers * kept; /* < 2^44 */
    uint64_t per_token_check = 0;
    if (!plan_mul_u64(layer_token, token_layers, &r->kv_bytes_total) ||
        !plan_mul_u64(r->kv_bytes_total, (uint64_t)r->replication, &per_token_check))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "KV bytes for %llu tokens of %s overflow 64 bits",
                                  (unsigned long long)t, m->name);
    /* One GPU: 1/pp of the layers (the first stage's share, rounded up) and
     * its TP fraction of each. */
    uint64_t stage_layers = ((uint64_t)m->layers + pp - 1) / pp;
    double stage_fraction = (double)stage_layers / (double)m->layers;
    double shard = (double)r->kv_bytes_total * stage_fraction * (double)shard_num / (double)shard_den;
    r->kv_bytes_per_shard = plan_bytes(shard);
    uint64_t copies = (uint64_t)r->replication;
    r->kv_bytes_transferred = query->dedup ? r->kv_bytes_total : r->kv_bytes_total * copies;
    /* The decode side: each of its decode_tp x pp GPUs needs its own shard
     * (GQA heads split over decode_tp, replicated beyond the KV heads; the
     * MLA latent whole). Re-sharding (decode_tp != tp) ships what the decode
     * GPUs need, each pulling from the prefill ranks that hold it. */
    int dtp = query->decode_tp > 0 ? query->decode_tp : query->tp;
    r->receivers = dtp * query->pp;
    {
        double fraction;
        if (m->attention == COLLCALC_ATTENTION_MLA)
            fraction = 1.0;
        else if ((uint64_t)dtp <= (uint64_t)m->kv_heads)
            fraction = (double)((m->kv_heads + dtp - 1) / dtp) / m->kv_heads;
        else
            fraction = 1.0 / m->kv_heads;
        double need = (double)r->kv_bytes_total * stage_fraction * fraction;
        r->bytes_per_receiver = plan_bytes(need);
        if (dtp != query->tp)
            r->kv_bytes_transferred = plan_bytes(need * r->receivers);
    }
    if (query->with_transfer) {
        /* One layer of one GPU's shard: what an engine sends as a block. */
        uint64_t per_gpu_layer = r->kv_bytes_transferred / (tp * pp) / stage_layers;
        status = transfer(query, r, per_gpu_layer, diag);
        if (status != COLLCALC_OK)
            return status;
    }
    collcalc_findings_sort(&r->findings);
    return COLLCALC_OK;
}

collcalc_status collcalc_kv_choose_path(collcalc_kv_query *query, const char *path, bool single,
                                        collcalc_diag *diag)
{
    if (query == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no KV query");
    collcalc_kv_query *q = query;
    if (path != NULL && strcmp(path, "auto") != 0 && strcmp(path, "nvlink") != 0 &&
        strcmp(path, "network") != 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "unknown path '%.40s' (auto, nvlink or network)", path);
    bool tcp = q->backend == COLLCALC_KV_BACKEND_TCP; /* kernel sockets: never NVLink */
    long decode_tp = q->decode_tp > 0 ? q->decode_tp : q->tp;
    long both = (long)q->tp * q->pp + decode_tp * q->pp;
    int domain = single ? 1 : q->gpus_per_node;
    q->same_domain = false;
    if (path != NULL && strcmp(path, "nvlink") == 0) {
        if (tcp)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "nvlink: the tcp backend cannot use NVLink (kernel sockets "
                                      "go over the network); use --kv-path network or another "
                                      "backend");
        if (single || both > domain)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "nvlink: prefill and decode (%ld GPUs) do not fit one "
                                      "NVLink domain of %d", both, domain);
        q->same_domain = true;
    } else if (path == NULL || strcmp(path, "auto") == 0) {
        /* A multi-node NVLink domain (a rack) is meant to hold both. */
        q->same_domain = !tcp && !single && domain > 8 && both <= domain;
    }
    return COLLCALC_OK;
}
