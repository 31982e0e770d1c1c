/* The NCCL-faithful model: NCCL's worked example (data/README.md, nccl.json)
 * pinned exactly, selection and forcing, the corrections, the system
 * derivation, and properties (finite, monotonic, one rank costs nothing). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "collcalc/links.h"
#include "collcalc/nccl_model.h"
#include "collcalc/nccl_tests_reader.h"
#include "collcalc/platforms.h"

/* cmocka's assert_float_equal works in float; these figures need double. */
#define assert_near(a, b, tolerance) assert_true(fabs((double)(a) - (double)(b)) <= (tolerance))

static collcalc_nccl_constants_table *table;
static const collcalc_nccl_constants *k2307;

static int setup(void **state)
{
    (void)state;
    collcalc_diag diag;
    if (collcalc_nccl_constants_builtin(&table, &diag) != COLLCALC_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return -1;
    }
    return collcalc_nccl_constants_find(table, "2.30.7", &k2307, &diag) == COLLCALC_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    collcalc_nccl_constants_table_free(table);
    return 0;
}

/* 1 node x 8 Hopper GPUs, ring graph 16 channels x 20 GB/s on NVLink. */
static void worked_one_node(collcalc_nccl_system *s)
{
    collcalc_nccl_system_init(s);
    s->min_sm = 90;
    s->nranks = 8;
    s->nnodes = 1;
    s->graphs[COLLCALC_NCCL_RING].nchannels = 16;
    s->graphs[COLLCALC_NCCL_RING].bw_intra_GBps = 20.0;
    s->graphs[COLLCALC_NCCL_RING].bw_inter_GBps = 20.0;
}

/* 2 nodes x 8: ring and tree graphs 16 x 20. */
static void worked_two_nodes(collcalc_nccl_system *s)
{
    worked_one_node(s);
    s->nranks = 16;
    s->nnodes = 2;
    s->graphs[COLLCALC_NCCL_TREE] = s->graphs[COLLCALC_NCCL_RING];
}

static collcalc_nccl_options faithful(void)
{
    collcalc_nccl_options o;
    collcalc_nccl_options_init(&o);
    o.corrections = 0;
    return o;
}

static const collcalc_nccl_candidate *cand(const collcalc_nccl_prediction *p, collcalc_nccl_algo a,
                                           collcalc_nccl_proto pr)
{
    return &p->candidates[a * COLLCALC_NCCL_NUM_PROTOS + pr];
}

static collcalc_nccl_prediction predict(const collcalc_nccl_system *s,
                                        const collcalc_nccl_options *o, collcalc_nccl_func f,
                                        uint64_t bytes)
{
    return test_nccl_predict(s, k2307, o, f, bytes);
}

static void test_worked_example_one_node(void **state)
{
    (void)state;
    collcalc_nccl_system s;
    worked_one_node(&s);
    collcalc_nccl_options o = faithful();
    collcalc_nccl_prediction p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 1048576);
    const collcalc_nccl_candidate *ll = cand(&p, COLLCALC_NCCL_RING, COLLCALC_NCCL_LL);
    const collcalc_nccl_candidate *ll128 = cand(&p, COLLCALC_NCCL_RING, COLLCALC_NCCL_LL128);
    const collcalc_nccl_candidate *simple = cand(&p, COLLCALC_NCCL_RING, COLLCALC_NCCL_SIMPLE);
    assert_near(ll->latency_us, 15.0, 1e-9);
    assert_near(ll128->latency_us, 40.6, 1e-9);
    assert_near(simple->latency_us, 56.0, 1e-9);
    assert_near(ll->bus_bw_GBps, 141.0, 1e-9);
    assert_near(ll128->bus_bw_GBps, 294.4, 1e-9);
    assert_near(simple->bus_bw_GBps, 320.0, 1e-9);
    assert_near(ll->alg_bw_GBps, 141.0 * 8.0 / 14.0, 1e-9);     /* 80.6 */
    assert_near(ll128->alg_bw_GBps, 294.4 * 8.0 / 14.0, 1e-9);  /* 168.2 */
    assert_near(simple->alg_bw_GBps, 320.0 * 8.0 / 14.0, 1e-9); /* 182.9 */
    assert_int_equal(ll->channels, 16);
    /* No tree/NVLS graph: those are unavailable, never selected. */
    assert_int_equal(cand(&p, COLLCALC_NCCL_TREE, COLLCALC_NCCL_LL)->unavailable,
                     COLLCALC_NCCL_NO_GRAPH);
    assert_int_equal(cand(&p, COLLCALC_NCCL_NVLS, COLLCALC_NCCL_LL)->unavailable,
                     COLLCALC_NCCL_PROTO_NOT_FOR_ALGO);

    /* Crossovers at ~3.96 MB (LL -> LL128) and ~32.4 MB (LL128 -> Simple). */
    p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 3900000);
    assert_int_equal(collcalc_nccl_selected(&p)->proto, COLLCALC_NCCL_LL);
    p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 4000000);
    assert_int_equal(collcalc_nccl_selected(&p)->proto, COLLCALC_NCCL_LL128);
    p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 32300000);
    assert_int_equal(collcalc_nccl_selected(&p)->proto, COLLCALC_NCCL_LL128);
    p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 32500000);
    assert_int_equal(collcalc_nccl_selected(&p)->proto, COLLCALC_NCCL_SIMPLE);

    /* 1 GiB Simple: 56 + 1073741824 / (1000 x 182.857) = 5928.0 us, and
     * nccl-tests' busbw equals NCCL's busBw (the ratio is 1/factor). */
    p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 1073741824);
    const collcalc_nccl_candidate *best = collcalc_nccl_selected(&p);
    assert_non_null(best);
    assert_true(best->selected);
    assert_int_equal(best->algo, COLLCALC_NCCL_RING);
    assert_int_equal(best->proto, COLLCALC_NCCL_SIMPLE);
    assert_near(best->time_us, 56.0 + 1073741824.0 / (1000.0 * 320.0 * 8.0 / 14.0), 1e-6);
    assert_near(best->time_us, 5928.0, 0.5);
    assert_near(best->busbw_GBps, 1073741824.0 / (1000.0 * best->time_us) * 1.75, 1e-9);
}

