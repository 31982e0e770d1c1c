/* Deployment planning: KV-cache transfer (prefill -> decode), MoE
 * expert-parallel dispatch/combine (DeepEP's two kernel families), and a
 * whole TP/EP/PP/DP(/CP/SP) placement with its per-step communication
 * budget and rule checks. Values in, values out: the caller resolves model
 * names (collcalc/models.h), links and platforms into the structs below.
 * Every calibration constant is documented with its source in
 * src/plan/calibration.c. */
#ifndef COLLCALC_PLAN_H
#define COLLCALC_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/findings.h"
#include "collcalc/gpus.h"
#include "collcalc/model.h"
#include "collcalc/models.h"
#include "collcalc/nccl_model.h"
#include "collcalc/platforms.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* ---- costing hook ------------------------------------------------------ */

/* How a planner costs one collective (TP all-reduce, PP send/recv, DP
 * gradient reduction): fill *out_result for query (every number finite) or
 * fail with diag. context is the caller's. The default picks the fastest
 * algorithm NCCL runs in the alpha-beta model (collcalc_cost_fastest_nccl);
 * a caller with a platform may plug in the NCCL-faithful model instead. */
typedef collcalc_status (*collcalc_cost_fn)(const collcalc_query *query, void *context,
                                            collcalc_result *out_result, collcalc_diag *diag);

typedef struct {
    collcalc_cost_fn fn; /* NULL = collcalc_cost_fastest_nccl */
    void *context;       /* passed to fn; borrowed */
} collcalc_costing;

/* The default: every algorithm NCCL runs for query->op that applies on the
 * cluster, costed by collcalc_model_evaluate, fastest kept. context unused. */
collcalc_status collcalc_cost_fastest_nccl(const collcalc_query *query, void *context,
                                           collcalc_result *out_result, collcalc_diag *diag);

/* The NCCL-faithful model as a costing hook, with each group prepared as
 * the single command prepares it, is the answer layer's
 * collcalc_cost_answer (collcalc/answer.h). */

/* Upper bound on tokens a planner accepts: beyond this a count is a typing
 * mistake (2^34 = 17 billion tokens in flight). */
#define COLLCALC_TOKENS_MAX (UINT64_C(1) << 34)

/* Parses a token count: a whole number with an optional binary suffix, k
 * or K (x 1,024) or M (x 1,048,576): "8192", "8k" (8,192), "128k"
 * (131,072), "1M". Refused: anything else, 0, and counts above max
 * ("'8q' is not a token count (a whole number, optionally with k or M:
 * 8k = 8192)"). */
collcalc_status collcalc_tokens_parse(const char *text, uint64_t max, uint64_t *out_tokens,
                                      collcalc_diag *diag);

/* ---- KV-cache size and transfer --------------------------------------- */

typedef enum {
    COLLCALC_KV_BACKEND_NCCL = 0, /* NCCL send/recv (vLLM P2pNcclConnector) */
    COLLCALC_KV_BACKEND_NIXL,     /* NVIDIA NIXL over UCX */
    COLLCALC_KV_BACKEND_MOONCAKE, /* Mooncake Transfer Engine (RDMA) */
    COLLCALC_KV_BACKEND_TCP,      /* kernel TCP sockets */
    COLLCALC_KV_BACKEND_COUNT
} collcalc_kv_backend;

/* "nccl", "nixl", "mooncake", "tcp"; "unknown" outside the enum. Static. */
const char *collcalc_kv_backend_name(collcalc_kv_backend backend);
collcalc_status collcalc_kv_backend_from_name(const char *name, collcalc_kv_backend *out_backend,
                                              collcalc_diag *diag);

/* How a backend moves bytes: time per NIC = blocks x per_block_us + bytes /
 * rate with rate = min(efficiency x line, per_nic_cap, node cap share), plus
 * setup_us once per transfer. */
typedef struct {
    double efficiency;        /* fraction of NIC line rate for large blocks, (0, 1] */
    double per_nic_cap_GBps;  /* engine limit per NIC; 0 = none */
    double per_node_cap_GBps; /* engine limit per node (CPU-bound stacks); 0 = none */
    double per_block_us;      /* issue cost per block per NIC: the small-transfer ramp */
    double setup_us;          /* fixed per transfer: handshake, metadata, completion notice */
    /* Which NICs one GPU's shard goes out on (every backend the same rule:
     * the NICs the engine can drive from that GPU):
     *   host_staged: through host memory (kernel TCP): any NIC of the node,
     *                shared by the node's senders, under per_node_cap;
     *   multi_nic:   striped over the NICs at PCIe distance of the GPU
     *                (Mooncake's topology-aware NIC choice; near_nics);
     *   neither:     the GPU's own NIC(s), as NCCL binds them
     *                (nics_per_gpu); one_nic caps that at one (UCX picks one
     *                device unless UCX_NET_DEVICES lists more). */
    bool multi_nic;
    bool host_staged;
    bool one_nic;
    /* Without GPUDirect RDMA (host_staged: always) the KV is copied through
     * host memory: in chunks of this size pipelined with the wire, or, 0,
     * all of it first (doc/MODEL.md section 19.2). */
    double staging_chunk_bytes;
    const char *source;       /* where the figures come from (static) */
} collcalc_kv_backend_params;

