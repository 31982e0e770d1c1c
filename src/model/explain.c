/* The sentences behind a result, built only when a renderer asks: from the
 * structured facts the builders left in the result (hop kinds, NIC counts,
 * fact bits) and the query's figures. Evaluation itself writes no text
 * (doc/MODEL.md §2). Every sentence restates the numbers printed beside it;
 * test_model.c checks both agree and that none is cut. */
#include <stdarg.h>
#include <stdio.h>

#include "phases.h"

/* An snprintf-style appender: len counts what the whole text needs, the
 * buffer keeps what fits (always NUL-terminated when size > 0). */
typedef struct {
    char *buffer;
    size_t size;
    size_t len;
} text;

static text text_start(char *buffer, size_t size)
{
    text t = {.buffer = buffer, .size = buffer != NULL ? size : 0, .len = 0};
    if (t.size > 0)
        t.buffer[0] = '\0';
    return t;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void put(text *t, const char *format, ...)
{
    char *at = NULL;
    size_t room = 0;
    if (t->len < t->size) {
        at = t->buffer + t->len;
        room = t->size - t->len;
    }
    va_list args;
    va_start(args, format);
    int n = vsnprintf(at, room, format, args);
    va_end(args);
    if (n > 0)
        t->len += (size_t)n;
}

/* Starts a new clause ("; ") or sentence (" ") when something precedes. */
static void separate(text *t, size_t mark, const char *separator)
{
    if (t->len > mark)
        put(t, "%s", separator);
}

static const char *plural(long n)
{
    return n == 1 ? "" : "s";
}

static void explain_nic_shared(text *t, const collcalc_cluster *c, const collcalc_result *r,
                               const collcalc_phase *ph)
{
    int n = ph->nics, gpus = ph->sharing_gpus;
    if (gpus < r->gpus_per_node)
        put(t, "in the last node, ");
    if ((long)n < (long)gpus)
        put(t, "%d GPUs share %d NIC%s: each GPU gets %g x %g GB/s = %g GB/s", gpus, n, plural(n),
            (double)n / gpus, c->inter.bw_GBps, ph->bw_GBps);
    else if (n == gpus)
        put(t, "one %s NIC per GPU at %g GB/s", c->inter.name, c->inter.bw_GBps);
    else
        put(t, "each GPU drives %g %s NICs of %g GB/s: %g GB/s", (double)n / gpus, c->inter.name,
            c->inter.bw_GBps, ph->bw_GBps);
}

/* "the last node's 1 GPU drives 1 of its 8 NICs" when the ring gets fewer
 * NICs than the node has. */
static void explain_nics_limited(text *t, const collcalc_cluster *c, const collcalc_result *r,
                                 const collcalc_phase *ph)
{
    if (ph->nics >= c->nics_per_node)
        return;
    int gpus = ph->sharing_gpus;
    if (gpus < r->gpus_per_node)
        put(t, "; the last node's %d GPU%s drive%s %d of its %d NICs", gpus, plural(gpus),
            gpus == 1 ? "s" : "", ph->nics, c->nics_per_node);
    else
        put(t, "; %d GPU%s per node drive%s %d of its %d NICs (%d per GPU)", gpus, plural(gpus),
            gpus == 1 ? "s" : "", ph->nics, c->nics_per_node, nics_per_gpu_of(c));
}

static void explain_flat_ring(text *t, const collcalc_cluster *c, const collcalc_result *r,
                              const collcalc_phase *ph)
{
    long intra_hops = r->gpus - r->nodes, inter_hops = r->nodes - 1;
    put(t,
        "flat ring over %d nodes: min(%s %g GB/s, %d NIC%s x %s %g GB/s) = %g GB/s; per pass %ld "
        "hops of %g us and %ld of %g us, alpha = their mean %.4g us",
        r->nodes, c->intra.name, c->intra.bw_GBps, ph->nics, plural(ph->nics), c->inter.name,
        c->inter.bw_GBps, ph->bw_GBps, intra_hops, c->intra.alpha_us, inter_hops,
        c->inter.alpha_us, ph->alpha_us);
    explain_nics_limited(t, c, r, ph);
}

static void explain_nic_ring(text *t, const collcalc_cluster *c, const collcalc_result *r,
                             const collcalc_phase *ph)
{
    put(t, "one GPU per node: every ring hop is a %s hop, %d NIC%s x %g GB/s = %g GB/s",
        c->inter.name, ph->nics, plural(ph->nics), c->inter.bw_GBps, ph->bw_GBps);
    explain_nics_limited(t, c, r, ph);
}

static void explain_tree(text *t, const collcalc_cluster *c, const collcalc_result *r,
                         const collcalc_phase *ph)
{
    if (ph->hop == COLLCALC_HOP_INTRA) {
        put(t,
            "two binary trees of depth ceil(lg %d) = %d, each carrying half of S up and back "
            "down (at most 2(p-1)/p x S per GPU); %s %g GB/s x tree efficiency %g = %g GB/s",
            r->gpus, ph->depth, c->intra.name, c->intra.bw_GBps, ph->efficiency, ph->bw_GBps);
        return;
    }
    put(t, "double binary trees of depth ceil(lg %d) = %d between nodes; ", r->nodes, ph->depth);
    double nic_bw = ph->nics * c->inter.bw_GBps;
    if (ph->hop == COLLCALC_HOP_FLAT_RING) {
        double plain = c->intra.bw_GBps < nic_bw ? c->intra.bw_GBps : nic_bw;
        put(t, "min(%s %g GB/s, %d NIC%s x %s %g GB/s) = %g GB/s", c->intra.name,
            c->intra.bw_GBps, ph->nics, plural(ph->nics), c->inter.name, c->inter.bw_GBps, plain);
    } else {
        put(t, "%d %s NIC%s x %g GB/s = %g GB/s", ph->nics, c->inter.name, plural(ph->nics),
            c->inter.bw_GBps, nic_bw);
    }
    put(t, " x tree efficiency %g = %g GB/s", ph->efficiency, ph->bw_GBps);
    explain_nics_limited(t, c, r, ph);
}

static void explain_root(text *t, const collcalc_cluster *c, const collcalc_result *r,
                         const collcalc_phase *ph)
{
    if (ph->hop == COLLCALC_HOP_ROOT_REMOTE_NICS) {
        put(t,
            "the last node's %d GPU%s send%s through %d %s NIC%s (%g GB/s each), which is slower "
            "than the root's port and node 0's NICs: effective %g GB/s for the root's (p-1) x S",
            ph->sharing_gpus, plural(ph->sharing_gpus), ph->sharing_gpus == 1 ? "s" : "",
            ph->nics, c->inter.name, plural(ph->nics), c->inter.bw_GBps, ph->bw_GBps);
        return;
    }
    if (r->gpus_per_node == 1)
        put(t, "all of the root's bytes come through its %d %s NIC%s (%g GB/s each): %g GB/s",
            ph->nics, c->inter.name, plural(ph->nics), c->inter.bw_GBps, ph->bw_GBps);
    else
        put(t, "(p-G)/(p-1) of the root's bytes come through node 0's %d %s NIC%s (%g GB/s each)",
            ph->nics, c->inter.name, plural(ph->nics), c->inter.bw_GBps);
    if (r->gpus_per_node == 1)
        return;
    if (ph->hop == COLLCALC_HOP_ROOT_PORT)
        put(t, "; the root's own %s port, %g GB/s, is slower and decides", c->intra.name,
            ph->bw_GBps);
    else
        put(t, ": effective %g GB/s", ph->bw_GBps);
}

size_t collcalc_phase_explain(const collcalc_query *query, const collcalc_result *result,
                              int phase_index, char *buffer, size_t size)
{
    text t = text_start(buffer, size);
    if (query == NULL || result == NULL || phase_index < 0 || phase_index >= result->phase_count ||
        phase_index >= COLLCALC_MAX_PHASES)
        return 0;
    const collcalc_phase *ph = &result->phases[phase_index];
    const collcalc_cluster *c = &query->cluster;
    if (ph->detail == COLLCALC_DETAIL_TREE) {
        explain_tree(&t, c, result, ph);
        return t.len;
    }
    if (ph->detail == COLLCALC_DETAIL_LATENCY_ONLY) {
        put(&t, "latency only: the data's time is counted once, in the tree phase");
        return t.len;
    }
    switch (ph->hop) {
    case COLLCALC_HOP_INTRA: break;
    case COLLCALC_HOP_NIC_SHARED: explain_nic_shared(&t, c, result, ph); break;
    case COLLCALC_HOP_NIC_ONE_GPU:
        if (ph->nics == 1)
            put(&t, "one GPU per node crosses on one %s NIC at %g GB/s", c->inter.name,
                c->inter.bw_GBps);
        else
            put(&t, "one GPU per node crosses on %d %s NICs: %d x %g GB/s = %g GB/s", ph->nics,
                c->inter.name, ph->nics, c->inter.bw_GBps, ph->bw_GBps);
        break;
    case COLLCALC_HOP_FLAT_RING: explain_flat_ring(&t, c, result, ph); break;
    case COLLCALC_HOP_NIC_RING: explain_nic_ring(&t, c, result, ph); break;
    case COLLCALC_HOP_ROOT_PORT:
    case COLLCALC_HOP_ROOT_NICS:
    case COLLCALC_HOP_ROOT_REMOTE_NICS: explain_root(&t, c, result, ph); break;
    }
    if (ph->efficiency < 1.0 &&
        (ph->hop == COLLCALC_HOP_NIC_SHARED || ph->hop == COLLCALC_HOP_NIC_ONE_GPU))
        put(&t, ", x %g, the point-to-point efficiency measured on %s = %g GB/s", ph->efficiency,
            c->inter.name, ph->bw_GBps);
    switch (ph->detail) {
    case COLLCALC_DETAIL_SHARP:
        separate(&t, 0, "; ");
        put(&t, "each GPU sends its S/G once and gets the sum back once");
        break;
    case COLLCALC_DETAIL_NVLS:
        separate(&t, 0, "; ");
        put(&t, "pipelined multimem reduce and multicast: S + S/G each way at %s %g GB/s",
            c->intra.name, c->intra.bw_GBps);
        break;
    case COLLCALC_DETAIL_NVLS_REDUCE:
        separate(&t, 0, "; ");
        put(&t, "multimem reduce: each GPU sends its S into the switch and gets back its reduced "
                "S/G");
        break;
    case COLLCALC_DETAIL_NVLS_MULTICAST:
        separate(&t, 0, "; ");
        put(&t, "multimem multicast: each GPU sends its S/G and receives all of S");
        break;
    case COLLCALC_DETAIL_NONE:
    case COLLCALC_DETAIL_TREE:
    case COLLCALC_DETAIL_LATENCY_ONLY: break;
    }
    return t.len;
}

size_t collcalc_result_explain(const collcalc_query *query, const collcalc_result *result,
                               char *buffer, size_t size)
{
    text t = text_start(buffer, size);
    if (query == NULL || result == NULL)
        return 0;
    const collcalc_result *r = result;
    unsigned facts = r->facts;
    long p = r->gpus, g = r->gpus_per_node;
    if (facts & COLLCALC_FACT_ONE_GPU)
        put(&t, "One GPU: nothing to move.");
    if (facts & COLLCALC_FACT_NON_POWER_OF_TWO) {
        long p2 = p >= 1 ? floor_pow2(p) : 1;
        separate(&t, 0, " ");
        if (r->op == COLLCALC_OP_REDUCE)
            put(&t,
                "p = %ld is not a power of two: the %ld extra ranks fold into partners first "
                "(1 extra step; the result stays at the root), then the algorithm runs on p' = "
                "%ld ranks.",
                p, p - p2, p2);
        else
            put(&t,
                "p = %ld is not a power of two: the %ld extra ranks fold into partners first and "
                "get the result back last (2 extra steps), then the algorithm runs on p' = %ld "
                "ranks.",
                p, p - p2, p2);
    }
    if (facts & COLLCALC_FACT_PIPELINED_CHAIN) {
        separate(&t, 0, " ");
        put(&t, "Pipelined chain: chunks stream down p-1 hops; each middle GPU receives and "
                "forwards S once.");
    }
    if (facts & COLLCALC_FACT_ROOT_BUSIEST) {
        separate(&t, 0, " ");
        put(&t, "The root is the busiest GPU: it %s S in each of ceil(lg p) = %d rounds.",
            r->op == COLLCALC_OP_REDUCE ? "receives" : "sends", p >= 1 ? ceil_log2(p) : 0);
    }
    if (facts & COLLCALC_FACT_CENTRALIZED_ROOT) {
        separate(&t, 0, " ");
        put(&t, "GPU 0 is the bottleneck: it takes in (p-1) x S and sends out (p-1) x S; every "
                "other GPU sends S and receives S.");
    }
    if (facts & COLLCALC_FACT_BRUCK_ALLTOALL) {
        separate(&t, 0, " ");
        put(&t, "Bruck all-to-all trades bandwidth for latency: ceil(lg p) rounds, but each block "
                "travels up to lg p times (local rotations not charged).");
    }
    if (facts & COLLCALC_FACT_REMOTE_PEERS) {
        separate(&t, 0, " ");
        long remote = r->remote_peers, peers = p - 1;
        if (facts & COLLCALC_FACT_BUSIEST_IN_LAST_NODE)
            put(&t,
                "The busiest GPU is in the last node, which holds %d: %ld of its %ld peers are in "
                "other nodes, so %ld/%ld of its traffic crosses the network, where one GPU cannot "
                "use more than %d NIC%s.",
                r->gpus_in_last_node, remote, peers, remote, peers,
                nics_per_gpu_of(&query->cluster), plural(nics_per_gpu_of(&query->cluster)));
        else
            put(&t,
                "%ld of %ld peers are in other nodes: %ld/%ld of the traffic crosses the network, "
                "where one GPU cannot use more than %d NIC%s.",
                remote, peers, remote, peers, nics_per_gpu_of(&query->cluster),
                plural(nics_per_gpu_of(&query->cluster)));
    }
    if (facts & COLLCALC_FACT_HIERARCHICAL) {
        separate(&t, 0, " ");
        if (facts & COLLCALC_FACT_SHARP)
            put(&t,
                "Each GPU sends its S/G across the network once and gets the sum back once "
                "(SHARP reduces in the switches): the node's %ld GPUs split S and each "
                "all-reduces its 1/%ld on its own rail.",
                g, g);
        else
            put(&t,
                "Each GPU sends 2(N-1)/N x S/G across the network: the node's %ld GPUs split S "
                "and each all-reduces its 1/%ld on its own rail.",
                g, g);
    }
    if (facts & COLLCALC_FACT_NVLS_NODE) {
        separate(&t, 0, " ");
        put(&t, "Ideal in-switch reduction: each GPU moves S + S/G each way, so algbw = link "
                "bandwidth x G/(G+1) (NVIDIA's NVLS formula) and nccl-tests' busbw can exceed "
                "the link rate. NCCL's model keeps 0.85 (Hopper) or 0.74 (Blackwell) of it "
                "(nvlsEfficiency).");
    }
    if (facts & COLLCALC_FACT_NVLS_TREE) {
        separate(&t, 0, " ");
        put(&t, "NVLS inside each node (each GPU sends S and gets its reduced S/G back, then sends "
                "S/G and gets all of S back), the network between nodes (NCCL's NVLSTree when "
                "pipelined)%s.",
            (facts & COLLCALC_FACT_SHARP) ? ", where SHARP reduces in the switches" : "");
    }
    if (facts & COLLCALC_FACT_PARTIAL_LAST_NODE) {
        separate(&t, 0, " ");
        put(&t, "%ld GPUs fill %d nodes of %ld in order: the last node holds %d.", p, r->nodes, g,
            r->gpus_in_last_node);
    }
    return t.len;
}
