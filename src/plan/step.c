/* What a plan needs per GPU beyond its communication: the memory it holds
 * (weights, KV cache, activations, communication buffers, training state)
 * and, with a GPU's FLOP/s and memory bandwidth, the step time.
 *
 * Memory per GPU, bytes (T = tokens of the step, split over dp replicas,
 * then over the ep attention ranks and cp; b = activation bytes):
 *   weights     replicated weights / (tp x pp) + expert slots / (ep x pp),
 *               each at its weight format (models.json "weights": the
 *               checkpoint's native format, or --weight-dtype).
 *   KV cache    decode: one sequence per token in flight, each `context`
 *               tokens long; prefill: prompts of `context` tokens (default:
 *               the step's --tokens, one prompt; never the DP share, so the
 *               workload does not change with DP), ceil(slice tokens /
 *               context) of them per attention slice, each holding its
 *               whole prompt (a slice smaller than the prompt is a chunk of
 *               it); the TP/PP shard of each (collcalc_kv_evaluate: GQA
 *               heads split over TP, the MLA latent replicated), / cp.
 *               Training keeps none; its sequence length (`context`,
 *               default 4096 or a micro-batch's tokens when fewer) sets
 *               the attention's context, not the memory (flash attention
 *               keeps no s^2 scores).
 *   activations the largest working set of one layer of one micro-batch:
 *               dense: T_mb x b x (4 H + 2 F / tp); MoE: the tokens an EP
 *               rank receives (T_mb / tp x top-k x imbalance) x b x
 *               (H + 2 F_expert) plus T_mb x b x 4 H; plus the logits
 *               (rows x vocab / tp x 4 B). Training stores 34 x T_mb x H
 *               bytes per layer / tp for each micro-batch in flight
 *               (Korthikanti et al. 2022, "Reducing Activation
 *               Recomputation in Large Transformer Models", 34 s b h per
 *               layer with 16-bit activations; flash attention removes
 *               their 5 a s^2 b term).
 *   buffers     per NCCL communicator the GPU is in (TP, PP, CP, DP for
 *               training): 2 x NCCL_BUFFSIZE (4 MiB, NCCL's documented
 *               default) x 32 channels (NCCL's channel limit); EP: DeepEP's
 *               buffers, low-latency 2 x 2 x 128 tokens x (2 H + 16) B x
 *               expert slots (dispatch and combine, double-buffered, at
 *               SGLang's default of 128 dispatch tokens per rank), normal
 *               1e9 B for NVLink plus 1e9 B for RDMA when EP leaves the
 *               node (the sizes DeepEP's own tests allocate).
 *   training    gradients (grad_bytes per parameter) and Adam's FP32
 *               master weights, first and second moments (12 B per
 *               parameter; Rajbhandari et al. 2020, ZeRO, mixed-precision
 *               Adam), not sharded (no ZeRO).
 * Capacity: the GPU's memory x the usable fraction (vLLM's default 0.9). */
#include "plan_internal.h"

#include <math.h>
#include <string.h>

#define NCCL_BUFFSIZE_BYTES (4.0 * 1024 * 1024) /* NCCL_BUFFSIZE default */
#define NCCL_CHANNELS_MAX 32.0                 /* NCCL's MAXCHANNELS */
#define DEEPEP_LL_TOKENS 128.0                 /* SGLang's default dispatch tokens per rank */
#define DEEPEP_NORMAL_BUFFER_BYTES 1e9
#define ADAM_STATE_BYTES 12.0                  /* FP32 master, m, v */
#define TRAIN_ACTIVATION_BYTES_PER_TOKEN_HIDDEN 34.0

typedef struct {
    double weights, kv, activations, buffers, optimizer, total;
    uint64_t context, sequences, chunks;
} memory_parts;

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return b == 0 ? a : (a + b - 1) / b;
}

static int micro_batches_of(const collcalc_plan_query *q)
{
    if (q->micro_batches > 0)
        return q->micro_batches;
    return q->workload == COLLCALC_WORKLOAD_TRAIN ? q->pp : 1;
}

