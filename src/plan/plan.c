/* A whole deployment: rank layout, the tier of each group's collectives,
 * the communication of one step per collective kind, and the rule checks.
 *
 * Layout. A model replica spans tp x cp x ep x pp GPUs and there are dp
 * replicas; ranks are numbered with the first dimension of `order` fastest
 * (default tp, cp, ep, pp, dp) and placed on nodes in rank order, G GPUs
 * (one NVLink domain) per node. The ep dimension is the attention-data-
 * parallel dimension experts are spread over (DeepSeek/SGLang "DP attention
 * + EP"): each of the ep ranks attends over its own tokens/ep, and each TP
 * rank of it dispatches 1/tp of them to its peers with the same TP index.
 *
 * Per step, per GPU (m micro-batches, L layers per stage, b bytes):
 *   TP: 2 all-reduces per layer of tokens_mb x H x b (RS + AG with SP);
 *       training doubles every count (backward pass).
 *   EP: 1 dispatch + 1 combine per MoE layer (src/plan/moe.c).
 *   PP: send/recv of tokens_mb x H x b / tp, (m + pp - 2) of them on the
 *       critical path (decode: pp - 1).
 *   DP (train): one all-reduce of the gradients of the replicated weights
 *       over cp x ep x dp ranks, one of the expert weights over tp x cp x dp.
 *   CP: ring attention passes its KV block cp - 1 times per layer.
 * A group whose ranks sit on several nodes runs its collective across the
 * NICs; its node's NICs are shared by the node's GPUs in proportion. */
#include "plan_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define PLAN_DEGREE_MAX 1000000

static const char *const workload_words[] = {"prefill", "decode", "train"};
static const char *const dim_words[] = {"tp", "cp", "ep", "pp", "dp"};
static const char *const comm_words[] = {"tp-allreduce", "tp-reducescatter", "tp-allgather",
                                         "ep-dispatch",  "ep-combine",       "pp-sendrecv",
                                         "dp-allreduce", "dp-expert-allreduce", "cp-ring"};

const char *collcalc_workload_name(collcalc_workload workload)
{
    return plan_word_name(workload_words, PLAN_COUNT_OF(workload_words), (int)workload);
}

collcalc_status collcalc_workload_from_name(const char *name, collcalc_workload *out_workload,
                                            collcalc_diag *diag)
{
    size_t i = 0;
    collcalc_status status =
        plan_word_parse(workload_words, PLAN_COUNT_OF(workload_words), name, "phase",
                        "prefill, decode or train", out_workload != NULL ? &i : NULL, diag);
    if (status == COLLCALC_OK)
        *out_workload = (collcalc_workload)i;
    return status;
}

const char *collcalc_dim_name(collcalc_dim dim)
{
    return plan_word_name(dim_words, PLAN_COUNT_OF(dim_words), (int)dim);
}

const char *collcalc_comm_kind_name(collcalc_comm_kind kind)
{
    return plan_word_name(comm_words, PLAN_COUNT_OF(comm_words), (int)kind);
}

collcalc_status collcalc_dim_order_parse(const char *text, collcalc_dim out_order[COLLCALC_DIM_COUNT],
                                         collcalc_diag *diag)
{
    if (text == NULL || out_order == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no rank order given");
    bool used[COLLCALC_DIM_COUNT] = {false};
    size_t n = 0;
    const char *p = text;
    while (*p != '\0') {
        const char *end = p;
        while (*end != '\0' && *end != ',' && *end != '-')
            end++;
        size_t length = (size_t)(end - p);
        size_t found = COLLCALC_DIM_COUNT;
        for (size_t d = 0; d < COLLCALC_DIM_COUNT; d++)
            if (length == 2 && plan_names_equal(dim_words[d], (char[3]){p[0], p[1], '\0'}))
                found = d;
        if (found == COLLCALC_DIM_COUNT)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "invalid rank order '%.60s': '%.*s' is not tp, cp, ep, pp "
                                      "or dp", text, (int)(length > 20 ? 20 : length), p);
        if (used[found])
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "invalid rank order '%.60s': %s appears twice", text,
                                      dim_words[found]);
        used[found] = true;
        out_order[n++] = (collcalc_dim)found;
        if (*end == '\0')
            break;
        p = end + 1;
        if (*p == '\0')
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "invalid rank order '%.60s': ends with a separator", text);
    }
    for (size_t d = 0; d < COLLCALC_DIM_COUNT; d++)
        if (!used[d])
            out_order[n++] = (collcalc_dim)d;
    return COLLCALC_OK;
}

void collcalc_plan_query_init(collcalc_plan_query *query)
{
    if (query == NULL)
        return;
    memset(query, 0, sizeof *query);
    query->workload = COLLCALC_WORKLOAD_DECODE;
    query->dtype = COLLCALC_DTYPE_BF16;
    query->tp = query->pp = query->ep = query->dp = query->cp = 1;
    for (int d = 0; d < (int)COLLCALC_DIM_COUNT; d++)
        query->order[d] = (collcalc_dim)d;
    collcalc_cluster_init(&query->cluster);
    query->sm_slowdown = 1.0;
    query->moe_mode_auto = true;
    query->moe_mode = COLLCALC_MOE_NORMAL;
    query->dispatch_dtype = COLLCALC_DTYPE_FP8;
    query->combine_dtype = COLLCALC_DTYPE_BF16;
    collcalc_moe_calibration_init(&query->calibration);
}

