/* The NCCL-faithful model: NCCL's own tuning model (algorithm x protocol
 * cost table, availability rules, selection; doc/MODEL.md §9-§14) fed
 * with the values NCCL's topology search would produce, plus collcalc's
 * documented corrections where NCCL's model is known to be wrong (the ramp
 * of mid sizes, the launch mode, symmetric-memory kernels, SHM without P2P,
 * transports, fabric efficiency), each of which can be switched off so the
 * faithful number stays available.
 *
 * Values in, numbers out: the model never reads a table. Its constants come
 * from data/nccl.json through collcalc_nccl_constants_parse (one set per NCCL
 * version); its inputs come from collcalc_nccl_system_derive (a description
 * of the hardware) or are filled in by hand. */
#ifndef COLLCALC_NCCL_MODEL_H
#define COLLCALC_NCCL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/links.h"
#include "collcalc/model.h"
#include "collcalc/platforms.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* ------------------------------------------------------------------ */
/* Axes, in NCCL's index order (ties in selection go to the lower index). */

/* Collectives NCCL's tuner costs (NCCL_NUM_FUNCTIONS), then the two that
 * NCCL runs as point-to-point sends and its tuner does not cost: collcalc
 * costs them from what each GPU sends through NVLink and through its NICs
 * (doc/MODEL.md §13.2); they have one candidate, COLLCALC_NCCL_P2P. */
typedef enum {
    COLLCALC_NCCL_BROADCAST = 0,
    COLLCALC_NCCL_REDUCE,
    COLLCALC_NCCL_ALLGATHER,
    COLLCALC_NCCL_REDUCESCATTER,
    COLLCALC_NCCL_ALLREDUCE,
    COLLCALC_NCCL_ALLTOALL, /* not in NCCL's tuner */
    COLLCALC_NCCL_SENDRECV  /* not in NCCL's tuner: nccl-tests' shift by one */
} collcalc_nccl_func;
#define COLLCALC_NCCL_NUM_FUNCS 5     /* the ones NCCL's tuner costs (the masks' size) */
#define COLLCALC_NCCL_NUM_ALL_FUNCS 7 /* with all-to-all and send/recv */

typedef enum {
    COLLCALC_NCCL_TREE = 0,
    COLLCALC_NCCL_RING,
    COLLCALC_NCCL_COLLNET_DIRECT,
    COLLCALC_NCCL_COLLNET_CHAIN,
    COLLCALC_NCCL_NVLS,
    COLLCALC_NCCL_NVLS_TREE,
    COLLCALC_NCCL_PAT,
    COLLCALC_NCCL_P2P /* all-to-all and send/recv: point-to-point, not one of NCCL's algorithms */
} collcalc_nccl_algo;
#define COLLCALC_NCCL_NUM_ALGOS 7 /* NCCL's algorithms (COLLCALC_NCCL_P2P is not one) */

typedef enum {
    COLLCALC_NCCL_LL = 0,
    COLLCALC_NCCL_LL128,
    COLLCALC_NCCL_SIMPLE
} collcalc_nccl_proto;
#define COLLCALC_NCCL_NUM_PROTOS 3

/* Compute-capability class of the communicator's minimum SM. */
typedef enum {
    COLLCALC_NCCL_VOLTA = 0, /* SM < 80 */
    COLLCALC_NCCL_AMPERE,    /* SM 80-89 */
    COLLCALC_NCCL_HOPPER,    /* SM 90-99 */
    COLLCALC_NCCL_BLACKWELL  /* SM >= 100 */
} collcalc_nccl_arch;
#define COLLCALC_NCCL_NUM_ARCHS 4

/* Node-count bucket of NCCL's caps: 1 node, 2 nodes, 3 or more. */
#define COLLCALC_NCCL_NUM_SCALES 3

/* Hardware classes of NCCL's latency table. */
typedef enum {
    COLLCALC_NCCL_HW_NVLINK = 0,
    COLLCALC_NCCL_HW_PCI,
    COLLCALC_NCCL_HW_NET
} collcalc_nccl_hw;
#define COLLCALC_NCCL_NUM_HW 3

typedef enum {
    COLLCALC_NCCL_CPU_INTEL = 0,
    COLLCALC_NCCL_CPU_AMD,
    COLLCALC_NCCL_CPU_ARM,
    COLLCALC_NCCL_CPU_POWER,
    COLLCALC_NCCL_CPU_OTHER
} collcalc_nccl_cpu;

