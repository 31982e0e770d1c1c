/* The collective cost model: phases of steps over links (alpha-beta), for one
 * homogeneous link or a cluster of nodes (NVLink domains) joined by NICs.
 * Values in, values out: the model never reads a table (turning a link-table
 * entry into collcalc_link_params is collcalc_link_params_from_link in
 * collcalc/links.h). Every formula is described in doc/MODEL.md. */
#ifndef COLLCALC_MODEL_H
#define COLLCALC_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Collective operations. The message size S has nccl-tests' meaning for each
 * (doc/MODEL.md §1): all-reduce the buffer; all-gather the whole gathered
 * output; reduce-scatter the whole input; all-to-all one rank's whole send
 * buffer; broadcast/reduce/sendrecv the message. */
typedef enum {
    COLLCALC_OP_ALLREDUCE = 0,
    COLLCALC_OP_ALLGATHER,
    COLLCALC_OP_REDUCESCATTER,
    COLLCALC_OP_ALLTOALL,
    COLLCALC_OP_BROADCAST,
    COLLCALC_OP_REDUCE,
    COLLCALC_OP_SENDRECV,
    COLLCALC_OP_COUNT
} collcalc_op;

/* Algorithms. Which apply to which op: collcalc_algos_for_op and
 * collcalc_algo_applies. */
typedef enum {
    COLLCALC_ALGO_RING = 0,           /* ring; for broadcast/reduce the pipelined chain */
    COLLCALC_ALGO_TREE,               /* NCCL's pipelined double binary tree (all-reduce) */
    COLLCALC_ALGO_CENTRALIZED,        /* everything to GPU 0, then back (all-reduce) */
    COLLCALC_ALGO_RECURSIVE_DOUBLING, /* all-reduce, all-gather */
    COLLCALC_ALGO_RECURSIVE_HALVING,  /* reduce-scatter */
    COLLCALC_ALGO_RABENSEIFNER,       /* halving reduce-scatter + doubling all-gather (all-reduce), + gather (reduce) */
    COLLCALC_ALGO_BRUCK,              /* all-gather, all-to-all */
    COLLCALC_ALGO_PAIRWISE,           /* all-to-all: p-1 direct exchanges */
    COLLCALC_ALGO_BINOMIAL_TREE,      /* broadcast, reduce */
    COLLCALC_ALGO_SCATTER_ALLGATHER,  /* broadcast: binomial scatter + ring all-gather (van de Geijn) */
    COLLCALC_ALGO_DIRECT,             /* sendrecv: one shift-by-one exchange */
    COLLCALC_ALGO_HIERARCHICAL,       /* 2-D: intra reduce-scatter, inter all-reduce of S/G, intra all-gather */
    COLLCALC_ALGO_NVLS,               /* in-network reduction in the NVSwitch (NVLink SHARP) / IB SHARP */
    COLLCALC_ALGO_COUNT
} collcalc_algo;

/* The figures of one link as the model uses them: bandwidth already chosen
 * for a basis (per direction or headline). Fill with
 * collcalc_link_params_init, then set the fields (or use
 * collcalc_link_params_from_link for a link-table entry). */
typedef struct {
    char name[COLLCALC_NAME_MAX]; /* shown in phases; "" allowed */
    double bw_GBps;  /* > 0 */
    double alpha_us; /* per step, >= 0 */
    bool nvlink;     /* an NVLink / NVSwitch path (link class "nvlink"): the only kind
                        of intra link NVLS can run on */
    double p2p_efficiency; /* measured fraction of bw_GBps that point-to-point traffic
                              between nodes reaches (all-to-all, send/recv across the
                              NICs), in (0, 1]; 0 = none stated, the line rate */
} collcalc_link_params;

/* Where the GPUs are. A homogeneous one-link query is gpus_per_node = gpus
 * with every hop on `intra`. Ranks are placed in order: ranks 0..G-1 on node
 * 0 and so on; the last node may hold fewer than G. Fill with
 * collcalc_cluster_init (or collcalc_cluster_single_link). */