static int degree(const collcalc_plan_query *q, collcalc_dim dim)
{
    switch (dim) {
    case COLLCALC_DIM_TP: return q->tp;
    case COLLCALC_DIM_CP: return q->cp;
    case COLLCALC_DIM_EP: return q->ep;
    case COLLCALC_DIM_PP: return q->pp;
    case COLLCALC_DIM_DP: return q->dp;
    case COLLCALC_DIM_COUNT: break;
    }
    return 1;
}

static int micro_batches(const collcalc_plan_query *q)
{
    if (q->micro_batches > 0)
        return q->micro_batches;
    return q->workload == COLLCALC_WORKLOAD_TRAIN ? q->pp : 1;
}

collcalc_status collcalc_plan_validate(const collcalc_plan_query *q, collcalc_diag *diag)
{
    if (q == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no plan query");
    const collcalc_model_shape *m = q->model;
    if (m == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no model given");
    if ((int)q->workload < 0 || (size_t)q->workload >= PLAN_COUNT_OF(workload_words))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown phase");
    if (q->dtype != COLLCALC_DTYPE_BF16 && q->dtype != COLLCALC_DTYPE_FP8 &&
        q->dtype != COLLCALC_DTYPE_FP16 && q->dtype != COLLCALC_DTYPE_FP32)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown activation dtype");
    for (int d = 0; d < (int)COLLCALC_DIM_COUNT; d++) {
        int v = degree(q, (collcalc_dim)d);
        if (v < 1 || v > PLAN_DEGREE_MAX)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "%s must be between 1 and %d (got %d)", dim_words[d],
                                      PLAN_DEGREE_MAX, v);
    }
    double product = (double)q->tp * q->cp * q->ep * q->pp * q->dp;
    if (product > PLAN_DEGREE_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "tp x cp x ep x pp x dp = %.0f GPUs is more than %d", product,
                                  PLAN_DEGREE_MAX);
    if (q->gpus < 0 || q->gpus > PLAN_DEGREE_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "gpus must be between 1 and %d (got %d)", PLAN_DEGREE_MAX,
                                  q->gpus);
    bool seen[COLLCALC_DIM_COUNT] = {false};
    for (int d = 0; d < (int)COLLCALC_DIM_COUNT; d++) {
        int v = (int)q->order[d];
        if (v < 0 || v >= (int)COLLCALC_DIM_COUNT || seen[v])
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "the rank order must name tp, cp, ep, pp and dp once each");
        seen[v] = true;
    }
    if (q->tp > m->heads)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "tp %d is larger than %s's %d attention heads", q->tp, m->name,
                                  m->heads);
    if (q->pp > m->layers)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "pp %d is larger than %s's %d layers", q->pp, m->name,
                                  m->layers);
    if (q->redundant_experts < 0 || q->redundant_experts > COLLCALC_MOE_EXPERTS_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "redundant experts must be between 0 and %d (got %d)",
                                  COLLCALC_MOE_EXPERTS_MAX, q->redundant_experts);
    if (q->redundant_experts > 0 && !collcalc_model_is_moe(m))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s is a dense model: it has no experts to replicate", m->name);
    if (q->ep > 1 && !collcalc_model_is_moe(m))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "ep %d needs a MoE model; %s is dense", q->ep, m->name);
    if (collcalc_model_is_moe(m) && q->ep > m->routed_experts + q->redundant_experts)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "ep %d is larger than %s's %d expert slots", q->ep, m->name,
                                  m->routed_experts + q->redundant_experts);
    if (q->micro_batches < 0 || q->micro_batches > PLAN_DEGREE_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "micro-batches must be between 1 and %d (got %d)",
                                  PLAN_DEGREE_MAX, q->micro_batches);
    if (q->tokens == 0 || q->tokens > COLLCALC_TOKENS_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "tokens must be between 1 and %llu (got %llu)",
                                  (unsigned long long)COLLCALC_TOKENS_MAX,
                                  (unsigned long long)q->tokens);
    uint64_t replicas = (uint64_t)q->dp * (uint64_t)q->ep * (uint64_t)q->cp *
                        (uint64_t)micro_batches(q);
    if (q->tokens < replicas)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%llu tokens cannot feed dp x ep x cp x micro-batches = %llu "
                                  "attention slices (each needs at least one token)",
                                  (unsigned long long)q->tokens, (unsigned long long)replicas);
    if (q->context > COLLCALC_TOKENS_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "context must be at most %llu tokens (got %llu)",
                                  (unsigned long long)COLLCALC_TOKENS_MAX,
                                  (unsigned long long)q->context);
    if (q->kv_dtype_given && collcalc_dtype_bytes(q->kv_dtype) == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown KV dtype");
    if (q->weight_format_given && collcalc_weight_format_bytes(q->weight_format) == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown weight type");
    if (!plan_in_range(q->memory_utilization, 0.0, 1.0) ||
        !plan_in_range(q->compute_efficiency, 0.0, 1.0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "memory utilization and compute efficiency must be in (0, 1] "
                                  "(got %g and %g)", q->memory_utilization,
                                  q->compute_efficiency);
    double overlaps[] = {q->overlap_tp, q->overlap_ep, q->overlap_pp, q->overlap_dp};
    for (size_t i = 0; i < PLAN_COUNT_OF(overlaps); i++)
        if (!plan_in_range(overlaps[i], 0.0, 1.0))
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "overlap fractions must be between 0 and 1 (got %g)",
                                      overlaps[i]);
    if (!plan_in_range(q->sm_slowdown, 1.0, COLLCALC_MOE_SM_SLOWDOWN_MAX))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "sm_slowdown must be between 1 and %g (got %g)",
                                  COLLCALC_MOE_SM_SLOWDOWN_MAX, q->sm_slowdown);
    if (q->imbalance != 0 && !plan_in_range(q->imbalance, 1.0, 1e6))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "imbalance (max/mean) must be at least 1 (got %g)",
                                  q->imbalance);
    if (q->weight_bytes < 0 || q->weight_bytes > 8)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "weight bytes must be between 1 and 8 (got %d)",
                                  q->weight_bytes);
    if (!plan_in_range(q->gpu_memory_GB, 0.0, 1e6))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "GPU memory must be between 0 and 1e6 GB (got %g)",
                                  q->gpu_memory_GB);
    if (q->grad_bytes < 0 || q->grad_bytes > 8)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "gradient bytes must be between 1 and 8 (got %d)",
                                  q->grad_bytes);
    return plan_check_cluster(&q->cluster, diag);
}

