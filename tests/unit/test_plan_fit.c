/* Unit tests for plans that fit and step time (src/plan/step.c), the GPU
 * table (src/data/gpus.c, data/gpus.json), native weight formats
 * (data/models.json), token counts with k/M suffixes, and --tokens split
 * across DP (src/plan/plan.c). */
#include "support.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "collcalc/gpus.h"
#include "collcalc/links.h"
#include "collcalc/models.h"
#include "collcalc/plan.h"
#include "collcalc/platforms.h"

static collcalc_model_table *models;
static collcalc_link_table *links;
static collcalc_platform_table *platforms;
static collcalc_gpu_table *gpus;

static int setup(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    if (collcalc_model_table_builtin(&models, &diag) != COLLCALC_OK ||
        collcalc_link_table_builtin(&links, &diag) != COLLCALC_OK ||
        collcalc_platform_table_builtin(links, &platforms, &diag) != COLLCALC_OK ||
        collcalc_gpu_table_builtin(&gpus, &diag) != COLLCALC_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    collcalc_model_table_free(models);
    collcalc_platform_table_free(platforms);
    collcalc_link_table_free(links);
    collcalc_gpu_table_free(gpus);
    return 0;
}

static collcalc_plan_query on_platform(const char *model, const char *platform, uint64_t tokens)
{
    collcalc_plan_query q;
    collcalc_plan_query_init(&q);
    q.model = collcalc_model_table_find(models, model);
    assert_non_null(q.model);
    q.tokens = tokens;
    const collcalc_platform *p = collcalc_platform_table_find(platforms, platform);
    assert_non_null(p);
    q.cluster.gpus_per_node = p->gpus_per_node;
    q.cluster.nics_per_node = p->nics_per_node;
    collcalc_link_params_from_link(collcalc_link_table_find(links, p->intra_link),
                                   COLLCALC_BW_PER_DIRECTION, &q.cluster.intra);
    collcalc_link_params_from_link(collcalc_link_table_find(links, p->inter_link),
                                   COLLCALC_BW_PER_DIRECTION, &q.cluster.inter);
    q.gpu = collcalc_gpu_table_find(gpus, p->gpu);
    assert_non_null(q.gpu);
    return q;
}

static collcalc_plan_result run(const collcalc_plan_query *q)
{
    collcalc_plan_result r;
    collcalc_diag diag = {{0}};
    collcalc_status status = collcalc_plan_evaluate(q, &r, &diag);
    if (status != COLLCALC_OK)
        fprintf(stderr, "%s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    return r;
}

static void test_gpu_table(void **state)
{
    (void)state;
    /* Every GPU a built-in platform names is in the GPU table. */
    for (size_t i = 0; i < collcalc_platform_table_count(platforms); i++) {
        const collcalc_platform *p = collcalc_platform_table_at(platforms, i);
        if (strcmp(p->gpu, "not stated") == 0)
            continue;
        if (collcalc_gpu_table_find(gpus, p->gpu) == NULL)
            fail_msg("platform %s names GPU '%s', not in data/gpus.json", p->name, p->gpu);
    }
    const collcalc_gpu *h100 = collcalc_gpu_table_find(gpus, "h100 sxm");
    assert_non_null(h100);
    assert_true(h100->memory_GB == 80 && h100->memory_GBps == 3350);
    collcalc_gpu_flops_type used;
    assert_true(collcalc_gpu_tflops(h100, COLLCALC_GPU_FLOPS_FP4, &used) == 1978.9);
    assert_int_equal(used, COLLCALC_GPU_FLOPS_FP8); /* no FP4 on Hopper: FP8 */
    const collcalc_gpu *a100 = collcalc_gpu_table_find(gpus, "A100 SXM4 80GB");
    assert_true(collcalc_gpu_tflops(a100, COLLCALC_GPU_FLOPS_FP8, &used) == 312);
    assert_int_equal(used, COLLCALC_GPU_FLOPS_BF16);
    for (size_t i = 0; i < collcalc_gpu_table_count(gpus); i++) {
        const collcalc_gpu *g = collcalc_gpu_table_at(gpus, i);
        assert_true(g->memory_source[0] != '\0' && g->bandwidth_source[0] != '\0');
        for (int t = 0; t < COLLCALC_GPU_FLOPS_COUNT; t++)
            assert_true((g->tflops[t] > 0) == (g->tflops_source[t][0] != '\0'));
    }
    /* Strict loading: a figure without its source, unknown keys, bad names. */
    static const char *const bad[][2] = {
        {"{\"schema_version\":1,\"gpus\":[{\"name\":\"X\",\"memory_GB\":80,\"hbm_GBps\":1,"
         "\"tflops\":{\"bf16\":1,\"fp8\":2},\"sources\":{\"memory_GB\":\"a\",\"hbm_GBps\":\"b\","
         "\"bf16\":\"c\"}}]}",
         "gpus[0].sources.fp8: missing: every figure needs its source"},
        {"{\"schema_version\":1,\"gpus\":[{\"name\":\"X\",\"memory_GB\":80,\"hbm_GBps\":1,"
         "\"tflops\":{\"bf16\":1},\"sources\":{\"memory_GB\":\"a\",\"hbm_GBps\":\"b\","
         "\"bf16\":\"c\",\"fp4\":\"d\"}}]}",
         "gpus[0].sources.fp4: a source for tflops.fp4, which is not given"},
        {"{\"schema_version\":1,\"gpus\":[{\"name\":\"X\",\"memory_GB\":0,\"hbm_GBps\":1,"
         "\"tflops\":{\"bf16\":1},\"sources\":{\"memory_GB\":\"a\",\"hbm_GBps\":\"b\","
         "\"bf16\":\"c\"}}]}",
         "gpus[0].memory_GB"},
        {"{\"schema_version\":1,\"gpus\":[{\"name\":\" X\",\"memory_GB\":1,\"hbm_GBps\":1,"
         "\"tflops\":{\"bf16\":1},\"sources\":{\"memory_GB\":\"a\",\"hbm_GBps\":\"b\","
         "\"bf16\":\"c\"}}]}",
         "gpus[0].name: no leading or trailing spaces"},
        {"{\"schema_version\":1,\"gpus\":[{\"name\":\"X\",\"memory_GB\":1,\"hbm_GBps\":1,"
         "\"tflops\":{\"bf16\":1,\"int8\":2},\"sources\":{\"memory_GB\":\"a\",\"hbm_GBps\":\"b\","
         "\"bf16\":\"c\"}}]}",
         "gpus[0].tflops: unknown key 'int8'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        collcalc_gpu_table *t = NULL;
        collcalc_diag diag = {{0}};
        assert_int_equal(collcalc_gpu_table_parse(bad[i][0], strlen(bad[i][0]), "t.json", &t,
                                                  &diag),
                         COLLCALC_ERR_INVALID);
        assert_null(t);
        if (strstr(diag.message, bad[i][1]) == NULL)
            fail_msg("'%s' does not contain '%s'", diag.message, bad[i][1]);
    }
}

static void test_native_weights(void **state)
{
    (void)state;
    const collcalc_model_shape *ds = collcalc_model_table_find(models, "deepseek-v3");
    assert_int_equal(ds->weight_format, COLLCALC_WEIGHTS_FP8);
    assert_true(ds->weights_source[0] != '\0');
    assert_true(fabs(collcalc_model_weight_bytes(ds) - 671e9) < 1.0);
    const collcalc_model_shape *oss = collcalc_model_table_find(models, "gpt-oss-120b");
    assert_int_equal(oss->weight_format, COLLCALC_WEIGHTS_BF16);
    assert_int_equal(oss->expert_weight_format, COLLCALC_WEIGHTS_MXFP4);
    double experts = collcalc_model_expert_params(oss);
    assert_true(fabs(collcalc_model_weight_bytes(oss) -
                     ((116.8e9 - experts) * 2 + experts * 0.53125)) < 1.0);
    for (size_t i = 0; i < collcalc_model_table_count(models); i++)
        assert_true(collcalc_model_table_at(models, i)->weights_source[0] != '\0');
    collcalc_weight_format f;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_weight_format_from_name("NVFP4", &f, &diag), COLLCALC_OK);
    assert_true(collcalc_weight_format_bytes(f) == 0.5625);
    assert_int_equal(collcalc_weight_format_from_name("int4", &f, &diag), COLLCALC_ERR_INVALID);
}

static void test_tokens_parse(void **state)
{
    (void)state;
    uint64_t t = 0;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_tokens_parse("8k", COLLCALC_TOKENS_MAX, &t, &diag), COLLCALC_OK);
    assert_int_equal(t, 8192);
    assert_int_equal(collcalc_tokens_parse("128K", COLLCALC_TOKENS_MAX, &t, &diag), COLLCALC_OK);
    assert_int_equal(t, 131072);
    assert_int_equal(collcalc_tokens_parse("1M", COLLCALC_TOKENS_MAX, &t, &diag), COLLCALC_OK);
    assert_int_equal(t, 1048576);
    assert_int_equal(collcalc_tokens_parse("4096", COLLCALC_TOKENS_MAX, &t, &diag), COLLCALC_OK);
    assert_int_equal(t, 4096);
    static const char *const refused[] = {"", "k", "8q", "8kk", "0", "-1", "1.5k", "16M M",
                                          "99999999999999999999999", "16385M"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        assert_int_equal(collcalc_tokens_parse(refused[i], COLLCALC_TOKENS_MAX, &t, &diag),
                         COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_tokens_parse("8q", COLLCALC_TOKENS_MAX, &t, &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "'8q' is not a token count (a whole number, optionally "
                                      "with k or M: 8k = 8192)");
}

static void test_fit(void **state)
{
    (void)state;
    /* Llama 3.1 405B in BF16 on one HGX H100: 811.8 GB of weights, 101.5 GB
     * per GPU, over the 72 GB usable of 80. */
    collcalc_plan_query q = on_platform("llama-3.1-405b", "hgx-h100", 64);
    q.tp = 8;
    collcalc_plan_result r = run(&q);
    assert_true(r.memory_checked);
    assert_false(r.fits);
    assert_true(fabs(r.weight_bytes_per_gpu - 405.9e9 * 2 / 8) < 1.0);
    assert_true(fabs(r.memory_capacity_bytes - 72e9) < 1.0);
    assert_non_null(collcalc_findings_find(&r.findings, "weights-exceed-memory"));
    assert_int_equal(r.max_tokens, 0);
    /* FP8 weights fit (50.7 GB), with room for some KV. */
    q.weight_format_given = true;
    q.weight_format = COLLCALC_WEIGHTS_FP8;
    r = run(&q);
    assert_true(r.fits);
    assert_true(r.max_tokens >= 64);
    assert_null(collcalc_findings_find(&r.findings, "weights-exceed-memory"));
    /* the KV cache exactly: 64 sequences x 4096 context x 516,096 B / 8 */
    assert_int_equal(r.context, COLLCALC_PLAN_CONTEXT_DEFAULT);
    assert_true(r.kv_bytes_per_gpu == 64.0 * 4096 * 516096 / 8);
    /* the largest token count fits, one more does not */
    uint64_t most = r.max_tokens;
    q.tokens = most;
    r = run(&q);
    assert_true(r.fits);
    q.tokens = most + 1;
    r = run(&q);
    assert_false(r.fits);
    assert_non_null(collcalc_findings_find(&r.findings, "memory-exceeded"));
    /* --gpu-memory overrides the GPU's */
    q.tokens = 64;
    q.gpu_memory_GB = 40;
    r = run(&q);
    assert_true(fabs(r.memory_capacity_bytes - 36e9) < 1.0);
    assert_false(r.fits);
    /* without a GPU and without --gpu-memory nothing is checked */
    q.gpu = NULL;
    q.gpu_memory_GB = 0;
    r = run(&q);
    assert_false(r.memory_checked);
    assert_true(r.fits);
    assert_false(r.compute_modeled);
    /* DeepSeek-V3 counts in its native FP8: 671 GB over EP 8 x PP 1 */
    q = on_platform("deepseek-v3", "hgx-h200", 64);
    q.ep = 8;
    r = run(&q);
    /* 17.1e9 replicated + 653.9e9 of experts / 8 */
    assert_true(r.weight_bytes_per_gpu > 98e9 && r.weight_bytes_per_gpu < 99.5e9);
    assert_true(r.fits);
}

static void test_tokens_split_across_dp(void **state)
{
    (void)state;
    collcalc_plan_query q = on_platform("llama-3-70b", "hgx-h100", 256);
    q.tp = 4;
    q.dp = 4;
    collcalc_plan_result r = run(&q);
    assert_int_equal(r.tokens_per_replica, 64);
    assert_int_equal(r.tokens_per_micro_batch, 64);
    /* the TP all-reduce carries one replica's tokens: 64 x 8192 x 2 B */
    assert_int_equal(r.items[0].message_bytes, 64u * 8192 * 2);
    q.dp = 1;
    collcalc_plan_result one = run(&q);
    assert_int_equal(one.items[0].message_bytes, 256u * 8192 * 2);
    /* DP 4 of 64 sequences each keep a quarter of the KV per GPU */
    assert_true(fabs(one.kv_bytes_per_gpu - 4 * r.kv_bytes_per_gpu) < 1.0);
    /* fewer tokens than slices is refused */
    q.dp = 4;
    q.tokens = 3;
    collcalc_plan_result bad;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_plan_evaluate(&q, &bad, &diag), COLLCALC_ERR_INVALID);
}

static void test_step_time(void **state)
{
    (void)state;
    /* Decode of Llama 3 70B, TP 8 on H100: memory-bound, the weights
     * (17.65 GB per GPU) and the KV read at 3,350 GB/s per step. */
    collcalc_plan_query q = on_platform("llama-3-70b", "hgx-h100", 64);
    q.tp = 8;
    collcalc_plan_result r = run(&q);
    assert_true(r.compute_modeled);
    assert_true(r.compute_memory_us > r.compute_flops_us);
    double floor_us = (r.weight_bytes_per_gpu + r.kv_bytes_per_gpu) / 3350e9 * 1e6;
    assert_true(r.compute_us >= 0.95 * floor_us && r.compute_us <= 1.05 * floor_us);
    assert_true(fabs(r.step_us - (r.compute_us + r.bubble_us + r.exposed_comm_us)) < 1e-6);
    assert_true(fabs(r.tokens_per_s_per_gpu - 64 / (r.step_us * 1e-6) / 8) < 1e-6);
    assert_true(r.comm_share > 0 && r.comm_share < 1);
    /* half the efficiency: twice the compute */
    q.compute_efficiency = 0.5;
    collcalc_plan_result half = run(&q);
    assert_true(fabs(half.compute_us - 2 * r.compute_us) < 1e-6 * r.compute_us);
    /* Prefill of 8k tokens is FLOP-bound: about 2 x 70.6e9 x 8192 / 8 FLOPs */
    q = on_platform("llama-3-70b", "hgx-h100", 8192);
    q.workload = COLLCALC_WORKLOAD_PREFILL;
    q.tp = 8;
    r = run(&q);
    assert_true(r.compute_flops_us > r.compute_memory_us);
    double gemm_us = 2 * 70.6e9 * 8192 / 8 / 989.4e12 * 1e6;
    assert_true(r.compute_us > 0.9 * gemm_us && r.compute_us < 1.5 * gemm_us);
    /* hidden communication beyond the compute is exposed again */
    q.overlap_tp = 1.0;
    r = run(&q);
    assert_true(r.exposed_comm_us >= 0);
    assert_true(r.step_us >= r.compute_us);
}

static void test_search_ranks_fitting_plans(void **state)
{
    (void)state;
    /* Llama 3 70B on 2 x HGX H100 for 256 tokens: TP 1 x DP 16 (141 GB of
     * weights per GPU) never ranks first, and nothing that does not fit
     * ranks above a plan that does. */
    collcalc_plan_query q = on_platform("llama-3-70b", "hgx-h100", 256);
    collcalc_plan_candidate out[16];
    size_t count = 0, total = 0;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_plan_search(&q, 16, out, 16, &count, &total, &diag), COLLCALC_OK);
    assert_int_equal(count, 15);
    assert_true(out[0].fits);
    assert_false(out[0].tp == 1 && out[0].dp == 16);
    bool seen_unfit = false;
    for (size_t i = 0; i < count; i++) {
        if (!out[i].fits)
            seen_unfit = true;
        else
            assert_false(seen_unfit);
        if (out[i].tp == 1 && out[i].pp == 1)
            assert_false(out[i].fits);
    }
    /* throughput: peak tokens/s per GPU descending among fitting error-free plans */
    for (size_t i = 1; i < count; i++)
        if (out[i].fits && out[i].errors == 0 && out[i - 1].errors == 0)
            assert_true(out[i - 1].peak_tokens_per_s_per_gpu >=
                        out[i].peak_tokens_per_s_per_gpu);
    /* latency: step time ascending */
    q.goal = COLLCALC_GOAL_LATENCY;
    assert_int_equal(collcalc_plan_search(&q, 16, out, 16, &count, &total, &diag), COLLCALC_OK);
    for (size_t i = 1; i < count; i++)
        if (out[i].fits && out[i].errors == 0 && out[i - 1].errors == 0)
            assert_true(out[i - 1].step_us <= out[i].step_us);
    /* a budget nobody meets keeps the order; one somebody meets puts them first */
    q.latency_budget_us = out[2].step_us;
    assert_int_equal(collcalc_plan_search(&q, 16, out, 16, &count, &total, &diag), COLLCALC_OK);
    assert_true(out[0].within_budget);
    /* DeepSeek-V3 on one GB200 NVL72 rack: the first plan fits */
    q = on_platform("deepseek-v3", "gb200-nvl72", 72 * 64);
    assert_int_equal(collcalc_plan_search(&q, 72, out, 16, &count, &total, &diag), COLLCALC_OK);
    assert_true(out[0].fits && out[0].errors == 0);
    assert_true(out[0].memory_bytes_per_gpu <= 186e9 * 0.9);
}

static void test_bubble_counts_stage_communication(void **state)
{
    (void)state;
    /* Llama 3.1 405B, TP 8 x PP 2 on 2 HGX H100, one micro-batch: the
     * second stage waits for the first stage's compute and its TP
     * all-reduces alike, so the bubble is one stage time, compute and
     * exposed TP communication (not the compute alone). */
    collcalc_plan_query q = on_platform("llama-3.1-405b", "hgx-h100", 64);
    q.tp = 8;
    q.pp = 2;
    collcalc_plan_result r = run(&q);
    assert_int_equal(r.micro_batches, 1);
    assert_int_equal(r.items[0].kind, COLLCALC_COMM_TP_ALLREDUCE);
    assert_int_equal(r.items[1].kind, COLLCALC_COMM_PP_SENDRECV);
    double stage = r.compute_us + r.items[0].exposed_us;
    assert_true(r.items[0].exposed_us > 1000.0);
    assert_true(fabs(r.bubble_us - stage) < 1e-6 * stage);
    assert_true(fabs(r.step_us - (2 * stage + r.items[1].exposed_us)) < 1e-6 * r.step_us);
    /* with 4 micro-batches the bubble is (pp - 1) / m of the stages' time */
    q.micro_batches = 4;
    q.tokens = 256;
    r = run(&q);
    stage = r.compute_us + r.items[0].exposed_us;
    assert_true(fabs(r.bubble_us - stage / 4) < 1e-6 * stage);
    /* prefill the same */
    q = on_platform("llama-3.1-405b", "hgx-h100", 32768);
    q.workload = COLLCALC_WORKLOAD_PREFILL;
    q.tp = 8;
    q.pp = 2;
    r = run(&q);
    assert_true(fabs(r.bubble_us - (r.compute_us + r.items[0].exposed_us)) < 1e-6 * r.bubble_us);
}

static void test_serving_keeps_pp_batches_in_flight(void **state)
{
    (void)state;
    /* Llama 3 70B decode of 128 tokens, TP 4 x PP 2 on one HGX H100: two
     * batches in the pipeline (vLLM's virtual engines). Throughput: a batch
     * every stage time (compute + the stage's TP all-reduces + one PP
     * send); latency: the traversal, 2 stages (pp x stage - one send). */
    collcalc_plan_query q = on_platform("llama-3-70b", "hgx-h100", 128);
    q.tp = 4;
    q.pp = 2;
    collcalc_plan_result r = run(&q);
    assert_int_equal(r.batches_in_flight, 2);
    assert_int_equal(r.items[1].kind, COLLCALC_COMM_PP_SENDRECV);
    double send = r.items[1].exposed_us;
    double stage = r.compute_us + r.items[0].exposed_us + send;
    assert_true(fabs(r.stage_us - stage) < 1e-9 * stage);
    assert_true(fabs(r.step_us - (2 * stage - send)) < 1e-9 * r.step_us);
    assert_true(fabs(r.token_latency_us - r.step_us) < 1e-9 * r.step_us);
    assert_true(fabs(r.tokens_per_s_per_gpu - 128 / (stage * 1e-6) / 8) < 1e-9 * 1e3);
    assert_true(r.tokens_per_s_per_gpu > 1.9 * 128 / (r.step_us * 1e-6) / 8);
    /* the KV of both batches is resident: per GPU as much as TP 4 alone
     * holds for one batch over all 80 layers */
    collcalc_plan_query one = q;
    one.pp = 1;
    collcalc_plan_result r1 = run(&one);
    assert_int_equal(r1.batches_in_flight, 1);
    assert_true(r.kv_bytes_per_gpu == r1.kv_bytes_per_gpu);
    assert_true(r.kv_bytes_per_gpu == 2.0 * 128 * 4096 * 327680 / 4 / 2);
    /* prefill the same; training drains the pipeline every step */
    q.workload = COLLCALC_WORKLOAD_PREFILL;
    q.tokens = 8192;
    r = run(&q);
    assert_int_equal(r.batches_in_flight, 2);
    assert_int_equal(r.prompts, 2);
    assert_true(fabs(r.tokens_per_s_per_gpu - 8192 / (r.stage_us * 1e-6) / 8) <
                1e-9 * r.tokens_per_s_per_gpu);
    assert_true(r.stage_us < r.step_us);
    q.workload = COLLCALC_WORKLOAD_TRAIN;
    r = run(&q);
    assert_int_equal(r.batches_in_flight, 1);
    assert_true(r.stage_us == r.step_us);
    assert_true(fabs(r.tokens_per_s_per_gpu - 8192 / (r.step_us * 1e-6) / 8) <
                1e-9 * r.tokens_per_s_per_gpu);
}

static void test_train_micro_batch_holds_a_sequence(void **state)
{
    (void)state;
    /* Llama 3.1 8B training, DP 4 x PP 4 (4 micro-batches) on 2 HGX H100:
     * 1,000 tokens at --context 4k leave 62.5 tokens per micro-batch */
    collcalc_plan_query q = on_platform("llama-3.1-8b", "hgx-h100", 1000);
    q.workload = COLLCALC_WORKLOAD_TRAIN;
    q.dp = 4;
    q.pp = 4;
    q.context = 4096;
    collcalc_plan_result r = run(&q);
    const collcalc_finding *part = collcalc_findings_find(&r.findings, "train-partial-sequence");
    assert_non_null(part);
    assert_int_equal(part->severity, COLLCALC_SEVERITY_WARNING);
    assert_string_equal(part->message, "a micro-batch holds 62.5 tokens (--tokens 1000 / dp 4 / "
                                       "ep 1 / --micro-batches 4), less than one 4096-token "
                                       "sequence (--context)");
    /* the largest that fits: whole 4096-token sequences in each of the 4
     * micro-batches of the 4 replicas */
    assert_true(r.max_tokens > 0);
    assert_int_equal(r.max_tokens % (4 * 4 * 4096), 0);
    /* one sequence per micro-batch: no warning */
    q.tokens = 4 * 4 * 4096;
    r = run(&q);
    assert_null(collcalc_findings_find(&r.findings, "train-partial-sequence"));
    /* serving never warns */
    q.workload = COLLCALC_WORKLOAD_DECODE;
    q.tokens = 64;
    r = run(&q);
    assert_null(collcalc_findings_find(&r.findings, "train-partial-sequence"));
}

static void test_one_exposed_figure(void **state)
{
    (void)state;
    /* Llama 3 70B, TP 16 on HGX H100 with everything "hidden": the
     * communication beyond the compute is exposed again, and the items,
     * the plan's exposed figure and the step's say the same. */
    collcalc_plan_query q = on_platform("llama-3-70b", "hgx-h100", 64);
    q.tp = 16;
    q.overlap_tp = 1.0;
    collcalc_plan_result r = run(&q);
    assert_true(r.comm_us > r.compute_us);
    double items = 0;
    for (size_t i = 0; i < r.item_count; i++)
        items += r.items[i].exposed_us;
    assert_true(fabs(r.exposed_us - (r.comm_us - r.compute_us)) < 1e-6 * r.comm_us);
    assert_true(fabs(items - r.exposed_us) < 1e-6 * r.comm_us);
    assert_true(r.exposed_comm_us == r.exposed_us);
    assert_true(fabs(r.step_us - r.comm_us) < 1e-6 * r.comm_us);
}

static void test_search_keeps_given_degrees(void **state)
{
    (void)state;
    /* --tp 4 with --search on 16 GPUs: only TP 4 plans (PP 1, 2, 4) */
    collcalc_plan_query q = on_platform("llama-3-70b", "hgx-h100", 256);
    q.tp = 4;
    q.search_fixed = 1u << COLLCALC_DIM_TP;
    collcalc_plan_candidate out[16];
    size_t count = 0, total = 0;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_plan_search(&q, 16, out, 16, &count, &total, &diag), COLLCALC_OK);
    assert_int_equal(total, 3);
    for (size_t i = 0; i < count; i++)
        assert_int_equal(out[i].tp, 4);
    /* and PP 2 as well: TP 4 x PP 2 x DP 2 alone */
    q.pp = 2;
    q.search_fixed |= 1u << COLLCALC_DIM_PP;
    assert_int_equal(collcalc_plan_search(&q, 16, out, 16, &count, &total, &diag), COLLCALC_OK);
    assert_int_equal(total, 1);
    assert_int_equal(out[0].dp, 2);
    /* a degree that does not divide the GPUs is refused, naming it */
    q.tp = 3;
    q.pp = 1;
    q.search_fixed = 1u << COLLCALC_DIM_TP;
    assert_int_equal(collcalc_plan_search(&q, 16, out, 16, &count, &total, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "tp 3"));
    /* --mode on a dense model says it does nothing */
    q = on_platform("llama-3-70b", "hgx-h100", 256);
    q.tp = 8;
    collcalc_plan_result r = run(&q);
    assert_null(collcalc_findings_find(&r.findings, "moe-options-dense"));
    q.moe_mode_auto = false;
    q.moe_mode = COLLCALC_MOE_LOW_LATENCY;
    r = run(&q);
    const collcalc_finding *dense = collcalc_findings_find(&r.findings, "moe-options-dense");
    assert_non_null(dense);
    assert_string_equal(dense->message,
                        "--mode low-latency has no effect: llama-3-70b is dense (no expert "
                        "dispatch)");
    /* the other dispatch options likewise, named in one note */
    q.moe_mode_auto = true;
    q.dispatch_dtype = COLLCALC_DTYPE_BF16;
    q.combine_dtype = COLLCALC_DTYPE_FP8;
    q.imbalance = 2;
    r = run(&q);
    dense = collcalc_findings_find(&r.findings, "moe-options-dense");
    assert_non_null(dense);
    assert_string_equal(dense->message,
                        "--dispatch-dtype bf16, --combine-dtype fp8, --imbalance 2 have no "
                        "effect: llama-3-70b is dense (no expert dispatch)");
}

