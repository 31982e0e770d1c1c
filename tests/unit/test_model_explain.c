/* The model's registry (which algorithms an op has, which apply, which may
 * be called fastest), the sentences built on demand (collcalc_*_explain:
 * exact texts, never cut, agreeing with the numbers beside them), and the
 * property test over clusters: several nodes, a partial last node, one GPU
 * per node, NVLS, SHARP, many NICs (doc/MODEL.md §7). */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "collcalc/model.h"

#define assert_close(actual, expected, tolerance) \
    assert_true(fabs((double)(actual) - (double)(expected)) <= (tolerance))
#define assert_close_rel(actual, expected) \
    assert_true(fabs((double)(actual) - (double)(expected)) <= 1e-9 * fabs((double)(expected)) + 1e-9)

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
    q.cluster.intra = link_of("nvlink4", 450, 2.0, true);
    q.cluster.inter = link_of("ib-ndr", 50, 14.0, false);
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

static void phase_text(const collcalc_query *q, const collcalc_result *r, int i, char *out)
{
    size_t n = collcalc_phase_explain(q, r, i, out, COLLCALC_EXPLAIN_MAX);
    assert_true(n < COLLCALC_EXPLAIN_MAX);
    assert_int_equal(strlen(out), n);
}

static void result_text(const collcalc_query *q, const collcalc_result *r, char *out)
{
    size_t n = collcalc_result_explain(q, r, out, COLLCALC_EXPLAIN_MAX);
    assert_true(n < COLLCALC_EXPLAIN_MAX);
    assert_int_equal(strlen(out), n);
}

static void registry(void **state)
{
    (void)state;
    collcalc_algo algos[COLLCALC_ALGO_COUNT];
    assert_int_equal(collcalc_algos_for_op(COLLCALC_OP_ALLTOALL, algos, COLLCALC_ALGO_COUNT), 2);
    assert_int_equal(algos[0], COLLCALC_ALGO_PAIRWISE);
    assert_int_equal(algos[1], COLLCALC_ALGO_BRUCK);
    assert_int_equal(collcalc_algos_for_op(COLLCALC_OP_SENDRECV, algos, COLLCALC_ALGO_COUNT), 1);
    assert_int_equal(algos[0], COLLCALC_ALGO_DIRECT);
    assert_int_equal(collcalc_algos_for_op(COLLCALC_OP_ALLREDUCE, algos, COLLCALC_ALGO_COUNT), 7);
    assert_int_equal(algos[6], COLLCALC_ALGO_NVLS);
    /* capacity smaller than the list: the count, and only capacity written */
    algos[1] = COLLCALC_ALGO_COUNT;
    assert_int_equal(collcalc_algos_for_op(COLLCALC_OP_BROADCAST, algos, 1), 3);
    assert_int_equal(algos[0], COLLCALC_ALGO_RING);
    assert_int_equal(algos[1], COLLCALC_ALGO_COUNT);
    assert_int_equal(collcalc_algos_for_op(COLLCALC_OP_REDUCE, NULL, 0), 3);
    assert_int_equal(collcalc_algos_for_op(COLLCALC_OP_COUNT, algos, COLLCALC_ALGO_COUNT), 0);
    /* fastest and NCCL flags come from the rows */
    assert_false(collcalc_algo_may_be_fastest(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_CENTRALIZED));
    assert_true(collcalc_algo_may_be_fastest(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RING));
    assert_false(collcalc_algo_may_be_fastest(COLLCALC_OP_ALLTOALL, COLLCALC_ALGO_RING));
    assert_true(collcalc_algo_in_nccl(COLLCALC_OP_ALLTOALL, COLLCALC_ALGO_PAIRWISE));
    assert_false(collcalc_algo_in_nccl(COLLCALC_OP_ALLTOALL, COLLCALC_ALGO_BRUCK));
    /* every (op, algo) pair: listed <=> known to the flags and to evaluate */
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 1000, 8, 8, 8);
    for (int op = 0; op < COLLCALC_OP_COUNT; op++) {
        size_t n = collcalc_algos_for_op((collcalc_op)op, algos, COLLCALC_ALGO_COUNT);
        for (int a = 0; a < COLLCALC_ALGO_COUNT; a++) {
            bool listed = false;
            for (size_t i = 0; i < n; i++)
                listed = listed || algos[i] == (collcalc_algo)a;
            const char *why = NULL;
            bool applies = collcalc_algo_applies((collcalc_op)op, (collcalc_algo)a, &q.cluster, &why);
            if (!listed) {
                assert_false(applies);
                assert_string_equal(why, "not an algorithm for this operation");
                assert_false(collcalc_algo_may_be_fastest((collcalc_op)op, (collcalc_algo)a));
                assert_false(collcalc_algo_in_nccl((collcalc_op)op, (collcalc_algo)a));
            } else {
                assert_true(applies || why != NULL);
            }
        }
    }
    /* why-not sentences */
    const char *why = NULL;
    q.cluster.gpus = 6;
    assert_false(collcalc_algo_applies(COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_RECURSIVE_DOUBLING,
                                       &q.cluster, &why));
    assert_non_null(strstr(why, "power-of-two"));
    assert_false(collcalc_algo_applies(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_HIERARCHICAL, &q.cluster, &why));
    assert_string_equal(why, "needs more than one node");
    q.cluster.gpus = 12;
    assert_false(collcalc_algo_applies(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_HIERARCHICAL, &q.cluster, &why));
    assert_string_equal(why, "needs every node full");
    q.cluster.gpus = 16;
    assert_true(collcalc_algo_applies(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_HIERARCHICAL, &q.cluster, &why));
    assert_null(why);
    /* an unvalidated cluster never crashes a predicate */
    q.cluster.gpus = 0;
    q.cluster.gpus_per_node = 0;
    assert_false(collcalc_algo_applies(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_NVLS, &q.cluster, &why));
    assert_false(collcalc_algo_applies(COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_HIERARCHICAL, &q.cluster, &why));
    assert_false(collcalc_algo_applies(COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_RECURSIVE_DOUBLING, &q.cluster, &why));
}

