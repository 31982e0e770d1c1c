/* NCCL's tuning model (doc/MODEL.md §9-§13; the formulas follow NCCL
 * 2.30.7 src/graph/tuning.cc, with the older shapes selected by the
 * constants' flags, see data/README.md "nccl.json"), then collcalc's
 * corrections to it. Values in, numbers out: no tables, no I/O.
 *
 * Selection always uses NCCL's own time (that is what the real library
 * does); the corrections change the predicted time of each candidate, and
 * one of them what a plugin makes available (LL128 over EFA). */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "collcalc/nccl_model.h"
#include "model_internal.h"

/* NCCL's small-message channel/thread shrink (src/enqueue.cc): threads per
 * channel and bytes per thread below which a channel is dropped. */
#define NCCL_LL_THREADS 512
#define NCCL_LL128_THREADS 640
#define NCCL_SIMPLE_THREADS 512
#define NCCL_LL_THREAD_THRESHOLD 8
#define NCCL_LL128_THREAD_THRESHOLD 8
#define NCCL_SIMPLE_THREAD_THRESHOLD 64

/* ---- collcalc's corrections: every constant says where it comes from ---- */

/* FIX_LAUNCH_US_PER_GPU and FIX_RAMP_CHUNK_BYTES: model_internal.h. */

/* Symmetric-memory kernels (NCCL >= 2.27, buffers registered with -R 2) and
 * CUDA graphs: NVIDIA quotes ~3 us small-message all-reduce on 8x B200 and
 * ~2 us on H100/H200 class (nccl-tests#333, maintainers and users). This is
 * the GPU's time; without a CUDA graph the host floor below applies. */
#define FIX_SYMMETRIC_HOPPER_US 2.0
#define FIX_SYMMETRIC_BLACKWELL_US 3.0

/* The host floor (doc/MODEL.md section 13.3). A benchmark issues its calls
 * back to back and reports the loop's time per call, so the host thread and
 * the GPUs form a pipeline and a call takes the longer of the two stages:
 * the GPU's time (NCCL's latency and bandwidth terms) and the host's time
 * to issue it. The host's time is COLLCALC_NCCL_HOST_CALL_US plus one
 * kernel launch per GPU the thread drives (collcalc/nccl_model.h: the line
 * nccl-tests#123 measures, 1.6 + 3.96 us per GPU): 5.6 us for a process
 * per GPU, 33.3 us for one process driving 8 GPUs (nccl-tests -g 8), above
 * NCCL's 15 us for Ring LL on 8 GPUs. Under a CUDA graph (nccl-tests -G) the
 * replay issues a whole loop at once and the host's share is ~0.
 * torch.distributed adds its Python and c10d dispatch to every call:
 * ~12 us, between the ~15 us of host time around a 5.8 us kernel that
 * torchcomms#2455 profiles (Python dispatch and CUDA launch: 15 - 5.6 =
 * 9.4 beyond nccl-tests' host time) and the 19.2 us torch.distributed
 * all-reduce of 128 B on 8x H100 in Triton-distributed#57 (19.2 - 5.6 =
 * 13.6). */
#define FIX_TORCH_CALL_US 12.0

/* Transports whose small-message cost NCCL's NET latencies (calibrated on
 * InfiniBand) underestimate: extra microseconds per network step of the
 * algorithm. The GPUDirect-TCPXO all-gather on 2 GCP A3 Mega nodes floors at
 * 85 us where NCCL's Ring Simple (the only protocol Google's TCPXO profile
 * runs, availability() above) says 70 us for its one network step (+15); the
 * EFA all-reduce on 2 p4de nodes floors at 161 us where NCCL's Tree LL says
 * 25 us for its 2 network steps (+68 each). TCPX (the older, host-staged
 * GPUDirect-TCPX) is given the EFA figure. RoCE: two DGX Spark (GB10)
 * joined by one 200G RoCE link (NVIDIA/dgx-spark-playbooks#103, NCCL 2.31,
 * one GPU per host) floor at 30.3-30.8 us for 8-16 KiB all-reduce where
 * NCCL's Ring LL says ~12.5 us for its 2 network steps: +9 us per step with
 * no switch between them, so the cost is the RoCE path's (NIC, plugin
 * polling), not the fabric's. Plain sockets: none beyond NCCL's figures;
 * the L40S pair over 100 GbE sockets (schmaustech) floors at 12.2 us where
 * NCCL's Ring LL says 11.9 us, the host's proxy thread and kernel TCP
 * stack hiding inside NCCL's NET step on an idle 2-rank ring. */
static const double fix_transport_step_us[COLLCALC_NCCL_NUM_TRANSPORTS] = {
    0.0,  /* ib: NCCL's constants are InfiniBand's */
    9.0,  /* roce */
    68.0, /* efa */
    68.0, /* tcpx */
    15.0, /* tcpxo */
    0.0   /* socket */
};

/* The ramp (doc/MODEL.md §13): NCCL's Simple protocol moves data in
 * chunks of 2 MiB per channel (a 4 MiB buffer in NCCL_STEPS = 8 slots, 4
 * slots per chunk), and a call reaches full speed only once every channel
 * has a chunk in flight: a pipeline fill of F = channels x 2 MiB that NCCL's
 * lat + S/bw leaves out. In Hockney's n-half form the bandwidth term becomes
 * (S + F * S / (S + F)) / bw: about F / bw extra for large S (~120 us on
 * 8x H100 NVLS, ~180 us on an 8x A100 ring, the lag both runs show from
 * 128 MiB to 1 GiB) and a doubled term for small S. Multi-node rings are
 * left out: NCCL already multiplies their Simple latency by its 1.4 plateau
 * factor, its own stand-in for the same effect (and the 2-node IB ring run
 * is on time without more). LL and LL128 carry their flags with the data
 * and have no separate chunk steps; their ramp is the channel shrink alone:
 * every channel is one CTA on one SM, so a call that runs on fewer channels
 * gets proportionally less bandwidth. Through host memory (SHM, below) the
 * transport stages data in its own buffers; the serial copies are the
 * SHM correction and no fill is added. With registered (symmetric) buffers
 * NCCL reads and writes the user's buffers directly, without its staging
 * chunks, so there is no chunk pipeline to fill either (the 8x B200 -R 2
 * run is within ~15 us of lat + S/bw from 128 MiB up, where the
 * unregistered 8x H100 NVLS run lags by ~100 us). */

