/* The cost model: the textbook example's worked figures (pinned,
 * doc/MODEL.md §5), the formulas per algorithm (doc/MODEL.md §4), the
 * cluster rules (doc/MODEL.md §3) with the defects fixed in issue 6, and
 * properties every result must have. Sentences, the registry and the
 * property test over clusters: test_model_explain.c. */
#include "support.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "collcalc/model.h"

static collcalc_link_params link_of(const char *name, double bw_GBps, double alpha_us)
{
    collcalc_link_params link;
    collcalc_link_params_init(&link);
    snprintf(link.name, sizeof link.name, "%s", name);
    link.bw_GBps = bw_GBps;
    link.alpha_us = alpha_us;
    return link;
}

/* NVLink 5 headline (1,800 GB/s, alpha 2 us) as the textbook example uses. */
static collcalc_query single(collcalc_op op, uint64_t size, int gpus, double bw, double alpha)
{
    collcalc_query q;
    collcalc_query_init(&q);
    q.op = op;
    q.size_bytes = size;
    collcalc_link_params link = link_of("test", bw, alpha);
    collcalc_cluster_single_link(gpus, &link, &q.cluster);
    return q;
}

static collcalc_result eval(const collcalc_query *q, collcalc_algo algo)
{
    collcalc_result r;
    collcalc_diag diag;
    collcalc_status status = collcalc_model_evaluate(q, algo, &r, &diag);
    if (status != COLLCALC_OK)
        print_error("evaluate failed: %s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    return r;
}

#define assert_close(actual, expected, tolerance) \
    assert_true(fabs((double)(actual) - (double)(expected)) <= (tolerance))

/* Rows checked once and costed at many sizes give, byte for byte, what
 * collcalc_model_evaluate gives for each size; rows are refused for
 * another op, out of range, or for an algorithm that does not apply. */
static void rows_cost_as_evaluate(void **state)
{
    (void)state;
    static const uint64_t SIZES[] = {0, 1, 4096, 100000000, 7777777777, UINT64_C(1) << 40};
    for (int op = 0; op < COLLCALC_OP_COUNT; op++) {
        for (int gpus = 1; gpus <= 24; gpus += 7) {
            collcalc_query q = single((collcalc_op)op, 0, gpus, 900, 2.0);
            collcalc_model_row rows[COLLCALC_ALGO_COUNT];
            size_t count = 0;
            collcalc_diag diag;
            assert_int_equal(collcalc_model_rows(&q, NULL, 0, rows, COLLCALC_ALGO_COUNT, &count,
                                                 &diag),
                             COLLCALC_OK);
            for (size_t s = 0; s < sizeof SIZES / sizeof SIZES[0]; s++) {
                q.size_bytes = SIZES[s];
                collcalc_result all[COLLCALC_ALGO_COUNT];
                size_t all_count = 0, fastest = 0;
                assert_int_equal(collcalc_model_evaluate_all(&q, all, COLLCALC_ALGO_COUNT,
                                                             &all_count, &fastest, &diag),
                                 COLLCALC_OK);
                assert_int_equal(all_count, count);
                for (size_t i = 0; i < count; i++) {
                    collcalc_result r;
                    memset(&r, 0, sizeof r);
                    q.size_bytes = 12345; /* not read */
                    assert_int_equal(collcalc_model_evaluate_row(&q, rows[i], SIZES[s], &r, &diag),
                                     COLLCALC_OK);
                    q.size_bytes = SIZES[s];
                    assert_int_equal(r.size_bytes, SIZES[s]);
                    assert_int_equal(r.algo, all[i].algo);
                    assert_memory_equal(&r.time_us, &all[i].time_us, sizeof r.time_us);
                    assert_memory_equal(&r.busbw_GBps, &all[i].busbw_GBps, sizeof r.busbw_GBps);
                    assert_int_equal(r.phase_count, all[i].phase_count);
                    for (int k = 0; k < r.phase_count; k++)
                        assert_memory_equal(&r.phases[k].bytes_sent, &all[i].phases[k].bytes_sent,
                                            sizeof(double));
                }
            }
        }
    }
    collcalc_query q = single(COLLCALC_OP_ALLREDUCE, 1000, 8, 900, 2.0);
    collcalc_model_row row;
    size_t count = 0;
    collcalc_diag diag;
    collcalc_algo ring = COLLCALC_ALGO_RING, bruck = COLLCALC_ALGO_BRUCK;
    assert_int_equal(collcalc_model_rows(&q, &ring, 1, &row, 1, &count, &diag), COLLCALC_OK);
    assert_int_equal(count, 1);
    assert_int_equal(collcalc_model_rows(&q, &bruck, 1, &row, 1, &count, &diag),
                     COLLCALC_ERR_UNSUPPORTED);
    assert_non_null(strstr(diag.message, "bruck allreduce: not an algorithm for this operation"));
    assert_int_equal(collcalc_model_rows(&q, &ring, 1, &row, 1, &count, &diag), COLLCALC_OK);
    collcalc_result r;
    q.op = COLLCALC_OP_ALLTOALL; /* a row of another op */
    assert_int_equal(collcalc_model_evaluate_row(&q, row, 1000, &r, &diag), COLLCALC_ERR_INVALID);
    q.op = COLLCALC_OP_ALLREDUCE;
    collcalc_model_row bad = {-1};
    assert_int_equal(collcalc_model_evaluate_row(&q, bad, 1000, &r, &diag), COLLCALC_ERR_INVALID);
    bad.index = 1 << 20;
    assert_int_equal(collcalc_model_evaluate_row(&q, bad, 1000, &r, &diag), COLLCALC_ERR_INVALID);
    q.cluster.gpus = 0; /* a query collcalc_model_rows would refuse */
    assert_int_equal(collcalc_model_evaluate_row(&q, row, 1000, &r, &diag), COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_model_rows(&q, &ring, 1, &row, 1, &count, &diag),
                     COLLCALC_ERR_INVALID);
}

static void textbook_ring_8_gpus_100MB_nvlink5(void **state)
{
    (void)state;
    collcalc_query q = single(COLLCALC_OP_ALLREDUCE, 100000000, 8, 1800, 2.0);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    assert_close(r.bytes_sent_per_gpu, 175000000.0, 1e-6);
    assert_close(r.bytes_received_per_gpu, 175000000.0, 1e-6);
    assert_int_equal(r.steps, 14);
    assert_close(r.bandwidth_us, 97.2222, 1e-3); /* 175 MB / 1,800 GB/s = 0.097 ms */
    assert_close(r.latency_us, 28.0, 1e-9);
    assert_int_equal(r.phase_count, 2);
    assert_string_equal(r.phases[0].label, "reduce-scatter");
    assert_string_equal(r.phases[1].label, "all-gather");
    assert_int_equal(r.dominant, COLLCALC_DOMINANT_BANDWIDTH);
    /* x 80 layers: 7.8 ms */
    assert_close(r.bandwidth_us * 80 / 1000, 7.78, 0.005);
}

static void textbook_ring_over_ib_ndr(void **state)
{
    (void)state;
    collcalc_query q = single(COLLCALC_OP_ALLREDUCE, 100000000, 8, 50, 14.0);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    assert_close(r.bandwidth_us, 3500.0, 1e-6); /* 3.5 ms */
    assert_close(r.bandwidth_us * 80 / 1000, 280.0, 1e-6);
}

static void per_direction_basis_doubles_the_nvlink_term(void **state)
{
    (void)state;
    collcalc_query q = single(COLLCALC_OP_ALLREDUCE, 100000000, 8, 900, 2.0);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    assert_close(r.bandwidth_us, 194.444, 1e-3);
}

static void textbook_32_gpus(void **state)
{
    (void)state;
    collcalc_query q = single(COLLCALC_OP_ALLREDUCE, 100000000, 32, 1800, 2.0);
    collcalc_result ring = eval(&q, COLLCALC_ALGO_RING);
    assert_close(ring.bytes_sent_per_gpu, 193750000.0, 1e-6);
    assert_int_equal(ring.steps, 62);
    assert_close(ring.latency_us, 124.0, 1e-9);
    assert_close(ring.bandwidth_us, 107.64, 0.01); /* textbook: 108 us */
    const struct {
        uint64_t size;
        double bandwidth_us;
        double tolerance;
    } rows[] = {{64000, 0.0689, 0.00005}, {1000000, 1.0764, 0.0001}, {1000000000, 1076.39, 0.01}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        q.size_bytes = rows[i].size;
        collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
        assert_close(r.bandwidth_us, rows[i].bandwidth_us, rows[i].tolerance);
        assert_close(r.latency_us, 124.0, 1e-9); /* the same for every size */
    }
    q.size_bytes = 64000;
    collcalc_result tree = eval(&q, COLLCALC_ALGO_TREE);
    assert_int_equal(tree.steps, 10);
    assert_close(tree.latency_us, 20.0, 1e-9);
    assert_true(tree.time_us < 21.0);
    /* ring bytes approach 2S as p grows */
    q.size_bytes = 100000000;
    double previous = 0;
    for (int p = 2; p <= 1024; p *= 2) {
        collcalc_query qp = single(COLLCALC_OP_ALLREDUCE, 100000000, p, 1800, 2.0);
        collcalc_result r = eval(&qp, COLLCALC_ALGO_RING);
        assert_true(r.bytes_sent_per_gpu > previous);
        assert_true(r.bytes_sent_per_gpu < 2e8);
        previous = r.bytes_sent_per_gpu;
    }
    assert_true(previous > 1.99e8);
}

static void textbook_ring_phase_counts(void **state)
{
    (void)state;
    collcalc_query q8 = single(COLLCALC_OP_ALLREDUCE, 1000, 8, 1800, 2.0);
    assert_int_equal(eval(&q8, COLLCALC_ALGO_RING).steps, 14);
    collcalc_query q32 = single(COLLCALC_OP_ALLREDUCE, 1000, 32, 1800, 2.0);
    assert_int_equal(eval(&q32, COLLCALC_ALGO_RING).steps, 62);
    assert_int_equal(eval(&q32, COLLCALC_ALGO_TREE).steps, 10);
}

static void textbook_centralized(void **state)
{
    (void)state;
    collcalc_query q = single(COLLCALC_OP_ALLREDUCE, 100000000, 8, 1800, 2.0);
    collcalc_result r = eval(&q, COLLCALC_ALGO_CENTRALIZED);
    assert_int_equal(r.steps, 2);
    assert_close(r.bytes_received_per_gpu, 700000000.0, 1e-6);
    assert_close(r.bytes_sent_per_gpu, 700000000.0, 1e-6);
    assert_close(r.bytes_sent_per_gpu + r.bytes_received_per_gpu, 1.4e9, 1e-6);
    assert_true(r.others_differ);
    assert_close(r.bytes_sent_other_gpu + r.bytes_received_other_gpu, 2e8, 1e-6);
    assert_close(r.bandwidth_us, 2 * 700000000.0 / 1.8e6, 1e-6);
}

static void alltoall_moves_about_s_allreduce_about_2s(void **state)
{
    (void)state;
    collcalc_query a2a = single(COLLCALC_OP_ALLTOALL, 100000000, 8, 900, 2.0);
    collcalc_query ar = single(COLLCALC_OP_ALLREDUCE, 100000000, 8, 900, 2.0);
    collcalc_result pairwise = eval(&a2a, COLLCALC_ALGO_PAIRWISE);
    collcalc_result ring = eval(&ar, COLLCALC_ALGO_RING);
    assert_close(pairwise.bytes_sent_per_gpu, 87500000.0, 1e-6); /* (p-1)/p S */
    assert_int_equal(pairwise.steps, 7);
    assert_close(ring.bytes_sent_per_gpu / pairwise.bytes_sent_per_gpu, 2.0, 1e-9);
}

static void busbw_factors(void **state)
{
    (void)state;
    assert_close(collcalc_busbw_factor(COLLCALC_OP_ALLREDUCE, 8), 1.75, 1e-12);
    assert_close(collcalc_busbw_factor(COLLCALC_OP_ALLGATHER, 8), 0.875, 1e-12);
    assert_close(collcalc_busbw_factor(COLLCALC_OP_REDUCESCATTER, 8), 0.875, 1e-12);
    assert_close(collcalc_busbw_factor(COLLCALC_OP_ALLTOALL, 8), 0.875, 1e-12);
    assert_close(collcalc_busbw_factor(COLLCALC_OP_BROADCAST, 8), 1.0, 1e-12);
    assert_close(collcalc_busbw_factor(COLLCALC_OP_REDUCE, 8), 1.0, 1e-12);
    assert_close(collcalc_busbw_factor(COLLCALC_OP_SENDRECV, 8), 1.0, 1e-12);
    collcalc_query q = single(COLLCALC_OP_ALLREDUCE, 100000000, 8, 1800, 2.0);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    assert_close(r.algbw_GBps, 1e8 / (r.time_us * 1e3), 1e-9);
    assert_close(r.busbw_GBps, r.algbw_GBps * 1.75, 1e-9);
    /* A bandwidth-bound ring's busbw approaches the link rate. */
    q.size_bytes = 1ULL << 40;
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_close(r.busbw_GBps, 1800.0, 1.0);
}

/* Steps and busiest-GPU bytes per algorithm (doc/MODEL.md §1, §4). */
static void formulas_per_algorithm(void **state)
{
    (void)state;
    const double s = 1 << 20;
    const struct {
        collcalc_op op;
        collcalc_algo algo;
        int p;
        long steps;
        double sent;
        double received;
    } rows[] = {
        {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_RING, 8, 7, s * 7 / 8, s * 7 / 8},
        {COLLCALC_OP_REDUCESCATTER, COLLCALC_ALGO_RING, 8, 7, s * 7 / 8, s * 7 / 8},
        {COLLCALC_OP_BROADCAST, COLLCALC_ALGO_RING, 8, 7, s, s},
        {COLLCALC_OP_REDUCE, COLLCALC_ALGO_RING, 8, 7, s, s},
        {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RECURSIVE_DOUBLING, 8, 3, 3 * s, 3 * s},
        {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RABENSEIFNER, 8, 6, 2 * s * 7 / 8, 2 * s * 7 / 8},
        {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_RECURSIVE_DOUBLING, 8, 3, s * 7 / 8, s * 7 / 8},
        {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_BRUCK, 8, 3, s * 7 / 8, s * 7 / 8},
        {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_BRUCK, 6, 3, s * 5 / 6, s * 5 / 6},
        {COLLCALC_OP_REDUCESCATTER, COLLCALC_ALGO_RECURSIVE_HALVING, 8, 3, s * 7 / 8, s * 7 / 8},
        {COLLCALC_OP_ALLTOALL, COLLCALC_ALGO_BRUCK, 8, 3, s / 2 * 3, s / 2 * 3},
        {COLLCALC_OP_BROADCAST, COLLCALC_ALGO_BINOMIAL_TREE, 8, 3, 3 * s, 0},
        {COLLCALC_OP_REDUCE, COLLCALC_ALGO_BINOMIAL_TREE, 8, 3, 0, 3 * s},
        {COLLCALC_OP_BROADCAST, COLLCALC_ALGO_SCATTER_ALLGATHER, 8, 3 + 7, s * 7 / 8 * 2, s * 7 / 8},
        {COLLCALC_OP_REDUCE, COLLCALC_ALGO_RABENSEIFNER, 8, 6, s * 7 / 8, s * 7 / 8 * 2},
        {COLLCALC_OP_SENDRECV, COLLCALC_ALGO_DIRECT, 8, 1, s, s},
        /* non-power-of-two: fold + unfold around p' = 4 */
        {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RECURSIVE_DOUBLING, 6, 4, 3 * s, 3 * s},
        {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RABENSEIFNER, 6, 6, s * 3 / 4 * 2 + s, s + s * 3 / 4 * 2},
        {COLLCALC_OP_REDUCESCATTER, COLLCALC_ALGO_RECURSIVE_HALVING, 6, 4, s * 3 / 4 + s / 6, s + s * 3 / 4},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        collcalc_query q = single(rows[i].op, (uint64_t)s, rows[i].p, 100, 1.0);
        collcalc_result r = eval(&q, rows[i].algo);
        if (r.steps != rows[i].steps || fabs(r.bytes_sent_per_gpu - rows[i].sent) > 1e-6 ||
            fabs(r.bytes_received_per_gpu - rows[i].received) > 1e-6)
            print_error("row %zu (%s %s p=%d): steps %ld sent %.1f received %.1f\n", i,
                        collcalc_op_name(rows[i].op), collcalc_algo_name(rows[i].algo), rows[i].p,
                        r.steps, r.bytes_sent_per_gpu, r.bytes_received_per_gpu);
        assert_int_equal(r.steps, rows[i].steps);
        assert_close(r.bytes_sent_per_gpu, rows[i].sent, 1e-6);
        assert_close(r.bytes_received_per_gpu, rows[i].received, 1e-6);
        assert_close(r.latency_us, (double)r.steps * 1.0, 1e-9);
    }
}

static void tree_bytes_at_most_ring_bytes(void **state)
{
    (void)state;
    for (int p = 2; p <= 64; p++) {
        collcalc_query q = single(COLLCALC_OP_ALLREDUCE, 123456789, p, 450, 2.0);
        collcalc_result tree = eval(&q, COLLCALC_ALGO_TREE);
        assert_true(tree.bytes_sent_per_gpu <= 2.0 * 123456789.0 * (p - 1) / p + 1e-6);
        assert_int_equal(tree.steps, 2 * (long)ceil(log2(p)));
        /* the tree pays NCCL's 0.92 on bandwidth */
        assert_close(tree.bandwidth_us, tree.bytes_sent_per_gpu / (450e3 * 0.92), 1e-6);
    }
}

static void applicability(void **state)
{
    (void)state;
    collcalc_query q = single(COLLCALC_OP_ALLGATHER, 1000, 6, 100, 1.0);
    collcalc_result r;
    collcalc_diag diag;
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_RECURSIVE_DOUBLING, &r, &diag),
                     COLLCALC_ERR_UNSUPPORTED);
    assert_non_null(strstr(diag.message, "power-of-two"));
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_TREE, &r, &diag),
                     COLLCALC_ERR_UNSUPPORTED);
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_HIERARCHICAL, &r, &diag),
                     COLLCALC_ERR_UNSUPPORTED);
    collcalc_result all[COLLCALC_ALGO_COUNT];
    size_t count, fastest;
    assert_int_equal(collcalc_model_evaluate_all(&q, all, COLLCALC_ALGO_COUNT, &count, &fastest, &diag),
                     COLLCALC_OK);
    assert_int_equal(count, 2); /* ring, bruck */
    assert_int_equal(all[0].algo, COLLCALC_ALGO_RING);
    assert_int_equal(all[1].algo, COLLCALC_ALGO_BRUCK);
}