static void fastest_reads_the_row(void **state)
{
    (void)state;
    collcalc_result results[2];
    memset(results, 0, sizeof results);
    results[0].op = COLLCALC_OP_ALLREDUCE;
    results[0].algo = COLLCALC_ALGO_CENTRALIZED;
    results[0].time_us = 1.0;
    results[1].op = COLLCALC_OP_ALLREDUCE;
    results[1].algo = COLLCALC_ALGO_RING;
    results[1].time_us = 5.0;
    assert_int_equal(collcalc_fastest_index(results, 2), 1);
    assert_int_equal(collcalc_fastest_index(results, 1), 0); /* none allowed: 0 */
    assert_int_equal(collcalc_fastest_index(results, 0), 0);
    results[0].algo = COLLCALC_ALGO_TREE;
    assert_int_equal(collcalc_fastest_index(results, 2), 0);
    results[0].time_us = 5.0; /* ties: the first */
    assert_int_equal(collcalc_fastest_index(results, 2), 0);
}

/* Exact sentences for the cases the command line shows most. */
static void sentences(void **state)
{
    (void)state;
    char text[COLLCALC_EXPLAIN_MAX];
    /* one node, ring: nothing to add */
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 100000000, 8, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    phase_text(&q, &r, 0, text);
    assert_string_equal(text, "");
    result_text(&q, &r, text);
    assert_string_equal(text, "");
    /* two nodes, flat ring */
    q.cluster.gpus = 16;
    r = eval(&q, COLLCALC_ALGO_RING);
    phase_text(&q, &r, 0, text);
    assert_string_equal(text, "flat ring over 2 nodes: min(nvlink4 450 GB/s, 8 NICs x ib-ndr 50 GB/s) "
                              "= 400 GB/s; per pass 14 hops of 2 us and 1 of 14 us, alpha = their "
                              "mean 2.8 us");
    /* the lone 9th GPU */
    q.cluster.gpus = 9;
    r = eval(&q, COLLCALC_ALGO_RING);
    phase_text(&q, &r, 0, text);
    assert_non_null(strstr(text, "1 NIC x ib-ndr 50 GB/s) = 50 GB/s"));
    assert_non_null(strstr(text, "the last node's 1 GPU drives 1 of its 8 NICs"));
    /* one GPU per node, 8 NICs */
    q = cluster_query(COLLCALC_OP_ALLREDUCE, 1000000000, 2, 1, 8);
    r = eval(&q, COLLCALC_ALGO_RING);
    phase_text(&q, &r, 0, text);
    assert_string_equal(text, "one GPU per node: every ring hop is a ib-ndr hop, 1 NIC x 50 GB/s = "
                              "50 GB/s; 1 GPU per node drives 1 of its 8 NICs (1 per GPU)");
    /* NICs shared */
    q = cluster_query(COLLCALC_OP_ALLREDUCE, 1 << 30, 32, 8, 4);
    r = eval(&q, COLLCALC_ALGO_HIERARCHICAL);
    phase_text(&q, &r, 1, text);
    assert_string_equal(text, "8 GPUs share 4 NICs: each GPU gets 0.5 x 50 GB/s = 25 GB/s");
    q.cluster.nics_per_node = 8;
    r = eval(&q, COLLCALC_ALGO_HIERARCHICAL);
    phase_text(&q, &r, 1, text);
    assert_string_equal(text, "one ib-ndr NIC per GPU at 50 GB/s");
    result_text(&q, &r, text);
    assert_string_equal(text, "Each GPU sends 2(N-1)/N x S/G across the network: the node's 8 GPUs "
                              "split S and each all-reduces its 1/8 on its own rail.");
    /* SHARP: the note and the phase both say S/G once */
    q.cluster.sharp_inter = true;
    r = eval(&q, COLLCALC_ALGO_HIERARCHICAL);
    assert_close(r.phases[1].bytes_sent, (double)(1 << 30) / 8, 1e-6);
    phase_text(&q, &r, 1, text);
    assert_string_equal(text, "one ib-ndr NIC per GPU at 50 GB/s; each GPU sends its S/G once and "
                              "gets the sum back once");
    result_text(&q, &r, text);
    assert_null(strstr(text, "2(N-1)/N"));
    assert_non_null(strstr(text, "sends its S/G across the network once"));
    /* NVLS in one node: S + S/G each way, in the phase and in the note */
    q = cluster_query(COLLCALC_OP_ALLREDUCE, 1 << 30, 8, 8, 8);
    q.cluster.nvls_intra = true;
    r = eval(&q, COLLCALC_ALGO_NVLS);
    assert_close(r.phases[0].bytes_sent, (double)(1 << 30) * 9 / 8, 1e-6);
    phase_text(&q, &r, 0, text);
    assert_string_equal(text, "pipelined multimem reduce and multicast: S + S/G each way at nvlink4 "
                              "450 GB/s");
    result_text(&q, &r, text);
    assert_non_null(strstr(text, "S + S/G each way"));
    /* NVLS across nodes: S out and S/G in, then S/G out and S in */
    q.cluster.gpus = 16;
    r = eval(&q, COLLCALC_ALGO_NVLS);
    assert_close(r.phases[0].bytes_sent, (double)(1 << 30), 1e-6);
    assert_close(r.phases[0].bytes_received, (double)(1 << 30) / 8, 1e-6);
    phase_text(&q, &r, 0, text);
    assert_string_equal(text, "multimem reduce: each GPU sends its S into the switch and gets back "
                              "its reduced S/G");
    phase_text(&q, &r, 2, text);
    assert_string_equal(text, "multimem multicast: each GPU sends its S/G and receives all of S");
    /* tree in one node and across nodes */
    q = cluster_query(COLLCALC_OP_ALLREDUCE, 1 << 20, 8, 8, 8);
    r = eval(&q, COLLCALC_ALGO_TREE);
    phase_text(&q, &r, 0, text);
    assert_string_equal(text, "two binary trees of depth ceil(lg 8) = 3, each carrying half of S up "
                              "and back down (at most 2(p-1)/p x S per GPU); nvlink4 450 GB/s x "
                              "tree efficiency 0.92 = 414 GB/s");
    q.cluster.gpus = 40;
    r = eval(&q, COLLCALC_ALGO_TREE);
    phase_text(&q, &r, 0, text);
    assert_string_equal(text, "latency only: the data's time is counted once, in the tree phase");
    phase_text(&q, &r, 1, text);
    assert_string_equal(text, "double binary trees of depth ceil(lg 5) = 3 between nodes; "
                              "min(nvlink4 450 GB/s, 8 NICs x ib-ndr 50 GB/s) = 400 GB/s x tree "
                              "efficiency 0.92 = 368 GB/s");
    /* pairwise with the lone 9th GPU */
    q = cluster_query(COLLCALC_OP_ALLTOALL, 1000000000, 9, 8, 8);
    r = eval(&q, COLLCALC_ALGO_PAIRWISE);
    phase_text(&q, &r, 0, text);
    assert_string_equal(text, "in the last node, one ib-ndr NIC per GPU at 50 GB/s");
    result_text(&q, &r, text);
    assert_string_equal(text, "The busiest GPU is in the last node, which holds 1: 8 of its 8 peers "
                              "are in other nodes, so 8/8 of its traffic crosses the network, where "
                              "one GPU cannot use more than 1 NIC. 9 GPUs fill 2 nodes of 8 in "
                              "order: the last node holds 1.");
    /* non-power-of-two: 2 extra steps, or 1 for a reduce */
    q = cluster_query(COLLCALC_OP_ALLREDUCE, 1000, 6, 6, 1);
    r = eval(&q, COLLCALC_ALGO_RECURSIVE_DOUBLING);
    assert_int_equal(r.steps, 2 + 2);
    result_text(&q, &r, text);
    assert_string_equal(text, "p = 6 is not a power of two: the 2 extra ranks fold into partners "
                              "first and get the result back last (2 extra steps), then the "
                              "algorithm runs on p' = 4 ranks.");
    q.op = COLLCALC_OP_REDUCE;
    r = eval(&q, COLLCALC_ALGO_RABENSEIFNER);
    assert_int_equal(r.steps, 2 * 2 + 1);
    result_text(&q, &r, text);
    assert_non_null(strstr(text, "(1 extra step;"));
    /* centralized root sentences */
    q = cluster_query(COLLCALC_OP_ALLREDUCE, 1000000000, 9, 8, 8);
    r = eval(&q, COLLCALC_ALGO_CENTRALIZED);
    phase_text(&q, &r, 0, text);
    assert_string_equal(text, "the last node's 1 GPU sends through 1 ib-ndr NIC (50 GB/s each), "
                              "which is slower than the root's port and node 0's NICs: effective "
                              "400 GB/s for the root's (p-1) x S");
    /* one GPU */
    q.cluster.gpus = 1;
    r = eval(&q, COLLCALC_ALGO_RING);
    result_text(&q, &r, text);
    assert_string_equal(text, "One GPU: nothing to move.");
}

