/* Search over every (TP, EP, PP, DP) factorization of a GPU count, each
 * costed with collcalc_plan_evaluate and ranked (collcalc/plan.h). The
 * degrees are divisors of gpus / cp, so a count like 16,384 = 2^14 has a few
 * hundred candidates; each costs a handful of collectives. */
#include "plan_internal.h"
#include "collcalc/alloc.h"
#include "helpers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEARCH_DIVISORS_MAX 2048

/* Divisors of n in ascending order (n <= 1,000,000 has at most 240). */
static size_t divisors(int n, int *out)
{
    size_t count = 0;
    for (int d = 1; d <= n && count < SEARCH_DIVISORS_MAX; d++)
        if (n % d == 0)
            out[count++] = d;
    return count;
}

static const char *const goal_words[] = {"throughput", "latency"};

const char *collcalc_plan_goal_name(collcalc_plan_goal goal)
{
    return plan_word_name(goal_words, PLAN_COUNT_OF(goal_words), (int)goal);
}

collcalc_status collcalc_plan_goal_from_name(const char *name, collcalc_plan_goal *out_goal,
                                             collcalc_diag *diag)
{
    size_t i = 0;
    collcalc_status status =
        plan_word_parse(goal_words, PLAN_COUNT_OF(goal_words), name, "goal",
                        "throughput or latency", out_goal != NULL ? &i : NULL, diag);
    if (status == COLLCALC_OK)
        *out_goal = (collcalc_plan_goal)i;
    return status;
}

/* Ordering of candidates: fitting first, then without errors, within the
 * budget, by the goal, exposed communication, degrees. */
static bool better(const collcalc_plan_candidate *a, const collcalc_plan_candidate *b,
                       collcalc_plan_goal goal)
{
    if (a->fits != b->fits)
        return a->fits;
    bool a_err = a->errors > 0, b_err = b->errors > 0;
    if (a_err != b_err)
        return !a_err;
    if (a->within_budget != b->within_budget)
        return a->within_budget;
    if (a->compute_modeled && b->compute_modeled) {
        if (goal == COLLCALC_GOAL_THROUGHPUT &&
            a->peak_tokens_per_s_per_gpu != b->peak_tokens_per_s_per_gpu)
            return a->peak_tokens_per_s_per_gpu > b->peak_tokens_per_s_per_gpu;
        if (a->token_latency_us != b->token_latency_us)
            return a->token_latency_us < b->token_latency_us;
        if (a->step_us != b->step_us)
            return a->step_us < b->step_us;
    }
    if (a->exposed_us != b->exposed_us)
        return a->exposed_us < b->exposed_us;
    if (a->tp != b->tp)
        return a->tp < b->tp;
    if (a->ep != b->ep)
        return a->ep < b->ep;
    return a->pp < b->pp;
}

/* Inserts c into the sorted out[0..*count) of at most capacity entries. */
static void keep_best(collcalc_plan_candidate *out, size_t capacity, size_t *count,
                      const collcalc_plan_candidate *c, collcalc_plan_goal goal)
{
    if (capacity == 0)
        return;
    size_t n = *count;
    if (n == capacity && !better(c, &out[n - 1], goal))
        return;
    size_t at = n < capacity ? n : capacity - 1;
    while (at > 0 && better(c, &out[at - 1], goal)) {
        out[at] = out[at - 1];
        at--;
    }
    out[at] = *c;
    if (n < capacity)
        *count = n + 1;
}

/* The candidate's throughput at capacity: q evaluated at the largest tokens
 * per step that fit (r->max_tokens), bisected down to the latency budget
 * when the step there is over it. r is q's result at the given tokens;
 * scratch is space for another. Errors leave the given tokens' figures. */
