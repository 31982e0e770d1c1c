/* Two-level algorithms for clusters: the 2-D (hierarchical) all-reduce,
 * all-gather and reduce-scatter, and in-network reduction (NVLink SHARP in
 * the NVSwitch, SHARP in InfiniBand switches). */
#include "phases.h"

#include <stdio.h>

static collcalc_status need_full_nodes(const build_ctx *ctx, collcalc_diag *diag)
{
    if (ctx->nodes < 2)
        return collcalc_diag_fail(diag, COLLCALC_ERR_UNSUPPORTED,
                                  "a hierarchical algorithm needs more than one node");
    if (ctx->last != ctx->g)
        return collcalc_diag_fail(diag, COLLCALC_ERR_UNSUPPORTED,
                                  "a hierarchical algorithm needs every node full (%d GPUs do "
                                  "not fill %d nodes of %d)",
                                  ctx->p, ctx->nodes, ctx->g);
    return COLLCALC_OK;
}

/* The inter-node all-reduce of `vector` bytes per GPU, one ring per rail
 * (GPU i of every node), or one pass through the switches with SHARP. */
static void add_inter_allreduce(build_ctx *ctx, double vector)
{
    hop inter = hop_inter_all_gpus(ctx);
    long n = ctx->nodes;
    if (ctx->query->cluster.sharp_inter) {
        collcalc_phase *phase = add_phase(ctx, "inter all-reduce in the switches (SHARP)", false,
                                          2, vector, vector, &inter);
        if (phase != NULL) {
            size_t used = 0;
            while (phase->note[used] != '\0')
                used++;
            snprintf(phase->note + used, sizeof phase->note - used,
                     "; each GPU sends its S/G once and gets the sum back once");
        }
        return;
    }
    double bytes = 2.0 * (double)(n - 1) / (double)n * vector;
    add_phase(ctx, "inter all-reduce (ring per rail)", false, 2 * (n - 1), bytes, bytes, &inter);
}

collcalc_status build_hierarchical(build_ctx *ctx, collcalc_diag *diag)
{
    collcalc_status status = need_full_nodes(ctx, diag);
    if (status != COLLCALC_OK)
        return status;
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
        result_note(ctx, "Each GPU sends 2(N-1)/N x S/G across the network: the node's %ld GPUs "
                         "split S and each all-reduces its 1/%ld on its own rail.",
                    g, g);
        break;
    case COLLCALC_OP_ALLGATHER: {
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
    default:
        return COLLCALC_ERR_UNSUPPORTED;
    }
    return COLLCALC_OK;
}

collcalc_status build_nvls(build_ctx *ctx, collcalc_diag *diag)
{
    if (!ctx->query->cluster.nvls_intra || ctx->g < 2)
        return collcalc_diag_fail(diag, COLLCALC_ERR_UNSUPPORTED,
                                  "NVLS needs an NVSwitch fabric that reduces in the switch "
                                  "(NVLink SHARP: H100/H200/B200/GB200 NVSwitch)");
    hop intra = hop_intra(ctx);
    double s = ctx->size;
    if (ctx->nodes == 1) {
        /* Reduce-scatter by multimem loads (the switch reads all G copies of
         * a GPU's shard: the GPU sends S, receives S/G) pipelined with an
         * all-gather by multimem stores (sends S/G, receives S): S (G+1)/G
         * each way, which is NVIDIA's algbw = busbw x n/(n+1). */
        double bytes = s * (double)(ctx->g + 1) / (double)ctx->g;
        collcalc_phase *phase = add_phase(ctx, "reduce-scatter + all-gather in the NVSwitch", false,
                                          2, bytes, bytes, &intra);
        if (phase != NULL)
            snprintf(phase->note, sizeof phase->note,
                     "pipelined multimem reduce and multicast: S + S/G each way at %s %g GB/s",
                     ctx->query->cluster.intra.name, ctx->query->cluster.intra.bw_GBps);
        result_note(ctx, "Ideal in-switch reduction; NCCL's model keeps 0.85 (Hopper) or 0.74 "
                         "(Blackwell) of it (nvlsEfficiency). nccl-tests' busbw can exceed the "
                         "link rate here: NVIDIA's NVLS formula is algbw = busbw x n/(n+1).");
        return COLLCALC_OK;
    }
    collcalc_status status = need_full_nodes(ctx, diag);
    if (status != COLLCALC_OK)
        return status;
    double shard = s / (double)ctx->g;
    add_phase(ctx, "reduce-scatter in the NVSwitch", false, 1, s, shard, &intra);
    add_inter_allreduce(ctx, shard);
    add_phase(ctx, "all-gather in the NVSwitch", false, 1, shard, s, &intra);
    result_note(ctx, "NVLS inside each node, the network between nodes (NCCL's NVLSTree when "
                     "pipelined).");
    return COLLCALC_OK;
}
