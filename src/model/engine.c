/* The phase engine: the registry of algorithms (which apply to which
 * operation and cluster, which may be called fastest, which NCCL runs), and
 * the arithmetic that turns a builder's phases into times, algbw and busbw
 * (doc/MODEL.md §2):
 *   time = sum over stages of max over the stage's phases of
 *          steps * alpha + max(bytes_out, bytes_in) / bandwidth. */
#include <math.h>
#include <string.h>

#include "phases.h"

/* The cluster's shape as the predicates see it (the cluster may not be
 * validated yet: counts below 1 give 0 nodes, which no predicate accepts). */
typedef struct {
    int p, g, nodes;
} shape;

static shape shape_of(const collcalc_cluster *cluster)
{
    shape s = {.p = cluster->gpus, .g = cluster->gpus_per_node, .nodes = 0};
    if (s.p < 1 || s.g < 1)
        return s;
    if (s.g > s.p)
        s.g = s.p;
    s.nodes = (s.p + s.g - 1) / s.g;
    return s;
}

/* Applicability predicates: NULL when the algorithm applies, else a static
 * sentence saying why not. A row without a predicate always applies. */
typedef const char *(*applies_fn)(collcalc_op op, const collcalc_cluster *cluster);

static const char *needs_power_of_two(collcalc_op op, const collcalc_cluster *cluster)
{
    (void)op;
    int p = cluster->gpus;
    return p >= 1 && (p & (p - 1)) == 0
               ? NULL
               : "needs a power-of-two GPU count (bruck works for any count)";
}

static const char *needs_full_nodes(collcalc_op op, const collcalc_cluster *cluster)
{
    (void)op;
    shape s = shape_of(cluster);
    if (s.nodes < 2)
        return "needs more than one node";
    if (s.p % s.g != 0)
        return "needs every node full";
    return NULL;
}

static const char *needs_nvswitch_reduction(collcalc_op op, const collcalc_cluster *cluster)
{
    (void)op;
    shape s = shape_of(cluster);
    if (!cluster->nvls_intra || s.g < 2)
        return "needs an NVSwitch that reduces in the switch (NVLS)";
    if (!cluster->intra.nvlink)
        return "needs an NVSwitch that reduces in the switch (NVLS): the intra link is not NVLink";
    if (s.nodes > 1 && s.p % s.g != 0)
        return "needs every node full";
    return NULL;
}

typedef struct {
    collcalc_op op;
    collcalc_algo algo;
    builder_fn build;
    applies_fn applies;  /* NULL: always */
    bool in_nccl;        /* NCCL runs this (ring, tree, NVLS; p2p for all-to-all and send/recv) */
    bool may_be_fastest; /* may be called "fastest" (not the centralized counter-example) */
} algorithm_entry;

/* Every (operation, algorithm) the model knows, in the order results are
 * listed. A new algorithm is a builder plus a row here. */
static const algorithm_entry ALGORITHMS[] = {
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RING, build_ring, NULL, true, true},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_TREE, build_double_binary_tree, NULL, true, true},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_CENTRALIZED, build_centralized, NULL, false, false},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RECURSIVE_DOUBLING, build_recursive_doubling, NULL, false, true},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_RABENSEIFNER, build_rabenseifner, NULL, false, true},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_HIERARCHICAL, build_hierarchical, needs_full_nodes, false, true},
    {COLLCALC_OP_ALLREDUCE, COLLCALC_ALGO_NVLS, build_nvls, needs_nvswitch_reduction, true, true},
    {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_RING, build_ring, NULL, true, true},
    {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_RECURSIVE_DOUBLING, build_recursive_doubling, needs_power_of_two, false, true},
    {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_BRUCK, build_bruck, NULL, false, true},
    {COLLCALC_OP_ALLGATHER, COLLCALC_ALGO_HIERARCHICAL, build_hierarchical, needs_full_nodes, false, true},
    {COLLCALC_OP_REDUCESCATTER, COLLCALC_ALGO_RING, build_ring, NULL, true, true},
    {COLLCALC_OP_REDUCESCATTER, COLLCALC_ALGO_RECURSIVE_HALVING, build_recursive_halving, NULL, false, true},
    {COLLCALC_OP_REDUCESCATTER, COLLCALC_ALGO_HIERARCHICAL, build_hierarchical, needs_full_nodes, false, true},
    {COLLCALC_OP_ALLTOALL, COLLCALC_ALGO_PAIRWISE, build_pairwise, NULL, true, true},
    {COLLCALC_OP_ALLTOALL, COLLCALC_ALGO_BRUCK, build_bruck, NULL, false, true},
    {COLLCALC_OP_BROADCAST, COLLCALC_ALGO_RING, build_ring, NULL, true, true},
    {COLLCALC_OP_BROADCAST, COLLCALC_ALGO_BINOMIAL_TREE, build_binomial_tree, NULL, false, true},
    {COLLCALC_OP_BROADCAST, COLLCALC_ALGO_SCATTER_ALLGATHER, build_scatter_allgather, NULL, false, true},
    {COLLCALC_OP_REDUCE, COLLCALC_ALGO_RING, build_ring, NULL, true, true},
    {COLLCALC_OP_REDUCE, COLLCALC_ALGO_BINOMIAL_TREE, build_binomial_tree, NULL, false, true},
    {COLLCALC_OP_REDUCE, COLLCALC_ALGO_RABENSEIFNER, build_rabenseifner, NULL, false, true},
    {COLLCALC_OP_SENDRECV, COLLCALC_ALGO_DIRECT, build_direct_sendrecv, NULL, true, true},
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

