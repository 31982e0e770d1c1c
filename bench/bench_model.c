/* Benchmark: how many evaluations per second the alpha-beta model answers,
 * numbers only (no sentences: those are built on demand by
 * collcalc_*_explain, timed separately here).
 *   1. ring all-reduce alone, 8 GPUs on one NVLink domain: the target is at
 *      least 5 million evaluations per second on one core (doc/MODEL.md §8);
 *   2. every algorithm of every op (collcalc_model_evaluate_all) on single
 *      links and clusters of 8 to 1,024 GPUs;
 *   3. the explanation sentences of one result, for scale.
 * Run: cmake --build build --target bench_model && ./build/bench/bench_model
 * (a Release build: -DCMAKE_BUILD_TYPE=Release). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "collcalc/model.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static collcalc_link_params link_of(const char *name, double bw_GBps, double alpha_us, bool nvlink)
{
    collcalc_link_params link;
    collcalc_link_params_init(&link);
    snprintf(link.name, sizeof link.name, "%s", name);
    link.bw_GBps = bw_GBps;
    link.alpha_us = alpha_us;
    link.nvlink = nvlink;
    return link;
}

/* Ring all-reduce evaluations per second over sizes 1 B .. 8 GiB. */
static int bench_ring(double *checksum)
{
    collcalc_query query;
    collcalc_query_init(&query);
    collcalc_link_params nvlink = link_of("nvlink5", 900, 2.0, true);
    collcalc_cluster_single_link(8, &nvlink, &query.cluster);
    collcalc_result result;
    const long rounds = 4000000;
    double start = now_seconds();
    for (long i = 0; i < rounds; i++) {
        query.size_bytes = 1ULL << (i % 34);
        if (collcalc_model_evaluate(&query, COLLCALC_ALGO_RING, &result, NULL) != COLLCALC_OK)
            return 1;
        *checksum += result.time_us;
    }
    double elapsed = now_seconds() - start;
    printf("ring all-reduce, 8 GPUs:   %ld evaluations in %.3f s: %.2f million/s, %.0f ns each\n",
           rounds, elapsed, (double)rounds / elapsed / 1e6, elapsed * 1e9 / (double)rounds);
    return 0;
}

/* Every algorithm of every op on single links and clusters. */
static int bench_all(double *checksum)
{
    collcalc_query query;
    collcalc_query_init(&query);
    collcalc_link_params nvlink = link_of("nvlink4", 450, 2.0, true);
    collcalc_link_params ndr = link_of("ib-ndr", 50, 14.0, false);
    const int gpus[] = {8, 9, 16, 72, 1024};
    collcalc_result results[COLLCALC_ALGO_COUNT];
    long queries = 0, evaluations = 0;
    double start = now_seconds();
    for (int round = 0; round < 4000; round++)
        for (int op = 0; op < COLLCALC_OP_COUNT; op++)
            for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++) {
                query.op = (collcalc_op)op;
                query.size_bytes = 1ULL << (round % 34);
                query.cluster.gpus = gpus[g];
                query.cluster.gpus_per_node = 8;
                query.cluster.nics_per_node = 8;
                query.cluster.intra = nvlink;
                query.cluster.inter = ndr;
                query.cluster.nvls_intra = (round & 1) != 0;
                size_t count = 0, fastest = 0;
                if (collcalc_model_evaluate_all(&query, results, COLLCALC_ALGO_COUNT, &count,
                                                &fastest, NULL) != COLLCALC_OK)
                    return 1;
                *checksum += results[fastest].time_us;
                evaluations += (long)count;
                queries++;
            }
    double elapsed = now_seconds() - start;
    printf("every algorithm, 8-1,024 GPUs: %ld queries (%ld evaluations) in %.3f s: "
           "%.2f million evaluations/s, %.0f ns each; %.0f queries/s\n",
           queries, evaluations, elapsed, (double)evaluations / elapsed / 1e6,
           elapsed * 1e9 / (double)evaluations, (double)queries / elapsed);
    return 0;
}

/* Sentences for one two-node ring result, built on demand. */
static int bench_explain(double *checksum)
{
    collcalc_query query;
    collcalc_query_init(&query);
    query.size_bytes = 100000000;
    query.cluster.gpus = 16;
    query.cluster.gpus_per_node = 8;
    query.cluster.nics_per_node = 8;
    query.cluster.intra = link_of("nvlink4", 450, 2.0, true);
    query.cluster.inter = link_of("ib-ndr", 50, 14.0, false);
    collcalc_result result;
    if (collcalc_model_evaluate(&query, COLLCALC_ALGO_RING, &result, NULL) != COLLCALC_OK)
        return 1;
    char text[COLLCALC_EXPLAIN_MAX];
    const long rounds = 200000;
    size_t total = 0;
    double start = now_seconds();
    for (long i = 0; i < rounds; i++) {
        for (int k = 0; k < result.phase_count; k++)
            total += collcalc_phase_explain(&query, &result, k, text, sizeof text);
        total += collcalc_result_explain(&query, &result, text, sizeof text);
    }
    double elapsed = now_seconds() - start;
    *checksum += (double)total;
    printf("explain one result (2 phases + notes): %.0f ns\n", elapsed * 1e9 / (double)rounds);
    return 0;
}

int main(void)
{
    double checksum = 0.0;
    if (bench_ring(&checksum) != 0 || bench_all(&checksum) != 0 || bench_explain(&checksum) != 0) {
        fprintf(stderr, "bench_model: an evaluation failed\n");
        return 1;
    }
    printf("(checksum %.6g)\n", checksum);
    return 0;
}