/* Shared memory through the host when CUDA P2P is unavailable: the sender
 * copies into a host buffer (one PCIe crossing), the receiver copies out
 * (a second crossing), and the host memory copy in between is serialised
 * with them, so the path runs at 1 / (2/B_pci + 1/B_host) with B_host ~
 * B_pci (a single-threaded memcpy on the host moves ~10-12 GB/s). With
 * NCCL's 12 GB/s for PCIe Gen3 x16 this is 4.0 GB/s: the 2x RTX 2080 Ti run
 * without P2P prints 4.0 GB/s all-reduce busbw and 3.8 all-gather. */
#define FIX_SHM_CROSSINGS 3.0

/* Beyond 2 nodes NCCL's network bandwidth is what the fabric delivers:
 * the system's fabric_efficiency scales the inter-node bandwidth (adaptive
 * routing, rails, oversubscription; NVIDIA: 8-node H100 "~320 GB/s is
 * possible, depending on your network" vs 392 on 2 nodes, nccl-tests#309). */

void nccl_fill_bands(const collcalc_nccl_system *system, collcalc_nccl_prediction *out)
{
    collcalc_nccl_band_of(system, out->func, out->size_bytes, &out->band);
    for (size_t i = 0; i < out->candidate_count; i++) {
        collcalc_nccl_candidate *cand = &out->candidates[i];
        if (cand->unavailable == COLLCALC_NCCL_OK)
            collcalc_nccl_band_apply(&out->band, cand, &cand->busbw_low_GBps,
                                     &cand->busbw_high_GBps, &cand->time_low_us,
                                     &cand->time_high_us);
    }
}

double nccl_transport_step_us(collcalc_nccl_transport transport)
{
    return (unsigned)transport < COLLCALC_NCCL_NUM_TRANSPORTS ? fix_transport_step_us[transport]
                                                              : 0.0;
}

double nccl_host_issue_us(const collcalc_nccl_system *system, int ppn)
{
    if (system->cuda_graph)
        return 0.0;
    double launches = system->launch == COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS && ppn > 1
                          ? (double)ppn
                          : 1.0;
    double us = COLLCALC_NCCL_HOST_CALL_US + launches * FIX_LAUNCH_US_PER_GPU;
    if (system->harness == COLLCALC_NCCL_HARNESS_TORCH)
        us += FIX_TORCH_CALL_US;
    return us;
}

collcalc_status collcalc_nccl_harness_parse(const char *name, collcalc_nccl_harness *out)
{
    if (name == NULL || out == NULL)
        return COLLCALC_ERR_INVALID;
    if (strcmp(name, "nccl-tests") == 0)
        *out = COLLCALC_NCCL_HARNESS_NCCL_TESTS;
    else if (strcmp(name, "torch") == 0 || strcmp(name, "torch.distributed") == 0)
        *out = COLLCALC_NCCL_HARNESS_TORCH;
    else
        return COLLCALC_ERR_NOT_FOUND;
    return COLLCALC_OK;
}

collcalc_nccl_launch collcalc_nccl_launch_default(int nodes, int platform_gpus_per_node)
{
    return nodes == 1 && platform_gpus_per_node >= 1 && platform_gpus_per_node <= 8
               ? COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS
               : COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
}

/* ----------------------------------------------------------------------- */

void collcalc_nccl_system_init(collcalc_nccl_system *system)
{
    if (system == NULL)
        return;
    memset(system, 0, sizeof *system);
    system->min_sm = 90;
    system->all_same_sm = true;
    system->cpu = COLLCALC_NCCL_CPU_INTEL;
    system->nranks = 1;
    system->nnodes = 1;
    for (int a = 0; a < COLLCALC_NCCL_NUM_ALGOS; a++) {
        system->graphs[a].type_intra = COLLCALC_NCCL_PATH_NVL;
        system->graphs[a].type_inter = COLLCALC_NCCL_PATH_PIX;
        system->graphs[a].same_channels = true;
    }
    system->pat_enable = true;
    system->net_overhead_us = -1.0;
    system->transport = COLLCALC_NCCL_NET_IB;
    system->launch = COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
    system->p2p = true;
    system->pci_bw_GBps = 24.0;
    system->fabric_efficiency = 1.0;
}

void collcalc_nccl_options_init(collcalc_nccl_options *options)
{
    if (options == NULL)
        return;
    for (int f = 0; f < COLLCALC_NCCL_NUM_FUNCS; f++) {
        options->algo_mask[f] = (1u << COLLCALC_NCCL_NUM_ALGOS) - 1u;
        options->proto_mask[f] = (1u << COLLCALC_NCCL_NUM_PROTOS) - 1u;
    }
    options->corrections = COLLCALC_NCCL_FIX_ALL;
    options->refined = NULL;
}

double collcalc_nccl_busbw_factor(collcalc_nccl_func func, int nranks)
{
    if (nranks < 1)
        return 0.0;
    /* The alpha-beta model's factor, for the op func is. */
    for (int op = 0; op < COLLCALC_OP_COUNT; op++) {
        collcalc_nccl_func of_op;
        if (collcalc_nccl_func_from_op((collcalc_op)op, &of_op) && of_op == func)
            return collcalc_busbw_factor((collcalc_op)op, nranks);
    }
    return 0.0;
}

const collcalc_nccl_candidate *collcalc_nccl_selected(const collcalc_nccl_prediction *prediction)
{
    if (prediction == NULL || prediction->selected < 0 ||
        (size_t)prediction->selected >= COLLCALC_NCCL_MAX_CANDIDATES)
        return NULL;
    return &prediction->candidates[prediction->selected];
}

static collcalc_nccl_arch arch_of(int sm)
{
    if (sm >= 100)
        return COLLCALC_NCCL_BLACKWELL;
    if (sm >= 90)
        return COLLCALC_NCCL_HOPPER;
    if (sm >= 80)
        return COLLCALC_NCCL_AMPERE;
    return COLLCALC_NCCL_VOLTA;
}

/* floor(log2(n)) for n >= 1; 0 for n < 1. */
static int log2i(long long n)
{
    int l = 0;
    while (n > 1) {
        n >>= 1;
        l++;
    }
    return l;
}

static double min2(double a, double b)
{
    return a < b ? a : b;
}

static int nsteps_of(collcalc_nccl_func func, int p)
{
    switch (func) {
    case COLLCALC_NCCL_ALLREDUCE: return 2 * (p - 1);
    case COLLCALC_NCCL_ALLGATHER:
    case COLLCALC_NCCL_REDUCESCATTER: return p - 1;
    case COLLCALC_NCCL_BROADCAST:
    case COLLCALC_NCCL_REDUCE: return p;
    case COLLCALC_NCCL_ALLTOALL: /* p2p.c, not NCCL's table */
    case COLLCALC_NCCL_SENDRECV: break;
    }
    return p;
}

