/* Shared helpers of the planners (KV, MoE, placement): costing through the
 * hook, checked arithmetic, and name tables. Private to src/plan. */
#ifndef COLLCALC_PLAN_INTERNAL_H
#define COLLCALC_PLAN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/plan.h"

#define PLAN_COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* Costs query through costing (NULL or a NULL fn = the default). */
collcalc_status plan_cost(const collcalc_costing *costing, const collcalc_query *query,
                          collcalc_result *out_result, collcalc_diag *diag);

/* Whether a link's figures are usable: bandwidth finite > 0, alpha finite
 * >= 0. what names it in the message. */
collcalc_status plan_check_link(const collcalc_link_params *link, const char *what,
                                collcalc_diag *diag);

/* Checks the cluster fields a planner reads (G, K >= 1, links). */
collcalc_status plan_check_cluster(const collcalc_cluster *cluster, collcalc_diag *diag);

/* Case-insensitive ASCII comparison. */
bool plan_names_equal(const char *a, const char *b);

/* Index of name in words[0..count) ignoring case, or count. */
size_t plan_word_index(const char *const *words, size_t count, const char *name);

/* The public X_name functions of the plan's enums: words[value], or
 * "unknown" when value is outside words[0..count). */
const char *plan_word_name(const char *const *words, size_t count, int value);

/* The public X_from_name functions: name's index in words[0..count)
 * (ignoring case) in *out_index, else COLLCALC_ERR_INVALID with "unknown
 * WHAT 'name' (use CHOICES)" (also when out_index is NULL). */
collcalc_status plan_word_parse(const char *const *words, size_t count, const char *name,
                                const char *what, const char *choices, size_t *out_index,
                                collcalc_diag *diag);

/* The TP validity rule of every planner (plan's tp-heads finding, kv's
 * --tp and --decode-tp): tp >= 1 divides the model's attention heads. */
bool plan_tp_divides_heads(const collcalc_model_shape *m, int tp);

/* The scale-up fabric by the intra link (src/plan/moe.c): "NVLink", "xGMI"
 * (*out_amd: AMD GPUs, RCCL for NCCL, no DeepEP), "PCIe" or "intra-node
 * link". Static. */
const char *plan_fabric_of(const collcalc_link_params *intra, bool *out_amd);

/* Whether x is finite and within [lo, hi]. */
bool plan_in_range(double x, double lo, double hi);

/* Probability that none of k draws without replacement from n items hits
 * one of m marked items: C(n - m, k) / C(n, k). */
double plan_prob_miss(double n, double m, double k);

/* x rounded to a whole number of bytes, clamped to [0, 2^62] so that huge
 * (but finite) products convert without overflow. */
uint64_t plan_bytes(double x);

/* *out = a x b; false (and *out untouched) on overflow. */
bool plan_mul_u64(uint64_t a, uint64_t b, uint64_t *out);

/* src/plan/step.c: the weights one GPU holds; the memory parts, capacity,
 * fit and largest tokens/context of r (ep_crosses: EP leaves the node);
 * the step time from the compute roofline and r's communication. */
double plan_weight_bytes_per_gpu(const collcalc_plan_query *q);
collcalc_status plan_memory(const collcalc_plan_query *q, collcalc_plan_result *r,
                            bool ep_crosses, collcalc_diag *diag);
void plan_step_time(const collcalc_plan_query *q, collcalc_plan_result *r);

#endif
