/* The phase engine: which algorithms exist for which operation, and the
 * arithmetic that turns a builder's phases into times, algbw and busbw:
 *   time = sum over stages of max over the stage's phases of
 *          steps * alpha + max(bytes_out, bytes_in) / bandwidth. */
#include <math.h>
#include <string.h>

#include "phases.h"

typedef struct {
    collcalc_op op;
    collcalc_algo algo;
    builder_fn build;
    bool in_nccl; /* NCCL runs this (ring, tree, NVLS; p2p for all-to-all and send/recv) */
} algorithm_entry;

/* Every (operation, algorithm) the model knows, in the order results are
 * listed. A new algorithm is a builder plus a row here. */
static const algorithm_entry ALGORITHMS[] = {
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RING, build_ring, true},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_TREE, build_double_binary_tree, true},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_CENTRALIZED, build_centralized, false},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RECURSIVE_DOUBLING, build_recursive_doubling, false},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RABENSEIFNER, build_rabenseifner, false},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_HIERARCHICAL, build_hierarchical, false},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_NVLS, build_nvls, true},
    {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_RING, build_ring, true},
    {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_RECURSIVE_DOUBLING, build_recursive_doubling, false},
    {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_BRUCK, build_bruck, false},
    {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_HIERARCHICAL, build_hierarchical, false},
    {COLLCALC_OP_REDUCESCATTER, COLLCALC_ALGO_RING, build_ring, true},
    {COLLCALC_OP_REDUCESCATTER, COLLCALC_ALGO_RECURSIVE_HALVING, build_recursive_halving, false},
    {COLLCALC_OP_REDUCESCATTER, COLLCALC_ALGO_HIERARCHICAL, build_hierarchical, false},
    {COLLCALC_OP_ALLTOALL, COLLCALC_ALGO_PAIRWISE, build_pairwise, true},
    {COLLCALC_OP_ALLTOALL, COLLCALC_ALGO_BRUCK, build_bruck, false},
    {COLLCALC_OP_BROADCAST, COLLCALC_ALGO_RING, build_ring, true},
    {COLLCALC_OP_BROADCAST, COLLCALC_ALGO_BINOMIAL_TREE, build_binomial_tree, false},
    {COLLCALC_OP_BROADCAST, COLLCALC_ALGO_SCATTER_ALLGATHER, build_scatter_allgather, false},
    {COLLCALC_OP_REDUCE, COLLCALC_ALGO_RING, build_ring, true},
    {COLLCALC_OP_REDUCE, COLLCALC_ALGO_BINOMIAL_TREE, build_binomial_tree, false},
    {COLLCALC_OP_REDUCE, COLLCALC_ALGO_RABENSEIFNER, build_rabenseifner, false},
    {COLLCALC_OP_SENDRECV, COLLCALC_ALGO_DIRECT, build_direct_sendrecv, true},
};

enum { ALGORITHM_COUNT = sizeof ALGORITHMS / sizeof ALGORITHMS[0] };

/* Largest cluster the model accepts: far past any real NVLink domain or
 * job, small enough that every count fits comfortably in a long. */
enum { MAX_GPUS = 1 << 20, MAX_NICS = 1024 };

static const algorithm_entry *find_algorithm(collcalc_op op, collcalc_algo algo)
{
    for (int i = 0; i < ALGORITHM_COUNT; i++)
        if (ALGORITHMS[i].op == op && ALGORITHMS[i].algo == algo)
            return &ALGORITHMS[i];
    return NULL;
}

bool collcalc_algo_in_nccl(collcalc_op op, collcalc_algo algo)
{
    const algorithm_entry *entry = find_algorithm(op, algo);
    return entry != NULL && entry->in_nccl;
}

int collcalc_cluster_nodes(const collcalc_cluster *cluster)
{
    if (cluster->gpus_per_node <= 0)
        return 0;
    return (cluster->gpus + cluster->gpus_per_node - 1) / cluster->gpus_per_node;
}

void collcalc_link_params_from_link(const collcalc_link *link, collcalc_bw_basis basis,
                                    collcalc_link_params *out_params)
{
    memset(out_params, 0, sizeof *out_params);
    memcpy(out_params->name, link->name, sizeof out_params->name);
    out_params->name[sizeof out_params->name - 1] = '\0';
    out_params->bw_GBps = collcalc_link_bandwidth_GBps(link, basis);
    out_params->alpha_us = link->alpha_us;
}

void collcalc_cluster_single_link(int gpus, const collcalc_link_params *link,
                                  collcalc_cluster *out_cluster)
{
    memset(out_cluster, 0, sizeof *out_cluster);
    out_cluster->gpus = gpus;
    out_cluster->gpus_per_node = gpus;
    out_cluster->nics_per_node = 1;
    out_cluster->intra = *link;
    out_cluster->inter = *link;
}