/* The documented defaults of a backend (src/plan/calibration.c). */
collcalc_status collcalc_kv_backend_defaults(collcalc_kv_backend backend,
                                             collcalc_kv_backend_params *out_params,
                                             collcalc_diag *diag);

typedef struct {
    const collcalc_model_shape *model; /* borrowed, required */
    uint64_t tokens;                   /* prompt tokens, 1..COLLCALC_TOKENS_MAX */
    collcalc_dtype dtype;              /* KV element type */
    int tp, pp;                        /* prefill instance's degrees, >= 1 */
    bool check_tp;                     /* refuse a tp or decode_tp that does not divide the
                                          heads (plan's tp-heads rule; plan, which reports it
                                          as a finding, sizes such KV anyway) */
    bool dedup;                        /* ship one copy of replicated KV heads */
    /* Transfer (with_transfer): the prefill ranks each ship their shard. */
    bool with_transfer;
    collcalc_link_params nic; /* per NIC, per direction (the cluster's inter link) */
    int gpus_per_node;        /* >= 1 */
    int nics_per_node;        /* >= 1 */
    int gpus_per_host;        /* GPUs of one host (its CPUs and NICs), for the host-staged
                                 (tcp) backend on a multi-host NVLink domain; 0 or
                                 >= gpus_per_node = the node is one host */
    bool same_domain;         /* prefill and decode share an NVLink domain: use intra */
    collcalc_link_params intra;
    int nics_per_gpu;         /* NICs one GPU drives (its rail); 0 = nics_per_node / gpus_per_node,
                                 at least 1 */
    int near_nics;            /* NICs at PCIe distance (PIX/PXB) of a sender GPU, from a topology;
                                 0 = unknown (nics_per_gpu) */
    int far_nics;             /* NICs beyond it (PHB/NODE/SYS) a multi-NIC engine schedules too
                                 (Mooncake issue 813: equal shares, the farthest NIC decides) */
    double far_nic_GBps;      /* what one far NIC delivers (GPUDirect across the host bridge);
                                 0 = far NICs not used */
    bool no_gdr;              /* GPUDirect RDMA off: each GPU's bytes are staged through host
                                 memory over its host link first */
    collcalc_link_params host; /* the GPU's host link (PCIe), for no_gdr and tcp; bw 0 =
                                  unknown (the tcp copy is then not counted) */
    int decode_tp;            /* the decode instance's TP; 0 = tp (no re-sharding) */
    collcalc_kv_backend backend;
    bool backend_override;    /* use backend_params instead of the defaults */
    collcalc_kv_backend_params backend_params;
    uint64_t block_bytes;     /* transfer block; 0 = one layer's shard (what engines send) */
    double budget_us;         /* TTFT budget for the transfer; 0 = none */
} collcalc_kv_query;

/* Defaults: BF16, tp = pp = 1, nccl backend, no transfer, no budget. */
void collcalc_kv_query_init(collcalc_kv_query *query);

typedef struct {
    uint64_t kv_bytes_per_token;     /* every layer at full attention */
    uint64_t kv_bytes_per_layer_token; /* one layer, one token (GQA: 2 x kv_heads x d x b) */
    uint64_t kv_bytes_total;         /* unique bytes for `tokens` (sliding layers capped) */
    uint64_t kv_bytes_per_shard;     /* held by one GPU (its TP/PP shard, replicas included) */
    int kv_heads_per_shard;          /* GQA; for MLA the latent (1) */
    int replication;                 /* copies of each KV head across TP (1 = none) */
    uint64_t kv_bytes_transferred;   /* shipped: replicas included unless dedup */
    int window_layers;               /* layers capped at their window */
    uint64_t window_tokens_kept;     /* min(tokens, window) for those layers */
    /* Transfer (with_transfer). */
    int senders;                     /* prefill GPUs shipping (tp x pp) */
    int receivers;                   /* decode GPUs receiving (decode_tp x pp) */
    uint64_t bytes_per_receiver;     /* what one decode GPU needs (its TP shard, replicas incl.) */
    int nics_per_sender;             /* NICs one sender's shard goes out on (the backend rule) */
    double receive_us;               /* the busiest receiver's NIC time (re-sharding fan-in;
                                        0 when decode_tp = tp) */
    bool staged;                     /* copied through host memory (no_gdr, or tcp) */
    double staging_us;               /* those copies: sender's out + receiver's in over the
                                        host link */
    double staging_exposed_us;       /* what they add to the wire time (pipelined: the excess
                                        over the wire plus one chunk of fill; else all) */
    bool staging_hidden;             /* pipelined and no copy slower than the wire: only the
                                        fill shows */
    int nodes;                       /* nodes they sit on (hosts when per_host) */
    bool per_host;                   /* tcp on a node of several hosts: nodes counts hosts,
                                        each with its share of the NICs and its own CPU cap */
    int node_nics;                   /* NICs of one such node (or host) */
    int nics_used;                   /* in parallel, all nodes */
    uint64_t bytes_per_nic;
    uint64_t block_bytes;
    uint64_t blocks_per_nic;
    double line_GBps;                /* aggregate line rate of the NICs used */
    double rate_per_nic_GBps;        /* after efficiency and caps */
    double bandwidth_us;             /* the busier side's wire time (max(send, receive)) */
    double block_overhead_us;        /* blocks_per_nic x per_block_us */
    double setup_us;
    double transfer_us;              /* setup + block overhead + bandwidth + staging_exposed */
    double effective_GBps;           /* kv_bytes_transferred / transfer_us */
    collcalc_dominant dominant;      /* latency = per-block/setup costs dominate */
    collcalc_kv_backend_params backend_params; /* what was used */
    bool has_budget;
    bool fits_budget;
    collcalc_findings findings;      /* replication, MLA replication, budget verdict */
} collcalc_kv_result;

