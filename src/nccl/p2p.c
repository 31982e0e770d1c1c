/* All-to-all and send/recv (doc/MODEL.md §13.2). NCCL runs both as
 * point-to-point sends grouped in one launch; its tuner does not cost them,
 * so collcalc costs them from what the busiest GPU sends through each tier
 * and at what rate, with the rates the collectives see (the same NVLink
 * efficiency, the same NIC speeds), so that an all-to-all inside a node
 * cannot run faster than an all-gather and one that leaves the node or the
 * NVLink domain falls to what its NICs carry (NVIDIA, nccl-tests issue 130:
 * "On 2 nodes, 50% of the traffic is inter-node so you should see
 * BusBW = 2x network bandwidth per GPU ... N/(N-1)x the bandwidth per GPU,
 * N being the number of nodes"; issue 267: "Alltoall cannot aggregate the
 * bandwidth of multiple NICs, so the performance you should see is the
 * performance of a single NIC").
 *
 * Per GPU, with p ranks, N nodes (NVLink domains) of ppn and size S as
 * nccl-tests counts it (all-to-all: one rank's whole send buffer, S/p per
 * peer; send/recv: S to the next rank):
 *   all-to-all  inside the node (ppn-1)/p S, through the NICs (p-ppn)/p S
 *   send/recv   S inside the node (ppn > 1), S through a NIC (N > 1), for
 *               the GPUs at a node boundary (the slowest decides)
 * time = latency + max(bytes inside / B_intra, bytes across / B_net), where
 * B_intra is NCCL's one-node ring aggregate (p2p_intra_GBps: 360 GB/s on
 * 8x H100, NVIDIA's "effective NVLink bandwidth of 370GB/s ... BusBw when
 * running non-allreduce operations", nccl-tests issue 212), through host
 * memory without P2P the SHM rate of model.c, and B_net the node's NICs
 * as NCCL's search counts them shared by its GPUs (NICs x speed / ppn), times
 * the fabric's share beyond 2 nodes as for the collectives.
 *
 * Latency: NCCL's Ring Simple constants for one step on each tier the data
 * crosses (base + one intra hop + one network hop: the peers progress at the
 * same time), plus, per remote peer, the proxy's network post overhead
 * (NCCL's netOverhead x 3 for Simple, as its ring latency counts it; 1 us on
 * Intel, 2 on AMD): a network send or receive is posted by the one proxy
 * thread per GPU, peer after peer. The transport's extra step latency and
 * the single-process launch cost are model.c's. */
#include <string.h>

#include "model_internal.h"

static double intra_rate(const collcalc_nccl_system *s, unsigned fix)
{
    if (!s->p2p) {
        /* Through host memory: NCCL counts PHB at most 12 GB/s; collcalc's
         * SHM correction: two PCIe crossings and a host copy in series. */
        double nccl = s->pci_bw_GBps < 12.0 ? s->pci_bw_GBps : 12.0;
        return (fix & COLLCALC_NCCL_FIX_SHM) ? s->pci_bw_GBps / 3.0 : nccl;
    }
    if (s->p2p_intra_GBps > 0.0)
        return s->p2p_intra_GBps;
    if (s->nvlink_bw_GBps > 0.0)
        return s->nvlink_bw_GBps;
    return s->pci_bw_GBps;
}

/* One GPU's share of its node's NICs. */
static double net_rate(const collcalc_nccl_system *s, int ppn)
{
    if (s->nic_GBps > 0.0 && s->nics_per_node > 0)
        return s->nic_GBps * (double)s->nics_per_node / (double)ppn;
    const collcalc_nccl_graph *ring = &s->graphs[COLLCALC_NCCL_RING];
    double per = ring->bw_inter_GBps > 0.0 ? ring->bw_inter_GBps : ring->bw_intra_GBps;
    return (double)ring->nchannels * per / (double)ppn;
}

