/* The NCCL-faithful answer to a collective query, as records: NCCL's choice
 * first (algorithm, protocol, channels, what nccl-tests would print), then
 * the candidates it beat and why. Used by the collective commands and
 * sweep when a platform is given (or --cost-model nccl). */
#ifndef COLLCALC_CLI_NCCL_VIEW_H
#define COLLCALC_CLI_NCCL_VIEW_H

#include <stdbool.h>

#include "collcalc/cluster_spec.h"
#include "context.h"
#include "nccl_setup.h"
#include "record.h"

/* Which cost model a query uses: --cost-model, else nccl when a platform
 * is given and the op is one NCCL's tuner costs, else alpha-beta. Options
 * the chosen model cannot honour are refused. Returns 0 or an exit code. */
int nccl_view_wanted(cli_context *ctx, const collcalc_cluster_spec *spec, collcalc_op op,
                     bool *out_nccl);

/* Sets up the NCCL model for the resolved cluster of spec's platform.
 * Returns 0 or an exit code. */
int nccl_view_setup(cli_context *ctx, const collcalc_cluster_spec *spec,
                    const collcalc_cluster *cluster, nccl_setup *out);

/* The candidates' schema ("results"): model, algorithm, protocol,
 * channels, selected, latency_us, bandwidth_us, time_us, algbw_GBps,
 * busbw_GBps, nccl_time_us, available, why. */
extern const record_schema NCCL_SCHEMA;

/* A runnable candidate's figures into the current row, in schema order:
 * channels, latency_us, bandwidth_us, time_us, algbw_GBps, busbw_GBps,
 * nccl_time_us (NCCL_SCHEMA, or a schema with those columns). */
void nccl_view_record_figures(record_set *set, const collcalc_nccl_candidate *candidate);

/* One prediction's candidates as rows (every one with all_candidates, else
 * those that can run); the selected one is marked. */
void nccl_view_rows(record_set *set, const collcalc_nccl_prediction *prediction,
                    uint64_t size_bytes, bool all_candidates);

/* The lines for people above the table. */
void nccl_view_header(document *doc, const collcalc_query *query, const nccl_setup *setup,
                      const collcalc_nccl_prediction *prediction);

#endif