/* Everything one candidate's cost needs, computed once per call. */
typedef struct {
    const collcalc_nccl_system *sys;
    const collcalc_nccl_constants *k;
    collcalc_nccl_func func;
    int p, nodes, ppn, scale, nsteps;
    unsigned fix; /* the options' corrections */
    int row;      /* arch row of the per-arch tables */
    int ll_row;   /* row of llMaxBws */
    bool x86;
} ctx_t;

static collcalc_nccl_unavailable availability(const ctx_t *c, collcalc_nccl_algo a,
                                              collcalc_nccl_proto pr)
{
    const collcalc_nccl_system *s = c->sys;
    collcalc_nccl_func f = c->func;
    /* Which algorithms a function has (NCCL section 1.5 / 1.9). */
    bool for_func;
    switch (f) {
    case COLLCALC_NCCL_BROADCAST:
    case COLLCALC_NCCL_REDUCE: for_func = a == COLLCALC_NCCL_RING; break;
    case COLLCALC_NCCL_ALLGATHER:
    case COLLCALC_NCCL_REDUCESCATTER:
        for_func = a == COLLCALC_NCCL_RING || a == COLLCALC_NCCL_PAT || a == COLLCALC_NCCL_NVLS ||
                   a == COLLCALC_NCCL_COLLNET_DIRECT;
        break;
    default: for_func = a != COLLCALC_NCCL_PAT; break;
    }
    if (!for_func)
        return COLLCALC_NCCL_NOT_FOR_FUNC;
    bool simple_only = a == COLLCALC_NCCL_NVLS || a == COLLCALC_NCCL_NVLS_TREE ||
                       a == COLLCALC_NCCL_PAT || a == COLLCALC_NCCL_COLLNET_DIRECT ||
                       a == COLLCALC_NCCL_COLLNET_CHAIN;
    if (simple_only && pr != COLLCALC_NCCL_SIMPLE)
        return COLLCALC_NCCL_PROTO_NOT_FOR_ALGO;
    const collcalc_nccl_graph *g = &s->graphs[a];
    if (g->nchannels <= 0)
        return COLLCALC_NCCL_NO_GRAPH;
    switch (a) {
    case COLLCALC_NCCL_NVLS:
    case COLLCALC_NCCL_NVLS_TREE:
        if (!s->nvls_support || s->min_sm < 90 || g->nchannels < 2)
            return COLLCALC_NCCL_NO_HARDWARE;
        if (a == COLLCALC_NCCL_NVLS_TREE && c->nodes == 1)
            return COLLCALC_NCCL_NO_HARDWARE;
        if (a == COLLCALC_NCCL_NVLS && c->nodes > 1 && !s->collnet_support)
            return COLLCALC_NCCL_NO_HARDWARE;
        if (f != COLLCALC_NCCL_ALLREDUCE && c->ppn > 32)
            return COLLCALC_NCCL_NO_HARDWARE;
        break;
    case COLLCALC_NCCL_COLLNET_DIRECT:
        if (!s->collnet_support || !s->nvswitch || c->ppn > 8)
            return COLLCALC_NCCL_NO_HARDWARE;
        break;
    case COLLCALC_NCCL_COLLNET_CHAIN:
        if (!s->collnet_support)
            return COLLCALC_NCCL_NO_HARDWARE;
        break;
    case COLLCALC_NCCL_PAT:
        if (c->k->pat_factor <= 0.0 || !s->pat_enable || s->min_sm < 60 || c->p != c->nodes)
            return COLLCALC_NCCL_NO_HARDWARE;
        break;
    default: break;
    }
    /* What the GCP plugins run. GPUDirect-TCPX: Ring and Simple only, no
     * NVLS (apple/axlearn axlearn/cloud/gcp/job.py, the A3 TCPX settings:
     * "TCPX only supports Ring algorithm", "TCPX only supports Simple
     * protocol", "TCPX is not compatible with NVLS"). GPUDirect-TCPXO (A3
     * Mega): Google's profile sets NCCL_ALGO=Ring,Tree, NCCL_PROTO=Simple
     * and NCCL_NVLS_ENABLE=0 (the FASTRAK settings of GCP's A3 Mega
     * nccl-tests and training scripts). Not NCCL's rule, so a correction. */
    if ((c->fix & COLLCALC_NCCL_FIX_TRANSPORT) && c->nodes > 1) {
        if (s->transport == COLLCALC_NCCL_NET_TCPX &&
            (a != COLLCALC_NCCL_RING || pr != COLLCALC_NCCL_SIMPLE))
            return COLLCALC_NCCL_NO_HARDWARE;
        if (s->transport == COLLCALC_NCCL_NET_TCPXO &&
            ((a != COLLCALC_NCCL_RING && a != COLLCALC_NCCL_TREE) || pr != COLLCALC_NCCL_SIMPLE))
            return COLLCALC_NCCL_NO_HARDWARE;
    }
    if (pr == COLLCALC_NCCL_LL128) {
        bool ok = s->min_sm >= 70 && g->type_intra <= COLLCALC_NCCL_PATH_NVB &&
                  (s->all_same_sm || s->min_sm >= 90);
        if (c->nodes > 1)
            ok = ok && (g->type_inter <= COLLCALC_NCCL_PATH_PXB ||
                        (s->min_sm >= 90 && g->type_inter <= COLLCALC_NCCL_PATH_PXN));
        /* The EFA plugin (aws-ofi-nccl) turns LL128 off: EFA's RDMA writes
         * do not land in the 128-byte order LL128's flags rely on. NCCL's
         * own rule cannot see the transport, so this is a correction. */
        if ((c->fix & COLLCALC_NCCL_FIX_TRANSPORT) && c->nodes > 1 &&
            s->transport == COLLCALC_NCCL_NET_EFA)
            ok = false;
        if (!ok)
            return COLLCALC_NCCL_NO_HARDWARE;
    }
    return COLLCALC_NCCL_OK;
}