/* KV bytes and (with_transfer) the transfer time. COLLCALC_ERR_INVALID for
 * a missing model, tokens 0 or above COLLCALC_TOKENS_MAX, degrees < 1, tp
 * above the query heads, bad link figures; diag names the field. */
/* Where the KV goes, from a path word (NULL or "auto", "nvlink", "network")
 * and the cluster the query's nic, intra and gpus_per_node came from
 * (`single`: one homogeneous link, no NVLink domain): auto takes NVLink when
 * prefill (tp x pp) and decode (decode_tp x pp) fit one multi-node NVLink
 * domain (more than 8 GPUs, a rack such as GB200 NVL72); nvlink refuses
 * GPUs that do not fit. The tcp backend (query->backend) never takes
 * NVLink: auto picks the network, nvlink is refused. Sets
 * query->same_domain. */
collcalc_status collcalc_kv_choose_path(collcalc_kv_query *query, const char *path, bool single,
                                        collcalc_diag *diag);

collcalc_status collcalc_kv_evaluate(const collcalc_kv_query *query, collcalc_kv_result *out_result,
                                     collcalc_diag *diag);

/* ---- MoE dispatch / combine ------------------------------------------- */

typedef enum {
    COLLCALC_MOE_NORMAL = 0,  /* DeepEP normal: RDMA once per node, NVLink fan-out; bandwidth-bound */
    COLLCALC_MOE_LOW_LATENCY  /* DeepEP low-latency: each selection straight to its GPU */
} collcalc_moe_mode;

/* "normal", "low-latency". Static. */
const char *collcalc_moe_mode_name(collcalc_moe_mode mode);
collcalc_status collcalc_moe_mode_from_name(const char *name, collcalc_moe_mode *out_mode,
                                            collcalc_diag *diag);

/* The per-mode constants (src/plan/calibration.c documents each). */
typedef struct {
    double normal_nvlink_efficiency; /* of the intra link's per-direction figure */
    double normal_rdma_efficiency;   /* of one NIC's line rate */
    double normal_base_us;           /* layout/notify step + launch */
    double normal_rdma_peer_GBps;    /* wire rate to one remote peer (0 = no cap): a GPU
                                        with p remote peer nodes gets at most p x this */
    double ll_nvlink_efficiency;
    double ll_rdma_efficiency;
    double ll_base_us;               /* launch + completion signalling */
    double ll_per_message_us;        /* per selection sent (GPU-initiated RDMA issue) */
    double ll_combine_per_peer_us;   /* combine waits on a flag per peer */
    /* One-sided NVLink all-to-all inside one rack-scale NVLink domain (both
       modes; TensorRT-LLM's NVLinkOneSided): each kernel takes
       max(floor, start + wire bytes / rate) + a flag per peer. */
    double nvl_efficiency;           /* of the intra link's per-direction figure */
    double nvl_dispatch_floor_us;    /* launch + tail barrier, tiny batches */
    double nvl_combine_floor_us;     /* head barrier + pulls + reduction, tiny batches */
    double nvl_dispatch_start_us;    /* launch to the first stores at large batches */
    double nvl_combine_start_us;
} collcalc_moe_calibration;

/* The documented defaults. */
void collcalc_moe_calibration_init(collcalc_moe_calibration *calibration);

#define COLLCALC_MOE_EXPERTS_MAX 4096
/* The one range of each MoE option (the command line parses with these,
 * collcalc_moe_evaluate checks them): imbalance 1..IMBALANCE_MAX (0 = not
 * given; the library also refuses more than ep, every selection on one
 * GPU), zipf exponent 0..ZIPF_MAX (0 = uniform), redundant experts
 * 0..COLLCALC_MOE_EXPERTS_MAX, SM slowdown 1..SM_SLOWDOWN_MAX. */
#define COLLCALC_MOE_IMBALANCE_MAX 1e6
#define COLLCALC_MOE_ZIPF_MAX 10.0
#define COLLCALC_MOE_SM_SLOWDOWN_MAX 100.0
#define COLLCALC_MOE_EVENTS_MAX 16

