/* Hops and phase construction shared by every algorithm builder. */
#include "phases.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int floor_log2(long x)
{
    int bits = 0;
    while (x > 1) {
        x >>= 1;
        bits++;
    }
    return bits;
}

int ceil_log2(long x)
{
    int bits = floor_log2(x);
    return (1L << bits) < x ? bits + 1 : bits;
}

long floor_pow2(long x)
{
    return 1L << floor_log2(x);
}

static double min_double(double a, double b)
{
    return a < b ? a : b;
}

hop hop_intra(const build_ctx *ctx)
{
    const collcalc_link_params *intra = &ctx->query->cluster.intra;
    hop h = {.scope = COLLCALC_SCOPE_INTRA, .alpha_us = intra->alpha_us, .bw_GBps = intra->bw_GBps};
    snprintf(h.link, sizeof h.link, "%s", intra->name);
    return h;
}

/* NICs a node can drive: a full node has K; a partial last node with r GPUs
 * has the r/G share of them that sits next to its GPUs (rail-optimized
 * layout), at least one. */
static int usable_nics(const build_ctx *ctx, int gpus_in_node)
{
    int k = ctx->query->cluster.nics_per_node;
    if (gpus_in_node >= ctx->g)
        return k;
    long share = (long)k * gpus_in_node / ctx->g;
    return share < 1 ? 1 : (int)share;
}

hop hop_inter_all_gpus(const build_ctx *ctx)
{
    const collcalc_link_params *inter = &ctx->query->cluster.inter;
    int k = ctx->query->cluster.nics_per_node;
    double share = min_double(1.0, (double)k / ctx->g);
    hop h = {.scope = COLLCALC_SCOPE_INTER, .alpha_us = inter->alpha_us,
             .bw_GBps = inter->bw_GBps * share};
    snprintf(h.link, sizeof h.link, "%s", inter->name);
    if (share < 1.0)
        snprintf(h.note, sizeof h.note,
                 "%d GPUs share %d NICs: each GPU gets %g x %g GB/s = %g GB/s", ctx->g, k,
                 share, inter->bw_GBps, h.bw_GBps);
    else
        snprintf(h.note, sizeof h.note, "one %s NIC per GPU at %g GB/s", inter->name,
                 inter->bw_GBps);
    return h;
}

hop hop_inter_one_gpu(const build_ctx *ctx)
{
    const collcalc_link_params *inter = &ctx->query->cluster.inter;
    hop h = {.scope = COLLCALC_SCOPE_INTER, .alpha_us = inter->alpha_us, .bw_GBps = inter->bw_GBps};
    snprintf(h.link, sizeof h.link, "%s", inter->name);
    snprintf(h.note, sizeof h.note, "one GPU per node crosses on one %s NIC at %g GB/s",
             inter->name, inter->bw_GBps);
    return h;
}

hop hop_ring(const build_ctx *ctx)
{
    if (ctx->nodes == 1)
        return hop_intra(ctx);
    const collcalc_cluster *cluster = &ctx->query->cluster;
    int nics = usable_nics(ctx, ctx->g);
    if (ctx->last < ctx->g && usable_nics(ctx, ctx->last) < nics)
        nics = usable_nics(ctx, ctx->last);
    double nic_bw = nics * cluster->inter.bw_GBps;
    hop h = {.scope = COLLCALC_SCOPE_SPANNING, .alpha_us = cluster->inter.alpha_us,
             .bw_GBps = nic_bw};
    if (ctx->g > 1) {
        /* A chunk going once around crosses N-1 node boundaries in p-1 hops
         * (NCCL counts the same: nInterSteps = N-1 per ring pass), so a step
         * costs the mean hop latency. */
        long intra_hops = ctx->p - ctx->nodes, inter_hops = ctx->nodes - 1;
        h.alpha_us = ((double)intra_hops * cluster->intra.alpha_us +
                      (double)inter_hops * cluster->inter.alpha_us) /
                     (double)(ctx->p - 1);
        h.bw_GBps = min_double(cluster->intra.bw_GBps, nic_bw);
        snprintf(h.link, sizeof h.link, "%s+%s", cluster->intra.name, cluster->inter.name);
        snprintf(h.note, sizeof h.note,
                 "flat ring over %d nodes: min(%s %g GB/s, %d NIC%s x %s %g GB/s) = %g GB/s; "
                 "per pass %ld hops of %g us and %ld of %g us, alpha = their mean %.4g us",
                 ctx->nodes, cluster->intra.name, cluster->intra.bw_GBps, nics, nics == 1 ? "" : "s",
                 cluster->inter.name, cluster->inter.bw_GBps, h.bw_GBps, intra_hops,
                 cluster->intra.alpha_us, inter_hops, cluster->inter.alpha_us, h.alpha_us);
    } else {
        snprintf(h.link, sizeof h.link, "%s", cluster->inter.name);
        snprintf(h.note, sizeof h.note,
                 "one GPU per node: every ring hop is a %s hop, %d NIC%s x %g GB/s = %g GB/s",
                 cluster->inter.name, nics, nics == 1 ? "" : "s", cluster->inter.bw_GBps,
                 h.bw_GBps);
    }
    return h;
}