/* busBw (section 1.5) and the algBw ratio (section 1.6). */
static void bandwidth(const ctx_t *c, collcalc_nccl_algo a, collcalc_nccl_proto pr, double *out_bus,
                      double *out_alg)
{
    const collcalc_nccl_system *s = c->sys;
    const collcalc_nccl_constants *k = c->k;
    const collcalc_nccl_graph *g = &s->graphs[a];
    collcalc_nccl_func f = c->func;
    double nch = (double)g->nchannels;
    double ppn = (double)c->ppn;
    bool collnet = a == COLLCALC_NCCL_COLLNET_DIRECT || a == COLLCALC_NCCL_COLLNET_CHAIN;
    bool nvls = a == COLLCALC_NCCL_NVLS || a == COLLCALC_NCCL_NVLS_TREE;
    /* bw_inter_GBps 0 means "as bw_intra" (a one-node graph reports both). */
    double bw_inter = g->bw_inter_GBps > 0.0 ? g->bw_inter_GBps : g->bw_intra_GBps;
    double bw = (c->nodes <= 2 || collnet) ? g->bw_intra_GBps : bw_inter;

    if (nvls) {
        if (k->nvls_model == COLLCALC_NCCL_NVLS_MODEL_2_28) {
            double intra = g->bw_intra_GBps * k->nvls_efficiency[c->row] * (nch - 1.0) / nch;
            if (f == COLLCALC_NCCL_ALLREDUCE)
                intra *= 2.0;
            else
                intra *= (ppn - 1.0) / ppn;
            double inter =
                bw_inter * ((c->nodes <= 2 && a == COLLCALC_NCCL_NVLS_TREE) ? 2.0 : 1.0);
            bw = min2(intra, inter);
            if (a == COLLCALC_NCCL_NVLS_TREE && k->max_nvls_tree_GBps[c->row][c->scale] > 0.0)
                bw = min2(bw, k->max_nvls_tree_GBps[c->row][c->scale]);
        } else if (a == COLLCALC_NCCL_NVLS) {
            if (f == COLLCALC_NCCL_ALLREDUCE)
                bw = min2(g->bw_intra_GBps, bw_inter);
            else
                bw = min2(g->bw_intra_GBps * (ppn - 1.0) / ppn, 0.9 * bw_inter);
        } else {
            bw = min2(g->bw_intra_GBps, c->nodes <= 2 ? bw_inter : bw_inter / 2.0);
        }
    }
    double bus = nch * bw;
    double ll_max = k->ll_max_bw_GBps[c->ll_row][c->scale];

    if (a == COLLCALC_NCCL_RING && pr == COLLCALC_NCCL_LL) {
        double factor = 0.5;
        if (k->legacy_ring_ll)
            factor = (c->nodes > 1 || f == COLLCALC_NCCL_ALLREDUCE || f == COLLCALC_NCCL_REDUCE)
                         ? 0.25
                         : 1.0 / 3.0;
        bus = min2(ll_max, factor * bus);
    }
    if (a == COLLCALC_NCCL_RING && pr == COLLCALC_NCCL_LL128) {
        double factor = (k->legacy_ring_ll && c->ppn < 2) ? 0.7 : 0.92;
        bus = min2(factor * bus, nch * k->per_channel_max_ring_ll128_GBps[c->row][c->scale]);
    }
    if (a == COLLCALC_NCCL_TREE && (f == COLLCALC_NCCL_ALLREDUCE || k->tree_cap_all_functions))
        bus = min2(0.92 * bus, nch * k->per_channel_max_tree_GBps[c->row][c->scale]);
    if (a == COLLCALC_NCCL_TREE && pr == COLLCALC_NCCL_LL)
        bus = min2(bus / 3.8, ll_max);
    if (a == COLLCALC_NCCL_TREE && pr == COLLCALC_NCCL_LL128)
        bus = min2(bus * (c->nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0),
                   nch * k->per_channel_max_tree_ll128_GBps[c->row][c->scale]);
    if (a == COLLCALC_NCCL_TREE && g->tree_pattern_single_nic)
        bus *= 0.85;
    if (a == COLLCALC_NCCL_PAT)
        bus *= k->pat_factor;
    if (a == COLLCALC_NCCL_COLLNET_DIRECT && pr == COLLCALC_NCCL_SIMPLE) {
        if (f == COLLCALC_NCCL_ALLGATHER || f == COLLCALC_NCCL_REDUCESCATTER) {
            bus = ppn * min2(g->bw_intra_GBps, 0.9 * bw_inter);
        } else {
            double factor = ppn / nch;
            factor -= (factor - 1.0) / 2.0;
            if (factor > 0.0)
                bus /= factor;
            if (s->min_sm >= 90)
                bus *= 0.85;
        }
    }

    /* Section 1.6: busBw -> algBw, except non-Ring AllGather/ReduceScatter. */
    double ratio = 1.0;
    bool ag_rs = f == COLLCALC_NCCL_ALLGATHER || f == COLLCALC_NCCL_REDUCESCATTER;
    if (a == COLLCALC_NCCL_RING) {
        ratio = (double)c->p / (double)c->nsteps;
    } else if (!ag_rs) {
        if (a == COLLCALC_NCCL_NVLS || a == COLLCALC_NCCL_NVLS_TREE) {
            if (k->nvls_model == COLLCALC_NCCL_NVLS_MODEL_2_28)
                ratio = (double)c->p / (double)c->nsteps;
            else if (a == COLLCALC_NCCL_NVLS || c->nodes < 2)
                ratio = 5.0 / 6.0;
            else
                ratio = 0.70 * (double)c->nodes / (2.0 * (double)(c->nodes - 1));
        } else {
            ratio = 0.5; /* Tree, CollNet */
        }
    }
    *out_bus = bus;
    *out_alg = bus * ratio;
}

