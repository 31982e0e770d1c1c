/* Internal: what algorithm builders share — the build context, the hops a
 * step can take (intra link, NICs, a flat ring across both) and phase
 * construction. Builders only describe phases with numbers and structured
 * facts; engine.c does the arithmetic that turns them into a result and
 * explain.c writes the sentences when a renderer asks (doc/MODEL.md §2). */
#ifndef COLLCALC_MODEL_PHASES_H
#define COLLCALC_MODEL_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "collcalc/model.h"

/* The derived shape of the cluster a builder works on (p, nodes, g, last
 * in the result's order of the same counts: evaluate_row stores them in
 * both at once). */
typedef struct {
    const collcalc_query *query;
    collcalc_result *result;
    int p;         /* GPUs */
    int nodes;     /* ceil(p / g) */
    int g;         /* GPUs per node, clipped to p */
    int last;      /* GPUs in the last node */
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

/* NICs one GPU drives: nics_per_gpu, 0 read as 1. */
static inline int nics_per_gpu_of(const collcalc_cluster *cluster)
{
    return cluster->nics_per_gpu > 0 ? cluster->nics_per_gpu : 1;
}

/* NICs a node holding r GPUs drives (doc/MODEL.md §3): min(K, r x
 * nics_per_gpu_of). Read only where a step crosses nodes: a one-node
 * query does not touch the cluster's NIC fields. */
int nics_driven(const collcalc_cluster *cluster, int gpus_in_node);

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

/* Copies a name array whole (a fixed size: no scan, no call), cut at its
 * last byte if it has no NUL. */
static inline void copy_name(char *out, const char (*name)[COLLCALC_NAME_MAX])
{
    memcpy(out, *name, COLLCALC_NAME_MAX);
    out[COLLCALC_NAME_MAX - 1] = '\0';
}

/* A spanning hop's "link+link2", each name cut as copy_name cuts it. The
 * first name's end is found by a loop bounded by the cut (the length
 * strlen would give) rather than a strlen call: a call in the inlined
 * add_phase would make its builder save and restore registers on every
 * query, spanning hop or not. */
static inline void join_link_names(char *out, const char (*link)[COLLCALC_NAME_MAX],
                                   const char (*link2)[COLLCALC_NAME_MAX])
{
    copy_name(out, link);
    size_t used = 0;
    while (used < COLLCALC_NAME_MAX - 1 && out[used] != '\0')
        used++;
    out[used++] = '+';
    copy_name(out + used, link2);
}

/* Appends a phase (label: a static string). concurrent = runs at the same
 * time as the previous phase (same stage); otherwise it starts a new stage.
 * Returns the phase so the caller can add facts, or NULL when the phase
 * table is full (a bug: builders never need more than COLLCALC_MAX_PHASES).
 * Inline: it runs for every phase of every query (batch answers millions),
 * and the builders' constants (concurrent, a hop without link2) fold in. */
_Static_assert(offsetof(collcalc_phase, bytes_received) ==
                   offsetof(collcalc_phase, bytes_sent) + sizeof(double),
               "add_phase stores the two byte counts as one pair");

static inline collcalc_phase *add_phase(build_ctx *ctx, const char *label, bool concurrent,
                                        long steps, double bytes_sent, double bytes_received,
                                        const hop *how)
{
    collcalc_result *result = ctx->result;
    if (result->phase_count >= COLLCALC_MAX_PHASES)
        return NULL;
    collcalc_phase *phase = &result->phases[result->phase_count++];
    if (!concurrent || result->phase_count == 1)
        ctx->stage++;
    phase->label = label;
    phase->scope = how->scope;
    phase->stage = ctx->stage;
    phase->steps = steps;
    phase->alpha_us = how->alpha_us;
    /* The two byte counts in one store: total_phases reads them as a pair,
     * and a load over two narrower stores is not forwarded from them (a
     * wait on every phase, seen in a perf profile of batch). */
    const double bytes[2] = {bytes_sent, bytes_received};
    memcpy(&phase->bytes_sent, bytes, sizeof bytes);
    phase->bw_GBps = how->bw_GBps;
    phase->efficiency = how->efficiency > 0.0 ? how->efficiency : 1.0;
    phase->latency_us = 0.0; /* the engine's (total_phases) */
    phase->bandwidth_us = 0.0;
    phase->time_us = 0.0;
    phase->hop = how->kind;
    phase->detail = COLLCALC_DETAIL_NONE;
    phase->nics = how->nics;
    phase->sharing_gpus = how->sharing_gpus;
    phase->depth = 0;
    /* The name last: its byte stores may alias the hop, whose fields are
     * then all read already. */
    if (how->link2 == NULL)
        copy_name(phase->link, how->link);
    else
        join_link_names(phase->link, how->link, how->link2);
    return phase;
}

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