/* GPU-to-GPU path type inside a node, as NCCL's graph reports typeIntra
 * (NCCL's order: nearer first). */
typedef enum {
    COLLCALC_NCCL_PATH_NVL = 0, /* direct NVLink (or through NVSwitch) */
    COLLCALC_NCCL_PATH_NVB,     /* NVLink through another GPU */
    COLLCALC_NCCL_PATH_PIX,     /* one PCIe switch */
    COLLCALC_NCCL_PATH_PXB,     /* several PCIe switches */
    COLLCALC_NCCL_PATH_PXN,     /* to a NIC through another GPU (NVLink then PCIe) */
    COLLCALC_NCCL_PATH_PHB,     /* through the CPU's host bridge */
    COLLCALC_NCCL_PATH_SYS      /* across CPU sockets */
} collcalc_nccl_path;

/* Scale-out transport (NCCL sees them all as NET; collcalc does not). */
typedef enum {
    COLLCALC_NCCL_NET_IB = 0,
    COLLCALC_NCCL_NET_ROCE,
    COLLCALC_NCCL_NET_EFA,
    COLLCALC_NCCL_NET_TCPX,
    COLLCALC_NCCL_NET_TCPXO,
    COLLCALC_NCCL_NET_SOCKET
} collcalc_nccl_transport;
#define COLLCALC_NCCL_NUM_TRANSPORTS 6

/* How the benchmark drives the GPUs: one process (or thread) per GPU, or
 * one thread driving every GPU of the node (nccl-tests -g N). */
typedef enum {
    COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU = 0,
    COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS
} collcalc_nccl_launch;

/* What issues the calls: nccl-tests (a C loop around ncclAllReduce and the
 * like) or PyTorch's torch.distributed (Python and c10d's ProcessGroupNCCL
 * around the same calls). */
typedef enum {
    COLLCALC_NCCL_HARNESS_NCCL_TESTS = 0,
    COLLCALC_NCCL_HARNESS_TORCH
} collcalc_nccl_harness;

/* Host time of one CUDA kernel launch, in us: a single process driving G
 * GPUs issues G launches in a row. nccl-tests#123 (DGX A100, one process,
 * -g 2..8, NCCL_ALGO=Ring, one channel, 8-128 B) measures 10.0, 13.8, 16.9,
 * 20.8, 25.2, 29.5 and 33.7 us for 2..8 GPUs: a least-squares line of
 * 3.96 us per GPU driven through 1.6 us at 0 GPUs (COLLCALC_NCCL_HOST_CALL_US),
 * the GPU side (NCCL's Ring LL, 7.8-15 us) being below it throughout. Both
 * models use it (src/nccl/model.c's host floor, src/answer/evaluate.c). */
#define COLLCALC_NCCL_LAUNCH_US_PER_GPU 4.0

/* Host time of one call besides its kernel launches (NCCL's enqueue and
 * group end), in us: the intercept of nccl-tests#123's line above. */
#define COLLCALC_NCCL_HOST_CALL_US 1.6

/* The launch mode a user gets who does not say: nccl-tests as its README
 * runs it, `all_reduce_perf -b 8 -e 128M -f 2 -g 8` (one process driving
 * every GPU) on one host, and `mpirun -np N ... -g 1` (a process per GPU)
 * across hosts. A node of more than 8 GPUs (an NVLink domain such as GB200
 * NVL72) spans several hosts, so it is a process per GPU too. */
collcalc_nccl_launch collcalc_nccl_launch_default(int nodes, int platform_gpus_per_node);

/* "nccl-tests" or "torch" (also "torch.distributed") -> *out;
 * COLLCALC_ERR_NOT_FOUND otherwise. */
collcalc_status collcalc_nccl_harness_parse(const char *name, collcalc_nccl_harness *out);

/* The largest message collcalc_nccl_predict costs: 1 PiB (2^50 bytes), far
 * above any buffer a GPU holds; larger sizes are COLLCALC_ERR_INVALID (the
 * alpha-beta model costs sizes up to 8 EiB). */
#define COLLCALC_NCCL_SIZE_MAX (UINT64_C(1) << 50)