static void one_gpu_costs_nothing(void **state)
{
    (void)state;
    for (int op = 0; op < COLLCALC_OP_COUNT; op++) {
        collcalc_query q = single((collcalc_op)op, 1 << 30, 1, 100, 5.0);
        collcalc_result all[COLLCALC_ALGO_COUNT];
        size_t count, fastest;
        assert_int_equal(collcalc_model_evaluate_all(&q, all, COLLCALC_ALGO_COUNT, &count, &fastest, NULL),
                         COLLCALC_OK);
        assert_true(count >= 1);
        for (size_t i = 0; i < count; i++) {
            assert_close(all[i].time_us, 0.0, 0.0);
            assert_close(all[i].bytes_sent_per_gpu, 0.0, 0.0);
            assert_close(all[i].algbw_GBps, 0.0, 0.0);
            assert_int_equal(all[i].dominant, COLLCALC_DOMINANT_NONE);
        }
    }
}

/* Properties over every op, algorithm, GPU count and size: finite, time
 * grows with size, latency does not depend on size. */
static void properties(void **state)
{
    (void)state;
    const uint64_t sizes[] = {0, 1, 1000, 1 << 20, 100000000, 1ULL << 40, UINT64_MAX};
    const int gpus[] = {2, 3, 7, 8, 9, 16, 72, 100, 1024};
    for (int op = 0; op < COLLCALC_OP_COUNT; op++)
        for (size_t g = 0; g < sizeof gpus / sizeof gpus[0]; g++)
            for (int a = 0; a < COLLCALC_ALGO_COUNT; a++) {
                double previous_time = -1, latency = -1;
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                    collcalc_query q = single((collcalc_op)op, sizes[s], gpus[g], 450, 2.0);
                    collcalc_result r;
                    collcalc_status status = collcalc_model_evaluate(&q, (collcalc_algo)a, &r, NULL);
                    if (status == COLLCALC_ERR_UNSUPPORTED)
                        break;
                    assert_int_equal(status, COLLCALC_OK);
                    assert_true(isfinite(r.time_us) && isfinite(r.busbw_GBps));
                    assert_true(r.time_us >= previous_time);
                    assert_true(r.steps > 0);
                    if (latency >= 0)
                        assert_close(r.latency_us, latency, 1e-9);
                    latency = r.latency_us;
                    previous_time = r.time_us;
                    assert_close(r.time_us, r.latency_us + r.bandwidth_us, 1e-6 * r.time_us + 1e-9);
                }
            }
}

