/* libFuzzer target for the per-expert token-count reader (src/plan/loads.c):
 * any bytes either give finite, non-negative loads with a positive total or
 * are refused with one printable line naming the line; accepted loads also
 * drive a MoE layer to finite times. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/models.h"
#include "collcalc/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int condition)
{
    if (!condition)
        abort();
}

static collcalc_expert_loads loads;
static collcalc_model_table *models;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    collcalc_diag diag;
    diag.message[0] = '\0';
    collcalc_status status = collcalc_expert_loads_parse((const char *)data, size, &loads, &diag);
    if (status != COLLCALC_OK) {
        require(status == COLLCALC_ERR_INVALID);
        require(diag.message[0] != '\0');
        for (const char *p = diag.message; *p != '\0'; p++)
            require((unsigned char)*p >= 0x20);
        require(loads.experts == 0);
        return 0;
    }
    require(loads.experts >= 1 && loads.experts <= COLLCALC_MOE_EXPERTS_MAX);
    require(isfinite(loads.total) && loads.total > 0);
    double sum = 0;
    for (size_t i = 0; i < loads.experts; i++) {
        require(isfinite(loads.loads[i]) && loads.loads[i] >= 0);
        sum += loads.loads[i];
    }
    require(sum == loads.total);
    if (models == NULL && collcalc_model_table_builtin(&models, &diag) != COLLCALC_OK)
        abort();
    /* Feed them to a model with that many experts: Mixtral (8) or DeepSeek (256). */
    const collcalc_model_shape *m = collcalc_model_table_find(
        models, loads.experts == 8 ? "mixtral-8x7b" : "deepseek-v3");
    if ((size_t)m->routed_experts != loads.experts)
        return 0;
    collcalc_moe_query q;
    collcalc_moe_query_init(&q);
    q.model = m;
    q.ep = loads.experts == 8 ? 4 : 32;
    q.tokens = 128;
    q.expert_loads = loads.loads;
    q.expert_load_count = loads.experts;
    q.redundant_experts = loads.experts == 8 ? 0 : 32;
    q.cluster.gpus_per_node = 8;
    q.cluster.nics_per_node = 8;
    q.cluster.intra.bw_GBps = 200;
    q.cluster.inter.bw_GBps = 50;
    static collcalc_moe_result r;
    if (collcalc_moe_evaluate(&q, &r, &diag) == COLLCALC_OK) {
        require(isfinite(r.dispatch_us) && isfinite(r.combine_us));
        require(r.imbalance >= 1.0 - 1e-9);
    }
    return 0;
}
