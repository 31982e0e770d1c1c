/* One MoE layer's expert-parallel dispatch and combine, with DeepEP's byte
 * accounting and its two kernel families (constants and their sources in
 * src/plan/calibration.c).
 *
 * Bytes per selected (token, expert): FP8 dispatch H + H/128 x 4 + 16 (the
 * payload, one fp32 scale per 128 values, 16 B of metadata); BF16 H x 2.
 * Uniform routing over E experts on `ep` GPUs, G of them per node: a
 * selection stays on the GPU with probability 1/ep, reaches another GPU of
 * the node with (G-1)/ep and another node with (ep-G)/ep.
 *
 * normal: a token crosses the network once per destination node (the
 *   distinct nodes among its selections; with node-limited routing those
 *   lie in its top groups' nodes), then fans out over NVLink inside the
 *   destination node. Bandwidth-bound: base + max(RDMA bytes / NIC rate,
 *   NVLink bytes / NVLink rate).
 * low-latency: every selection goes straight to its GPU (NVLink inside the
 *   node, RDMA across), one message each: base + messages x per-message
 *   cost + the larger byte term; combine also waits on one flag per peer.
 * The hottest GPU decides: the byte terms are multiplied by max/mean. */
#include "plan_internal.h"
#include "collcalc/alloc.h"
#include "helpers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mode_words[] = {"normal", "low-latency"};

const char *collcalc_moe_mode_name(collcalc_moe_mode mode)
{
    return plan_word_name(mode_words, PLAN_COUNT_OF(mode_words), (int)mode);
}

collcalc_status collcalc_moe_mode_from_name(const char *name, collcalc_moe_mode *out_mode,
                                            collcalc_diag *diag)
{
    size_t i = plan_word_index(mode_words, PLAN_COUNT_OF(mode_words), name);
    if (i == PLAN_COUNT_OF(mode_words) && plan_names_equal(name, "low_latency"))
        i = COLLCALC_MOE_LOW_LATENCY;
    if (i == PLAN_COUNT_OF(mode_words) && plan_names_equal(name, "ll"))
        i = COLLCALC_MOE_LOW_LATENCY;
    if (i == PLAN_COUNT_OF(mode_words) || out_mode == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "unknown MoE mode '%.40s' (use normal or low-latency)",
                                  name != NULL ? name : "");
    *out_mode = (collcalc_moe_mode)i;
    return COLLCALC_OK;
}

void collcalc_moe_query_init(collcalc_moe_query *query)
{
    if (query == NULL)
        return;
    memset(query, 0, sizeof *query);
    query->dispatch_dtype = COLLCALC_DTYPE_FP8;
    query->combine_dtype = COLLCALC_DTYPE_BF16;
    query->mode = COLLCALC_MOE_NORMAL;
    collcalc_cluster_init(&query->cluster);
    query->node_limited = true;
    query->split_batch = 1;
    query->sm_slowdown = 1.0;
    collcalc_moe_calibration_init(&query->calibration);
}

/* Bytes of one selection in dtype (DeepEP's accounting for FP8). */
/* DeepEP's Buffer (csrc/deep_ep.cpp, deepseek-ai/DeepEP) asserts
 * num_ranks < NUM_MAX_NVL_PEERS or num_ranks % NUM_MAX_NVL_PEERS == 0,
 * NUM_MAX_NVL_PEERS = 8 (csrc/kernels/configs.cuh): ranks come in groups
 * of 8 GPUs (doc/MODEL.md §20.5). */
enum { DEEPEP_NVL_PEERS = 8 };

static bool deepep_runs(int ep)
{
    return ep < DEEPEP_NVL_PEERS || ep % DEEPEP_NVL_PEERS == 0;
}

static uint64_t selection_bytes(collcalc_dtype dtype, uint64_t hidden)
{
    if (dtype == COLLCALC_DTYPE_FP8)
        return hidden + hidden / 128 * 4 + 16;
    return hidden * collcalc_dtype_bytes(dtype);
}