/* Serving keeps pp batches in the pipeline, one per stage (vLLM runs pp
 * "virtual engines", SGLang likewise): each holds its sequences' KV. */
static int batches_in_flight(const collcalc_plan_query *q)
{
    return q->workload == COLLCALC_WORKLOAD_TRAIN ? 1 : q->pp;
}

/* Bytes per dense and per expert parameter held. */
static void weight_sizes(const collcalc_plan_query *q, double *dense, double *expert)
{
    const collcalc_model_shape *m = q->model;
    if (q->weight_bytes > 0) {
        *dense = *expert = (double)q->weight_bytes;
    } else if (q->weight_format_given) {
        *dense = *expert = collcalc_weight_format_bytes(q->weight_format);
    } else {
        *dense = collcalc_weight_format_bytes(m->weight_format);
        *expert = collcalc_weight_format_bytes(m->expert_weight_format);
    }
}

double plan_weight_bytes_per_gpu(const collcalc_plan_query *q)
{
    const collcalc_model_shape *m = q->model;
    double expert = collcalc_model_expert_params(m);
    double dense = m->params_billion * 1e9 - expert;
    if (dense < 0)
        dense = 0;
    double increase = collcalc_model_is_moe(m) ? (double)q->redundant_experts / m->routed_experts
                                               : 0.0;
    double wd = 0, we = 0;
    weight_sizes(q, &wd, &we);
    return dense * wd / ((double)q->tp * q->pp) +
           expert * (1.0 + increase) * we / ((double)q->ep * q->pp);
}

static double local_params(const collcalc_plan_query *q)
{
    const collcalc_model_shape *m = q->model;
    double expert = collcalc_model_expert_params(m);
    double dense = m->params_billion * 1e9 - expert;
    if (dense < 0)
        dense = 0;
    return dense / ((double)q->tp * q->pp) + expert / ((double)q->ep * q->pp);
}

/* One GPU's share of the KV of one sequence of `context` tokens. */
static collcalc_status kv_shard(const collcalc_plan_query *q, uint64_t context, double *out,
                                collcalc_diag *diag)
{
    collcalc_kv_query kq;
    collcalc_kv_query_init(&kq);
    kq.model = q->model;
    kq.tokens = context;
    kq.dtype = q->kv_dtype_given ? q->kv_dtype : q->dtype;
    kq.tp = q->tp;
    kq.pp = q->pp;
    collcalc_kv_result kr;
    collcalc_status status = collcalc_kv_evaluate(&kq, &kr, diag);
    if (status == COLLCALC_OK)
        *out = (double)kr.kv_bytes_per_shard;
    return status;
}

static double buffer_bytes(const collcalc_plan_query *q, bool ep_crosses)
{
    const collcalc_model_shape *m = q->model;
    double per_comm = 2.0 * NCCL_BUFFSIZE_BYTES * NCCL_CHANNELS_MAX;
    int comms = (q->tp > 1) + (q->pp > 1) + (q->cp > 1) +
                (q->workload == COLLCALC_WORKLOAD_TRAIN && q->dp > 1);
    double bytes = comms * per_comm;
    if (q->ep > 1) {
        bool ll = q->moe_mode_auto ? q->workload == COLLCALC_WORKLOAD_DECODE
                                   : q->moe_mode == COLLCALC_MOE_LOW_LATENCY;
        double slots = (double)(m->routed_experts + q->redundant_experts);
        if (ll)
            bytes += 2.0 * 2.0 * DEEPEP_LL_TOKENS * (2.0 * m->hidden_size + 16.0) * slots;
        else
            bytes += DEEPEP_NORMAL_BUFFER_BYTES * (ep_crosses ? 2.0 : 1.0);
    }
    return bytes;
}