static void rejects_bad_queries(void **state)
{
    (void)state;
    collcalc_result r;
    collcalc_diag diag;
    collcalc_query q = single(COLLCALC_OP_ALLREDUCE, 1000, 0, 100, 1.0);
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_RING, &r, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "gpus"));
    q = single(COLLCALC_OP_ALLREDUCE, 1000, 8, 0, 1.0);
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_RING, &r, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "bandwidth"));
    q = single(COLLCALC_OP_ALLREDUCE, 1000, 8, NAN, 1.0);
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_RING, &r, &diag), COLLCALC_ERR_INVALID);
    q = single(COLLCALC_OP_ALLREDUCE, 1000, 8, 100, -1.0);
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_RING, &r, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "alpha"));
    q = single(COLLCALC_OP_ALLREDUCE, 1000, 8, 100, 1.0);
    q.cluster.nics_per_node = 0;
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_RING, &r, &diag), COLLCALC_ERR_INVALID);
}

static void names_round_trip(void **state)
{
    (void)state;
    for (int op = 0; op < COLLCALC_OP_COUNT; op++) {
        collcalc_op parsed;
        assert_int_equal(collcalc_op_from_name(collcalc_op_name((collcalc_op)op), &parsed, NULL), COLLCALC_OK);
        assert_int_equal(parsed, op);
    }
    for (int a = 0; a < COLLCALC_ALGO_COUNT; a++) {
        collcalc_algo parsed;
        assert_int_equal(collcalc_algo_from_name(collcalc_algo_name((collcalc_algo)a), &parsed, NULL), COLLCALC_OK);
        assert_int_equal(parsed, a);
    }
    collcalc_op op;
    assert_int_equal(collcalc_op_from_name("A2A", &op, NULL), COLLCALC_OK);
    assert_int_equal(op, COLLCALC_OP_ALLTOALL);
    assert_int_equal(collcalc_op_from_name("all-reduce", &op, NULL), COLLCALC_OK);
    assert_int_equal(op, COLLCALC_OP_ALLREDUCE);
    collcalc_diag diag;
    assert_int_equal(collcalc_op_from_name("allreduse", &op, &diag), COLLCALC_ERR_NOT_FOUND);
    assert_non_null(strstr(diag.message, "allreduse"));
    collcalc_algo algo;
    assert_int_equal(collcalc_algo_from_name("chain", &algo, NULL), COLLCALC_OK);
    assert_int_equal(algo, COLLCALC_ALGO_RING);
}