static void explain_is_snprintf_like(void **state)
{
    (void)state;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 100000000, 16, 8, 8);
    collcalc_result r = eval(&q, COLLCALC_ALGO_RING);
    char full[COLLCALC_EXPLAIN_MAX], small[10];
    size_t n = collcalc_phase_explain(&q, &r, 0, full, sizeof full);
    assert_true(n > 20);
    assert_int_equal(collcalc_phase_explain(&q, &r, 0, NULL, 0), n);
    assert_int_equal(collcalc_phase_explain(&q, &r, 0, small, sizeof small), n);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, full, sizeof small - 1);
    /* out of range or NULL: "" */
    assert_int_equal(collcalc_phase_explain(&q, &r, 2, full, sizeof full), 0);
    assert_string_equal(full, "");
    assert_int_equal(collcalc_phase_explain(&q, &r, -1, full, sizeof full), 0);
    assert_int_equal(collcalc_phase_explain(NULL, &r, 0, full, sizeof full), 0);
    assert_int_equal(collcalc_result_explain(&q, NULL, full, sizeof full), 0);
    q.cluster.gpus = 9;
    r = eval(&q, COLLCALC_ALGO_RING);
    n = collcalc_result_explain(&q, &r, full, sizeof full);
    assert_int_equal(collcalc_result_explain(&q, &r, small, sizeof small), n);
    assert_memory_equal(small, full, sizeof small - 1);
}