/* Where one group's ranks sit. */
typedef struct {
    int size;
    int per_node;  /* members on the node of rank 0 */
    int nodes;
    bool crosses;  /* some group of this kind spans nodes */
} group_place;

/* Strides of each dimension in the rank order. */
static void strides(const collcalc_plan_query *q, long out[COLLCALC_DIM_COUNT])
{
    long s = 1;
    for (int i = 0; i < (int)COLLCALC_DIM_COUNT; i++) {
        collcalc_dim d = q->order[i];
        out[d] = s;
        s *= degree(q, d);
    }
}

/* Members of rank 0's group (dims in mask) below rank `limit`, counted by
 * walking the mixed-radix digits, pruned once a partial sum reaches limit;
 * bounded by the answer (<= limit). */
static long count_below(const long *stride_list, const int *size_list, int n, long base,
                        long limit)
{
    if (base >= limit)
        return 0;
    if (n == 0)
        return 1;
    long total = 0;
    for (int i = 0; i < size_list[0]; i++) {
        long at = base + (long)i * stride_list[0];
        if (at >= limit)
            break;
        total += count_below(stride_list + 1, size_list + 1, n - 1, at, limit);
    }
    return total;
}

static group_place place_group(const collcalc_plan_query *q, unsigned mask, long world)
{
    long stride_of[COLLCALC_DIM_COUNT];
    strides(q, stride_of);
    long st[COLLCALC_DIM_COUNT];
    int sz[COLLCALC_DIM_COUNT];
    int n = 0;
    long size = 1;
    /* Largest strides first, so pruning cuts early. */
    for (int i = (int)COLLCALC_DIM_COUNT - 1; i >= 0; i--) {
        collcalc_dim d = q->order[i];
        if ((mask & (1u << d)) && degree(q, d) > 1) {
            st[n] = stride_of[d];
            sz[n] = degree(q, d);
            size *= sz[n];
            n++;
        }
    }
    group_place p;
    long g = q->cluster.gpus_per_node;
    p.size = (int)size;
    if (size <= 1) {
        p.per_node = 1;
        p.nodes = 1;
        p.crosses = false;
        return p;
    }
    long per_node = world <= g ? size : count_below(st, sz, n, 0, g);
    if (per_node < 1)
        per_node = 1;
    p.per_node = (int)per_node;
    p.nodes = (int)((size + per_node - 1) / per_node);
    /* A group of one dimension repeats in blocks of stride x size ranks;
     * when G is a multiple of that block no group straddles a node. */
    bool crosses = per_node < size;
    if (!crosses && world > g && n == 1 && g % (st[0] * sz[0]) != 0)
        crosses = true;
    if (!crosses && world > g && n > 1) {
        long span = 0;
        for (int i = 0; i < n; i++)
            span = st[i] * sz[i] > span ? st[i] * sz[i] : span;
        if (g % span != 0)
            crosses = true;
    }
    p.crosses = crosses;
    if (crosses && p.nodes == 1)
        p.nodes = 2; /* straddling groups touch two nodes */
    return p;
}