collcalc_status nccl_predict_p2p(const collcalc_nccl_system *s, const collcalc_nccl_constants *k,
                                 const collcalc_nccl_options *options, collcalc_nccl_func func,
                                 uint64_t size_bytes, collcalc_nccl_prediction *out,
                                 collcalc_diag *diag)
{
    memset(out, 0, sizeof *out);
    out->func = func;
    out->size_bytes = size_bytes;
    out->nccl_bytes = size_bytes;
    out->busbw_factor = collcalc_nccl_busbw_factor(func, s->nranks);
    out->candidate_count = COLLCALC_NCCL_MAX_CANDIDATES;
    out->selected = -1;
    for (int i = 0; i < COLLCALC_NCCL_NUM_ALGOS * COLLCALC_NCCL_NUM_PROTOS; i++) {
        out->candidates[i].algo = (collcalc_nccl_algo)(i / COLLCALC_NCCL_NUM_PROTOS);
        out->candidates[i].proto = (collcalc_nccl_proto)(i % COLLCALC_NCCL_NUM_PROTOS);
        out->candidates[i].unavailable = COLLCALC_NCCL_NOT_FOR_FUNC;
    }
    int last = COLLCALC_NCCL_NUM_ALGOS * COLLCALC_NCCL_NUM_PROTOS;
    collcalc_nccl_candidate *cand = &out->candidates[last];
    cand->algo = COLLCALC_NCCL_P2P;
    cand->proto = COLLCALC_NCCL_SIMPLE;
    cand->unavailable = COLLCALC_NCCL_OK;
    int p = s->nranks, nodes = s->nnodes, ppn = p / nodes;
    cand->channels = cand->channels_run = s->graphs[COLLCALC_NCCL_RING].nchannels;
    if (p == 1)
        return COLLCALC_OK; /* one rank moves nothing */
    unsigned fix = options->corrections;
    double bytes = (double)size_bytes;

    double inside, across;
    if (func == COLLCALC_NCCL_ALLTOALL) {
        inside = bytes * (double)(ppn - 1) / (double)p;
        across = bytes * (double)(p - ppn) / (double)p;
    } else {
        inside = ppn > 1 ? bytes : 0.0;
        across = nodes > 1 ? bytes : 0.0;
    }
    double b_intra = intra_rate(s, fix), b_intra_nccl = intra_rate(s, 0u);
    double b_net = nodes > 1 ? net_rate(s, ppn) : 0.0, b_net_nccl = b_net;
    if ((fix & COLLCALC_NCCL_FIX_FABRIC) && nodes > 2)
        b_net *= s->fabric_efficiency;

    /* Latency: one step per tier crossed, NCCL's Ring Simple figures. */
    bool nvlink = s->p2p && s->graphs[COLLCALC_NCCL_RING].type_intra == COLLCALC_NCCL_PATH_NVL;
    int intra_hw = nvlink ? COLLCALC_NCCL_HW_NVLINK : COLLCALC_NCCL_HW_PCI;
    double lat = k->base_latency_us[COLLCALC_NCCL_RING][COLLCALC_NCCL_SIMPLE];
    if (ppn > 1)
        lat += k->hw_latency_us[intra_hw][COLLCALC_NCCL_RING][COLLCALC_NCCL_SIMPLE];
    if (nodes > 1) {
        lat += k->hw_latency_us[COLLCALC_NCCL_HW_NET][COLLCALC_NCCL_RING][COLLCALC_NCCL_SIMPLE] +
               2.0 * s->latency_inter_us;
        double overhead = s->net_overhead_us >= 0.0
                              ? s->net_overhead_us
                              : k->net_overhead_us[s->cpu == COLLCALC_NCCL_CPU_AMD ? 1 : 0];
        int remote = func == COLLCALC_NCCL_ALLTOALL ? p - ppn : 1;
        lat += (double)remote * 3.0 * overhead;
    }
    double nccl_lat = lat;
    if ((fix & COLLCALC_NCCL_FIX_TRANSPORT) && nodes > 1)
        lat += nccl_transport_step_us(s->transport);

    double band = 0.0, band_nccl = 0.0;
    if (inside > 0.0 && b_intra > 0.0) {
        band = inside / (1000.0 * b_intra);
        band_nccl = inside / (1000.0 * b_intra_nccl);
    }
    if (across > 0.0 && b_net > 0.0) {
        double t = across / (1000.0 * b_net), t_nccl = across / (1000.0 * b_net_nccl);
        band = t > band ? t : band;
        band_nccl = t_nccl > band_nccl ? t_nccl : band_nccl;
    }
    if ((inside > 0.0 && !(b_intra > 0.0)) || (across > 0.0 && !(b_net > 0.0))) {
        cand->unavailable = COLLCALC_NCCL_NO_GRAPH;
        return collcalc_diag_fail(diag, COLLCALC_ERR_UNSUPPORTED,
                                  "%s: no bandwidth for the path between the GPUs (no NICs "
                                  "and no ring channels across nodes)",
                                  collcalc_nccl_func_name(func));
    }

    cand->latency_us = nccl_lat;
    cand->nccl_time_us = nccl_lat + band_nccl;
    if (fix == 0) {
        lat = nccl_lat;
        band = band_nccl;
    }
    if (fix & COLLCALC_NCCL_FIX_LAUNCH) { /* the host floor (model.c) */
        double host = nccl_host_issue_us(s, ppn);
        if (host > lat + band)
            lat = host - band;
    }
    cand->latency_pred_us = lat;
    cand->bandwidth_pred_us = band;
    cand->time_us = lat + band;
    if (band > 0.0 && bytes > 0.0) {
        cand->alg_bw_GBps = bytes / (1000.0 * band);
        cand->bus_bw_GBps = cand->alg_bw_GBps * out->busbw_factor;
    }
    if (size_bytes == 0) {
        cand->latency_pred_us = cand->bandwidth_pred_us = cand->time_us = 0.0;
    }
    if (cand->time_us > 0.0) {
        cand->algbw_GBps = bytes / (1000.0 * cand->time_us);
        cand->busbw_GBps = cand->algbw_GBps * out->busbw_factor;
    }
    if (cand->nccl_time_us > 0.0 && bytes > 0.0)
        cand->nccl_busbw_GBps = bytes / (1000.0 * cand->nccl_time_us) * out->busbw_factor;
    cand->selected = true;
    out->selected = last;
    nccl_fill_bands(s, out);
    return COLLCALC_OK;
}
