/* Names and aliases of operations, algorithms and enums, and nccl-tests'
 * busbw factors. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <strings.h>

#include "collcalc/model.h"

typedef struct {
    const char *alias;
    int value;
} alias_entry;

static const char *const OP_NAMES[COLLCALC_OP_COUNT] = {
    "allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce", "sendrecv"};
static const char *const OP_TITLES[COLLCALC_OP_COUNT] = {
    "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "broadcast", "reduce", "send/recv"};

static const alias_entry OP_ALIASES[] = {
    {"all-reduce", COLLCALC_OP_ALLREDUCE},     {"all_reduce", COLLCALC_OP_ALLREDUCE},
    {"ar", COLLCALC_OP_ALLREDUCE},             {"all-gather", COLLCALC_OP_ALLGATHER},
    {"all_gather", COLLCALC_OP_ALLGATHER},     {"ag", COLLCALC_OP_ALLGATHER},
    {"reduce-scatter", COLLCALC_OP_REDUCESCATTER}, {"reduce_scatter", COLLCALC_OP_REDUCESCATTER},
    {"rs", COLLCALC_OP_REDUCESCATTER},         {"all-to-all", COLLCALC_OP_ALLTOALL},
    {"all_to_all", COLLCALC_OP_ALLTOALL},      {"a2a", COLLCALC_OP_ALLTOALL},
    {"bcast", COLLCALC_OP_BROADCAST},          {"send-recv", COLLCALC_OP_SENDRECV},
    {"send_recv", COLLCALC_OP_SENDRECV},       {"p2p", COLLCALC_OP_SENDRECV},
};

static const char *const ALGO_NAMES[COLLCALC_ALGO_COUNT] = {
    "ring",         "tree",          "centralized",       "recursive-doubling", "recursive-halving",
    "rabenseifner", "bruck",         "pairwise",          "binomial-tree",      "scatter-allgather",
    "direct",       "hierarchical",  "nvls"};

static const alias_entry ALGO_ALIASES[] = {
    {"chain", COLLCALC_ALGO_RING},
    {"dbt", COLLCALC_ALGO_TREE},
    {"double-binary-tree", COLLCALC_ALGO_TREE},
    {"naive", COLLCALC_ALGO_CENTRALIZED},
    {"root", COLLCALC_ALGO_CENTRALIZED},
    {"rd", COLLCALC_ALGO_RECURSIVE_DOUBLING},
    {"halving", COLLCALC_ALGO_RECURSIVE_HALVING},
    {"halving-doubling", COLLCALC_ALGO_RABENSEIFNER},
    {"binomial", COLLCALC_ALGO_BINOMIAL_TREE},
    {"van-de-geijn", COLLCALC_ALGO_SCATTER_ALLGATHER},
    {"2d", COLLCALC_ALGO_HIERARCHICAL},
    {"hier", COLLCALC_ALGO_HIERARCHICAL},
    {"nvlink-sharp", COLLCALC_ALGO_NVLS},
};

const char *collcalc_op_name(collcalc_op op)
{
    return (unsigned)op < COLLCALC_OP_COUNT ? OP_NAMES[op] : "unknown";
}

const char *collcalc_op_title(collcalc_op op)
{
    return (unsigned)op < COLLCALC_OP_COUNT ? OP_TITLES[op] : "unknown";
}

const char *collcalc_algo_name(collcalc_algo algo)
{
    return (unsigned)algo < COLLCALC_ALGO_COUNT ? ALGO_NAMES[algo] : "unknown";
}

const char *collcalc_dominant_name(collcalc_dominant dominant)
{
    switch (dominant) {
    case COLLCALC_DOMINANT_LATENCY: return "latency";
    case COLLCALC_DOMINANT_BANDWIDTH: return "bandwidth";
    case COLLCALC_DOMINANT_NONE: break;
    }
    return "none";
}

const char *collcalc_scope_name(collcalc_scope scope)
{
    switch (scope) {
    case COLLCALC_SCOPE_INTRA: return "intra";
    case COLLCALC_SCOPE_INTER: return "inter";
    case COLLCALC_SCOPE_SPANNING: return "intra+inter";
    }
    return "unknown";
}

static int lookup(const char *name, const char *const *names, int count,
                  const alias_entry *aliases, size_t alias_count)
{
    if (name == NULL)
        return -1;
    for (int i = 0; i < count; i++)
        if (strcasecmp(name, names[i]) == 0)
            return i;
    for (size_t i = 0; i < alias_count; i++)
        if (strcasecmp(name, aliases[i].alias) == 0)
            return aliases[i].value;
    return -1;
}

collcalc_status collcalc_op_from_name(const char *name, collcalc_op *out_op, collcalc_diag *diag)
{
    int found = lookup(name, OP_NAMES, COLLCALC_OP_COUNT, OP_ALIASES,
                       sizeof OP_ALIASES / sizeof OP_ALIASES[0]);
    if (found < 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOT_FOUND,
                                  "unknown operation '%s' (known: allreduce, allgather, "
                                  "reducescatter, alltoall, broadcast, reduce, sendrecv)",
                                  name != NULL ? name : "");
    *out_op = (collcalc_op)found;
    return COLLCALC_OK;
}

collcalc_status collcalc_algo_from_name(const char *name, collcalc_algo *out_algo,
                                        collcalc_diag *diag)
{
    int found = lookup(name, ALGO_NAMES, COLLCALC_ALGO_COUNT, ALGO_ALIASES,
                       sizeof ALGO_ALIASES / sizeof ALGO_ALIASES[0]);
    if (found < 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOT_FOUND,
                                  "unknown algorithm '%s' (known: ring, tree, centralized, "
                                  "recursive-doubling, recursive-halving, rabenseifner, bruck, "
                                  "pairwise, binomial-tree, scatter-allgather, direct, "
                                  "hierarchical, nvls, or all)",
                                  name != NULL ? name : "");
    *out_algo = (collcalc_algo)found;
    return COLLCALC_OK;
}
