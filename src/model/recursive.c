/* Logarithmic algorithms: recursive doubling, recursive halving,
 * Rabenseifner (halving + doubling), Bruck, and binomial scatter + ring
 * all-gather broadcast (doc/MODEL.md §4.4-§4.8, after Thakur, Rabenseifner
 * and Gropp 2005 and MPICH's cost comments). Where p is not a power of two
 * the p - p' extra ranks (p' = largest power of two <= p) first fold their
 * data into a partner and get the result back at the end: two more steps,
 * as MPICH does (one for a reduce, whose result stays at the root). */
#include "phases.h"

enum { MAX_ROUNDS = 64 };

/* Fold the extra ranks' vectors into partners (one step, the partner
 * receives S) — the first half of MPICH's non-power-of-two handling. */
static void fold_extra_ranks(build_ctx *ctx, long p_pow2, double bytes)
{
    hop h = hop_xor(ctx, p_pow2);
    add_phase(ctx, "fold: extra ranks send to partners", false, 1, 0.0, bytes, &h);
    ctx->result->facts |= COLLCALC_FACT_NON_POWER_OF_TWO;
}

static void unfold_extra_ranks(build_ctx *ctx, long p_pow2, double bytes)
{
    hop h = hop_xor(ctx, p_pow2);
    add_phase(ctx, "unfold: partners send results back", false, 1, bytes, 0.0, &h);
}

/* Recursive-halving reduce-scatter of `vector` bytes over p2 ranks:
 * distances p2/2, ..., 1, each step exchanging half of what is left. */
static void add_halving(build_ctx *ctx, const step_labels *labels, long p2, double vector)
{
    int rounds = floor_log2(p2);
    hop hops[MAX_ROUNDS];
    double sent[MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        hops[k] = hop_xor(ctx, p2 >> (k + 1));
        sent[k] = vector / (double)(1L << (k + 1));
    }
    add_steps(ctx, labels, rounds, hops, sent, sent);
}

/* Recursive-doubling all-gather of a `vector`-byte result over p2 ranks:
 * distances 1, 2, ..., p2/2, each step exchanging all gathered so far. */
static void add_doubling_gather(build_ctx *ctx, const step_labels *labels, long p2,
                                double vector)
{
    int rounds = floor_log2(p2);
    hop hops[MAX_ROUNDS];
    double sent[MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        hops[k] = hop_xor(ctx, 1L << k);
        sent[k] = vector / (double)p2 * (double)(1L << k);
    }
    add_steps(ctx, labels, rounds, hops, sent, sent);
}

void build_recursive_doubling(build_ctx *ctx)
{
    long p = ctx->p, p2 = floor_pow2(p);
    if (ctx->query->op == COLLCALC_OP_ALLGATHER) {
        /* the registry admits only power-of-two p here */
        static const step_labels GATHER = STEP_LABELS("recursive-doubling all-gather");
        add_doubling_gather(ctx, &GATHER, p, ctx->size);
        return;
    }
    /* All-reduce: every step exchanges the whole vector with the partner. */
    if (p2 != p)
        fold_extra_ranks(ctx, p2, ctx->size);
    int rounds = floor_log2(p2);
    hop hops[MAX_ROUNDS];
    double sent[MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        hops[k] = hop_xor(ctx, 1L << k);
        sent[k] = ctx->size;
    }
    static const step_labels EXCHANGE = {"exchange whole vector, distance 1, 2, 4, ...",
                                         "exchange whole vector, distances inside the node",
                                         "exchange whole vector, distances across nodes"};
    add_steps(ctx, &EXCHANGE, rounds, hops, sent, sent);
    if (p2 != p)
        unfold_extra_ranks(ctx, p2, ctx->size);
}

void build_recursive_halving(build_ctx *ctx)
{
    long p = ctx->p, p2 = floor_pow2(p);
    if (p2 != p)
        fold_extra_ranks(ctx, p2, ctx->size);
    static const step_labels HALVING = STEP_LABELS("recursive-halving reduce-scatter");
    add_halving(ctx, &HALVING, p2, ctx->size);
    if (p2 != p)
        unfold_extra_ranks(ctx, p2, ctx->size / (double)p);
}