static void peak(const collcalc_plan_query *q, const collcalc_plan_result *r,
                 collcalc_plan_result *scratch, collcalc_plan_candidate *c)
{
    c->peak_tokens = q->tokens;
    c->peak_step_us = r->step_us;
    c->peak_tokens_per_s_per_gpu = r->tokens_per_s_per_gpu;
    if (!r->compute_modeled || !r->memory_checked || !r->fits || r->max_tokens <= q->tokens)
        return;
    double budget = q->latency_budget_us;
    if (budget > 0 && r->token_latency_us > budget)
        return; /* over the budget already: its figures at the given tokens */
    collcalc_plan_query at = *q;
    at.context = r->context; /* the prompt/context stays while the batch grows */
    collcalc_diag local;
    uint64_t lo = q->tokens, hi = r->max_tokens;
    at.tokens = hi;
    if (collcalc_plan_evaluate(&at, scratch, &local) != COLLCALC_OK)
        return;
    if (budget > 0 && scratch->token_latency_us > budget) {
        /* the largest tokens within the budget, in [lo, hi) */
        while (hi - lo > 1) {
            uint64_t mid = lo + (hi - lo) / 2;
            at.tokens = mid;
            if (collcalc_plan_evaluate(&at, scratch, &local) != COLLCALC_OK)
                return;
            if (scratch->token_latency_us <= budget)
                lo = mid;
            else
                hi = mid;
        }
        if (lo == q->tokens)
            return;
        at.tokens = lo;
        if (collcalc_plan_evaluate(&at, scratch, &local) != COLLCALC_OK)
            return;
    }
    c->peak_tokens = at.tokens;
    c->peak_step_us = scratch->step_us;
    c->peak_tokens_per_s_per_gpu = scratch->tokens_per_s_per_gpu;
}

static void summarize(const collcalc_plan_query *q, const collcalc_plan_result *r,
                      collcalc_plan_candidate *c)
{
    c->memory_checked = r->memory_checked;
    c->fits = r->fits;
    c->memory_bytes_per_gpu = r->memory_bytes_per_gpu;
    c->compute_modeled = r->compute_modeled;
    c->step_us = r->step_us;
    c->token_latency_us = r->token_latency_us;
    c->chunks = r->chunks;
    c->tokens_per_s_per_gpu = r->tokens_per_s_per_gpu;
    c->comm_share = r->comm_share;
    c->within_budget =
        !(q->latency_budget_us > 0) || r->token_latency_us <= q->latency_budget_us;
    c->comm_us = r->comm_us;
    c->exposed_us = r->exposed_us;
    c->dominant = r->dominant;
    c->worst = collcalc_findings_worst(&r->findings);
    for (size_t i = 0; i < r->findings.count; i++) {
        const collcalc_finding *f = &r->findings.items[i];
        if (f->severity == COLLCALC_SEVERITY_INFO)
            continue;
        if (f->severity == COLLCALC_SEVERITY_ERROR)
            c->errors++;
        else
            c->warnings++;
        if (c->code_count < COLLCALC_CANDIDATE_CODES_MAX) {
            memcpy(c->codes[c->code_count], f->code, COLLCALC_FINDING_CODE_MAX);
            c->code_count++;
        }
    }
}

