/* Direct algorithms: the centralized all-reduce (everything to GPU 0 and
 * back: the textbook example's counter-example) and pairwise all-to-all
 * (doc/MODEL.md §4.3, §4.10). */
#include "phases.h"

/* Time one GPU's share of a phase takes: what the builders compare to find
 * the busiest GPU (the engine recomputes it for the chosen one). */
static double phase_time_us(long steps, double alpha_us, double bytes, double bw_GBps)
{
    return (double)steps * alpha_us + (bytes > 0.0 ? bytes / (bw_GBps * 1e3) : 0.0);
}

void build_centralized(build_ctx *ctx)
{
    long p = ctx->p;
    double root_bytes = (double)(p - 1) * ctx->size;
    hop root_port = hop_intra(ctx);
    if (ctx->nodes > 1) {
        /* Across nodes three things limit how fast the root's (p-1) x S
         * arrive: the root's own port ((p-1) S, only when G > 1: with one
         * GPU per node the NICs are its port), node 0's NICs ((p-g) S), and
         * every remote node's NICs (its r GPUs' r S). Each limit as a
         * bandwidth for the root's (p-1) S; the smallest decides. */
        const collcalc_cluster *cluster = &ctx->query->cluster;
        double b = cluster->inter.bw_GBps, remote = (double)(p - ctx->g);
        int node0_nics = nics_driven(cluster, ctx->g);
        double via_node0 = node0_nics * b * (double)(p - 1) / remote;
        root_port.alpha_us = cluster->inter.alpha_us > cluster->intra.alpha_us || ctx->g == 1
                                 ? cluster->inter.alpha_us
                                 : cluster->intra.alpha_us;
        root_port.scope = COLLCALC_SCOPE_SPANNING;
        root_port.link = &cluster->intra.name;
        root_port.link2 = &cluster->inter.name;
        if (ctx->g == 1 || via_node0 < root_port.bw_GBps) {
            root_port.kind = COLLCALC_HOP_ROOT_NICS;
            root_port.bw_GBps = via_node0;
            root_port.nics = node0_nics;
            root_port.sharing_gpus = ctx->g;
        } else {
            root_port.kind = COLLCALC_HOP_ROOT_PORT;
            root_port.nics = node0_nics;
            root_port.sharing_gpus = ctx->g;
        }
        if (ctx->last < ctx->g) {
            /* the partial last node's GPUs send through the NICs they drive */
            int last_nics = nics_driven(cluster, ctx->last);
            double via_last = last_nics * b * (double)(p - 1) / (double)ctx->last;
            if (via_last < root_port.bw_GBps) {
                root_port.kind = COLLCALC_HOP_ROOT_REMOTE_NICS;
                root_port.bw_GBps = via_last;
                root_port.nics = last_nics;
                root_port.sharing_gpus = ctx->last;
            }
        }
    }
    add_phase(ctx, "reduce to GPU 0", false, 1, 0.0, root_bytes, &root_port);
    add_phase(ctx, "broadcast from GPU 0", false, 1, root_bytes, 0.0, &root_port);
    collcalc_result *r = ctx->result;
    r->others_differ = true;
    r->bytes_sent_other_gpu = ctx->size;
    r->bytes_received_other_gpu = ctx->size;
    r->facts |= COLLCALC_FACT_CENTRALIZED_ROOT;
}

void build_pairwise(build_ctx *ctx)
{
    long p = ctx->p;
    double block = ctx->size / (double)p;
    if (ctx->nodes == 1) {
        hop h = hop_intra(ctx);
        add_phase(ctx, "pairwise exchange", false, p - 1, (double)(p - 1) * block,
                  (double)(p - 1) * block, &h);
        return;
    }
    /* Peers in the node are reached over the intra link while peers in other
     * nodes go over the NICs at the same time; the slower path decides. A
     * GPU of a node holding r GPUs has r-1 local and p-r remote peers and
     * its node's NIC share: a full node and the partial last node differ,
     * and the busiest GPU decides (the lone GPU of a ninth-GPU node sends
     * all of its (p-1)/p x S through one NIC). */
    hop intra = hop_intra(ctx);
    int candidates[2] = {ctx->g, ctx->last};
    int count = ctx->last < ctx->g ? 2 : 1;
    int busiest = ctx->g;
    double worst = -1.0;
    for (int i = 0; i < count; i++) {
        int r = candidates[i];
        hop inter = hop_point_to_point(ctx, hop_inter_node(ctx, r));
        long local = r - 1, remote = p - r;
        double t_local = phase_time_us(local, intra.alpha_us, (double)local * block, intra.bw_GBps);
        double t_remote = phase_time_us(remote, inter.alpha_us, (double)remote * block, inter.bw_GBps);
        double t = t_local > t_remote ? t_local : t_remote;
        if (t > worst) {
            worst = t;
            busiest = r;
        }
    }
    long local_peers = busiest - 1, remote_peers = p - busiest;
    if (local_peers > 0)
        add_phase(ctx, "exchange with GPUs in the node", false, local_peers,
                  (double)local_peers * block, (double)local_peers * block, &intra);
    hop inter = hop_point_to_point(ctx, hop_inter_node(ctx, busiest));
    add_phase(ctx, "exchange with GPUs in other nodes", local_peers > 0, remote_peers,
              (double)remote_peers * block, (double)remote_peers * block, &inter);
    collcalc_result *r = ctx->result;
    r->facts |= COLLCALC_FACT_REMOTE_PEERS;
    r->remote_peers = remote_peers;
    if (busiest < ctx->g)
        r->facts |= COLLCALC_FACT_BUSIEST_IN_LAST_NODE;
}
