/* From hardware to what NCCL's topology search would report: channels and
 * per-channel bandwidths for every algorithm (the model's input values).
 *
 * The figures are NCCL's (src/graph/topo.h, search.cc, as summarised in
 * data/README.md, section nccl.json); where NCCL's search is too intricate
 * to replay, the rule used instead is stated next to it. */
#include "collcalc/nccl_model.h"
#include "collcalc/fit.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* Search speeds (GB/s per channel), descending, from NCCL's search.cc. */
static const double intra_pre90[] = {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3};
static const double intra_sm90[] = {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3};
static const double intra_sm100[] = {90, 80, 70, 60, 50, 45, 40, 30, 24, 20, 19, 18};
static const double inter_pre90[] = {48, 30, 28, 24, 20, 18,  15,  12,   10,  9,
                                     7,  6,  5,  4,  3,  2.4, 1.2, 0.24, 0.12};
static const double inter_sm90[] = {48, 45, 42, 40, 30,  24,  22,   20,  17.5,
                                    15, 12, 6,  3,  2.4, 1.2, 0.24, 0.12};
static const double inter_sm100[] = {96, 86,   80, 48, 45.1, 42, 40,  30,  24,   22,
                                     20, 17.5, 15, 12, 6,    3,  2.4, 1.2, 0.24, 0.12};

/* Ring search channels: MAXCHANNELS / 2. */
#define SEARCH_MAX_CHANNELS 32
/* NVLS channels NCCL builds on NVSwitch systems (NCCL_NVLS_NCHANNELS default). */
#define NVLS_CHANNELS 16
/* NVLS per-channel speed: NCCL's NVLS graph reports a per-channel bandwidth
 * that, through its tuning formula, gives the NVLS busbw NVIDIA states:
 * ~480 GB/s on 8x H100 (nccl-tests#212), "830+" on 8x B200 (nccl#1807);
 * as a share of the GPU's NVLink bandwidth as NCCL counts it (370.8 and
 * 721.8 GB/s) that is 1.3 and 1.15. */
#define NVLS_PEAK_SHARE_HOPPER 1.3
/* Beyond 2 nodes the fabric (routing, rails, oversubscription) delivers
 * less than the NICs: NVIDIA calls ~320 GB/s on 8 HGX H100 nodes "possible,
 * depending on your network" where 2 nodes reach ~392 (nccl-tests#309:
 * 0.82), and 8x400G RoCE H100 clusters report ~320 beyond 2 nodes
 * (nccl#1221). collcalc assumes the loss grows with the fabric's depth:
 * 1 - 0.06 log2(N / 2), at least 0.7 (4 nodes 0.94, 8 nodes 0.88, 16 nodes
 * 0.82), unless told (system.fabric_efficiency, or a fit). The loss is
 * congestion, so it grows with the traffic the nodes offer: a job that
 * drives g of a node's G GPUs (and their NICs) loads the fabric g / G as
 * much and loses that share of it ("If you have one GPU per node the
 * BusBw should be the NIC BW", NVIDIA in nccl-tests#130, whatever the node
 * count). */
#define FABRIC_LOSS_PER_DOUBLING 0.06
#define FABRIC_EFFICIENCY_MIN 0.7
#define NVLS_PEAK_SHARE_BLACKWELL 1.15
/* NVLS/NVLSTree per-channel network speed across nodes: the NICs' share
 * per channel, as the ring's (highest inter-node speed <= NICs x speed /
 * channels). */

void collcalc_nccl_hardware_init(collcalc_nccl_hardware *hardware)
{
    if (hardware == NULL)
        return;
    memset(hardware, 0, sizeof *hardware);
    hardware->sm = 90;
    hardware->cpu = COLLCALC_NCCL_CPU_INTEL;
    hardware->gpus_per_node = 8;
    hardware->nodes = 1;
    hardware->nvlink_links_per_gpu = 18;
    hardware->nvswitch = true;
    hardware->nvls = true;
    hardware->p2p = true;
    hardware->pci_bw_GBps = 48.0;
    hardware->nics_per_node = 8;
    hardware->nic_GBps = 50.0;
    hardware->transport = COLLCALC_NCCL_NET_IB;
    hardware->launch = COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
}