/* The cluster one group's collective runs on. */
static void group_cluster(const collcalc_plan_query *q, const group_place *p,
                          collcalc_cluster *out)
{
    *out = q->cluster;
    out->gpus = p->size;
    if (!p->crosses) {
        out->gpus_per_node = p->size;
        return;
    }
    int per_node = p->per_node;
    if (per_node == p->size) /* straddling: model as two halves */
        per_node = (p->size + 1) / 2;
    out->gpus_per_node = per_node;
    double share = (double)q->cluster.nics_per_node * per_node / q->cluster.gpus_per_node;
    if (share >= 1.0) {
        out->nics_per_node = (int)floor(share);
        if (out->nics_per_gpu < 1)
            out->nics_per_gpu = 1;
        int drivable = per_node * out->nics_per_gpu;
        if (out->nics_per_node > drivable)
            out->nics_per_node = drivable;
    } else {
        out->nics_per_node = 1;
        out->inter.bw_GBps = q->cluster.inter.bw_GBps * share;
    }
}

static void set_link(collcalc_plan_item *item, const collcalc_plan_query *q)
{
    if (item->crosses_node)
        snprintf(item->link, sizeof item->link, "%s+%s", q->cluster.intra.name,
                 q->cluster.inter.name);
    else
        snprintf(item->link, sizeof item->link, "%s", q->cluster.intra.name);
}

static void finish_item(collcalc_plan_item *item, double hidden, double slowdown)
{
    item->total_us = (double)item->count_per_step * item->time_us_each;
    item->hidden_fraction = hidden;
    item->exposed_us =
        item->total_us * (1.0 - hidden) + item->total_us * hidden * (slowdown - 1.0);
    item->dominant = item->latency_us_each >= item->bandwidth_us_each ? COLLCALC_DOMINANT_LATENCY
                                                                      : COLLCALC_DOMINANT_BANDWIDTH;
}

/* Costs a collective through the hook into item. */
static collcalc_status cost_item(const collcalc_plan_query *q, const group_place *p,
                                 collcalc_op op, uint64_t size, collcalc_plan_item *item,
                                 collcalc_diag *diag)
{
    collcalc_query query;
    collcalc_query_init(&query);
    query.op = op;
    query.size_bytes = size;
    group_cluster(q, p, &query.cluster);
    collcalc_result result;
    collcalc_status status = plan_cost(&q->costing, &query, &result, diag);
    if (status != COLLCALC_OK)
        return status;
    item->op = op;
    item->group_size = p->size;
    item->gpus_per_node = p->crosses ? query.cluster.gpus_per_node : p->size;
    item->nodes = p->nodes;
    item->crosses_node = p->crosses;
    item->message_bytes = size;
    item->latency_us_each = result.latency_us;
    item->bandwidth_us_each = result.bandwidth_us;
    item->time_us_each = result.time_us;
    /* the single command's name, lowercase: NVLSTree is not NVLS */
    snprintf(item->algo, sizeof item->algo, "%s",
             result.algo == COLLCALC_ALGO_NVLS && (result.facts & COLLCALC_FACT_NVLS_TREE)
                 ? "nvlstree"
                 : collcalc_algo_name(result.algo));
    set_link(item, q);
    return COLLCALC_OK;
}

static collcalc_plan_item *new_item(collcalc_plan_result *r, collcalc_comm_kind kind)
{
    collcalc_plan_item *item = &r->items[r->item_count++];
    memset(item, 0, sizeof *item);
    item->kind = kind;
    return item;
}

/* EP dispatch and combine through the MoE model. */
static collcalc_status ep_items(const collcalc_plan_query *q, collcalc_plan_result *r,
                                const group_place *p, uint64_t tokens_mb, long repeat,
                                collcalc_diag *diag)
{
    const collcalc_model_shape *m = q->model;
    collcalc_moe_query mq;
    collcalc_moe_query_init(&mq);
    mq.model = m;
    mq.ep = q->ep;
    mq.tokens = (tokens_mb + (uint64_t)q->tp - 1) / (uint64_t)q->tp;
    mq.dispatch_dtype = q->dispatch_dtype;
    mq.combine_dtype = q->combine_dtype;
    mq.mode = q->moe_mode_auto ? (q->workload == COLLCALC_WORKLOAD_DECODE
                                      ? COLLCALC_MOE_LOW_LATENCY
                                      : COLLCALC_MOE_NORMAL)
                               : q->moe_mode;
    group_cluster(q, p, &mq.cluster);
    mq.imbalance = q->imbalance;
    mq.calibration = q->calibration;
    mq.costing = q->costing;
    /* Pad the slots to a multiple of ep for costing; the rule check says so. */
    int slots = m->routed_experts + q->redundant_experts;
    int padded = (slots + q->ep - 1) / q->ep * q->ep;
    mq.redundant_experts = padded - m->routed_experts;
    collcalc_moe_result mr;
    collcalc_status status = collcalc_moe_evaluate(&mq, &mr, diag);
    if (status != COLLCALC_OK)
        return status;
    long count = (long)r->moe_layers_per_stage * repeat;
    /* DeepEP's kernel families; it runs on NVIDIA GPUs with NVLink only, so
     * elsewhere (AMD xGMI, PCIe) the all-to-all is named by its mode */
    bool deepep = !r->amd && q->cluster.intra.nvlink;
    const char *algo = mq.mode == COLLCALC_MOE_NORMAL
                           ? (deepep ? "deepep-normal" : "a2a-normal")
                           : (deepep ? "deepep-low-latency" : "a2a-low-latency");
    collcalc_plan_item *d = new_item(r, COLLCALC_COMM_EP_DISPATCH);
    collcalc_plan_item *c = new_item(r, COLLCALC_COMM_EP_COMBINE);
    collcalc_plan_item *both[2] = {d, c};
    for (int i = 0; i < 2; i++) {
        collcalc_plan_item *item = both[i];
        item->op = COLLCALC_OP_ALLTOALL;
        item->group_size = p->size;
        item->gpus_per_node = mr.gpus_per_node;
        item->nodes = mr.nodes;
        item->crosses_node = p->crosses;
        snprintf(item->algo, sizeof item->algo, "%s", algo);
        set_link(item, q);
        item->count_per_layer = 1;
        item->count_per_step = count;
    }
    d->message_bytes = plan_bytes(mr.dispatch_bytes_per_gpu);
    d->latency_us_each = mr.dispatch_latency_us;
    d->bandwidth_us_each = mr.dispatch_bandwidth_us;
    d->time_us_each = mr.dispatch_us;
    c->message_bytes = plan_bytes(mr.combine_bytes_per_gpu);
    c->latency_us_each = mr.combine_latency_us;
    c->bandwidth_us_each = mr.combine_bandwidth_us;
    c->time_us_each = mr.combine_us;
    finish_item(d, q->overlap_ep, q->sm_slowdown);
    finish_item(c, q->overlap_ep, q->sm_slowdown);
    return COLLCALC_OK;
}