static void test_worked_example_two_nodes(void **state)
{
    (void)state;
    collcalc_nccl_system s;
    worked_two_nodes(&s);
    collcalc_nccl_options o = faithful();
    /* 1 KiB: 1024 / (16 channels x 16 ranks) = 4 B < 64, no plateau. */
    collcalc_nccl_prediction p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 1024);
    assert_near(cand(&p, COLLCALC_NCCL_RING, COLLCALC_NCCL_SIMPLE)->latency_us, 131.6, 1e-9);
    assert_near(cand(&p, COLLCALC_NCCL_RING, COLLCALC_NCCL_LL)->latency_us, 40.0, 1e-9);
    assert_near(cand(&p, COLLCALC_NCCL_RING, COLLCALC_NCCL_LL128)->latency_us, 75.2, 1e-9);
    assert_near(cand(&p, COLLCALC_NCCL_TREE, COLLCALC_NCCL_SIMPLE)->latency_us, 92.4, 1e-9);
    assert_near(cand(&p, COLLCALC_NCCL_TREE, COLLCALC_NCCL_LL)->latency_us, 25.2, 1e-9);
    assert_near(cand(&p, COLLCALC_NCCL_TREE, COLLCALC_NCCL_LL128)->latency_us, 48.5, 1e-9);
    /* Tree LL is the cheapest latency and wins at 1 KiB. */
    assert_int_equal(collcalc_nccl_selected(&p)->algo, COLLCALC_NCCL_TREE);
    assert_int_equal(collcalc_nccl_selected(&p)->proto, COLLCALC_NCCL_LL);
    /* Above 64 B per channel per rank the Ring Simple latency takes x1.4. */
    p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 1048576);
    assert_near(cand(&p, COLLCALC_NCCL_RING, COLLCALC_NCCL_SIMPLE)->latency_us, 131.6 * 1.4,
                1e-9); /* 184.24 */
    /* AMD doubles the net overhead: 8.4 + 28 x max(3.4, 6.0) + 2 x 14. */
    s.cpu = COLLCALC_NCCL_CPU_AMD;
    p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 1024);
    assert_near(cand(&p, COLLCALC_NCCL_RING, COLLCALC_NCCL_SIMPLE)->latency_us,
                8.4 + 28.0 * 6.0 + 28.0, 1e-9);
}

static void test_tree_correction_and_ratios(void **state)
{
    (void)state;
    collcalc_nccl_system s;
    worked_two_nodes(&s);
    collcalc_nccl_options o = faithful();
    /* 256 KiB: log2(262144 / 64) = 12, Simple factor 0.5. Tree Simple busBw
     * = min(0.92 x 320, 16 x 41.4) = 294.4; ratio 0.5 -> 147.2; x0.5. */
    collcalc_nccl_prediction p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 262144);
    const collcalc_nccl_candidate *t = cand(&p, COLLCALC_NCCL_TREE, COLLCALC_NCCL_SIMPLE);
    assert_near(t->bus_bw_GBps, 294.4, 1e-9);
    assert_near(t->alg_bw_GBps, 147.2 * 0.5, 1e-9);
    /* AllGather: Ring ratio p/(p-1); Tree not for AllGather. */
    p = predict(&s, &o, COLLCALC_NCCL_ALLGATHER, 1 << 24);
    assert_int_equal(cand(&p, COLLCALC_NCCL_TREE, COLLCALC_NCCL_SIMPLE)->unavailable,
                     COLLCALC_NCCL_NOT_FOR_FUNC);
    assert_near(cand(&p, COLLCALC_NCCL_RING, COLLCALC_NCCL_SIMPLE)->alg_bw_GBps,
                320.0 * 16.0 / 15.0, 1e-9);
    assert_near(p.busbw_factor, 15.0 / 16.0, 1e-12);
    /* PAT needs one GPU per node. */
    assert_int_equal(cand(&p, COLLCALC_NCCL_PAT, COLLCALC_NCCL_SIMPLE)->unavailable,
                     COLLCALC_NCCL_NO_GRAPH);
}