typedef struct {
    int gpus;          /* p >= 1 */
    int gpus_per_node; /* G >= 1: GPUs in one NVLink domain (8 for HGX, 72 for NVL72) */
    int nics_per_node; /* K >= 1: scale-out NICs per node (rails), used when nodes > 1 */
    collcalc_link_params intra; /* GPU-to-GPU inside a node (used when G > 1) */
    collcalc_link_params inter; /* per NIC, between nodes (used when nodes > 1) */
    bool nvls_intra;   /* the intra fabric reduces in the switch (NVLink SHARP); NVLS
                          applies only when intra.nvlink is set too */
    bool sharp_inter;  /* the scale-out switches reduce in the network (IB SHARP) */
    int nics_per_gpu;  /* NICs one GPU can drive at once, 1..1024 (0 is read as 1): a node
                          with r GPUs drives min(K, r x nics_per_gpu) NICs (doc/MODEL.md §3) */
} collcalc_cluster;

/* One question: op, size, cluster. Fill with collcalc_query_init. */
typedef struct {
    collcalc_op op;
    uint64_t size_bytes; /* S, nccl-tests meaning */
    collcalc_cluster cluster;
    double tree_efficiency; /* bandwidth fraction a double binary tree reaches; 0 = default 0.92 */
} collcalc_query;

/* Which term of the time is larger. */
typedef enum {
    COLLCALC_DOMINANT_NONE = 0, /* nothing to move (one GPU) */
    COLLCALC_DOMINANT_LATENCY,
    COLLCALC_DOMINANT_BANDWIDTH
} collcalc_dominant;

/* Where a phase's traffic runs. */
typedef enum {
    COLLCALC_SCOPE_INTRA = 0, /* inside a node on the intra link */
    COLLCALC_SCOPE_INTER,     /* between nodes over the NICs */
    COLLCALC_SCOPE_SPANNING   /* every step crosses both (a flat ring across nodes) */
} collcalc_scope;

/* How a phase's bandwidth was derived (doc/MODEL.md §3); the numbers it
 * uses are the phase's nics and sharing_gpus and the query's links. */
typedef enum {
    COLLCALC_HOP_INTRA = 0,       /* the intra link at its bandwidth */
    COLLCALC_HOP_NIC_SHARED,      /* every GPU of a node crosses at once: sharing_gpus GPUs
                                     share nics NICs, each GPU at most nics_per_gpu of them */
    COLLCALC_HOP_NIC_ONE_GPU,     /* one GPU per node crosses, on nics NICs */
    COLLCALC_HOP_FLAT_RING,       /* a ring over nodes: min(intra, nics x inter), mean alpha */
    COLLCALC_HOP_NIC_RING,        /* a ring with one GPU per node: nics x inter */
    COLLCALC_HOP_ROOT_PORT,       /* centralized across nodes: the root's own port decides */
    COLLCALC_HOP_ROOT_NICS,       /* ... node 0's nics NICs decide */
    COLLCALC_HOP_ROOT_REMOTE_NICS /* ... the partial last node's nics NICs decide */
} collcalc_hop_kind;

/* What else the explanation of a phase says. */
typedef enum {
    COLLCALC_DETAIL_NONE = 0,
    COLLCALC_DETAIL_TREE,          /* double binary trees of depth `depth`, x efficiency */
    COLLCALC_DETAIL_LATENCY_ONLY,  /* a chain whose data is counted in the tree phase */
    COLLCALC_DETAIL_SHARP,         /* in the network's switches: S/G out once, the sum in once */
    COLLCALC_DETAIL_NVLS,          /* multimem reduce + multicast pipelined: S + S/G each way */
    COLLCALC_DETAIL_NVLS_REDUCE,   /* multimem reduce: S out, the reduced S/G in */
    COLLCALC_DETAIL_NVLS_MULTICAST /* multimem multicast: S/G out, S in */
} collcalc_phase_detail;

#define COLLCALC_MAX_PHASES 8
/* A buffer size that holds every sentence collcalc_phase_explain and
 * collcalc_result_explain write. */
#define COLLCALC_EXPLAIN_MAX 512

/* One phase: `steps` rounds one after another; in each round every GPU sends
 * and receives at once. Phases with the same stage number run concurrently
 * (the slowest decides); stages run one after another. */