/* Latency (section 1.7), before the plateau factor. */
static double latency(const ctx_t *c, collcalc_nccl_algo a, collcalc_nccl_proto pr)
{
    const collcalc_nccl_system *s = c->sys;
    const collcalc_nccl_constants *k = c->k;
    const collcalc_nccl_graph *g = &s->graphs[a];
    int intra_hw =
        g->type_intra == COLLCALC_NCCL_PATH_NVL ? COLLCALC_NCCL_HW_NVLINK : COLLCALC_NCCL_HW_PCI;
    double base = k->base_latency_us[a][pr];
    double intra = k->hw_latency_us[intra_hw][a][pr];
    double inter = c->ppn == 1 ? k->hw_latency_us[COLLCALC_NCCL_HW_NET][COLLCALC_NCCL_TREE][pr]
                               : k->hw_latency_us[COLLCALC_NCCL_HW_NET][a][pr];
    inter += s->latency_inter_us;
    if (pr == COLLCALC_NCCL_SIMPLE)
        inter += s->latency_inter_us;
    int hw = c->nodes == 1 ? intra_hw : COLLCALC_NCCL_HW_NET;
    int ppn = c->ppn;
    int l2 = log2i(c->nodes);
    collcalc_nccl_func f = c->func;

    switch (a) {
    case COLLCALC_NCCL_RING:
        if (f == COLLCALC_NCCL_BROADCAST || f == COLLCALC_NCCL_REDUCE) {
            if (g->same_channels)
                return base + k->hw_latency_us[hw][COLLCALC_NCCL_RING][pr];
            double step = pr == COLLCALC_NCCL_SIMPLE
                              ? k->hw_latency_us[hw][COLLCALC_NCCL_TREE][COLLCALC_NCCL_SIMPLE]
                              : k->hw_latency_us[hw][COLLCALC_NCCL_RING][pr];
            return base + (double)c->nsteps * step;
        } else {
            double net_ov = 0.0;
            if (c->nodes > 1) {
                net_ov = s->net_overhead_us >= 0.0
                             ? s->net_overhead_us
                             : k->net_overhead_us[s->cpu == COLLCALC_NCCL_CPU_AMD ? 1 : 0];
                if (pr == COLLCALC_NCCL_SIMPLE)
                    net_ov *= 3.0;
            }
            double intra_eff = intra > net_ov ? intra : net_ov;
            int n_inter = c->nodes == 1                  ? 0
                          : f == COLLCALC_NCCL_ALLREDUCE ? 2 * (c->nodes - 1)
                                                         : c->nodes - 1;
            return base + (double)(c->nsteps - n_inter) * intra_eff + (double)n_inter * inter;
        }
    case COLLCALC_NCCL_TREE: return base + 2.0 * ((double)(ppn - 1) * intra + (double)l2 * inter);
    case COLLCALC_NCCL_COLLNET_DIRECT:
        return base +
               2.0 * ((ppn - 1 < 1 ? (double)(ppn - 1) : 1.0) * intra + (double)(ppn - 1) * 0.4) +
               inter;
    case COLLCALC_NCCL_COLLNET_CHAIN: return base + 2.0 * (double)(ppn - 1) * intra + inter;
    case COLLCALC_NCCL_NVLS:
        if (k->nvls_model == COLLCALC_NCCL_NVLS_MODEL_2_18)
            return base + (c->nodes > 1 ? inter : 0.0);
        return intra + (c->nodes > 1 ? inter : 0.0);
    case COLLCALC_NCCL_NVLS_TREE:
        if (k->nvls_model == COLLCALC_NCCL_NVLS_MODEL_2_18)
            return base + 2.0 * (double)(c->nodes - 1) * inter;
        return base + intra + 2.0 * (double)l2 * inter;
    case COLLCALC_NCCL_PAT: return base + (double)l2 * (inter / 3.5) + 2.8 * (double)c->p;
    case COLLCALC_NCCL_P2P: break; /* p2p.c */
    }
    return base;
}

/* Network steps a call of this algorithm waits for in sequence. */
static int network_steps(const ctx_t *c, collcalc_nccl_algo a)
{
    if (c->nodes <= 1)
        return 0;
    int l2 = log2i(c->nodes);
    switch (a) {
    case COLLCALC_NCCL_RING:
        return c->func == COLLCALC_NCCL_ALLREDUCE ? 2 * (c->nodes - 1) : c->nodes - 1;
    case COLLCALC_NCCL_TREE:
    case COLLCALC_NCCL_NVLS_TREE: return 2 * (l2 > 0 ? l2 : 1);
    case COLLCALC_NCCL_PAT: return l2 > 0 ? l2 : 1;
    default: return 1;
    }
}

/* Channels that actually run after NCCL's small-message shrink (1.9). */
static int channels_run(const ctx_t *c, collcalc_nccl_algo a, collcalc_nccl_proto pr,
                        uint64_t bytes)
{
    int nc = c->sys->graphs[a].nchannels;
    if (a != COLLCALC_NCCL_RING && a != COLLCALC_NCCL_TREE && a != COLLCALC_NCCL_PAT)
        return nc;
    double threads = pr == COLLCALC_NCCL_LL      ? NCCL_LL_THREADS
                     : pr == COLLCALC_NCCL_LL128 ? NCCL_LL128_THREADS
                                                 : NCCL_SIMPLE_THREADS;
    double threshold = pr == COLLCALC_NCCL_LL      ? NCCL_LL_THREAD_THRESHOLD
                       : pr == COLLCALC_NCCL_LL128 ? NCCL_LL128_THREAD_THRESHOLD
                                                   : NCCL_SIMPLE_THREAD_THRESHOLD;
    if (a == COLLCALC_NCCL_RING && pr == COLLCALC_NCCL_LL)
        threshold *= (double)c->p;
    while (nc > 1 && (double)bytes < (double)nc * threads * threshold)
        nc--;
    return nc;
}

/* NCCL's cost of one candidate: busBw, algBw (with the tree correction) and
 * latency (with the ring plateau), as ncclTopoGetAlgoTime uses them. false
 * when NCCL would give it bandwidth 0. */
static bool nccl_cost(const ctx_t *c, collcalc_nccl_algo a, collcalc_nccl_proto pr,
                      uint64_t size_bytes, double *out_bus, double *out_alg, double *out_lat)
{
    const collcalc_nccl_system *system = c->sys;
    const collcalc_nccl_constants *constants = c->k;
    double bus = 0.0, alg = 0.0;
    bandwidth(c, a, pr, &bus, &alg);
    if (!(alg > 0.0) || !isfinite(alg))
        return false;
    double lat = latency(c, a, pr);
    /* Tree correction (section 1.8). */
    bool tree_fix = a == COLLCALC_NCCL_TREE && c->func == COLLCALC_NCCL_ALLREDUCE;
    bool nvls_tree_fix = a == COLLCALC_NCCL_NVLS_TREE && c->func == COLLCALC_NCCL_ALLREDUCE &&
                         constants->nvls_tree_correction_blackwell_x86 && system->min_sm >= 100 &&
                         c->x86;
    if ((tree_fix || nvls_tree_fix) && size_bytes >= 64) {
        int log_size = log2i((long long)(size_bytes / 64));
        int limit = nvls_tree_fix ? 24 : 23;
        if (log_size < limit)
            alg *= constants->tree_correction[pr][log_size];
    }
    /* Ring plateau (section 1.8). */
    if (a == COLLCALC_NCCL_RING && pr == COLLCALC_NCCL_SIMPLE &&
        c->func == COLLCALC_NCCL_ALLREDUCE && c->nodes > 1 &&
        (double)size_bytes /
                ((double)system->graphs[COLLCALC_NCCL_RING].nchannels * (double)c->p) >=
            64.0)
        lat *= constants->ring_plateau_factor[system->min_sm < 80 ? 0 : 1];
    *out_bus = bus;
    *out_alg = alg;
    *out_lat = lat;
    return true;
}