/* The memory of q at `tokens` tokens per step and `context` (0 = default). */
static collcalc_status memory_at(const collcalc_plan_query *q, uint64_t tokens, uint64_t context,
                                 bool ep_crosses, memory_parts *p, collcalc_diag *diag)
{
    const collcalc_model_shape *m = q->model;
    memset(p, 0, sizeof *p);
    bool train = q->workload == COLLCALC_WORKLOAD_TRAIN;
    bool decode = q->workload == COLLCALC_WORKLOAD_DECODE;
    uint64_t mb = (uint64_t)micro_batches_of(q);
    uint64_t per_replica = ceil_div(tokens, (uint64_t)q->dp);
    uint64_t per_ep = ceil_div(per_replica, (uint64_t)q->ep);
    uint64_t t_mb = ceil_div(per_replica, (uint64_t)q->ep * (uint64_t)q->cp * mb);
    double b = collcalc_dtype_bytes(q->dtype);
    double h = m->hidden_size;
    p->weights = plan_weight_bytes_per_gpu(q);
    if (train) {
        /* The sequence length: --context, default 4096 tokens or a
         * micro-batch's whole tokens (its cp slices) when fewer. It sets
         * the attention's context; no KV is kept. */
        uint64_t whole = t_mb * (uint64_t)q->cp;
        uint64_t ctx = context > 0 ? context
                       : whole < COLLCALC_PLAN_CONTEXT_DEFAULT ? whole
                                                               : COLLCALC_PLAN_CONTEXT_DEFAULT;
        p->context = ctx > COLLCALC_TOKENS_MAX ? COLLCALC_TOKENS_MAX : (ctx > 0 ? ctx : 1);
        p->sequences = ceil_div(per_ep, p->context);
        p->chunks = 1;
    } else {
        uint64_t ctx = context;
        if (ctx == 0)
            ctx = decode ? COLLCALC_PLAN_CONTEXT_DEFAULT : tokens;
        if (ctx > COLLCALC_TOKENS_MAX)
            ctx = COLLCALC_TOKENS_MAX;
        p->context = ctx;
        /* Each sequence in flight holds its whole context: a prefill slice
         * of fewer tokens than the prompt is a chunk of it (chunked
         * prefill), and the prompt's KV is resident by its last chunk. */
        p->sequences = decode ? per_ep : ceil_div(per_ep, ctx);
        /* a chunked slice prefills its own prompt over ceil(P / slice) steps */
        p->chunks = !decode && per_ep < ctx ? ceil_div(ctx, per_ep) : 1;
        double shard = 0;
        collcalc_status status = kv_shard(q, ctx, &shard, diag);
        if (status != COLLCALC_OK)
            return status;
        p->kv = (double)p->sequences * shard / q->cp * batches_in_flight(q);
    }
    double tmb = (double)t_mb;
    if (train) {
        int in_flight = (int)mb < q->pp ? (int)mb : q->pp;
        int layers = (m->layers + q->pp - 1) / q->pp;
        p->activations = TRAIN_ACTIVATION_BYTES_PER_TOKEN_HIDDEN * tmb * h * layers / q->tp *
                         in_flight;
        p->optimizer = local_params(q) * ((q->grad_bytes > 0 ? q->grad_bytes : 2) +
                                          ADAM_STATE_BYTES);
    } else {
        double dense = m->ffn_intermediate > 0
                           ? tmb * b * (4.0 * h + 2.0 * m->ffn_intermediate / q->tp)
                           : 0.0;
        double moe = 0;
        if (collcalc_model_is_moe(m)) {
            double imbalance = q->imbalance > 0 ? q->imbalance : 1.0;
            double received = tmb / q->tp * m->experts_per_token * imbalance;
            moe = received * b * (h + 2.0 * m->moe_intermediate) + tmb * b * 4.0 * h;
        }
        double rows = decode ? tmb : (double)ceil_div(t_mb, p->context);
        double logits = rows * (double)m->vocab_size / q->tp * 4.0;
        p->activations = (dense > moe ? dense : moe) + logits;
    }
    p->buffers = buffer_bytes(q, ep_crosses);
    p->total = p->weights + p->kv + p->activations + p->buffers + p->optimizer;
    return COLLCALC_OK;
}

/* Whether tokens (at context) fit; errors count as not fitting. */
static bool fits_at(const collcalc_plan_query *q, uint64_t tokens, uint64_t context,
                    bool ep_crosses, double capacity)
{
    memory_parts p;
    collcalc_diag local;
    return memory_at(q, tokens, context, ep_crosses, &p, &local) == COLLCALC_OK &&
           p.total <= capacity;
}