static void test_forcing(void **state)
{
    (void)state;
    unsigned masks[COLLCALC_NCCL_NUM_FUNCS];
    collcalc_nccl_options o = faithful();
    memcpy(masks, o.algo_mask, sizeof masks);
    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_algo_env_parse("ring", masks, &diag), COLLCALC_OK);
    for (int f = 0; f < COLLCALC_NCCL_NUM_FUNCS; f++)
        assert_int_equal(masks[f], 1u << COLLCALC_NCCL_RING);
    assert_int_equal(collcalc_nccl_algo_env_parse("^NVLS,tree", masks, &diag), COLLCALC_OK);
    assert_int_equal(masks[0], 0x7fu & ~((1u << COLLCALC_NCCL_NVLS) | (1u << COLLCALC_NCCL_TREE)));
    assert_int_equal(collcalc_nccl_algo_env_parse("allreduce:tree;broadcast:ring", masks, &diag),
                     COLLCALC_OK);
    assert_int_equal(masks[COLLCALC_NCCL_ALLREDUCE], 1u << COLLCALC_NCCL_TREE);
    assert_int_equal(masks[COLLCALC_NCCL_BROADCAST], 1u << COLLCALC_NCCL_RING);
    assert_int_equal(collcalc_nccl_algo_env_parse("collnet", masks, &diag), COLLCALC_OK);
    assert_int_equal(masks[2],
                     (1u << COLLCALC_NCCL_COLLNET_DIRECT) | (1u << COLLCALC_NCCL_COLLNET_CHAIN));
    assert_int_equal(collcalc_nccl_algo_env_parse("ring,bogus", masks, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "bogus"));
    assert_int_equal(collcalc_nccl_algo_env_parse("", masks, &diag), COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_nccl_algo_env_parse("ring,,tree", masks, &diag),
                     COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_nccl_algo_env_parse("allgathr:ring", masks, &diag),
                     COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_nccl_proto_env_parse("^LL128", o.proto_mask, &diag), COLLCALC_OK);
    assert_int_equal(o.proto_mask[4], (1u << COLLCALC_NCCL_LL) | (1u << COLLCALC_NCCL_SIMPLE));

    /* Forcing Simple on the worked example: Simple at 1 KiB. */
    collcalc_nccl_system s;
    worked_one_node(&s);
    assert_int_equal(collcalc_nccl_proto_env_parse("simple", o.proto_mask, &diag), COLLCALC_OK);
    collcalc_nccl_prediction p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 1024);
    assert_int_equal(collcalc_nccl_selected(&p)->proto, COLLCALC_NCCL_SIMPLE);
    assert_int_equal(cand(&p, COLLCALC_NCCL_RING, COLLCALC_NCCL_LL)->unavailable,
                     COLLCALC_NCCL_FORCED_OFF);
    /* Nothing left: unsupported, with a message. */
    assert_int_equal(collcalc_nccl_algo_env_parse("tree", o.algo_mask, &diag), COLLCALC_OK);
    assert_int_equal(collcalc_nccl_predict(&s, k2307, &o, COLLCALC_NCCL_ALLREDUCE, 1024, &p, &diag),
                     COLLCALC_ERR_UNSUPPORTED);
    assert_true(diag.message[0] != '\0');
}

static void test_names(void **state)
{
    (void)state;
    collcalc_nccl_algo a;
    collcalc_nccl_proto pr;
    assert_int_equal(collcalc_nccl_algo_parse("nvls_tree", &a, NULL), COLLCALC_OK);
    assert_int_equal(a, COLLCALC_NCCL_NVLS_TREE);
    assert_string_equal(collcalc_nccl_algo_name(a), "NVLSTree");
    assert_int_equal(collcalc_nccl_algo_parse("CollNetDirect", &a, NULL), COLLCALC_OK);
    assert_int_equal(a, COLLCALC_NCCL_COLLNET_DIRECT);
    assert_int_equal(collcalc_nccl_algo_parse("rings", &a, NULL), COLLCALC_ERR_NOT_FOUND);
    assert_int_equal(collcalc_nccl_proto_parse("ll128", &pr, NULL), COLLCALC_OK);
    assert_string_equal(collcalc_nccl_proto_name(pr), "LL128");
    assert_string_equal(collcalc_nccl_proto_name((collcalc_nccl_proto)9), "unknown");
    assert_string_equal(collcalc_nccl_func_name(COLLCALC_NCCL_ALLREDUCE), "AllReduce");
}

/* NCCL turns NVLS off on a node of 2 GPUs or fewer (ncclNvlsInit): one or
 * two H100s per node across nodes never run NVLS or NVLSTree. */
static void test_nvls_needs_more_than_two_gpus_per_node(void **state)
{
    (void)state;
    collcalc_nccl_hardware hw;
    collcalc_nccl_system s;
    collcalc_diag diag;
    for (int gpus = 1; gpus <= 8; gpus++) {
        collcalc_nccl_hardware_init(&hw); /* 8x H100, NVSwitch, NVLS */
        hw.gpus_per_node = gpus;
        hw.nodes = 2;
        assert_int_equal(collcalc_nccl_system_derive(&hw, &s, &diag), COLLCALC_OK);
        assert_int_equal(s.nvls_support, gpus > 2);
        collcalc_nccl_options o = faithful();
        collcalc_nccl_prediction p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, UINT64_C(1) << 30);
        int algo = collcalc_nccl_selected(&p)->algo;
        if (gpus <= 2)
            assert_true(algo != COLLCALC_NCCL_NVLS && algo != COLLCALC_NCCL_NVLS_TREE);
    }
}