/* NVLink bandwidth per link by SM (topo.h: SM60 18, SM70 20, SM80 20,
 * SM86 12, SM90 20.6, SM100 40.1). */
static double nvlink_per_link(int sm)
{
    if (sm >= 100)
        return 40.1;
    if (sm >= 90)
        return 20.6;
    if (sm >= 86)
        return 12.0;
    if (sm >= 70)
        return 20.0;
    return 18.0;
}

static void speed_list(int sm, bool inter, const double **list, size_t *count)
{
    if (sm >= 100) {
        *list = inter ? inter_sm100 : intra_sm100;
        *count = inter ? COUNT_OF(inter_sm100) : COUNT_OF(intra_sm100);
    } else if (sm >= 90) {
        *list = inter ? inter_sm90 : intra_sm90;
        *count = inter ? COUNT_OF(inter_sm90) : COUNT_OF(intra_sm90);
    } else {
        *list = inter ? inter_pre90 : intra_pre90;
        *count = inter ? COUNT_OF(inter_pre90) : COUNT_OF(intra_pre90);
    }
}

/* Highest listed speed <= limit (the list's last entry when none is). */
static double speed_at_most(int sm, bool inter, double limit)
{
    const double *list;
    size_t count;
    speed_list(sm, inter, &list, &count);
    for (size_t i = 0; i < count; i++)
        if (list[i] <= limit)
            return list[i];
    return list[count - 1];
}

/* The search's result on one node: the speed s that maximises channels x s
 * with channels = floor(total / s) <= 32 (ties to the higher speed, which
 * the search tries first). */
static void search_intra(int sm, double total, int *out_nch, double *out_bw)
{
    const double *list;
    size_t count;
    speed_list(sm, false, &list, &count);
    int best_n = 1;
    double best_s = list[count - 1], best = 0.0;
    for (size_t i = 0; i < count; i++) {
        double n = floor(total / list[i] + 1e-9);
        if (n > SEARCH_MAX_CHANNELS)
            n = SEARCH_MAX_CHANNELS;
        if (n >= 1 && n * list[i] > best + 1e-9) {
            best = n * list[i];
            best_n = (int)n;
            best_s = list[i];
        }
    }
    if (best == 0.0) {
        best_n = 1;
        best_s = speed_at_most(sm, false, total);
    }
    *out_nch = best_n;
    *out_bw = best_s;
}

/* Across nodes each channel leaves through one NIC: channels per NIC =
 * floor(nic / s), same maximisation. Inside the node every channel also
 * crosses the GPUs' NVLink: of a node's ppn GPUs, ppn - 1 forward each
 * channel over NVLink (one sends it to the NIC over PCIe), so the channels
 * a GPU carries, channels x s x (ppn - 1) / ppn, cannot exceed what its
 * NVLink moves (intra_total, as NCCL counts it). NCCL's search subtracts
 * each channel's speed from every link it crosses in the same way
 * (search.cc); without this bound a 64-GPU NVLink domain per node (two
 * GB200 NVL72 racks joined by InfiniBand) would get 32 channels x 48 GB/s,
 * twice what one GPU's NVLink carries. On an 8-GPU HGX node the bound is
 * not reached (8 x 48 x 7/8 = 336 < 370.8). */
static void search_inter(int sm, int nics, double nic, double intra_total, int ppn, int *out_nch,
                         double *out_bw)
{
    const double *list;
    size_t count;
    speed_list(sm, true, &list, &count);
    int best_n = 1;
    double best_s = list[count - 1], best = 0.0;
    for (size_t i = 0; i < count; i++) {
        if (list[i] > intra_total)
            continue;
        double per_nic = floor(nic / list[i] + 1e-9);
        double n = per_nic * (double)nics;
        if (n > SEARCH_MAX_CHANNELS)
            n = SEARCH_MAX_CHANNELS;
        if (ppn > 1) {
            double through = floor(intra_total / (list[i] * (ppn - 1.0) / ppn) + 1e-9);
            if (n > through)
                n = through;
        }
        if (n >= 1 && n * list[i] > best + 1e-9) {
            best = n * list[i];
            best_n = (int)n;
            best_s = list[i];
        }
    }
    *out_nch = best_n;
    *out_bw = best_s;
}

