/* libFuzzer target for the alpha-beta model (src/model): the bytes choose an
 * op, an algorithm, a size, GPUs, GPUs per node, NICs and both links; every
 * query is either refused with one printable line or costed with finite,
 * non-negative numbers where time = latency + bandwidth (per result and per
 * phase), a larger message never takes less time, evaluate_all agrees with
 * evaluate for each algorithm, and the explain functions never write past
 * the size they are given (doc/MODEL.md describes the model). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int condition)
{
    if (!condition)
        abort();
}

static void require_one_line(const collcalc_diag *diag)
{
    require(memchr(diag->message, '\0', sizeof diag->message) != NULL);
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

/* A count: mostly small or a power of two, sometimes large or out of range. */
static int count_of(bytes *b)
{
    unsigned v = take(b);
    if (v < 128)
        return 1 + (int)(v % 80);
    if (v < 224)
        return 1 << ((v - 128) % 21); /* 1 .. 1,048,576 */
    if (v < 250) {
        unsigned high = take(b);
        return (int)(high << 8 | take(b)) + 1;
    }
    return (int)v - 252; /* -2 .. 3 */
}

/* A size in bytes: 0, any 2^k +- a little, or raw 64 bits. */
static uint64_t size_of(bytes *b)
{
    unsigned v = take(b);
    if (v < 8)
        return v;
    if (v < 200) {
        unsigned shift = v % 64;
        uint64_t base = (uint64_t)1 << shift;
        return base + take(b);
    }
    uint64_t raw = 0;
    for (int i = 0; i < 8; i++)
        raw = raw << 8 | take(b);
    return raw;
}

static void link_of(bytes *b, collcalc_link_params *link)
{
    collcalc_link_params_init(link);
    unsigned kind = take(b);
    if (kind < 240)
        link->bw_GBps = 0.001 * pow(10.0, (double)take(b) / 32.0); /* 1 MB/s .. ~100 TB/s */
    else
        link->bw_GBps = (double)(int)(kind - 245); /* -5 .. 10, zero and negatives */
    unsigned alpha = take(b);
    link->alpha_us = alpha < 250 ? alpha / 8.0 : (alpha == 250 ? -1.0 : 1e6 * (alpha - 250));
    link->nvlink = take(b) & 1u;
    memcpy(link->name, "fuzz-link", 10);
}

static bool finite_nonneg(double x)
{
    return isfinite(x) && x >= 0;
}

/* time = latency + bandwidth, up to rounding. */
static bool sums(double time, double latency, double bandwidth)
{
    double sum = latency + bandwidth;
    return fabs(time - sum) <= 1e-9 * (fabs(sum) + 1e-300) + 1e-12;
}

static void check_result(const collcalc_query *q, const collcalc_result *r)
{
    require(r->op == q->op);
    require(r->gpus == q->cluster.gpus);
    require(r->size_bytes == q->size_bytes);
    require(r->steps >= 0);
    require(finite_nonneg(r->bytes_sent_per_gpu) && finite_nonneg(r->bytes_received_per_gpu));
    require(finite_nonneg(r->bytes_sent_other_gpu) && finite_nonneg(r->bytes_received_other_gpu));
    require(finite_nonneg(r->latency_us) && finite_nonneg(r->bandwidth_us));
    require(finite_nonneg(r->time_us));
    require(sums(r->time_us, r->latency_us, r->bandwidth_us));
    require(finite_nonneg(r->algbw_GBps) && finite_nonneg(r->busbw_GBps));
    require(finite_nonneg(r->busbw_factor));
    require(r->phase_count >= 0 && r->phase_count <= COLLCALC_MAX_PHASES);
    for (int i = 0; i < r->phase_count; i++) {
        const collcalc_phase *ph = &r->phases[i];
        require(ph->label != NULL);
        require(memchr(ph->link, '\0', sizeof ph->link) != NULL);
        require(ph->steps >= 0);
        require(finite_nonneg(ph->alpha_us) && finite_nonneg(ph->latency_us));
        require(finite_nonneg(ph->bytes_sent) && finite_nonneg(ph->bytes_received));
        require(finite_nonneg(ph->bandwidth_us) && finite_nonneg(ph->time_us));
        require(isfinite(ph->bw_GBps) && isfinite(ph->efficiency));
        require(sums(ph->time_us, ph->latency_us, ph->bandwidth_us));
    }
}

/* Writes with every size from 0 to full + 1 and a canary behind the end:
 * the length returned never changes, the text is cut, never overrun. */