/* A result does not depend on what the buffer held before, and its
 * sentences come from the numbers alone: evaluating into garbage, copying
 * the result, or re-evaluating give the same text. */
static void results_are_plain_values(void **state)
{
    (void)state;
    collcalc_query q = cluster_query(COLLCALC_OP_ALLREDUCE, 100000000, 9, 8, 8);
    collcalc_result a, b;
    memset(&a, 'x', sizeof a);
    memset(&b, 0, sizeof b);
    a = eval(&q, COLLCALC_ALGO_RING);
    b = eval(&q, COLLCALC_ALGO_RING);
    assert_int_equal(a.phase_count, b.phase_count);
    assert_true(a.time_us == b.time_us && a.busbw_GBps == b.busbw_GBps);
    assert_int_equal(a.facts, b.facts);
    char ta[COLLCALC_EXPLAIN_MAX], tb[COLLCALC_EXPLAIN_MAX];
    collcalc_result copy = a;
    for (int i = 0; i < a.phase_count; i++) {
        phase_text(&q, &copy, i, ta);
        phase_text(&q, &b, i, tb);
        assert_string_equal(ta, tb);
        assert_true(a.phases[i].label == b.phases[i].label); /* static strings */
        assert_string_equal(a.phases[i].link, "nvlink4+ib-ndr");
    }
    result_text(&q, &copy, ta);
    result_text(&q, &b, tb);
    assert_string_equal(ta, tb);
    assert_true(strlen(ta) > 0);
}