static const char *row_why_not(const algorithm_entry *entry, const collcalc_cluster *cluster)
{
    if (entry == NULL)
        return "not an algorithm for this operation";
    return entry->applies != NULL ? entry->applies(entry->op, cluster) : NULL;
}

size_t collcalc_algos_for_op(collcalc_op op, collcalc_algo *out, size_t capacity)
{
    size_t count = 0;
    for (int i = 0; i < ALGORITHM_COUNT; i++) {
        if (ALGORITHMS[i].op != op)
            continue;
        if (out != NULL && count < capacity)
            out[count] = ALGORITHMS[i].algo;
        count++;
    }
    return count;
}

bool collcalc_algo_in_nccl(collcalc_op op, collcalc_algo algo)
{
    const algorithm_entry *entry = find_algorithm(op, algo);
    return entry != NULL && entry->in_nccl;
}

bool collcalc_algo_may_be_fastest(collcalc_op op, collcalc_algo algo)
{
    const algorithm_entry *entry = find_algorithm(op, algo);
    return entry != NULL && entry->may_be_fastest;
}

bool collcalc_algo_applies(collcalc_op op, collcalc_algo algo, const collcalc_cluster *cluster,
                           const char **why_not)
{
    const char *reason = row_why_not(find_algorithm(op, algo), cluster);
    if (why_not != NULL)
        *why_not = reason;
    return reason == NULL;
}

int collcalc_cluster_nodes(const collcalc_cluster *cluster)
{
    if (cluster->gpus_per_node <= 0)
        return 0;
    return (cluster->gpus + cluster->gpus_per_node - 1) / cluster->gpus_per_node;
}

void collcalc_cluster_init(collcalc_cluster *cluster)
{
    if (cluster == NULL)
        return;
    memset(cluster, 0, sizeof *cluster);
    cluster->gpus = 1;
    cluster->gpus_per_node = 1;
    cluster->nics_per_node = 1;
    cluster->nics_per_gpu = 1;
    collcalc_link_params_init(&cluster->intra);
    collcalc_link_params_init(&cluster->inter);
}

void collcalc_query_init(collcalc_query *query)
{
    if (query == NULL)
        return;
    memset(query, 0, sizeof *query);
    query->op = COLLCALC_OP_ALLREDUCE;
    collcalc_cluster_init(&query->cluster);
    query->tree_efficiency = 0.0; /* the default, COLLCALC_TREE_EFFICIENCY_DEFAULT */
}

void collcalc_cluster_single_link(int gpus, const collcalc_link_params *link,
                                  collcalc_cluster *out_cluster)
{
    collcalc_cluster_init(out_cluster);
    out_cluster->gpus = gpus;
    out_cluster->gpus_per_node = gpus;
    out_cluster->intra = *link;
    out_cluster->inter = *link;
}