/* Channel duplication (search.cc): at >= 25 GB/s per channel the channels
 * are doubled and the speed halved, except on SM > 80 below 50 GB/s with
 * more than 4 channels. */
static void duplicate(int sm, int *nch, double *bw)
{
    if (*bw >= 25.0 && !(sm > 80 && *bw < 50.0 && *nch > 4)) {
        int doubled = *nch * 2 > 64 ? 64 : *nch * 2;
        *bw = *bw * (double)*nch / (double)doubled;
        *nch = doubled;
    }
}

collcalc_status collcalc_nccl_system_derive(const collcalc_nccl_hardware *hw,
                                            collcalc_nccl_system *out, collcalc_diag *diag)
{
    if (hw == NULL || out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no hardware or output");
    if (hw->sm < 30 || hw->sm > 200)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "sm must be 30..200 (got %d)",
                                  hw->sm);
    if (hw->gpus_per_node < 1 || hw->gpus_per_node > 100000 || hw->nodes < 1 ||
        hw->nodes > 100000 || (long long)hw->gpus_per_node * hw->nodes > 1000000)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "gpus_per_node and nodes must be >= 1 (at most 1000000 GPUs)");
    if (hw->nvlink_links_per_gpu < 0 || hw->nvlink_links_per_gpu > 64)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "nvlink_links_per_gpu must be 0..64");
    if (!(isfinite(hw->pci_bw_GBps) && hw->pci_bw_GBps > 0.0 && hw->pci_bw_GBps <= 1e4))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "pci_bw_GBps must be in (0, 1e4]");
    if (hw->nodes > 1 && (hw->nics_per_node < 1 || hw->nics_per_node > 1024 ||
                          !(isfinite(hw->nic_GBps) && hw->nic_GBps > 0.0 && hw->nic_GBps <= 1e4)))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "more than one node needs nics_per_node 1..1024 and nic_GBps "
                                  "in (0, 1e4]");
    if ((unsigned)hw->transport >= COLLCALC_NCCL_NUM_TRANSPORTS ||
        (unsigned)hw->cpu > COLLCALC_NCCL_CPU_OTHER ||
        (unsigned)hw->launch > COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "transport, cpu or launch out of range");

    collcalc_nccl_system_init(out);
    int sm = hw->sm;
    out->min_sm = sm;
    out->cpu = hw->cpu;
    out->nranks = hw->gpus_per_node * hw->nodes;
    out->nnodes = hw->nodes;
    out->transport = hw->transport;
    out->launch = hw->launch;
    out->p2p = hw->nvlink_links_per_gpu > 0 || hw->p2p;
    out->pci_bw_GBps = hw->pci_bw_GBps;
    out->nvswitch = hw->nvswitch;
    /* NCCL's ncclNvlsInit (src/transport/nvls.cc, 2.17-2.29) turns NVLS off
     * when the node holds 2 GPUs or fewer (doc/MODEL.md, NVLS): a job of one
     * or two GPUs per node runs Ring/Tree across nodes. */
    out->nvls_support = hw->nvls && hw->nvswitch && sm >= 90 && hw->nvlink_links_per_gpu > 0 &&
                        hw->gpus_per_node > 2;
    out->fabric_efficiency = 1.0;
    if (hw->nodes > 2) {
        double load = hw->fabric_load > 0.0 && hw->fabric_load < 1.0 ? hw->fabric_load : 1.0;
        double eff = 1.0 - FABRIC_LOSS_PER_DOUBLING * log2((double)hw->nodes / 2.0) * load;
        out->fabric_efficiency = eff < FABRIC_EFFICIENCY_MIN ? FABRIC_EFFICIENCY_MIN : eff;
    }

    /* What one GPU can push inside the node, as NCCL counts it. */
    bool nvlink = hw->nvlink_links_per_gpu > 0;
    double intra_total =
        nvlink ? (double)hw->nvlink_links_per_gpu * nvlink_per_link(sm)
               : (out->p2p ? hw->pci_bw_GBps : (hw->pci_bw_GBps < 12.0 ? hw->pci_bw_GBps : 12.0));
    /* Without P2P the path goes through the CPU: NCCL reports it as PHB and
     * counts at most PCI_BW = 12 GB/s (the L40S log: "bw 12/12, type PHB"). */
    out->nvlink_bw_GBps = nvlink ? intra_total : 0.0;
    collcalc_nccl_path type_intra = nvlink     ? COLLCALC_NCCL_PATH_NVL
                                    : out->p2p ? COLLCALC_NCCL_PATH_PIX
                                               : COLLCALC_NCCL_PATH_PHB;

    int nch = 1;
    double bw = 1.0;
    if (hw->nodes == 1) {
        search_intra(sm, intra_total, &nch, &bw);
    } else {
        /* With one GPU per node nothing inside the node limits the speed. */
        search_inter(sm, hw->nics_per_node, hw->nic_GBps,
                     hw->gpus_per_node == 1 ? 1e9 : intra_total, hw->gpus_per_node, &nch, &bw);
    }
    duplicate(sm, &nch, &bw);

    /* For all-to-all and send/recv (src/nccl/p2p.c): what one GPU moves to
     * the others of its node, as the one-node ring search finds it, and
     * what one NIC carries as NCCL's inter-node speeds count it: the best
     * channels x speed that fits the port with at most 2 channels, NCCL's
     * default NCCL_NCHANNELS_PER_NET_PEER for point-to-point (48 of a 400G
     * NIC's 50, 96 of 800G's 100, 12 of 100G's 12.5). */
    if (hw->gpus_per_node > 1) {
        int intra_nch = 1;
        double intra_bw = 1.0;
        search_intra(sm, intra_total, &intra_nch, &intra_bw);
        out->p2p_intra_GBps = (double)intra_nch * intra_bw;
    }
    if (hw->nodes > 1) {
        const double *list;
        size_t count;
        speed_list(sm, true, &list, &count);
        double best = 0.0;
        for (size_t i = 0; i < count; i++) {
            double per_nic = floor(hw->nic_GBps / list[i] + 1e-9);
            double carried = (per_nic > 2.0 ? 2.0 : per_nic) * list[i];
            if (carried > best)
                best = carried;
        }
        out->nic_GBps = best > 0.0 ? best : hw->nic_GBps;
        out->nics_per_node = hw->nics_per_node;
    }

    collcalc_nccl_graph ring;
    memset(&ring, 0, sizeof ring);
    ring.nchannels = nch;
    ring.bw_intra_GBps = bw;
    ring.bw_inter_GBps = bw;
    ring.type_intra = type_intra;
    /* GPUDirect RDMA through a PCIe switch next to the GPU (PIX); sockets
     * and TCP transports go through host memory (PHB). */
    ring.type_inter =
        (hw->transport == COLLCALC_NCCL_NET_SOCKET || hw->transport == COLLCALC_NCCL_NET_TCPX)
            ? COLLCALC_NCCL_PATH_PHB
            : COLLCALC_NCCL_PATH_PIX;
    ring.same_channels = false;
    out->graphs[COLLCALC_NCCL_RING] = ring;

    /* Tree: the same search. Where two or more GPUs share a NIC the tree
     * search is taken to find that many channels per NIC (each tree channel
     * uses a NIC in one direction per tree). This is collcalc's assumption,
     * not NCCL's code: it is what makes NCCL pick the tree on 2 x p4de
     * (8 GPUs, 4 EFA NICs) and reproduces that run's 78 GB/s busbw, above
     * the 50 GB/s the NICs carry per node, which a ring cannot reach. */
    collcalc_nccl_graph tree = ring;
    if (hw->nodes > 1 && hw->nics_per_node < hw->gpus_per_node) {
        int share = hw->gpus_per_node / hw->nics_per_node;
        tree.nchannels = ring.nchannels * share > 32 ? 32 : ring.nchannels * share;
    }
    tree.tree_pattern_single_nic = hw->nodes > 1 && hw->nics_per_node == 1 && hw->gpus_per_node > 1;
    out->graphs[COLLCALC_NCCL_TREE] = tree;

    /* PAT runs on the ring's channels (one GPU per node). */
    out->graphs[COLLCALC_NCCL_PAT] = ring;

    if (out->nvls_support) {
        double share = sm >= 100 ? NVLS_PEAK_SHARE_BLACKWELL : NVLS_PEAK_SHARE_HOPPER;
        double speed = speed_at_most(sm, false, intra_total * share / NVLS_CHANNELS);
        collcalc_nccl_graph nvls;
        memset(&nvls, 0, sizeof nvls);
        nvls.nchannels = NVLS_CHANNELS;
        nvls.bw_intra_GBps = speed;
        nvls.bw_inter_GBps = speed;
        nvls.type_intra = COLLCALC_NCCL_PATH_NVL;
        nvls.type_inter = ring.type_inter;
        if (hw->nodes > 1) {
            double nic_total = (double)hw->nics_per_node * hw->nic_GBps;
            nvls.bw_inter_GBps = speed_at_most(sm, true, nic_total / NVLS_CHANNELS);
            out->graphs[COLLCALC_NCCL_NVLS_TREE] = nvls;
        }
        out->graphs[COLLCALC_NCCL_NVLS] = nvls;
    }
    return COLLCALC_OK;
}