/* ------------------------------------------------------------------ */
/* Constants of one NCCL version (data/nccl.json). */

#define COLLCALC_NCCL_VERSION_TEXT_MAX 16
#define COLLCALC_NCCL_TREE_CORRECTION_SIZES 24
#define COLLCALC_NCCL_SOURCE_MAX 256

/* Version-dependent shapes of the NVLS formulas (doc/MODEL.md §10.3, §12;
 * the history is in data/README.md). */
typedef enum {
    COLLCALC_NCCL_NVLS_MODEL_2_18 = 0, /* ratio 5/6; latency baseLat + net; NVLSTree linear in N */
    COLLCALC_NCCL_NVLS_MODEL_2_23, /* ratio 5/6; latency replaces baseLat; bw = min(intra, inter) */
    COLLCALC_NCCL_NVLS_MODEL_2_28  /* nvlsEfficiency, (nCh-1)/nCh, x2 for AllReduce, ratio p/nsteps
                                    */
} collcalc_nccl_nvls_model;

typedef struct {
    char version[COLLCALC_NCCL_VERSION_TEXT_MAX]; /* "2.30.7" */
    int version_code;                             /* 23007 = major*10000 + minor*100 + patch */
    double base_latency_us[COLLCALC_NCCL_NUM_ALGOS][COLLCALC_NCCL_NUM_PROTOS];
    double hw_latency_us[COLLCALC_NCCL_NUM_HW][COLLCALC_NCCL_NUM_ALGOS][COLLCALC_NCCL_NUM_PROTOS];
    /* [row][scale]: row = arch on 1 node, CPU row (0 Intel/other, 1 AMD) across nodes */
    double ll_max_bw_GBps[COLLCALC_NCCL_NUM_ARCHS][COLLCALC_NCCL_NUM_SCALES];
    double per_channel_max_ring_ll128_GBps[COLLCALC_NCCL_NUM_ARCHS][COLLCALC_NCCL_NUM_SCALES];
    double per_channel_max_tree_ll128_GBps[COLLCALC_NCCL_NUM_ARCHS][COLLCALC_NCCL_NUM_SCALES];
    double per_channel_max_tree_GBps[COLLCALC_NCCL_NUM_ARCHS][COLLCALC_NCCL_NUM_SCALES];
    double max_nvls_tree_GBps[COLLCALC_NCCL_NUM_ARCHS][COLLCALC_NCCL_NUM_SCALES]; /* 0 = no cap */
    double nvls_efficiency[COLLCALC_NCCL_NUM_ARCHS];
    double tree_correction[COLLCALC_NCCL_NUM_PROTOS][COLLCALC_NCCL_TREE_CORRECTION_SIZES];
    double net_overhead_us[2];     /* [0] Intel and others, [1] AMD */
    double ring_plateau_factor[2]; /* [0] SM < 80, [1] SM >= 80 */
    double pat_factor;             /* 0 = no PAT in this version */
    bool legacy_ring_ll;           /* 2.18: Ring LL x1/4 or x1/3, LL128 x0.7 when ppn < 2 */
    bool tree_cap_all_functions;   /* 2.18: the Tree 0.92 / perChMaxTree cap on every function */
    collcalc_nccl_nvls_model nvls_model;
    bool
        nvls_tree_correction_blackwell_x86; /* 2.30: tree correction on NVLSTree, Blackwell + x86 */
    bool symmetric_kernels; /* 2.27+: symmetric-memory kernels with registered buffers */
    bool blackwell_row;     /* false: Blackwell reads the Hopper rows */
    char source[COLLCALC_NCCL_SOURCE_MAX]; /* where the tables come from */
} collcalc_nccl_constants;

/* A validated set of constants for every NCCL version in a document.
 * Opaque; free with collcalc_nccl_constants_table_free. */
typedef struct collcalc_nccl_constants_table collcalc_nccl_constants_table;

/* Parses data/nccl.json-style text (json_length bytes, not NUL-terminated;
 * schema in data/README.md). Strict like the link table: schema_version 1,
 * unknown/duplicate keys, wrong shapes, non-finite or out-of-range numbers,
 * duplicate or unordered versions are refused with the JSON path in diag
 * ("versions[1].hw_latency_us.net[2][1]: must be <= 1000 (got 1e9)").
 * On success the caller owns *out_table (free with
 * collcalc_nccl_constants_table_free); on failure it is NULL. */
