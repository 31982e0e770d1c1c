/* moe's document: one MoE layer's dispatch and combine (bytes, shares,
 * times, DeepEP's printed bandwidth, the NVLink-domain edge, the split-batch
 * timeline, findings). The command (src/cli/cmd_moe.c) reads argv into the
 * query, evaluates it and renders this. */
#ifndef COLLCALC_OUTPUT_MOE_DOC_H
#define COLLCALC_OUTPUT_MOE_DOC_H

#include "collcalc/plan.h"
#include "record.h"

/* The document of r, the result of q (both the caller's). */
document *moe_doc(const char *command, const collcalc_moe_query *q, const collcalc_moe_result *r);

#endif