/* A cluster of nodes of g GPUs: intra NVLink 4 (450, 2 us), inter NDR (50, 14 us). */
static collcalc_query cluster_query(collcalc_op op, uint64_t size, int gpus, int g, int nics)
{
    collcalc_query q;
    collcalc_query_init(&q);
    q.op = op;
    q.size_bytes = size;
    q.cluster.gpus = gpus;
    q.cluster.gpus_per_node = g;
    q.cluster.nics_per_node = nics;
    q.cluster.intra = link_of("nvlink4", 450, 2.0);
    q.cluster.intra.nvlink = true;
    q.cluster.inter = link_of("ib-ndr", 50, 14.0);
    return q;
}

static void cluster_flat_ring_nic_rule(void **state)
{
    (void)state;
    /* 2 nodes x 8, 8 NICs: min(450, 8 x 50) = 400 GB/s busbw at large sizes. */
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 1ULL << 40, 16, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    assert_int_equal(r.nodes, 2);
    assert_close(r.phases[0].bw_GBps, 400.0, 1e-9);
    assert_close(r.busbw_GBps, 400.0, 0.5);
    /* per ring pass 14 NVLink hops of 2 us and 1 NDR hop of 14 us */
    assert_close(r.phases[0].latency_us, 14 * 2.0 + 1 * 14.0, 1e-9);
    assert_close(r.latency_us, 2 * (14 * 2.0 + 1 * 14.0), 1e-9);
    assert_int_equal(r.phases[0].scope, COLLCALC_SCOPE_SPANNING);
    /* one NIC per node: 50 GB/s */
    q.cluster.nics_per_node = 1;
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_close(r.busbw_GBps, 50.0, 0.1);
    /* 16 NICs, but a GPU drives one: 8 x 50 = 400 GB/s */
    q.cluster.nics_per_node = 16;
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_close(r.phases[0].bw_GBps, 400.0, 1e-9);
    assert_int_equal(r.phases[0].nics, 8);
    /* two NICs per GPU: 16 x 50 = 800 GB/s, NVLink caps it at 450 */
    q.cluster.nics_per_gpu = 2;
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_close(r.phases[0].bw_GBps, 450.0, 1e-9);
    assert_int_equal(r.phases[0].nics, 16);
}

static void cluster_one_gpu_per_node_is_the_textbook_ib_example(void **state)
{
    (void)state;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 100000000, 8, 1, 1);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    assert_int_equal(r.nodes, 8);
    assert_close(r.bandwidth_us, 3500.0, 1e-6);
    assert_close(r.bytes_sent_per_gpu, 175000000.0, 1e-6);
}