static collcalc_status check_link(const collcalc_link_params *link, const char *field,
                                  collcalc_diag *diag)
{
    if (!(link->bw_GBps > 0.0 && link->bw_GBps <= 1e7)) /* also refuses NaN */
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s bandwidth must be finite, > 0 and <= 1e7 GB/s", field);
    if (!(link->alpha_us >= 0.0 && link->alpha_us <= 1e7))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s alpha must be finite, >= 0 and <= 1e7 us", field);
    if (!(link->p2p_efficiency >= 0.0 && link->p2p_efficiency <= 1.0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s point-to-point efficiency must be 0 (none) or in (0, 1]",
                                  field);
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
    if (cluster->nics_per_gpu < 0 || cluster->nics_per_gpu > MAX_NICS)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "NICs per GPU must be between 1 and %d", MAX_NICS);
    if (!(query->tree_efficiency >= 0.0 && query->tree_efficiency <= 1.0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "tree efficiency must be in (0, 1]");
    collcalc_status status = check_link(&cluster->intra, "intra link", diag);
    if (status == COLLCALC_OK)
        status = check_link(&cluster->inter, "inter link", diag);
    return status;
}

static bool all_finite(const collcalc_result *r)
{
    /* time_us bounds every phase time on the critical path; a phase off it
     * is checked on its own. Sums of finite non-negative terms: one check
     * each. */
    double sum = r->bytes_sent_per_gpu + r->bytes_received_per_gpu + r->bytes_sent_other_gpu +
                 r->bytes_received_other_gpu + r->time_us + r->algbw_GBps + r->busbw_GBps;
    for (int i = 0; i < r->phase_count; i++)
        sum += r->phases[i].time_us + r->phases[i].bw_GBps;
    return isfinite(sum);
}

/* Turns phases into the result's totals: per phase latency and bandwidth
 * terms; per stage the slowest phase is on the critical path. A stage is a
 * run of consecutive phases with one stage number, so one pass does it all:
 * the slowest phase of the run so far (the first on ties) is added when the
 * run ends. size is r->size_bytes as a double (the caller has it). */
static void total_phases(collcalc_result *r, double size)
{
    double sent = 0.0, received = 0.0;
    long steps = 0;
    double latency = 0.0, bandwidth = 0.0;
    const collcalc_phase *critical = NULL; /* of the stage under way */
    for (int i = 0; i < r->phase_count; i++) {
        collcalc_phase *ph = &r->phases[i];
        double bytes = ph->bytes_sent > ph->bytes_received ? ph->bytes_sent : ph->bytes_received;
        ph->latency_us = (double)ph->steps * ph->alpha_us;
        ph->bandwidth_us = bytes > 0.0 ? bytes / (ph->bw_GBps * 1e3) : 0.0;
        ph->time_us = ph->latency_us + ph->bandwidth_us;
        sent += ph->bytes_sent;
        received += ph->bytes_received;
        if (critical == NULL || ph->time_us > critical->time_us)
            critical = ph;
        if (i + 1 == r->phase_count || r->phases[i + 1].stage != ph->stage) {
            steps += critical->steps;
            latency += critical->latency_us;
            bandwidth += critical->bandwidth_us;
            critical = NULL;
        }
    }
    r->bytes_sent_per_gpu = sent;
    r->bytes_received_per_gpu = received;
    r->steps = steps;
    r->latency_us = latency;
    r->bandwidth_us = bandwidth;
    r->time_us = latency + bandwidth;
    r->algbw_GBps = r->time_us > 0.0 ? size / (r->time_us * 1e3) : 0.0;
    r->busbw_GBps = r->algbw_GBps * r->busbw_factor;
    if (r->time_us <= 0.0)
        r->dominant = COLLCALC_DOMINANT_NONE;
    else
        r->dominant = latency > bandwidth ? COLLCALC_DOMINANT_LATENCY : COLLCALC_DOMINANT_BANDWIDTH;
    if (!r->others_differ) { /* the other GPUs move what the busiest does */
        r->bytes_sent_other_gpu = sent;
        r->bytes_received_other_gpu = received;
    }
}

/* Evaluates one row on a validated query whose row applies, for size_bytes
 * (the query's own size is not read). */
static collcalc_status evaluate_row(const collcalc_query *query, uint64_t size_bytes,
                                    const algorithm_entry *entry, collcalc_result *r,
                                    collcalc_diag *diag)
{
    const collcalc_cluster *cluster = &query->cluster;
    build_ctx ctx = {.query = query, .result = r, .p = cluster->gpus};
    ctx.g = cluster->gpus_per_node < ctx.p ? cluster->gpus_per_node : ctx.p;
    ctx.nodes = (ctx.p + ctx.g - 1) / ctx.g;
    ctx.last = ctx.p - (ctx.nodes - 1) * ctx.g;
    ctx.size = (double)size_bytes;
    r->op = query->op;
    r->algo = entry->algo;
    r->gpus = ctx.p;
    r->nodes = ctx.nodes;
    r->gpus_per_node = ctx.g;
    r->gpus_in_last_node = ctx.last;
    r->size_bytes = size_bytes;
    r->busbw_factor = collcalc_busbw_factor(query->op, ctx.p);
    r->others_differ = false;
    r->bytes_sent_other_gpu = 0.0; /* a builder that sets others_differ sets these */
    r->bytes_received_other_gpu = 0.0;
    r->facts = ctx.last < ctx.g ? COLLCALC_FACT_PARTIAL_LAST_NODE : 0u;
    r->remote_peers = 0;
    r->phase_count = 0;

    if (ctx.p > 1)
        entry->build(&ctx);
    else
        r->facts |= COLLCALC_FACT_ONE_GPU;
    total_phases(r, ctx.size);
    if (!all_finite(r))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s %s: the figures overflow (size or cluster too large)",
                                  collcalc_algo_name(entry->algo), collcalc_op_name(query->op));
    return COLLCALC_OK;
}