static collcalc_status check_system(const collcalc_nccl_system *s, collcalc_diag *diag)
{
    if (s->nranks < 1 || s->nranks > 1000000)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "nranks must be 1..1000000 (got %d)",
                                  s->nranks);
    if (s->nnodes < 1 || s->nnodes > s->nranks || s->nranks % s->nnodes != 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "nnodes must divide nranks (%d ranks, %d nodes)", s->nranks,
                                  s->nnodes);
    if (s->min_sm < 30 || s->min_sm > 200)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "min_sm must be 30..200 (got %d)",
                                  s->min_sm);
    if ((unsigned)s->cpu > COLLCALC_NCCL_CPU_OTHER ||
        (unsigned)s->transport >= COLLCALC_NCCL_NUM_TRANSPORTS ||
        (unsigned)s->launch > COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS ||
        (unsigned)s->harness > COLLCALC_NCCL_HARNESS_TORCH)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "cpu, transport, launch or harness out of range");
    if (!(s->fabric_efficiency > 0.0 && s->fabric_efficiency <= 1.0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "fabric_efficiency must be in (0, 1]");
    if (!(isfinite(s->latency_inter_us) && s->latency_inter_us >= 0.0 &&
          s->latency_inter_us <= 1e6) ||
        !(isfinite(s->net_overhead_us) && s->net_overhead_us <= 1e6))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "latency_inter_us / net_overhead_us out of range");
    if (!(isfinite(s->nvlink_bw_GBps) && s->nvlink_bw_GBps >= 0.0 && s->nvlink_bw_GBps <= 1e6))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "nvlink_bw_GBps out of range");
    if (!(isfinite(s->p2p_intra_GBps) && s->p2p_intra_GBps >= 0.0 && s->p2p_intra_GBps <= 1e6) ||
        !(isfinite(s->nic_GBps) && s->nic_GBps >= 0.0 && s->nic_GBps <= 1e6) ||
        s->nics_per_node < 0 || s->nics_per_node > 1000000)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "p2p_intra_GBps, nic_GBps or nics_per_node out of range");
    if (!(isfinite(s->pci_bw_GBps) && s->pci_bw_GBps > 0.0 && s->pci_bw_GBps <= 1e6))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "pci_bw_GBps must be > 0");
    for (int a = 0; a < COLLCALC_NCCL_NUM_ALGOS; a++) {
        const collcalc_nccl_graph *g = &s->graphs[a];
        if (g->nchannels < 0 || g->nchannels > 64)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "graphs[%s].nchannels must be 0..64 (got %d)",
                                      collcalc_nccl_algo_name((collcalc_nccl_algo)a), g->nchannels);
        if (g->nchannels > 0 &&
            !(isfinite(g->bw_intra_GBps) && g->bw_intra_GBps > 0.0 && g->bw_intra_GBps <= 1e5 &&
              isfinite(g->bw_inter_GBps) && g->bw_inter_GBps >= 0.0 && g->bw_inter_GBps <= 1e5))
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "graphs[%s]: bw_intra_GBps must be > 0, bw_inter_GBps >= 0, both <= 1e5",
                                      collcalc_nccl_algo_name((collcalc_nccl_algo)a));
        if ((unsigned)g->type_intra > COLLCALC_NCCL_PATH_SYS ||
            (unsigned)g->type_inter > COLLCALC_NCCL_PATH_SYS)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "graphs[%s]: path type out of range",
                                      collcalc_nccl_algo_name((collcalc_nccl_algo)a));
    }
    return COLLCALC_OK;
}

/* Tree all-reduce across nodes, from what it moves (FIX_TREE_NET). NCCL
 * runs a chain inside each node and a double binary tree between nodes,
 * each tree carrying half the data. Over the network a node sends and
 * receives, summed over both trees: on 2 nodes S (root of one tree, leaf
 * of the other); on 3 nodes at most 1.5 S (the node that is a root with two
 * children in one tree and a leaf in the other); from 4 nodes on 2 S (an
 * inner node with a parent and two children, 1.5 S, and a leaf, 0.5 S).
 * The ring moves 2 (p-1)/p S through the same NICs, so the network lets the
 * tree run at the ring's network rate / that share. Inside the node the
 * chain forwards S up and S down per GPU (2 S, as the ring's 2 (p-1)/p S),
 * at the GPU's NVLink rate. NCCL's own Tree bandwidth (perChMaxTreeBw per
 * channel, 24 GB/s on Blackwell at >= 3 nodes) says 177 GB/s busbw for
 * 3 x 8 GB200 GPUs with 8 NICs each, where NVIDIA's users measure 485
 * (nccl#1801, NVL8 partitions, NCCL_ALGO=Tree); this gives 491 before the
 * fabric's share, and 245 for the NVL4 partitions (234 measured). Returns
 * the algbw, 0 when the system does not say enough. */
static double tree_net_alg_GBps(const ctx_t *c)
{
    const collcalc_nccl_system *s = c->sys;
    const collcalc_nccl_graph *ring = &s->graphs[COLLCALC_NCCL_RING];
    if (ring->nchannels <= 0 || c->nodes < 2)
        return 0.0;
    double per_channel = ring->bw_inter_GBps > 0.0 ? ring->bw_inter_GBps : ring->bw_intra_GBps;
    double network = (double)ring->nchannels * per_channel; /* the ring's rate through the NICs */
    double share = c->nodes == 2 ? 1.0 : c->nodes == 3 ? 1.5 : 2.0;
    double alg = network / share;
    if (c->ppn > 1) {
        double intra = s->nvlink_bw_GBps > 0.0 ? s->nvlink_bw_GBps : s->pci_bw_GBps;
        if (intra / 2.0 < alg)
            alg = intra / 2.0;
    }
    return alg > 0.0 && isfinite(alg) ? alg : 0.0;
}

