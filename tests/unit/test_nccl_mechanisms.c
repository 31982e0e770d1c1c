/* collcalc's mechanisms on top of NCCL's model (doc/MODEL.md §13): the
 * inter-node search bounded by the GPUs' NVLink, Tree across nodes from
 * the traffic of a double binary tree. Exact values from the formulas the
 * code comments state, and the properties they must keep. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "collcalc/nccl_check.h"
#include "collcalc/nccl_model.h"

#define assert_near(a, b, tolerance) assert_true(fabs((double)(a) - (double)(b)) <= (tolerance))

static collcalc_nccl_constants_table *table;
static const collcalc_nccl_constants *k2307;

static int setup(void **state)
{
    (void)state;
    collcalc_diag diag;
    if (collcalc_nccl_constants_builtin(&table, &diag) != COLLCALC_OK)
        return -1;
    return collcalc_nccl_constants_find(table, "2.30.7", &k2307, &diag) == COLLCALC_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    collcalc_nccl_constants_table_free(table);
    return 0;
}

/* GB200-like nodes: SM 100, 18 NVLinks (721.8 GB/s as NCCL counts them),
 * one 400G NIC per GPU. */
static collcalc_nccl_hardware blackwell(int gpus_per_node, int nodes)
{
    collcalc_nccl_hardware hw;
    collcalc_nccl_hardware_init(&hw);
    hw.sm = 100;
    hw.cpu = COLLCALC_NCCL_CPU_ARM;
    hw.gpus_per_node = gpus_per_node;
    hw.nodes = nodes;
    hw.nics_per_node = gpus_per_node;
    hw.nic_GBps = 50.0;
    return hw;
}

static collcalc_nccl_system derive(const collcalc_nccl_hardware *hw)
{
    collcalc_nccl_system s;
    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_system_derive(hw, &s, &diag), COLLCALC_OK);
    return s;
}

static collcalc_nccl_prediction predict_with(const collcalc_nccl_system *s,
                                             const collcalc_nccl_options *o, collcalc_nccl_func f,
                                             uint64_t bytes)
{
    return test_nccl_predict(s, k2307, o, f, bytes);
}

static void test_inter_search_bounded_by_nvlink(void **state)
{
    (void)state;
    /* Two 64-GPU NVLink domains with 64 NICs each: 48 GB/s x 32 channels
     * would ask 1,512 GB/s of each GPU's 721.8; the best speed whose
     * channels fit, 16 x 45.1 x 63/64 = 710.3 <= 721.8, is taken. */
    collcalc_nccl_hardware hw = blackwell(64, 2);
    collcalc_nccl_system s = derive(&hw);
    assert_int_equal(s.graphs[COLLCALC_NCCL_RING].nchannels, 16);
    assert_near(s.graphs[COLLCALC_NCCL_RING].bw_inter_GBps, 45.1, 1e-12);
    /* Property: on every node shape the ring's channels fit the NVLink. */
    for (int g = 2; g <= 72; g += 2) {
        hw = blackwell(g, 3);
        s = derive(&hw);
        double carried = s.graphs[COLLCALC_NCCL_RING].nchannels *
                         s.graphs[COLLCALC_NCCL_RING].bw_inter_GBps * (g - 1.0) / g;
        assert_true(carried <= 18 * 40.1 + 1e-9);
    }
    /* 8-GPU nodes are NIC-bound as before: 8 x 48. */
    hw = blackwell(8, 3);
    s = derive(&hw);
    assert_int_equal(s.graphs[COLLCALC_NCCL_RING].nchannels, 8);
    assert_near(s.graphs[COLLCALC_NCCL_RING].bw_inter_GBps, 48.0, 1e-12);
}