static void cluster_ninth_gpu_crosses_the_network(void **state)
{
    (void)state;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 100000000, 8, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    assert_int_equal(r.nodes, 1);
    assert_int_equal(r.phases[0].scope, COLLCALC_SCOPE_INTRA);
    assert_close(r.phases[0].bw_GBps, 450.0, 1e-9);
    q.cluster.gpus = 9;
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_int_equal(r.nodes, 2);
    assert_int_equal(r.gpus_in_last_node, 1);
    assert_int_equal(r.phases[0].scope, COLLCALC_SCOPE_SPANNING);
    assert_close(r.phases[0].bw_GBps, 50.0, 1e-9); /* the lone GPU's one NIC */
    char note[COLLCALC_EXPLAIN_MAX];
    collcalc_result_explain(&q, &r, note, sizeof note);
    assert_string_equal(note, "9 GPUs fill 2 nodes of 8 in order: the last node holds 1.");
    /* NVL72: 72 stay on NVLink, the 73rd crosses */
    q = cluster_query(COLLCALC_OP_ALLREDUCE, 100000000, 72, 72, 72);
    q.cluster.intra = link_of("nvlink5", 900, 2.0);
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_int_equal(r.nodes, 1);
    assert_close(r.phases[0].bw_GBps, 900.0, 1e-9);
    q.cluster.gpus = 73;
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_int_equal(r.nodes, 2);
    assert_close(r.phases[0].bw_GBps, 50.0, 1e-9);
}

static void cluster_hierarchical_allreduce(void **state)
{
    (void)state;
    const double s = 1 << 30;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, (uint64_t)s, 32, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_HIERARCHICAL);
    assert_int_equal(r.phase_count, 3);
    assert_int_equal(r.phases[0].scope, COLLCALC_SCOPE_INTRA);
    assert_int_equal(r.phases[1].scope, COLLCALC_SCOPE_INTER);
    assert_int_equal(r.phases[2].scope, COLLCALC_SCOPE_INTRA);
    /* across the network: 2(N-1)/N x S/G per GPU, N = 4, G = 8 */
    assert_close(r.phases[1].bytes_sent, 2.0 * 3 / 4 * s / 8, 1e-6);
    assert_int_equal(r.phases[1].steps, 6);
    assert_close(r.phases[0].bytes_sent, s * 7 / 8, 1e-6);
    assert_int_equal(r.steps, 7 + 6 + 7);
    /* fewer NICs than GPUs: each GPU gets K/G of a NIC */
    q.cluster.nics_per_node = 4;
    r = eval(&q, COLLCALC_ALGO_HIERARCHICAL);
    assert_close(r.phases[1].bw_GBps, 25.0, 1e-9);
    /* SHARP: one pass through the switches */
    q.cluster.nics_per_node = 8;
    q.cluster.sharp_inter = true;
    r = eval(&q, COLLCALC_ALGO_HIERARCHICAL);
    assert_close(r.phases[1].bytes_sent, s / 8, 1e-6);
    /* a partial node does not fit the 2-D scheme */
    q.cluster.gpus = 30;
    collcalc_diag diag;
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_HIERARCHICAL, &r, &diag),
                     COLLCALC_ERR_UNSUPPORTED);
    assert_non_null(strstr(diag.message, "full"));
}

static void cluster_tree_steps(void **state)
{
    (void)state;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 1 << 20, 64, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_TREE);
    assert_int_equal(r.steps, 2 * (7 + 3)); /* 2((G-1) + ceil(lg N)) */
    assert_close(r.latency_us, 2 * 7 * 2.0 + 2 * 3 * 14.0, 1e-9);
}

static void cluster_alltoall(void **state)
{
    (void)state;
    /* one GPU per node: busbw is the NIC bandwidth (nccl-tests#130) */
    collcalc_query q = cluster_query(COLLCALC_OP_ALLTOALL, 1ULL << 40, 8, 1, 1);
    collcalc_result r = eval(&q, COLLCALC_ALGO_PAIRWISE);
    assert_close(r.busbw_GBps, 50.0, 0.01);
    /* N nodes: busbw -> N/(N-1) x the NIC bandwidth per GPU */
    for (int n = 2; n <= 8; n *= 2) {
        q = cluster_query(COLLCALC_OP_ALLTOALL, 1ULL << 40, 8 * n, 8, 8);
        r = eval(&q, COLLCALC_ALGO_PAIRWISE);
        assert_close(r.busbw_GBps, 50.0 * n / (n - 1) * (8.0 * n - 1) / (8.0 * n), 0.05);
        assert_int_equal(r.phase_count, 2);
        assert_int_equal(r.phases[0].stage, r.phases[1].stage); /* concurrent */
    }
    /* fewer NICs than GPUs cannot be aggregated for one GPU */
    q = cluster_query(COLLCALC_OP_ALLTOALL, 1ULL << 40, 16, 8, 2);
    r = eval(&q, COLLCALC_ALGO_PAIRWISE);
    assert_close(r.phases[1].bw_GBps, 12.5, 1e-9);
}

static void nvls_single_node(void **state)
{
    (void)state;
    const double s = (double)(1ULL << 40);
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, (uint64_t)s, 8, 8, 8);
    collcalc_diag diag;
    collcalc_result r;
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_NVLS, &r, &diag), COLLCALC_ERR_UNSUPPORTED);
    assert_non_null(strstr(diag.message, "NVLS"));
    /* a switch that reduces, but the intra link is PCIe: refusable */
    q.cluster.nvls_intra = true;
    q.cluster.intra = link_of("pcie4", 31.5, 3.0);
    const char *why_not = NULL;
    assert_false(collcalc_algo_applies(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_NVLS, &q.cluster, &why_not));
    assert_non_null(why_not);
    assert_non_null(strstr(why_not, "not NVLink"));
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_NVLS, &r, &diag), COLLCALC_ERR_UNSUPPORTED);
    q.cluster.intra = link_of("nvlink4", 450, 2.0);
    q.cluster.intra.nvlink = true;
    r = eval(&q, COLLCALC_ALGO_NVLS);
    assert_close(r.bytes_sent_per_gpu, s * 9 / 8, 1e-6);
    assert_close(r.bytes_received_per_gpu, s * 9 / 8, 1e-6);
    /* NVIDIA: algbw = busbw x n/(n+1), where busbw is the per-GPU traffic rate */
    assert_close(r.algbw_GBps, 450.0 * 8 / 9, 0.1);
}