static void test_prefill_prompt_does_not_change_with_dp(void **state)
{
    (void)state;
    /* Llama 3 70B prefill of 64k tokens on HGX H200: the prompt is 65,536
     * tokens whether TP 8 holds it or each of DP 8 replicas prefills 8,192
     * tokens of one (chunked): 327,680 B of KV per token (80 layers x 2 x 8
     * KV heads x 128 x 2 B). */
    collcalc_plan_query q = on_platform("llama-3-70b", "hgx-h200", 65536);
    q.workload = COLLCALC_WORKLOAD_PREFILL;
    q.tp = 8;
    collcalc_plan_result tp8 = run(&q);
    assert_int_equal(tp8.context, 65536);
    assert_int_equal(tp8.sequences, 1);
    assert_true(tp8.kv_bytes_per_gpu == 65536.0 * 327680 / 8);
    q.tp = 1;
    q.dp = 8;
    collcalc_plan_result dp8 = run(&q);
    assert_int_equal(dp8.context, 65536);
    assert_int_equal(dp8.sequences, 1);
    assert_true(dp8.kv_bytes_per_gpu == 65536.0 * 327680);
    /* the same attention work per token: compute per token within 1 %
     * (TP 8 splits the GEMMs 8 ways over 8x the tokens) */
    assert_true(fabs(dp8.compute_flops_us - tp8.compute_flops_us) < 0.01 * tp8.compute_flops_us);
    /* --context 8k: 8 prompts of 8,192 */
    q.tp = 8;
    q.dp = 1;
    q.context = 8192;
    collcalc_plan_result ctx = run(&q);
    assert_int_equal(ctx.sequences, 8);
    assert_true(ctx.kv_bytes_per_gpu == 8 * 8192.0 * 327680 / 8);
    /* 64 tokens of an 8k prompt: the prompt's KV (not 64 tokens'), and the
     * attention over it as well */
    q.tokens = 64;
    collcalc_plan_result chunk = run(&q);
    assert_int_equal(chunk.context, 8192);
    assert_int_equal(chunk.sequences, 1);
    assert_true(chunk.kv_bytes_per_gpu == 8192.0 * 327680 / 8);
    q.context = 64;
    collcalc_plan_result whole = run(&q);
    assert_true(chunk.compute_us > whole.compute_us);
}