collcalc_status collcalc_nccl_constants_parse(const char *json_text, size_t json_length,
                                              collcalc_nccl_constants_table **out_table,
                                              collcalc_diag *diag);

/* The table compiled in from data/nccl.json. Caller owns the result. */
collcalc_status collcalc_nccl_constants_builtin(collcalc_nccl_constants_table **out_table,
                                                collcalc_diag *diag);

/* The text of data/nccl.json as compiled in (NUL-terminated, static). */
const char *collcalc_builtin_nccl_json(void);

void collcalc_nccl_constants_table_free(collcalc_nccl_constants_table *table);

/* Number of versions (0 for NULL); entry i in ascending version order. */
size_t collcalc_nccl_constants_count(const collcalc_nccl_constants_table *table);
const collcalc_nccl_constants *
collcalc_nccl_constants_at(const collcalc_nccl_constants_table *table, size_t index);

/* The constants a given NCCL release runs with: the newest entry whose
 * version is <= `version` ("2.26.2", "2.27", "2.30.7"); NULL `version`
 * means the newest. COLLCALC_ERR_INVALID for text that is not
 * MAJOR.MINOR[.PATCH], COLLCALC_ERR_NOT_FOUND when older than every entry.
 * *out is borrowed from the table. */
collcalc_status collcalc_nccl_constants_find(const collcalc_nccl_constants_table *table,
                                             const char *version,
                                             const collcalc_nccl_constants **out,
                                             collcalc_diag *diag);

/* ------------------------------------------------------------------ */
/* The system as NCCL sees it (and what collcalc adds). */

/* One algorithm's graph, as NCCL's topology search reports it
 * ("Pattern 4, crossNic 0, nChannels 12, bw 20.000000/20.000000, type NVL/PIX"). */
typedef struct {
    int nchannels;        /* 0 = this algorithm has no graph (unavailable) */
    double bw_intra_GBps; /* per channel */
    double bw_inter_GBps; /* per channel; 0 = as bw_intra (one node) */
    collcalc_nccl_path type_intra;
    collcalc_nccl_path type_inter; /* GPU to NIC; ignored on one node */
    bool same_channels;            /* every channel the same ring (Broadcast/Reduce latency) */
    bool tree_pattern_single_nic;  /* NCCL_TOPO_PATTERN_TREE: one GPU carries all NIC traffic */
} collcalc_nccl_graph;

typedef struct {
    int min_sm; /* smallest SM in the communicator: 70, 75, 80, 86, 89, 90, 100 */
    bool all_same_sm;
    collcalc_nccl_cpu cpu;
    int nranks;                                          /* >= 1 */
    int nnodes;                                          /* >= 1, divides nranks */
    collcalc_nccl_graph graphs[COLLCALC_NCCL_NUM_ALGOS]; /* indexed by collcalc_nccl_algo */
    bool nvls_support;       /* NVLink SHARP in the fabric (NVSwitch gen 3+) */
    bool collnet_support;    /* CollNet (IB SHARP) plugin and switches */
    bool nvswitch;           /* GPUs joined by NVSwitch (CollNetDirect needs it) */
    bool pat_enable;         /* NCCL_PAT_ENABLE: PAT allowed when p == N */
    double latency_inter_us; /* net plugin's latency (normally 0) */
    double net_overhead_us;  /* < 0: NCCL's default for the CPU (constants) */
    /* What NCCL's model cannot see but collcalc's corrections use: */
    collcalc_nccl_transport transport;
    collcalc_nccl_launch launch;
    collcalc_nccl_harness harness; /* nccl-tests (default) or torch.distributed */
    bool cuda_graph;       /* launched from a CUDA graph (nccl-tests -G) */
    bool symmetric;        /* symmetric buffer registration (nccl-tests -R 2) */
    bool p2p;              /* CUDA P2P between GPUs of a node; false: SHM through host memory */
    double pci_bw_GBps;    /* GPU's PCIe link as NCCL counts it (Gen3 x16 = 12); for SHM */
    double nvlink_bw_GBps; /* GPU's total NVLink bandwidth as NCCL counts it (18 x 20.6 on
                              H100); 0 = unknown; caps NVLS */
    /* 0 < x <= 1: share of the network bandwidth the fabric delivers
     * beyond 2 nodes (collcalc_nccl_system_derive assumes 1 - 0.06 log2(N/2)) */
    double fabric_efficiency;
    /* For all-to-all and send/recv (collcalc's point-to-point model): */
    double p2p_intra_GBps; /* what one GPU moves to the others of its node, as NCCL's
                              one-node ring search finds it (12 x 30 = 360 on 8x H100);
                              0 = the NVLink total, else the PCI figure */
    double nic_GBps;       /* one NIC as NCCL's search counts it (48 for 400G); 0 = unknown */
    int nics_per_node;     /* 0 = unknown (the ring's channels then stand for the NICs) */
} collcalc_nccl_system;