static void centralized_is_never_the_fastest(void **state)
{
    (void)state;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 8, 144, 72, 72);
    collcalc_result all[COLLCALC_ALGO_COUNT];
    size_t count, fastest;
    assert_int_equal(collcalc_model_evaluate_all(&q, all, COLLCALC_ALGO_COUNT, &count, &fastest, NULL),
                     COLLCALC_OK);
    size_t centralized = count;
    for (size_t i = 0; i < count; i++)
        if (all[i].algo == COLLCALC_ALGO_CENTRALIZED)
            centralized = i;
    assert_true(centralized < count);
    assert_true(all[centralized].time_us < all[fastest].time_us); /* cheaper on paper ... */
    assert_int_not_equal(all[fastest].algo, COLLCALC_ALGO_CENTRALIZED); /* ... never chosen */
}

static void nccl_marker(void **state)
{
    (void)state;
    assert_true(collcalc_algo_in_nccl(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RING));
    assert_true(collcalc_algo_in_nccl(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_TREE));
    assert_true(collcalc_algo_in_nccl(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_NVLS));
    assert_false(collcalc_algo_in_nccl(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RABENSEIFNER));
    assert_false(collcalc_algo_in_nccl(COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_TREE));
}

/* Issue 6 §6: a GPU drives one NIC. 2 GPUs, one per node, 8 NICs per node:
 * the ring gets one NIC (50 GB/s busbw), not 8 (396 GB/s before the fix). */
static void a_gpu_drives_one_nic(void **state)
{
    (void)state;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 1000000000, 2, 1, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    assert_int_equal(r.nodes, 2);
    assert_int_equal(r.phases[0].hop, COLLCALC_HOP_NIC_RING);
    assert_int_equal(r.phases[0].nics, 1);
    assert_close(r.phases[0].bw_GBps, 50.0, 1e-12);
    /* 2 x 14 us + 2 x 0.5 GB / 50 GB/s = 20,028 us; busbw = algbw x 1 */
    assert_close(r.time_us, 20028.0, 1e-6);
    assert_close(r.busbw_GBps, 1e9 / 20028e3, 1e-9);
    assert_true(r.busbw_GBps < 50.0 && r.busbw_GBps > 49.9);
    /* a cluster that says a GPU drives 8 NICs gets them all */
    q.cluster.nics_per_gpu = 8;
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_close(r.phases[0].bw_GBps, 400.0, 1e-12);
    /* 0 reads as the default, 1 */
    q.cluster.nics_per_gpu = 0;
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_close(r.phases[0].bw_GBps, 50.0, 1e-12);
    /* the tree across nodes follows the same rule */
    r = eval(&q, COLLCALC_ALGO_TREE);
    assert_close(r.phases[0].bw_GBps, 50.0 * 0.92, 1e-12);
    /* a partial last node: 4 NICs for 8 GPUs, the 9th GPU alone still drives one */
    q = cluster_query(COLLCALC_OP_ALLREDUCE, 1000000000, 9, 8, 4);
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_int_equal(r.phases[0].nics, 1);
    assert_int_equal(r.phases[0].sharing_gpus, 1);
    assert_close(r.phases[0].bw_GBps, 50.0, 1e-12);
    /* 12 GPUs: the last node's 4 GPUs drive 4 of its 4 NICs, like a full node */
    q.cluster.gpus = 12;
    r = eval(&q, COLLCALC_ALGO_RING);
    assert_int_equal(r.phases[0].nics, 4);
    assert_close(r.phases[0].bw_GBps, 200.0, 1e-12);
}

/* Issue 6 §6: the partial last node in all-to-all. 9 GPUs on HGX H100 (8 per
 * node, 8 NDR NICs): GPU 8 alone in node 2 sends 8/9 GB through one 50 GB/s
 * NIC: 17.8 ms of bandwidth (2.24 ms before the fix). */
static void alltoall_partial_last_node(void **state)
{
    (void)state;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLTOALL, 1000000000, 9, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_PAIRWISE);
    assert_int_equal(r.phase_count, 1); /* the lone GPU has no peer in its node */
    assert_string_equal(r.phases[0].label, "exchange with GPUs in other nodes");
    assert_int_equal(r.phases[0].steps, 8);
    assert_close(r.phases[0].bytes_sent, 8e9 / 9, 1e-3);
    assert_close(r.phases[0].bw_GBps, 50.0, 1e-12);
    assert_close(r.bandwidth_us, 8e9 / 9 / 50e3, 1e-6); /* 17,777.8 us */
    assert_close(r.latency_us, 8 * 14.0, 1e-9);
    assert_true(r.time_us >= 17800.0);
    assert_true(r.facts & COLLCALC_FACT_BUSIEST_IN_LAST_NODE);
    assert_int_equal(r.remote_peers, 8);
    /* full nodes only: the node's GPUs decide as before */
    q.cluster.gpus = 16;
    r = eval(&q, COLLCALC_ALGO_PAIRWISE);
    assert_false(r.facts & COLLCALC_FACT_BUSIEST_IN_LAST_NODE);
    assert_int_equal(r.remote_peers, 8);
    assert_close(r.bandwidth_us, 8 * 1e9 / 16 / 50e3, 1e-6);
    /* 17 GPUs, 2 NICs per node: a full node's GPU (9 remote peers at
     * 2/8 x 50 = 12.5 GB/s) is busier than the lone 17th (16 remote peers
     * at 50 GB/s) */
    q = cluster_query(COLLCALC_OP_ALLTOALL, 1000000000, 17, 8, 2);
    r = eval(&q, COLLCALC_ALGO_PAIRWISE);
    assert_false(r.facts & COLLCALC_FACT_BUSIEST_IN_LAST_NODE);
    assert_int_equal(r.remote_peers, 9);
    assert_close(r.phases[1].bw_GBps, 12.5, 1e-12);
    assert_close(r.bandwidth_us, 9e9 / 17 / 12.5e3, 1e-6);
}

/* The same partial-node rule in the centralized all-reduce: the lone GPU's
 * S goes through one NIC; with one GPU per node the root's port is one NIC. */