static void rule_checks(const collcalc_plan_query *q, collcalc_plan_result *r,
                        const group_place *tp, const group_place *ep)
{
    const collcalc_model_shape *m = q->model;
    collcalc_findings *f = &r->findings;
    int g = q->cluster.gpus_per_node;
    if (q->gpus > 0 && q->gpus != r->gpus)
        collcalc_findings_add(f, COLLCALC_SEVERITY_ERROR, "gpus-product",
                              "choose degrees whose product is the GPU count",
                              "tp %d x cp %d x ep %d x pp %d x dp %d = %d GPUs, but %d are "
                              "given", q->tp, q->cp, q->ep, q->pp, q->dp, r->gpus, q->gpus);
    if (tp->crosses) {
        const collcalc_plan_item *worst = NULL;
        for (size_t i = 0; i < r->item_count; i++)
            if (r->items[i].kind <= COLLCALC_COMM_TP_ALLGATHER)
                worst = &r->items[i];
        collcalc_findings_add(f, COLLCALC_SEVERITY_ERROR, "tp-crosses-node",
                              "keep TP inside one NVLink domain and scale out with PP, EP or DP",
                              "TP crosses the node boundary: TP=%d spans %d nodes of %d GPUs, "
                              "so each of its %ld collectives per step pays %.1f us of fixed "
                              "cost over the network", q->tp, tp->nodes, g,
                              worst != NULL ? worst->count_per_step : 0L,
                              worst != NULL ? worst->latency_us_each : 0.0);
    }
    if (ep->crosses && q->ep > 1) {
        /* the advice moe gives: a rack-scale NVLink domain exists only on
         * NVIDIA; xGMI and PCIe stop at the node */
        char advice[96];
        if (r->amd || !q->cluster.intra.nvlink)
            snprintf(advice, sizeof advice, "keep EP inside one node (%d GPUs on %s) if it fits",
                     g, r->fabric);
        else if (g > 8)
            snprintf(advice, sizeof advice, "keep EP inside one %d-GPU NVLink domain if it fits",
                     g);
        else
            snprintf(advice, sizeof advice,
                     "keep EP inside one NVLink domain (e.g. a GB200 NVL72) if it fits");
        collcalc_findings_add(f, COLLCALC_SEVERITY_WARNING, "ep-crosses-node", advice,
                              "EP=%d spans %d nodes of %d GPUs: dispatch and combine cross the "
                              "network", q->ep, ep->nodes, g);
    }
    if (!plan_tp_divides_heads(m, q->tp))
        collcalc_findings_add(f, COLLCALC_SEVERITY_ERROR, "tp-heads",
                              "choose a TP degree that divides the attention heads",
                              "tp %d does not divide %s's %d attention heads", q->tp, m->name,
                              m->heads);
    if (m->attention == COLLCALC_ATTENTION_GQA && q->tp > m->kv_heads)
        collcalc_findings_add(f, COLLCALC_SEVERITY_WARNING, "tp-kv-replication",
                              "keep tp <= kv_heads, or accept the extra KV memory",
                              "tp %d exceeds %s's %d KV heads: each KV head is replicated on %d "
                              "ranks (KV memory x%d)", q->tp, m->name, m->kv_heads,
                              (q->tp + m->kv_heads - 1) / m->kv_heads,
                              (q->tp + m->kv_heads - 1) / m->kv_heads);
    if (m->attention == COLLCALC_ATTENTION_MLA && q->tp > 1)
        collcalc_findings_add(f, COLLCALC_SEVERITY_INFO, "tp-mla-replication",
                              "use DP attention (tp 1 per attention replica)",
                              "the MLA latent is shared by all heads: each of the %d TP ranks "
                              "keeps the whole KV cache", q->tp);
    if (collcalc_model_is_moe(m) && q->ep > 1) {
        int slots = m->routed_experts + q->redundant_experts;
        if (slots % q->ep != 0)
            collcalc_findings_add(f, COLLCALC_SEVERITY_ERROR, "ep-experts",
                                  "choose an EP degree that divides the expert slots, or add "
                                  "redundant experts to make it divide",
                                  "ep %d does not divide %s's %d expert slots: %d redundant "
                                  "experts make %d (--redundant-experts %d)", q->ep, m->name,
                                  slots, collcalc_moe_redundant_for(m, q->ep),
                                  m->routed_experts + collcalc_moe_redundant_for(m, q->ep),
                                  collcalc_moe_redundant_for(m, q->ep));
    }
    if (m->layers % q->pp != 0)
        collcalc_findings_add(f, COLLCALC_SEVERITY_WARNING, "pp-uneven",
                              "balance the stages by hand or choose pp dividing the layers",
                              "pp %d does not divide %d layers: stages hold %d or fewer, the "
                              "fullest decides", q->pp, m->layers, r->layers_per_stage);
    /* Training: a micro-batch (of one replica's EP rank; its cp ranks share
     * a sequence) should hold at least one whole sequence. */
    double per_mb = (double)q->tokens / ((double)q->dp * q->ep * r->micro_batches);
    if (q->workload == COLLCALC_WORKLOAD_TRAIN && r->context > 0 && per_mb < (double)r->context)
        collcalc_findings_add(f, COLLCALC_SEVERITY_WARNING, "train-partial-sequence",
                              "give --tokens at least dp x ep x micro-batches x context, fewer "
                              "--micro-batches, or a shorter --context",
                              "a micro-batch holds %.6g tokens (--tokens %llu / dp %d / ep %d / "
                              "--micro-batches %d), less than one %llu-token sequence (--context)",
                              per_mb, (unsigned long long)q->tokens, q->dp, q->ep,
                              r->micro_batches, (unsigned long long)r->context);
    if (q->redundant_experts > 0)
        collcalc_findings_add(f, COLLCALC_SEVERITY_INFO, "redundant-expert-memory", NULL,
                              "%d redundant experts: %d slots, expert weight memory +%.1f %%",
                              q->redundant_experts, m->routed_experts + q->redundant_experts,
                              100.0 * r->expert_memory_increase);
    if (r->memory_checked && r->weight_bytes_per_gpu > r->memory_capacity_bytes)
        collcalc_findings_add(f, COLLCALC_SEVERITY_ERROR, "weights-exceed-memory",
                              "shard the weights further (more TP, PP or EP), or store them in "
                              "a narrower format (--weight-dtype)",
                              "the weights alone need %.1f GB per GPU, more than the %.1f GB "
                              "usable of its %.0f GB", r->weight_bytes_per_gpu / 1e9,
                              r->memory_capacity_bytes / 1e9,
                              q->gpu_memory_GB > 0 ? q->gpu_memory_GB : q->gpu->memory_GB);
    else if (!r->fits) {
        char extra[64] = "";
        if (r->optimizer_bytes_per_gpu > 0)
            snprintf(extra, sizeof extra, ", gradients and optimizer %.1f",
                     r->optimizer_bytes_per_gpu / 1e9);
        collcalc_findings_add(f, COLLCALC_SEVERITY_ERROR, "memory-exceeded",
                              r->max_tokens > 0 ? "serve fewer tokens per step, shorten the "
                                                  "context, or shard further"
                                                : "shard further (more TP, PP or EP) or use "
                                                  "GPUs with more memory",
                              "needs %.1f GB per GPU (weights %.1f, KV cache %.1f, activations "
                              "%.1f, buffers %.1f%s), more than the %.1f GB usable",
                              r->memory_bytes_per_gpu / 1e9, r->weight_bytes_per_gpu / 1e9,
                              r->kv_bytes_per_gpu / 1e9, r->activation_bytes_per_gpu / 1e9,
                              r->buffer_bytes_per_gpu / 1e9, extra,
                              r->memory_capacity_bytes / 1e9);
    }
    if (!collcalc_model_is_moe(m)) {
        /* The dispatch options set on a dense model: one note naming them
         * (dtypes when they differ from the defaults, FP8 and BF16). */
        char given[160] = "";
        size_t n = 0;
        int count = 0;
#define NOTE_OPTION(cond, ...)                                                              \
    if ((cond) && n < sizeof given) {                                                       \
        n += (size_t)snprintf(given + n, sizeof given - n, "%s", count++ > 0 ? ", " : ""); \
        if (n < sizeof given)                                                               \
            n += (size_t)snprintf(given + n, sizeof given - n, __VA_ARGS__);                \
    }
        NOTE_OPTION(!q->moe_mode_auto, "--mode %s", collcalc_moe_mode_name(q->moe_mode))
        NOTE_OPTION(q->dispatch_dtype != COLLCALC_DTYPE_FP8, "--dispatch-dtype %s",
                    collcalc_dtype_name(q->dispatch_dtype))
        NOTE_OPTION(q->combine_dtype != COLLCALC_DTYPE_BF16, "--combine-dtype %s",
                    collcalc_dtype_name(q->combine_dtype))
        NOTE_OPTION(q->imbalance > 0, "--imbalance %g", q->imbalance)
#undef NOTE_OPTION
        if (count > 0)
            collcalc_findings_add(f, COLLCALC_SEVERITY_INFO, "moe-options-dense", NULL,
                                  "%s %s no effect: %s is dense (no expert dispatch)", given,
                                  count == 1 ? "has" : "have", m->name);
    }
    if (r->item_count > 0 && r->dominant == COLLCALC_DOMINANT_LATENCY)
        collcalc_findings_add(f, COLLCALC_SEVERITY_INFO, "latency-bound",
                              "larger batches cost little more communication per step",
                              "the step's communication is latency-bound: %.1f us of fixed cost "
                              "vs %.1f us moving bytes", r->latency_us, r->bandwidth_us);
    collcalc_findings_sort(f);
}

