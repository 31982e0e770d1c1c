/* Benchmark: `plan --search` speed. Every (TP, EP, PP, DP) factorization of
 * 16,384 GPUs (HGX H800 nodes: 8 GPUs, NVLink 200 GB/s, 8 x 400G NICs) for
 * DeepSeek-V3 decode, each costed and rule-checked; the issue-9 target is
 * under 100 ms on one core. Also one plan and one MoE layer, for scale.
 * Run: cmake --build build --target bench_plan && ./build/bench/bench_plan
 * (a Release build: -DCMAKE_BUILD_TYPE=Release). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "collcalc/models.h"
#include "collcalc/plan.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void h800_cluster(collcalc_cluster *cluster)
{
    collcalc_cluster_init(cluster);
    cluster->gpus_per_node = 8;
    cluster->nics_per_node = 8;
    snprintf(cluster->intra.name, sizeof cluster->intra.name, "nvlink4-h800");
    cluster->intra.bw_GBps = 200;
    cluster->intra.alpha_us = 2.0;
    cluster->intra.nvlink = true;
    snprintf(cluster->inter.name, sizeof cluster->inter.name, "ib-ndr");
    cluster->inter.bw_GBps = 50;
    cluster->inter.alpha_us = 14.0;
}

int main(void)
{
    collcalc_diag diag = {{0}};
    collcalc_model_table *models = NULL;
    if (collcalc_model_table_builtin(&models, &diag) != COLLCALC_OK) {
        fprintf(stderr, "bench_plan: %s\n", diag.message);
        return 1;
    }
    collcalc_plan_query q;
    collcalc_plan_query_init(&q);
    q.model = collcalc_model_table_find(models, "deepseek-v3");
    q.workload = COLLCALC_WORKLOAD_DECODE;
    q.dtype = COLLCALC_DTYPE_FP8;
    q.tokens = 16384 * 128;
    q.gpu_memory_GB = 80;
    h800_cluster(&q.cluster);

    static collcalc_plan_candidate best[16];
    size_t count = 0, total = 0;
    const int rounds = 5;
    double fastest = 1e9;
    for (int i = 0; i < rounds; i++) {
        double start = now_seconds();
        if (collcalc_plan_search(&q, 16384, best, 16, &count, &total, &diag) != COLLCALC_OK) {
            fprintf(stderr, "bench_plan: %s\n", diag.message);
            collcalc_model_table_free(models);
            return 1;
        }
        double took = now_seconds() - start;
        if (took < fastest)
            fastest = took;
    }
    printf("plan --search, DeepSeek-V3 decode on 16,384 GPUs: %zu factorizations in %.1f ms "
           "(best of %d; target < 100 ms)\n", total, fastest * 1e3, rounds);
    printf("  best: tp %d ep %d pp %d dp %d, %.1f us exposed communication per step\n",
           best[0].tp, best[0].ep, best[0].pp, best[0].dp, best[0].exposed_us);

    static collcalc_plan_result result;
    q.ep = 32;
    q.dp = 512;
    q.tokens = 32 * 128;
    const int plans = 2000;
    double start = now_seconds();
    for (int i = 0; i < plans; i++)
        if (collcalc_plan_evaluate(&q, &result, &diag) != COLLCALC_OK) {
            fprintf(stderr, "bench_plan: %s\n", diag.message);
            collcalc_model_table_free(models);
            return 1;
        }
    double per_plan = (now_seconds() - start) / plans;
    printf("one plan (ep 32 x dp 512): %.1f us\n", per_plan * 1e6);

    static collcalc_moe_query mq;
    static collcalc_moe_result mr;
    collcalc_moe_query_init(&mq);
    mq.model = q.model;
    mq.ep = 32;
    mq.tokens = 128;
    mq.mode = COLLCALC_MOE_LOW_LATENCY;
    mq.zipf_s = 1.0;
    mq.redundant_experts = 32;
    h800_cluster(&mq.cluster);
    const int layers = 2000;
    start = now_seconds();
    for (int i = 0; i < layers; i++)
        if (collcalc_moe_evaluate(&mq, &mr, &diag) != COLLCALC_OK) {
            fprintf(stderr, "bench_plan: %s\n", diag.message);
            collcalc_model_table_free(models);
            return 1;
        }
    printf("one MoE layer with zipf loads and 32 redundant experts: %.1f us\n",
           (now_seconds() - start) / layers * 1e6);
    collcalc_model_table_free(models);
    return 0;
}
