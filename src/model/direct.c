/* Direct algorithms: the centralized all-reduce (everything to GPU 0 and
 * back: the seed's counter-example) and pairwise all-to-all. */
#include "phases.h"

#include <stdio.h>

collcalc_status build_centralized(build_ctx *ctx, collcalc_diag *diag)
{
    (void)diag;
    long p = ctx->p;
    double root_bytes = (double)(p - 1) * ctx->size;
    hop root_port = hop_intra(ctx);
    if (ctx->nodes > 1) {
        /* Remote GPUs' data reaches node 0 through its K NICs, then the root
         * through its own port; the slower of the two decides. */
        const collcalc_cluster *cluster = &ctx->query->cluster;
        double nic_bw = cluster->nics_per_node * cluster->inter.bw_GBps *
                        (double)(p - 1) / (double)(p - ctx->g);
        root_port.alpha_us = cluster->inter.alpha_us > cluster->intra.alpha_us || ctx->g == 1
                                 ? cluster->inter.alpha_us
                                 : cluster->intra.alpha_us;
        root_port.scope = COLLCALC_SCOPE_SPANNING;
        if (ctx->g == 1 || nic_bw < root_port.bw_GBps)
            root_port.bw_GBps = nic_bw;
        snprintf(root_port.link, sizeof root_port.link, "%s+%s", cluster->intra.name,
                 cluster->inter.name);
        snprintf(root_port.note, sizeof root_port.note,
                 "(p-g)/(p-1) of the root's bytes come through node 0's %d NICs (%g GB/s "
                 "each): effective %g GB/s",
                 cluster->nics_per_node, cluster->inter.bw_GBps, root_port.bw_GBps);
    }
    add_phase(ctx, "reduce to GPU 0", false, 1, 0.0, root_bytes, &root_port);
    add_phase(ctx, "broadcast from GPU 0", false, 1, root_bytes, 0.0, &root_port);
    ctx->result->others_differ = true;
    ctx->result->bytes_sent_other_gpu = ctx->size;
    ctx->result->bytes_received_other_gpu = ctx->size;
    result_note(ctx, "GPU 0 is the bottleneck: it takes in (p-1) x S and sends out (p-1) x S; "
                     "every other GPU sends S and receives S.");
    return COLLCALC_OK;
}

collcalc_status build_pairwise(build_ctx *ctx, collcalc_diag *diag)
{
    (void)diag;
    long p = ctx->p;
    double block = ctx->size / (double)p;
    if (ctx->nodes == 1) {
        hop h = hop_intra(ctx);
        add_phase(ctx, "pairwise exchange", false, p - 1, (double)(p - 1) * block,
                  (double)(p - 1) * block, &h);
        return COLLCALC_OK;
    }
    /* Peers in the node are reached over the intra link while peers in other
     * nodes go over the NICs at the same time; the slower path decides. */
    long local_peers = ctx->g - 1, remote_peers = p - ctx->g;
    if (local_peers > 0) {
        hop intra = hop_intra(ctx);
        add_phase(ctx, "exchange with GPUs in the node", false, local_peers,
                  (double)local_peers * block, (double)local_peers * block, &intra);
    }
    hop inter = hop_inter_all_gpus(ctx);
    add_phase(ctx, "exchange with GPUs in other nodes", local_peers > 0, remote_peers,
              (double)remote_peers * block, (double)remote_peers * block, &inter);
    result_note(ctx, "%ld of %ld peers are in other nodes: (N-1)/N of the traffic crosses the "
                     "network, where one GPU cannot use more than one NIC.",
                remote_peers, p - 1);
    return COLLCALC_OK;
}