/* collcalc's prediction for one available candidate. */
static void correct(const ctx_t *c, const collcalc_nccl_options *o, collcalc_nccl_candidate *cand,
                    double bytes, double lat, double alg)
{
    const collcalc_nccl_system *s = c->sys;
    unsigned fix = o->corrections;
    collcalc_nccl_algo a = cand->algo;
    double graph_bus = (double)s->graphs[a].nchannels *
                       ((c->nodes <= 2 || s->graphs[a].bw_inter_GBps <= 0.0)
                            ? s->graphs[a].bw_intra_GBps
                            : s->graphs[a].bw_inter_GBps);

    if ((fix & COLLCALC_NCCL_FIX_SHM) && !s->p2p && c->nodes == 1 && graph_bus > 0.0) {
        double shm = s->pci_bw_GBps / FIX_SHM_CROSSINGS;
        if (shm < graph_bus)
            alg *= shm / graph_bus;
    }
    /* NVLS all-reduce: in the reduce-scatter each GPU sends its S into the
     * switch and receives its reduced S/n; in the all-gather it sends that
     * S/n and receives the S the switch multicasts: S (n+1)/n each way per
     * GPU, so algbw <= the GPU's NVLink bandwidth x n/(n+1) (NVIDIA in
     * nccl-tests#212: "The NVLS formula would actually be algbw = busbw *
     * n / (n+1)"), times NCCL's own nvlsEfficiency. n is the GPUs on the
     * switch (ppn): 0.8 on 4 GPUs, 0.89 on 8, 0.99 on 72. NCCL's 2.23-2.27
     * formula (ratio 5/6) overshoots it on large NVLink domains (GB200
     * NVL72: 1.3 TB/s busbw predicted, ~840 measured). */
    if ((fix & COLLCALC_NCCL_FIX_NVLS_CAP) &&
        (a == COLLCALC_NCCL_NVLS || a == COLLCALC_NCCL_NVLS_TREE) && s->nvlink_bw_GBps > 0.0) {
        double eff = c->k->nvls_efficiency[c->row];
        if (eff <= 0.0)
            eff = 0.85;
        double cap = s->nvlink_bw_GBps * eff * (double)c->ppn / (double)(c->ppn + 1);
        if (alg > cap)
            alg = cap;
    }
    /* NVLSTree runs an NVLS reduce-scatter and all-gather inside each node
     * around the network step, so it cannot beat that node's NVLS: its
     * algbw is capped at what the NVLS formula gives for the node alone
     * (2.28+ shape, bwInter = bwIntra). NVIDIA's 2-node HGX H100 NVLSTree
     * run reaches ~470 GB/s busbw, the single-node NVLS figure, not the
     * 765 that NCCL 2.30's formula gives for 8 x 400G. */
    if ((fix & COLLCALC_NCCL_FIX_NVLS_CAP) && a == COLLCALC_NCCL_NVLS_TREE) {
        const collcalc_nccl_graph *g = &s->graphs[a];
        double nch = (double)g->nchannels;
        double eff = c->k->nvls_efficiency[c->row] > 0.0 ? c->k->nvls_efficiency[c->row] : 0.85;
        double per = 2.0 * eff * g->bw_intra_GBps * (nch - 1.0) / nch;
        if (per > g->bw_intra_GBps)
            per = g->bw_intra_GBps;
        double cap = nch * per * (double)c->p / (double)c->nsteps;
        if (alg > cap)
            alg = cap;
    }
    if ((fix & COLLCALC_NCCL_FIX_TREE_NET) && a == COLLCALC_NCCL_TREE && c->nodes > 1 &&
        c->func == COLLCALC_NCCL_ALLREDUCE && cand->proto != COLLCALC_NCCL_LL) {
        double tree = tree_net_alg_GBps(c);
        if (tree > 0.0) {
            if (cand->proto == COLLCALC_NCCL_LL128)
                tree *= 120.0 / 128.0; /* LL128's data share of a line, as NCCL's own factor */
            /* NCCL's tree correction by size still shapes mid sizes. */
            if (bytes >= 64.0) {
                int log_size = log2i((long long)(bytes / 64.0));
                if (log_size < 23)
                    tree *= c->k->tree_correction[cand->proto][log_size];
            }
            alg = tree;
        }
    }
    if ((fix & COLLCALC_NCCL_FIX_FABRIC) && c->nodes > 2)
        alg *= s->fabric_efficiency;
    if ((fix & COLLCALC_NCCL_FIX_RAMP) && cand->channels_run < cand->channels) {
        /* NCCL's own bandwidth formula on the channels that run: the
         * per-channel terms shrink, the aggregate caps (llMaxBw) stay. */
        collcalc_nccl_system fewer = *s;
        fewer.graphs[a].nchannels = cand->channels_run;
        ctx_t shrunk = *c;
        shrunk.sys = &fewer;
        double bus_all = 0.0, alg_all = 0.0, bus_run = 0.0, alg_run = 0.0;
        bandwidth(c, a, cand->proto, &bus_all, &alg_all);
        bandwidth(&shrunk, a, cand->proto, &bus_run, &alg_run);
        if (alg_all > 0.0 && alg_run > 0.0 && alg_run < alg_all)
            alg *= alg_run / alg_all;
    }

    if ((fix & COLLCALC_NCCL_FIX_TRANSPORT) && c->nodes > 1)
        lat += (double)network_steps(c, a) * fix_transport_step_us[s->transport];
    if ((fix & COLLCALC_NCCL_FIX_SYMMETRIC) && c->k->symmetric_kernels && s->symmetric &&
        c->nodes == 1) {
        double floor_us = c->row >= COLLCALC_NCCL_BLACKWELL || s->min_sm >= 100
                              ? FIX_SYMMETRIC_BLACKWELL_US
                              : FIX_SYMMETRIC_HOPPER_US;
        if (floor_us < lat)
            lat = floor_us;
    }

    double band = alg > 0.0 ? bytes / (1000.0 * alg) : 0.0;
    bool shm = (fix & COLLCALC_NCCL_FIX_SHM) && !s->p2p && c->nodes == 1;
    bool symmetric = (fix & COLLCALC_NCCL_FIX_SYMMETRIC) && c->k->symmetric_kernels &&
                     s->symmetric && c->nodes == 1;
    if ((fix & COLLCALC_NCCL_FIX_RAMP) && cand->proto == COLLCALC_NCCL_SIMPLE && alg > 0.0 &&
        !(a == COLLCALC_NCCL_RING && c->nodes > 1 && c->func == COLLCALC_NCCL_ALLREDUCE) && !shm && !symmetric) {
        double fill = (double)(cand->channels_run > 0 ? cand->channels_run : cand->channels) *
                      FIX_RAMP_CHUNK_BYTES;
        band += (fill * bytes / (bytes + fill)) / (1000.0 * alg);
    }
    /* The host floor: the host's stage of the pipeline shows through the
     * latency term when it is the longer one. */
    if (fix & COLLCALC_NCCL_FIX_LAUNCH) {
        double host = nccl_host_issue_us(s, c->ppn);
        if (host > lat + band)
            lat = host - band;
    }
    cand->latency_pred_us = lat;
    cand->bandwidth_pred_us = band;
    cand->time_us = lat + band;
}