static void test_tree_across_nodes(void **state)
{
    (void)state;
    collcalc_nccl_options o;
    collcalc_nccl_options_init(&o);
    for (int f = 0; f < COLLCALC_NCCL_NUM_FUNCS; f++)
        o.algo_mask[f] = 1u << COLLCALC_NCCL_TREE; /* NCCL_ALGO=Tree */
    o.algo_mask[COLLCALC_NCCL_BROADCAST] = o.algo_mask[COLLCALC_NCCL_REDUCE] =
        1u << COLLCALC_NCCL_RING;
    uint64_t size = UINT64_C(1) << 34; /* 16 GiB */
    /* 3 nodes x 8 GB200 with 8 NICs (nccl#1801's NVL8 partitions): the
     * ring's 8 x 48 = 384 GB/s through the NICs, a node moving at most
     * 1.5 S: algbw 256, busbw 256 x 46/24 = 490.7, times the fabric's
     * share on 3 nodes (1 - 0.06 log2 1.5). NCCL's own model says 177. */
    collcalc_nccl_hardware hw = blackwell(8, 3);
    collcalc_nccl_system s = derive(&hw);
    collcalc_nccl_prediction p = predict_with(&s, &o, COLLCALC_NCCL_ALLREDUCE, size);
    const collcalc_nccl_candidate *c = collcalc_nccl_selected(&p);
    assert_int_equal(c->algo, COLLCALC_NCCL_TREE);
    assert_int_equal(c->proto, COLLCALC_NCCL_SIMPLE);
    double expected = 256.0 * (1.0 - 0.06 * log2(1.5)) * 46.0 / 24.0;
    assert_true(c->busbw_GBps > 0.995 * expected && c->busbw_GBps <= expected);
    assert_true(c->nccl_busbw_GBps < 200.0); /* NCCL's own figure stays as it is */
    /* 2 nodes: a node moves S, the ring 2 (p-1)/p S: the tree is bounded
     * by the chain inside the node (NVLink 721.8 / 2 per direction). */
    hw = blackwell(8, 2);
    s = derive(&hw);
    p = predict_with(&s, &o, COLLCALC_NCCL_ALLREDUCE, size);
    c = collcalc_nccl_selected(&p);
    assert_true(c->algbw_GBps <= 384.0 && c->algbw_GBps > 0.99 * 360.9);
    /* 4 nodes and more: 2 S per node, about the ring's rate. */
    hw = blackwell(8, 8);
    s = derive(&hw);
    p = predict_with(&s, &o, COLLCALC_NCCL_ALLREDUCE, size);
    c = collcalc_nccl_selected(&p);
    assert_true(c->algbw_GBps <= 192.0 * s.fabric_efficiency + 1e-9 &&
                c->algbw_GBps > 0.99 * 192.0 * s.fabric_efficiency);
    /* Switched off, NCCL's per-channel caps rule again. */
    o.corrections &= ~(unsigned)COLLCALC_NCCL_FIX_TREE_NET;
    hw = blackwell(8, 3);
    s = derive(&hw);
    p = predict_with(&s, &o, COLLCALC_NCCL_ALLREDUCE, size);
    assert_true(collcalc_nccl_selected(&p)->busbw_GBps < 200.0);
}