/* One bar of the split-batch timeline. */
typedef struct {
    char label[32];  /* "router A", "dispatch B", ... */
    int half;        /* 0 = A, 1 = B (0 without split) */
    bool communication; /* on the communication stream */
    double start_us;
    double end_us;
} collcalc_moe_event;

typedef struct {
    const collcalc_model_shape *model; /* borrowed, required, MoE */
    int ep;                            /* EP ranks, 2.. slots */
    uint64_t tokens;                   /* per EP rank per micro-batch */
    collcalc_dtype dispatch_dtype;     /* fp8 (DeepEP's accounting) or bf16 */
    collcalc_dtype combine_dtype;      /* bf16 or fp8 */
    collcalc_moe_mode mode;
    collcalc_cluster cluster;          /* gpus_per_node, nics, intra, inter; gpus is set to ep */
    bool node_limited;                 /* use the model's group limit (ignored without groups) */
    /* Load imbalance, first given wins: imbalance (max/mean >= 1), expert
     * loads (one per routed expert, borrowed), zipf_s > 0; else uniform. */
    double imbalance;
    const double *expert_loads;
    size_t expert_load_count;
    double zipf_s;
    int redundant_experts;             /* R extra slots (SGLang --ep-num-redundant-experts) */
    int split_batch;                   /* 1 or 2 (two-batch overlap) */
    double router_us;                  /* gate/router time for the whole micro-batch */
    double expert_compute_us;          /* expert GEMMs for the whole micro-batch */
    double sm_slowdown;                /* >= 1: compute slowdown while communication overlaps */
    collcalc_moe_calibration calibration;
    collcalc_costing costing;          /* for the textbook all-reduce comparison */
} collcalc_moe_query;

/* Defaults: fp8 dispatch, bf16 combine, normal mode, node-limited, uniform
 * load, no redundancy, split 1, slowdown 1, calibration defaults. */
void collcalc_moe_query_init(collcalc_moe_query *query);

typedef struct {
    int ep;
    int nodes;                      /* nodes the EP group spans */
    int gpus_per_node;              /* EP ranks per full node */
    int gpus_in_last_node;          /* EP ranks on the last node (== gpus_per_node unless
                                       the layout ends in a partial node: 24 + 8) */
    int busiest_node_gpus;          /* GPUs on the node of the GPU whose shares, bytes and
                                       times these are: the busier of a full-node GPU and
                                       a last-node GPU */
    int slots;                      /* routed experts + redundant */
    int slots_per_gpu;
    double expert_memory_increase;  /* R / E (0.125 for 256 -> 288) */
    uint64_t dispatch_bytes_per_selection; /* FP8: H + H/128 x 4 + 16 */
    uint64_t combine_bytes_per_selection;  /* BF16: 2H */
    double selections_per_gpu;      /* tokens x top-k */
    double share_local;             /* of selections: stay on the GPU */
    double share_nvlink;            /* reach another GPU of the node */
    double share_network;           /* reach another node */
    double share_network_full;      /* the network share of a GPU on a full node ... */
    double share_network_last;      /* ... and on the last node (equal when it is full) */
    double nodes_touched_per_token; /* distinct destination nodes (own included) */
    double remote_nodes_per_token;  /* of those, other nodes */
    bool node_limited;              /* the group limit was applied */
    /* Dispatch, per GPU (the busiest, after imbalance): */
    double bytes_local;
    double bytes_nvlink;
    double bytes_network;
    double dispatch_bytes_per_gpu;  /* the busiest GPU's: selections x bytes x imbalance
                                       (dispatch received, combine sent) */
    double combine_bytes_per_gpu;
    double combine_bytes_nvlink;
    double combine_bytes_network;
    double dispatch_us, dispatch_latency_us, dispatch_bandwidth_us;
    double combine_us, combine_latency_us, combine_bandwidth_us;
    collcalc_dominant dispatch_dominant, combine_dominant;
    double imbalance;               /* max/mean used for the time */
    double imbalance_static;        /* before rebalancing (contiguous placement) */
    double imbalance_rebalanced;    /* greedy placement with redundant replicas */
    const char *imbalance_from;     /* "uniform", "given", "zipf", "expert loads" (static) */
    /* The textbook comparison for one token: */
    double a2a_gpus_busy_per_token; /* GPUs holding the token's experts (expected) */
    double a2a_bytes_per_token;     /* dispatch + combine bytes the token moves */
    int allreduce_gpus;             /* every GPU when experts are scattered */
    double allreduce_bytes_per_gpu; /* ring all-reduce of the micro-batch's output */
    double allreduce_us;
    /* Split-batch timeline. */
    int split_batch;
    size_t event_count;
    collcalc_moe_event events[COLLCALC_MOE_EVENTS_MAX];
    double serial_us;               /* router + dispatch + experts + combine, unsplit */
    double timeline_us;             /* end of the last event */
    double hidden_us;               /* serial - timeline (may be negative) */
    /* DeepEP's own accounting (what its tests print) beside the wire. */
    double logical_dispatch_GBps;   /* low-latency: every selection's bytes / time;
                                       normal, 1 node: NVLink bytes received / time;
                                       several nodes: "RDMA" bytes counted per distinct
                                       destination node, the token's own included / time */
    double logical_combine_GBps;
    double wire_dispatch_GBps;      /* what crosses this GPU's NIC share (several nodes) or
                                       its NVLink (1 node) per second */
    double wire_combine_GBps;
    bool mnnvl;                     /* the NVLink domain spans nodes (G > 8): low-latency
                                       selections inside it are NVLink stores, no RDMA issue */
    const char *fabric;             /* the scale-up fabric by the intra link: "NVLink",
                                       "xGMI" (AMD), "PCIe" or "intra-node link"; static */
    bool amd;                       /* an xGMI fabric: AMD GPUs (no DeepEP, no NVL72) */
    bool deepep_refuses;            /* EP >= 8 and not a multiple of 8: DeepEP's Buffer
                                       asserts it (doc/MODEL.md §20.5) */
    collcalc_findings findings;
} collcalc_moe_result;

