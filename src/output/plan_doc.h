/* plan's documents: one deployment (its collectives, communication per
 * step, memory per GPU and what fits, the roofline step, the verdict and
 * findings) and a --search ranking. The command (src/cli/cmd_plan.c) reads
 * argv into the query, evaluates or searches and renders these. */
#ifndef COLLCALC_OUTPUT_PLAN_DOC_H
#define COLLCALC_OUTPUT_PLAN_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "collcalc/plan.h"
#include "record.h"

/* The document of r, the result of q; gpu_name is the platform's GPU (NULL
 * without a platform) for the "memory not checked" line. */
document *plan_doc(const char *command, const collcalc_plan_query *q,
                   const collcalc_plan_result *r, const char *gpu_name);

/* The ranking of a search: the count best of total plans costed. */
document *plan_search_doc(const char *command, const collcalc_plan_query *q,
                          const collcalc_plan_candidate *found, size_t count, size_t total);

/* Whether a search's best plan fails --strict (none ranked, it does not
 * fit, it has an error-level finding, or it is over the latency budget);
 * then why, in one line, in why[0..size). */
bool plan_search_violation(const collcalc_plan_candidate *found, size_t count, char *why,
                           size_t size);

#endif
