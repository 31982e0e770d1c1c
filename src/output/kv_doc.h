/* kv's document: KV bytes per token, per shard and shipped, and with a
 * path the transfer (NICs, rate, setup and per-block costs, re-sharding,
 * staging, findings). The command (src/cli/cmd_kv.c) reads argv into the
 * query, evaluates it and renders this. */
#ifndef COLLCALC_OUTPUT_KV_DOC_H
#define COLLCALC_OUTPUT_KV_DOC_H

#include "collcalc/plan.h"
#include "record.h"

/* The document of r, the result of q (both the caller's). */
document *kv_doc(const char *command, const collcalc_kv_query *q, const collcalc_kv_result *r);

#endif
