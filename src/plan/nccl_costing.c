/* The costing hook that predicts a planner's collectives with the
 * NCCL-faithful model (collcalc/nccl_model.h) for a platform preset,
 * falling back to the alpha-beta model for what NCCL's tuner does not cost
 * (collcalc/plan.h). */
#include "plan_internal.h"

#include <string.h>

void collcalc_nccl_costing_init(collcalc_nccl_costing *costing)
{
    if (costing == NULL)
        return;
    memset(costing, 0, sizeof *costing);
    collcalc_nccl_options_init(&costing->options);
    costing->launch = COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
}

static collcalc_algo our_algo(collcalc_nccl_algo algo, collcalc_algo fallback)
{
    switch (algo) {
    case COLLCALC_NCCL_RING: return COLLCALC_ALGO_RING;
    case COLLCALC_NCCL_TREE: return COLLCALC_ALGO_TREE;
    case COLLCALC_NCCL_NVLS:
    case COLLCALC_NCCL_NVLS_TREE: return COLLCALC_ALGO_NVLS;
    case COLLCALC_NCCL_COLLNET_DIRECT:
    case COLLCALC_NCCL_COLLNET_CHAIN:
    case COLLCALC_NCCL_PAT:
    case COLLCALC_NCCL_P2P: break;
    }
    return fallback;
}

collcalc_status collcalc_cost_nccl_platform(const collcalc_query *query, void *context,
                                            collcalc_result *out_result, collcalc_diag *diag)
{
    collcalc_nccl_costing *c = context;
    if (c == NULL || c->platform == NULL || c->links == NULL || c->constants == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "the NCCL costing needs a platform, links and constants");
    /* The alpha-beta result gives the shape (steps, bytes, phases). */
    collcalc_status status = collcalc_cost_fastest_nccl(query, NULL, out_result, diag);
    if (status != COLLCALC_OK)
        return status;
    const collcalc_cluster *cl = &query->cluster;
    collcalc_nccl_func func;
    int nodes = collcalc_cluster_nodes(cl);
    if (!collcalc_nccl_func_from_op(query->op, &func) || cl->gpus < 2 || cl->gpus % nodes != 0 ||
        cl->gpus / nodes > c->platform->gpus_per_node) {
        c->fallback_calls++;
        return COLLCALC_OK;
    }
    collcalc_nccl_system system;
    collcalc_nccl_prediction prediction;
    if (collcalc_nccl_system_from_platform(c->platform, c->links, nodes, cl->gpus / nodes,
                                           c->launch, &system, NULL) != COLLCALC_OK ||
        collcalc_nccl_predict(&system, c->constants, &c->options, func, query->size_bytes,
                              &prediction, NULL) != COLLCALC_OK ||
        prediction.selected < 0) {
        c->fallback_calls++;
        return COLLCALC_OK;
    }
    const collcalc_nccl_candidate *pick = &prediction.candidates[prediction.selected];
    c->nccl_calls++;
    out_result->algo = our_algo(pick->algo, out_result->algo);
    out_result->latency_us = pick->latency_pred_us;
    out_result->bandwidth_us = pick->bandwidth_pred_us;
    out_result->time_us = pick->time_us;
    out_result->algbw_GBps = pick->algbw_GBps;
    out_result->busbw_GBps = pick->busbw_GBps;
    out_result->dominant = pick->latency_pred_us >= pick->bandwidth_pred_us
                               ? COLLCALC_DOMINANT_LATENCY
                               : COLLCALC_DOMINANT_BANDWIDTH;
    return COLLCALC_OK;
}
