/* The collective cost model: phases of steps over links (alpha-beta), for one
 * homogeneous link or a cluster of nodes (NVLink domains) joined by NICs. */
#ifndef COLLCALC_MODEL_H
#define COLLCALC_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/links.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Collective operations. The message size S has nccl-tests' meaning for each
 * (PRODUCT.md): all-reduce the buffer; all-gather the whole gathered output;
 * reduce-scatter the whole input; all-to-all one rank's whole send buffer;
 * broadcast/reduce/sendrecv the message. */
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

/* Algorithms. Which apply to which op: collcalc_algo_applies. */
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
 * for a basis (per direction or headline). */
typedef struct {
    char name[COLLCALC_NAME_MAX];
    double bw_GBps;  /* > 0 */
    double alpha_us; /* per step, >= 0 */
} collcalc_link_params;

/* Where the GPUs are. A homogeneous one-link query is gpus_per_node = gpus
 * with every hop on `intra`. Ranks are placed in order: ranks 0..G-1 on node
 * 0 and so on; the last node may hold fewer than G. */
typedef struct {
    int gpus;          /* p >= 1 */
    int gpus_per_node; /* G >= 1: GPUs in one NVLink domain (8 for HGX, 72 for NVL72) */
    int nics_per_node; /* K >= 1: scale-out NICs per node (rails), used when nodes > 1 */
    collcalc_link_params intra; /* GPU-to-GPU inside a node (used when G > 1) */
    collcalc_link_params inter; /* per NIC, between nodes (used when nodes > 1) */
    bool nvls_intra;   /* the intra fabric reduces in the switch (NVLink SHARP) */
    bool sharp_inter;  /* the scale-out switches reduce in the network (IB SHARP) */
} collcalc_cluster;

/* One question: op, size, cluster. */
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

#define COLLCALC_MAX_PHASES 8
#define COLLCALC_NOTE_MAX 320

/* One phase: `steps` rounds one after another; in each round every GPU sends
 * and receives at once. Phases with the same stage number run concurrently
 * (the slowest decides); stages run one after another. */
typedef struct {
    char label[48];                /* "reduce-scatter", "inter all-reduce", ... */
    char link[2 * COLLCALC_NAME_MAX + 2]; /* link name(s) the phase runs on */
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
    char note[COLLCALC_NOTE_MAX]; /* how the bandwidth was derived */
} collcalc_phase;

/* The cost of one collective with one algorithm. */
typedef struct {
    collcalc_op op;
    collcalc_algo algo;
    int gpus;
    int nodes;
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
    int phase_count;
    collcalc_phase phases[COLLCALC_MAX_PHASES];
    char note[COLLCALC_NOTE_MAX];   /* non-power-of-two handling and similar */
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

/* nccl-tests' busbw factor: all-reduce 2(p-1)/p; all-gather, reduce-scatter,
 * all-to-all (p-1)/p; broadcast, reduce, sendrecv 1. p = 1 gives 0 for the
 * (p-1)/p family and 1 otherwise. */
double collcalc_busbw_factor(collcalc_op op, int gpus);

/* True when the model has algo for op on this cluster; otherwise false and
 * *why_not (if not NULL) says why in one short sentence (static string). */
bool collcalc_algo_applies(collcalc_op op, collcalc_algo algo, const collcalc_cluster *cluster,
                           const char **why_not);

/* True when NCCL itself runs this algorithm for op (ring, tree, NVLS; the
 * p2p exchanges behind all-to-all and send/recv). The others are textbook
 * (MPI) algorithms, shown for comparison. */
bool collcalc_algo_in_nccl(collcalc_op op, collcalc_algo algo);

/* Checks a query's ranges (gpus, G, K >= 1; bandwidths finite > 0; alphas
 * finite >= 0; efficiency in (0, 1]). diag names the field. */
collcalc_status collcalc_query_validate(const collcalc_query *query, collcalc_diag *diag);

/* Costs one algorithm. COLLCALC_ERR_UNSUPPORTED (diag says why) when the
 * algorithm does not apply. Every number in *out_result is finite. */
collcalc_status collcalc_model_evaluate(const collcalc_query *query, collcalc_algo algo,
                                        collcalc_result *out_result, collcalc_diag *diag);

/* Costs every applicable algorithm for the query's op, in enum order, into
 * results[0..*out_count); *out_fastest is collcalc_fastest_index of them.
 * capacity >= COLLCALC_ALGO_COUNT always suffices. */
collcalc_status collcalc_model_evaluate_all(const collcalc_query *query, collcalc_result *results,
                                            size_t capacity, size_t *out_count, size_t *out_fastest,
                                            collcalc_diag *diag);

/* Index of the fastest of results[0..count) (first on ties); the
 * centralized all-reduce is never chosen over another algorithm (its two
 * steps hide p-1 messages converging on GPU 0's port). 0 when count is 0. */
size_t collcalc_fastest_index(const collcalc_result *results, size_t count);

/* Fills link params from a table entry under a bandwidth basis. */
void collcalc_link_params_from_link(const collcalc_link *link, collcalc_bw_basis basis,
                                    collcalc_link_params *out_params);

/* A one-link cluster: p GPUs, every hop on `link` (gpus_per_node = p). */
void collcalc_cluster_single_link(int gpus, const collcalc_link_params *link,
                                  collcalc_cluster *out_cluster);

/* Nodes the cluster spans: ceil(gpus / gpus_per_node). */
int collcalc_cluster_nodes(const collcalc_cluster *cluster);

/* Default bandwidth fraction of NCCL's double binary tree all-reduce: NCCL
 * 2.30.7 src/graph/tuning.cc multiplies Tree AllReduce busBw by 0.92. */
#define COLLCALC_TREE_EFFICIENCY_DEFAULT 0.92

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
