/* Internal: what algorithm builders share — the build context, the hops a
 * step can take (intra link, NICs, a flat ring across both) and phase
 * construction. Builders only describe phases; engine.c does the arithmetic
 * that turns them into a result. */
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
    double size;   /* S in bytes */
    int stage;     /* stage of the last phase added */
} build_ctx;

/* How one step moves: its per-step latency and the bandwidth the busiest
 * GPU's traffic gets, and a sentence saying why. */
typedef struct {
    collcalc_scope scope;
    double alpha_us;
    double bw_GBps;
    char link[2 * COLLCALC_NAME_MAX + 2];
    char note[COLLCALC_NOTE_MAX];
} hop;

/* A step inside one node over the intra link. */
hop hop_intra(const build_ctx *ctx);

/* A step where every GPU of a node talks to another node at once: each GPU
 * gets min(1, K/G) of one NIC (one GPU's traffic cannot be spread over
 * several NICs: NVIDIA, nccl-tests#267). */
hop hop_inter_all_gpus(const build_ctx *ctx);

/* A step where one GPU per node (per ring/channel) crosses the boundary:
 * that GPU gets a whole NIC. */
hop hop_inter_one_gpu(const build_ctx *ctx);

/* A step of a flat ring (or chain) over all p GPUs. One node: the intra
 * link. Several nodes: a pass of p-1 hops crosses N-1 node boundaries, so
 * alpha is the mean hop latency (NCCL's ring latency counts the same), and
 * NCCL spreads its rings over the NICs, so the ring runs at
 * min(B_intra, usable NICs x B_inter) (MODEL.md §2, pinned). */
hop hop_ring(const build_ctx *ctx);

/* A step where rank r exchanges with r XOR distance: intra when every pair
 * shares a node, else hop_inter_all_gpus. */
hop hop_xor(const build_ctx *ctx, long distance);

/* A step where rank r sends to r + distance (mod p): crosses whenever there
 * is more than one node. */
hop hop_shift(const build_ctx *ctx, long distance);

/* Appends a phase. concurrent = runs at the same time as the previous phase
 * (same stage); otherwise it starts a new stage. Returns the phase so the
 * caller can add to its note, or NULL when the phase table is full (a bug:
 * builders never need more than COLLCALC_MAX_PHASES). */
collcalc_phase *add_phase(build_ctx *ctx, const char *label, bool concurrent, long steps,
                          double bytes_sent, double bytes_received, const hop *how);

/* Appends consecutive steps, merging runs of steps that take the same kind
 * of hop into one phase ("label (intra)", "label (inter)"). sent[i] and
 * received[i] are the busiest GPU's bytes in step i. */
void add_steps(build_ctx *ctx, const char *label, int count, const hop *hops,
               const double *sent, const double *received);

/* Appends to the result's note (sentences separated by a space). */
void result_note(build_ctx *ctx, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* floor(log2(x)) and ceil(log2(x)) for x >= 1; largest power of two <= x. */
int floor_log2(long x);
int ceil_log2(long x);
long floor_pow2(long x);

/* Builders, one per (op family, algorithm). Each returns COLLCALC_OK or
 * COLLCALC_ERR_UNSUPPORTED with diag explaining. */
typedef collcalc_status (*builder_fn)(build_ctx *ctx, collcalc_diag *diag);

/* ring.c */
collcalc_status build_ring(build_ctx *ctx, collcalc_diag *diag);
collcalc_status build_direct_sendrecv(build_ctx *ctx, collcalc_diag *diag);
/* tree.c */
collcalc_status build_double_binary_tree(build_ctx *ctx, collcalc_diag *diag);
collcalc_status build_binomial_tree(build_ctx *ctx, collcalc_diag *diag);
/* recursive.c */
collcalc_status build_recursive_doubling(build_ctx *ctx, collcalc_diag *diag);
collcalc_status build_recursive_halving(build_ctx *ctx, collcalc_diag *diag);
collcalc_status build_rabenseifner(build_ctx *ctx, collcalc_diag *diag);
collcalc_status build_bruck(build_ctx *ctx, collcalc_diag *diag);
collcalc_status build_scatter_allgather(build_ctx *ctx, collcalc_diag *diag);
/* direct.c */
collcalc_status build_centralized(build_ctx *ctx, collcalc_diag *diag);
collcalc_status build_pairwise(build_ctx *ctx, collcalc_diag *diag);
/* hierarchical.c */
collcalc_status build_hierarchical(build_ctx *ctx, collcalc_diag *diag);
collcalc_status build_nvls(build_ctx *ctx, collcalc_diag *diag);

#endif
