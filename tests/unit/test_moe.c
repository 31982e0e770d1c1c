/* Unit tests for MoE dispatch/combine (src/plan/moe.c) and the per-expert
 * count reader (src/plan/loads.c): DeepEP's byte accounting, the published
 * normal-kernel bandwidths (the DeepEP README; doc/MODEL.md §20.2)
 * and low-latency latencies the calibration reproduces, imbalance and
 * redundant experts, the split-batch timeline, and bad input. */
#include "support.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "collcalc/models.h"
#include "collcalc/plan.h"

static collcalc_model_table *models;

static int setup(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    return collcalc_model_table_builtin(&models, &diag) == COLLCALC_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    collcalc_model_table_free(models);
    return 0;
}

#define assert_close test_assert_close_relative

/* DeepSeek-V3 on H800 nodes: NVLink 200 GB/s per direction (data/links.json
 * nvlink4-h800), one CX7 400G (50 GB/s) per GPU. */
static collcalc_moe_query h800_query(int ep, uint64_t tokens, collcalc_moe_mode mode)
{
    collcalc_moe_query q;
    collcalc_moe_query_init(&q);
    q.model = collcalc_model_table_find(models, "deepseek-v3");
    assert_non_null(q.model);
    q.ep = ep;
    q.tokens = tokens;
    q.mode = mode;
    q.cluster.gpus_per_node = 8;
    q.cluster.nics_per_node = 8;
    snprintf(q.cluster.intra.name, sizeof q.cluster.intra.name, "nvlink4-h800");
    q.cluster.intra.bw_GBps = 200;
    q.cluster.intra.alpha_us = 2;
    q.cluster.intra.nvlink = true;
    snprintf(q.cluster.inter.name, sizeof q.cluster.inter.name, "ib-ndr");
    q.cluster.inter.bw_GBps = 50;
    q.cluster.inter.alpha_us = 14;
    return q;
}