bool collcalc_algo_applies(collcalc_op op, collcalc_algo algo, const collcalc_cluster *cluster,
                           const char **why_not)
{
    const char *reason = NULL;
    int p = cluster->gpus;
    int g = cluster->gpus_per_node < p ? cluster->gpus_per_node : p;
    int nodes = collcalc_cluster_nodes(cluster);
    if (find_algorithm(op, algo) == NULL)
        reason = "not an algorithm for this operation";
    else if (algo == COLLCALC_ALGO_RECURSIVE_DOUBLING && op == COLLCALC_OP_ALLGATHER &&
             (p & (p - 1)) != 0)
        reason = "needs a power-of-two GPU count (bruck works for any count)";
    else if (algo == COLLCALC_ALGO_HIERARCHICAL && nodes < 2)
        reason = "needs more than one node";
    else if (algo == COLLCALC_ALGO_NVLS && (!cluster->nvls_intra || g < 2))
        reason = "needs an NVSwitch that reduces in the switch (NVLS)";
    else if ((algo == COLLCALC_ALGO_HIERARCHICAL || algo == COLLCALC_ALGO_NVLS) && p % g != 0)
        reason = "needs every node full";
    if (why_not != NULL)
        *why_not = reason;
    return reason == NULL;
}

static collcalc_status check_link(const collcalc_link_params *link, const char *field,
                                  collcalc_diag *diag)
{
    if (!isfinite(link->bw_GBps) || link->bw_GBps <= 0.0 || link->bw_GBps > 1e7)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s bandwidth must be finite, > 0 and <= 1e7 GB/s", field);
    if (!isfinite(link->alpha_us) || link->alpha_us < 0.0 || link->alpha_us > 1e7)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s alpha must be finite, >= 0 and <= 1e7 us", field);
    return COLLCALC_OK;
}

collcalc_status collcalc_query_validate(const collcalc_query *query, collcalc_diag *diag)
{
    const collcalc_cluster *cluster = &query->cluster;
    if ((unsigned)query->op >= COLLCALC_OP_COUNT)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown operation");
    if (cluster->gpus < 1 || cluster->gpus > MAX_GPUS)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "gpus must be between 1 and %d",
                                  MAX_GPUS);
    if (cluster->gpus_per_node < 1 || cluster->gpus_per_node > MAX_GPUS)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "gpus per node must be between 1 and %d", MAX_GPUS);
    if (cluster->nics_per_node < 1 || cluster->nics_per_node > MAX_NICS)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "NICs per node must be between 1 and %d", MAX_NICS);
    if (!isfinite(query->tree_efficiency) || query->tree_efficiency < 0.0 ||
        query->tree_efficiency > 1.0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "tree efficiency must be in (0, 1]");
    collcalc_status status = check_link(&cluster->intra, "intra link", diag);
    if (status == COLLCALC_OK)
        status = check_link(&cluster->inter, "inter link", diag);
    return status;
}

static bool all_finite(const collcalc_result *r)
{
    double values[] = {r->bytes_sent_per_gpu, r->bytes_received_per_gpu, r->bytes_sent_other_gpu,
                       r->bytes_received_other_gpu, r->latency_us, r->bandwidth_us, r->time_us,
                       r->algbw_GBps, r->busbw_factor, r->busbw_GBps};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        if (!isfinite(values[i]))
            return false;
    for (int i = 0; i < r->phase_count; i++) {
        const collcalc_phase *ph = &r->phases[i];
        if (!isfinite(ph->time_us) || !isfinite(ph->bytes_sent) || !isfinite(ph->bytes_received) ||
            !isfinite(ph->bw_GBps))
            return false;
    }
    return true;
}

/* Turns phases into the result's totals: per phase latency and bandwidth
 * terms; per stage the slowest phase is on the critical path. */