static void test_alltoall_and_sendrecv(void **state)
{
    (void)state;
    collcalc_nccl_options o;
    collcalc_nccl_options_init(&o);
    collcalc_nccl_hardware hw;
    collcalc_nccl_hardware_init(&hw); /* 8x H100, 8 x 400G */
    collcalc_nccl_system s = derive(&hw);
    assert_near(s.p2p_intra_GBps, 360.0, 1e-9); /* 12 x 30, the collectives' NVLink figure */
    /* One node: (p-1)/p S over NVLink at 360 GB/s, one step of NCCL's Ring
     * Simple latency (8.4 + 3.4 us). */
    double size = 1e9;
    collcalc_nccl_prediction p = predict_with(&s, &o, COLLCALC_NCCL_ALLTOALL, (uint64_t)size);
    assert_int_equal(p.candidate_count, COLLCALC_NCCL_MAX_CANDIDATES);
    assert_int_equal(p.selected, COLLCALC_NCCL_MAX_CANDIDATES - 1);
    const collcalc_nccl_candidate *c = collcalc_nccl_selected(&p);
    assert_int_equal(c->algo, COLLCALC_NCCL_P2P);
    assert_near(c->time_us, 8.4 + 3.4 + size * 7.0 / 8.0 / (1000.0 * 360.0), 1e-9);
    /* Never above what the all-gather gets from the same NVLink. */
    collcalc_nccl_prediction ag = predict_with(&s, &o, COLLCALC_NCCL_ALLGATHER, (uint64_t)size);
    assert_true(c->busbw_GBps <= 360.0 && c->busbw_GBps < 1.05 * collcalc_nccl_selected(&ag)->busbw_GBps);
    for (int i = 0; i + 1 < COLLCALC_NCCL_MAX_CANDIDATES; i++)
        assert_int_equal(p.candidates[i].unavailable, COLLCALC_NCCL_NOT_FOR_FUNC);
    /* send/recv on one node: S to one peer at the same rate. */
    p = predict_with(&s, &o, COLLCALC_NCCL_SENDRECV, (uint64_t)size);
    assert_near(collcalc_nccl_selected(&p)->time_us, 8.4 + 3.4 + size / (1000.0 * 360.0), 1e-9);
    /* 2 nodes: half the traffic crosses, each GPU on its NIC (48 GB/s as
     * NCCL counts 400G): busbw -> 2 x 48 x 15/16 (NVIDIA, nccl-tests#130). */
    hw.nodes = 2;
    s = derive(&hw);
    assert_near(s.nic_GBps, 48.0, 1e-12);
    assert_int_equal(s.nics_per_node, 8);
    double big = 16.0 * 1073741824.0;
    p = predict_with(&s, &o, COLLCALC_NCCL_ALLTOALL, (uint64_t)big);
    c = collcalc_nccl_selected(&p);
    double limit = 2.0 * 48.0 * 15.0 / 16.0;
    assert_true(c->busbw_GBps < limit && c->busbw_GBps > 0.995 * limit);
    /* Latency: one step per tier, plus the proxy's 3 x 1 us per remote peer. */
    assert_near(c->latency_pred_us, 8.4 + 3.4 + 14.0 + 8 * 3.0, 1e-9);
    /* send/recv across nodes: one NIC, 48 GB/s. */
    p = predict_with(&s, &o, COLLCALC_NCCL_SENDRECV, (uint64_t)big);
    c = collcalc_nccl_selected(&p);
    assert_true(c->busbw_GBps < 48.0 && c->busbw_GBps > 0.995 * 48.0);
    /* Two 64-GPU NVLink domains (GB200 racks on one 400G NIC per GPU): the
     * cliff, 48 x 2 x 127/128, while inside one domain it stays at NVLink. */
    hw = blackwell(64, 2);
    s = derive(&hw);
    p = predict_with(&s, &o, COLLCALC_NCCL_ALLTOALL, (uint64_t)big);
    limit = 48.0 * 2.0 * 127.0 / 128.0;
    c = collcalc_nccl_selected(&p);
    assert_true(c->busbw_GBps < limit && c->busbw_GBps > 0.99 * limit);
    hw = blackwell(64, 1);
    s = derive(&hw);
    p = predict_with(&s, &o, COLLCALC_NCCL_ALLTOALL, (uint64_t)big);
    assert_true(collcalc_nccl_selected(&p)->busbw_GBps > 700.0);
    /* No P2P (2 GPUs on PCIe Gen3): through host memory at 12 / 3 GB/s;
     * NCCL's own figure (faithful) is the PHB 12. */
    collcalc_nccl_hardware_init(&hw);
    hw.gpus_per_node = 2;
    hw.nvlink_links_per_gpu = 0;
    hw.nvswitch = hw.nvls = hw.p2p = false;
    hw.pci_bw_GBps = 12.0;
    s = derive(&hw);
    p = predict_with(&s, &o, COLLCALC_NCCL_ALLTOALL, (uint64_t)big);
    c = collcalc_nccl_selected(&p);
    assert_true(c->busbw_GBps < 4.0 && c->busbw_GBps > 0.999 * 4.0);
    assert_true(c->nccl_busbw_GBps > 11.9);
    /* One process driving both GPUs: the host's 1.6 + 2 x 4 us a call stay
     * under the GPUs' 8.4 + 5.7; torch.distributed's 12 us more do not. */
    s.launch = COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS;
    p = predict_with(&s, &o, COLLCALC_NCCL_SENDRECV, 8);
    assert_near(collcalc_nccl_selected(&p)->latency_pred_us, 8.4 + 5.7, 1e-9);
    s.harness = COLLCALC_NCCL_HARNESS_TORCH;
    p = predict_with(&s, &o, COLLCALC_NCCL_SENDRECV, 8);
    assert_near(collcalc_nccl_selected(&p)->time_us, 1.6 + 2.0 * 4.0 + 12.0, 1e-9);
    s.cuda_graph = true; /* a graph replay issues the loop at once */
    p = predict_with(&s, &o, COLLCALC_NCCL_SENDRECV, 8);
    assert_near(collcalc_nccl_selected(&p)->latency_pred_us, 8.4 + 5.7, 1e-9);
    assert_string_equal(collcalc_nccl_func_name(COLLCALC_NCCL_ALLTOALL), "AlltoAll");
    assert_string_equal(collcalc_nccl_algo_name(COLLCALC_NCCL_P2P), "P2P");
    collcalc_nccl_algo parsed;
    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_algo_parse("p2p", &parsed, &diag), COLLCALC_ERR_NOT_FOUND);
}

