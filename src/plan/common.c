/* Helpers shared by the planners: the costing hook's default, checks of
 * link and cluster figures, and small arithmetic. */
#include "plan_internal.h"

#include <math.h>
#include <string.h>

collcalc_status collcalc_cost_fastest_nccl(const collcalc_query *query, void *context,
                                           collcalc_result *out_result, collcalc_diag *diag)
{
    (void)context;
    if (query == NULL || out_result == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no query to cost");
    collcalc_status status = collcalc_query_validate(query, diag);
    if (status != COLLCALC_OK)
        return status;
    bool found = false;
    collcalc_result candidate;
    for (int a = 0; a < (int)COLLCALC_ALGO_COUNT; a++) {
        collcalc_algo algo = (collcalc_algo)a;
        if (!collcalc_algo_in_nccl(query->op, algo) ||
            !collcalc_algo_applies(query->op, algo, &query->cluster, NULL))
            continue;
        if (collcalc_model_evaluate(query, algo, &candidate, NULL) != COLLCALC_OK)
            continue;
        if (!found || candidate.time_us < out_result->time_us) {
            *out_result = candidate;
            found = true;
        }
    }
    if (!found)
        return collcalc_diag_fail(diag, COLLCALC_ERR_UNSUPPORTED,
                                  "no NCCL algorithm applies to %s on %d GPUs",
                                  collcalc_op_title(query->op), query->cluster.gpus);
    return COLLCALC_OK;
}

collcalc_status plan_cost(const collcalc_costing *costing, const collcalc_query *query,
                          collcalc_result *out_result, collcalc_diag *diag)
{
    collcalc_cost_fn fn = collcalc_cost_fastest_nccl;
    void *context = NULL;
    if (costing != NULL && costing->fn != NULL) {
        fn = costing->fn;
        context = costing->context;
    }
    collcalc_status status = fn(query, context, out_result, diag);
    if (status != COLLCALC_OK)
        return status;
    if (!isfinite(out_result->time_us) || out_result->time_us < 0 ||
        !isfinite(out_result->latency_us) || !isfinite(out_result->bandwidth_us))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "the cost model returned a non-finite time for %s",
                                  collcalc_op_title(query->op));
    return COLLCALC_OK;
}

bool plan_tp_divides_heads(const collcalc_model_shape *m, int tp)
{
    return tp >= 1 && m->heads % tp == 0;
}

bool plan_in_range(double x, double lo, double hi)
{
    return isfinite(x) && x >= lo && x <= hi;
}

collcalc_status plan_check_link(const collcalc_link_params *link, const char *what,
                                collcalc_diag *diag)
{
    if (!isfinite(link->bw_GBps) || link->bw_GBps <= 0 || link->bw_GBps > 1e6)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s bandwidth must be finite and in (0, 1e6] GB/s", what);
    if (!isfinite(link->alpha_us) || link->alpha_us < 0 || link->alpha_us > 1e6)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s alpha must be finite and in [0, 1e6] us", what);
    return COLLCALC_OK;
}

collcalc_status plan_check_cluster(const collcalc_cluster *cluster, collcalc_diag *diag)
{
    if (cluster->gpus_per_node < 1 || cluster->gpus_per_node > 1000000)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "GPUs per node must be between 1 and 1000000 (got %d)",
                                  cluster->gpus_per_node);
    if (cluster->nics_per_node < 1 || cluster->nics_per_node > 1000000)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "NICs per node must be between 1 and 1000000 (got %d)",
                                  cluster->nics_per_node);
    collcalc_status status = plan_check_link(&cluster->intra, "intra-node link", diag);
    if (status == COLLCALC_OK)
        status = plan_check_link(&cluster->inter, "inter-node link", diag);
    return status;
}

static char fold(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

bool plan_names_equal(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        return false;
    while (*a != '\0' && fold(*a) == fold(*b)) {
        a++;
        b++;
    }
    return fold(*a) == fold(*b);
}

size_t plan_word_index(const char *const *words, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (plan_names_equal(words[i], name))
            return i;
    return count;
}

const char *plan_word_name(const char *const *words, size_t count, int value)
{
    return (value >= 0 && (size_t)value < count) ? words[value] : "unknown";
}

collcalc_status plan_word_parse(const char *const *words, size_t count, const char *name,
                                const char *what, const char *choices, size_t *out_index,
                                collcalc_diag *diag)
{
    size_t i = plan_word_index(words, count, name);
    if (i == count || out_index == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown %s '%.40s' (use %s)",
                                  what, name != NULL ? name : "", choices);
    *out_index = i;
    return COLLCALC_OK;
}

double plan_prob_miss(double n, double m, double k)
{
    if (k <= 0 || m <= 0)
        return 1.0;
    if (n - m < k)
        return 0.0;
    double p = 1.0;
    for (double i = 0; i < k; i += 1.0)
        p *= (n - m - i) / (n - i);
    return p;
}

bool plan_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a != 0 && b > UINT64_MAX / a)
        return false;
    *out = a * b;
    return true;
}

uint64_t plan_bytes(double x)
{
    const double limit = 4611686018427387904.0; /* 2^62 */
    if (!(x > 0))
        return 0;
    if (x >= limit)
        return UINT64_C(1) << 62;
    return (uint64_t)llround(x);
}

collcalc_status collcalc_tokens_parse(const char *text, uint64_t max, uint64_t *out_tokens,
                                      collcalc_diag *diag)
{
    if (text == NULL || out_tokens == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no token count given");
    uint64_t value = 0;
    size_t i = 0;
    bool overflow = false;
    for (; text[i] >= '0' && text[i] <= '9'; i++) {
        uint64_t digit = (uint64_t)(text[i] - '0');
        if (value > (UINT64_MAX - digit) / 10)
            overflow = true;
        else
            value = value * 10 + digit;
    }
    uint64_t scale = 1;
    if (i > 0 && (text[i] == 'k' || text[i] == 'K') && text[i + 1] == '\0')
        scale = 1024;
    else if (i > 0 && text[i] == 'M' && text[i + 1] == '\0')
        scale = 1024 * 1024;
    else if (i == 0 || text[i] != '\0')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%.40s' is not a token count (a whole number, optionally with "
                                  "k or M: 8k = 8192)", text);
    uint64_t tokens = 0;
    if (overflow || !plan_mul_u64(value, scale, &tokens) || tokens > max || tokens == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%.40s' tokens: must be between 1 and %llu", text,
                                  (unsigned long long)max);
    *out_tokens = tokens;
    return COLLCALC_OK;
}