static collcalc_moe_result run(const collcalc_moe_query *q)
{
    collcalc_moe_result r;
    collcalc_diag diag = {{0}};
    collcalc_status status = collcalc_moe_evaluate(q, &r, &diag);
    if (status != COLLCALC_OK)
        print_error("%s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    return r;
}

static void test_deepep_bytes(void **state)
{
    (void)state;
    collcalc_moe_query q = h800_query(8, 128, COLLCALC_MOE_LOW_LATENCY);
    collcalc_moe_result r = run(&q);
    assert_int_equal(r.dispatch_bytes_per_selection, 7408);  /* 7168 + 56 x 4 + 16 */
    assert_int_equal(r.combine_bytes_per_selection, 14336); /* 2 x 7168 */
    assert_true(r.selections_per_gpu == 1024.0);
    assert_true(r.dispatch_bytes_per_gpu == 1024.0 * 7408);
    assert_true(r.combine_bytes_per_gpu == 1024.0 * 14336);
    assert_true(r.share_local == 1.0 / 8);
    assert_true(r.share_nvlink == 7.0 / 8);
    assert_true(r.share_network == 0.0);
    assert_int_equal(r.nodes, 1);
    q.dispatch_dtype = COLLCALC_DTYPE_BF16;
    q.combine_dtype = COLLCALC_DTYPE_FP8;
    r = run(&q);
    assert_int_equal(r.dispatch_bytes_per_selection, 14336);
    assert_int_equal(r.combine_bytes_per_selection, 7408);

    q = h800_query(64, 128, COLLCALC_MOE_LOW_LATENCY); /* 8 nodes */
    r = run(&q);
    assert_true(r.share_local == 1.0 / 64);
    assert_true(r.share_nvlink == 7.0 / 64);
    assert_true(r.share_network == 56.0 / 64);
    assert_true(r.node_limited);
    assert_close(r.nodes_touched_per_token, 4.0, 1e-12); /* one group per node, top-4 */
    assert_close(r.remote_nodes_per_token, 3.5, 1e-12);
    assert_close(r.bytes_network, 1024.0 * 56 / 64 * 7408, 1e-12);
}

/* DeepEP low-latency, 128 tokens per rank, top-8, H800 + CX7 (DeepEP
 * docs/legacy.md; doc/MODEL.md §20.2): dispatch / combine latency in us and
 * the "RDMA bandwidth" columns, which tests/test_low_latency.py prints as
 * every selection's FP8 / BF16 bytes over the kernel time (§20.5). */
static void test_low_latency_published(void **state)
{
    (void)state;
    const int eps[] = {8, 16, 32, 64, 128, 256};
    const double dispatch[] = {77, 118, 155, 173, 192, 194};
    const double combine[] = {114, 195, 273, 314, 369, 360};
    const double dispatch_GBps[] = {98, 63, 48, 43, 39, 39};
    const double combine_GBps[] = {127, 74, 53, 46, 39, 40};
    double previous = 0;
    for (size_t i = 0; i < 6; i++) {
        collcalc_moe_query q = h800_query(eps[i], 128, COLLCALC_MOE_LOW_LATENCY);
        collcalc_moe_result r = run(&q);
        assert_close(r.dispatch_us, dispatch[i], 0.07);
        assert_close(r.combine_us, combine[i], 0.07);
        assert_close(r.logical_dispatch_GBps, 1024.0 * 7408 / r.dispatch_us / 1e3, 1e-12);
        assert_close(r.logical_combine_GBps, 1024.0 * 14336 / r.combine_us / 1e3, 1e-12);
        /* the accounting: the bytes it counts over the published latency give
         * the published GB/s (the table rounds to whole GB/s and us) ... */
        assert_close(r.logical_dispatch_GBps * r.dispatch_us / dispatch[i], dispatch_GBps[i],
                     0.03);
        assert_close(r.logical_combine_GBps * r.combine_us / combine[i], combine_GBps[i], 0.03);
        /* ... and the model's own figure follows its time (within 7 %) */
        assert_close(r.logical_dispatch_GBps, dispatch_GBps[i], 0.10);
        assert_close(r.logical_combine_GBps, combine_GBps[i], 0.10);
        /* the NIC carries the network share only */
        if (r.nodes > 1)
            assert_close(r.wire_dispatch_GBps, r.logical_dispatch_GBps * r.share_network,
                         1e-12);
        assert_true(r.dispatch_us > previous); /* more peers, more network */
        previous = r.dispatch_us;
    }
    /* Latency-bound at one token: the fixed costs dominate. */
    collcalc_moe_query q = h800_query(32, 1, COLLCALC_MOE_LOW_LATENCY);
    collcalc_moe_result r = run(&q);
    assert_int_equal(r.dispatch_dominant, COLLCALC_DOMINANT_LATENCY);
    assert_close(r.dispatch_latency_us, 15.0 + 8 * (31.0 / 32) * 0.018, 1e-12);
    assert_true(r.dispatch_us < 20.0);
}

/* DeepEP normal kernels, 4096 tokens per rank (the validation file): the
 * "logical" bandwidths the source prints. */
static void test_normal_published(void **state)
{
    (void)state;
    collcalc_moe_query q = h800_query(8, 4096, COLLCALC_MOE_NORMAL);
    collcalc_moe_result r = run(&q);
    /* intranode: bytes received over NVLink / time */
    assert_close(r.bytes_nvlink / r.dispatch_us / 1e3, 153, 0.03);
    assert_close(r.combine_bytes_nvlink / r.combine_us / 1e3, 158, 0.03);
    assert_int_equal(r.dispatch_dominant, COLLCALC_DOMINANT_BANDWIDTH);
    const int eps[] = {16, 32, 64};
    const double dispatch[] = {43, 58, 51};
    const double combine[] = {43, 57, 50};
    for (size_t i = 0; i < 3; i++) {
        q = h800_query(eps[i], 4096, COLLCALC_MOE_NORMAL);
        r = run(&q);
        double logical = 4096.0 * r.nodes_touched_per_token;
        assert_close(logical * 7408 / r.dispatch_us / 1e3, dispatch[i], 0.06);
        assert_close(logical * 14336 / r.combine_us / 1e3, combine[i], 0.06);
    }
    /* node-limited routing: 4 of 8 groups on 4 nodes (2 groups each) */
    q = h800_query(32, 4096, COLLCALC_MOE_NORMAL);
    r = run(&q);
    assert_close(r.nodes_touched_per_token, 4.0 * (1.0 - 15.0 / 70.0), 1e-12);
    q.node_limited = false; /* 8 draws from 256 experts, 64 per node */
    collcalc_moe_result u = run(&q);
    assert_false(u.node_limited);
    assert_true(u.nodes_touched_per_token > r.nodes_touched_per_token);
    assert_true(u.dispatch_us > r.dispatch_us);
}

static void test_textbook_and_redundancy(void **state)
{
    (void)state;
    /* 8 of 256 experts per token on 32 GPUs. */
    collcalc_moe_query q = h800_query(32, 128, COLLCALC_MOE_LOW_LATENCY);
    q.redundant_experts = 32;
    collcalc_moe_result r = run(&q);
    assert_int_equal(r.slots, 288);
    assert_int_equal(r.slots_per_gpu, 9);
    assert_true(r.expert_memory_increase == 0.125);
    assert_non_null(collcalc_findings_find(&r.findings, "redundant-expert-memory"));
    assert_int_equal(r.allreduce_gpus, 32);
    /* 32 x (1 - C(248, 8) / C(256, 8)) = 7.3 GPUs busy per token */
    assert_close(r.a2a_gpus_busy_per_token, 7.30, 0.005);
    assert_true(r.a2a_bytes_per_token == 8.0 * (7408 + 14336));
    /* 2 (p-1)/p x 32 ranks x 128 tokens x 7168 x 2 B */
    assert_close(r.allreduce_bytes_per_gpu, 2.0 * 31 / 32 * 32 * 128 * 7168 * 2, 1e-12);
    assert_true(r.allreduce_bytes_per_gpu > r.dispatch_bytes_per_gpu + r.combine_bytes_per_gpu);
    assert_true(r.allreduce_us > 0);
    assert_non_null(collcalc_findings_find(&r.findings, "ep-crosses-node"));
}

/* TensorRT-LLM's NVLinkOneSided all-to-all on GB200 NVL72 (TensorRT-LLM tech
 * blog 18 "Optimizing MoE Communication with One-Sided AlltoAll Over NVLink",
 * docs/source/blogs/tech_blog/ in NVIDIA/TensorRT-LLM; doc/published.md):
 * DeepSeek-V3 shape, BF16 dispatch and combine, balanced router, latency in
 * us per kernel. Columns: ep, tokens per rank, dispatch, combine. */
static const double trtllm_nvl72[][4] = {
    {8, 1, 18.9, 31.0},
    {8, 2, 18.4, 31.1},
    {8, 4, 18.1, 31.4},
    {8, 8, 17.6, 31.4},
    {8, 16, 18.5, 32.6},
    {8, 32, 18.2, 32.7},
    {8, 64, 22.3, 34.1},
    {8, 128, 31.7, 38.1},
    {8, 256, 50.8, 53.0},
    {8, 512, 89.5, 91.7},
    {8, 1024, 166.3, 175.6},
    {8, 2048, 311.8, 322.6},
    {16, 1, 18.8, 30.8},
    {16, 2, 19.1, 31.4},
    {16, 4, 18.5, 31.6},
    {16, 8, 18.9, 31.8},
    {16, 16, 18.4, 33.0},
    {16, 32, 20.2, 34.2},
    {16, 64, 24.1, 35.6},
    {16, 128, 34.6, 39.9},
    {16, 256, 54.8, 57.0},
    {16, 512, 97.1, 98.2},
    {16, 1024, 181.2, 188.2},
    {16, 2048, 343.3, 348.4},
    {32, 1, 19.8, 31.4},
    {32, 2, 19.7, 31.3},
    {32, 4, 19.6, 31.4},
    {32, 8, 19.4, 32.2},
    {32, 16, 18.9, 33.4},
    {32, 32, 21.1, 34.6},
    {32, 64, 26.2, 36.4},
    {32, 128, 37.8, 41.1},
    {32, 256, 61.5, 59.7},
    {32, 512, 109.6, 102.5},
    {32, 1024, 197.5, 197.5},
    {32, 2048, 373.7, 369.5},
    {64, 1, 27.8, 32.6},
    {64, 2, 24.8, 32.2},
    {64, 4, 29.1, 33.0},
    {64, 8, 20.4, 33.3},
    {64, 16, 20.6, 35.0},
    {64, 32, 23.1, 36.1},
    {64, 64, 28.8, 37.7},
    {64, 128, 41.6, 44.5},
    {64, 256, 65.3, 62.9},
    {64, 512, 115.7, 106.7},
    {64, 1024, 209.4, 199.2},
    {64, 2048, 399.2, 372.1},
};

static double median_of(double *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The calibration reads only the EP 8 rows (src/plan/calibration.c); EP 16,
 * 32 and 64 are out of sample. Both --mode values cost the same kernel
 * inside one rack-scale NVLink domain. */
static void test_nvl72_one_sided_published(void **state)
{
    (void)state;
    const size_t n = sizeof trtllm_nvl72 / sizeof trtllm_nvl72[0];
    double in_sample[2 * 12], out_of_sample[2 * 36];
    size_t ni = 0, no = 0;
    for (size_t i = 0; i < n; i++) {
        for (int mode = 0; mode < 2; mode++) {
            collcalc_moe_query q = h800_query((int)trtllm_nvl72[i][0],
                                              (uint64_t)trtllm_nvl72[i][1],
                                              mode ? COLLCALC_MOE_LOW_LATENCY
                                                   : COLLCALC_MOE_NORMAL);
            q.dispatch_dtype = COLLCALC_DTYPE_BF16;
            q.cluster.gpus_per_node = 72;
            q.cluster.nics_per_node = 72;
            q.cluster.intra.bw_GBps = 900; /* nvlink5 per direction */
            collcalc_moe_result r = run(&q);
            double ed = fabs(r.dispatch_us / trtllm_nvl72[i][2] - 1);
            double ec = fabs(r.combine_us / trtllm_nvl72[i][3] - 1);
            assert_true(ed < 0.20);
            assert_true(ec < 0.20);
            if (mode == 1)
                continue;
            if (trtllm_nvl72[i][0] == 8) {
                in_sample[ni++] = ed;
                in_sample[ni++] = ec;
            } else {
                out_of_sample[no++] = ed;
                out_of_sample[no++] = ec;
            }
        }
    }
    assert_int_equal(ni, 24);
    assert_int_equal(no, 72);
    assert_true(median_of(in_sample, ni) < 0.04);
    assert_true(median_of(out_of_sample, no) < 0.06);
    /* Floors: one token is the kernel floor + one flag per peer. */
    collcalc_moe_query q = h800_query(64, 1, COLLCALC_MOE_NORMAL);
    q.cluster.gpus_per_node = 72;
    q.cluster.intra.bw_GBps = 900;
    collcalc_moe_result r = run(&q);
    assert_close(r.dispatch_us, 17.7 + 63 * 0.1, 1e-12);
    assert_close(r.combine_us, 30.7 + 63 * 0.1, 1e-12);
}

/* compare: EP 64 inside one GB200 NVL72 domain vs across eight 8-GPU nodes. */
static void test_nvl72_vs_hgx(void **state)
{
    (void)state;
    collcalc_moe_query hgx = h800_query(64, 128, COLLCALC_MOE_LOW_LATENCY);
    collcalc_moe_query nvl = hgx;
    nvl.cluster.gpus_per_node = 72;
    nvl.cluster.nics_per_node = 72;
    nvl.cluster.intra.bw_GBps = 900; /* nvlink5 per direction */
    collcalc_moe_result a = run(&hgx);
    collcalc_moe_result b = run(&nvl);
    assert_int_equal(a.nodes, 8);
    assert_int_equal(b.nodes, 1);
    assert_true(b.share_network == 0.0 && b.bytes_network == 0.0);
    assert_true(b.share_nvlink == 63.0 / 64);
    assert_true(a.bytes_network > 0);
    assert_true(b.dispatch_us < a.dispatch_us / 2);
    assert_true(b.combine_us < a.combine_us / 2);
    assert_null(collcalc_findings_find(&b.findings, "ep-crosses-node"));
    assert_non_null(collcalc_findings_find(&a.findings, "ep-crosses-node"));
}

/* EP 32 on nodes of 24: 24 + 8 GPUs. A GPU of the 8-GPU node sends 24 of
 * every 32 selections over the network (75 %, not the full nodes' 25 %);
 * its time is the layer's and at least the even split's (16 + 16). */
static void test_partial_last_node(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        collcalc_moe_query q = h800_query(32, mode == 0 ? 4096 : 128, (collcalc_moe_mode)mode);
        q.cluster.gpus_per_node = 24;
        q.cluster.nics_per_node = 24;
        collcalc_moe_result uneven = run(&q);
        q.cluster.gpus_per_node = 16;
        q.cluster.nics_per_node = 16;
        collcalc_moe_result even = run(&q);
        assert_int_equal(uneven.nodes, 2);
        assert_int_equal(uneven.gpus_per_node, 24);
        assert_int_equal(uneven.gpus_in_last_node, 8);
        assert_true(uneven.share_network_full == 8.0 / 32);
        assert_true(uneven.share_network_last == 24.0 / 32);
        assert_int_equal(even.gpus_in_last_node, 16);
        assert_true(even.share_network == 0.5 && even.share_network_last == 0.5);
        assert_true(uneven.dispatch_us + uneven.combine_us >= even.dispatch_us + even.combine_us);
        /* DeepSeek-V3's 8 groups, top 4: 6 groups on the big node, 2 on the
         * small one; a token reaches the small node unless its 4 groups
         * are all among the 6: 1 - C(6,4)/C(8,4) = 55/70; the big one
         * always. A token of the small node reaches 1 remote node. */
        assert_true(uneven.node_limited);
        assert_close(uneven.nodes_touched_per_token, 1.0 + 55.0 / 70, 1e-12);
        if (mode == COLLCALC_MOE_LOW_LATENCY) {
            /* Message and RDMA bound: the small node's GPU is the busiest. */
            assert_int_equal(uneven.busiest_node_gpus, 8);
            assert_true(uneven.share_network == 24.0 / 32);
            assert_true(uneven.share_nvlink == 7.0 / 32);
            assert_close(uneven.remote_nodes_per_token, 1.0, 1e-12);
            assert_true(uneven.bytes_network > 1.4 * even.bytes_network); /* 0.75 vs 0.5 */
        } else {
            /* Normal kernels at 4,096 tokens are bound by the NVLink
             * fan-out inside the destination node (1 - 1/24 of the
             * selections on the big node vs 1 - 1/8): a big-node GPU is
             * the busiest; its tokens reach the small node 55/70 times. */
            assert_int_equal(uneven.busiest_node_gpus, 24);
            assert_true(uneven.share_network == 8.0 / 32);
            assert_close(uneven.remote_nodes_per_token, 55.0 / 70, 1e-12);
        }
        /* Even: 4 of 8 groups per node, missed only by the one top-4 choice
         * of the other node's groups: 2 x 69/70. */
        assert_close(even.nodes_touched_per_token, 2.0 * 69 / 70, 1e-12);
        collcalc_finding *f = collcalc_findings_find(&uneven.findings, "ep-crosses-node");
        assert_non_null(f);
        assert_contains(f->message, "(24 + 8 GPUs): 75 % of selections cross the network on "
                                    "the 8-GPU node, 25 % on the full ones");
    }
    /* Without a partial node the layout is what it was: EP 64 on 8 nodes. */
    collcalc_moe_query q = h800_query(64, 4096, COLLCALC_MOE_NORMAL);
    collcalc_moe_result r = run(&q);
    assert_int_equal(r.gpus_in_last_node, 8);
    assert_int_equal(r.busiest_node_gpus, 8);
    assert_close(r.nodes_touched_per_token, 8 * (1 - 35.0 / 70), 1e-12); /* 4.0 */
}

/* The fabric by the intra link: xGMI is AMD's, with no NVL72 to suggest. */
static void test_fabric_names(void **state)
{
    (void)state;
    collcalc_moe_query q = h800_query(16, 128, COLLCALC_MOE_NORMAL);
    collcalc_moe_result r = run(&q);
    assert_string_equal(r.fabric, "NVLink");
    assert_false(r.amd);
    collcalc_finding *f = collcalc_findings_find(&r.findings, "ep-crosses-node");
    assert_non_null(f);
    assert_contains(f->next_step, "GB200 NVL72");
    snprintf(q.cluster.intra.name, sizeof q.cluster.intra.name, "xgmi-mi355x");
    r = run(&q);
    assert_string_equal(r.fabric, "xGMI");
    assert_true(r.amd);
    f = collcalc_findings_find(&r.findings, "ep-crosses-node");
    assert_non_null(f);
    assert_null(strstr(f->next_step, "NVL"));
    assert_string_equal(f->next_step, "keep EP inside one node (8 GPUs on xGMI) if it fits");
    snprintf(q.cluster.intra.name, sizeof q.cluster.intra.name, "pcie5");
    q.cluster.intra.nvlink = false;
    r = run(&q);
    assert_string_equal(r.fabric, "PCIe");
    assert_false(r.amd);
}

static void test_imbalance(void **state)
{
    (void)state;
    collcalc_moe_query q = h800_query(32, 4096, COLLCALC_MOE_NORMAL);
    collcalc_moe_result base = run(&q);
    assert_true(base.imbalance == 1.0);
    assert_string_equal(base.imbalance_from, "uniform");
    q.imbalance = 1.5;
    collcalc_moe_result given = run(&q);
    assert_string_equal(given.imbalance_from, "given");
    assert_close(given.dispatch_bandwidth_us, 1.5 * base.dispatch_bandwidth_us, 1e-12);
    assert_non_null(collcalc_findings_find(&given.findings, "ep-imbalance"));
    /* The busiest GPU's bytes scale as its time: dispatch received, combine
     * sent; in low-latency mode its local, NVLink and network bytes add up. */
    assert_close(given.dispatch_bytes_per_gpu, 1.5 * base.dispatch_bytes_per_gpu, 1e-12);
    assert_close(given.combine_bytes_per_gpu, 1.5 * base.combine_bytes_per_gpu, 1e-12);
    collcalc_moe_query ll = h800_query(32, 128, COLLCALC_MOE_LOW_LATENCY);
    ll.imbalance = 4;
    collcalc_moe_result hot = run(&ll);
    assert_close(hot.dispatch_bytes_per_gpu, 4.0 * 1024 * 7408, 1e-12);
    assert_close(hot.bytes_local + hot.bytes_nvlink + hot.bytes_network,
                 hot.dispatch_bytes_per_gpu, 1e-12);
    assert_close(hot.wire_dispatch_GBps, hot.bytes_network / hot.dispatch_us / 1e3, 1e-12);
    /* DeepEP's print counts the rank's own selections: not scaled */
    assert_close(hot.logical_dispatch_GBps, 1024.0 * 7408 / hot.dispatch_us / 1e3, 1e-12);
    /* The domain edge compares EP 8 with EP 16: a given 12x is past EP 8's
     * ceiling there and is taken as 8x; the edge is still reported. */
    ll = h800_query(16, 128, COLLCALC_MOE_LOW_LATENCY);
    ll.imbalance = 12;
    collcalc_moe_edge edge;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_moe_domain_edge(&ll, &edge, &diag), COLLCALC_OK);
    assert_int_equal(edge.inside, 8);
    ll.ep = 8;
    ll.imbalance = 8;
    hot = run(&ll);
    assert_close(edge.inside_dispatch_us, hot.dispatch_us, 1e-12);

    /* Loads: expert 0 carries 33 units, the other 255 one each. */
    double loads[256];
    for (int i = 0; i < 256; i++)
        loads[i] = 1;
    loads[0] = 33;
    q.imbalance = 0;
    q.expert_loads = loads;
    q.expert_load_count = 256;
    collcalc_moe_result skew = run(&q);
    /* GPU 0 holds experts 0..7: 40 of a mean 288 / 32 = 9 */
    assert_close(skew.imbalance_static, 40.0 / 9.0, 1e-12);
    q.redundant_experts = 32; /* 288 slots, 9 per GPU */
    collcalc_moe_result eplb = run(&q);
    assert_true(eplb.imbalance_rebalanced < skew.imbalance_static);
    assert_close(eplb.imbalance, eplb.imbalance_rebalanced, 1e-12);
    assert_true(eplb.dispatch_us < skew.dispatch_us);

    q.expert_loads = NULL;
    q.redundant_experts = 0;
    q.zipf_s = 1.0;
    collcalc_moe_result zipf = run(&q);
    assert_string_equal(zipf.imbalance_from, "zipf");
    assert_true(zipf.imbalance_static > 1.0);
    q.redundant_experts = 32;
    collcalc_moe_result zipf_eplb = run(&q);
    assert_true(zipf_eplb.imbalance < zipf.imbalance);
}