static void test_derive(void **state)
{
    (void)state;
    collcalc_nccl_hardware hw;
    collcalc_nccl_system s;
    collcalc_diag diag;
    collcalc_nccl_hardware_init(&hw); /* 8x H100, 18 NVLinks */
    assert_int_equal(collcalc_nccl_system_derive(&hw, &s, &diag), COLLCALC_OK);
    /* 18 x 20.6 = 370.8: 6 x 60 = 360 found first, duplicated to 12 x 30. */
    assert_int_equal(s.graphs[COLLCALC_NCCL_RING].nchannels, 12);
    assert_near(s.graphs[COLLCALC_NCCL_RING].bw_intra_GBps, 30.0, 1e-12);
    assert_int_equal(s.graphs[COLLCALC_NCCL_NVLS].nchannels, 16);
    assert_near(s.graphs[COLLCALC_NCCL_NVLS].bw_intra_GBps, 30.0, 1e-12);
    assert_true(s.nvls_support);
    /* NCCL's choice on one H100 node (NVIDIA, nccl-tests#309): Ring/LL to
     * ~1 MiB, NVLS/Simple from 2 MiB. */
    collcalc_nccl_options o = faithful();
    collcalc_nccl_prediction p;
    for (uint64_t bytes = 8; bytes <= (UINT64_C(1) << 34); bytes *= 2) {
        p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, bytes);
        bool small = bytes <= 1048576;
        assert_int_equal(collcalc_nccl_selected(&p)->algo,
                         small ? COLLCALC_NCCL_RING : COLLCALC_NCCL_NVLS);
        assert_int_equal(collcalc_nccl_selected(&p)->proto,
                         small ? COLLCALC_NCCL_LL : COLLCALC_NCCL_SIMPLE);
    }
    /* A100: 12 x 20 = 240 after duplication of 6 x 40. */
    hw.sm = 80;
    hw.nvlink_links_per_gpu = 12;
    hw.nvls = false;
    assert_int_equal(collcalc_nccl_system_derive(&hw, &s, &diag), COLLCALC_OK);
    assert_int_equal(s.graphs[COLLCALC_NCCL_RING].nchannels, 12);
    assert_near(s.graphs[COLLCALC_NCCL_RING].bw_intra_GBps, 20.0, 1e-12);
    assert_false(s.nvls_support);
    /* 2 x H100 nodes with 8 x 400G: 8 channels x 48 GB/s. */
    collcalc_nccl_hardware_init(&hw);
    hw.nodes = 2;
    assert_int_equal(collcalc_nccl_system_derive(&hw, &s, &diag), COLLCALC_OK);
    assert_int_equal(s.graphs[COLLCALC_NCCL_RING].nchannels, 8);
    assert_near(s.graphs[COLLCALC_NCCL_RING].bw_inter_GBps, 48.0, 1e-12);
    assert_int_equal(s.nranks, 16);
    assert_near(s.fabric_efficiency, 1.0, 1e-12);
    /* Beyond 2 nodes the fabric is assumed to lose 6 % per doubling. */
    hw.nodes = 8;
    assert_int_equal(collcalc_nccl_system_derive(&hw, &s, &diag), COLLCALC_OK);
    assert_near(s.fabric_efficiency, 0.88, 1e-12);
    /* Bad input. */
    hw.nics_per_node = 0;
    assert_int_equal(collcalc_nccl_system_derive(&hw, &s, &diag), COLLCALC_ERR_INVALID);
    assert_true(diag.message[0] != '\0');
}