collcalc_status collcalc_nccl_predict(const collcalc_nccl_system *system,
                                      const collcalc_nccl_constants *constants,
                                      const collcalc_nccl_options *options, collcalc_nccl_func func,
                                      uint64_t size_bytes, collcalc_nccl_prediction *out,
                                      collcalc_diag *diag)
{
    if (system == NULL || constants == NULL || options == NULL || out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "missing system, constants, "
                                  "options or output");
    if ((unsigned)func >= COLLCALC_NCCL_NUM_ALL_FUNCS)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown function %d", (int)func);
    if (size_bytes > COLLCALC_NCCL_SIZE_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "size_bytes: %" PRIu64 " bytes is above 1 PiB, the largest size "
                                  "NCCL's model costs (the alpha-beta model costs any size)",
                                  size_bytes);
    collcalc_status status = check_system(system, diag);
    if (status != COLLCALC_OK)
        return status;
    if (func == COLLCALC_NCCL_ALLTOALL || func == COLLCALC_NCCL_SENDRECV)
        return nccl_predict_p2p(system, constants, options, func, size_bytes, out, diag);

    memset(out, 0, sizeof *out);
    out->func = func;
    out->size_bytes = size_bytes;
    out->nccl_bytes = size_bytes; /* nccl-tests' AG/RS size is already the whole buffer */
    out->busbw_factor = collcalc_nccl_busbw_factor(func, system->nranks);
    out->candidate_count = (size_t)COLLCALC_NCCL_NUM_ALGOS * COLLCALC_NCCL_NUM_PROTOS;
    out->selected = -1;

    ctx_t c;
    c.sys = system;
    c.k = constants;
    c.func = func;
    c.fix = options->corrections;
    c.p = system->nranks;
    c.nodes = system->nnodes;
    c.ppn = c.p / c.nodes;
    c.scale = c.nodes == 1 ? 0 : c.nodes == 2 ? 1 : 2;
    c.nsteps = nsteps_of(func, c.p);
    c.row = (int)arch_of(system->min_sm);
    if (c.row == COLLCALC_NCCL_BLACKWELL && !constants->blackwell_row)
        c.row = COLLCALC_NCCL_HOPPER;
    c.ll_row = c.nodes == 1 ? c.row : (system->cpu == COLLCALC_NCCL_CPU_AMD ? 1 : 0);
    c.x86 = system->cpu == COLLCALC_NCCL_CPU_INTEL || system->cpu == COLLCALC_NCCL_CPU_AMD;

    double bytes = (double)size_bytes;
    bool any_allowed = false;
    double best = 0.0;
    for (int a = 0; a < COLLCALC_NCCL_NUM_ALGOS; a++) {
        for (int pr = 0; pr < COLLCALC_NCCL_NUM_PROTOS; pr++) {
            collcalc_nccl_candidate *cand = &out->candidates[a * COLLCALC_NCCL_NUM_PROTOS + pr];
            cand->algo = (collcalc_nccl_algo)a;
            cand->proto = (collcalc_nccl_proto)pr;
            cand->unavailable = availability(&c, cand->algo, cand->proto);
            if (cand->unavailable == COLLCALC_NCCL_OK &&
                (!(options->algo_mask[func] & (1u << a)) ||
                 !(options->proto_mask[func] & (1u << pr))))
                cand->unavailable = COLLCALC_NCCL_FORCED_OFF;
            if (cand->unavailable != COLLCALC_NCCL_OK)
                continue;
            if (c.p == 1)
                continue; /* one rank moves nothing */
            cand->channels = system->graphs[a].nchannels;
            cand->channels_run = channels_run(&c, cand->algo, cand->proto, size_bytes);
            double bus = 0.0, alg = 0.0, lat = 0.0;
            if (!nccl_cost(&c, cand->algo, cand->proto, size_bytes, &bus, &alg, &lat)) {
                cand->unavailable = COLLCALC_NCCL_NO_HARDWARE; /* bandwidth 0: NCCL skips it */
                continue;
            }
            any_allowed = true;
            cand->bus_bw_GBps = bus;
            cand->alg_bw_GBps = alg;
            cand->latency_us = lat;
            cand->nccl_time_us = lat + bytes / (1000.0 * alg);
            if (out->selected < 0 || cand->nccl_time_us < best) {
                best = cand->nccl_time_us;
                out->selected = a * COLLCALC_NCCL_NUM_PROTOS + pr;
            }
            if (options->corrections == 0) {
                cand->latency_pred_us = lat;
                cand->bandwidth_pred_us = bytes / (1000.0 * alg);
                cand->time_us = cand->nccl_time_us;
            } else {
                /* The predicted time starts from the most refined model
                 * (options->refined) when given: NCCL's later releases
                 * describe the same hardware better, whatever release runs. */
                double rbus = bus, ralg = alg, rlat = lat;
                if (options->refined != NULL && options->refined != constants) {
                    ctx_t r = c;
                    r.k = options->refined;
                    r.row = (int)arch_of(system->min_sm);
                    if (r.row == COLLCALC_NCCL_BLACKWELL && !r.k->blackwell_row)
                        r.row = COLLCALC_NCCL_HOPPER;
                    r.ll_row = r.nodes == 1 ? r.row : c.ll_row;
                    if (!nccl_cost(&r, cand->algo, cand->proto, size_bytes, &rbus, &ralg, &rlat)) {
                        ralg = alg;
                        rlat = lat;
                    }
                }
                (void)rbus;
                correct(&c, options, cand, bytes, rlat, ralg);
            }
            if (size_bytes == 0) {
                /* NCCL returns at once for a zero-byte call (nccl-tests
                 * prints ~0.3 us of host time for such rows). */
                cand->latency_pred_us = 0.0;
                cand->bandwidth_pred_us = 0.0;
                cand->time_us = 0.0;
            }
            if (cand->time_us > 0.0) {
                cand->algbw_GBps = bytes / (1000.0 * cand->time_us);
                cand->busbw_GBps = cand->algbw_GBps * out->busbw_factor;
            }
            if (cand->nccl_time_us > 0.0 && bytes > 0.0)
                cand->nccl_busbw_GBps = bytes / (1000.0 * cand->nccl_time_us) * out->busbw_factor;
        }
    }
    if (c.p == 1)
        return COLLCALC_OK;
    nccl_fill_bands(system, out);
    if (!any_allowed)
        return collcalc_diag_fail(diag, COLLCALC_ERR_UNSUPPORTED,
                                  "no NCCL algorithm and protocol can run %s here (check "
                                  "NCCL_ALGO/NCCL_PROTO and the system's graphs)",
                                  collcalc_nccl_func_name(func));
    out->candidates[out->selected].selected = true;
    return COLLCALC_OK;
}
