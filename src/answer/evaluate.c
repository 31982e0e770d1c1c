/* A prepared question answered at one size, its headline figures, and the
 * sizes where the fastest alpha-beta algorithm changes (collcalc/answer.h). */
#include <string.h>

#include "collcalc/answer.h"

/* Index of the fastest result NCCL itself runs, or count when none. */
static size_t fastest_in_nccl(const collcalc_result *results, size_t count)
{
    size_t best = count;
    for (size_t i = 0; i < count; i++)
        if (collcalc_algo_in_nccl(results[i].op, results[i].algo) &&
            (best == count || results[i].time_us < results[best].time_us))
            best = i;
    return best;
}

static collcalc_status evaluate_nccl(const collcalc_prepared *p, uint64_t size_bytes,
                                     collcalc_answer *out, collcalc_diag *diag)
{
    collcalc_status status = collcalc_nccl_predict(&p->system, p->constants, &p->options, p->func,
                                                   size_bytes, &out->prediction, diag);
    if (status != COLLCALC_OK)
        return status;
    out->headline = out->prediction.selected;
    const collcalc_nccl_candidate *c = collcalc_nccl_selected(&out->prediction);
    if (c != NULL) {
        out->latency_us = c->latency_pred_us;
        out->bandwidth_us = c->bandwidth_pred_us;
        out->time_us = c->time_us;
        out->algbw_GBps = c->algbw_GBps;
        out->busbw_GBps = c->busbw_GBps;
    }
    return COLLCALC_OK;
}

/* A single process driving every GPU of a node launches each GPU's kernel
 * in turn: (G-1) host launches more per call than one process per GPU, a
 * phase of its own so the arithmetic shows it (the NCCL model's
 * COLLCALC_NCCL_FIX_LAUNCH, the same figure). */
static void add_launches(collcalc_result *r, int gpus_per_node)
{
    if (gpus_per_node < 2 || r->phase_count >= COLLCALC_MAX_PHASES || r->gpus < 2)
        return;
    collcalc_phase *ph = &r->phases[r->phase_count];
    memset(ph, 0, sizeof *ph);
    ph->label = "host launches (one process drives every GPU)";
    memcpy(ph->link, "host", 5);
    ph->scope = COLLCALC_SCOPE_INTRA;
    ph->stage = r->phase_count > 0 ? r->phases[r->phase_count - 1].stage + 1 : 1;
    ph->steps = gpus_per_node - 1;
    ph->alpha_us = COLLCALC_NCCL_LAUNCH_US_PER_GPU;
    ph->latency_us = ph->time_us = (double)ph->steps * ph->alpha_us;
    ph->efficiency = 1.0;
    r->phase_count++;
    r->steps += ph->steps;
    r->latency_us += ph->latency_us;
    r->time_us += ph->latency_us;
    r->algbw_GBps = r->time_us > 0 ? (double)r->size_bytes / (r->time_us * 1e3) : 0.0;
    r->busbw_GBps = r->algbw_GBps * r->busbw_factor;
    r->dominant = r->time_us <= 0                      ? COLLCALC_DOMINANT_NONE
                  : r->latency_us > r->bandwidth_us ? COLLCALC_DOMINANT_LATENCY
                                                    : COLLCALC_DOMINANT_BANDWIDTH;
}

/* GPUs one process drives with a single-process launch (a node's). */
static int launched_gpus(const collcalc_prepared *p)
{
    const collcalc_cluster *c = &p->query.cluster;
    return c->gpus_per_node < c->gpus ? c->gpus_per_node : c->gpus;
}

collcalc_status collcalc_evaluate_results(const collcalc_prepared *p, uint64_t size_bytes,
                                          collcalc_result *results, size_t *out_count,
                                          size_t *out_fastest, collcalc_diag *diag)
{
    if (p->model == COLLCALC_COST_MODEL_NCCL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "an NCCL question has candidates, not alpha-beta results");
    for (size_t i = 0; i < p->row_count; i++) {
        collcalc_status status = collcalc_model_evaluate_row(&p->query, p->rows[i], size_bytes,
                                                             &results[i], diag);
        if (status != COLLCALC_OK)
            return status;
    }
    if (p->launch == COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS)
        for (size_t i = 0; i < p->row_count; i++)
            add_launches(&results[i], launched_gpus(p));
    *out_count = p->row_count;
    *out_fastest = collcalc_fastest_index(results, p->row_count);
    return COLLCALC_OK;
}