/* The shapes the property test runs over. */
typedef struct {
    const char *name;
    int gpus, g, nics, npg;
    bool nvls, sharp;
} shape;

static const shape SHAPES[] = {
    {"one link, 2 GPUs", 2, 2, 1, 1, false, false},
    {"one link, 7 GPUs", 7, 7, 1, 1, false, false},
    {"one link, 8 GPUs", 8, 8, 1, 1, false, false},
    {"one link, 100 GPUs", 100, 100, 1, 1, false, false},
    {"one link, 1024 GPUs", 1024, 1024, 1, 1, false, false},
    {"2 x 8, 8 NICs", 16, 8, 8, 1, false, false},
    {"4 x 8, 4 NICs", 32, 8, 4, 1, false, false},
    {"9 on nodes of 8 (partial)", 9, 8, 8, 1, false, false},
    {"13 on nodes of 8, 2 NICs (partial)", 13, 8, 2, 1, false, false},
    {"40 on nodes of 8 (5 nodes)", 40, 8, 8, 1, false, false},
    {"8 x 1 GPU, 1 NIC", 8, 1, 1, 1, false, false},
    {"5 x 1 GPU, 8 NICs", 5, 1, 8, 1, false, false},
    {"1 node of 8, NVLS", 8, 8, 8, 1, true, false},
    {"4 x 8, NVLS", 32, 8, 8, 1, true, false},
    {"4 x 8, SHARP", 32, 8, 8, 1, false, true},
    {"4 x 8, NVLS + SHARP", 32, 8, 8, 1, true, true},
    {"2 x 8, 32 NICs, 4 per GPU", 16, 8, 32, 4, false, false},
    {"2 x 72 (NVL72)", 144, 72, 72, 1, true, false},
    {"73 on NVL72 nodes, 18 NICs (partial)", 73, 72, 18, 1, true, false},
    {"1 GPU", 1, 1, 1, 1, false, false},
};