/* The smallest redundant-expert count R >= 0 that makes ep divide the
 * routed experts + R (what SGLang's --ep-num-redundant-experts needs);
 * -1 for a dense model or ep < 1. */
int collcalc_moe_redundant_for(const collcalc_model_shape *model, int ep);

/* How EP fares as it leaves the NVLink domain: q evaluated at `inside`,
 * the largest EP >= 2 within one domain (G GPUs) that divides the expert
 * slots, and at `outside`, the smallest EP above G that divides them (0
 * when none: the slots are at most G). */
typedef struct {
    int domain_gpus;
    int inside, outside;
    int outside_nodes, outside_gpus_in_last_node; /* the layout of `outside` */
    double inside_dispatch_us, inside_combine_us;
    double outside_dispatch_us, outside_combine_us;
    double inside_share_network, outside_share_network; /* of selections */
} collcalc_moe_edge;

collcalc_status collcalc_moe_domain_edge(const collcalc_moe_query *query,
                                         collcalc_moe_edge *out_edge, collcalc_diag *diag);

/* Costs one MoE layer. COLLCALC_ERR_INVALID for a dense model, ep < 2 or
 * above the slots, slots not divisible by ep, tokens 0 or absurd, expert
 * loads of the wrong length or all zero, bad cluster figures. */
collcalc_status collcalc_moe_evaluate(const collcalc_moe_query *query,
                                      collcalc_moe_result *out_result, collcalc_diag *diag);

/* Per-expert token counts as SGLang's and vLLM's expert-distribution
 * recorders dump them. Accepted text:
 *   JSON: [c0, c1, ...]; [[layer 0 ...], [layer 1 ...]]; or
 *         {"logical_count": <array of depth 1..3>} (leading dimensions summed)
 *   CSV:  one count per line; "expert_id,count"; or "layer_id,expert_id,count"
 *         (a header line of words and '#' comments are skipped; counts of
 *         the same expert are summed over layers)
 * Counts are non-negative decimals. Errors give the line ("line 7: 'abc' is
 * not a count"). */
typedef struct {
    size_t experts;    /* loads[0..experts) */
    size_t rows;       /* data rows or innermost arrays read */
    double total;      /* sum of loads, > 0 */
    double loads[COLLCALC_MOE_EXPERTS_MAX];
} collcalc_expert_loads;

collcalc_status collcalc_expert_loads_parse(const char *text, size_t length,
                                            collcalc_expert_loads *out_loads,
                                            collcalc_diag *diag);

/* ---- whole placement -------------------------------------------------- */

typedef enum {
    COLLCALC_WORKLOAD_PREFILL = 0,
    COLLCALC_WORKLOAD_DECODE,
    COLLCALC_WORKLOAD_TRAIN
} collcalc_workload;

/* "prefill", "decode", "train". Static. */
const char *collcalc_workload_name(collcalc_workload workload);
collcalc_status collcalc_workload_from_name(const char *name, collcalc_workload *out_workload,
                                            collcalc_diag *diag);

/* Parallel dimensions, in the default rank order (fastest first). */
typedef enum {
    COLLCALC_DIM_TP = 0,
    COLLCALC_DIM_CP,
    COLLCALC_DIM_EP,
    COLLCALC_DIM_PP,
    COLLCALC_DIM_DP,
    COLLCALC_DIM_COUNT
} collcalc_dim;

/* "tp", "cp", "ep", "pp", "dp". Static. */
const char *collcalc_dim_name(collcalc_dim dim);
/* Parses an order such as "tp,ep,pp,dp" (names separated by ',' or '-';
 * dims left out keep their default relative order after the given ones). */
collcalc_status collcalc_dim_order_parse(const char *text, collcalc_dim out_order[COLLCALC_DIM_COUNT],
                                         collcalc_diag *diag);

/* What --search ranks by once plans fit. */
typedef enum {
    COLLCALC_GOAL_THROUGHPUT = 0, /* the most tokens/s per GPU the plan can serve: at the
                                     largest tokens per step that fit in memory (and, with a
                                     latency budget, keep the step within it), highest first */
    COLLCALC_GOAL_LATENCY         /* at the given tokens: time per output token in decode (the
                                     step), time to first token in prefill (chunks x step),
                                     lowest first */
} collcalc_plan_goal;

