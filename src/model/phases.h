/* Internal: what algorithm builders share — the build context, the hops a
 * step can take (intra link, NICs, a flat ring across both) and phase
 * construction. Builders only describe phases with numbers and structured
 * facts; engine.c does the arithmetic that turns them into a result and
 * explain.c writes the sentences when a renderer asks (doc/MODEL.md §2). */
#ifndef COLLCALC_MODEL_PHASES_H
#define COLLCALC_MODEL_PHASES_H

#include <stdbool.h>

#include "collcalc/model.h"

/* The derived shape of the cluster a builder works on. */
typedef struct {
    const collcalc_query *query;
    collcalc_result *result;
    int p;         /* GPUs */
    int g;         /* GPUs per node, clipped to p */
    int nodes;     /* ceil(p / g) */
    int last;      /* GPUs in the last node */
    int npg;       /* NICs one GPU drives (nics_per_gpu, 0 read as 1) */
    double size;   /* S in bytes */
    int stage;     /* stage of the last phase added */
} build_ctx;

/* How one step moves: its per-step latency and the bandwidth the busiest
 * GPU's traffic gets, with the facts that say why (no text). */
typedef struct {
    collcalc_scope scope;
    collcalc_hop_kind kind;
    double alpha_us;
    double bw_GBps;
    /* The link's name array in the query (borrowed), and the second of a
     * spanning hop ("link+link2") or NULL: whole arrays, copied whole. */
    const char (*link)[COLLCALC_NAME_MAX];
    const char (*link2)[COLLCALC_NAME_MAX];
    int nics;
    int sharing_gpus;
    double efficiency; /* fraction of the line rate in bw_GBps; 0 = 1 (the line rate) */
} hop;

/* A label in three spellings: whole, and for runs of steps split by scope. */
typedef struct {
    const char *whole;
    const char *intra;
    const char *inter;
} step_labels;

#define STEP_LABELS(text) {text, text " (intra)", text " (inter)"}

/* NICs a node holding r GPUs drives (doc/MODEL.md §3): min(K, r x
 * nics_per_gpu). npg is nics_per_gpu with 0 read as 1. */
int nics_driven(const collcalc_cluster *cluster, int npg, int gpus_in_node);

/* A step inside one node over the intra link. */
hop hop_intra(const build_ctx *ctx);

/* A step where every GPU of a node talks to other nodes at once: each GPU
 * gets min(nics_per_gpu, K / G) NICs' worth of bandwidth (a full node: the
 * smallest share any node has). */
hop hop_inter_all_gpus(const build_ctx *ctx);

/* The same for the GPUs of one node holding gpus_in_node GPUs. */
hop hop_inter_node(const build_ctx *ctx, int gpus_in_node);

/* h (a hop between nodes) carrying point-to-point sends, as all-to-all and
 * send/recv do: at the inter link's measured point-to-point efficiency when
 * the link states one (doc/MODEL.md §4.10), else unchanged. */
hop hop_point_to_point(const build_ctx *ctx, hop h);

/* A step where one GPU per node (per ring/channel) crosses the boundary:
 * that GPU gets min(K, nics_per_gpu) NICs. */
hop hop_inter_one_gpu(const build_ctx *ctx);

/* A step of a flat ring (or chain) over all p GPUs. One node: the intra
 * link. Several nodes: a pass of p-1 hops crosses N-1 node boundaries, so
 * alpha is the mean hop latency, and the ring runs at
 * min(B_intra, usable NICs x B_inter), the usable NICs being those of the
 * node that drives the fewest (doc/MODEL.md §3, pinned). */
hop hop_ring(const build_ctx *ctx);

/* A step where rank r exchanges with r XOR distance: intra when every pair
 * shares a node, else hop_inter_all_gpus. */
hop hop_xor(const build_ctx *ctx, long distance);

/* A step where rank r sends to r + distance (mod p): crosses whenever there
 * is more than one node. */
hop hop_shift(const build_ctx *ctx, long distance);

/* Appends a phase (label: a static string). concurrent = runs at the same
 * time as the previous phase (same stage); otherwise it starts a new stage.
 * Returns the phase so the caller can add facts, or NULL when the phase
 * table is full (a bug: builders never need more than COLLCALC_MAX_PHASES). */
collcalc_phase *add_phase(build_ctx *ctx, const char *label, bool concurrent, long steps,
                          double bytes_sent, double bytes_received, const hop *how);

/* Appends consecutive steps, merging runs of steps that take the same kind
 * of hop into one phase (labels->intra, labels->inter when the run is split
 * by scope, else labels->whole). sent[i] and received[i] are the busiest
 * GPU's bytes in step i. */
void add_steps(build_ctx *ctx, const step_labels *labels, int count, const hop *hops,
               const double *sent, const double *received);

/* floor(log2(x)) and ceil(log2(x)) for x >= 1; largest power of two <= x. */
int floor_log2(long x);
int ceil_log2(long x);
long floor_pow2(long x);

/* Builders, one per (op family, algorithm). They run only where the
 * registry row's predicate (engine.c) said the algorithm applies. */
typedef void (*builder_fn)(build_ctx *ctx);

/* ring.c */
void build_ring(build_ctx *ctx);
void build_direct_sendrecv(build_ctx *ctx);
/* tree.c */
void build_double_binary_tree(build_ctx *ctx);
void build_binomial_tree(build_ctx *ctx);
/* recursive.c */
void build_recursive_doubling(build_ctx *ctx);
void build_recursive_halving(build_ctx *ctx);
void build_rabenseifner(build_ctx *ctx);
void build_bruck(build_ctx *ctx);
void build_scatter_allgather(build_ctx *ctx);
/* direct.c */
void build_centralized(build_ctx *ctx);
void build_pairwise(build_ctx *ctx);
/* hierarchical.c */
void build_hierarchical(build_ctx *ctx);
void build_nvls(build_ctx *ctx);

#endif