collcalc_status collcalc_model_rows(const collcalc_query *query, const collcalc_algo *algos,
                                    size_t algo_count, collcalc_model_row *out_rows,
                                    size_t capacity, size_t *out_count, collcalc_diag *diag)
{
    collcalc_status status = collcalc_query_validate(query, diag);
    if (status != COLLCALC_OK)
        return status;
    size_t count = 0;
    size_t wanted = algo_count > 0 ? algo_count : (size_t)ALGORITHM_COUNT;
    for (size_t i = 0; i < wanted; i++) {
        const algorithm_entry *entry;
        if (algo_count > 0) {
            entry = find_algorithm(query->op, algos[i]);
            const char *why_not = row_why_not(entry, &query->cluster);
            if (why_not != NULL)
                return collcalc_diag_fail(diag, COLLCALC_ERR_UNSUPPORTED, "%s %s: %s",
                                          collcalc_algo_name(algos[i]),
                                          collcalc_op_name(query->op), why_not);
        } else {
            entry = &ALGORITHMS[i];
            if (entry->op != query->op || row_why_not(entry, &query->cluster) != NULL)
                continue;
        }
        if (count >= capacity)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "row array too small");
        out_rows[count++].index = (int)(entry - ALGORITHMS);
    }
    *out_count = count;
    return COLLCALC_OK;
}

collcalc_status collcalc_model_evaluate_row(const collcalc_query *query, collcalc_model_row row,
                                            uint64_t size_bytes, collcalc_result *out_result,
                                            collcalc_diag *diag)
{
    /* The cheap guards of what collcalc_model_rows checked: a row of the
     * query's op, and a cluster the row's arithmetic can take. */
    if (row.index < 0 || row.index >= ALGORITHM_COUNT || ALGORITHMS[row.index].op != query->op ||
        query->cluster.gpus < 1 || query->cluster.gpus_per_node < 1)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "a row collcalc_model_rows did not give for this query");
    return evaluate_row(query, size_bytes, &ALGORITHMS[row.index], out_result, diag);
}

collcalc_status collcalc_model_evaluate(const collcalc_query *query, collcalc_algo algo,
                                        collcalc_result *out_result, collcalc_diag *diag)
{
    collcalc_model_row row;
    size_t count = 0;
    collcalc_status status = collcalc_model_rows(query, &algo, 1, &row, 1, &count, diag);
    if (status != COLLCALC_OK)
        return status;
    return collcalc_model_evaluate_row(query, row, query->size_bytes, out_result, diag);
}

collcalc_status collcalc_model_evaluate_all(const collcalc_query *query, collcalc_result *results,
                                            size_t capacity, size_t *out_count,
                                            size_t *out_fastest, collcalc_diag *diag)
{
    collcalc_model_row rows[ALGORITHM_COUNT];
    size_t count = 0;
    collcalc_status status = collcalc_model_rows(query, NULL, 0, rows, ALGORITHM_COUNT, &count,
                                                 diag);
    if (status != COLLCALC_OK)
        return status;
    if (count > capacity)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "result array too small");
    for (size_t i = 0; i < count; i++) {
        status = collcalc_model_evaluate_row(query, rows[i], query->size_bytes, &results[i], diag);
        if (status != COLLCALC_OK)
            return status;
    }
    *out_count = count;
    *out_fastest = collcalc_fastest_index(results, count);
    return COLLCALC_OK;
}

size_t collcalc_fastest_index(const collcalc_result *results, size_t count)
{
    if (count <= 1)
        return 0; /* what the loop below gives for one result or none */
    size_t best = count;
    for (size_t i = 0; i < count; i++) {
        if (!collcalc_algo_may_be_fastest(results[i].op, results[i].algo))
            continue;
        if (best == count || results[i].time_us < results[best].time_us)
            best = i;
    }
    return best == count ? 0 : best;
}

collcalc_status collcalc_repeat_totals(const collcalc_result *result, long layers, long per_layer,
                                       collcalc_totals *out_totals, collcalc_diag *diag)
{
    if (layers < 1)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "layers must be at least 1 (got %ld)",
                                  layers);
    if (per_layer < 1)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "per-layer count must be at least 1 (got %ld)", per_layer);
    long count;
    if (__builtin_mul_overflow(layers, per_layer, &count))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%ld layers x %ld per layer overflows", layers, per_layer);
    double n = (double)count;
    collcalc_totals totals = {.count = count,
                              .total_latency_us = result->latency_us * n,
                              .total_bandwidth_us = result->bandwidth_us * n,
                              .total_time_us = result->time_us * n};
    if (!isfinite(totals.total_latency_us + totals.total_bandwidth_us + totals.total_time_us))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%ld repetitions: the totals overflow", count);
    *out_totals = totals;
    return COLLCALC_OK;
}