/* Defaults: 1 rank on 1 node, Hopper (SM 90), Intel, no graphs, IB,
 * process per GPU, P2P on, PCIe 24 GB/s, fabric efficiency 1. */
void collcalc_nccl_system_init(collcalc_nccl_system *system);

/* The hardware, in the terms a platform preset gives, for
 * collcalc_nccl_system_derive. */
typedef struct {
    int sm; /* 70, 75, 80, 86, 89, 90, 100 */
    collcalc_nccl_cpu cpu;
    int gpus_per_node; /* ranks per node */
    int nodes;
    int nvlink_links_per_gpu; /* 0 = no NVLink */
    bool nvswitch;
    bool nvls;          /* NVLink SHARP */
    bool p2p;           /* CUDA P2P over PCIe when there is no NVLink */
    double pci_bw_GBps; /* NCCL's PCI figure: Gen3 x16 12, Gen4 24, Gen5 48 */
    int nics_per_node;
    double nic_GBps; /* one NIC's speed, Gb/s / 8 */
    collcalc_nccl_transport transport;
    collcalc_nccl_launch launch;
    /* 0 < x <= 1: the share of the node's GPUs (and so of its NICs) the
     * job drives, which scales the fabric's loss; 0 = the whole node */
    double fabric_load;
} collcalc_nccl_hardware;

void collcalc_nccl_hardware_init(collcalc_nccl_hardware *hardware);

/* Derives what NCCL's graph search would report for every algorithm
 * (src/nccl/nccl_system.c explains each step: NVLink bandwidth per link per
 * SM generation, the search speed lists, channel duplication, NIC speeds).
 * COLLCALC_ERR_INVALID for values out of range. */
collcalc_status collcalc_nccl_system_derive(const collcalc_nccl_hardware *hardware,
                                            collcalc_nccl_system *out_system, collcalc_diag *diag);

/* The hardware of `nodes` nodes of a platform preset, each with
 * gpus_per_node GPUs (0 = the platform's whole NVLink domain; at most that),
 * driven in `launch` mode. The NIC speed and the PCIe generation come from
 * the platform's links in `links` (borrowed during the call); NVLink links
 * per GPU, when the preset leaves them 0 on an NVLink platform, from the
 * intra link's bandwidth (25 GB/s per link and direction, 50 on SM100).
 * COLLCALC_ERR_INVALID when the platform does not state its GPU
 * architecture or a link is missing from `links`. */
collcalc_status collcalc_nccl_hardware_from_platform(const collcalc_platform *platform,
                                                     const collcalc_link_table *links, int nodes,
                                                     int gpus_per_node, collcalc_nccl_launch launch,
                                                     collcalc_nccl_hardware *out,
                                                     collcalc_diag *diag);

/* collcalc_nccl_hardware_from_platform, then collcalc_nccl_system_derive. */
collcalc_status collcalc_nccl_system_from_platform(const collcalc_platform *platform,
                                                   const collcalc_link_table *links, int nodes,
                                                   int gpus_per_node, collcalc_nccl_launch launch,
                                                   collcalc_nccl_system *out_system,
                                                   collcalc_diag *diag);

/* The preset that describes a run whose GPUs report gpu_model (nccl-tests'
 * device lines: "NVIDIA H100 80GB HBM3"), with gpus_per_node GPUs per host
 * (0 = not known): the first preset whose GPU family word ("H100", "A100",
 * "B200", "GB200", "L40S", ...) appears in the model as a whole word and
 * whose NVLink domain holds exactly that many GPUs, else the first with room
 * for them, else NULL. Borrowed from platforms. */