static void test_corrections(void **state)
{
    (void)state;
    collcalc_nccl_system s;
    worked_one_node(&s);
    collcalc_nccl_options all;
    collcalc_nccl_options_init(&all);
    collcalc_nccl_options none = faithful();
    /* At 1 GiB only the ramp applies: Simple's pipeline fill of 16 channels
     * x 2 MiB, F x S / (S + F) more bytes at the same bandwidth. */
    collcalc_nccl_prediction a = predict(&s, &all, COLLCALC_NCCL_ALLREDUCE, 1u << 30);
    collcalc_nccl_prediction b = predict(&s, &none, COLLCALC_NCCL_ALLREDUCE, 1u << 30);
    assert_int_equal(a.selected, b.selected);
    double size = 1073741824.0, fill = 16.0 * 2097152.0, alg = 320.0 * 8.0 / 14.0;
    assert_near(collcalc_nccl_selected(&a)->time_us,
                collcalc_nccl_selected(&b)->time_us + fill * size / (size + fill) / (1000.0 * alg),
                1e-6);
    all.corrections &= ~(unsigned)COLLCALC_NCCL_FIX_RAMP;
    a = predict(&s, &all, COLLCALC_NCCL_ALLREDUCE, 1u << 30);
    assert_near(collcalc_nccl_selected(&a)->time_us, collcalc_nccl_selected(&b)->time_us, 1e-9);
    collcalc_nccl_options_init(&all);
    /* The host floor. A process per GPU issues a call in 1.6 + 4 us, under
     * NCCL's 15 us Ring LL: the GPU's time stands. One process driving 8
     * GPUs takes 1.6 + 8 x 4 = 33.6 us a call, and the call takes that. */
    a = predict(&s, &all, COLLCALC_NCCL_ALLREDUCE, 8);
    b = predict(&s, &none, COLLCALC_NCCL_ALLREDUCE, 8);
    assert_near(collcalc_nccl_selected(&a)->latency_pred_us,
                collcalc_nccl_selected(&b)->latency_us, 1e-9);
    s.launch = COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS;
    a = predict(&s, &all, COLLCALC_NCCL_ALLREDUCE, 8);
    assert_near(collcalc_nccl_selected(&a)->time_us, 33.6, 1e-9);
    assert_int_equal(a.selected, b.selected); /* selection is NCCL's own */
    s.cuda_graph = true;
    a = predict(&s, &all, COLLCALC_NCCL_ALLREDUCE, 8);
    assert_near(collcalc_nccl_selected(&a)->latency_pred_us,
                collcalc_nccl_selected(&b)->latency_us, 1e-9);
    s.cuda_graph = false;
    s.harness = COLLCALC_NCCL_HARNESS_TORCH;
    a = predict(&s, &all, COLLCALC_NCCL_ALLREDUCE, 8);
    assert_near(collcalc_nccl_selected(&a)->time_us, 33.6 + 12.0, 1e-9);
    s.harness = COLLCALC_NCCL_HARNESS_NCCL_TESTS;
    /* The default a user gets: nccl-tests' README, -g 8 on one host; a
     * process per GPU across hosts or on an NVLink domain of many hosts. */
    assert_int_equal(collcalc_nccl_launch_default(1, 8), COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS);
    assert_int_equal(collcalc_nccl_launch_default(2, 8), COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU);
    assert_int_equal(collcalc_nccl_launch_default(1, 72), COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU);
    /* Without P2P the ring runs at PCIe / 3 through host memory. */
    worked_one_node(&s);
    s.p2p = false;
    s.pci_bw_GBps = 12.0;
    s.nranks = 2;
    s.graphs[COLLCALC_NCCL_RING].nchannels = 1;
    s.graphs[COLLCALC_NCCL_RING].bw_intra_GBps = 12.0;
    s.graphs[COLLCALC_NCCL_RING].type_intra = COLLCALC_NCCL_PATH_PHB;
    a = predict(&s, &all, COLLCALC_NCCL_ALLREDUCE, 1u << 30);
    assert_near(collcalc_nccl_selected(&a)->busbw_GBps, 4.0, 0.01);
    b = predict(&s, &none, COLLCALC_NCCL_ALLREDUCE, 1u << 30);
    assert_near(collcalc_nccl_selected(&b)->busbw_GBps, 12.0, 0.01);
}

static void test_transport_and_symmetric(void **state)
{
    (void)state;
    collcalc_nccl_system s;
    worked_two_nodes(&s);
    collcalc_nccl_options all;
    collcalc_nccl_options_init(&all);
    collcalc_nccl_options none = faithful();
    /* EFA: 68 us per network step; Tree LL on 2 nodes waits for 2. */
    s.transport = COLLCALC_NCCL_NET_EFA;
    collcalc_nccl_prediction a = predict(&s, &all, COLLCALC_NCCL_ALLREDUCE, 8);
    collcalc_nccl_prediction b = predict(&s, &none, COLLCALC_NCCL_ALLREDUCE, 8);
    assert_int_equal(collcalc_nccl_selected(&a)->algo, COLLCALC_NCCL_TREE);
    assert_near(collcalc_nccl_selected(&a)->latency_pred_us, 25.2 + 2.0 * 68.0, 1e-9);
    assert_near(collcalc_nccl_selected(&b)->latency_pred_us, 25.2, 1e-9);
    /* ... and the EFA plugin turns LL128 off (NCCL's own rule keeps it). */
    assert_int_equal(cand(&a, COLLCALC_NCCL_TREE, COLLCALC_NCCL_LL128)->unavailable,
                     COLLCALC_NCCL_NO_HARDWARE);
    assert_int_equal(cand(&b, COLLCALC_NCCL_TREE, COLLCALC_NCCL_LL128)->unavailable,
                     COLLCALC_NCCL_OK);
    /* Ring AllGather over TCPXO: Google's profile runs Ring and Tree with
     * Simple only (NCCL's own rule keeps LL); one network step, 15 us more. */
    s.transport = COLLCALC_NCCL_NET_TCPXO;
    a = predict(&s, &all, COLLCALC_NCCL_ALLGATHER, 256);
    b = predict(&s, &none, COLLCALC_NCCL_ALLGATHER, 256);
    assert_int_equal(cand(&a, COLLCALC_NCCL_RING, COLLCALC_NCCL_LL)->unavailable,
                     COLLCALC_NCCL_NO_HARDWARE);
    assert_int_equal(cand(&b, COLLCALC_NCCL_RING, COLLCALC_NCCL_LL)->unavailable,
                     COLLCALC_NCCL_OK);
    assert_int_equal(collcalc_nccl_selected(&a)->proto, COLLCALC_NCCL_SIMPLE);
    assert_near(cand(&a, COLLCALC_NCCL_RING, COLLCALC_NCCL_SIMPLE)->latency_pred_us,
                cand(&b, COLLCALC_NCCL_RING, COLLCALC_NCCL_SIMPLE)->latency_us + 15.0, 1e-9);
    /* TCPX: Ring and Simple alone (no Tree, no NVLS). */
    s.transport = COLLCALC_NCCL_NET_TCPX;
    a = predict(&s, &all, COLLCALC_NCCL_ALLREDUCE, 1u << 30);
    assert_int_equal(collcalc_nccl_selected(&a)->algo, COLLCALC_NCCL_RING);
    assert_int_equal(collcalc_nccl_selected(&a)->proto, COLLCALC_NCCL_SIMPLE);
    assert_int_equal(cand(&a, COLLCALC_NCCL_TREE, COLLCALC_NCCL_SIMPLE)->unavailable,
                     COLLCALC_NCCL_NO_HARDWARE);

    /* Symmetric kernels + CUDA graph on one Blackwell node (NCCL 2.27): the
     * ~3 us floor; not with 2.25 (no symmetric kernels) or without -R 2. */
    worked_one_node(&s);
    s.min_sm = 100;
    s.symmetric = true;
    s.cuda_graph = true;
    const collcalc_nccl_constants *k227 = NULL, *k225 = NULL;
    assert_int_equal(collcalc_nccl_constants_find(table, "2.27", &k227, NULL), COLLCALC_OK);
    assert_int_equal(collcalc_nccl_constants_find(table, "2.25", &k225, NULL), COLLCALC_OK);
    collcalc_nccl_prediction p;
    assert_int_equal(collcalc_nccl_predict(&s, k227, &all, COLLCALC_NCCL_ALLREDUCE, 8, &p, NULL),
                     COLLCALC_OK);
    assert_near(collcalc_nccl_selected(&p)->latency_pred_us, 3.0, 1e-9);
    s.cuda_graph = false; /* the host floor comes back: 1.6 + 4 us a call */
    assert_int_equal(collcalc_nccl_predict(&s, k227, &all, COLLCALC_NCCL_ALLREDUCE, 8, &p, NULL),
                     COLLCALC_OK);
    assert_near(collcalc_nccl_selected(&p)->time_us, 5.6, 1e-9);
    assert_int_equal(collcalc_nccl_predict(&s, k225, &all, COLLCALC_NCCL_ALLREDUCE, 8, &p, NULL),
                     COLLCALC_OK);
    assert_near(collcalc_nccl_selected(&p)->latency_pred_us, 15.0, 1e-9);
}

