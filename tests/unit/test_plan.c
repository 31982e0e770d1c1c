/* Unit tests for whole placements (src/plan/plan.c) and the factorization
 * search (src/plan/search.c): the must-hold TP cases of issue 9 on HGX H100
 * and GB200 NVL72 (data/platforms.json), rank layout and tiers, EP, PP, DP
 * and CP items, overlap assumptions, rule checks and bad input. */
#include "support.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "collcalc/answer.h"
#include "collcalc/links.h"
#include "collcalc/models.h"
#include "collcalc/plan.h"
#include "collcalc/platforms.h"

static collcalc_model_table *models;
static collcalc_link_table *links;
static collcalc_platform_table *platforms;

static int setup(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    if (collcalc_model_table_builtin(&models, &diag) != COLLCALC_OK ||
        collcalc_link_table_builtin(&links, &diag) != COLLCALC_OK ||
        collcalc_platform_table_builtin(links, &platforms, &diag) != COLLCALC_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    collcalc_model_table_free(models);
    collcalc_platform_table_free(platforms);
    collcalc_link_table_free(links);
    return 0;
}

/* The cluster of a platform preset, per-direction bandwidths. */
static void platform_cluster(const char *name, collcalc_cluster *out)
{
    const collcalc_platform *p = collcalc_platform_table_find(platforms, name);
    assert_non_null(p);
    collcalc_cluster_init(out);
    out->gpus_per_node = p->gpus_per_node;
    out->nics_per_node = p->nics_per_node;
    collcalc_link_params_from_link(collcalc_link_table_find(links, p->intra_link),
                                   COLLCALC_BW_PER_DIRECTION, &out->intra);
    collcalc_link_params_from_link(collcalc_link_table_find(links, p->inter_link),
                                   COLLCALC_BW_PER_DIRECTION, &out->inter);
    out->nvls_intra = p->nvls;
    out->sharp_inter = p->sharp;
}

static collcalc_plan_query llama_decode(int tp, const char *platform)
{
    collcalc_plan_query q;
    collcalc_plan_query_init(&q);
    q.model = collcalc_model_table_find(models, "llama-3-70b");
    q.workload = COLLCALC_WORKLOAD_DECODE;
    q.tokens = 64;
    q.tp = tp;
    platform_cluster(platform, &q.cluster);
    return q;
}

static collcalc_plan_result run(const collcalc_plan_query *q)
{
    collcalc_plan_result r;
    collcalc_diag diag = {{0}};
    collcalc_status status = collcalc_plan_evaluate(q, &r, &diag);
    if (status != COLLCALC_OK)
        print_error("%s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    return r;
}

static const collcalc_plan_item *item(const collcalc_plan_result *r, collcalc_comm_kind kind)
{
    for (size_t i = 0; i < r->item_count; i++)
        if (r->items[i].kind == kind)
            return &r->items[i];
    return NULL;
}

static void test_llama_tp8_decode(void **state)
{
    (void)state;
    collcalc_plan_query q = llama_decode(8, "hgx-h100");
    collcalc_plan_result r = run(&q);
    assert_int_equal(r.gpus, 8);
    assert_int_equal(r.nodes, 1);
    assert_int_equal(r.item_count, 1);
    const collcalc_plan_item *ar = item(&r, COLLCALC_COMM_TP_ALLREDUCE);
    assert_non_null(ar);
    assert_int_equal(ar->message_bytes, 1048576); /* 64 x 8192 x 2 B = 1 MiB */
    assert_true(ar->count_per_layer == 2.0);
    assert_int_equal(ar->count_per_step, 160);
    assert_false(ar->crosses_node);
    assert_int_equal(ar->group_size, 8);
    assert_string_equal(ar->link, "nvlink4");
    assert_true(ar->time_us_each > 0);
    assert_true(fabs(r.comm_us - 160 * ar->time_us_each) < 1e-9 * r.comm_us);
    assert_true(r.exposed_us == r.comm_us); /* nothing assumed hidden */
    assert_true(r.floor_us == r.exposed_us);
    assert_true(r.cross_node_fixed_us == 0);
    assert_int_equal(collcalc_findings_worst(&r.findings), COLLCALC_SEVERITY_INFO);
    assert_null(collcalc_findings_find(&r.findings, "tp-crosses-node"));
    assert_string_equal(r.rank_order, "tp,cp,ep,pp,dp");
}

static void test_llama_tp16_crosses_hgx(void **state)
{
    (void)state;
    collcalc_plan_query q8 = llama_decode(8, "hgx-h100");
    collcalc_plan_result r8 = run(&q8);
    collcalc_plan_query q = llama_decode(16, "hgx-h100");
    collcalc_plan_result r = run(&q);
    const collcalc_plan_item *ar = item(&r, COLLCALC_COMM_TP_ALLREDUCE);
    assert_non_null(ar);
    assert_true(ar->crosses_node);
    assert_int_equal(ar->nodes, 2);
    assert_int_equal(ar->count_per_step, 160);
    assert_int_equal(ar->message_bytes, 1048576);
    assert_string_equal(ar->link, "nvlink4+ib-ndr");
    const collcalc_finding *f = collcalc_findings_find(&r.findings, "tp-crosses-node");
    assert_non_null(f);
    assert_int_equal(f->severity, COLLCALC_SEVERITY_ERROR);
    assert_contains(f->message, "TP crosses the node boundary");
    assert_int_equal(r.findings.items[0].severity, COLLCALC_SEVERITY_ERROR); /* sorted */
    assert_non_null(collcalc_findings_find(&r.findings, "tp-kv-replication"));
    /* a much larger floor: network latency on every one of 160 all-reduces */
    assert_true(r.floor_us > 2.0 * r8.floor_us);
    assert_true(ar->latency_us_each > 4.0 * item(&r8, COLLCALC_COMM_TP_ALLREDUCE)->latency_us_each);
    assert_true(r.cross_node_fixed_us == ar->latency_us_each);

    /* TP=16 inside one GB200 NVL72 domain (72 GPUs per node) is fine. */
    collcalc_plan_query nvl = llama_decode(16, "gb200-nvl72");
    collcalc_plan_result rn = run(&nvl);
    const collcalc_plan_item *arn = item(&rn, COLLCALC_COMM_TP_ALLREDUCE);
    assert_false(arn->crosses_node);
    assert_string_equal(arn->link, "nvlink5");
    assert_null(collcalc_findings_find(&rn.findings, "tp-crosses-node"));
    assert_true(collcalc_findings_worst(&rn.findings) < COLLCALC_SEVERITY_ERROR);
    assert_true(rn.floor_us < r.floor_us);
}

static void test_layout_and_order(void **state)
{
    (void)state;
    /* TP 8 x DP 2 on HGX: TP inside each node, DP across (train). */
    collcalc_plan_query q = llama_decode(8, "hgx-h100");
    q.workload = COLLCALC_WORKLOAD_TRAIN;
    q.tokens = 8192;
    q.dp = 2;
    collcalc_plan_result r = run(&q);
    const collcalc_plan_item *tp = item(&r, COLLCALC_COMM_TP_ALLREDUCE);
    assert_false(tp->crosses_node);
    assert_int_equal(tp->count_per_step, 320); /* forward and backward */
    const collcalc_plan_item *dp = item(&r, COLLCALC_COMM_DP_ALLREDUCE);
    assert_non_null(dp);
    assert_true(dp->crosses_node);
    assert_int_equal(dp->group_size, 2);
    assert_int_equal(dp->count_per_step, 1);
    /* 70.6e9 params / tp 8 x 2 B */
    assert_int_equal(dp->message_bytes, (uint64_t)llround(70.6e9 / 8 * 2));
    assert_null(item(&r, COLLCALC_COMM_DP_EXPERT_ALLREDUCE));

    /* The order flipped: DP fastest puts the TP group across nodes. */
    collcalc_dim order[COLLCALC_DIM_COUNT];
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_dim_order_parse("dp,tp", order, &diag), COLLCALC_OK);
    assert_int_equal(order[0], COLLCALC_DIM_DP);
    assert_int_equal(order[1], COLLCALC_DIM_TP);
    assert_int_equal(order[2], COLLCALC_DIM_CP);
    memcpy(q.order, order, sizeof order);
    r = run(&q);
    assert_string_equal(r.rank_order, "dp,tp,cp,ep,pp");
    assert_true(item(&r, COLLCALC_COMM_TP_ALLREDUCE)->crosses_node);
    assert_false(item(&r, COLLCALC_COMM_DP_ALLREDUCE)->crosses_node);
    assert_non_null(collcalc_findings_find(&r.findings, "tp-crosses-node"));
    assert_int_equal(collcalc_dim_order_parse("tp,tp", order, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "invalid rank order 'tp,tp': tp appears twice");
    assert_int_equal(collcalc_dim_order_parse("tp,xx", order, &diag), COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_dim_order_parse("tp,", order, &diag), COLLCALC_ERR_INVALID);
}

static void test_sp_pp_cp_overlap(void **state)
{
    (void)state;
    collcalc_plan_query q = llama_decode(8, "hgx-h100");
    q.workload = COLLCALC_WORKLOAD_PREFILL;
    q.tokens = 8192;
    q.sp = true;
    q.pp = 2;
    q.cp = 2;
    collcalc_plan_result r = run(&q);
    assert_int_equal(r.gpus, 32);
    assert_int_equal(r.layers_per_stage, 40);
    assert_int_equal(r.tokens_per_micro_batch, 4096); /* split over cp */
    assert_null(item(&r, COLLCALC_COMM_TP_ALLREDUCE));
    const collcalc_plan_item *rs = item(&r, COLLCALC_COMM_TP_REDUCESCATTER);
    const collcalc_plan_item *ag = item(&r, COLLCALC_COMM_TP_ALLGATHER);
    assert_non_null(rs);
    assert_non_null(ag);
    assert_int_equal(rs->count_per_step, 80);
    assert_int_equal(rs->message_bytes, UINT64_C(4096) * 8192 * 2);
    const collcalc_plan_item *pp = item(&r, COLLCALC_COMM_PP_SENDRECV);
    assert_non_null(pp);
    assert_int_equal(pp->count_per_step, 1);
    assert_int_equal(pp->message_bytes, UINT64_C(4096) * 8192 * 2 / 8);
    assert_true(pp->crosses_node); /* tp 8 x cp 2 = 16 ranks per stage */
    const collcalc_plan_item *cp = item(&r, COLLCALC_COMM_CP_RING);
    assert_non_null(cp);
    assert_int_equal(cp->count_per_step, 40);
    /* 4096 tokens x 327,680 B / 80 layers / 8 TP ranks */
    assert_int_equal(cp->message_bytes, UINT64_C(4096) * 327680 / 80 / 8);
    assert_true(cp->crosses_node);

    double before = r.exposed_us;
    q.overlap_tp = 0.5;
    q.sm_slowdown = 1.2;
    r = run(&q);
    rs = item(&r, COLLCALC_COMM_TP_REDUCESCATTER);
    assert_true(rs->hidden_fraction == 0.5);
    assert_true(fabs(rs->exposed_us - rs->total_us * (0.5 + 0.5 * 0.2)) < 1e-9 * rs->total_us);
    assert_true(r.exposed_us < before);
    assert_true(fabs(r.comm_us - before) < 1e-9 * before); /* totals unchanged */
}

static void test_moe_plan(void **state)
{
    (void)state;
    collcalc_plan_query q;
    collcalc_plan_query_init(&q);
    q.model = collcalc_model_table_find(models, "deepseek-v3");
    q.workload = COLLCALC_WORKLOAD_DECODE;
    q.ep = 32;
    q.tokens = 32 * 128;
    q.redundant_experts = 32;
    platform_cluster("hgx-h800", &q.cluster);
    collcalc_plan_result r = run(&q);
    const collcalc_plan_item *d = item(&r, COLLCALC_COMM_EP_DISPATCH);
    const collcalc_plan_item *c = item(&r, COLLCALC_COMM_EP_COMBINE);
    assert_non_null(d);
    assert_non_null(c);
    assert_int_equal(d->count_per_step, 58);
    assert_string_equal(d->algo, "deepep-low-latency");
    assert_int_equal(d->message_bytes, UINT64_C(128) * 8 * 7408);
    assert_int_equal(c->message_bytes, UINT64_C(128) * 8 * 14336);
    assert_true(d->crosses_node);
    assert_true(r.expert_memory_increase == 0.125);
    assert_non_null(collcalc_findings_find(&r.findings, "ep-crosses-node"));
    assert_non_null(collcalc_findings_find(&r.findings, "redundant-expert-memory"));
    assert_null(collcalc_findings_find(&r.findings, "ep-experts"));
    /* prefill picks the normal kernels */
    q.workload = COLLCALC_WORKLOAD_PREFILL;
    q.tokens = 32 * 4096;
    r = run(&q);
    assert_string_equal(item(&r, COLLCALC_COMM_EP_DISPATCH)->algo, "deepep-normal");
    /* EP 48 does not divide 256 slots */
    q.redundant_experts = 0;
    q.ep = 48;
    q.tokens = 48 * 4096;
    r = run(&q);
    const collcalc_finding *f = collcalc_findings_find(&r.findings, "ep-experts");
    assert_non_null(f);
    assert_int_equal(f->severity, COLLCALC_SEVERITY_ERROR);
    assert_string_equal(f->message, "ep 48 does not divide deepseek-v3's 256 expert slots: 32 "
                                    "redundant experts make 288 (--redundant-experts 32)");
    /* MLA with TP: the latent is replicated, said */
    q.ep = 8;
    q.tp = 8;
    q.tokens = 8 * 4096;
    r = run(&q);
    assert_non_null(collcalc_findings_find(&r.findings, "tp-mla-replication"));
    /* TP 8 fills each node, so the EP peers (stride 8) sit on 8 nodes */
    assert_null(collcalc_findings_find(&r.findings, "tp-crosses-node"));
    d = item(&r, COLLCALC_COMM_EP_DISPATCH);
    assert_true(d->crosses_node);
    assert_int_equal(d->nodes, 8);
    assert_int_equal(d->message_bytes, UINT64_C(512) * 8 * 7408); /* 4096 / tp 8 tokens */
}

static void test_rule_checks(void **state)
{
    (void)state;
    collcalc_plan_query q = llama_decode(8, "hgx-h100");
    q.gpus = 16;
    collcalc_plan_result r = run(&q);
    const collcalc_finding *f = collcalc_findings_find(&r.findings, "gpus-product");
    assert_non_null(f);
    assert_string_equal(f->message, "tp 8 x cp 1 x ep 1 x pp 1 x dp 1 = 8 GPUs, but 16 are given");
    q = llama_decode(8, "hgx-h100");
    q.tp = 3; /* 64 heads */
    r = run(&q);
    assert_non_null(collcalc_findings_find(&r.findings, "tp-heads"));
    q = llama_decode(8, "hgx-h100");
    q.pp = 3; /* 80 layers */
    r = run(&q);
    f = collcalc_findings_find(&r.findings, "pp-uneven");
    assert_non_null(f);
    assert_int_equal(f->severity, COLLCALC_SEVERITY_WARNING);
    assert_int_equal(r.layers_per_stage, 27);
    /* decode at 64 tokens on NVLink is latency-bound */
    q = llama_decode(8, "hgx-h100");
    r = run(&q);
    assert_int_equal(r.dominant, COLLCALC_DOMINANT_LATENCY);
    assert_non_null(collcalc_findings_find(&r.findings, "latency-bound"));
    /* 70.6e9 BF16 weights over 8 GPUs: 17.65 GB each; on 16 GB GPUs an error */
    q.gpu_memory_GB = 16;
    r = run(&q);
    assert_true(fabs(r.weight_bytes_per_gpu - 70.6e9 / 8 * 2) < 1.0);
    f = collcalc_findings_find(&r.findings, "weights-exceed-memory");
    assert_non_null(f);
    assert_string_equal(f->message, "the weights alone need 17.6 GB per GPU, more than the 14.4 GB "
                                    "usable of its 16 GB");
    q.gpu_memory_GB = 80;
    r = run(&q);
    assert_null(collcalc_findings_find(&r.findings, "weights-exceed-memory"));
}

static void test_bad_input(void **state)
{
    (void)state;
    collcalc_plan_result r;
    collcalc_diag diag = {{0}};
    collcalc_plan_query q = llama_decode(128, "hgx-h100");
    assert_int_equal(collcalc_plan_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "tp 128 is larger than llama-3-70b's 64 attention heads");
    q = llama_decode(8, "hgx-h100");
    q.ep = 2;
    assert_int_equal(collcalc_plan_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "ep 2 needs a MoE model; llama-3-70b is dense");
    q = llama_decode(8, "hgx-h100");
    q.model = collcalc_model_table_find(models, "mixtral-8x7b");
    q.ep = 16;
    assert_int_equal(collcalc_plan_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "ep 16 is larger than mixtral-8x7b's 8 expert slots");
    q = llama_decode(8, "hgx-h100");
    q.tokens = 0;
    assert_int_equal(collcalc_plan_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "tokens must be between 1 and");
    q.tokens = COLLCALC_TOKENS_MAX + 1;
    assert_int_equal(collcalc_plan_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    q = llama_decode(8, "hgx-h100");
    q.tp = 0;
    assert_int_equal(collcalc_plan_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "tp must be between 1 and 1000000 (got 0)");
    q = llama_decode(8, "hgx-h100");
    q.overlap_tp = 1.5;
    assert_int_equal(collcalc_plan_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    q = llama_decode(8, "hgx-h100");
    q.sm_slowdown = 0.5;
    assert_int_equal(collcalc_plan_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    q = llama_decode(8, "hgx-h100");
    q.cluster.inter.bw_GBps = NAN;
    assert_int_equal(collcalc_plan_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    q = llama_decode(8, "hgx-h100");
    q.model = NULL;
    assert_int_equal(collcalc_plan_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "no model given");
    /* The largest accepted token count stays finite, training DeepSeek-V3. */
    collcalc_plan_query big;
    collcalc_plan_query_init(&big);
    big.model = collcalc_model_table_find(models, "deepseek-v3");
    big.workload = COLLCALC_WORKLOAD_TRAIN;
    big.tokens = COLLCALC_TOKENS_MAX;
    big.tp = 8;
    big.ep = 32;
    big.pp = 4;
    big.dp = 2;
    platform_cluster("hgx-h800", &big.cluster);
    r = run(&big);
    assert_true(isfinite(r.comm_us) && r.comm_us > 0);
    assert_int_equal(r.micro_batches, 4);
    collcalc_workload w;
    assert_int_equal(collcalc_workload_from_name("Decode", &w, &diag), COLLCALC_OK);
    assert_int_equal(w, COLLCALC_WORKLOAD_DECODE);
    assert_int_equal(collcalc_workload_from_name("serve", &w, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "unknown phase 'serve' (use prefill, decode or train)");
    assert_string_equal(collcalc_comm_kind_name(COLLCALC_COMM_EP_COMBINE), "ep-combine");
    assert_string_equal(collcalc_dim_name(COLLCALC_DIM_PP), "pp");
}

/* A costing hook that counts its calls and defers to the default. */
static collcalc_status counting_cost(const collcalc_query *query, void *context,
                                     collcalc_result *out_result, collcalc_diag *diag)
{
    (*(int *)context)++;
    return collcalc_cost_fastest_nccl(query, NULL, out_result, diag);
}

static void test_costing_hook(void **state)
{
    (void)state;
    int calls = 0;
    collcalc_plan_query q = llama_decode(8, "hgx-h100");
    q.costing.fn = counting_cost;
    q.costing.context = &calls;
    collcalc_plan_result r = run(&q);
    assert_int_equal(calls, 1);
    collcalc_plan_query plain = llama_decode(8, "hgx-h100");
    collcalc_plan_result p = run(&plain);
    assert_true(r.comm_us == p.comm_us);
}

/* The NCCL-faithful model as the hook (the answer layer's, which prepares
 * each group as the single command does), for the HGX H100 preset. */
static void test_nccl_costing(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    collcalc_session *session = NULL;
    assert_int_equal(collcalc_session_new(&session, &diag), COLLCALC_OK);
    collcalc_request request = COLLCALC_REQUEST_INIT;
    collcalc_answer_costing nccl = {session, &request, NULL, 0, 0};
    assert_int_equal(collcalc_session_platform(session, "hgx-h100", &nccl.platform, &diag),
                     COLLCALC_OK);
    collcalc_plan_query q = llama_decode(8, "hgx-h100");
    q.costing.fn = collcalc_cost_answer;
    q.costing.context = &nccl;
    collcalc_plan_result r = run(&q);
    assert_int_equal(nccl.nccl_calls, 1);
    assert_int_equal(nccl.fallback_calls, 0);
    const collcalc_plan_item *ar = item(&r, COLLCALC_COMM_TP_ALLREDUCE);
    assert_int_equal(ar->count_per_step, 160);
    assert_true(ar->time_us_each > 0 && isfinite(ar->time_us_each));
    /* TP 16 across two nodes costs more in NCCL's model too */
    collcalc_plan_query q16 = llama_decode(16, "hgx-h100");
    q16.costing = q.costing;
    collcalc_plan_result r16 = run(&q16);
    assert_int_equal(nccl.nccl_calls, 2);
    assert_true(r16.floor_us > r.floor_us);
    /* PP send/recv is not NCCL-tuned, but collcalc's point-to-point model
     * on the platform costs it (no alpha-beta fallback). */
    q.pp = 2;
    long calls = nccl.nccl_calls;
    r = run(&q);
    assert_int_equal(nccl.fallback_calls, 0);
    assert_true(nccl.nccl_calls > calls);
    const collcalc_plan_item *pp = item(&r, COLLCALC_COMM_PP_SENDRECV);
    assert_true(pp->time_us_each > 0 && isfinite(pp->time_us_each));
    /* the request's NCCL fields reach every group: without NVLS the TP 8
     * all-reduce of 4,096 tokens runs on rings, and takes longer */
    collcalc_plan_query big = llama_decode(8, "hgx-h100");
    big.tokens = 4096;
    big.costing = q.costing;
    collcalc_plan_result with_nvls = run(&big);
    request.cluster.nvls = COLLCALC_SETTING_OFF;
    collcalc_plan_result without = run(&big);
    assert_true(item(&without, COLLCALC_COMM_TP_ALLREDUCE)->time_us_each >
                1.2 * item(&with_nvls, COLLCALC_COMM_TP_ALLREDUCE)->time_us_each);
    collcalc_answer_costing empty = {0};
    q.costing.context = &empty;
    collcalc_plan_result bad;
    assert_int_equal(collcalc_plan_evaluate(&q, &bad, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message,
                        "the answer costing needs a session, a request and a platform");
    collcalc_session_free(session);
}

static void test_search(void **state)
{
    (void)state;
    collcalc_plan_query q;
    collcalc_plan_query_init(&q);
    q.model = collcalc_model_table_find(models, "llama-3-70b");
    q.workload = COLLCALC_WORKLOAD_DECODE;
    q.tokens = 64;
    platform_cluster("hgx-h100", &q.cluster);
    collcalc_plan_candidate out[64];
    size_t count = 0, total = 0;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_plan_search(&q, 16, out, 64, &count, &total, &diag), COLLCALC_OK);
    /* tp in {1,2,4,8,16} x pp in the divisors of 16/tp: 5 + 4 + 3 + 2 + 1 */
    assert_int_equal(total, 15);
    assert_int_equal(count, 15);
    for (size_t i = 0; i + 1 < count; i++) {
        bool e0 = out[i].errors > 0, e1 = out[i + 1].errors > 0;
        assert_true(!e0 || e1); /* error-free plans first */
        if (e0 == e1)
            assert_true(out[i].exposed_us <= out[i + 1].exposed_us);
        assert_int_equal(out[i].tp * out[i].ep * out[i].pp * out[i].dp, 16);
    }
    assert_true(out[0].tp == 1 && out[0].pp == 1 && out[0].dp == 16); /* no communication */
    bool found = false;
    for (size_t i = 0; i < count; i++) {
        if (out[i].tp == 16) {
            found = true;
            assert_true(out[i].errors > 0);
            assert_string_equal(out[i].codes[0], "tp-crosses-node");
        }
    }
    assert_true(found);
    /* capacity keeps the best */
    collcalc_plan_candidate best[3];
    assert_int_equal(collcalc_plan_search(&q, 16, best, 3, &count, &total, &diag), COLLCALC_OK);
    assert_int_equal(count, 3);
    assert_int_equal(total, 15);
    assert_int_equal(best[0].dp, out[0].dp);
    assert_true(best[2].exposed_us == out[2].exposed_us);

    /* DeepSeek-V3 over 256 GPUs: every candidate's degrees multiply out. */
    q.model = collcalc_model_table_find(models, "deepseek-v3");
    q.tokens = 256 * 128;
    collcalc_plan_candidate many[512];
    assert_int_equal(collcalc_plan_search(&q, 256, many, 512, &count, &total, &diag),
                     COLLCALC_OK);
    assert_true(total > 100);
    for (size_t i = 0; i < count; i++) {
        assert_int_equal(many[i].tp * many[i].ep * many[i].pp * many[i].dp, 256);
        assert_true(isfinite(many[i].exposed_us));
        assert_true(many[i].tp <= 128 && many[i].ep <= 256 && many[i].pp <= 61);
    }
    /* With 80 GB per GPU (H800) in FP8 a replica needs at least 16 GPUs:
     * the weights check removes the communication-free answers. */
    q.dtype = COLLCALC_DTYPE_FP8;
    q.gpu_memory_GB = 80;
    assert_int_equal(collcalc_plan_search(&q, 256, many, 512, &count, &total, &diag),
                     COLLCALC_OK);
    assert_true(many[0].errors == 0);
    assert_true(many[0].tp * many[0].ep * many[0].pp >= 16);
    for (size_t i = 0; i < count; i++)
        if (many[i].tp * many[i].ep * many[i].pp < 8)
            assert_true(many[i].errors > 0);
    assert_int_equal(collcalc_plan_search(&q, 0, many, 512, &count, &total, &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "gpus must be between 1 and 1000000 (got 0)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llama_tp8_decode), cmocka_unit_test(test_llama_tp16_crosses_hgx),
        cmocka_unit_test(test_layout_and_order), cmocka_unit_test(test_sp_pp_cp_overlap),
        cmocka_unit_test(test_moe_plan),         cmocka_unit_test(test_rule_checks),
        cmocka_unit_test(test_bad_input),        cmocka_unit_test(test_costing_hook),
        cmocka_unit_test(test_nccl_costing),    cmocka_unit_test(test_search),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