/* "throughput", "latency". Static. */
const char *collcalc_plan_goal_name(collcalc_plan_goal goal);
collcalc_status collcalc_plan_goal_from_name(const char *name, collcalc_plan_goal *out_goal,
                                             collcalc_diag *diag);

/* Collective kinds a plan reports. */
typedef enum {
    COLLCALC_COMM_TP_ALLREDUCE = 0,
    COLLCALC_COMM_TP_REDUCESCATTER, /* with sequence parallelism */
    COLLCALC_COMM_TP_ALLGATHER,
    COLLCALC_COMM_EP_DISPATCH,
    COLLCALC_COMM_EP_COMBINE,
    COLLCALC_COMM_PP_SENDRECV,
    COLLCALC_COMM_DP_ALLREDUCE,        /* gradients of the replicated weights (train) */
    COLLCALC_COMM_DP_EXPERT_ALLREDUCE, /* gradients of the expert weights (train) */
    COLLCALC_COMM_CP_RING,             /* ring attention: KV blocks around the CP ring */
    COLLCALC_COMM_COUNT
} collcalc_comm_kind;

/* "tp-allreduce", "tp-reducescatter", "tp-allgather", "ep-dispatch",
 * "ep-combine", "pp-sendrecv", "dp-allreduce", "dp-expert-allreduce",
 * "cp-ring". Static. */
const char *collcalc_comm_kind_name(collcalc_comm_kind kind);

/* One collective kind of a plan, as a GPU sees it per step. */
typedef struct {
    collcalc_comm_kind kind;
    int group_size;          /* ranks in the group */
    int gpus_per_node;       /* of those, on one node */
    int nodes;               /* nodes the group spans */
    bool crosses_node;       /* leaves the NVLink domain */
    char link[2 * COLLCALC_NAME_MAX + 2]; /* "nvlink4", "ib-ndr", "nvlink4+ib-ndr" */
    collcalc_op op;          /* the collective (all-to-all for EP) */
    char algo[32];           /* "ring", "tree", "nvls", "deepep-normal", ... */
    double count_per_layer;  /* per layer that has it (0 for per-step kinds) */
    long count_per_step;     /* on this GPU per step */
    uint64_t message_bytes;  /* S of one collective (nccl-tests meaning; EP: bytes sent per GPU) */
    double latency_us_each;  /* fixed part: the floor of one collective */
    double bandwidth_us_each;
    double time_us_each;
    double total_us;         /* count_per_step x time_us_each */
    double hidden_fraction;  /* assumed hidden behind compute */
    double exposed_us;       /* total x (1 - hidden) + total x hidden x (slowdown - 1) */
    collcalc_dominant dominant;
} collcalc_plan_item;

#define COLLCALC_PLAN_ITEMS_MAX COLLCALC_COMM_COUNT

typedef struct {
    const collcalc_model_shape *model; /* borrowed, required */
    collcalc_workload workload;
    uint64_t tokens;        /* in flight per step per model replica (prefill/train: batch x
                               sequence; decode: batch) */
    collcalc_dtype dtype;   /* activations (bf16 | fp8) */
    int tp, pp, ep, dp, cp; /* >= 1 */
    bool sp;                /* sequence parallelism: TP all-reduce -> RS + AG */
    int micro_batches;      /* 0 = pp for train, 1 otherwise */
    int gpus;               /* GPUs available; 0 = the degrees' product */
    collcalc_dim order[COLLCALC_DIM_COUNT]; /* rank order, fastest first */
    collcalc_cluster cluster; /* gpus_per_node, nics_per_node, intra, inter, nvls/sharp */
    double overlap_tp;      /* fraction of TP communication hidden, [0, 1] */
    double overlap_ep;      /* fraction of EP communication hidden (two-batch overlap) */
    double overlap_pp;
    double overlap_dp;      /* gradient reduction behind the backward pass (train) */
    double sm_slowdown;     /* >= 1: what hidden communication costs the overlapped compute */
    bool moe_mode_auto;     /* decode -> low-latency, else normal (default) */
    collcalc_moe_mode moe_mode;
    collcalc_dtype dispatch_dtype, combine_dtype;
    int redundant_experts;
    double imbalance;       /* EP max/mean; 0 = 1 */
    int grad_bytes;         /* bytes per gradient element reduced (train); 0 = 2 (BF16) */
    int weight_bytes;       /* bytes per weight held, every weight; 0 = weight_format */
    bool weight_format_given; /* weight_format overrides the model's native formats */
    collcalc_weight_format weight_format;
    bool kv_dtype_given;    /* kv_dtype; else the activation dtype */
    collcalc_dtype kv_dtype;
    uint64_t context;       /* tokens of context each sequence keeps in KV; 0 = the default
                               (decode COLLCALC_PLAN_CONTEXT_DEFAULT; prefill: `tokens`, the
                               step is one prompt). Prefill prompts keep this length
                               whatever dp: dp splits the prompts, a share smaller than a
                               prompt is a chunk of it */
    /* Memory per GPU, 1e9 B: gpu_memory_GB when > 0, else the GPU's; with
     * neither, memory is not checked. */
    double gpu_memory_GB;
    double memory_utilization; /* usable fraction of it; 0 = COLLCALC_PLAN_MEMORY_UTILIZATION */
    const collcalc_gpu *gpu;   /* FLOP/s and memory bandwidth (borrowed); NULL = no compute */
    double compute_efficiency; /* fraction of peak FLOP/s and bandwidth reached, (0, 1]; 0 = 1 */
    /* Search ranking (collcalc_plan_search): the goal, and a step-time
     * budget on token_latency_us (time to first token in prefill; 0 =
     * none): plans over it rank after those within it. */
    collcalc_plan_goal goal;
    double latency_budget_us;
    /* Degrees the search keeps at the template's value (bit 1 << dim, e.g.
     * the user's --tp): it searches the rest. cp is always kept. */
    unsigned search_fixed;
    collcalc_moe_calibration calibration;
    collcalc_costing costing;
} collcalc_plan_query;