const collcalc_platform *collcalc_platform_guess(const collcalc_platform_table *platforms,
                                                 const char *gpu_model, int gpus_per_node);

/* ------------------------------------------------------------------ */
/* Options: forcing and corrections. */

/* collcalc's corrections to NCCL's model; each bit can be cleared. */
enum {
    COLLCALC_NCCL_FIX_RAMP = 1u << 0,      /* mid sizes: channel shrink, Simple's pipeline fill */
    COLLCALC_NCCL_FIX_LAUNCH = 1u << 1,    /* single-process launch costs a launch per GPU */
    COLLCALC_NCCL_FIX_SYMMETRIC = 1u << 2, /* symmetric kernels + CUDA graphs: ~2-3 us floor */
    COLLCALC_NCCL_FIX_SHM = 1u << 3,       /* no P2P: two PCIe crossings and a host copy */
    COLLCALC_NCCL_FIX_TRANSPORT = 1u << 4, /* EFA/TCPX/RoCE/socket step latency; no LL128 on EFA */
    COLLCALC_NCCL_FIX_FABRIC = 1u << 5,    /* fabric efficiency beyond 2 nodes */
    COLLCALC_NCCL_FIX_NVLS_CAP = 1u << 6,  /* NVLS cannot beat NVLink x nvlsEfficiency */
    COLLCALC_NCCL_FIX_TREE_NET = 1u << 7   /* Tree across nodes: the NIC traffic of a double
                                              binary tree, not NCCL's per-channel caps */
};
#define COLLCALC_NCCL_FIX_ALL 0xffu

typedef struct {
    /* Allowed algorithms and protocols per function: bit a of
     * algo_mask[f] allows algorithm a for function f (NCCL_ALGO), bit p of
     * proto_mask[f] protocol p (NCCL_PROTO). */
    unsigned algo_mask[COLLCALC_NCCL_NUM_FUNCS];
    unsigned proto_mask[COLLCALC_NCCL_NUM_FUNCS];
    unsigned corrections; /* COLLCALC_NCCL_FIX_* bits; 0 = NCCL's model exactly */
    /* Constants whose formulas start collcalc's predicted time (not the
     * selection, which is always the running release's): the newest
     * release describes the hardware best. NULL = the release's own.
     * Borrowed; ignored when corrections is 0. */
    const collcalc_nccl_constants *refined;
} collcalc_nccl_options;

/* Everything allowed, every correction on, no refined constants. */
void collcalc_nccl_options_init(collcalc_nccl_options *options);

/* Parses an NCCL_ALGO value into masks[]: "ring,tree", "^nvls",
 * "allreduce:tree,ring;broadcast:ring", case-insensitive ("collnet" means
 * both CollNet algorithms). A list without a function prefix sets every
 * function; with "^" the listed ones are removed from everything. Functions
 * not named keep their mask. COLLCALC_ERR_INVALID (naming the bad word) for
 * unknown names or an empty list. */
collcalc_status collcalc_nccl_algo_env_parse(const char *text,
                                             unsigned masks[COLLCALC_NCCL_NUM_FUNCS],
                                             collcalc_diag *diag);

/* The same for NCCL_PROTO ("ll,ll128", "^ll128", "allreduce:simple"). */
collcalc_status collcalc_nccl_proto_env_parse(const char *text,
                                              unsigned masks[COLLCALC_NCCL_NUM_FUNCS],
                                              collcalc_diag *diag);

/* ------------------------------------------------------------------ */
/* Results. */

/* Why a candidate is not run. */
typedef enum {
    COLLCALC_NCCL_OK = 0,
    COLLCALC_NCCL_NOT_FOR_FUNC,       /* e.g. Tree for AllGather */
    COLLCALC_NCCL_PROTO_NOT_FOR_ALGO, /* NVLS/CollNet/PAT are Simple only */
    COLLCALC_NCCL_NO_GRAPH,           /* no channels for it in this system */
    COLLCALC_NCCL_NO_HARDWARE,        /* NVLS/CollNet/PAT/LL128 not supported here */
    COLLCALC_NCCL_FORCED_OFF          /* excluded by the NCCL_ALGO / NCCL_PROTO masks */
} collcalc_nccl_unavailable;