static collcalc_status check_query(const collcalc_moe_query *q, collcalc_diag *diag)
{
    const collcalc_model_shape *m = q->model;
    if (m == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no model given");
    if (!collcalc_model_is_moe(m))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s is a dense model: it has no experts to dispatch to",
                                  m->name);
    if (q->redundant_experts < 0 || q->redundant_experts > COLLCALC_MOE_EXPERTS_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--redundant-experts must be between 0 and %d (got %d)",
                                  COLLCALC_MOE_EXPERTS_MAX, q->redundant_experts);
    int slots = m->routed_experts + q->redundant_experts;
    if (q->ep < 2)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--ep must be at least 2 for a dispatch (got %d)", q->ep);
    if (q->ep > slots)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--ep %d is larger than %s's %d expert slots", q->ep, m->name,
                                  slots);
    if (slots % q->ep != 0) {
        int r = collcalc_moe_redundant_for(m, q->ep);
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--ep %d does not divide the %d expert slots (%d routed + %d "
                                  "redundant): %d redundant experts make %d slots, %d per GPU "
                                  "(+%.1f %% expert memory)", q->ep, slots, m->routed_experts,
                                  q->redundant_experts, r, m->routed_experts + r,
                                  (m->routed_experts + r) / q->ep,
                                  100.0 * r / m->routed_experts);
    }
    if (q->tokens == 0 || q->tokens > COLLCALC_TOKENS_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--tokens must be between 1 and %llu (got %llu)",
                                  (unsigned long long)COLLCALC_TOKENS_MAX,
                                  (unsigned long long)q->tokens);
    if (q->dispatch_dtype != COLLCALC_DTYPE_FP8 && q->dispatch_dtype != COLLCALC_DTYPE_BF16)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--dispatch-dtype must be fp8 or bf16");
    if (q->combine_dtype != COLLCALC_DTYPE_FP8 && q->combine_dtype != COLLCALC_DTYPE_BF16)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--combine-dtype must be bf16 or fp8");
    if (q->mode != COLLCALC_MOE_NORMAL && q->mode != COLLCALC_MOE_LOW_LATENCY)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "--mode: unknown MoE mode");
    /* max/mean of the GPU loads is at most ep: every selection on one GPU. */
    if (q->imbalance != 0 &&
        !plan_in_range(q->imbalance, 1.0, fmin(COLLCALC_MOE_IMBALANCE_MAX, (double)q->ep)))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--imbalance (max/mean) must be between 1 and %d, the EP degree "
                                  "(all selections on one GPU) (got %g)", q->ep, q->imbalance);
    if (!plan_in_range(q->zipf_s, 0.0, COLLCALC_MOE_ZIPF_MAX))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--zipf must be between 0 and %g (got %g)",
                                  COLLCALC_MOE_ZIPF_MAX, q->zipf_s);
    if ((q->expert_loads != NULL || q->zipf_s > 0) &&
        m->routed_experts > COLLCALC_MOE_EXPERTS_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "per-expert loads (--zipf, --expert-loads) are modelled for at "
                                  "most %d experts (%s has %d)", COLLCALC_MOE_EXPERTS_MAX,
                                  m->name, m->routed_experts);
    if (q->expert_loads != NULL) {
        if (q->expert_load_count != (size_t)m->routed_experts)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--expert-loads lists %zu experts; %s has %d",
                                      q->expert_load_count, m->name, m->routed_experts);
        double total = 0;
        for (size_t i = 0; i < q->expert_load_count; i++) {
            if (!plan_in_range(q->expert_loads[i], 0.0, 1e18))
                return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                          "--expert-loads: expert %zu: load must be finite "
                                          "and >= 0", i);
            total += q->expert_loads[i];
        }
        if (total <= 0)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--expert-loads: the loads are all zero");
    }
    if (q->split_batch != 1 && q->split_batch != 2)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--split-batch must be 1 or 2 (got %d)", q->split_batch);
    if (!plan_in_range(q->router_us, 0, 1e9) || !plan_in_range(q->expert_compute_us, 0, 1e9))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--router-time and --expert-time must be finite and >= 0");
    if (!plan_in_range(q->sm_slowdown, 1.0, COLLCALC_MOE_SM_SLOWDOWN_MAX))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--sm-slowdown must be between 1 and %g (got %g)",
                                  COLLCALC_MOE_SM_SLOWDOWN_MAX, q->sm_slowdown);
    const collcalc_moe_calibration *c = &q->calibration;
    if (!plan_in_range(c->normal_nvlink_efficiency, 1e-6, 1) ||
        !plan_in_range(c->normal_rdma_efficiency, 1e-6, 1) ||
        !plan_in_range(c->ll_nvlink_efficiency, 1e-6, 1) ||
        !plan_in_range(c->ll_rdma_efficiency, 1e-6, 1) ||
        !plan_in_range(c->normal_base_us, 0, 1e6) || !plan_in_range(c->ll_base_us, 0, 1e6) ||
        !plan_in_range(c->normal_rdma_peer_GBps, 0, 1e6) ||
        !plan_in_range(c->ll_per_message_us, 0, 1e6) ||
        !plan_in_range(c->ll_combine_per_peer_us, 0, 1e6) ||
        !plan_in_range(c->nvl_efficiency, 1e-6, 1) ||
        !plan_in_range(c->nvl_dispatch_floor_us, 0, 1e6) ||
        !plan_in_range(c->nvl_combine_floor_us, 0, 1e6) ||
        !plan_in_range(c->nvl_dispatch_start_us, 0, 1e6) ||
        !plan_in_range(c->nvl_combine_start_us, 0, 1e6))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "MoE calibration out of range (efficiencies in (0, 1], costs "
                                  "finite, >= 0)");
    return plan_check_cluster(&q->cluster, diag);
}

/* The scale-up fabric by the intra link's name (data/links.json:
 * xgmi-mi300x and xgmi-mi355x are AMD Infinity Fabric, pcie* PCIe) or its
 * class (nvlink). */
static bool name_starts(const char *name, const char *prefix)
{
    for (; *prefix != '\0'; name++, prefix++)
        if (*name == '\0' || (*name | 0x20) != *prefix)
            return false;
    return true;
}

const char *plan_fabric_of(const collcalc_link_params *intra, bool *out_amd)
{
    *out_amd = name_starts(intra->name, "xgmi");
    if (*out_amd)
        return "xGMI";
    if (intra->nvlink)
        return "NVLink";
    return name_starts(intra->name, "pcie") ? "PCIe" : "intra-node link";
}