static void test_properties(void **state)
{
    (void)state;
    collcalc_nccl_hardware hw;
    collcalc_nccl_system s;
    collcalc_nccl_hardware_init(&hw);
    hw.nodes = 4;
    assert_int_equal(collcalc_nccl_system_derive(&hw, &s, NULL), COLLCALC_OK);
    s.fabric_efficiency = 0.8;
    collcalc_nccl_options o;
    collcalc_nccl_options_init(&o);
    for (int f = 0; f < COLLCALC_NCCL_NUM_FUNCS; f++) {
        double previous[COLLCALC_NCCL_NUM_PROTOS] = {0.0, 0.0, 0.0};
        for (uint64_t bytes = 0; bytes <= (UINT64_C(1) << 34); bytes = bytes ? bytes * 4 : 1) {
            collcalc_nccl_prediction p = predict(&s, &o, (collcalc_nccl_func)f, bytes);
            const collcalc_nccl_candidate *best = collcalc_nccl_selected(&p);
            assert_non_null(best);
            assert_true(isfinite(best->time_us));
            assert_true(bytes == 0 ? best->time_us == 0.0 : best->time_us > 0.0);
            /* A ring's time grows with the size (the selected one need not:
             * NCCL's choice can switch to a candidate that is really slower). */
            for (int pr = 0; pr < COLLCALC_NCCL_NUM_PROTOS; pr++) {
                const collcalc_nccl_candidate *r =
                    cand(&p, COLLCALC_NCCL_RING, (collcalc_nccl_proto)pr);
                assert_true(r->time_us >= previous[pr] * 0.999999);
                previous[pr] = r->time_us;
            }
            for (size_t i = 0; i < p.candidate_count; i++) {
                const collcalc_nccl_candidate *c = &p.candidates[i];
                assert_true(isfinite(c->time_us) && isfinite(c->busbw_GBps));
                assert_true(c->selected == ((int)i == p.selected));
            }
        }
    }
    /* One rank moves nothing. */
    s.nranks = 1;
    s.nnodes = 1;
    collcalc_nccl_prediction p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 1024);
    assert_int_equal(p.selected, -1);
    assert_null(collcalc_nccl_selected(&p));
    /* Inconsistent input. */
    s.nranks = 10;
    s.nnodes = 3;
    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_predict(&s, k2307, &o, COLLCALC_NCCL_ALLREDUCE, 1, &p, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "divide"));
}