static void test_bands_and_verdicts(void **state)
{
    (void)state;
    collcalc_nccl_hardware hw;
    collcalc_nccl_hardware_init(&hw); /* 8x H100 */
    collcalc_nccl_system s = derive(&hw);
    collcalc_nccl_band band;
    /* One NVLink node, collectives, >= 64 MiB: 14 runs, ratios .78-1.05,
     * margin 0.1 + 0.2/14. */
    collcalc_nccl_band_of(&s, COLLCALC_NCCL_ALLREDUCE, UINT64_C(1) << 30, &band);
    assert_true(band.evidence);
    assert_int_equal(band.runs, 14);
    double m = 0.1 + 0.2 / 14.0;
    assert_near(band.low_ratio, 0.78 * (1.0 - m), 1e-12);
    assert_near(band.high_ratio, 1.05 * (1.0 + m), 1e-12);
    assert_string_equal(band.regime, "one NVLink node, collectives, >= 64 MiB");
    /* The prediction carries it: busbw x [low, high], time / [high, low]. */
    collcalc_nccl_options o;
    collcalc_nccl_options_init(&o);
    collcalc_nccl_prediction p = predict_with(&s, &o, COLLCALC_NCCL_ALLREDUCE, UINT64_C(1) << 30);
    const collcalc_nccl_candidate *c = collcalc_nccl_selected(&p);
    assert_true(p.band.evidence);
    assert_near(c->busbw_low_GBps, c->busbw_GBps * band.low_ratio, 1e-9);
    assert_near(c->busbw_high_GBps, c->busbw_GBps * band.high_ratio, 1e-9);
    assert_near(c->time_high_us, c->time_us / band.low_ratio, 1e-9);
    assert_true(c->time_low_us < c->time_us && c->time_us < c->time_high_us);
    /* No run of an all-to-all at 8 bytes: no band, all zero. */
    p = predict_with(&s, &o, COLLCALC_NCCL_ALLTOALL, 8);
    assert_false(p.band.evidence);
    assert_near(collcalc_nccl_selected(&p)->busbw_low_GBps, 0.0, 0.0);
    assert_string_equal(p.band.regime, "one NVLink node, all-to-all, <= 64 KiB");

    /* check against the band: a run at 0.70 of the prediction is inside
     * the band of one node (low edge 0.69), at 0.60 below it. */
    collcalc_check *check = malloc(sizeof *check);
    assert_non_null(check);
    collcalc_check_summary summary;
    p = predict_with(&s, &o, COLLCALC_NCCL_ALLREDUCE, UINT64_C(1) << 30);
    c = collcalc_nccl_selected(&p);
    for (int k = 0; k < 2; k++) {
        double ratio = k == 0 ? 0.70 : 0.60;
        collcalc_check_init(check, 0.0);
        collcalc_check_use_bands(check, &s, COLLCALC_NCCL_ALLREDUCE);
        collcalc_check_add(check, UINT64_C(1) << 30, c->time_us / ratio, c->busbw_GBps * ratio, c);
        collcalc_check_finish(check, &summary);
        assert_int_equal(summary.verdict,
                         k == 0 ? COLLCALC_VERDICT_HEALTHY : COLLCALC_VERDICT_BELOW_EXPECTATION);
        assert_near(summary.median_over_low, ratio / band.low_ratio, 1e-12);
    }
    /* Without bands the fixed 0.80 rule calls 0.70 below expectation. */
    collcalc_check_init(check, 0.0);
    collcalc_check_add(check, UINT64_C(1) << 30, c->time_us / 0.7, c->busbw_GBps * 0.7, c);
    collcalc_check_finish(check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_BELOW_EXPECTATION);
    /* send/recv across 2 nodes of cloud Ethernet: no run, no verdict on
     * speed, whatever the measurement. */
    hw.nodes = 2;
    hw.transport = COLLCALC_NCCL_NET_ROCE;
    s = derive(&hw);
    p = predict_with(&s, &o, COLLCALC_NCCL_SENDRECV, UINT64_C(1) << 30);
    c = collcalc_nccl_selected(&p);
    collcalc_check_init(check, 0.0);
    collcalc_check_use_bands(check, &s, COLLCALC_NCCL_SENDRECV);
    collcalc_check_add(check, UINT64_C(1) << 30, c->time_us * 10.0, c->busbw_GBps / 10.0, c);
    collcalc_check_finish(check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_NO_EVIDENCE);
    assert_string_equal(collcalc_verdict_name(summary.verdict), "no-evidence");
    assert_string_equal(check->band.regime,
                        "nodes over cloud Ethernet (RoCE, EFA, TCPX, TCPXO), send/recv, >= 64 MiB");
    /* All-to-all across 2 racks of 64 GB200 GPUs at OCI's 89.7 GB/s:
     * healthy (it is the band's evidence, and 0.90 of the prediction). */
    hw = blackwell(64, 2);
    s = derive(&hw);
    p = predict_with(&s, &o, COLLCALC_NCCL_ALLTOALL, UINT64_C(8) << 30);
    c = collcalc_nccl_selected(&p);
    collcalc_check_init(check, 0.0);
    collcalc_check_use_bands(check, &s, COLLCALC_NCCL_ALLTOALL);
    collcalc_check_add(check, UINT64_C(8) << 30, 8589934592.0 / (1000.0 * 90.40), 89.70, c);
    collcalc_check_finish(check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_HEALTHY);
    free(check);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inter_search_bounded_by_nvlink),
        cmocka_unit_test(test_tree_across_nodes),
        cmocka_unit_test(test_alltoall_and_sendrecv),
        cmocka_unit_test(test_bands_and_verdicts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