/* Small deterministic generator (xorshift64*) for the zipf placement. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * UINT64_C(2685821657736338717);
}

/* Per-expert loads into loads[0..E): given, zipf, or NULL when uniform. */
static const double *expert_loads(const collcalc_moe_query *q, double *scratch,
                                  const char **out_from)
{
    int e = q->model->routed_experts;
    if (q->expert_loads != NULL) {
        *out_from = "expert loads";
        return q->expert_loads;
    }
    if (q->zipf_s > 0) {
        /* Rank r (1-based) carries 1 / r^s; ranks are dealt to experts by a
         * fixed shuffle so the hottest experts are not neighbours by id. */
        int order[COLLCALC_MOE_EXPERTS_MAX];
        for (int i = 0; i < e; i++)
            order[i] = i;
        uint64_t state = UINT64_C(0x9E3779B97F4A7C15);
        for (int i = e - 1; i > 0; i--) {
            int j = (int)(next_random(&state) % (uint64_t)(i + 1));
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int r = 0; r < e; r++)
            scratch[order[r]] = 1.0 / pow((double)(r + 1), q->zipf_s);
        *out_from = "zipf";
        return scratch;
    }
    *out_from = "uniform";
    return NULL;
}

/* max/mean of GPU loads with experts placed contiguously by id. */
static double static_imbalance(const double *loads, int experts, int ep)
{
    int per_gpu = experts / ep;
    int rest = experts % ep;
    double max = 0, total = 0;
    int e = 0;
    for (int g = 0; g < ep; g++) {
        int count = per_gpu + (g < rest ? 1 : 0);
        double sum = 0;
        for (int k = 0; k < count; k++)
            sum += loads[e++];
        total += sum;
        if (sum > max)
            max = sum;
    }
    return total > 0 ? max / (total / ep) : 1.0;
}

typedef struct {
    double load; /* per replica */
    int expert;
} replica;

static int by_load_desc(const void *a, const void *b)
{
    const replica *x = a, *y = b;
    if (x->load != y->load)
        return x->load < y->load ? 1 : -1;
    return x->expert - y->expert;
}

/* Greedy rebalancing (as EPLB does): give the R extra slots one by one to
 * the expert with the highest load per replica, then place replicas
 * heaviest first on the least-loaded GPU with a free slot. Returns max/mean,
 * or -1 when out of memory (the caller reports COLLCALC_ERR_NOMEM). */
static double rebalanced_imbalance(const double *loads, int experts, int redundant, int ep)
{
    int slots = experts + redundant;
    int replicas[COLLCALC_MOE_EXPERTS_MAX];
    for (int i = 0; i < experts; i++)
        replicas[i] = 1;
    for (int r = 0; r < redundant; r++) {
        int best = 0;
        for (int i = 1; i < experts; i++)
            if (loads[i] / replicas[i] > loads[best] / replicas[best])
                best = i;
        replicas[best]++;
    }
    replica *list = collcalc_mem_malloc((size_t)slots * sizeof *list);
    double *gpu = collcalc_mem_calloc((size_t)ep, sizeof *gpu);
    int *used = collcalc_mem_calloc((size_t)ep, sizeof *used);
    double result = -1.0;
    if (list != NULL && gpu != NULL && used != NULL) {
        int n = 0;
        for (int i = 0; i < experts; i++)
            for (int k = 0; k < replicas[i]; k++)
                list[n++] = (replica){loads[i] / replicas[i], i};
        qsort(list, (size_t)n, sizeof *list, by_load_desc);
        int capacity = slots / ep;
        double total = 0, max = 0;
        for (int k = 0; k < n; k++) {
            int best = -1;
            for (int g = 0; g < ep; g++)
                if (used[g] < capacity && (best < 0 || gpu[g] < gpu[best]))
                    best = g;
            if (best < 0)
                break;
            gpu[best] += list[k].load;
            used[best]++;
            total += list[k].load;
        }
        for (int g = 0; g < ep; g++)
            if (gpu[g] > max)
                max = gpu[g];
        result = total > 0 ? max / (total / ep) : 1.0;
    }
    collcalc_mem_free(list);
    collcalc_mem_free(gpu);
    collcalc_mem_free(used);
    return result;
}

/* How often a token reaches a node of `node_gpus` GPUs and the expected
 * distinct destination nodes of a token (its own included) when the EP
 * group fills nodes-1 nodes of g GPUs and a last one of `last` (== g when
 * even). A node's hit probability depends only on its size, so a token
 * on a node of size s reaches touched - hit(s) remote nodes. */
typedef struct {
    double touched;
    double hit_full, hit_last; /* P(a token's selections reach a full / the last node) */
    bool limited;              /* the model's group limit was applied */
} node_reach;

static node_reach nodes_touched(const collcalc_moe_query *q, int ep, int nodes, int g, int last)
{
    const collcalc_model_shape *m = q->model;
    node_reach out = {1.0, 1.0, 1.0, false};
    if (nodes <= 1)
        return out;
    double k = m->experts_per_token, n = nodes;
    int experts = m->routed_experts;
    int groups = m->expert_groups, top = m->top_groups;
    long full_experts = (long)experts * g, last_experts = (long)experts * last;
    if (q->node_limited && groups > 1 && top < groups) {
        /* Groups whole on each node (DeepSeek-V3's 8 groups on 2, 4 or 8
         * nodes, or on 24 + 8 GPUs: 6 + 2 groups): a node of h groups is
         * missed when the token's top groups avoid all h. */
        long per_group = experts % groups == 0 ? experts / groups : 0;
        if (per_group > 0 && full_experts % ep == 0 && last_experts % ep == 0 &&
            (full_experts / ep) % per_group == 0 && (last_experts / ep) % per_group == 0) {
            double h_full = (double)(full_experts / ep / per_group);
            double h_last = (double)(last_experts / ep / per_group);
            out.hit_full = 1.0 - plan_prob_miss(groups, h_full, top);
            out.hit_last = 1.0 - plan_prob_miss(groups, h_last, top);
            out.touched = (n - 1.0) * out.hit_full + out.hit_last;
            out.limited = true;
            return out;
        }
        if (last == g && nodes > groups && nodes % groups == 0) {
            /* Each group spans nodes/groups nodes: the token's top groups
             * give span candidate nodes, each hit with 1 - (1 - 1/span)^k. */
            double span = (double)(nodes / groups) * top;
            double hit = 1.0 - pow(1.0 - 1.0 / span, k);
            out.touched = span * hit;
            out.hit_full = out.hit_last = ((double)top / groups) * hit;
            out.limited = true;
            return out;
        }
    }
    /* Without a group limit: k draws of E experts miss a node's m. */
    out.hit_full = 1.0 - plan_prob_miss(experts, (double)lround((double)full_experts / ep), k);
    out.hit_last = 1.0 - plan_prob_miss(experts, (double)lround((double)last_experts / ep), k);
    out.touched = (n - 1.0) * out.hit_full + out.hit_last;
    return out;
}

