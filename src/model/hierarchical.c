/* Two-level algorithms for clusters: the 2-D (hierarchical) all-reduce,
 * all-gather and reduce-scatter, and in-network reduction (NVLink SHARP in
 * the NVSwitch, SHARP in InfiniBand switches) (doc/MODEL.md §4.13-§4.14).
 * The registry runs them only on full nodes (and NVLS only on an NVLink
 * fabric that reduces in the switch). */
#include "phases.h"

/* The inter-node all-reduce of `vector` bytes per GPU, one ring per rail
 * (GPU i of every node), or one pass through the switches with SHARP. */
static void add_inter_allreduce(build_ctx *ctx, double vector)
{
    hop inter = hop_inter_all_gpus(ctx);
    long n = ctx->nodes;
    if (ctx->query->cluster.sharp_inter) {
        collcalc_phase *phase = add_phase(ctx, "inter all-reduce in the switches (SHARP)", false,
                                          2, vector, vector, &inter);
        if (phase != NULL)
            phase->detail = COLLCALC_DETAIL_SHARP;
        ctx->result->facts |= COLLCALC_FACT_SHARP;
        return;
    }
    double bytes = 2.0 * (double)(n - 1) / (double)n * vector;
    add_phase(ctx, "inter all-reduce (ring per rail)", false, 2 * (n - 1), bytes, bytes, &inter);
}

void build_hierarchical(build_ctx *ctx)
{
    long g = ctx->g, n = ctx->nodes;
    double s = ctx->size, shard = s / (double)g;
    double intra_bytes = (double)(g - 1) / (double)g * s;
    hop intra = hop_intra(ctx);
    hop inter = hop_inter_all_gpus(ctx);
    switch (ctx->query->op) {
    case COLLCALC_OP_ALLREDUCE:
        if (g > 1)
            add_phase(ctx, "intra reduce-scatter", false, g - 1, intra_bytes, intra_bytes, &intra);
        add_inter_allreduce(ctx, shard);
        if (g > 1)
            add_phase(ctx, "intra all-gather", false, g - 1, intra_bytes, intra_bytes, &intra);
        ctx->result->facts |= COLLCALC_FACT_HIERARCHICAL;
        break;
    case COLLCALC_OP_ALLGATHER: {
        /* each GPU first gathers its rail's N shards of S/p, then the node's G */
        double inter_bytes = (double)(n - 1) * s / (double)ctx->p;
        add_phase(ctx, "inter all-gather (ring per rail)", false, n - 1, inter_bytes, inter_bytes,
                  &inter);
        if (g > 1)
            add_phase(ctx, "intra all-gather", false, g - 1, intra_bytes, intra_bytes, &intra);
        break;
    }
    case COLLCALC_OP_REDUCESCATTER: {
        double inter_bytes = (double)(n - 1) / (double)n * shard;
        if (g > 1)
            add_phase(ctx, "intra reduce-scatter", false, g - 1, intra_bytes, intra_bytes, &intra);
        add_phase(ctx, "inter reduce-scatter (ring per rail)", false, n - 1, inter_bytes,
                  inter_bytes, &inter);
        break;
    }
    default: /* no registry row pairs another op with it */
        break;
    }
}

void build_nvls(build_ctx *ctx)
{
    hop intra = hop_intra(ctx);
    double s = ctx->size;
    collcalc_phase *phase;
    if (ctx->nodes == 1) {
        /* Reduce-scatter by multimem loads (the switch reads all G copies of
         * a GPU's shard: the GPU sends S, receives S/G) pipelined with an
         * all-gather by multimem stores (sends S/G, receives S): S (G+1)/G
         * each way, which is NVIDIA's algbw = link bandwidth x G/(G+1). */
        double bytes = s * (double)(ctx->g + 1) / (double)ctx->g;
        phase = add_phase(ctx, "reduce-scatter + all-gather in the NVSwitch", false, 2, bytes,
                          bytes, &intra);
        if (phase != NULL)
            phase->detail = COLLCALC_DETAIL_NVLS;
        ctx->result->facts |= COLLCALC_FACT_NVLS_NODE;
        return;
    }
    double shard = s / (double)ctx->g;
    phase = add_phase(ctx, "reduce-scatter in the NVSwitch", false, 1, s, shard, &intra);
    if (phase != NULL)
        phase->detail = COLLCALC_DETAIL_NVLS_REDUCE;
    add_inter_allreduce(ctx, shard);
    phase = add_phase(ctx, "all-gather in the NVSwitch", false, 1, shard, s, &intra);
    if (phase != NULL)
        phase->detail = COLLCALC_DETAIL_NVLS_MULTICAST;
    ctx->result->facts |= COLLCALC_FACT_NVLS_TREE;
}