static void total_phases(collcalc_result *r)
{
    for (int i = 0; i < r->phase_count; i++) {
        collcalc_phase *ph = &r->phases[i];
        double bytes = ph->bytes_sent > ph->bytes_received ? ph->bytes_sent : ph->bytes_received;
        ph->latency_us = (double)ph->steps * ph->alpha_us;
        ph->bandwidth_us = bytes > 0.0 ? bytes / (ph->bw_GBps * 1e3) : 0.0;
        ph->time_us = ph->latency_us + ph->bandwidth_us;
        r->bytes_sent_per_gpu += ph->bytes_sent;
        r->bytes_received_per_gpu += ph->bytes_received;
    }
    for (int i = 0; i < r->phase_count;) {
        int critical = i, j = i;
        while (j < r->phase_count && r->phases[j].stage == r->phases[i].stage) {
            if (r->phases[j].time_us > r->phases[critical].time_us)
                critical = j;
            j++;
        }
        r->steps += r->phases[critical].steps;
        r->latency_us += r->phases[critical].latency_us;
        r->bandwidth_us += r->phases[critical].bandwidth_us;
        i = j;
    }
    r->time_us = r->latency_us + r->bandwidth_us;
    r->algbw_GBps = r->time_us > 0.0 ? (double)r->size_bytes / (r->time_us * 1e3) : 0.0;
    r->busbw_GBps = r->algbw_GBps * r->busbw_factor;
    if (r->time_us <= 0.0)
        r->dominant = COLLCALC_DOMINANT_NONE;
    else
        r->dominant = r->latency_us > r->bandwidth_us ? COLLCALC_DOMINANT_LATENCY
                                                      : COLLCALC_DOMINANT_BANDWIDTH;
}

collcalc_status collcalc_model_evaluate(const collcalc_query *query, collcalc_algo algo,
                                        collcalc_result *out_result, collcalc_diag *diag)
{
    collcalc_status status = collcalc_query_validate(query, diag);
    if (status != COLLCALC_OK)
        return status;
    const collcalc_cluster *cluster = &query->cluster;
    const char *why_not = NULL;
    if (!collcalc_algo_applies(query->op, algo, cluster, &why_not))
        return collcalc_diag_fail(diag, COLLCALC_ERR_UNSUPPORTED, "%s %s: %s",
                                  collcalc_algo_name(algo), collcalc_op_name(query->op), why_not);

    collcalc_result *r = out_result;
    memset(r, 0, sizeof *r);
    build_ctx ctx = {.query = query, .result = r, .p = cluster->gpus};
    ctx.g = cluster->gpus_per_node < ctx.p ? cluster->gpus_per_node : ctx.p;
    ctx.nodes = (ctx.p + ctx.g - 1) / ctx.g;
    ctx.last = ctx.p - (ctx.nodes - 1) * ctx.g;
    ctx.size = (double)query->size_bytes;
    r->op = query->op;
    r->algo = algo;
    r->gpus = ctx.p;
    r->nodes = ctx.nodes;
    r->gpus_in_last_node = ctx.last;
    r->size_bytes = query->size_bytes;
    r->busbw_factor = collcalc_busbw_factor(query->op, ctx.p);

    if (ctx.p > 1) {
        status = find_algorithm(query->op, algo)->build(&ctx, diag);
        if (status != COLLCALC_OK)
            return status;
    } else {
        result_note(&ctx, "One GPU: nothing to move.");
    }
    if (ctx.last < ctx.g)
        result_note(&ctx, "%d GPUs fill %d nodes of %d in order: the last node holds %d.", ctx.p,
                    ctx.nodes, ctx.g, ctx.last);
    total_phases(r);
    if (!r->others_differ) {
        r->bytes_sent_other_gpu = r->bytes_sent_per_gpu;
        r->bytes_received_other_gpu = r->bytes_received_per_gpu;
    }
    if (!all_finite(r))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s %s: the figures overflow (size or cluster too large)",
                                  collcalc_algo_name(algo), collcalc_op_name(query->op));
    return COLLCALC_OK;
}

collcalc_status collcalc_model_evaluate_all(const collcalc_query *query, collcalc_result *results,
                                            size_t capacity, size_t *out_count,
                                            size_t *out_fastest, collcalc_diag *diag)
{
    collcalc_status status = collcalc_query_validate(query, diag);
    if (status != COLLCALC_OK)
        return status;
    size_t count = 0;
    for (int i = 0; i < ALGORITHM_COUNT; i++) {
        if (ALGORITHMS[i].op != query->op ||
            !collcalc_algo_applies(query->op, ALGORITHMS[i].algo, &query->cluster, NULL))
            continue;
        if (count >= capacity)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "result array too small");
        status = collcalc_model_evaluate(query, ALGORITHMS[i].algo, &results[count], diag);
        if (status != COLLCALC_OK)
            return status;
        count++;
    }
    *out_count = count;
    *out_fastest = collcalc_fastest_index(results, count);
    return COLLCALC_OK;
}

size_t collcalc_fastest_index(const collcalc_result *results, size_t count)
{
    size_t best = 0;
    for (size_t i = 1; i < count; i++) {
        /* The centralized all-reduce is the seed's counter-example, not a
         * contender: its 2 steps hide p-1 messages converging on one port. */
        bool contender = results[i].algo != COLLCALC_ALGO_CENTRALIZED;
        bool best_is_contender = results[best].algo != COLLCALC_ALGO_CENTRALIZED;
        if (contender && (!best_is_contender || results[i].time_us < results[best].time_us))
            best = i;
    }
    return best;
}