collcalc_status collcalc_evaluate(const collcalc_prepared *p, uint64_t size_bytes,
                                  collcalc_answer *out, collcalc_diag *diag)
{
    out->query = p->query;
    out->query.size_bytes = size_bytes;
    out->count = out->fastest = out->nccl_best = 0;
    out->headline = -1;
    out->latency_us = out->bandwidth_us = out->time_us = out->algbw_GBps = out->busbw_GBps = 0;
    if (p->model == COLLCALC_COST_MODEL_NCCL)
        return evaluate_nccl(p, size_bytes, out, diag);
    collcalc_status status = collcalc_evaluate_results(p, size_bytes, out->results, &out->count,
                                                       &out->fastest, diag);
    if (status != COLLCALC_OK)
        return status;
    out->nccl_best = fastest_in_nccl(out->results, out->count);
    size_t h = p->algo_count > 0 ? 0 : out->nccl_best < out->count ? out->nccl_best : out->fastest;
    out->headline = (int)h;
    const collcalc_result *r = &out->results[h];
    out->latency_us = r->latency_us;
    out->bandwidth_us = r->bandwidth_us;
    out->time_us = r->time_us;
    out->algbw_GBps = r->algbw_GBps;
    out->busbw_GBps = r->busbw_GBps;
    return COLLCALC_OK;
}

const char *collcalc_answer_algorithm(const collcalc_prepared *p, const collcalc_answer *a)
{
    if (a->headline < 0)
        return "-";
    if (p->model == COLLCALC_COST_MODEL_NCCL)
        return collcalc_nccl_algo_name(a->prediction.candidates[a->headline].algo);
    return collcalc_algo_name(a->results[a->headline].algo);
}

const char *collcalc_answer_protocol(const collcalc_prepared *p, const collcalc_answer *a)
{
    if (p->model != COLLCALC_COST_MODEL_NCCL)
        return NULL;
    if (a->headline < 0)
        return "-";
    return collcalc_nccl_proto_name(a->prediction.candidates[a->headline].proto);
}

collcalc_status collcalc_answer_totals(const collcalc_prepared *p, const collcalc_answer *a,
                                       collcalc_totals *out, collcalc_diag *diag)
{
    collcalc_result r;
    memset(&r, 0, sizeof r);
    r.latency_us = a->latency_us;
    r.bandwidth_us = a->bandwidth_us;
    r.time_us = a->time_us;
    return collcalc_repeat_totals(&r, p->layers, p->per_layer, out, diag);
}

collcalc_status collcalc_evaluate_algorithm(const collcalc_prepared *p, collcalc_algo algo,
                                            uint64_t size_bytes, collcalc_result *out,
                                            collcalc_diag *diag)
{
    if (p->model == COLLCALC_COST_MODEL_NCCL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "an NCCL question has candidates, not alpha-beta results");
    collcalc_query query = p->query;
    query.size_bytes = size_bytes;
    collcalc_status status = collcalc_model_evaluate(&query, algo, out, diag);
    if (status == COLLCALC_OK && p->launch == COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS)
        add_launches(out, launched_gpus(p));
    return status;
}

int collcalc_fastest_at(const collcalc_prepared *p, const collcalc_algo *algos, size_t count,
                        uint64_t size_bytes)
{
    collcalc_result results[COLLCALC_ALGO_COUNT];
    if (count > COLLCALC_ALGO_COUNT)
        return -1;
    for (size_t i = 0; i < count; i++)
        if (collcalc_evaluate_algorithm(p, algos[i], size_bytes, &results[i], NULL) !=
            COLLCALC_OK)
            return -1;
    return (int)collcalc_fastest_index(results, count);
}

size_t collcalc_crossovers(const collcalc_prepared *p, const collcalc_algo *algos, size_t count,
                           collcalc_crossover *found, size_t capacity)
{
    size_t n = 0;
    uint64_t low = 1;
    int low_best = collcalc_fastest_at(p, algos, count, low);
    for (int k = 1; k <= 40 && n < capacity; k++) {
        uint64_t high = 1ULL << k;
        int high_best = collcalc_fastest_at(p, algos, count, high);
        if (high_best != low_best && low_best >= 0 && high_best >= 0) {
            uint64_t a = low, b = high;
            while (b - a > 1) {
                uint64_t mid = a + (b - a) / 2;
                if (collcalc_fastest_at(p, algos, count, mid) == low_best)
                    a = mid;
                else
                    b = mid;
            }
            found[n++] = (collcalc_crossover){b, low_best, collcalc_fastest_at(p, algos, count, b)};
        }
        low = high;
        low_best = high_best;
    }
    return n;
}
