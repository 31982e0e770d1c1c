/* libFuzzer target for the planners (src/plan): the bytes choose a model,
 * a workload, degrees, tokens, a cluster and the MoE/KV options; every
 * query is either refused with one printable line or gives finite figures,
 * and the rule checks agree with the layout. */
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

static void require_one_line(const collcalc_diag *diag)
{
    require(diag->message[0] != '\0');
    for (const char *p = diag->message; *p != '\0'; p++)
        require((unsigned char)*p >= 0x20);
}

typedef struct {
    const uint8_t *data;
    size_t size, pos;
} bytes;

static unsigned take(bytes *b)
{
    return b->pos < b->size ? b->data[b->pos++] : 0u;
}

/* A degree: mostly powers of two, sometimes odd or out of range. */
static int degree(bytes *b)
{
    unsigned v = take(b);
    if (v < 200)
        return 1 << (v % 9);
    return (int)v - 210; /* -10 .. 45 */
}

static collcalc_model_table *models;
static collcalc_plan_result plan_result;
static collcalc_moe_result moe_result;
static collcalc_kv_result kv_result;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    collcalc_diag diag;
    if (models == NULL && collcalc_model_table_builtin(&models, &diag) != COLLCALC_OK)
        abort();
    bytes b = {data, size, 0};
    const collcalc_model_shape *m =
        collcalc_model_table_at(models, take(&b) % collcalc_model_table_count(models));

    collcalc_plan_query q;
    collcalc_plan_query_init(&q);
    q.model = m;
    q.workload = (collcalc_workload)(take(&b) % 3);
    q.tp = degree(&b);
    q.ep = collcalc_model_is_moe(m) ? degree(&b) : 1;
    q.pp = degree(&b);
    q.dp = degree(&b);
    q.cp = take(&b) % 4 == 0 ? 2 : 1;
    q.sp = take(&b) & 1u;
    unsigned t = take(&b);
    q.tokens = (uint64_t)1 << (t % 36);
    q.cluster.gpus_per_node = 1 + (int)(take(&b) % 80);
    q.cluster.nics_per_node = 1 + (int)(take(&b) % 16);
    q.cluster.intra.bw_GBps = 1 + take(&b) * 4.0;
    q.cluster.intra.alpha_us = take(&b) / 16.0;
    q.cluster.inter.bw_GBps = 1 + take(&b) / 2.0;
    q.cluster.inter.alpha_us = take(&b) / 8.0;
    q.overlap_tp = take(&b) / 255.0;
    q.overlap_ep = take(&b) / 255.0;
    q.sm_slowdown = 1.0 + take(&b) / 128.0;
    q.redundant_experts = collcalc_model_is_moe(m) ? (int)(take(&b) % 3) * 16 : 0;
    q.gpu_memory_GB = take(&b);
    double product = (double)q.tp * q.ep * q.pp * q.dp * q.cp;
    q.gpus = (take(&b) % 2 && product > 0 && product <= 1e6) ? (int)product : 0;
    diag.message[0] = '\0';
    if (collcalc_plan_evaluate(&q, &plan_result, &diag) == COLLCALC_OK) {
        require(isfinite(plan_result.comm_us) && plan_result.comm_us >= 0);
        require(isfinite(plan_result.exposed_us) && plan_result.exposed_us >= 0);
        require(plan_result.item_count <= COLLCALC_PLAN_ITEMS_MAX);
        for (size_t i = 0; i < plan_result.item_count; i++)
            require(isfinite(plan_result.items[i].time_us_each));
        bool tp_crosses = false;
        for (size_t i = 0; i < plan_result.item_count; i++)
            if (plan_result.items[i].kind <= COLLCALC_COMM_TP_ALLGATHER &&
                plan_result.items[i].crosses_node)
                tp_crosses = true;
        require(tp_crosses == (collcalc_findings_find(&plan_result.findings,
                                                      "tp-crosses-node") != NULL));
    } else {
        require_one_line(&diag);
    }

    if (collcalc_model_is_moe(m)) {
        collcalc_moe_query mq;
        collcalc_moe_query_init(&mq);
        mq.model = m;
        mq.ep = degree(&b);
        mq.tokens = q.tokens;
        mq.mode = (collcalc_moe_mode)(take(&b) & 1u);
        mq.cluster = q.cluster;
        mq.zipf_s = take(&b) / 64.0;
        mq.redundant_experts = q.redundant_experts;
        mq.split_batch = 1 + (int)(take(&b) & 1u);
        mq.expert_compute_us = take(&b) * 10.0;
        mq.sm_slowdown = q.sm_slowdown;
        diag.message[0] = '\0';
        if (collcalc_moe_evaluate(&mq, &moe_result, &diag) == COLLCALC_OK) {
            require(isfinite(moe_result.dispatch_us) && moe_result.dispatch_us > 0);
            require(isfinite(moe_result.timeline_us));
            require(moe_result.imbalance >= 1.0 - 1e-9);
            require(moe_result.event_count <= COLLCALC_MOE_EVENTS_MAX);
        } else {
            require_one_line(&diag);
        }
    }

    collcalc_kv_query kq;
    collcalc_kv_query_init(&kq);
    kq.model = m;
    kq.tokens = q.tokens;
    kq.tp = q.tp;
    kq.pp = q.pp;
    kq.dedup = take(&b) & 1u;
    kq.with_transfer = true;
    kq.nic = q.cluster.inter;
    kq.gpus_per_node = q.cluster.gpus_per_node;
    kq.nics_per_node = q.cluster.nics_per_node;
    kq.backend = (collcalc_kv_backend)(take(&b) % COLLCALC_KV_BACKEND_COUNT);
    kq.budget_us = take(&b) * 1000.0;
    diag.message[0] = '\0';
    if (collcalc_kv_evaluate(&kq, &kv_result, &diag) == COLLCALC_OK) {
        require(kv_result.kv_bytes_transferred >= kv_result.kv_bytes_total);
        require(isfinite(kv_result.transfer_us) && kv_result.transfer_us > 0);
        require(isfinite(kv_result.effective_GBps));
    } else {
        require_one_line(&diag);
    }
    return 0;
}