/* One GPU of the layout: the figures of a GPU on a node of node_gpus. */
typedef struct {
    int node_gpus;
    double share_local, share_nvlink, share_network; /* of its selections */
    double remote_nodes;                             /* per token */
    double nic_share;                                /* NICs' worth it drives */
} gpu_view;

static gpu_view view_of(const collcalc_moe_query *q, int ep, int nodes, int node_gpus,
                        double hit, const node_reach *reach)
{
    gpu_view v;
    v.node_gpus = node_gpus;
    v.share_local = 1.0 / ep;
    v.share_nvlink = (double)(node_gpus - 1) / ep;
    v.share_network = (double)(ep - node_gpus) / ep;
    v.remote_nodes = nodes > 1 ? reach->touched - hit : 0.0;
    /* NIC bandwidth one GPU gets: its node's NICs shared by its GPUs; a
     * partial node's r GPUs drive min(K, r x NICs per GPU) and never get
     * less than a full node's (doc/MODEL.md §3). */
    const collcalc_cluster *c = &q->cluster;
    double full = (double)c->nics_per_node / (double)c->gpus_per_node;
    int per_gpu = c->nics_per_gpu > 0 ? c->nics_per_gpu : 1;
    double drives = fmin((double)c->nics_per_node, (double)node_gpus * per_gpu) / node_gpus;
    v.nic_share = node_gpus < c->gpus_per_node ? fmax(full, drives) : full;
    if (v.nic_share > 1.0 && q->mode == COLLCALC_MOE_LOW_LATENCY)
        v.nic_share = 1.0; /* one NIC per GPU: DeepEP binds each GPU to its own NIC */
    return v;
}

/* Times of one dispatch and one combine for `tokens` tokens per GPU. */
typedef struct {
    double dispatch_us, dispatch_latency_us, dispatch_bandwidth_us;
    double combine_us, combine_latency_us, combine_bandwidth_us;
    double d_local, d_nvlink, d_network, c_nvlink, c_network;
} moe_times;