static void centralized_partial_last_node(void **state)
{
    (void)state;
    const double s = 1e9;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, (uint64_t)s, 9, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_CENTRALIZED);
    /* the lone GPU's S in S/50 GB/s = the root's 8 S at 400 GB/s */
    assert_int_equal(r.phases[0].hop, COLLCALC_HOP_ROOT_REMOTE_NICS);
    assert_close(r.phases[0].bw_GBps, 400.0, 1e-9);
    assert_close(r.bandwidth_us, 2 * 8 * s / 400e3, 1e-6);
    /* full nodes: node 0's 8 NICs bring 8 S at 400 GB/s x 15/8 = 750, the
     * root's 450 GB/s port decides */
    q.cluster.gpus = 16;
    r = eval(&q, COLLCALC_ALGO_CENTRALIZED);
    assert_int_equal(r.phases[0].hop, COLLCALC_HOP_ROOT_PORT);
    assert_close(r.phases[0].bw_GBps, 450.0, 1e-9);
    /* one GPU per node, 8 NICs: the root drives one */
    q = cluster_query(COLLCALC_OP_ALLREDUCE, (uint64_t)s, 4, 1, 8);
    r = eval(&q, COLLCALC_ALGO_CENTRALIZED);
    assert_int_equal(r.phases[0].hop, COLLCALC_HOP_ROOT_NICS);
    assert_close(r.phases[0].bw_GBps, 50.0, 1e-9);
    assert_close(r.bandwidth_us, 2 * 3 * s / 50e3, 1e-6);
}

/* Issue 6 §10: mutations the suite must catch. */
static void hierarchical_allgather_and_reducescatter_bytes(void **state)
{
    (void)state;
    const double s = 1 << 30;
    /* 4 nodes x 8: all-gather = inter ring per rail of (N-1) x S/p, then intra (G-1)/G x S */
    collcalc_query q = cluster_query(COLLCALC_OP_ALLGATHER, (uint64_t)s, 32, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_HIERARCHICAL);
    assert_int_equal(r.phase_count, 2);
    assert_close(r.phases[0].bytes_sent, 3 * s / 32, 1e-6);
    assert_close(r.phases[0].bytes_received, 3 * s / 32, 1e-6);
    assert_close(r.phases[1].bytes_sent, 7 * s / 8, 1e-6);
    assert_close(r.bytes_sent_per_gpu, 3 * s / 32 + 7 * s / 8, 1e-6);
    assert_int_equal(r.steps, 3 + 7);
    assert_close(r.bandwidth_us, 3 * s / 32 / 50e3 + 7 * s / 8 / 450e3, 1e-6);
    /* reduce-scatter: intra (G-1)/G x S, then inter (N-1)/N x S/G */
    q.op = COLLCALC_OP_REDUCESCATTER;
    r = eval(&q, COLLCALC_ALGO_HIERARCHICAL);
    assert_int_equal(r.phase_count, 2);
    assert_close(r.phases[0].bytes_sent, 7 * s / 8, 1e-6);
    assert_close(r.phases[1].bytes_sent, 3.0 / 4 * s / 8, 1e-6);
    assert_close(r.phases[1].bytes_received, 3.0 / 4 * s / 8, 1e-6);
    assert_close(r.bandwidth_us, 7 * s / 8 / 450e3 + 3 * s / 32 / 50e3, 1e-6);
    /* all-reduce keeps its 2(N-1)/N x S/G across */
    q.op = COLLCALC_OP_ALLREDUCE;
    r = eval(&q, COLLCALC_ALGO_HIERARCHICAL);
    assert_close(r.bandwidth_us, 2 * 7 * s / 8 / 450e3 + 2 * 3 * s / 32 / 50e3, 1e-6);
}

static void sendrecv_across_nodes(void **state)
{
    (void)state;
    const double s = 1e9;
    collcalc_query q = cluster_query(COLLCALC_OP_SENDRECV, (uint64_t)s, 16, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_DIRECT);
    assert_int_equal(r.phases[0].scope, COLLCALC_SCOPE_INTER);
    assert_int_equal(r.phases[0].hop, COLLCALC_HOP_NIC_ONE_GPU);
    assert_close(r.phases[0].bw_GBps, 50.0, 1e-12);
    assert_close(r.bandwidth_us, s / 50e3, 1e-6);
    assert_close(r.time_us, s / 50e3 + 14.0, 1e-6);
    assert_close(r.busbw_GBps, s / ((s / 50e3 + 14.0) * 1e3), 1e-9);
    /* two NICs per GPU: the crossing GPU uses both */
    q.cluster.nics_per_gpu = 2;
    r = eval(&q, COLLCALC_ALGO_DIRECT);
    assert_close(r.phases[0].bw_GBps, 100.0, 1e-12);
    /* one node: the intra link */
    q.cluster.gpus = 8;
    r = eval(&q, COLLCALC_ALGO_DIRECT);
    assert_close(r.phases[0].bw_GBps, 450.0, 1e-12);
}

static void tree_depth_rounds_up(void **state)
{
    (void)state;
    /* 5 nodes: ceil(lg 5) = 3 tree levels (floor would say 2) */
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 1 << 20, 40, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_TREE);
    assert_int_equal(r.phases[1].depth, 3);
    assert_int_equal(r.phases[1].steps, 6);
    assert_int_equal(r.steps, 2 * (7 + 3));
    assert_close(r.latency_us, 2 * 7 * 2.0 + 2 * 3 * 14.0, 1e-9);
    /* 3 nodes: 2 levels; one node of 6: ceil(lg 6) = 3 */
    q.cluster.gpus = 24;
    assert_int_equal(eval(&q, COLLCALC_ALGO_TREE).steps, 2 * (7 + 2));
    q = single(COLLCALC_OP_ALLREDUCE, 1000, 6, 100, 1.0);
    assert_int_equal(eval(&q, COLLCALC_ALGO_TREE).steps, 6);
}

static void repeat_totals(void **state)
{
    (void)state;
    collcalc_query q = single(COLLCALC_OP_ALLREDUCE, 100000000, 8, 1800, 2.0);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    collcalc_totals totals;
    collcalc_diag diag;
    assert_int_equal(collcalc_repeat_totals(&r, 80, 1, &totals, &diag), COLLCALC_OK);
    assert_int_equal(totals.count, 80);
    assert_close(totals.total_latency_us, 80 * 28.0, 1e-9);          /* 2.24 ms */
    assert_close(totals.total_bandwidth_us, 80 * 97.2222222, 1e-3);  /* 7.78 ms */
    assert_close(totals.total_time_us, totals.total_latency_us + totals.total_bandwidth_us, 1e-6);
    assert_int_equal(collcalc_repeat_totals(&r, 80, 2, &totals, &diag), COLLCALC_OK);
    assert_int_equal(totals.count, 160);
    assert_int_equal(collcalc_repeat_totals(&r, 0, 1, &totals, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "layers"));
    assert_int_equal(collcalc_repeat_totals(&r, 1, -3, &totals, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "per-layer"));
    assert_int_equal(collcalc_repeat_totals(&r, LONG_MAX, 2, &totals, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "overflows"));
    assert_int_equal(totals.count, 160); /* untouched on failure */
    r.time_us = 1e308;
    assert_int_equal(collcalc_repeat_totals(&r, 1000, 1000, &totals, &diag), COLLCALC_ERR_INVALID);
}