static void test_goals_rank_differently(void **state)
{
    (void)state;
    /* Llama 3 70B decode of 64 tokens on one HGX H200: latency (time per
     * output token at 64 tokens) prefers TP 8; throughput (tokens/s per GPU
     * at the largest batch that fits) prefers TP 4 x PP 2 (pp batches in
     * flight, no pipeline drain), then TP 4 x DP 2. */
    collcalc_plan_query q = on_platform("llama-3-70b", "hgx-h200", 64);
    collcalc_plan_candidate out[16];
    size_t count = 0, total = 0;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_plan_search(&q, 8, out, 16, &count, &total, &diag), COLLCALC_OK);
    assert_true(out[0].tp == 4 && out[0].pp == 2 && out[0].dp == 1);
    assert_true(out[1].tp == 4 && out[1].dp == 2);
    for (size_t i = 1; i < count; i++)
        if (out[i].fits && out[i].errors == 0)
            assert_true(out[i - 1].peak_tokens_per_s_per_gpu >=
                        out[i].peak_tokens_per_s_per_gpu);
    /* the peak is at the largest tokens that fit: one more does not */
    collcalc_plan_query at = q;
    at.tp = 4;
    at.pp = 2;
    at.tokens = out[0].peak_tokens;
    collcalc_plan_result r = run(&at);
    assert_true(r.fits);
    assert_true(fabs(r.tokens_per_s_per_gpu - out[0].peak_tokens_per_s_per_gpu) < 1e-9);
    at.tokens++;
    r = run(&at);
    assert_false(r.fits);
    q.goal = COLLCALC_GOAL_LATENCY;
    assert_int_equal(collcalc_plan_search(&q, 8, out, 16, &count, &total, &diag), COLLCALC_OK);
    assert_true(out[0].tp == 8 && out[0].dp == 1);
    double tp8_step = out[0].step_us, tp4_step = out[1].step_us;
    assert_true(out[1].tp == 4 && out[1].dp == 2 && tp4_step > tp8_step);
    /* A budget between the two demotes TP 4 x DP 2 under the throughput
     * goal, marks it, and bounds TP 8's peak by the budget. */
    q.goal = COLLCALC_GOAL_THROUGHPUT;
    q.latency_budget_us = (tp8_step + tp4_step) / 2;
    assert_int_equal(collcalc_plan_search(&q, 8, out, 16, &count, &total, &diag), COLLCALC_OK);
    assert_true(out[0].tp == 8 && out[0].within_budget);
    assert_true(out[0].peak_step_us <= q.latency_budget_us);
    assert_true(out[0].peak_tokens > 64);
    at = q;
    at.tp = 8;
    at.tokens = out[0].peak_tokens + 1;
    r = run(&at);
    assert_true(r.step_us > q.latency_budget_us);
    bool demoted = false;
    for (size_t i = 1; i < count; i++)
        if (out[i].tp == 4 && out[i].dp == 2 && !out[i].within_budget)
            demoted = true;
    assert_true(demoted);
}