/* The largest x in [lo, hi] for which fits(x), given fits is monotone
 * (true then false); 0 when not even lo fits. */
static uint64_t largest(const collcalc_plan_query *q, bool vary_tokens, uint64_t fixed,
                        uint64_t lo, uint64_t hi, bool ep_crosses, double capacity)
{
#define FITS(x) (vary_tokens ? fits_at(q, (x), fixed, ep_crosses, capacity) \
                             : fits_at(q, fixed, (x), ep_crosses, capacity))
    if (lo > hi || !FITS(lo))
        return 0;
    if (FITS(hi))
        return hi;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (FITS(mid))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
#undef FITS
}

collcalc_status plan_memory(const collcalc_plan_query *q, collcalc_plan_result *r,
                            bool ep_crosses, collcalc_diag *diag)
{
    memory_parts p;
    collcalc_status status = memory_at(q, q->tokens, q->context, ep_crosses, &p, diag);
    if (status != COLLCALC_OK)
        return status;
    r->tokens_per_replica = ceil_div(q->tokens, (uint64_t)q->dp);
    r->context = p.context;
    r->sequences = p.sequences;
    r->chunks = p.chunks > 0 ? p.chunks : 1;
    if (q->workload == COLLCALC_WORKLOAD_PREFILL)
        r->prompts = (uint64_t)q->dp * (uint64_t)q->ep * p.sequences * (uint64_t)q->pp;
    r->weight_bytes_per_gpu = p.weights;
    r->kv_bytes_per_gpu = p.kv;
    r->activation_bytes_per_gpu = p.activations;
    r->buffer_bytes_per_gpu = p.buffers;
    r->optimizer_bytes_per_gpu = p.optimizer;
    r->memory_bytes_per_gpu = p.total;
    double memory_GB = q->gpu_memory_GB > 0 ? q->gpu_memory_GB
                       : q->gpu != NULL     ? q->gpu->memory_GB
                                            : 0.0;
    double utilization =
        q->memory_utilization > 0 ? q->memory_utilization : COLLCALC_PLAN_MEMORY_UTILIZATION;
    r->fits = true;
    if (memory_GB <= 0)
        return COLLCALC_OK;
    r->memory_checked = true;
    r->memory_capacity_bytes = memory_GB * 1e9 * utilization;
    r->fits = p.total <= r->memory_capacity_bytes;
    uint64_t need = (uint64_t)q->dp * (uint64_t)q->ep * (uint64_t)q->cp *
                    (uint64_t)micro_batches_of(q);
    /* at the context resolved for these tokens (prefill's default prompt
     * stays the same while the tokens vary) */
    r->max_tokens = largest(q, true, r->context, need, COLLCALC_TOKENS_MAX, ep_crosses,
                            r->memory_capacity_bytes);
    /* training: whole sequences in every micro-batch of every replica (EP rank) */
    uint64_t unit = need / (uint64_t)q->cp * r->context;
    if (q->workload == COLLCALC_WORKLOAD_TRAIN && unit > 0 && r->max_tokens >= unit)
        r->max_tokens -= r->max_tokens % unit;
    if (q->workload != COLLCALC_WORKLOAD_TRAIN)
        r->max_context = largest(q, false, q->tokens, 1, COLLCALC_TOKENS_MAX, ep_crosses,
                                 r->memory_capacity_bytes);
    return COLLCALC_OK;
}