/* NCCL's PCI figure (topo.h: width x per-lane rate / 80) from a PCIe link's
 * bandwidth per direction: Gen3 x16 (15.75) 12, Gen4 24, Gen5 48, Gen6 96. */
static double nccl_pci_GBps(double per_direction)
{
    if (per_direction <= 16.0)
        return 12.0;
    if (per_direction <= 32.0)
        return 24.0;
    if (per_direction <= 64.0)
        return 48.0;
    return 96.0;
}

collcalc_status collcalc_nccl_hardware_from_platform(const collcalc_platform *platform,
                                                     const collcalc_link_table *links, int nodes,
                                                     int gpus_per_node, collcalc_nccl_launch launch,
                                                     collcalc_nccl_hardware *out,
                                                     collcalc_diag *diag)
{
    if (platform == NULL || links == NULL || out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no platform, links or output");
    if (platform->gpu_arch == COLLCALC_GPU_ARCH_UNKNOWN)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "platform '%s' does not state its GPU architecture (gpu_arch), "
                                  "which NCCL's model needs",
                                  platform->name);
    if (nodes < 1 || nodes > 100000)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "nodes must be 1..100000 (got %d)",
                                  nodes);
    if (gpus_per_node < 0 || gpus_per_node > platform->gpus_per_node)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "platform '%s' has %d GPUs per node (NVLink domain); %d do not "
                                  "fit",
                                  platform->name, platform->gpus_per_node, gpus_per_node);
    const collcalc_link *intra = collcalc_link_table_find(links, platform->intra_link);
    const collcalc_link *inter = collcalc_link_table_find(links, platform->inter_link);
    if (intra == NULL || inter == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "platform '%s': link '%s' or '%s' is not in the link table",
                                  platform->name, platform->intra_link, platform->inter_link);
    collcalc_nccl_hardware_init(out);
    out->sm = collcalc_gpu_arch_nccl_sm(platform->gpu_arch);
    switch (platform->cpu_vendor) {
    case COLLCALC_CPU_VENDOR_INTEL: out->cpu = COLLCALC_NCCL_CPU_INTEL; break;
    case COLLCALC_CPU_VENDOR_AMD: out->cpu = COLLCALC_NCCL_CPU_AMD; break;
    case COLLCALC_CPU_VENDOR_ARM: out->cpu = COLLCALC_NCCL_CPU_ARM; break;
    default: out->cpu = COLLCALC_NCCL_CPU_OTHER; break;
    }
    switch (platform->transport) {
    case COLLCALC_TRANSPORT_ROCE: out->transport = COLLCALC_NCCL_NET_ROCE; break;
    case COLLCALC_TRANSPORT_EFA: out->transport = COLLCALC_NCCL_NET_EFA; break;
    case COLLCALC_TRANSPORT_TCPX: out->transport = COLLCALC_NCCL_NET_TCPX; break;
    case COLLCALC_TRANSPORT_TCPXO: out->transport = COLLCALC_NCCL_NET_TCPXO; break;
    case COLLCALC_TRANSPORT_SOCKET: out->transport = COLLCALC_NCCL_NET_SOCKET; break;
    default: out->transport = COLLCALC_NCCL_NET_IB; break; /* IB, or not stated */
    }
    out->gpus_per_node = gpus_per_node > 0 ? gpus_per_node : platform->gpus_per_node;
    out->nodes = nodes;
    out->launch = launch;
    bool nvlink = intra->link_class == COLLCALC_LINK_CLASS_NVLINK;
    out->nvlink_links_per_gpu = 0;
    if (nvlink) {
        out->nvlink_links_per_gpu = platform->nvlink_links_per_gpu;
        if (out->nvlink_links_per_gpu == 0) {
            double per_link = out->sm >= 100 ? 50.0 : 25.0;
            double count = floor(intra->bw_per_direction_GBps / per_link + 0.5);
            out->nvlink_links_per_gpu = count < 1.0 ? 1 : count > 64.0 ? 64 : (int)count;
        }
    }
    out->nvswitch = nvlink && platform->nvswitch;
    out->nvls = platform->nvls;
    out->p2p = platform->p2p;
    const collcalc_link *host = platform->host_link[0] != '\0'
                                    ? collcalc_link_table_find(links, platform->host_link)
                                    : NULL;
    if (!nvlink && intra->link_class == COLLCALC_LINK_CLASS_PCI)
        host = intra;
    out->pci_bw_GBps = host != NULL ? nccl_pci_GBps(host->bw_per_direction_GBps) : 24.0;
    out->nics_per_node = platform->nics_per_node;
    /* A partial node drives its share of the NICs (at least one). */
    if (out->gpus_per_node < platform->gpus_per_node) {
        out->fabric_load = (double)out->gpus_per_node / (double)platform->gpus_per_node;
        long long share =
            (long long)platform->nics_per_node * out->gpus_per_node / platform->gpus_per_node;
        out->nics_per_node = share < 1 ? 1 : (int)share;
    }
    out->nic_GBps = inter->bw_per_direction_GBps;
    return COLLCALC_OK;
}