static void init_functions(void **state)
{
    (void)state;
    collcalc_cluster c;
    memset(&c, 0x5a, sizeof c);
    collcalc_cluster_init(&c);
    assert_int_equal(c.gpus, 1);
    assert_int_equal(c.gpus_per_node, 1);
    assert_int_equal(c.nics_per_node, 1);
    assert_int_equal(c.nics_per_gpu, 1);
    assert_false(c.nvls_intra);
    assert_false(c.sharp_inter);
    assert_false(c.intra.nvlink);
    assert_string_equal(c.intra.name, "");
    collcalc_query q;
    memset(&q, 0x5a, sizeof q);
    collcalc_query_init(&q);
    assert_int_equal(q.op, COLLCALC_OP_ALLREDUCE);
    assert_true(q.size_bytes == 0);
    assert_close(q.tree_efficiency, 0.0, 0.0);
    /* the caller must give the links' bandwidth */
    collcalc_diag diag;
    assert_int_equal(collcalc_query_validate(&q, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "intra link bandwidth"));
    q.cluster.intra = link_of("x", 10, 0);
    q.cluster.inter = q.cluster.intra;
    assert_int_equal(collcalc_query_validate(&q, &diag), COLLCALC_OK);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING); /* one GPU */
    assert_true(r.facts & COLLCALC_FACT_ONE_GPU);
    assert_close(r.time_us, 0.0, 0.0);
    /* NULL is a no-op */
    collcalc_cluster_init(NULL);
    collcalc_query_init(NULL);
    collcalc_link_params_init(NULL);
    q.cluster.nics_per_gpu = -1;
    assert_int_equal(collcalc_query_validate(&q, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "NICs per GPU"));
}

/* A measured point-to-point efficiency on the inter link slows the sends
 * of all-to-all and send/recv across nodes, and nothing else: not the ring
 * all-reduce, not the phases inside a node. */
static void point_to_point_efficiency(void **state)
{
    (void)state;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLTOALL, 1000000000, 16, 8, 8);
    collcalc_result line = eval(&q, COLLCALC_ALGO_PAIRWISE);
    q.cluster.inter.p2p_efficiency = 0.94;
    collcalc_result measured = eval(&q, COLLCALC_ALGO_PAIRWISE);
    assert_int_equal(measured.phase_count, 2);
    assert_close(measured.phases[0].bw_GBps, 450.0, 1e-12); /* in the node: NVLink, unchanged */
    assert_close(measured.phases[0].efficiency, 1.0, 0.0);
    assert_close(measured.phases[1].bw_GBps, 47.0, 1e-12);
    assert_close(measured.phases[1].efficiency, 0.94, 0.0);
    assert_close(measured.bandwidth_us, line.bandwidth_us / 0.94, 1e-9);
    assert_close(measured.latency_us, line.latency_us, 0.0);
    /* Bruck all-to-all across nodes too. */
    collcalc_result bruck = eval(&q, COLLCALC_ALGO_BRUCK);
    q.cluster.inter.p2p_efficiency = 0.0;
    collcalc_result bruck_line = eval(&q, COLLCALC_ALGO_BRUCK);
    assert_true(bruck.bandwidth_us > bruck_line.bandwidth_us);
    /* send/recv with one GPU per node: one NIC at 0.94 x 50. */
    q = cluster_query(COLLCALC_OP_SENDRECV, 1000000000, 2, 1, 1);
    q.cluster.inter.p2p_efficiency = 0.94;
    collcalc_result sr = eval(&q, COLLCALC_ALGO_DIRECT);
    assert_close(sr.phases[0].bw_GBps, 47.0, 1e-12);
    assert_close(sr.bandwidth_us, 1e9 / 47e3, 1e-9);
    /* The ring all-reduce keeps the line rate (NCCL's model covers it). */
    q = cluster_query(COLLCALC_OP_ALLREDUCE, 1ULL << 40, 16, 8, 8);
    collcalc_result ring = eval(&q, COLLCALC_ALGO_RING);
    q.cluster.inter.p2p_efficiency = 0.94;
    collcalc_result ring_measured = eval(&q, COLLCALC_ALGO_RING);
    assert_close(ring_measured.time_us, ring.time_us, 0.0);
    /* Out of range is refused. */
    q.cluster.inter.p2p_efficiency = 1.5;
    collcalc_result out;
    collcalc_diag diag;
    assert_int_equal(collcalc_model_evaluate(&q, COLLCALC_ALGO_RING, &out, &diag),
                     COLLCALC_ERR_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(textbook_ring_8_gpus_100MB_nvlink5),
        cmocka_unit_test(textbook_ring_over_ib_ndr),
        cmocka_unit_test(per_direction_basis_doubles_the_nvlink_term),
        cmocka_unit_test(textbook_32_gpus),
        cmocka_unit_test(textbook_ring_phase_counts),
        cmocka_unit_test(textbook_centralized),
        cmocka_unit_test(alltoall_moves_about_s_allreduce_about_2s),
        cmocka_unit_test(busbw_factors),
        cmocka_unit_test(formulas_per_algorithm),
        cmocka_unit_test(tree_bytes_at_most_ring_bytes),
        cmocka_unit_test(applicability),
        cmocka_unit_test(one_gpu_costs_nothing),
        cmocka_unit_test(properties),
        cmocka_unit_test(rejects_bad_queries),
        cmocka_unit_test(names_round_trip),
        cmocka_unit_test(cluster_flat_ring_nic_rule),
        cmocka_unit_test(cluster_one_gpu_per_node_is_the_textbook_ib_example),
        cmocka_unit_test(cluster_ninth_gpu_crosses_the_network),
        cmocka_unit_test(cluster_hierarchical_allreduce),
        cmocka_unit_test(cluster_tree_steps),
        cmocka_unit_test(cluster_alltoall),
        cmocka_unit_test(nvls_single_node),
        cmocka_unit_test(nccl_marker),
        cmocka_unit_test(centralized_is_never_the_fastest),
        cmocka_unit_test(a_gpu_drives_one_nic),
        cmocka_unit_test(alltoall_partial_last_node),
        cmocka_unit_test(centralized_partial_last_node),
        cmocka_unit_test(hierarchical_allgather_and_reducescatter_bytes),
        cmocka_unit_test(sendrecv_across_nodes),
        cmocka_unit_test(tree_depth_rounds_up),
        cmocka_unit_test(repeat_totals),
        cmocka_unit_test(rows_cost_as_evaluate),
        cmocka_unit_test(init_functions),
        cmocka_unit_test(point_to_point_efficiency),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