/* ---- step time ---------------------------------------------------------
 *
 * A roofline per part of a layer on the busiest GPU, for one micro-batch of
 * T tokens (an attention slice's; GEMMs split over tp): time = max(FLOPs /
 * (peak x efficiency), bytes read / (memory bandwidth x efficiency)), with
 *   attention projections  2 T x params / tp FLOPs; params x weight bytes / tp read
 *                          (GQA: Q, K, V, O; MLA: the low-rank Q and KV
 *                          projections, the up-projection and O)
 *   attention core         4 T x c x heads x d / tp FLOPs over c context tokens
 *                          (decode c = context, prefill and training c =
 *                          context / 2 for causal masking, training's context
 *                          the sequence length; window layers capped); decode
 *                          reads the resident KV of the layer
 *   dense FFN              3 H F params (gated)
 *   MoE                    the tokens the GPU receives (T / tp x top-k x
 *                          imbalance) through 3 H F_expert each; it reads the
 *                          experts those tokens touch (uniform routing:
 *                          E (1 - (1 - 1/E)^selections) of E); shared experts
 *                          and the router as dense
 *   LM head                H x vocab for every token in decode and training
 *                          (the loss), the last of each prompt in prefill
 * FLOP/s: the GPU's dense tensor figure for the weights' format (fp8
 * weights run FP8 GEMMs, mxfp4/nvfp4 FP4, else BF16; a missing unit falls
 * back to the next wider one). Training costs 3x the forward pass.
 * The step (doc/MODEL.md, plan): m micro-batches of compute C, the exposed
 * communication E (what the overlap assumptions do not hide; hidden parts
 * beyond the compute time become exposed again) and the pipeline bubble
 * (pp - 1) x (C + E_layers) / m, where E_layers is the exposed part of the
 * per-layer collectives (TP, EP, CP): a stage waits for the previous
 * stage's compute and its collectives alike. */

typedef struct {
    double peak_dense, peak_expert; /* FLOP/s */
    double bandwidth;               /* B/s */
    double flops_us, memory_us;     /* time of the FLOP-bound and memory-bound parts */
} roofline;

static void part(roofline *rf, double flops, double bytes, double peak)
{
    double tf = peak > 0 ? flops / peak * 1e6 : 0.0;
    double tm = rf->bandwidth > 0 ? bytes / rf->bandwidth * 1e6 : 0.0;
    if (tf >= tm)
        rf->flops_us += tf;
    else
        rf->memory_us += tm;
}

static collcalc_gpu_flops_type flops_type_of(collcalc_weight_format format)
{
    switch (format) {
    case COLLCALC_WEIGHTS_FP8: return COLLCALC_GPU_FLOPS_FP8;
    case COLLCALC_WEIGHTS_MXFP4:
    case COLLCALC_WEIGHTS_NVFP4: return COLLCALC_GPU_FLOPS_FP4;
    default: return COLLCALC_GPU_FLOPS_BF16;
    }
}

static double attention_params(const collcalc_model_shape *m)
{
    double h = m->hidden_size, heads = m->heads, d = m->head_dim;
    if (m->attention == COLLCALC_ATTENTION_MLA) {
        double qk = d + m->rope_head_dim;
        double q = m->q_lora_rank > 0 ? h * m->q_lora_rank + (double)m->q_lora_rank * heads * qk
                                      : h * heads * qk;
        double kv = h * (m->kv_lora_rank + m->rope_head_dim) + (double)m->kv_lora_rank * heads * 2 * d;
        return q + kv + heads * d * h;
    }
    return h * heads * d * 2 + 2 * h * m->kv_heads * d;
}

/* Kinds paid once per step or per pipeline boundary, not per layer. */
static bool per_step_kind(collcalc_comm_kind kind)
{
    return kind == COLLCALC_COMM_PP_SENDRECV || kind == COLLCALC_COMM_DP_ALLREDUCE ||
           kind == COLLCALC_COMM_DP_EXPERT_ALLREDUCE;
}