static void layer_times(const collcalc_moe_query *q, const collcalc_moe_result *r,
                        const gpu_view *v, double tokens, double imbalance, moe_times *t)
{
    const collcalc_moe_calibration *c = &q->calibration;
    double k = q->model->experts_per_token;
    double sel = tokens * k;
    double d_b = (double)r->dispatch_bytes_per_selection;
    double c_b = (double)r->combine_bytes_per_selection;
    double g = v->node_gpus;
    double nic_GBps = q->cluster.inter.bw_GBps * v->nic_share;
    double nvl_GBps = q->cluster.intra.bw_GBps;
    memset(t, 0, sizeof *t);
    t->d_local = sel * v->share_local * d_b;
    if (r->mnnvl && r->nodes == 1) {
        /* The whole EP group inside one rack-scale NVLink domain: both modes
         * are the one-sided NVLink all-to-all (dispatch pushes each selection
         * into its peer's symmetric memory and ends in a flag barrier;
         * combine starts with one, pulls and reduces). Small batches sit on
         * the kernel's floor; large ones start after `start` and stream at
         * the NVLink rate; each barrier writes and polls one flag per peer. */
        t->d_nvlink = sel * v->share_nvlink * d_b;
        t->c_nvlink = sel * v->share_nvlink * c_b;
        double rate = c->nvl_efficiency * nvl_GBps * 1e3;
        double flags = (r->ep - 1) * c->ll_combine_per_peer_us;
        double d_bw = t->d_nvlink / rate * imbalance;
        double c_bw = t->c_nvlink / rate * imbalance;
        double d_total = fmax(c->nvl_dispatch_floor_us, c->nvl_dispatch_start_us + d_bw) + flags;
        double c_total = fmax(c->nvl_combine_floor_us, c->nvl_combine_start_us + c_bw) + flags;
        t->dispatch_bandwidth_us = d_bw;
        t->combine_bandwidth_us = c_bw;
        t->dispatch_latency_us = d_total - d_bw;
        t->combine_latency_us = c_total - c_bw;
    } else if (q->mode == COLLCALC_MOE_NORMAL) {
        double fan_out = r->nodes > 1 ? (1.0 - 1.0 / g) : v->share_nvlink;
        t->d_nvlink = sel * fan_out * d_b;
        t->c_nvlink = sel * fan_out * c_b;
        t->d_network = tokens * v->remote_nodes * d_b;
        t->c_network = tokens * v->remote_nodes * c_b;
        double nvl_rate = c->normal_nvlink_efficiency * nvl_GBps * 1e3; /* bytes per us */
        double net_rate = c->normal_rdma_efficiency * nic_GBps * 1e3;
        /* Each remote node is one peer (the same-index GPU there): a peer's
         * stream has its own ceiling (calibration.c). */
        double peers = r->nodes > 1 ? fmin(r->nodes - 1.0, fmax(1.0, v->remote_nodes))
                                    : 0.0;
        if (c->normal_rdma_peer_GBps > 0 && peers > 0 &&
            net_rate > peers * c->normal_rdma_peer_GBps * 1e3)
            net_rate = peers * c->normal_rdma_peer_GBps * 1e3;
        double d_bw = fmax(t->d_nvlink / nvl_rate, t->d_network / net_rate) * imbalance;
        double c_bw = fmax(t->c_nvlink / nvl_rate, t->c_network / net_rate) * imbalance;
        t->dispatch_latency_us = c->normal_base_us;
        t->combine_latency_us = c->normal_base_us;
        t->dispatch_bandwidth_us = d_bw;
        t->combine_bandwidth_us = c_bw;
    } else {
        t->d_nvlink = sel * v->share_nvlink * d_b;
        t->c_nvlink = sel * v->share_nvlink * c_b;
        t->d_network = sel * v->share_network * d_b;
        t->c_network = sel * v->share_network * c_b;
        double nvl_rate = c->ll_nvlink_efficiency * nvl_GBps * 1e3;
        double net_rate = c->ll_rdma_efficiency * nic_GBps * 1e3;
        /* On 8-GPU nodes DeepEP's low-latency kernels send every
         * selection as an RDMA message, inside the node too (its README:
         * pure RDMA), which the per-message cost was fitted on; in a
         * multi-node NVLink domain (G > 8: GB200/GB300 NVL72) selections
         * inside it are NVLink stores (TensorRT-LLM's MNNVL all-to-all,
         * DeepEP's NVLink path) and only those leaving it are messages. */
        double messages = r->mnnvl ? sel * v->share_network : sel * (1.0 - v->share_local);
        t->dispatch_latency_us = c->ll_base_us + messages * c->ll_per_message_us;
        t->combine_latency_us = t->dispatch_latency_us + (r->ep - 1) * c->ll_combine_per_peer_us;
        t->dispatch_bandwidth_us =
            fmax(t->d_nvlink / nvl_rate, t->d_network / net_rate) * imbalance;
        t->combine_bandwidth_us =
            fmax(t->c_nvlink / nvl_rate, t->c_network / net_rate) * imbalance;
    }
    t->dispatch_us = t->dispatch_latency_us + t->dispatch_bandwidth_us;
    t->combine_us = t->combine_latency_us + t->combine_bandwidth_us;
}

/* Two-stream schedule of the split batch: compute (router, experts) and
 * communication (dispatch, combine); each op starts when its stream is
 * free and its predecessor in the same half has finished. */
static void timeline(const collcalc_moe_query *q, collcalc_moe_result *r, const moe_times *full,
                     const moe_times *half)
{
    r->serial_us = q->router_us + full->dispatch_us + q->expert_compute_us + full->combine_us;
    if (q->split_batch == 1) {
        const char *labels[] = {"router", "dispatch", "experts", "combine"};
        double lengths[] = {q->router_us, full->dispatch_us, q->expert_compute_us,
                            full->combine_us};
        double at = 0;
        for (size_t i = 0; i < 4; i++) {
            collcalc_moe_event *ev = &r->events[r->event_count++];
            strcpy(ev->label, labels[i]);
            ev->half = 0;
            ev->communication = (i % 2) == 1;
            ev->start_us = at;
            at += lengths[i];
            ev->end_us = at;
        }
        r->timeline_us = at;
        r->hidden_us = 0;
        return;
    }
    /* Compute overlapping communication runs slower (SM contention). */
    double router = q->router_us / 2 * q->sm_slowdown;
    double experts = q->expert_compute_us / 2 * q->sm_slowdown;
    double compute_free = 0, comm_free = 0;
    double router_end[2], dispatch_end[2], experts_end[2];
    const char *names[2] = {"A", "B"};
    /* Program order: router A, router B, experts A, experts B on compute;
     * dispatch A, dispatch B, combine A, combine B on communication. */
    for (int h = 0; h < 2; h++) {
        collcalc_moe_event *ev = &r->events[r->event_count++];
        snprintf(ev->label, sizeof ev->label, "router %s", names[h]);
        ev->half = h;
        ev->communication = false;
        ev->start_us = compute_free;
        ev->end_us = ev->start_us + router;
        compute_free = router_end[h] = ev->end_us;
    }
    for (int h = 0; h < 2; h++) {
        collcalc_moe_event *ev = &r->events[r->event_count++];
        snprintf(ev->label, sizeof ev->label, "dispatch %s", names[h]);
        ev->half = h;
        ev->communication = true;
        ev->start_us = fmax(comm_free, router_end[h]);
        ev->end_us = ev->start_us + half->dispatch_us;
        comm_free = dispatch_end[h] = ev->end_us;
    }
    for (int h = 0; h < 2; h++) {
        collcalc_moe_event *ev = &r->events[r->event_count++];
        snprintf(ev->label, sizeof ev->label, "experts %s", names[h]);
        ev->half = h;
        ev->communication = false;
        ev->start_us = fmax(compute_free, dispatch_end[h]);
        ev->end_us = ev->start_us + experts;
        compute_free = experts_end[h] = ev->end_us;
    }
    for (int h = 0; h < 2; h++) {
        collcalc_moe_event *ev = &r->events[r->event_count++];
        snprintf(ev->label, sizeof ev->label, "combine %s", names[h]);
        ev->half = h;
        ev->communication = true;
        ev->start_us = fmax(comm_free, experts_end[h]);
        ev->end_us = ev->start_us + half->combine_us;
        comm_free = ev->end_us;
    }
    r->timeline_us = fmax(compute_free, comm_free);
    /* Never negative: a split that is slower than serial hides nothing
     * (the renderer prints the excess as "slower"). */
    r->hidden_us = fmax(0.0, r->serial_us - r->timeline_us);
}