/* A platform's "nccl_fit" (collcalc fit, include/collcalc/fit.h) on the
 * derived system: the fitted network step latency is what a net plugin
 * would report as its latency (NCCL adds it per network step, twice for
 * Simple), the bandwidth efficiency scales every bandwidth NCCL's graph
 * search reports, and the fabric efficiency replaces the assumed one. */
collcalc_status collcalc_nccl_system_apply_fit(const collcalc_platform_nccl_fit *fit,
                                               collcalc_nccl_system *system,
                                               collcalc_diag *diag)
{
    if (fit == NULL || system == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no fit or system");
    if (!fit->present)
        return COLLCALC_OK;
    if (!(fit->latency_inter_us >= 0.0 && fit->latency_inter_us <= 1000.0) ||
        !(fit->bw_efficiency >= 0.05 && fit->bw_efficiency <= 2.0) ||
        !(fit->fabric_efficiency == 0.0 ||
          (fit->fabric_efficiency >= 0.05 && fit->fabric_efficiency <= 1.0)))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "nccl_fit out of range: latency_inter_us 0..1000, "
                                  "bw_efficiency 0.05..2, fabric_efficiency 0.05..1 or 0");
    system->latency_inter_us += fit->latency_inter_us;
    for (int a = 0; a < COLLCALC_NCCL_NUM_ALGOS; a++) {
        system->graphs[a].bw_intra_GBps *= fit->bw_efficiency;
        system->graphs[a].bw_inter_GBps *= fit->bw_efficiency;
    }
    system->nvlink_bw_GBps *= fit->bw_efficiency;
    system->p2p_intra_GBps *= fit->bw_efficiency;
    system->nic_GBps *= fit->bw_efficiency;
    system->pci_bw_GBps *= fit->bw_efficiency;
    if (fit->fabric_efficiency > 0.0)
        system->fabric_efficiency = fit->fabric_efficiency;
    return COLLCALC_OK;
}