typedef struct {
    collcalc_nccl_algo algo;
    collcalc_nccl_proto proto;
    collcalc_nccl_unavailable unavailable; /* COLLCALC_NCCL_OK when it can run */
    bool selected;                         /* the one NCCL's tuner picks */
    int channels;                          /* graph channels (what NCCL's model uses) */
    int channels_run;                      /* after the small-message shrink (what actually runs) */
    /* NCCL's model, exactly: */
    double bus_bw_GBps;  /* busBw after every refinement */
    double alg_bw_GBps;  /* busBw x ratio, x tree correction */
    double latency_us;   /* incl. plateau factor */
    double nccl_time_us; /* latency + nBytes / algBw: what the tuner compares */
    /* collcalc's prediction (equals NCCL's when corrections are 0): */
    double latency_pred_us;
    double bandwidth_pred_us; /* the size-dependent term */
    double time_us;           /* what nccl-tests would print in the time column; 0 for a
                                 zero-byte call, which NCCL returns from at once */
    double algbw_GBps;        /* nccl-tests' algbw = size / time */
    double busbw_GBps;        /* nccl-tests' busbw = algbw x its factor */
    double nccl_busbw_GBps;   /* the busbw NCCL's own time (nccl_time_us) implies */
    /* The band around the prediction (collcalc_nccl_band_apply with the
     * prediction's band): where a healthy run of this regime measures;
     * all 0 when the regime has no evidence or the candidate cannot run. */
    double busbw_low_GBps, busbw_high_GBps;
    double time_low_us, time_high_us;
} collcalc_nccl_candidate;

/* NCCL's algorithm x protocol pairs, then the point-to-point candidate. */
#define COLLCALC_NCCL_MAX_CANDIDATES (COLLCALC_NCCL_NUM_ALGOS * COLLCALC_NCCL_NUM_PROTOS + 1)

/* The model's error in one regime (where the GPUs are, what runs, the
 * size), from the residuals of the validation runs of that regime
 * (doc/MODEL.md §15.1): a healthy run measures between low_ratio and
 * high_ratio times the predicted busbw (the predicted time divided by them). */
typedef struct {
    char regime[128];             /* "nodes over InfiniBand, all-to-all, >= 64 MiB" */
    bool evidence;                /* false: no run of this regime; no band */
    int runs;                     /* validation runs behind the band */
    double low_ratio, high_ratio; /* measured / predicted busbw; 0 without evidence */
} collcalc_nccl_band;

typedef struct {
    collcalc_nccl_func func;
    uint64_t size_bytes;    /* nccl-tests' size column */
    uint64_t nccl_bytes;    /* nBytes as the tuner counts it (AG/RS: the whole buffer) */
    double busbw_factor;    /* nccl-tests' factor for this func and rank count */
    size_t candidate_count; /* NCCL's 21 (algo-major) for the functions its tuner costs; 22 for
                               all-to-all and send/recv, whose one runnable candidate is the
                               last (COLLCALC_NCCL_P2P / Simple) */
    collcalc_nccl_candidate candidates[COLLCALC_NCCL_MAX_CANDIDATES];
    int selected; /* index into candidates, -1 when nothing can run */
    /* The model's error where this prediction falls (regime, evidence,
     * ratios; doc/MODEL.md §15.1); the candidates carry its range. */
    collcalc_nccl_band band;
} collcalc_nccl_prediction;

/* Costs every (algorithm x protocol) for one call of `func` on size_bytes
 * (as nccl-tests' size column counts it), picks NCCL's choice (minimum of
 * NCCL's own time, ties to the lower index) and predicts what nccl-tests
 * prints for every candidate. A single rank moves nothing: time 0, nothing
 * selected. COLLCALC_ERR_INVALID for inconsistent inputs (nranks not a
 * multiple of nnodes, channels or bandwidths out of range, NULLs);
 * COLLCALC_ERR_UNSUPPORTED when the masks leave nothing to run. All outputs
 * are finite. */
collcalc_status collcalc_nccl_predict(const collcalc_nccl_system *system,
                                      const collcalc_nccl_constants *constants,
                                      const collcalc_nccl_options *options, collcalc_nccl_func func,
                                      uint64_t size_bytes, collcalc_nccl_prediction *out,
                                      collcalc_diag *diag);

/* The selected candidate, or NULL. Borrowed from prediction. */
const collcalc_nccl_candidate *collcalc_nccl_selected(const collcalc_nccl_prediction *prediction);