static void test_from_platform(void **state)
{
    (void)state;
    collcalc_diag diag;
    collcalc_link_table *links = NULL;
    collcalc_platform_table *platforms = NULL;
    assert_int_equal(collcalc_link_table_builtin(&links, &diag), COLLCALC_OK);
    assert_int_equal(collcalc_platform_table_builtin(links, &platforms, &diag), COLLCALC_OK);
    collcalc_nccl_system s;
    const collcalc_platform *h100 = collcalc_platform_table_find(platforms, "hgx-h100");
    assert_non_null(h100);
    assert_int_equal(collcalc_nccl_system_from_platform(
                         h100, links, 2, 0, COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU, &s, &diag),
                     COLLCALC_OK);
    assert_int_equal(s.nranks, 16);
    assert_int_equal(s.min_sm, 90);
    assert_int_equal(s.graphs[COLLCALC_NCCL_RING].nchannels, 8);
    assert_near(s.graphs[COLLCALC_NCCL_RING].bw_inter_GBps, 48.0, 1e-12);
    assert_true(s.nvls_support);
    assert_int_equal(s.graphs[COLLCALC_NCCL_NVLS_TREE].nchannels, 16);
    /* 8 GPUs of one NVL72 domain: one NCCL node of 8 Blackwell GPUs. */
    const collcalc_platform *nvl72 = collcalc_platform_table_find(platforms, "gb200-nvl72");
    assert_non_null(nvl72);
    collcalc_nccl_hardware hw;
    assert_int_equal(collcalc_nccl_hardware_from_platform(
                         nvl72, links, 1, 8, COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU, &hw, &diag),
                     COLLCALC_OK);
    assert_int_equal(hw.gpus_per_node, 8);
    assert_int_equal(hw.sm, 100);
    assert_int_equal(hw.cpu, COLLCALC_NCCL_CPU_ARM);
    assert_int_equal(hw.nvlink_links_per_gpu, 18);
    assert_int_equal(collcalc_nccl_hardware_from_platform(
                         nvl72, links, 1, 73, COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU, &hw, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "72"));
    /* p4de: EFA, 4 x 100G per node: ring 4 x 12, the tree 2 channels per NIC. */
    const collcalc_platform *p4de = collcalc_platform_table_find(platforms, "aws-p4de");
    assert_non_null(p4de);
    assert_int_equal(collcalc_nccl_system_from_platform(
                         p4de, links, 2, 0, COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU, &s, &diag),
                     COLLCALC_OK);
    assert_int_equal(s.transport, COLLCALC_NCCL_NET_EFA);
    assert_int_equal(s.graphs[COLLCALC_NCCL_RING].nchannels, 4);
    assert_near(s.graphs[COLLCALC_NCCL_RING].bw_inter_GBps, 12.0, 1e-12);
    assert_int_equal(s.graphs[COLLCALC_NCCL_TREE].nchannels, 8);
    /* Every preset with an architecture derives and predicts. */
    collcalc_nccl_options o;
    collcalc_nccl_options_init(&o);
    for (size_t i = 0; i < collcalc_platform_table_count(platforms); i++) {
        const collcalc_platform *pl = collcalc_platform_table_at(platforms, i);
        collcalc_status status = collcalc_nccl_system_from_platform(
            pl, links, 4, 0, COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU, &s, &diag);
        if (pl->gpu_arch == COLLCALC_GPU_ARCH_UNKNOWN) {
            assert_int_equal(status, COLLCALC_ERR_INVALID);
            continue;
        }
        assert_int_equal(status, COLLCALC_OK);
        for (int f = 0; f < COLLCALC_NCCL_NUM_FUNCS; f++) {
            collcalc_nccl_prediction p = predict(&s, &o, (collcalc_nccl_func)f, 1u << 26);
            assert_non_null(collcalc_nccl_selected(&p));
            assert_true(collcalc_nccl_selected(&p)->busbw_GBps > 0.0);
        }
    }
    collcalc_platform_table_free(platforms);
    collcalc_link_table_free(links);
}

/* Two real runs end to end (reader, preset, corrected model): the 8x H100
 * NVLS sweep within 5 % busbw at every size, and the 2-node p4de EFA
 * all-reduce within 10 % of its ~161 us floor (bench/accuracy.sh reports
 * every validation file). */
static void test_validation_runs(void **state)
{
    (void)state;
    (void)test_shared_path("validation"); /* skips before anything is allocated */
    collcalc_diag diag;
    collcalc_link_table *links = NULL;
    collcalc_platform_table *platforms = NULL;
    assert_int_equal(collcalc_link_table_builtin(&links, &diag), COLLCALC_OK);
    assert_int_equal(collcalc_platform_table_builtin(links, &platforms, &diag), COLLCALC_OK);
    static const struct {
        const char *file, *platform, *version;
        int nodes;
        collcalc_nccl_launch launch;
        uint64_t max_size;
        double tolerance;
        int busbw; /* 1: compare busbw, 0: time */
    } cases[] = {
        {"validation/nccl_allreduce_h100_8gpu_1node_nvls_issue290.txt", "hgx-h100", NULL, 1,
         COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS, UINT64_MAX, 0.05, 1},
        {"validation/nccl_allreduce_a100_2node_16gpu_efa400_p4de_awsome.txt", "aws-p4de", "2.21",
         2, COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU, 1024, 0.10, 0},
    };
    const collcalc_nccl_constants *newest = NULL;
    assert_int_equal(collcalc_nccl_constants_find(table, NULL, &newest, NULL), COLLCALC_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t length = 0;
        char *text = test_read_file(test_shared_path(cases[i].file), &length);
        assert_non_null(text);
        collcalc_nccl_tests_run run;
        assert_int_equal(collcalc_nccl_tests_read_text(text, length, NULL, &run, &diag),
                         COLLCALC_OK);
        free(text);
        collcalc_nccl_system s;
        const collcalc_platform *pl = collcalc_platform_table_find(platforms, cases[i].platform);
        assert_non_null(pl);
        assert_int_equal(collcalc_nccl_system_from_platform(pl, links, cases[i].nodes, 0,
                                                            cases[i].launch, &s, &diag),
                         COLLCALC_OK);
        const collcalc_nccl_constants *k = NULL;
        assert_int_equal(collcalc_nccl_constants_find(table, cases[i].version, &k, NULL),
                         COLLCALC_OK);
        collcalc_nccl_options o;
        collcalc_nccl_options_init(&o);
        o.refined = newest;
        int compared = 0;
        for (size_t r = 0; r < run.row_count; r++) {
            const collcalc_nccl_tests_row *row = &run.rows[r].row;
            if (row->size_bytes == 0 || row->size_bytes > cases[i].max_size ||
                !row->out_of_place.present)
                continue;
            collcalc_nccl_prediction p;
            assert_int_equal(collcalc_nccl_predict(&s, k, &o, COLLCALC_NCCL_ALLREDUCE,
                                                   row->size_bytes, &p, &diag),
                             COLLCALC_OK);
            const collcalc_nccl_candidate *c = collcalc_nccl_selected(&p);
            double measured =
                cases[i].busbw ? row->out_of_place.busbw_GBps : row->out_of_place.time_us;
            double predicted = cases[i].busbw ? c->busbw_GBps : c->time_us;
            if (fabs(predicted - measured) > cases[i].tolerance * measured)
                fprintf(stderr, "%s: %llu B: predicted %.2f, measured %.2f\n", cases[i].file,
                        (unsigned long long)row->size_bytes, predicted, measured);
            assert_true(fabs(predicted - measured) <= cases[i].tolerance * measured);
            compared++;
        }
        assert_true(compared >= 6);
        collcalc_nccl_tests_run_free(&run);
    }
    collcalc_platform_table_free(platforms);
    collcalc_link_table_free(links);
}