hop hop_xor(const build_ctx *ctx, long distance)
{
    /* Pairs (r, r ^ d) stay inside aligned blocks of 2d ranks; they share a
     * node when such blocks tile the node. */
    bool same_node = ctx->nodes == 1 || (distance < ctx->g && ctx->g % (2 * distance) == 0);
    return same_node ? hop_intra(ctx) : hop_inter_all_gpus(ctx);
}

hop hop_shift(const build_ctx *ctx, long distance)
{
    (void)distance;
    return ctx->nodes == 1 ? hop_intra(ctx) : hop_inter_all_gpus(ctx);
}

collcalc_phase *add_phase(build_ctx *ctx, const char *label, bool concurrent, long steps,
                          double bytes_sent, double bytes_received, const hop *how)
{
    collcalc_result *result = ctx->result;
    if (result->phase_count >= COLLCALC_MAX_PHASES)
        return NULL;
    collcalc_phase *phase = &result->phases[result->phase_count++];
    memset(phase, 0, sizeof *phase);
    if (!concurrent || result->phase_count == 1)
        ctx->stage++;
    phase->stage = ctx->stage;
    snprintf(phase->label, sizeof phase->label, "%s", label);
    snprintf(phase->link, sizeof phase->link, "%s", how->link);
    snprintf(phase->note, sizeof phase->note, "%s", how->note);
    phase->scope = how->scope;
    phase->steps = steps;
    phase->alpha_us = how->alpha_us;
    phase->bytes_sent = bytes_sent;
    phase->bytes_received = bytes_received;
    phase->bw_GBps = how->bw_GBps;
    phase->efficiency = 1.0;
    return phase;
}

static bool same_hop(const hop *a, const hop *b)
{
    return a->scope == b->scope && a->alpha_us == b->alpha_us && a->bw_GBps == b->bw_GBps;
}

void add_steps(build_ctx *ctx, const char *label, int count, const hop *hops,
               const double *sent, const double *received)
{
    bool split = false;
    for (int i = 1; i < count; i++)
        split = split || !same_hop(&hops[i], &hops[0]);
    int start = 0;
    while (start < count) {
        int end = start + 1;
        double run_sent = sent[start], run_received = received[start];
        while (end < count && same_hop(&hops[end], &hops[start])) {
            run_sent += sent[end];
            run_received += received[end];
            end++;
        }
        char name[48];
        if (split)
            snprintf(name, sizeof name, "%s (%s)", label, collcalc_scope_name(hops[start].scope));
        else
            snprintf(name, sizeof name, "%s", label);
        add_phase(ctx, name, false, end - start, run_sent, run_received, &hops[start]);
        start = end;
    }
}

void result_note(build_ctx *ctx, const char *format, ...)
{
    char *note = ctx->result->note;
    size_t used = strlen(note);
    if (used > 0 && used + 1 < COLLCALC_NOTE_MAX)
        note[used++] = ' ';
    if (used + 1 >= COLLCALC_NOTE_MAX)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(note + used, COLLCALC_NOTE_MAX - used, format, args);
    va_end(args);
}
