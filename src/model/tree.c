/* Tree algorithms: NCCL's pipelined double binary tree all-reduce (chains
 * inside nodes, trees between nodes) and binomial-tree broadcast/reduce
 * (doc/MODEL.md §4.2, §4.9). */
#include "phases.h"

void build_double_binary_tree(build_ctx *ctx)
{
    double efficiency = ctx->query->tree_efficiency > 0 ? ctx->query->tree_efficiency
                                                        : COLLCALC_TREE_EFFICIENCY_DEFAULT;
    long p = ctx->p;
    /* Bytes: the bus volume 2(p-1)/p * S that nccl-tests' busbw assumes (at
     * most 2S(p-1)/p: doc/MODEL.md §4.2). A tree cannot keep every link busy
     * the way a ring does; NCCL's own model charges that as a 0.92 factor on
     * Tree AllReduce bandwidth, and so do we (tree_efficiency). */
    double bytes = 2.0 * (double)(p - 1) / (double)p * ctx->size;
    collcalc_phase *phase;
    if (ctx->nodes == 1) {
        hop h = hop_intra(ctx);
        h.bw_GBps *= efficiency;
        phase = add_phase(ctx, "reduce up + broadcast down (pipelined)", false,
                          2L * ceil_log2(p), bytes, bytes, &h);
        if (phase != NULL) {
            phase->efficiency = efficiency;
            phase->detail = COLLCALC_DETAIL_TREE;
            phase->depth = ceil_log2(p);
        }
        return;
    }
    /* NCCL: a chain through the GPUs of each node, a double binary tree
     * between nodes; data is pipelined through both, so the latency of both
     * is paid and the data crosses the slowest part once. */
    if (ctx->g > 1) {
        hop chain = hop_intra(ctx);
        phase = add_phase(ctx, "chain inside each node (up and down)", false,
                          2L * (ctx->g - 1), 0.0, 0.0, &chain);
        if (phase != NULL)
            phase->detail = COLLCALC_DETAIL_LATENCY_ONLY;
    }
    hop across = hop_ring(ctx); /* the node's traffic spreads over its NICs like a ring's */
    across.alpha_us = ctx->query->cluster.inter.alpha_us;
    across.scope = COLLCALC_SCOPE_INTER;
    across.bw_GBps *= efficiency;
    int depth = ceil_log2(ctx->nodes);
    phase = add_phase(ctx, "double binary tree across nodes", false, 2L * depth, bytes, bytes,
                      &across);
    if (phase != NULL) {
        phase->efficiency = efficiency;
        phase->detail = COLLCALC_DETAIL_TREE;
        phase->depth = depth;
    }
}

void build_binomial_tree(build_ctx *ctx)
{
    long p = ctx->p;
    int rounds = ceil_log2(p);
    hop hops[64];
    double sent[64], received[64];
    /* The root sends the whole message in every round, to partners at
     * distance 2^(rounds-1), ..., 2, 1 (farthest first, as MPICH does). */
    for (int k = 0; k < rounds; k++) {
        long distance = 1L << (rounds - 1 - k);
        hops[k] = hop_xor(ctx, distance);
        sent[k] = ctx->size;
        received[k] = 0.0;
    }
    static const step_labels REDUCE = STEP_LABELS("binomial reduce to root");
    static const step_labels BROADCAST = STEP_LABELS("binomial broadcast from root");
    bool is_reduce = ctx->query->op == COLLCALC_OP_REDUCE;
    add_steps(ctx, is_reduce ? &REDUCE : &BROADCAST, rounds, hops, is_reduce ? received : sent,
              is_reduce ? sent : received);
    collcalc_result *r = ctx->result;
    r->others_differ = true;
    r->bytes_sent_other_gpu = is_reduce ? ctx->size : 0.0;
    r->bytes_received_other_gpu = is_reduce ? 0.0 : ctx->size;
    r->facts |= COLLCALC_FACT_ROOT_BUSIEST;
}