/* DeepEP's Buffer asserts num_ranks < 8 or num_ranks % 8 == 0 (doc/MODEL.md
 * §20.5): EP 12 across two H800 nodes gets a warning, and the domain edge
 * compares with EP 24 (264 slots), not EP 11. */
static void test_deepep_ep_size(void **state)
{
    (void)state;
    collcalc_moe_query q = h800_query(12, 4096, COLLCALC_MOE_NORMAL);
    q.redundant_experts = 8;
    collcalc_moe_result r = run(&q);
    assert_true(r.deepep_refuses);
    bool found = false;
    for (size_t i = 0; i < r.findings.count; i++)
        if (strcmp(r.findings.items[i].code, "deepep-ep-size") == 0)
            found = true;
    assert_true(found);
    collcalc_moe_edge edge;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_moe_domain_edge(&q, &edge, &diag), COLLCALC_OK);
    assert_int_equal(edge.inside, 8);
    assert_int_equal(edge.outside, 24);
    q.ep = 16;
    q.redundant_experts = 0;
    collcalc_moe_result ok = run(&q);
    assert_false(ok.deepep_refuses);
    for (size_t i = 0; i < ok.findings.count; i++)
        assert_string_not_equal(ok.findings.items[i].code, "deepep-ep-size");
}

static void test_split_batch(void **state)
{
    (void)state;
    collcalc_moe_query q = h800_query(32, 4096, COLLCALC_MOE_NORMAL);
    q.router_us = 100;
    q.expert_compute_us = 2000;
    collcalc_moe_result one = run(&q);
    assert_int_equal(one.event_count, 4);
    assert_close(one.timeline_us, one.serial_us, 1e-12);
    assert_close(one.serial_us, 100 + one.dispatch_us + 2000 + one.combine_us, 1e-12);
    q.split_batch = 2;
    collcalc_moe_result two = run(&q);
    assert_int_equal(two.event_count, 8);
    assert_string_equal(two.events[0].label, "router A");
    assert_string_equal(two.events[7].label, "combine B");
    assert_true(two.events[7].communication);
    assert_true(two.timeline_us < two.serial_us);
    assert_close(two.hidden_us, two.serial_us - two.timeline_us, 1e-12);
    /* experts A runs while dispatch B is on the wire */
    assert_true(two.events[4].start_us < two.events[3].end_us);
    for (size_t i = 0; i < two.event_count; i++)
        assert_true(two.events[i].end_us >= two.events[i].start_us);
    /* Without expert compute the split only adds latency: nothing hidden,
     * never a negative "hidden" (audit: -40 us printed at EP 16). */
    q.expert_compute_us = 0;
    q.router_us = 0;
    collcalc_moe_result bare = run(&q);
    assert_true(bare.timeline_us > bare.serial_us);
    assert_true(bare.hidden_us == 0);
    q.expert_compute_us = 2000;
    q.router_us = 100;
    q.sm_slowdown = 1.3;
    collcalc_moe_result slow = run(&q);
    assert_true(slow.timeline_us > two.timeline_us);
}