/* "x GB/s" as the sentences print a bandwidth. */
static bool mentions_bw(const char *text, double bw_GBps)
{
    char want[48];
    snprintf(want, sizeof want, "%g GB/s", bw_GBps);
    return strstr(text, want) != NULL;
}

static bool balanced(const char *label)
{
    int depth = 0;
    for (const char *c = label; *c != '\0'; c++) {
        depth += *c == '(' ? 1 : *c == ')' ? -1 : 0;
        if (depth < 0)
            return false;
    }
    return depth == 0;
}

/* Properties over every op, algorithm, shape and size: finite; time grows
 * with size; latency does not depend on size; time = latency + bandwidth;
 * labels whole; sentences uncut and quoting the phase's bandwidth; the
 * busiest GPU moves at least what nccl-tests' bus factor implies on its
 * critical path. Reports the combinations that do not apply. */
static void properties_over_clusters(void **state)
{
    (void)state;
    const uint64_t sizes[] = {0, 1, 1000, 1 << 20, 100000000, 1ULL << 40, UINT64_MAX};
    int checked = 0, skipped = 0;
    char text[COLLCALC_EXPLAIN_MAX];
    for (size_t sh = 0; sh < sizeof SHAPES / sizeof SHAPES[0]; sh++) {
        const shape *shp = &SHAPES[sh];
        for (int op = 0; op < COLLCALC_OP_COUNT; op++) {
            collcalc_algo algos[COLLCALC_ALGO_COUNT];
            size_t n = collcalc_algos_for_op((collcalc_op)op, algos, COLLCALC_ALGO_COUNT);
            size_t applicable = 0;
            for (size_t a = 0; a < n; a++) {
                double previous_time = -1, latency = -1;
                for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                    collcalc_query q = cluster_query((collcalc_op)op, sizes[s], shp->gpus, shp->g,
                                                     shp->nics);
                    q.cluster.nics_per_gpu = shp->npg;
                    q.cluster.nvls_intra = shp->nvls;
                    q.cluster.sharp_inter = shp->sharp;
                    collcalc_result r;
                    collcalc_diag diag;
                    collcalc_status status = collcalc_model_evaluate(&q, algos[a], &r, &diag);
                    if (status == COLLCALC_ERR_UNSUPPORTED) {
                        const char *why = NULL;
                        assert_false(collcalc_algo_applies(q.op, algos[a], &q.cluster, &why));
                        assert_non_null(strstr(diag.message, why));
                        if (s == 0) {
                            print_message("skipped (not applicable): %-13s %-18s on %s: %s\n",
                                          collcalc_op_name(q.op), collcalc_algo_name(algos[a]),
                                          shp->name, why);
                            skipped++;
                        }
                        break;
                    }
                    assert_int_equal(status, COLLCALC_OK);
                    if (s == 0)
                        applicable++;
                    checked++;
                    assert_true(isfinite(r.time_us) && isfinite(r.busbw_GBps) &&
                                isfinite(r.algbw_GBps));
                    assert_true(r.time_us >= previous_time);
                    assert_true(shp->gpus == 1 ? r.steps == 0 : r.steps > 0);
                    assert_true(r.bytes_sent_per_gpu >= 0 && r.bytes_received_per_gpu >= 0);
                    if (latency >= 0)
                        assert_close_rel(r.latency_us, latency);
                    latency = r.latency_us;
                    previous_time = r.time_us;
                    assert_true(fabs(r.time_us - (r.latency_us + r.bandwidth_us)) <=
                                1e-9 * r.time_us + 1e-9);
                    assert_int_equal(r.nodes, (shp->gpus + shp->g - 1) / shp->g);
                    for (int i = 0; i < r.phase_count; i++) {
                        const collcalc_phase *ph = &r.phases[i];
                        assert_non_null(ph->label);
                        assert_true(strlen(ph->label) > 0 && strlen(ph->label) < 64);
                        assert_true(balanced(ph->label));
                        assert_true(ph->bw_GBps > 0 && isfinite(ph->bw_GBps));
                        phase_text(&q, &r, i, text);
                        if (ph->hop != COLLCALC_HOP_INTRA && ph->detail != COLLCALC_DETAIL_LATENCY_ONLY &&
                            !mentions_bw(text, ph->bw_GBps)) {
                            print_error("%s %s on %s, phase %d: '%s' does not say %g GB/s\n",
                                        collcalc_op_name(q.op), collcalc_algo_name(algos[a]),
                                        shp->name, i, text, ph->bw_GBps);
                            fail();
                        }
                        if (ph->scope != COLLCALC_SCOPE_INTRA)
                            assert_true(ph->nics >= 1 && ph->nics <= shp->nics);
                    }
                    result_text(&q, &r, text);
                    if (r.gpus_in_last_node < r.gpus_per_node)
                        assert_non_null(strstr(text, "the last node holds"));
                }
            }
            /* evaluate_all returns exactly the applicable ones, fastest allowed */
            collcalc_query q = cluster_query((collcalc_op)op, 1 << 20, shp->gpus, shp->g, shp->nics);
            q.cluster.nics_per_gpu = shp->npg;
            q.cluster.nvls_intra = shp->nvls;
            q.cluster.sharp_inter = shp->sharp;
            collcalc_result all[COLLCALC_ALGO_COUNT];
            size_t count = 0, fastest = 0;
            assert_int_equal(collcalc_model_evaluate_all(&q, all, COLLCALC_ALGO_COUNT, &count,
                                                         &fastest, NULL),
                             COLLCALC_OK);
            assert_int_equal(count, applicable);
            if (count > 0) {
                assert_true(fastest < count);
                assert_true(collcalc_algo_may_be_fastest(q.op, all[fastest].algo));
                for (size_t i = 0; i < count; i++)
                    if (collcalc_algo_may_be_fastest(q.op, all[i].algo))
                        assert_true(all[fastest].time_us <= all[i].time_us);
            }
        }
    }
    print_message("properties: %d evaluations checked, %d (op, algorithm, cluster) combinations "
                  "skipped as not applicable\n",
                  checked, skipped);
    assert_true(checked > 1000);
}