static void check_explain(const collcalc_query *q, const collcalc_result *r, int phase)
{
    char buffer[COLLCALC_EXPLAIN_MAX + 16];
    size_t full = phase >= 0 ? collcalc_phase_explain(q, r, phase, NULL, 0)
                             : collcalc_result_explain(q, r, NULL, 0);
    require(full < COLLCALC_EXPLAIN_MAX);
    static const size_t sizes[] = {1, 2, 7, 33, 100, 200, 0 /* full */, 1 /* full + 1 */};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = k == 6 ? full : (k == 7 ? full + 1 : sizes[k]);
        if (n > COLLCALC_EXPLAIN_MAX)
            continue;
        memset(buffer, 0x5a, sizeof buffer);
        size_t got = phase >= 0 ? collcalc_phase_explain(q, r, phase, buffer, n)
                                : collcalc_result_explain(q, r, buffer, n);
        require(got == full);
        for (size_t i = n; i < sizeof buffer; i++)
            require(buffer[i] == 0x5a);
        if (n > 0) {
            size_t kept = strlen(buffer);
            require(kept == (full < n ? full : n - 1));
            for (size_t i = 0; i < kept; i++)
                require((unsigned char)buffer[i] >= 0x20);
        }
    }
}

static collcalc_result results[COLLCALC_ALGO_COUNT];
static collcalc_result single, bigger;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bytes b = {data, size, 0};
    collcalc_query q;
    collcalc_query_init(&q);
    unsigned op = take(&b);
    q.op = (collcalc_op)(op < 250 ? op % COLLCALC_OP_COUNT : op); /* a few unknown ops */
    unsigned algo_byte = take(&b);
    collcalc_algo algo = (collcalc_algo)(algo_byte < 250 ? algo_byte % COLLCALC_ALGO_COUNT
                                                         : algo_byte);
    q.size_bytes = size_of(&b);
    q.cluster.gpus = count_of(&b);
    q.cluster.gpus_per_node = count_of(&b);
    q.cluster.nics_per_node = count_of(&b);
    q.cluster.nics_per_gpu = (int)(take(&b) % 10);
    link_of(&b, &q.cluster.intra);
    link_of(&b, &q.cluster.inter);
    unsigned flags = take(&b);
    q.cluster.nvls_intra = flags & 1u;
    q.cluster.sharp_inter = flags & 2u;
    q.tree_efficiency = (flags & 4u) ? take(&b) / 200.0 : 0.0; /* > 1 sometimes */

    collcalc_diag diag;
    diag.message[0] = '\0';
    collcalc_status status = collcalc_model_evaluate(&q, algo, &single, &diag);
    if (status != COLLCALC_OK) {
        require(status == COLLCALC_ERR_INVALID || status == COLLCALC_ERR_UNSUPPORTED);
        require_one_line(&diag);
    } else {
        check_result(&q, &single);
        require(single.algo == algo);
        for (int i = 0; i < single.phase_count; i++)
            check_explain(&q, &single, i);
        check_explain(&q, &single, single.phase_count); /* out of range: "" */
        check_explain(&q, &single, -1);

        /* A larger message never takes less time (same algorithm, same cluster). */
        collcalc_query larger = q;
        larger.size_bytes = q.size_bytes <= UINT64_MAX / 2 ? q.size_bytes * 2 + 1 : UINT64_MAX;
        diag.message[0] = '\0';
        status = collcalc_model_evaluate(&larger, algo, &bigger, &diag);
        if (status == COLLCALC_OK) {
            check_result(&larger, &bigger);
            /* Only the total: which GPU decides may change with the size
             * (a partial last node's GPU has fewer peers inside, more outside:
             * latency-bound it is the busiest, bandwidth-bound a full node's is). */
            require(bigger.time_us >= single.time_us * (1 - 1e-12));
        } else {
            require(status == COLLCALC_ERR_INVALID); /* only a size too large */
            require_one_line(&diag);
        }
    }

    size_t count = 99, fastest = 99;
    diag.message[0] = '\0';
    status = collcalc_model_evaluate_all(&q, results, COLLCALC_ALGO_COUNT, &count, &fastest, &diag);
    if (status != COLLCALC_OK) {
        require_one_line(&diag);
        return 0;
    }
    collcalc_algo listed[COLLCALC_ALGO_COUNT];
    size_t listed_count = collcalc_algos_for_op(q.op, listed, COLLCALC_ALGO_COUNT);
    require(count >= 1 && count <= listed_count);
    require(fastest < count);
    size_t next = 0; /* results follow collcalc_algos_for_op's order, skipping what does not apply */
    for (size_t i = 0; i < count; i++) {
        check_result(&q, &results[i]);
        while (next < listed_count && listed[next] != results[i].algo)
            next++;
        require(next < listed_count);
        require(collcalc_algo_applies(q.op, results[i].algo, &q.cluster, NULL));
        next++;
        if (collcalc_algo_may_be_fastest(q.op, results[fastest].algo) &&
            collcalc_algo_may_be_fastest(q.op, results[i].algo))
            require(results[fastest].time_us <= results[i].time_us);
        diag.message[0] = '\0';
        require(collcalc_model_evaluate(&q, results[i].algo, &single, &diag) == COLLCALC_OK);
        require(single.time_us == results[i].time_us && single.steps == results[i].steps);
    }
    return 0;
}