typedef struct {
    const char *label;             /* static string, never cut: "reduce-scatter", ... */
    char link[2 * COLLCALC_NAME_MAX + 2]; /* link name(s) the phase runs on ("a+b") */
    collcalc_scope scope;
    int stage;
    long steps;
    double alpha_us;        /* per step */
    double bytes_sent;      /* by the busiest GPU in this phase */
    double bytes_received;
    double bw_GBps;         /* bandwidth the busiest GPU's traffic moves at (after NIC sharing, efficiency) */
    double efficiency;      /* fraction of the link bandwidth used (1 unless documented) */
    double latency_us;      /* steps * alpha */
    double bandwidth_us;    /* max(sent, received) / bw */
    double time_us;         /* latency + bandwidth */
    collcalc_hop_kind hop;  /* how bw_GBps was derived */
    collcalc_phase_detail detail;
    int nics;               /* NICs in the derivation (0 for intra hops) */
    int sharing_gpus;       /* GPUs sharing them (NIC_SHARED; the node that decides) */
    int depth;              /* tree depth (DETAIL_TREE) */
} collcalc_phase;

/* What collcalc_result_explain says about a result (bits of `facts`). */
typedef enum {
    COLLCALC_FACT_ONE_GPU = 1u << 0,            /* nothing to move */
    COLLCALC_FACT_PARTIAL_LAST_NODE = 1u << 1,  /* the last node holds fewer than G */
    COLLCALC_FACT_NON_POWER_OF_TWO = 1u << 2,   /* fold into p' = largest power of two <= p */
    COLLCALC_FACT_PIPELINED_CHAIN = 1u << 3,    /* broadcast/reduce down a chain */
    COLLCALC_FACT_ROOT_BUSIEST = 1u << 4,       /* binomial tree: the root moves S each round */
    COLLCALC_FACT_CENTRALIZED_ROOT = 1u << 5,   /* GPU 0 takes in and sends out (p-1) x S */
    COLLCALC_FACT_BRUCK_ALLTOALL = 1u << 6,     /* blocks travel up to lg p times */
    COLLCALC_FACT_REMOTE_PEERS = 1u << 7,       /* pairwise across nodes: remote_peers of p-1 */
    COLLCALC_FACT_BUSIEST_IN_LAST_NODE = 1u << 8, /* the partial last node's GPU decides */
    COLLCALC_FACT_HIERARCHICAL = 1u << 9,       /* 2-D all-reduce: S/G per GPU across */
    COLLCALC_FACT_SHARP = 1u << 10,             /* the network reduces in its switches */
    COLLCALC_FACT_NVLS_NODE = 1u << 11,         /* NVLS inside one node */
    COLLCALC_FACT_NVLS_TREE = 1u << 12          /* NVLS inside nodes, network between */
} collcalc_fact;

/* The cost of one collective with one algorithm. Only phases[0..phase_count)
 * are meaningful. */
typedef struct {
    collcalc_op op;
    collcalc_algo algo;
    int gpus;
    int nodes;
    int gpus_per_node;      /* G as used: min(gpus_per_node, gpus) */
    int gpus_in_last_node;  /* == gpus_per_node unless the last node is partial */
    uint64_t size_bytes;
    long steps;                     /* on the critical path */
    double bytes_sent_per_gpu;      /* busiest GPU */
    double bytes_received_per_gpu;
    bool others_differ;             /* true when other GPUs move less than the busiest (root vs rest) */
    double bytes_sent_other_gpu;
    double bytes_received_other_gpu;
    double latency_us;              /* sum over the critical path of steps * alpha */
    double bandwidth_us;            /* sum over the critical path of bytes / bandwidth */
    double time_us;                 /* latency_us + bandwidth_us */
    double algbw_GBps;              /* S / time (0 when time is 0) */
    double busbw_factor;            /* nccl-tests factor for op and p */
    double busbw_GBps;              /* algbw * factor */
    collcalc_dominant dominant;
    unsigned facts;                 /* collcalc_fact bits */
    long remote_peers;              /* REMOTE_PEERS: the busiest GPU's peers in other nodes */
    int phase_count;
    collcalc_phase phases[COLLCALC_MAX_PHASES];
} collcalc_result;

/* Names. Stable lowercase words used on the command line and in JSON/CSV. */
const char *collcalc_op_name(collcalc_op op);           /* "allreduce" */
const char *collcalc_op_title(collcalc_op op);          /* "all-reduce" */
const char *collcalc_algo_name(collcalc_algo algo);     /* "recursive-doubling" */
const char *collcalc_dominant_name(collcalc_dominant dominant); /* "latency" */
const char *collcalc_scope_name(collcalc_scope scope);  /* "intra" */