collcalc_status collcalc_nccl_system_from_platform(const collcalc_platform *platform,
                                                   const collcalc_link_table *links, int nodes,
                                                   int gpus_per_node, collcalc_nccl_launch launch,
                                                   collcalc_nccl_system *out_system,
                                                   collcalc_diag *diag)
{
    collcalc_nccl_hardware hardware;
    collcalc_status status = collcalc_nccl_hardware_from_platform(
        platform, links, nodes, gpus_per_node, launch, &hardware, diag);
    if (status != COLLCALC_OK)
        return status;
    status = collcalc_nccl_system_derive(&hardware, out_system, diag);
    if (status != COLLCALC_OK)
        return status;
    return collcalc_nccl_system_apply_fit(&platform->nccl_fit, out_system, diag);
}

/* The GPU's family word in a preset's gpu text ("H100 SXM" -> "H100"). */
/* The GPU's family word: the first word of the preset's "gpu" that holds a
 * digit ("A100 SXM4" -> A100, "RTX 2080 Ti" -> 2080, "GB200" -> GB200),
 * upper-cased; "" when none does ("not stated"). */
static void family_word(const char *gpu, char *out, size_t size)
{
    out[0] = '\0';
    while (*gpu != '\0') {
        while (*gpu == ' ')
            gpu++;
        size_t length = strcspn(gpu, " ");
        bool digit = false;
        for (size_t i = 0; i < length; i++)
            digit = digit || isdigit((unsigned char)gpu[i]);
        if (digit && length > 0 && length < size) {
            for (size_t i = 0; i < length; i++)
                out[i] = (char)toupper((unsigned char)gpu[i]);
            out[length] = '\0';
            return;
        }
        gpu += length;
    }
}