collcalc_status collcalc_moe_evaluate(const collcalc_moe_query *query,
                                      collcalc_moe_result *out_result, collcalc_diag *diag)
{
    if (query == NULL || out_result == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no MoE query");
    collcalc_status status = check_query(query, diag);
    if (status != COLLCALC_OK)
        return status;
    const collcalc_moe_query *q = query;
    const collcalc_model_shape *m = q->model;
    collcalc_moe_result *r = out_result;
    memset(r, 0, sizeof *r);
    collcalc_findings_init(&r->findings);

    int ep = q->ep;
    int g = q->cluster.gpus_per_node < ep ? q->cluster.gpus_per_node : ep;
    r->ep = ep;
    r->gpus_per_node = g;
    r->nodes = (ep + g - 1) / g;
    r->slots = m->routed_experts + q->redundant_experts;
    r->slots_per_gpu = r->slots / ep;
    r->expert_memory_increase = (double)q->redundant_experts / m->routed_experts;
    uint64_t hidden = (uint64_t)m->hidden_size;
    r->dispatch_bytes_per_selection = selection_bytes(q->dispatch_dtype, hidden);
    r->combine_bytes_per_selection = selection_bytes(q->combine_dtype, hidden);
    double k = m->experts_per_token;
    r->selections_per_gpu = (double)q->tokens * k;
    r->mnnvl = q->cluster.gpus_per_node > 8;
    r->fabric = plan_fabric_of(&q->cluster.intra, &r->amd);
    /* The layout: nodes - 1 full nodes of g GPUs and a last one of `last`
     * (MODEL.md §3); a GPU of each kind, the busier decides below. */
    int last = ep - (r->nodes - 1) * g;
    r->gpus_in_last_node = last;
    node_reach reach = nodes_touched(q, ep, r->nodes, g, last);
    r->nodes_touched_per_token = reach.touched;
    r->node_limited = reach.limited;
    gpu_view views[2] = {view_of(q, ep, r->nodes, g, reach.hit_full, &reach),
                         view_of(q, ep, r->nodes, last, reach.hit_last, &reach)};
    r->share_network_full = views[0].share_network;
    r->share_network_last = views[1].share_network;

    /* Imbalance. */
    double scratch[COLLCALC_MOE_EXPERTS_MAX];
    const char *from = "uniform";
    const double *loads = expert_loads(q, scratch, &from);
    if (loads != NULL) {
        r->imbalance_static = static_imbalance(loads, m->routed_experts, ep);
        r->imbalance_rebalanced =
            rebalanced_imbalance(loads, m->routed_experts, q->redundant_experts, ep);
        if (r->imbalance_rebalanced < 0)
            return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory rebalancing experts");
        r->imbalance = q->redundant_experts > 0 ? r->imbalance_rebalanced : r->imbalance_static;
    } else {
        r->imbalance_static = r->imbalance_rebalanced = r->imbalance = 1.0;
    }
    if (q->imbalance >= 1.0) {
        from = "given";
        r->imbalance = r->imbalance_static = r->imbalance_rebalanced = q->imbalance;
    }
    r->imbalance_from = from;

    moe_times full, half;
    const gpu_view *busiest = &views[0];
    layer_times(q, r, busiest, (double)q->tokens, r->imbalance, &full);
    if (last < g) {
        moe_times other;
        layer_times(q, r, &views[1], (double)q->tokens, r->imbalance, &other);
        if (other.dispatch_us + other.combine_us > full.dispatch_us + full.combine_us) {
            busiest = &views[1];
            full = other;
        }
    }
    r->busiest_node_gpus = busiest->node_gpus;
    r->share_local = busiest->share_local;
    r->share_nvlink = busiest->share_nvlink;
    r->share_network = busiest->share_network;
    r->remote_nodes_per_token = busiest->remote_nodes;
    /* The busiest GPU's bytes scale with its load as its time does: it
     * receives imbalance x the mean dispatch selections and sends as many
     * combine results back (doc/MODEL.md §20.3). */
    r->bytes_local = full.d_local * r->imbalance;
    r->bytes_nvlink = full.d_nvlink * r->imbalance;
    r->bytes_network = full.d_network * r->imbalance;
    r->combine_bytes_nvlink = full.c_nvlink * r->imbalance;
    r->combine_bytes_network = full.c_network * r->imbalance;
    r->dispatch_bytes_per_gpu =
        r->selections_per_gpu * (double)r->dispatch_bytes_per_selection * r->imbalance;
    r->combine_bytes_per_gpu =
        r->selections_per_gpu * (double)r->combine_bytes_per_selection * r->imbalance;
    r->dispatch_us = full.dispatch_us;
    r->dispatch_latency_us = full.dispatch_latency_us;
    r->dispatch_bandwidth_us = full.dispatch_bandwidth_us;
    r->combine_us = full.combine_us;
    r->combine_latency_us = full.combine_latency_us;
    r->combine_bandwidth_us = full.combine_bandwidth_us;
    r->dispatch_dominant = full.dispatch_latency_us > full.dispatch_bandwidth_us
                               ? COLLCALC_DOMINANT_LATENCY
                               : COLLCALC_DOMINANT_BANDWIDTH;
    r->combine_dominant = full.combine_latency_us > full.combine_bandwidth_us
                              ? COLLCALC_DOMINANT_LATENCY
                              : COLLCALC_DOMINANT_BANDWIDTH;

    /* The textbook comparison: all-to-all keeps only the GPUs holding the
     * token's experts busy; scattering every expert over all GPUs and
     * summing with an all-reduce involves every GPU. */
    r->a2a_gpus_busy_per_token =
        ep * (1.0 - plan_prob_miss(m->routed_experts, (double)m->routed_experts / ep, k));
    r->a2a_bytes_per_token =
        k * (double)(r->dispatch_bytes_per_selection + r->combine_bytes_per_selection);
    r->allreduce_gpus = ep;
    double ar_size = (double)q->tokens * ep * (double)hidden * 2.0; /* BF16 outputs, all tokens */
    r->allreduce_bytes_per_gpu = 2.0 * (ep - 1) / ep * ar_size;
    collcalc_query ar;
    collcalc_query_init(&ar);
    ar.op = COLLCALC_OP_ALLREDUCE;
    ar.size_bytes = plan_bytes(ar_size);
    ar.cluster = q->cluster;
    ar.cluster.gpus = ep;
    collcalc_result ar_result;
    if (plan_cost(&q->costing, &ar, &ar_result, NULL) == COLLCALC_OK)
        r->allreduce_us = ar_result.time_us;

    /* DeepEP's printed bandwidth (doc/MODEL.md §20.5). Low-latency
     * (tests/test_low_latency.py): every selection of the rank's tokens,
     * FP8 or BF16 bytes each, the GPU's own and its node's included, over
     * the kernel time. Normal, one node: NVLink bytes received; several
     * nodes: "RDMA" bytes counted once per distinct destination node of a
     * token, its own node included (DeepEP issue 51: about N/(N-1) x what
     * the NIC carries on 2 nodes). */
    if (r->dispatch_us > 0 && r->combine_us > 0) {
        double d_b = (double)r->dispatch_bytes_per_selection;
        double c_b = (double)r->combine_bytes_per_selection;
        double tokens = (double)q->tokens;
        if (q->mode == COLLCALC_MOE_LOW_LATENCY) {
            r->logical_dispatch_GBps = r->selections_per_gpu * d_b / r->dispatch_us / 1e3;
            r->logical_combine_GBps = r->selections_per_gpu * c_b / r->combine_us / 1e3;
            double nvl = r->selections_per_gpu * (1.0 - r->share_local) * r->imbalance;
            r->wire_dispatch_GBps = r->nodes > 1 ? r->bytes_network / r->dispatch_us / 1e3
                                                 : nvl * d_b / r->dispatch_us / 1e3;
            r->wire_combine_GBps = r->nodes > 1 ? r->combine_bytes_network / r->combine_us / 1e3
                                                : nvl * c_b / r->combine_us / 1e3;
        } else if (r->nodes > 1) {
            r->logical_dispatch_GBps = tokens * r->nodes_touched_per_token * d_b / r->dispatch_us / 1e3;
            r->logical_combine_GBps = tokens * r->nodes_touched_per_token * c_b / r->combine_us / 1e3;
            r->wire_dispatch_GBps = r->bytes_network / r->dispatch_us / 1e3;
            r->wire_combine_GBps = r->combine_bytes_network / r->combine_us / 1e3;
        } else {
            double nvl = r->selections_per_gpu * (1.0 - r->share_local);
            r->logical_dispatch_GBps = nvl * d_b / r->dispatch_us / 1e3;
            r->logical_combine_GBps = nvl * c_b / r->combine_us / 1e3;
            r->wire_dispatch_GBps = r->logical_dispatch_GBps;
            r->wire_combine_GBps = r->logical_combine_GBps;
        }
    }

    /* Split batch. */
    r->split_batch = q->split_batch;
    if (q->split_batch == 2)
        layer_times(q, r, busiest, (double)q->tokens / 2.0, r->imbalance, &half);
    else
        half = full;
    timeline(q, r, &full, &half);

    /* Findings. */
    if (r->nodes > 1) {
        /* Advice for the fabric: a rack-scale NVLink domain exists only on
         * NVIDIA; AMD's xGMI and PCIe stop at the node. */
        char advice[96];
        if (r->amd || !q->cluster.intra.nvlink)
            snprintf(advice, sizeof advice, "keep EP inside one node (%d GPU%s on %s) if it fits",
                     q->cluster.gpus_per_node, q->cluster.gpus_per_node == 1 ? "" : "s",
                     r->fabric);
        else if (r->mnnvl)
            snprintf(advice, sizeof advice, "keep EP inside one %d-GPU NVLink domain if it fits",
                     q->cluster.gpus_per_node);
        else
            snprintf(advice, sizeof advice,
                     "keep EP inside one NVLink domain (e.g. a GB200 NVL72) if it fits");
        if (last < g)
            collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_WARNING, "ep-crosses-node",
                                  advice,
                                  "EP %d spans %d nodes (%d + %d GPUs): %.0f %% of selections "
                                  "cross the network on the %d-GPU node, %.0f %% on the full "
                                  "ones", ep, r->nodes, (r->nodes - 1) * g, last,
                                  100.0 * r->share_network_last, last,
                                  100.0 * r->share_network_full);
        else
            collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_WARNING, "ep-crosses-node",
                                  advice, "EP %d spans %d nodes: %.0f %% of selections cross the "
                                  "network", ep, r->nodes, 100.0 * r->share_network);
    }
    r->deepep_refuses = !deepep_runs(ep);
    if (r->deepep_refuses && r->nodes > 1 && !r->amd && q->cluster.intra.nvlink) {
        int down = ep / DEEPEP_NVL_PEERS * DEEPEP_NVL_PEERS, up = down + DEEPEP_NVL_PEERS;
        int extra = collcalc_moe_redundant_for(m, up);
        char advice[160];
        if (extra > 0)
            snprintf(advice, sizeof advice, "run EP %d or EP %d (with %d redundant experts: %d "
                     "slots)", down, up, extra, m->routed_experts + extra);
        else
            snprintf(advice, sizeof advice, "run EP %d or EP %d", down, up);
        collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_WARNING, "deepep-ep-size", advice,
                              "DeepEP cannot run EP %d: past %d ranks its Buffer needs a multiple "
                              "of %d (whole groups of %d GPUs); the DeepEP figures are its "
                              "accounting only", ep, DEEPEP_NVL_PEERS, DEEPEP_NVL_PEERS,
                              DEEPEP_NVL_PEERS);
    }
    if (q->redundant_experts > 0)
        collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_INFO, "redundant-expert-memory",
                              NULL,
                              "%d redundant experts: %d slots (%d per GPU), expert weight memory "
                              "+%.1f %%", q->redundant_experts, r->slots, r->slots_per_gpu,
                              100.0 * r->expert_memory_increase);
    if (r->imbalance > 1.25)
        collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_WARNING, "ep-imbalance",
                              "add redundant experts (EPLB) or rebalance the placement",
                              "the hottest GPU carries %.2fx the mean load: dispatch and combine "
                              "take that much longer", r->imbalance);
    if (q->mode == COLLCALC_MOE_NORMAL && r->dispatch_dominant == COLLCALC_DOMINANT_LATENCY)
        collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_INFO, "moe-normal-small-batch",
                              "use the low-latency kernels for decode-size batches",
                              "at %llu token%s per GPU the normal kernels are latency-bound",
                              (unsigned long long)q->tokens, q->tokens == 1 ? "" : "s");
    collcalc_findings_sort(&r->findings);

    double checks[] = {r->dispatch_us, r->combine_us, r->timeline_us, r->imbalance,
                       r->bytes_network, r->allreduce_us, r->a2a_gpus_busy_per_token};
    for (size_t i = 0; i < PLAN_COUNT_OF(checks); i++)
        if (!isfinite(checks[i]))
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "the MoE model produced a non-finite figure");
    return COLLCALC_OK;
}

