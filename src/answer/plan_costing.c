/* A planner's collectives costed through the answer layer (collcalc/answer.h):
 * one path for `plan` and the single command. */
#include <stdlib.h>

#include "collcalc/answer.h"

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

collcalc_status collcalc_cost_answer(const collcalc_query *query, void *context,
                                     collcalc_result *out_result, collcalc_diag *diag)
{
    collcalc_answer_costing *c = context;
    if (c == NULL || c->session == NULL || c->request == NULL || c->platform == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "the answer costing needs a session, a request and a platform");
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
    collcalc_request request = *c->request;
    if (!request.launch_set) {
        request.launch_set = true;
        request.launch = COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
    }
    collcalc_prepared *prepared = malloc(sizeof *prepared);
    if (prepared == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");
    collcalc_nccl_prediction prediction;
    collcalc_diag unused;
    if (collcalc_prepare_nccl(c->session, &request, c->platform, nodes, cl->gpus / nodes,
                              prepared, NULL, &unused) != COLLCALC_OK ||
        collcalc_nccl_predict(&prepared->system, prepared->constants, &prepared->options, func,
                              query->size_bytes, &prediction, &unused) != COLLCALC_OK ||
        prediction.selected < 0) {
        free(prepared);
        c->fallback_calls++;
        return COLLCALC_OK;
    }
    free(prepared);
    const collcalc_nccl_candidate *pick = &prediction.candidates[prediction.selected];
    c->nccl_calls++;
    out_result->algo = our_algo(pick->algo, out_result->algo);
    /* NVLSTree (NVLS inside the nodes, a tree between) keeps its own name */
    out_result->facts &= ~(unsigned)(COLLCALC_FACT_NVLS_NODE | COLLCALC_FACT_NVLS_TREE);
    if (pick->algo == COLLCALC_NCCL_NVLS_TREE)
        out_result->facts |= COLLCALC_FACT_NVLS_TREE;
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