/* Parses an op name or alias ("allreduce", "all-reduce", "ar", "a2a", ...),
 * case-insensitively. */
collcalc_status collcalc_op_from_name(const char *name, collcalc_op *out_op, collcalc_diag *diag);

/* Parses an algorithm name or alias ("ring", "chain", "dbt", "halving-doubling" ...). */
collcalc_status collcalc_algo_from_name(const char *name, collcalc_algo *out_algo, collcalc_diag *diag);

/* nccl-tests' busbw factor: all-reduce 2(n-1)/n; all-gather, reduce-scatter,
 * all-to-all (n-1)/n; broadcast, reduce, sendrecv 1. n = 1 gives 0 for the
 * (n-1)/n family (and for all-reduce); n <= 0 gives 0 for those and 1 for
 * the rest. The one implementation (src/model/nccl_tests.c): collcalc/
 * nccl_tests.h uses it through this header, and collcalc_nccl_busbw_factor
 * (collcalc/nccl_model.h) is this factor for NCCL's functions. */
double collcalc_busbw_factor(collcalc_op op, int gpus);

/* Initialisers: every field a sane default.
 *  - link params: name "", bw 0 (the caller must set it), alpha 0, not NVLink;
 *  - cluster: 1 GPU, 1 GPU per node, 1 NIC per node, 1 NIC per GPU, both
 *    links collcalc_link_params_init, no NVLS, no SHARP;
 *  - query: all-reduce of 0 bytes on collcalc_cluster_init, the default
 *    tree efficiency.
 * NULL is a no-op. */
void collcalc_link_params_init(collcalc_link_params *params);
void collcalc_cluster_init(collcalc_cluster *cluster);
void collcalc_query_init(collcalc_query *query);

/* The algorithms the model has for op, in the order results are listed:
 * writes up to capacity of them to out (out may be NULL when capacity is 0)
 * and returns how many there are (COLLCALC_ALGO_COUNT always suffices).
 * alltoall: pairwise, bruck; sendrecv: direct. 0 for an unknown op. */
size_t collcalc_algos_for_op(collcalc_op op, collcalc_algo *out, size_t capacity);

/* True when the model has algo for op on this cluster; otherwise false and
 * *why_not (if not NULL) says why in one short sentence (static string). */
bool collcalc_algo_applies(collcalc_op op, collcalc_algo algo, const collcalc_cluster *cluster,
                           const char **why_not);

/* True when NCCL itself runs this algorithm for op (ring, tree, NVLS; the
 * p2p exchanges behind all-to-all and send/recv). The others are textbook
 * (MPI) algorithms, shown for comparison. */
bool collcalc_algo_in_nccl(collcalc_op op, collcalc_algo algo);

/* True when algo may be called "fastest" for op: every algorithm of the op
 * except the centralized all-reduce (its two steps hide p-1 messages
 * converging on GPU 0's port). False for a pair the model does not have. */
bool collcalc_algo_may_be_fastest(collcalc_op op, collcalc_algo algo);

/* Checks a query's ranges (gpus, G, K >= 1; nics_per_gpu 0..1024;
 * bandwidths finite > 0; alphas finite >= 0; efficiency in [0, 1], 0 meaning
 * the default). diag names the field. */
collcalc_status collcalc_query_validate(const collcalc_query *query, collcalc_diag *diag);

/* Costs one algorithm: numbers only (sentences: collcalc_*_explain).
 * COLLCALC_ERR_UNSUPPORTED (diag says why) when the algorithm does not
 * apply. Every number in *out_result is finite. */
collcalc_status collcalc_model_evaluate(const collcalc_query *query, collcalc_algo algo,
                                        collcalc_result *out_result, collcalc_diag *diag);

/* Costs every applicable algorithm for the query's op, in enum order, into
 * results[0..*out_count); *out_fastest is collcalc_fastest_index of them.
 * capacity >= COLLCALC_ALGO_COUNT always suffices. */
collcalc_status collcalc_model_evaluate_all(const collcalc_query *query, collcalc_result *results,
                                            size_t capacity, size_t *out_count, size_t *out_fastest,
                                            collcalc_diag *diag);