void plan_step_time(const collcalc_plan_query *q, collcalc_plan_result *r)
{
    const collcalc_model_shape *m = q->model;
    double hidden_nominal = 0;
    for (size_t i = 0; i < r->item_count; i++)
        hidden_nominal += r->items[i].total_us * r->items[i].hidden_fraction;
    r->exposed_comm_us = r->exposed_us;
    r->step_us = r->exposed_us;
    r->token_latency_us = r->step_us * (double)r->chunks;
    r->comm_share = r->step_us > 0 ? 1.0 : 0.0;
    r->batches_in_flight = 1;
    r->stage_us = r->step_us;
    if (q->gpu == NULL)
        return;
    double eff = q->compute_efficiency > 0 ? q->compute_efficiency : 1.0;
    double wd = 0, we = 0;
    weight_sizes(q, &wd, &we);
    collcalc_weight_format fd = q->weight_format_given ? q->weight_format : m->weight_format;
    collcalc_weight_format fe =
        q->weight_format_given ? q->weight_format : m->expert_weight_format;
    if (q->weight_bytes > 0)
        fd = fe = q->weight_bytes >= 2 ? COLLCALC_WEIGHTS_BF16 : COLLCALC_WEIGHTS_FP8;
    if (q->dtype == COLLCALC_DTYPE_FP8 && fd == COLLCALC_WEIGHTS_BF16)
        fd = COLLCALC_WEIGHTS_FP8; /* fp8 activations: the engine quantizes weights too */
    roofline rf;
    memset(&rf, 0, sizeof rf);
    rf.peak_dense = collcalc_gpu_tflops(q->gpu, flops_type_of(fd), &r->flops_type) * 1e12 * eff;
    if (r->flops_type != flops_type_of(fd))
        collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_INFO, "flops-fallback",
                              "expect the narrower type to save memory and bandwidth, not FLOPs",
                              "%s has no %s tensor-core figure: the GEMMs are costed at its %s "
                              "FLOP/s", q->gpu->name,
                              collcalc_gpu_flops_type_name(flops_type_of(fd)),
                              collcalc_gpu_flops_type_name(r->flops_type));
    rf.peak_expert = collcalc_gpu_tflops(q->gpu, flops_type_of(fe), NULL) * 1e12 * eff;
    rf.bandwidth = q->gpu->memory_GBps * 1e9 * eff;

    bool decode = q->workload == COLLCALC_WORKLOAD_DECODE;
    double t = (double)r->tokens_per_micro_batch;
    double tp = q->tp;
    double h = m->hidden_size;
    int layers = r->layers_per_stage;
    int moe_layers = r->moe_layers_per_stage < layers ? r->moe_layers_per_stage : layers;
    int dense_layers = layers - moe_layers;
    /* context seen by attention, window layers capped */
    double ctx = (double)(r->context > 0 ? r->context : r->tokens_per_micro_batch);
    if (!decode)
        ctx = ctx / 2.0;
    if (m->sliding_window_layers > 0) {
        double win = ctx < m->sliding_window_tokens ? ctx : m->sliding_window_tokens;
        ctx = (ctx * (m->layers - m->sliding_window_layers) + win * m->sliding_window_layers) /
              m->layers;
    }
    double d_qk = m->attention == COLLCALC_ATTENTION_MLA
                      ? (decode ? (double)m->kv_lora_rank + m->rope_head_dim
                                : (double)m->head_dim + m->rope_head_dim)
                      : m->head_dim;
    double d_v = m->attention == COLLCALC_ATTENTION_MLA && decode ? m->kv_lora_rank : m->head_dim;
    double heads_gpu = (double)m->heads / tp;
    /* a step reads its own batch's KV, not the other batches' in flight */
    double kv_read = decode ? r->kv_bytes_per_gpu / (layers > 0 ? layers : 1) /
                                  (r->micro_batches > 0 ? r->micro_batches : 1) /
                                  batches_in_flight(q)
                            : 0.0;
    double attn_p = attention_params(m);
    for (int i = 0; i < 2; i++) {
        int n = i == 0 ? dense_layers : moe_layers;
        if (n == 0)
            continue;
        roofline one;
        memset(&one, 0, sizeof one);
        one.bandwidth = rf.bandwidth;
        part(&one, 2 * t * attn_p / tp, attn_p * wd / tp, rf.peak_dense);
        part(&one, 2 * t * ctx * heads_gpu * (d_qk + d_v), kv_read,
             collcalc_gpu_tflops(q->gpu, COLLCALC_GPU_FLOPS_BF16, NULL) * 1e12 * eff);
        if (i == 0) {
            double ffn = 3.0 * h * m->ffn_intermediate;
            part(&one, 2 * t * ffn / tp, ffn * wd / tp, rf.peak_dense);
        } else {
            double expert = 3.0 * h * m->moe_intermediate;
            double imbalance = q->imbalance > 0 ? q->imbalance : 1.0;
            double received = t / tp * m->experts_per_token * imbalance;
            double slots = (double)(m->routed_experts + q->redundant_experts);
            double per_gpu = slots / q->ep;
            double selections = t / tp * q->ep * m->experts_per_token;
            double e = m->routed_experts;
            double touched = 1.0 - pow(1.0 - 1.0 / e, selections);
            part(&one, 2 * received * expert, per_gpu * touched * expert * we, rf.peak_expert);
            double shared = m->shared_experts * expert + h * e; /* + router */
            part(&one, 2 * t * shared / tp, shared * wd / tp, rf.peak_dense);
        }
        rf.flops_us += one.flops_us * n;
        rf.memory_us += one.memory_us * n;
    }
    if (m->vocab_size > 0) {
        /* logits: every token in decode and training (the loss), the last
         * of each prompt in prefill */
        double rows = decode || q->workload == COLLCALC_WORKLOAD_TRAIN
                          ? t
                          : ceil(t / (r->context > 0 ? (double)r->context : t));
        double head = h * m->vocab_size;
        part(&rf, 2 * rows * head / tp, head * wd / tp, rf.peak_dense);
    }
    double passes = q->workload == COLLCALC_WORKLOAD_TRAIN ? 3.0 : 1.0;
    double stage = (rf.flops_us + rf.memory_us) * passes;
    r->compute_modeled = true;
    r->compute_flops_us = rf.flops_us * passes * r->micro_batches;
    r->compute_memory_us = rf.memory_us * passes * r->micro_batches;
    r->compute_us = stage * r->micro_batches;
    /* Hidden communication beyond the compute is exposed again, shared out
     * over the items in proportion to what each hid: one exposed figure for
     * the items, the step and the search. */
    double rehidden = hidden_nominal - r->compute_us;
    double stage_comm = 0, send_each = 0;
    r->exposed_us = 0;
    for (size_t i = 0; i < r->item_count; i++) {
        collcalc_plan_item *it = &r->items[i];
        if (rehidden > 0 && hidden_nominal > 0)
            it->exposed_us += it->total_us * it->hidden_fraction * rehidden / hidden_nominal;
        r->exposed_us += it->exposed_us;
        if (!per_step_kind(it->kind))
            stage_comm += it->exposed_us;
        if (it->kind == COLLCALC_COMM_PP_SENDRECV && it->count_per_step > 0)
            send_each = it->exposed_us / (double)it->count_per_step;
    }
    r->floor_us = r->exposed_us;
    /* One stage's time per micro-batch: its compute and the exposed
     * communication of its layers (TP, EP, CP); the pipeline fills and
     * drains over pp - 1 of them. PP send/recv is on the critical path
     * already (counted per boundary); the DP gradient reduction once. */
    r->bubble_us = (r->compute_us + stage_comm) / r->micro_batches * (q->pp - 1);
    r->exposed_comm_us = r->exposed_us;
    r->step_us = r->compute_us + r->bubble_us + r->exposed_comm_us;
    /* Time to first token of a chunked prompt: its chunks, each costed as
     * the mean chunk (attention over P/2: chunk k of c tokens attends to
     * k c + c/2, whose mean over the chunks is P/2 when c divides P; the
     * GEMMs, weight reads and collectives are the same each chunk). A
     * last partial chunk is costed as a whole one: an upper bound. */
    r->token_latency_us = r->step_us * (double)r->chunks;
    r->comm_share = r->step_us > 0 ? r->exposed_comm_us / r->step_us : 0.0;
    /* Serving in steady state: pp batches in flight, each stage busy with a
     * different one, so a batch completes every stage time (its m
     * micro-batches' compute, its layers' exposed collectives and one PP
     * send each); the latency above stays the traversal. Training drains
     * the pipeline every step (the bubble). */
    r->batches_in_flight = batches_in_flight(q);
    r->stage_us = r->batches_in_flight > 1
                      ? r->compute_us + stage_comm + send_each * r->micro_batches
                      : r->step_us;
    r->tokens_per_s_per_gpu =
        r->stage_us > 0 ? (double)q->tokens / (r->stage_us * 1e-6) / r->gpus : 0.0;
}