/* Context per sequence when the query gives none (decode). */
#define COLLCALC_PLAN_CONTEXT_DEFAULT 4096
/* Usable fraction of GPU memory: vLLM's default --gpu-memory-utilization
 * (0.9; docs.vllm.ai engine arguments); the rest is the CUDA context, the
 * allocator's slack and the framework's own buffers. */
#define COLLCALC_PLAN_MEMORY_UTILIZATION 0.9

/* Defaults: decode, BF16, all degrees 1, rank order tp, cp, ep, pp, dp,
 * nothing hidden, slowdown 1, automatic MoE mode, FP8 dispatch, BF16
 * combine, default calibration and costing. The caller fills model, tokens
 * and cluster. */
void collcalc_plan_query_init(collcalc_plan_query *query);

typedef struct {
    int gpus;                 /* degrees' product */
    int nodes;
    int layers_per_stage;     /* ceil(layers / pp) */
    int moe_layers_per_stage;
    int micro_batches;
    uint64_t tokens_per_micro_batch; /* per attention replica (tokens / (ep x cp) / micro-batches) */
    char rank_order[40];      /* "tp,cp,ep,pp,dp" */
    size_t item_count;
    collcalc_plan_item items[COLLCALC_PLAN_ITEMS_MAX];
    double comm_us;           /* sum of totals per step */
    double exposed_us;        /* after the overlap assumptions */
    double latency_us;        /* sum of count x latency part: the fixed floor */
    double bandwidth_us;
    collcalc_dominant dominant; /* of the step's communication */
    double floor_us;          /* exposed communication per step: the step cannot be faster */
    double cross_node_fixed_us; /* fixed cost of one collective of the slowest crossing group; 0 when none crosses */
    double expert_memory_increase; /* R / E */
    double weight_bytes_per_gpu;   /* replicated weights / (tp x pp) + expert slots' weights /
                                      (ep x pp), in the weight formats */
    /* Memory per GPU (bytes; src/plan/step.c says what each part counts). */
    uint64_t tokens_per_replica;   /* ceil(tokens / dp) */
    uint64_t context;              /* context per sequence the KV is sized for (prefill: the
                                      prompt length) and attention runs over */
    uint64_t sequences;            /* sequences one attention slice holds KV for (decode:
                                      its tokens; prefill: ceil(its tokens / context)) */
    uint64_t chunks;               /* prefill: steps one prompt takes, ceil(context / a slice's
                                      tokens) when the slice holds less than a prompt (chunked
                                      prefill: each slice prefills its own prompt), else 1 */
    uint64_t prompts;              /* prefill: prompts in flight, dp x ep x sequences (a chunked
                                      slice holds one); 0 otherwise */
    double kv_bytes_per_gpu;
    double activation_bytes_per_gpu;
    double buffer_bytes_per_gpu;   /* communication buffers (NCCL, DeepEP) */
    double optimizer_bytes_per_gpu; /* train: gradients and Adam states */
    double memory_bytes_per_gpu;   /* the sum of the above and the weights */
    bool memory_checked;           /* a capacity was known */
    double memory_capacity_bytes;  /* GPU memory x usable fraction */
    bool fits;                     /* memory_bytes_per_gpu <= capacity (true when unchecked) */
    uint64_t max_tokens;           /* largest tokens per step that fit at this context (0: none) */
    uint64_t max_context;          /* largest context that fits at these tokens (0: none) */
    /* Step time (compute_modeled: a GPU with FLOP/s was given). */
    bool compute_modeled;
    double compute_us;             /* roofline compute of the step on the busiest stage */
    double compute_flops_us;       /* of which FLOP-bound parts */
    double compute_memory_us;      /* of which memory-bound parts (weights, KV reads) */
    double bubble_us;              /* pipeline fill and drain */
    double exposed_comm_us;        /* communication not hidden behind compute */
    double step_us;                /* compute + bubble + exposed communication */
    double token_latency_us;       /* decode: time per output token (= step); prefill: time to
                                      first token = chunks x step (every chunk costed as the
                                      mean one, doc/MODEL.md); train: the step */
    int batches_in_flight;         /* serving with pp > 1: pp batches (each a step's tokens) in
                                      the pipeline, one per stage (vLLM's virtual engines); the KV
                                      holds all of them; 1 otherwise */
    double stage_us;               /* serving: one stage's time per step (its compute, its layers'
                                      exposed collectives, one PP send): a batch completes every
                                      stage_us in steady state; else = step_us */
    double tokens_per_s_per_gpu;   /* tokens of the step / stage_us / GPUs (serving: steady
                                      state with batches_in_flight; train: / step) */
    double comm_share;             /* exposed communication / step */
    collcalc_gpu_flops_type flops_type; /* the tensor type whose FLOP/s were used */
    const char *fabric;            /* scale-up fabric by the intra link, as moe names it:
                                      "NVLink", "xGMI", "PCIe", "intra-node link"; static */
    bool amd;                      /* xGMI: AMD GPUs (RCCL, modelled as NCCL; no DeepEP) */
    collcalc_findings findings; /* rule checks, sorted errors first */
} collcalc_plan_result;

