/* Logarithmic algorithms: recursive doubling, recursive halving,
 * Rabenseifner (halving + doubling), Bruck, and binomial scatter + ring
 * all-gather broadcast. Costs follow Thakur, Rabenseifner and Gropp (2005)
 * and MPICH's header comments (reference/nccl-model.md §3). Where p is not a
 * power of two the p - p' extra ranks (p' = largest power of two <= p) first
 * fold their data into a partner and get the result back at the end: two
 * more steps, as MPICH does. */
#include "phases.h"

enum { MAX_ROUNDS = 64 };

/* Fold the extra ranks' vectors into partners (one step, the partner
 * receives S) — the first half of MPICH's non-power-of-two handling. */
static void fold_extra_ranks(build_ctx *ctx, long p_pow2, double bytes)
{
    hop h = hop_xor(ctx, p_pow2);
    add_phase(ctx, "fold: extra ranks send to partners", false, 1, 0.0, bytes, &h);
}

static void unfold_extra_ranks(build_ctx *ctx, long p_pow2, double bytes)
{
    hop h = hop_xor(ctx, p_pow2);
    add_phase(ctx, "unfold: partners send results back", false, 1, bytes, 0.0, &h);
}

static void note_non_power_of_two(build_ctx *ctx, long p_pow2)
{
    result_note(ctx,
                "p = %d is not a power of two: the %ld extra ranks fold into partners first "
                "and get the result back last (2 extra steps), then the algorithm runs on "
                "p' = %ld ranks.",
                ctx->p, (long)ctx->p - p_pow2, p_pow2);
}

/* Recursive-halving reduce-scatter of `vector` bytes over p2 ranks:
 * distances p2/2, ..., 1, each step exchanging half of what is left. */
static void add_halving(build_ctx *ctx, const char *label, long p2, double vector)
{
    int rounds = floor_log2(p2);
    hop hops[MAX_ROUNDS];
    double sent[MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        hops[k] = hop_xor(ctx, p2 >> (k + 1));
        sent[k] = vector / (double)(1L << (k + 1));
    }
    add_steps(ctx, label, rounds, hops, sent, sent);
}

/* Recursive-doubling all-gather of a `vector`-byte result over p2 ranks:
 * distances 1, 2, ..., p2/2, each step exchanging all gathered so far. */
static void add_doubling_gather(build_ctx *ctx, const char *label, long p2, double vector)
{
    int rounds = floor_log2(p2);
    hop hops[MAX_ROUNDS];
    double sent[MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        hops[k] = hop_xor(ctx, 1L << k);
        sent[k] = vector / (double)p2 * (double)(1L << k);
    }
    add_steps(ctx, label, rounds, hops, sent, sent);
}

collcalc_status build_recursive_doubling(build_ctx *ctx, collcalc_diag *diag)
{
    long p = ctx->p, p2 = floor_pow2(p);
    if (ctx->query->op == COLLCALC_OP_ALLGATHER) {
        if (p2 != p)
            return collcalc_diag_fail(diag, COLLCALC_ERR_UNSUPPORTED,
                                      "recursive doubling all-gather needs a power-of-two GPU "
                                      "count; use bruck, which works for any p");
        add_doubling_gather(ctx, "recursive-doubling all-gather", p, ctx->size);
        return COLLCALC_OK;
    }
    /* All-reduce: every step exchanges the whole vector with the partner. */
    if (p2 != p) {
        note_non_power_of_two(ctx, p2);
        fold_extra_ranks(ctx, p2, ctx->size);
    }
    int rounds = floor_log2(p2);
    hop hops[MAX_ROUNDS];
    double sent[MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        hops[k] = hop_xor(ctx, 1L << k);
        sent[k] = ctx->size;
    }
    add_steps(ctx, "exchange whole vector, distance 1, 2, 4, ...", rounds, hops, sent, sent);
    if (p2 != p)
        unfold_extra_ranks(ctx, p2, ctx->size);
    return COLLCALC_OK;
}

collcalc_status build_recursive_halving(build_ctx *ctx, collcalc_diag *diag)
{
    (void)diag;
    long p = ctx->p, p2 = floor_pow2(p);
    if (p2 != p) {
        note_non_power_of_two(ctx, p2);
        fold_extra_ranks(ctx, p2, ctx->size);
    }
    add_halving(ctx, "recursive-halving reduce-scatter", p2, ctx->size);
    if (p2 != p)
        unfold_extra_ranks(ctx, p2, ctx->size / (double)p);
    return COLLCALC_OK;
}

collcalc_status build_rabenseifner(build_ctx *ctx, collcalc_diag *diag)
{
    (void)diag;
    long p = ctx->p, p2 = floor_pow2(p);
    bool is_reduce = ctx->query->op == COLLCALC_OP_REDUCE;
    if (p2 != p) {
        note_non_power_of_two(ctx, p2);
        fold_extra_ranks(ctx, p2, ctx->size);
    }
    add_halving(ctx, "reduce-scatter by recursive halving", p2, ctx->size);
    if (!is_reduce) {
        add_doubling_gather(ctx, "all-gather by recursive doubling", p2, ctx->size);
        if (p2 != p)
            unfold_extra_ranks(ctx, p2, ctx->size);
        return COLLCALC_OK;
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
    add_steps(ctx, "binomial gather to root", rounds, hops, sent, received);
    return COLLCALC_OK;
}

collcalc_status build_bruck(build_ctx *ctx, collcalc_diag *diag)
{
    (void)diag;
    long p = ctx->p;
    int rounds = ceil_log2(p);
    double block = ctx->size / (double)p;
    hop hops[MAX_ROUNDS];
    double sent[MAX_ROUNDS];
    for (int k = 0; k < rounds; k++) {
        long distance = 1L << k;
        hops[k] = hop_shift(ctx, distance);
        if (ctx->query->op == COLLCALC_OP_ALLGATHER) {
            /* Round k forwards every block gathered so far, capped at what is missing. */
            long blocks = distance < p - distance ? distance : p - distance;
            sent[k] = (double)blocks * block;
        } else {
            /* All-to-all: round k forwards the blocks whose index has bit k set. */
            long blocks = 0;
            for (long j = 0; j < p; j++)
                blocks += (j >> k) & 1L;
            sent[k] = (double)blocks * block;
        }
    }
    add_steps(ctx, ctx->query->op == COLLCALC_OP_ALLGATHER ? "bruck all-gather" : "bruck all-to-all",
              rounds, hops, sent, sent);
    if (ctx->query->op == COLLCALC_OP_ALLTOALL)
        result_note(ctx, "Bruck all-to-all trades bandwidth for latency: ceil(lg p) rounds, "
                         "but each block travels up to lg p times (local rotations not charged).");
    return COLLCALC_OK;
}

collcalc_status build_scatter_allgather(build_ctx *ctx, collcalc_diag *diag)
{
    (void)diag;
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
    add_steps(ctx, "binomial scatter from root", rounds, hops, sent, received);
    hop ring = hop_ring(ctx);
    double chunk_total = (double)(p - 1) / (double)p * ctx->size;
    add_phase(ctx, "ring all-gather", false, p - 1, chunk_total, chunk_total, &ring);
    return COLLCALC_OK;
}