collcalc_status collcalc_plan_search(const collcalc_plan_query *template_query, int gpus,
                                     collcalc_plan_candidate *out, size_t capacity,
                                     size_t *out_count, size_t *out_total, collcalc_diag *diag)
{
    if (template_query == NULL || out_count == NULL || out_total == NULL ||
        (out == NULL && capacity > 0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no search query");
    *out_count = 0;
    *out_total = 0;
    if (gpus < 1 || gpus > 1000000)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "gpus must be between 1 and 1000000 (got %d)", gpus);
    const collcalc_model_shape *m = template_query->model;
    if (m == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no model given");
    int cp = template_query->cp < 1 ? 1 : template_query->cp;
    if (gpus % cp != 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "cp %d does not divide %d GPUs", cp, gpus);
    /* Validate the template's other settings once, with a trivial layout. */
    collcalc_plan_query base = *template_query;
    base.tp = base.ep = base.pp = base.dp = 1;
    base.cp = cp;
    base.gpus = 0;
    base.redundant_experts = collcalc_model_is_moe(m) ? template_query->redundant_experts : 0;
    collcalc_status status = collcalc_plan_validate(&base, diag);
    if (status != COLLCALC_OK)
        return status;

    if ((int)template_query->goal < 0 || (size_t)template_query->goal >= PLAN_COUNT_OF(goal_words))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown search goal");
    if (!plan_in_range(template_query->latency_budget_us, 0.0, 1e15))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "latency budget must be finite and >= 0");
    int n = gpus / cp;
    int fixed[COLLCALC_DIM_COUNT] = {0}; /* 0 = searched */
    const int given[COLLCALC_DIM_COUNT] = {template_query->tp, cp, template_query->ep,
                                           template_query->pp, template_query->dp};
    long fixed_product = 1;
    char fixed_names[64] = "";
    for (int d = 0; d < (int)COLLCALC_DIM_COUNT; d++)
        if (d != COLLCALC_DIM_CP && (template_query->search_fixed & (1u << d))) {
            fixed[d] = given[d];
            fixed_product *= given[d];
            size_t used = strlen(fixed_names);
            snprintf(fixed_names + used, sizeof fixed_names - used, "%s%s %d",
                     used > 0 ? " x " : "", collcalc_dim_name((collcalc_dim)d), given[d]);
        }
    if (fixed_product > 1 && n % fixed_product != 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s does not divide the %d GPUs%s", fixed_names, gpus,
                                  cp > 1 ? " / cp" : "");
    int *divs = collcalc_mem_malloc(SEARCH_DIVISORS_MAX * sizeof *divs);
    collcalc_plan_result *result = collcalc_mem_malloc(2 * sizeof *result);
    if (divs == NULL || result == NULL) {
        collcalc_mem_free(divs);
        collcalc_mem_free(result);
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory searching plans");
    }
    size_t nd = divisors(n, divs);
    int slots = collcalc_model_is_moe(m) ? m->routed_experts + base.redundant_experts : 1;
    int micro = template_query->micro_batches;
    size_t total = 0, kept = 0;
    for (size_t i = 0; i < nd && status == COLLCALC_OK; i++) {
        int tp = divs[i];
        if (tp > m->heads)
            break;
        for (size_t j = 0; j < nd && status == COLLCALC_OK; j++) {
            int ep = divs[j];
            if (ep > slots || (long)tp * ep > n)
                break;
            if (n % (tp * ep) != 0)
                continue;
            int rest = n / (tp * ep);
            for (size_t k = 0; k < nd; k++) {
                int pp = divs[k];
                if (pp > m->layers || pp > rest)
                    break;
                if (rest % pp != 0)
                    continue;
                int dp = rest / pp;
                if ((fixed[COLLCALC_DIM_TP] && tp != fixed[COLLCALC_DIM_TP]) ||
                    (fixed[COLLCALC_DIM_EP] && ep != fixed[COLLCALC_DIM_EP]) ||
                    (fixed[COLLCALC_DIM_PP] && pp != fixed[COLLCALC_DIM_PP]) ||
                    (fixed[COLLCALC_DIM_DP] && dp != fixed[COLLCALC_DIM_DP]))
                    continue;
                collcalc_plan_query q = base;
                q.tp = tp;
                q.ep = ep;
                q.pp = pp;
                q.dp = dp;
                /* The template's tokens are the cluster's; evaluate splits
                 * them over dp, each slice needing one at least. */
                uint64_t mb = micro > 0 ? (uint64_t)micro
                              : (template_query->workload == COLLCALC_WORKLOAD_TRAIN
                                     ? (uint64_t)pp
                                     : 1u);
                uint64_t need = (uint64_t)dp * (uint64_t)ep * (uint64_t)cp * mb;
                q.tokens = template_query->tokens < need ? need : template_query->tokens;
                collcalc_diag local;
                status = collcalc_plan_evaluate(&q, result, &local);
                if (status != COLLCALC_OK) {
                    collcalc_diag_fail(diag, status, "tp %d, ep %d, pp %d, dp %d: %s", tp, ep,
                                       pp, dp, local.message);
                    break;
                }
                collcalc_plan_candidate c;
                memset(&c, 0, sizeof c);
                c.tp = tp;
                c.cp = cp;
                c.ep = ep;
                c.pp = pp;
                c.dp = dp;
                summarize(&q, result, &c);
                peak(&q, result, result + 1, &c);
                keep_best(out, capacity, &kept, &c, template_query->goal);
                total++;
            }
        }
    }
    collcalc_mem_free(divs);
    collcalc_mem_free(result);
    if (status != COLLCALC_OK)
        return status;
    *out_count = kept;
    *out_total = total;
    return COLLCALC_OK;
}
