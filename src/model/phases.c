/* Hops and phase construction shared by every algorithm builder: numbers and
 * facts only, no text (doc/MODEL.md §2-§3). */
#include "phases.h"

int floor_log2(long x)
{
    int bits = 0;
    while (x > 1) {
        x >>= 1;
        bits++;
    }
    return bits;
}

int ceil_log2(long x)
{
    int bits = floor_log2(x);
    return (1L << bits) < x ? bits + 1 : bits;
}

long floor_pow2(long x)
{
    return 1L << floor_log2(x);
}

static double min_double(double a, double b)
{
    return a < b ? a : b;
}

int nics_driven(const collcalc_cluster *cluster, int gpus_in_node)
{
    /* One NIC per GPU unless the cluster says a GPU drives several: a GPU's
     * traffic cannot be spread over more NICs than it drives (NVIDIA,
     * nccl-tests#267), and a node has only K. */
    long k = cluster->nics_per_node;
    long by_gpus = (long)gpus_in_node * nics_per_gpu_of(cluster);
    return (int)(k < by_gpus ? k : by_gpus);
}

hop hop_intra(const build_ctx *ctx)
{
    const collcalc_link_params *intra = &ctx->query->cluster.intra;
    hop h = {.scope = COLLCALC_SCOPE_INTRA, .kind = COLLCALC_HOP_INTRA,
             .alpha_us = intra->alpha_us, .bw_GBps = intra->bw_GBps, .link = &intra->name};
    return h;
}

hop hop_inter_node(const build_ctx *ctx, int gpus_in_node)
{
    const collcalc_cluster *cluster = &ctx->query->cluster;
    int nics = nics_driven(cluster, gpus_in_node);
    /* nics <= gpus_in_node x nics_per_gpu, so the share is at most nics_per_gpu */
    hop h = {.scope = COLLCALC_SCOPE_INTER, .kind = COLLCALC_HOP_NIC_SHARED,
             .alpha_us = cluster->inter.alpha_us,
             .bw_GBps = cluster->inter.bw_GBps * (double)nics / (double)gpus_in_node,
             .link = &cluster->inter.name, .nics = nics, .sharing_gpus = gpus_in_node};
    return h;
}

hop hop_point_to_point(const build_ctx *ctx, hop h)
{
    double e = ctx->query->cluster.inter.p2p_efficiency;
    if (h.scope == COLLCALC_SCOPE_INTER && e > 0.0 && e < 1.0) {
        h.bw_GBps *= e;
        h.efficiency = e;
    }
    return h;
}

hop hop_inter_all_gpus(const build_ctx *ctx)
{
    /* Node 0 is always full. A partial node's GPUs never get less: their
     * share min(K/r, nics_per_gpu) is at least a full node's min(K/G,
     * nics_per_gpu) for r <= G, so a full node decides. */
    return hop_inter_node(ctx, ctx->g);
}

hop hop_inter_one_gpu(const build_ctx *ctx)
{
    const collcalc_cluster *cluster = &ctx->query->cluster;
    int nics = nics_driven(cluster, 1);
    hop h = {.scope = COLLCALC_SCOPE_INTER, .kind = COLLCALC_HOP_NIC_ONE_GPU,
             .alpha_us = cluster->inter.alpha_us, .bw_GBps = cluster->inter.bw_GBps * nics,
             .link = &cluster->inter.name, .nics = nics, .sharing_gpus = 1};
    return h;
}

hop hop_ring(const build_ctx *ctx)
{
    if (ctx->nodes == 1)
        return hop_intra(ctx);
    const collcalc_cluster *cluster = &ctx->query->cluster;
    int nics = nics_driven(cluster, ctx->g);
    int node_gpus = ctx->g;
    if (ctx->last < ctx->g) {
        int last_nics = nics_driven(cluster, ctx->last);
        if (last_nics < nics) {
            nics = last_nics;
            node_gpus = ctx->last;
        }
    }
    double nic_bw = nics * cluster->inter.bw_GBps;
    hop h = {.scope = COLLCALC_SCOPE_SPANNING, .kind = COLLCALC_HOP_NIC_RING,
             .alpha_us = cluster->inter.alpha_us, .bw_GBps = nic_bw,
             .link = &cluster->inter.name, .nics = nics, .sharing_gpus = node_gpus};
    if (ctx->g > 1) {
        /* A chunk going once around crosses N-1 node boundaries in p-1 hops
         * (NCCL counts the same: nInterSteps = N-1 per ring pass), so a step
         * costs the mean hop latency. */
        long intra_hops = ctx->p - ctx->nodes, inter_hops = ctx->nodes - 1;
        h.kind = COLLCALC_HOP_FLAT_RING;
        h.alpha_us = ((double)intra_hops * cluster->intra.alpha_us +
                      (double)inter_hops * cluster->inter.alpha_us) /
                     (double)(ctx->p - 1);
        h.bw_GBps = min_double(cluster->intra.bw_GBps, nic_bw);
        h.link = &cluster->intra.name;
        h.link2 = &cluster->inter.name;
    }
    return h;
}

hop hop_xor(const build_ctx *ctx, long distance)
{
    /* Pairs (r, r ^ d) stay inside aligned blocks of 2d ranks; they share a
     * node when such blocks tile the node. */
    bool same_node = ctx->nodes == 1 || (distance < ctx->g && ctx->g % (2 * distance) == 0);
    return same_node ? hop_intra(ctx) : hop_inter_all_gpus(ctx);
}

hop hop_shift(const build_ctx *ctx, long distance)
{
    (void)distance;
    return ctx->nodes == 1 ? hop_intra(ctx) : hop_inter_all_gpus(ctx);
}

static bool same_hop(const hop *a, const hop *b)
{
    return a->scope == b->scope && a->kind == b->kind && a->alpha_us == b->alpha_us &&
           a->bw_GBps == b->bw_GBps;
}

void add_steps(build_ctx *ctx, const step_labels *labels, int count, const hop *hops,
               const double *sent, const double *received)
{
    bool split = false;
    for (int i = 1; i < count; i++)
        split = split || !same_hop(&hops[i], &hops[0]);
    int start = 0;
    while (start < count) {
        int end = start + 1;
        double run_sent = sent[start], run_received = received[start];
        while (end < count && same_hop(&hops[end], &hops[start])) {
            run_sent += sent[end];
            run_received += received[end];
            end++;
        }
        const char *label = labels->whole;
        if (split)
            label = hops[start].scope == COLLCALC_SCOPE_INTRA ? labels->intra : labels->inter;
        add_phase(ctx, label, false, end - start, run_sent, run_received, &hops[start]);
        start = end;
    }
}