const collcalc_platform *collcalc_platform_guess(const collcalc_platform_table *platforms,
                                                 const char *gpu_model, int gpus_per_node)
{
    if (platforms == NULL || gpu_model == NULL || gpu_model[0] == '\0')
        return NULL;
    char model[128];
    size_t n = 0;
    for (; gpu_model[n] != '\0' && n + 1 < sizeof model; n++)
        model[n] = (char)toupper((unsigned char)gpu_model[n]);
    model[n] = '\0';
    const collcalc_platform *fallback = NULL;
    for (size_t i = 0; i < collcalc_platform_table_count(platforms); i++) {
        const collcalc_platform *p = collcalc_platform_table_at(platforms, i);
        char family[COLLCALC_NAME_MAX];
        family_word(p->gpu, family, sizeof family);
        const char *at = family[0] != '\0' ? strstr(model, family) : NULL;
        /* "H100" must not match inside "GH100"-style words: a boundary before it. */
        if (at == NULL || (at > model && isalnum((unsigned char)at[-1])))
            continue;
        /* ... nor "H100" the start of "H1000". */
        if (isdigit((unsigned char)at[strlen(family)]))
            continue;
        if (gpus_per_node <= 0 || p->gpus_per_node == gpus_per_node)
            return p;
        if (fallback == NULL && p->gpus_per_node > gpus_per_node)
            fallback = p;
    }
    return fallback;
}