static void test_prefill_ttft_counts_chunks(void **state)
{
    (void)state;
    /* Llama 3.1 8B prefill, 8k tokens per step on HGX B300: one GPU takes
     * the 8k prompt in one step; DP 8 gives each replica 1,024 tokens per
     * step of its own 8k prompt, so its first token comes after 8 chunks
     * (8 prompts in flight), not after one step. */
    collcalc_plan_query q = on_platform("llama-3.1-8b", "hgx-b300", 8192);
    q.workload = COLLCALC_WORKLOAD_PREFILL;
    collcalc_plan_result one = run(&q);
    assert_int_equal(one.chunks, 1);
    assert_int_equal(one.prompts, 1);
    assert_true(one.token_latency_us == one.step_us);
    q.dp = 8;
    collcalc_plan_result dp8 = run(&q);
    assert_int_equal(dp8.chunks, 8);
    assert_int_equal(dp8.prompts, 8);
    assert_true(dp8.token_latency_us == 8.0 * dp8.step_us);
    /* the chunks together do the prompt's work: TTFT within 5 % of one
     * GPU's whole-prompt step, and above it (weights read every chunk) */
    assert_true(dp8.token_latency_us >= one.token_latency_us);
    assert_true(dp8.token_latency_us < 1.05 * one.token_latency_us);
    /* --context 2k: 4 prompts per GPU at DP 1, one per replica at DP 4 */
    q.context = 2048;
    q.dp = 4;
    collcalc_plan_result whole = run(&q);
    assert_int_equal(whole.chunks, 1);
    assert_int_equal(whole.prompts, 4);
    assert_true(whole.token_latency_us == whole.step_us);

    /* --goal latency in prefill ranks by TTFT: Llama 3 70B, one 16k prompt
     * on 2 x HGX H100; TP 4 x DP 4 steps fastest (4,096 tokens a replica)
     * but needs 4 chunks. */
    q = on_platform("llama-3-70b", "hgx-h100", 16384);
    q.workload = COLLCALC_WORKLOAD_PREFILL;
    q.goal = COLLCALC_GOAL_LATENCY;
    collcalc_plan_candidate out[32];
    size_t count = 0, total = 0;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_plan_search(&q, 16, out, 32, &count, &total, &diag), COLLCALC_OK);
    bool saw_tp4_dp4 = false;
    for (size_t i = 0; i < count; i++) {
        assert_true(out[i].token_latency_us == (double)out[i].chunks * out[i].step_us);
        assert_int_equal(out[i].chunks, (uint64_t)out[i].dp);
        if (i > 0 && out[i].fits && out[i].errors == 0 && out[i - 1].errors == 0)
            assert_true(out[i - 1].token_latency_us <= out[i].token_latency_us);
        if (out[i].tp == 4 && out[i].dp == 4 && out[i].pp == 1) {
            saw_tp4_dp4 = true;
            assert_true(i > 0);
            assert_true(out[i].token_latency_us > out[0].token_latency_us);
        }
    }
    assert_true(saw_tp4_dp4);
}