collcalc_status collcalc_plan_evaluate(const collcalc_plan_query *query,
                                       collcalc_plan_result *out_result, collcalc_diag *diag)
{
    if (out_result == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the plan");
    collcalc_status status = collcalc_plan_validate(query, diag);
    if (status != COLLCALC_OK)
        return status;
    const collcalc_plan_query *q = query;
    const collcalc_model_shape *m = q->model;
    collcalc_plan_result *r = out_result;
    memset(r, 0, sizeof *r);
    collcalc_findings_init(&r->findings);

    long world = (long)q->tp * q->cp * q->ep * q->pp * q->dp;
    r->gpus = (int)world;
    r->nodes = (int)((world + q->cluster.gpus_per_node - 1) / q->cluster.gpus_per_node);
    r->layers_per_stage = (m->layers + q->pp - 1) / q->pp;
    int moe_layers = collcalc_model_moe_layers(m);
    r->moe_layers_per_stage = (moe_layers + q->pp - 1) / q->pp;
    r->micro_batches = micro_batches(q);
    r->fabric = plan_fabric_of(&q->cluster.intra, &r->amd);
    /* The step's tokens are the deployment's: each DP replica takes its
     * share, then its ep x cp attention slices and micro-batches split it. */
    uint64_t per_replica = (q->tokens + (uint64_t)q->dp - 1) / (uint64_t)q->dp;
    uint64_t slices = (uint64_t)q->ep * (uint64_t)q->cp * (uint64_t)r->micro_batches;
    r->tokens_per_micro_batch = (per_replica + slices - 1) / slices;
    r->expert_memory_increase =
        collcalc_model_is_moe(m) ? (double)q->redundant_experts / m->routed_experts : 0.0;
    size_t used = 0;
    for (int i = 0; i < (int)COLLCALC_DIM_COUNT; i++)
        used += (size_t)snprintf(r->rank_order + used, sizeof r->rank_order - used, "%s%s",
                                 i > 0 ? "," : "", dim_words[q->order[i]]);

    bool train = q->workload == COLLCALC_WORKLOAD_TRAIN;
    long passes = train ? 2 : 1;
    long repeat = (long)r->micro_batches * passes;
    uint64_t b = collcalc_dtype_bytes(q->dtype);
    uint64_t h = (uint64_t)m->hidden_size;
    uint64_t activation = r->tokens_per_micro_batch * h * b;

    group_place tp = place_group(q, 1u << COLLCALC_DIM_TP, world);
    group_place ep = place_group(q, 1u << COLLCALC_DIM_EP, world);
    group_place pp = place_group(q, 1u << COLLCALC_DIM_PP, world);
    group_place cp = place_group(q, 1u << COLLCALC_DIM_CP, world);

    if (q->tp > 1) {
        long count = 2L * r->layers_per_stage * repeat;
        if (q->sp) {
            collcalc_op ops[2] = {COLLCALC_OP_REDUCESCATTER, COLLCALC_OP_ALLGATHER};
            collcalc_comm_kind kinds[2] = {COLLCALC_COMM_TP_REDUCESCATTER,
                                           COLLCALC_COMM_TP_ALLGATHER};
            for (int i = 0; i < 2; i++) {
                collcalc_plan_item *item = new_item(r, kinds[i]);
                status = cost_item(q, &tp, ops[i], activation, item, diag);
                if (status != COLLCALC_OK)
                    return status;
                item->count_per_layer = 2.0 * (double)passes;
                item->count_per_step = count;
                finish_item(item, q->overlap_tp, q->sm_slowdown);
            }
        } else {
            collcalc_plan_item *item = new_item(r, COLLCALC_COMM_TP_ALLREDUCE);
            status = cost_item(q, &tp, COLLCALC_OP_ALLREDUCE, activation, item, diag);
            if (status != COLLCALC_OK)
                return status;
            item->count_per_layer = 2.0 * (double)passes;
            item->count_per_step = count;
            finish_item(item, q->overlap_tp, q->sm_slowdown);
        }
    }
    if (q->ep > 1) {
        status = ep_items(q, r, &ep, r->tokens_per_micro_batch, repeat, diag);
        if (status != COLLCALC_OK)
            return status;
    }
    if (q->pp > 1) {
        group_place pair = pp;
        pair.size = 2;
        pair.per_node = pp.per_node >= 2 ? 2 : 1;
        pair.nodes = pair.per_node == 2 && !pp.crosses ? 1 : 2;
        pair.crosses = pp.crosses;
        collcalc_plan_item *item = new_item(r, COLLCALC_COMM_PP_SENDRECV);
        uint64_t size = (activation + (uint64_t)q->tp - 1) / (uint64_t)q->tp;
        status = cost_item(q, &pair, COLLCALC_OP_SENDRECV, size, item, diag);
        if (status != COLLCALC_OK)
            return status;
        item->group_size = q->pp;
        /* On the pipeline's critical path: the first micro-batch crosses
         * pp - 1 boundaries, each later one adds one; training again backward. */
        item->count_per_step = ((long)r->micro_batches + q->pp - 2) * passes;
        finish_item(item, q->overlap_pp, q->sm_slowdown);
    }
    if (q->cp > 1) {
        /* Ring attention: the KV block of this rank's tokens, its TP share. */
        collcalc_kv_query kq;
        collcalc_kv_query_init(&kq);
        kq.model = m;
        kq.tokens = r->tokens_per_micro_batch;
        kq.dtype = q->dtype;
        kq.tp = q->tp;
        collcalc_kv_result kr;
        status = collcalc_kv_evaluate(&kq, &kr, diag);
        if (status != COLLCALC_OK)
            return status;
        uint64_t block = kr.kv_bytes_per_shard / (uint64_t)m->layers;
        if (block == 0)
            block = 1;
        group_place pair = cp;
        pair.size = 2;
        pair.per_node = cp.per_node >= 2 ? 2 : 1;
        pair.crosses = cp.crosses;
        pair.nodes = pair.crosses ? 2 : 1;
        collcalc_plan_item *item = new_item(r, COLLCALC_COMM_CP_RING);
        status = cost_item(q, &pair, COLLCALC_OP_SENDRECV, block, item, diag);
        if (status != COLLCALC_OK)
            return status;
        item->group_size = q->cp;
        item->count_per_layer = (double)(q->cp - 1) * (double)passes;
        item->count_per_step = (long)(q->cp - 1) * r->layers_per_stage * repeat;
        finish_item(item, q->overlap_tp, q->sm_slowdown);
    }
    if (train) {
        double grad = q->grad_bytes > 0 ? q->grad_bytes : 2;
        double expert_params = collcalc_model_expert_params(m);
        double dense_params = m->params_billion * 1e9 - expert_params;
        if (dense_params < 0)
            dense_params = 0;
        unsigned dense_mask = (1u << COLLCALC_DIM_CP) | (1u << COLLCALC_DIM_EP) |
                              (1u << COLLCALC_DIM_DP);
        unsigned expert_mask = (1u << COLLCALC_DIM_TP) | (1u << COLLCALC_DIM_CP) |
                               (1u << COLLCALC_DIM_DP);
        group_place dense = place_group(q, dense_mask, world);
        if (dense.size > 1 && dense_params > 0) {
            uint64_t size = plan_bytes(dense_params / ((double)q->tp * q->pp) * grad);
            collcalc_plan_item *item = new_item(r, COLLCALC_COMM_DP_ALLREDUCE);
            status = cost_item(q, &dense, COLLCALC_OP_ALLREDUCE, size, item, diag);
            if (status != COLLCALC_OK)
                return status;
            item->count_per_step = 1;
            finish_item(item, q->overlap_dp, q->sm_slowdown);
        }
        group_place experts = place_group(q, expert_mask, world);
        if (experts.size > 1 && expert_params > 0) {
            uint64_t size = plan_bytes(expert_params / ((double)q->ep * q->pp) * grad);
            collcalc_plan_item *item = new_item(r, COLLCALC_COMM_DP_EXPERT_ALLREDUCE);
            status = cost_item(q, &experts, COLLCALC_OP_ALLREDUCE, size, item, diag);
            if (status != COLLCALC_OK)
                return status;
            item->count_per_step = 1;
            finish_item(item, q->overlap_dp, q->sm_slowdown);
        }
    }

    for (size_t i = 0; i < r->item_count; i++) {
        const collcalc_plan_item *item = &r->items[i];
        r->comm_us += item->total_us;
        r->exposed_us += item->exposed_us;
        r->latency_us += (double)item->count_per_step * item->latency_us_each;
        r->bandwidth_us += (double)item->count_per_step * item->bandwidth_us_each;
        if (item->crosses_node && item->latency_us_each > r->cross_node_fixed_us)
            r->cross_node_fixed_us = item->latency_us_each;
    }
    r->floor_us = r->exposed_us;
    status = plan_memory(q, r, ep.crosses, diag);
    if (status != COLLCALC_OK)
        return status;
    plan_step_time(q, r);
    r->dominant = r->item_count == 0 ? COLLCALC_DOMINANT_NONE
                  : r->latency_us >= r->bandwidth_us ? COLLCALC_DOMINANT_LATENCY
                                                     : COLLCALC_DOMINANT_BANDWIDTH;
    rule_checks(q, r, &tp, &ep);
    if (!isfinite(r->comm_us) || !isfinite(r->exposed_us))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "the plan produced a non-finite time");
    return COLLCALC_OK;
}