/* Checks what makes a plan impossible to cost (not rule violations): a
 * missing model, tokens 0 or above COLLCALC_TOKENS_MAX or fewer than the
 * attention replicas, degrees < 1 or above 1,000,000, TP above the query
 * heads, EP > 1 on a dense model or above the expert slots, an order that is
 * not a permutation, overlaps outside [0, 1], slowdown < 1, bad cluster
 * figures. One diagnostic naming the field. */
collcalc_status collcalc_plan_validate(const collcalc_plan_query *query, collcalc_diag *diag);

/* Lays out the ranks, decides each group's tier, costs every collective
 * kind per step and runs the rule checks (findings codes: "tp-crosses-node"
 * error, "ep-crosses-node" warning, "tp-heads" error, "tp-kv-replication"
 * warning, "ep-experts" error, "gpus-product" error, "pp-uneven" warning,
 * "redundant-expert-memory" info, "latency-bound" info, "weights-exceed-memory"
 * error when gpu_memory_GB is set and the weights alone do not fit).
 * Validates first. */
collcalc_status collcalc_plan_evaluate(const collcalc_plan_query *query,
                                       collcalc_plan_result *out_result, collcalc_diag *diag);

/* One factorization found by the search. */
#define COLLCALC_CANDIDATE_CODES_MAX 4
typedef struct {
    int tp, ep, pp, dp;
    int cp;                   /* the template's (the search keeps it) */
    double comm_us;
    double exposed_us;
    collcalc_dominant dominant;
    collcalc_severity worst;  /* worst finding (info when none) */
    int errors, warnings;
    int code_count;           /* codes of the warnings and errors, first CODES_MAX */
    char codes[COLLCALC_CANDIDATE_CODES_MAX][COLLCALC_FINDING_CODE_MAX];
    bool memory_checked;
    bool fits;                /* memory fits (true when unchecked) */
    double memory_bytes_per_gpu;
    bool compute_modeled;
    double step_us;           /* step time (exposed communication alone without compute) */
    double token_latency_us;  /* what --goal latency ranks: the step; prefill: time to first
                                 token (chunks x step) */
    uint64_t chunks;          /* prefill: steps one prompt takes */
    double tokens_per_s_per_gpu;
    double comm_share;
    bool within_budget;       /* token_latency_us <= latency_budget_us (true without one) */
    /* Throughput at capacity (compute modeled and memory checked; else the
     * figures at the given tokens): the largest tokens per step that fit,
     * lowered until the step meets the latency budget if one is given. */
    uint64_t peak_tokens;
    double peak_step_us;
    double peak_tokens_per_s_per_gpu;
} collcalc_plan_candidate;

/* Every (TP, EP, PP, DP) with tp x ep x pp x dp = gpus (cp from the
 * template, which must divide gpus) where tp <= heads, ep <= expert slots
 * (1 for dense models) and pp <= layers, costed with the template's other
 * settings; the template's tokens count the whole cluster's tokens of a
 * step, split over dp replicas (raised to dp x ep x cp x micro-batches
 * when fewer); degrees in search_fixed keep the template's value (their
 * product must divide gpus: else COLLCALC_ERR_INVALID naming them). Ranked: plans that fit in memory first, then those without
 * an error-level finding, then those within the latency budget, then by
 * the goal (throughput: peak tokens/s per GPU, at the largest tokens per
 * step that fit and meet the budget; latency: token_latency_us at the
 * given tokens, the time to first token in prefill; without a GPU's compute figures, exposed communication per step),
 * then by tp, ep, pp. The best `capacity` go to out[0..*out_count); *out_total
 * counts every factorization costed. gpus 1..1,000,000. */
collcalc_status collcalc_plan_search(const collcalc_plan_query *template_query, int gpus,
                                     collcalc_plan_candidate *out, size_t capacity,
                                     size_t *out_count, size_t *out_total, collcalc_diag *diag);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