/* The rows of a query checked once, to cost it at many sizes (batch
 * answers millions of lines from a handful of queries): what
 * collcalc_model_evaluate and collcalc_model_evaluate_all check before they
 * cost is done by collcalc_model_rows, the costing by
 * collcalc_model_evaluate_row. The query's size_bytes is not read by
 * either. */
typedef struct {
    int index; /* the algorithm's row in the model's registry */
} collcalc_model_row;

/* Checks the query (collcalc_query_validate) and finds its rows: with
 * algo_count 0 every algorithm that applies to the query's op, in enum
 * order; else each of algos[0..algo_count), which must apply
 * (COLLCALC_ERR_UNSUPPORTED, diag says why, when one does not). Rows go to
 * out_rows[0..*out_count); capacity >= COLLCALC_ALGO_COUNT always
 * suffices. */
collcalc_status collcalc_model_rows(const collcalc_query *query, const collcalc_algo *algos,
                                    size_t algo_count, collcalc_model_row *out_rows,
                                    size_t capacity, size_t *out_count, collcalc_diag *diag);

/* Costs one row of a query that collcalc_model_rows accepted, for
 * size_bytes: the very result collcalc_model_evaluate gives for the query
 * with that size. A row or query it did not accept is refused
 * (COLLCALC_ERR_INVALID). */
collcalc_status collcalc_model_evaluate_row(const collcalc_query *query, collcalc_model_row row,
                                            uint64_t size_bytes, collcalc_result *out_result,
                                            collcalc_diag *diag);

/* Index of the fastest of results[0..count) (first on ties) among those
 * collcalc_algo_may_be_fastest allows; 0 when none is allowed or count is 0. */
size_t collcalc_fastest_index(const collcalc_result *results, size_t count);

/* The sentence saying how phase phase_index of result (evaluated for query)
 * got its bandwidth and latency, e.g. "8 GPUs share 4 NICs: each GPU gets
 * 0.5 x 50 GB/s = 25 GB/s"; "" when the numbers say it all (a plain intra
 * hop). snprintf-style: writes at most size bytes including the NUL (buffer
 * may be NULL when size is 0) and returns the length of the whole sentence;
 * COLLCALC_EXPLAIN_MAX always suffices. An index out of range gives "". */
size_t collcalc_phase_explain(const collcalc_query *query, const collcalc_result *result,
                              int phase_index, char *buffer, size_t size);

/* The result's notes, sentences separated by a space: one GPU,
 * non-power-of-two handling, the partial last node, the centralized root
 * against the others, pipelined chains, the NVLS and SHARP assumptions;
 * "" when there is nothing to add. snprintf-style as above. */
size_t collcalc_result_explain(const collcalc_query *query, const collcalc_result *result,
                               char *buffer, size_t size);

/* A result repeated count = layers x per_layer times (per-layer or per-step
 * totals). */
typedef struct {
    long count;
    double total_latency_us;
    double total_bandwidth_us;
    double total_time_us;
} collcalc_totals;

/* Fills *out_totals: count = layers x per_layer and the result's three times
 * multiplied by it. COLLCALC_ERR_INVALID (diag says which) when layers or
 * per_layer is < 1, their product overflows a long, or a total is not
 * finite. */
collcalc_status collcalc_repeat_totals(const collcalc_result *result, long layers, long per_layer,
                                       collcalc_totals *out_totals, collcalc_diag *diag);

/* A one-link cluster: p GPUs, every hop on `link` (gpus_per_node = p, one
 * NIC per node, one NIC per GPU). */
void collcalc_cluster_single_link(int gpus, const collcalc_link_params *link,
                                  collcalc_cluster *out_cluster);

/* Nodes the cluster spans: ceil(gpus / gpus_per_node); 0 when
 * gpus_per_node < 1. */
int collcalc_cluster_nodes(const collcalc_cluster *cluster);

/* Default bandwidth fraction of NCCL's double binary tree all-reduce: NCCL
 * 2.30.7 src/graph/tuning.cc multiplies Tree AllReduce busBw by 0.92
 * (doc/MODEL.md §6). */
#define COLLCALC_TREE_EFFICIENCY_DEFAULT 0.92

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
