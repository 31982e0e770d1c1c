/* Benchmark: how many collective queries per second the model answers
 * (every algorithm of every op on single links and clusters). Target: well
 * over 100,000 queries/s on one core, so shell pipelines and batch runs are
 * limited by I/O, never by the model. */
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

int main(void)
{
    collcalc_query query;
    memset(&query, 0, sizeof query);
    collcalc_link_params nvlink = {.name = "nvlink4", .bw_GBps = 450, .alpha_us = 2.0};
    collcalc_link_params ndr = {.name = "ib-ndr", .bw_GBps = 50, .alpha_us = 14.0};
    const int gpus[] = {8, 16, 72, 1024};
    collcalc_result results[COLLCALC_ALGO_COUNT];
    long queries = 0, algorithms = 0;
    double checksum = 0.0;
    double start = now_seconds();
    for (int round = 0; round < 2000; round++)
        for (int op = 0; op < COLLCALC_OP_COUNT; op++)
            for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++) {
                query.op = (collcalc_op)op;
                query.size_bytes = 1ULL << (round % 34);
                query.cluster.gpus = gpus[g];
                query.cluster.gpus_per_node = 8;
                query.cluster.nics_per_node = 8;
                query.cluster.intra = nvlink;
                query.cluster.inter = ndr;
                size_t count = 0, fastest = 0;
                if (collcalc_model_evaluate_all(&query, results, COLLCALC_ALGO_COUNT, &count,
                                                &fastest, NULL) != COLLCALC_OK)
                    return 1;
                checksum += results[fastest].time_us;
                algorithms += (long)count;
                queries++;
            }
    double elapsed = now_seconds() - start;
    printf("%ld queries (%ld algorithm costings) in %.3f s: %.0f queries/s, %.2f us per query "
           "(checksum %.6g)\n",
           queries, algorithms, elapsed, (double)queries / elapsed, elapsed * 1e6 / (double)queries,
           checksum);
    return 0;
}