int collcalc_moe_redundant_for(const collcalc_model_shape *model, int ep)
{
    if (!collcalc_model_is_moe(model) || ep < 1)
        return -1;
    int e = model->routed_experts;
    return (ep - e % ep) % ep;
}

collcalc_status collcalc_moe_domain_edge(const collcalc_moe_query *query,
                                         collcalc_moe_edge *out_edge, collcalc_diag *diag)
{
    if (query == NULL || out_edge == NULL || query->model == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no MoE query");
    const collcalc_model_shape *m = query->model;
    collcalc_moe_edge *e = out_edge;
    memset(e, 0, sizeof *e);
    int g = query->cluster.gpus_per_node;
    int slots = m->routed_experts + query->redundant_experts;
    e->domain_gpus = g;
    for (int ep = 2; ep <= slots && ep <= g; ep++)
        if (slots % ep == 0)
            e->inside = ep;
    for (int ep = g + 1; ep <= slots; ep++) /* the smallest EP past the domain DeepEP runs */
        if (slots % ep == 0 && deepep_runs(ep)) {
            e->outside = ep;
            break;
        }
    collcalc_moe_result *r = collcalc_mem_malloc(sizeof *r);
    if (r == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");
    collcalc_status status = COLLCALC_OK;
    int eps[2] = {e->inside, e->outside};
    for (int i = 0; i < 2 && status == COLLCALC_OK; i++) {
        if (eps[i] < 2)
            continue;
        collcalc_moe_query q = *query;
        q.ep = eps[i];
        if (q.imbalance > q.ep) /* a given max/mean past the smaller EP's ceiling */
            q.imbalance = q.ep;
        status = collcalc_moe_evaluate(&q, r, diag);
        if (status != COLLCALC_OK)
            break;
        if (i == 0) {
            e->inside_dispatch_us = r->dispatch_us;
            e->inside_combine_us = r->combine_us;
            e->inside_share_network = r->share_network;
        } else {
            e->outside_dispatch_us = r->dispatch_us;
            e->outside_combine_us = r->combine_us;
            e->outside_share_network = r->share_network;
            e->outside_nodes = r->nodes;
            e->outside_gpus_in_last_node = r->gpus_in_last_node;
        }
    }
    collcalc_mem_free(r);
    return status;
}