/* One stretch of message sizes over which NCCL's tuner keeps one choice. */
typedef struct {
    uint64_t from_bytes, to_bytes; /* inclusive */
    bool runs;                     /* false: nothing can run at these sizes */
    collcalc_nccl_algo algo;
    collcalc_nccl_proto proto;
    int channels; /* at from_bytes (the count also shrinks with size within a stretch) */
} collcalc_nccl_choice_range;

/* NCCL's choice (algorithm x protocol) across [min_bytes, max_bytes], as
 * consecutive stretches: probed at every power of two, each change located
 * to the byte by bisection. A choice that appears and vanishes between two
 * neighbouring probes is not seen. Fails (COLLCALC_ERR_INVALID) when the
 * choice changes more than capacity - 1 times; errors of
 * collcalc_nccl_predict pass through. */
collcalc_status collcalc_nccl_switch_points(const collcalc_nccl_system *system,
                                            const collcalc_nccl_constants *constants,
                                            const collcalc_nccl_options *options,
                                            collcalc_nccl_func func, uint64_t min_bytes,
                                            uint64_t max_bytes, collcalc_nccl_choice_range *ranges,
                                            size_t capacity, size_t *out_count,
                                            collcalc_diag *diag);

/* ------------------------------------------------------------------ */
/* Bands: the range a healthy run falls in (doc/MODEL.md §15.1). */

/* The model's error in one regime (where the GPUs are, what runs, the
 * size), from the leave-one-source-out residuals of the validation runs of
 * that regime: a healthy run measures between low_ratio and high_ratio
 * times the predicted busbw (and the predicted time divided by them). */
/* collcalc_nccl_band is declared above collcalc_nccl_prediction. */

/* The band of a prediction of func at size_bytes on system. Never fails:
 * without evidence out->evidence is false and the ratios are 0. */
void collcalc_nccl_band_of(const collcalc_nccl_system *system, collcalc_nccl_func func,
                           uint64_t size_bytes, collcalc_nccl_band *out);

/* The band around a candidate's prediction: busbw x [low, high], time /
 * [high, low]. All four 0 when the band has no evidence. Any out-pointer
 * may be NULL. */
void collcalc_nccl_band_apply(const collcalc_nccl_band *band,
                              const collcalc_nccl_candidate *candidate, double *busbw_low_GBps,
                              double *busbw_high_GBps, double *time_low_us, double *time_high_us);

/* nccl-tests' busbw factor: AR 2(n-1)/n, AG/RS (n-1)/n, Bcast/Reduce 1;
 * collcalc_busbw_factor (collcalc/model.h) for func's op, and 0 when
 * nranks < 1 or func is outside the enum. */
double collcalc_nccl_busbw_factor(collcalc_nccl_func func, int nranks);

/* The model's function for op in *out_func (all-to-all and send/recv
 * included, costed by collcalc's point-to-point model); false (and
 * *out_func untouched) for an op outside the enum. */
bool collcalc_nccl_func_from_op(collcalc_op op, collcalc_nccl_func *out_func);

/* Names as NCCL prints them ("Ring", "NVLSTree", "CollNetDirect", "LL128",
 * "Simple", "AllReduce"); "unknown" outside the enum. Static strings. */
const char *collcalc_nccl_algo_name(collcalc_nccl_algo algo);
const char *collcalc_nccl_proto_name(collcalc_nccl_proto proto);
const char *collcalc_nccl_func_name(collcalc_nccl_func func);
const char *collcalc_nccl_transport_name(collcalc_nccl_transport transport);
/* Short reason text for an unavailable candidate ("not for this function"). */
const char *collcalc_nccl_unavailable_text(collcalc_nccl_unavailable reason);

/* Case-insensitive parse of the names above (NCCL_ALGO spellings too:
 * "nvls_tree", "collnet_direct"). COLLCALC_ERR_NOT_FOUND otherwise. */
collcalc_status collcalc_nccl_algo_parse(const char *text, collcalc_nccl_algo *out,
                                         collcalc_diag *diag);
collcalc_status collcalc_nccl_proto_parse(const char *text, collcalc_nccl_proto *out,
                                          collcalc_diag *diag);
collcalc_status collcalc_nccl_transport_parse(const char *text, collcalc_nccl_transport *out,
                                              collcalc_diag *diag);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