static void test_bad_input(void **state)
{
    (void)state;
    collcalc_moe_result r;
    collcalc_diag diag = {{0}};
    collcalc_moe_query q = h800_query(512, 128, COLLCALC_MOE_NORMAL);
    assert_int_equal(collcalc_moe_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "--ep 512 is larger than deepseek-v3's 256 expert slots");
    q = h800_query(48, 128, COLLCALC_MOE_NORMAL);
    assert_int_equal(collcalc_moe_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message,
                        "--ep 48 does not divide the 256 expert slots (256 routed + 0 redundant): "
                        "32 redundant experts make 288 slots, 6 per GPU (+12.5 % expert memory)");
    assert_int_equal(collcalc_moe_redundant_for(q.model, 48), 32);
    assert_int_equal(collcalc_moe_redundant_for(q.model, 64), 0);
    assert_int_equal(collcalc_moe_redundant_for(q.model, 72), 32);
    assert_int_equal(collcalc_moe_redundant_for(q.model, 144), 32);
    q = h800_query(32, 0, COLLCALC_MOE_NORMAL);
    assert_int_equal(collcalc_moe_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "--tokens must be between 1 and");
    q = h800_query(32, 128, COLLCALC_MOE_NORMAL);
    q.model = collcalc_model_table_find(models, "llama-3-70b");
    assert_int_equal(collcalc_moe_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message,
                        "llama-3-70b is a dense model: it has no experts to dispatch to");
    q = h800_query(32, 128, COLLCALC_MOE_NORMAL);
    double loads[3] = {1, 2, 3};
    q.expert_loads = loads;
    q.expert_load_count = 3;
    assert_int_equal(collcalc_moe_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "--expert-loads lists 3 experts; deepseek-v3 has 256");
    q = h800_query(32, 128, COLLCALC_MOE_NORMAL);
    q.imbalance = 0.5;
    assert_int_equal(collcalc_moe_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    q.imbalance = NAN;
    assert_int_equal(collcalc_moe_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    q = h800_query(32, 128, COLLCALC_MOE_NORMAL);
    q.cluster.inter.bw_GBps = 0;
    assert_int_equal(collcalc_moe_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    q = h800_query(32, 128, COLLCALC_MOE_NORMAL);
    q.split_batch = 3;
    assert_int_equal(collcalc_moe_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "--split-batch must be 1 or 2 (got 3)");
    /* Each option's one range (plan.h), named by its option; its ends pass. */
    static const struct {
        int field; /* 0 zipf, 1 redundant experts, 2 imbalance, 3 SM slowdown */
        double bad, end;
        const char *message;
    } ranges[] = {
        {0, 50, COLLCALC_MOE_ZIPF_MAX, "--zipf must be between 0 and 10 (got 50)"},
        {1, 100000, 0, "--redundant-experts must be between 0 and 4096 (got 100000)"},
        {2, 33, 32, /* max/mean is at most EP: every selection on one GPU */
         "--imbalance (max/mean) must be between 1 and 32, the EP degree (all selections on "
         "one GPU) (got 33)"},
        {3, 101, COLLCALC_MOE_SM_SLOWDOWN_MAX, "--sm-slowdown must be between 1 and 100 (got 101)"},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        for (int pass = 0; pass < 2; pass++) {
            double value = pass == 0 ? ranges[i].bad : ranges[i].end;
            q = h800_query(32, 128, COLLCALC_MOE_NORMAL);
            switch (ranges[i].field) {
            case 0: q.zipf_s = value; break;
            case 1: q.redundant_experts = (int)value; break;
            case 2: q.imbalance = value; break;
            default: q.sm_slowdown = value; break;
            }
            if (pass == 1) {
                r = run(&q);
                continue;
            }
            assert_int_equal(collcalc_moe_evaluate(&q, &r, &diag), COLLCALC_ERR_INVALID);
            assert_string_equal(diag.message, ranges[i].message);
        }
    }
    /* The largest accepted batch stays finite. */
    q = h800_query(256, COLLCALC_TOKENS_MAX, COLLCALC_MOE_LOW_LATENCY);
    r = run(&q);
    assert_true(isfinite(r.dispatch_us) && isfinite(r.combine_us));

    collcalc_moe_mode mode;
    assert_int_equal(collcalc_moe_mode_from_name("low_latency", &mode, &diag), COLLCALC_OK);
    assert_int_equal(mode, COLLCALC_MOE_LOW_LATENCY);
    assert_int_equal(collcalc_moe_mode_from_name("fast", &mode, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(collcalc_moe_mode_name(COLLCALC_MOE_NORMAL), "normal");
}

static collcalc_status parse_loads(const char *text, collcalc_expert_loads *loads,
                                   collcalc_diag *diag)
{
    return collcalc_expert_loads_parse(text, strlen(text), loads, diag);
}

static void test_expert_count_reader(void **state)
{
    (void)state;
    static collcalc_expert_loads loads;
    collcalc_diag diag = {{0}};
    assert_int_equal(parse_loads("[3, 1, 0, 4]", &loads, &diag), COLLCALC_OK);
    assert_int_equal(loads.experts, 4);
    assert_true(loads.loads[3] == 4 && loads.total == 8);
    /* layers x experts, summed over layers */
    assert_int_equal(parse_loads("{\"logical_count\": [[1, 2], [3, 4.5]]}", &loads, &diag),
                     COLLCALC_OK);
    assert_int_equal(loads.experts, 2);
    assert_int_equal(loads.rows, 2);
    assert_true(loads.loads[0] == 4 && loads.loads[1] == 6.5);
    assert_int_equal(parse_loads("[[[1, 1]], [[2, 1e2]]]", &loads, &diag), COLLCALC_OK);
    assert_true(loads.loads[1] == 101);
    /* CSV: one column, expert_id,count, layer_id,expert_id,count */
    assert_int_equal(parse_loads("# recorder dump\n5\n7\n\n9\n", &loads, &diag), COLLCALC_OK);
    assert_int_equal(loads.experts, 3);
    assert_true(loads.loads[2] == 9);
    assert_int_equal(parse_loads("layer_id,expert_id,count\r\n0,0,10\r\n0,1,20\r\n1,1,5\r\n",
                                 &loads, &diag),
                     COLLCALC_OK);
    assert_int_equal(loads.experts, 2);
    assert_true(loads.loads[0] == 10 && loads.loads[1] == 25);
    assert_int_equal(parse_loads("expert_id,count\n1,4\n0,2\n", &loads, &diag), COLLCALC_OK);
    assert_true(loads.loads[0] == 2 && loads.loads[1] == 4);

    /* Bad rows name their line. */
    assert_int_equal(parse_loads("expert_id,count\n0,1\n1,abc\n", &loads, &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "line 3: 'abc' is not a count (a non-negative number)");
    assert_int_equal(parse_loads("0,1\n1,2,3\n", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "line 2: 3 columns where the file has 2");
    assert_int_equal(parse_loads("0,-1\n", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "line 1: '-1' is not a count (a non-negative number)");
    assert_int_equal(parse_loads("1.5,2\n", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "line 1: expert id must be a whole number below 4096");
    assert_int_equal(parse_loads("[1,\n2,\n-3]", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "line 3: a count cannot be negative");
    assert_int_equal(parse_loads("[[1, 2],\n [3]]", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "line 2: 1 counts where earlier rows have 2");
    assert_int_equal(parse_loads("[1, [2]]", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "line 1: an array mixes counts and arrays");
    assert_int_equal(parse_loads("{\"counts\": [1]}", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_int_equal(parse_loads("[0, 0]", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "the expert counts are all zero");
    assert_int_equal(parse_loads("", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_int_equal(parse_loads("[1] x", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_int_equal(parse_loads("[[[[1]]]]", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_int_equal(parse_loads("[1e999]", &loads, &diag), COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_expert_loads_parse("[1\0]", 4, &loads, &diag),
                     COLLCALC_ERR_INVALID);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deepep_bytes),
        cmocka_unit_test(test_low_latency_published),
        cmocka_unit_test(test_normal_published),
        cmocka_unit_test(test_textbook_and_redundancy),
        cmocka_unit_test(test_nvl72_vs_hgx),
        cmocka_unit_test(test_nvl72_one_sided_published),
        cmocka_unit_test(test_partial_last_node),
        cmocka_unit_test(test_fabric_names),
        cmocka_unit_test(test_imbalance),
        cmocka_unit_test(test_deepep_ep_size),
        cmocka_unit_test(test_split_batch),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_expert_count_reader),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