/* The switch points: stretches tile [min, max] without gaps, each holds
 * one choice at both ends, and the byte after a stretch already has the
 * next one (bisection to the byte). */
static void test_switch_points(void **state)
{
    (void)state;
    collcalc_nccl_system s;
    worked_two_nodes(&s);
    collcalc_nccl_options o = faithful();
    collcalc_nccl_choice_range ranges[32];
    size_t count = 0;
    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_switch_points(&s, k2307, &o, COLLCALC_NCCL_ALLREDUCE, 1,
                                                 1ULL << 36, ranges, 32, &count, &diag),
                     COLLCALC_OK);
    assert_true(count >= 2); /* the worked example changes protocol with size */
    assert_int_equal(ranges[0].from_bytes, 1);
    assert_int_equal(ranges[count - 1].to_bytes, 1ULL << 36);
    for (size_t i = 0; i < count; i++) {
        const collcalc_nccl_choice_range *r = &ranges[i];
        assert_true(r->from_bytes <= r->to_bytes);
        if (i > 0)
            assert_int_equal(r->from_bytes, ranges[i - 1].to_bytes + 1);
        uint64_t ends[2] = {r->from_bytes, r->to_bytes};
        for (int e = 0; e < 2; e++) {
            collcalc_nccl_prediction p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, ends[e]);
            const collcalc_nccl_candidate *c = collcalc_nccl_selected(&p);
            assert_non_null(c);
            assert_int_equal(c->algo, r->algo);
            assert_int_equal(c->proto, r->proto);
        }
        if (i + 1 < count) {
            const collcalc_nccl_choice_range *n = &ranges[i + 1];
            assert_false(n->algo == r->algo && n->proto == r->proto);
        }
    }
    /* Too little room is an error, not a silent cut. */
    assert_int_equal(collcalc_nccl_switch_points(&s, k2307, &o, COLLCALC_NCCL_ALLREDUCE, 1,
                                                 1ULL << 36, ranges, 1, &count, &diag),
                     COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_nccl_switch_points(&s, k2307, &o, COLLCALC_NCCL_ALLREDUCE, 0, 8,
                                                 ranges, 32, &count, &diag),
                     COLLCALC_ERR_INVALID);
    /* One size: one stretch. */
    assert_int_equal(collcalc_nccl_switch_points(&s, k2307, &o, COLLCALC_NCCL_ALLREDUCE, 4096,
                                                 4096, ranges, 32, &count, &diag),
                     COLLCALC_OK);
    assert_int_equal(count, 1);
    /* The busbw NCCL's own time implies, beside collcalc's. */
    collcalc_nccl_prediction p = predict(&s, &o, COLLCALC_NCCL_ALLREDUCE, 1u << 26);
    const collcalc_nccl_candidate *c = collcalc_nccl_selected(&p);
    assert_true(fabs(c->nccl_busbw_GBps -
                     (double)(1u << 26) / (1000.0 * c->nccl_time_us) * p.busbw_factor) < 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_worked_example_one_node),
        cmocka_unit_test(test_nvls_needs_more_than_two_gpus_per_node),
        cmocka_unit_test(test_worked_example_two_nodes),
        cmocka_unit_test(test_tree_correction_and_ratios),
        cmocka_unit_test(test_forcing),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_derive),
        cmocka_unit_test(test_corrections),
        cmocka_unit_test(test_transport_and_symmetric),
        cmocka_unit_test(test_properties),
        cmocka_unit_test(test_from_platform),
        cmocka_unit_test(test_validation_runs),
        cmocka_unit_test(test_switch_points),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