void build_rabenseifner(build_ctx *ctx)
{
    long p = ctx->p, p2 = floor_pow2(p);
    bool is_reduce = ctx->query->op == COLLCALC_OP_REDUCE;
    if (p2 != p)
        fold_extra_ranks(ctx, p2, ctx->size);
    static const step_labels HALVING = STEP_LABELS("reduce-scatter by recursive halving");
    add_halving(ctx, &HALVING, p2, ctx->size);
    if (!is_reduce) {
        static const step_labels DOUBLING = STEP_LABELS("all-gather by recursive doubling");
        add_doubling_gather(ctx, &DOUBLING, p2, ctx->size);
        if (p2 != p)
            unfold_extra_ranks(ctx, p2, ctx->size);
        return;
    }
    /* Reduce: binomial gather of the reduced pieces to the root, which
     * receives S/p', 2S/p', ... from distances 1, 2, ... */
    int rounds = floor_log2(p2);
    hop hops[MAX_ROUNDS];
    double received[MAX_ROUNDS], sent[MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        hops[k] = hop_xor(ctx, 1L << k);
        received[k] = ctx->size / (double)p2 * (double)(1L << k);
        sent[k] = 0.0;
    }
    static const step_labels GATHER = STEP_LABELS("binomial gather to root");
    add_steps(ctx, &GATHER, rounds, hops, sent, received);
}

void build_bruck(build_ctx *ctx)
{
    long p = ctx->p;
    int rounds = ceil_log2(p);
    double block = ctx->size / (double)p;
    bool gather = ctx->query->op == COLLCALC_OP_ALLGATHER;
    hop hops[MAX_ROUNDS];
    double sent[MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        long distance = 1L << k;
        /* All-to-all rounds are point-to-point sends (doc/MODEL.md §4.10). */
        hops[k] = hop_shift(ctx, distance);
        if (!gather)
            hops[k] = hop_point_to_point(ctx, hops[k]);
        long blocks;
        if (gather) {
            /* Round k forwards every block gathered so far, capped at what is missing. */
            blocks = distance < p - distance ? distance : p - distance;
        } else {
            /* All-to-all: round k forwards the blocks whose index j < p has
             * bit k set: full periods of 2^(k+1) give 2^k each, plus the
             * set-bit tail of the last partial period. */
            long period = 2 * distance;
            long tail = p % period - distance;
            blocks = p / period * distance + (tail > 0 ? tail : 0);
        }
        sent[k] = (double)blocks * block;
    }
    static const step_labels GATHER = STEP_LABELS("bruck all-gather");
    static const step_labels ALLTOALL = STEP_LABELS("bruck all-to-all");
    add_steps(ctx, gather ? &GATHER : &ALLTOALL, rounds, hops, sent, sent);
    if (!gather)
        ctx->result->facts |= COLLCALC_FACT_BRUCK_ALLTOALL;
}

void build_scatter_allgather(build_ctx *ctx)
{
    long p = ctx->p;
    int rounds = ceil_log2(p);
    hop hops[MAX_ROUNDS];
    double sent[MAX_ROUNDS], received[MAX_ROUNDS];
    /* Binomial scatter: in round k the root hands the partner at distance d
     * the pieces of the d ranks it will serve (fewer at the ragged end). */
    for (int k = 0; k < rounds; k++) {
        long distance = 1L << (rounds - 1 - k);
        long pieces = distance < p - distance ? distance : p - distance;
        hops[k] = hop_xor(ctx, distance);
        sent[k] = ctx->size / (double)p * (double)pieces;
        received[k] = 0.0;
    }
    static const step_labels SCATTER = STEP_LABELS("binomial scatter from root");
    add_steps(ctx, &SCATTER, rounds, hops, sent, received);
    hop ring = hop_ring(ctx);
    double chunk_total = (double)(p - 1) / (double)p * ctx->size;
    add_phase(ctx, "ring all-gather", false, p - 1, chunk_total, chunk_total, &ring);
}