static void test_train_uses_the_sequence_length(void **state)
{
    (void)state;
    /* Llama 3.1 8B training, 64k tokens per step, DP 8 on HGX H100: the
     * sequence length (--context) sets the attention's context (S/2 causal
     * mean), 3x the forward pass; 8,192 tokens per GPU. */
    collcalc_plan_query q = on_platform("llama-3.1-8b", "hgx-h100", 65536);
    q.workload = COLLCALC_WORKLOAD_TRAIN;
    q.dp = 8;
    collcalc_plan_result def = run(&q);
    assert_int_equal(def.context, 4096); /* the default */
    assert_int_equal(def.sequences, 2);
    q.context = 1024;
    collcalc_plan_result short_seq = run(&q);
    assert_int_equal(short_seq.context, 1024);
    assert_int_equal(short_seq.sequences, 8);
    q.context = 8192;
    collcalc_plan_result long_seq = run(&q);
    assert_int_equal(long_seq.context, 8192);
    assert_int_equal(long_seq.sequences, 1);
    const collcalc_model_shape *m = q.model;
    double flops = 3.0 * 4.0 * 8192.0 * (4096.0 - 512.0) * m->heads * m->head_dim * m->layers;
    double want_us = flops / (collcalc_gpu_tflops(q.gpu, COLLCALC_GPU_FLOPS_BF16, NULL) * 1e12) * 1e6;
    double got_us = long_seq.compute_us - short_seq.compute_us;
    assert_true(fabs(got_us - want_us) < 1e-6 * want_us);
    /* memory does not depend on it (flash attention), and no KV is kept */
    assert_true(long_seq.memory_bytes_per_gpu == short_seq.memory_bytes_per_gpu);
    assert_true(long_seq.kv_bytes_per_gpu == 0);
    /* the LM head runs for every token (the loss): at least 6 x H x vocab
     * x tokens of FLOPs in the step */
    assert_true(def.compute_flops_us * 1e-6 * collcalc_gpu_tflops(q.gpu, COLLCALC_GPU_FLOPS_BF16, NULL) * 1e12 >
                6.0 * m->hidden_size * (double)m->vocab_size * 8192.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_table),
        cmocka_unit_test(test_native_weights),
        cmocka_unit_test(test_tokens_parse),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_tokens_split_across_dp),
        cmocka_unit_test(test_step_time),
        cmocka_unit_test(test_search_ranks_fitting_plans),
        cmocka_unit_test(test_bubble_counts_stage_communication),
        cmocka_unit_test(test_serving_keeps_pp_batches_in_flight),
        cmocka_unit_test(test_train_micro_batch_holds_a_sequence),
        cmocka_unit_test(test_one_exposed_figure),
        cmocka_unit_test(test_search_keeps_given_degrees),
        cmocka_unit_test(test_prefill_prompt_does_not_change_with_dp),
        cmocka_unit_test(test_goals_rank_differently),
        cmocka_unit_test(test_prefill_ttft_counts_chunks),
        cmocka_unit_test(test_train_uses_the_sequence_length),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