/* More NICs never make anything slower; more bandwidth never either. */
static void monotone_in_resources(void **state)
{
    (void)state;
    for (int op = 0; op < COLLCALC_OP_COUNT; op++) {
        collcalc_algo algos[COLLCALC_ALGO_COUNT];
        size_t n = collcalc_algos_for_op((collcalc_op)op, algos, COLLCALC_ALGO_COUNT);
        for (size_t a = 0; a < n; a++) {
            const int gpus[] = {9, 16, 40};
            for (size_t g = 0; g < 3; g++) {
                double previous = INFINITY;
                for (int nics = 1; nics <= 16; nics *= 2) {
                    collcalc_query q = cluster_query((collcalc_op)op, 1 << 28, gpus[g], 8, nics);
                    q.cluster.nics_per_gpu = 2;
                    collcalc_result r;
                    if (collcalc_model_evaluate(&q, algos[a], &r, NULL) != COLLCALC_OK)
                        break;
                    assert_true(r.time_us <= previous * (1 + 1e-12));
                    previous = r.time_us;
                }
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry),
        cmocka_unit_test(fastest_reads_the_row),
        cmocka_unit_test(sentences),
        cmocka_unit_test(explain_is_snprintf_like),
        cmocka_unit_test(results_are_plain_values),
        cmocka_unit_test(properties_over_clusters),
        cmocka_unit_test(monotone_in_resources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
