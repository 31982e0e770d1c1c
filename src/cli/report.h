/* What the collective-style commands (the seven collectives, compare,
 * sweep) share: turning options into a cluster, the record schema of a
 * result and its phases, the header lines, and the --explain arithmetic. */
#ifndef COLLCALC_CLI_REPORT_H
#define COLLCALC_CLI_REPORT_H

#include <stdbool.h>

#include "collcalc/cluster_spec.h"
#include "collcalc/model.h"
#include "context.h"
#include "record.h"
#include "rows.h"

/* The cluster options of argv applied to a spec (on top of what it holds).
 * Returns 0 or a usage error's exit code. */
int report_spec_from_args(cli_context *ctx, collcalc_cluster_spec *spec);

/* Resolves a spec against the tables (loading them as needed; a
 * --platforms file is always read). Warnings are queued. Returns 0 or an
 * exit code. info may be NULL. */
int report_resolve(cli_context *ctx, const collcalc_cluster_spec *spec,
                   collcalc_cluster *out_cluster, collcalc_cluster_info *info);

/* The --algo choices, each checked against the op (an algorithm that does
 * not exist for the op is a usage error naming the ones that do). *count 0
 * means all. Returns 0 or an exit code. */
int report_algos(cli_context *ctx, collcalc_op op, collcalc_algo *algos, int *count);

/* The model's rows for the query and the chosen algorithms (all applicable
 * ones when algo_count is 0): the query checked once (collcalc_model_rows).
 * rows has room for COLLCALC_ALGO_COUNT. Returns 0 or an exit code. */
int report_rows(cli_context *ctx, const collcalc_query *query, const collcalc_algo *algos,
                int algo_count, collcalc_model_row *rows, size_t *out_row_count);

/* Costs those rows for size_bytes (the query's own size is not read) into
 * results (room for COLLCALC_ALGO_COUNT), with the fastest's index.
 * Returns 0 or an exit code. */
int report_cost(cli_context *ctx, const collcalc_query *query, const collcalc_model_row *rows,
                size_t row_count, uint64_t size_bytes, collcalc_result *results,
                size_t *out_count, size_t *out_fastest);

/* report_rows, then report_cost for the query's size. */
int report_evaluate(cli_context *ctx, const collcalc_query *query, const collcalc_algo *algos,
                    int algo_count, collcalc_result *results, size_t *out_count,
                    size_t *out_fastest);

/* --layers / --per-layer (1 when absent). Returns 0 or an exit code. */
int report_repeat(cli_context *ctx, long *layers, long *per_layer);

/* "8 GPUs over nvlink5", "16 GPUs = 2 nodes x 8 (nvlink4 inside, 8 x
 * ib-ndr NICs per node)". */
void report_describe_cluster(const collcalc_cluster *cluster, char *buffer, size_t size);

/* "per-direction bandwidth" / "headline bandwidth (as vendors quote it:
 * NVLink counts both directions)". */
const char *report_basis_phrase(collcalc_bw_basis basis);

/* The query's fields (op, size, cluster, basis, repetition) into the
 * document's query object; size 0 leaves size_bytes out (sweeps). */
void report_query(document *doc, const collcalc_query *query, collcalc_bw_basis basis,
                  long layers, long per_layer, bool with_size);

/* The columns of one result record, as initializers: commands that need
 * more columns (ratios in compare) build their schema from the same list,
 * so a field has one name everywhere. Every schema puts a "size_bytes"
 * column (FIELD_INT) before them: machine-only in a collective's results,
 * shown in a sweep's. */
extern const record_schema PHASE_SCHEMA;
#define RESULT_COLUMNS                                                                           \
    {"op", "op", FIELD_TEXT, COLUMN_MACHINE, NULL},                                              \
    {"algorithm", "algorithm", FIELD_TEXT, COLUMN_BOTH, NULL},                                   \
    {"fastest", "fastest", FIELD_BOOL, COLUMN_MACHINE, NULL},                                    \
    {"in_nccl", "nccl", FIELD_BOOL, COLUMN_BOTH, NULL},                                          \
    {"gpus", "GPUs", FIELD_INT, COLUMN_MACHINE, NULL},                                           \
    {"nodes", "nodes", FIELD_INT, COLUMN_MACHINE, NULL},                                         \
    {"bw_basis", "basis", FIELD_TEXT, COLUMN_MACHINE, NULL},                                     \
    {"steps", "steps", FIELD_INT, COLUMN_BOTH, NULL},                                            \
    {"bytes_sent_per_gpu", "sent/GPU", FIELD_BYTES, COLUMN_BOTH, NULL},                          \
    {"bytes_received_per_gpu", "recv/GPU", FIELD_BYTES, COLUMN_BOTH, NULL},                      \
    {"others_differ", "others differ", FIELD_BOOL, COLUMN_MACHINE, NULL},                        \
    {"bytes_sent_other_gpu", "sent/other", FIELD_BYTES, COLUMN_MACHINE, NULL},                   \
    {"bytes_received_other_gpu", "recv/other", FIELD_BYTES, COLUMN_MACHINE, NULL},               \
    {"latency_us", "latency", FIELD_TIME_US, COLUMN_BOTH, NULL},                                 \
    {"bandwidth_us", "bandwidth", FIELD_TIME_US, COLUMN_BOTH, NULL},                             \
    {"time_us", "time", FIELD_TIME_US, COLUMN_BOTH, NULL},                                       \
    {"algbw_GBps", "algbw", FIELD_GBPS, COLUMN_BOTH, NULL},                                      \
    {"busbw_factor", "busbw factor", FIELD_NUMBER, COLUMN_MACHINE, NULL},                        \
    {"busbw_GBps", "busbw", FIELD_GBPS, COLUMN_BOTH, NULL},                                      \
    {"dominant", "dominant", FIELD_TEXT, COLUMN_BOTH, NULL},                                     \
    {"layers", "layers", FIELD_INT, COLUMN_MACHINE, NULL},                                       \
    {"per_layer", "per layer", FIELD_INT, COLUMN_MACHINE, NULL},                                 \
    {"total_latency_us", "total latency", FIELD_TIME_US, COLUMN_MACHINE, NULL},                  \
    {"total_bandwidth_us", "total bandwidth", FIELD_TIME_US, COLUMN_MACHINE, NULL},              \
    {"total_time_us", "total", FIELD_TIME_US, COLUMN_MACHINE, NULL},                             \
    {"note", "note", FIELD_TEXT, COLUMN_MACHINE, NULL},                                          \
    {"phases", "phases", FIELD_RECORDS, COLUMN_MACHINE, &PHASE_SCHEMA}

/* The schema of a collective command's results ("results"). */
extern const record_schema RESULT_SCHEMA;

/* RESULT_SCHEMA's columns, in its order (tests/unit/test_cli_batch.c
 * checks the names). */
typedef enum {
    RESULT_SIZE_BYTES = 0,
    RESULT_OP,
    RESULT_ALGORITHM,
    RESULT_FASTEST,
    RESULT_IN_NCCL,
    RESULT_GPUS,
    RESULT_NODES,
    RESULT_BW_BASIS,
    RESULT_STEPS,
    RESULT_BYTES_SENT_PER_GPU,
    RESULT_BYTES_RECEIVED_PER_GPU,
    RESULT_OTHERS_DIFFER,
    RESULT_BYTES_SENT_OTHER_GPU,
    RESULT_BYTES_RECEIVED_OTHER_GPU,
    RESULT_LATENCY_US,
    RESULT_BANDWIDTH_US,
    RESULT_TIME_US,
    RESULT_ALGBW_GBPS,
    RESULT_BUSBW_FACTOR,
    RESULT_BUSBW_GBPS,
    RESULT_DOMINANT,
    RESULT_LAYERS,
    RESULT_PER_LAYER,
    RESULT_TOTAL_LATENCY_US,
    RESULT_TOTAL_BANDWIDTH_US,
    RESULT_TOTAL_TIME_US,
    RESULT_NOTE,
    RESULT_PHASES,
    RESULT_FIELD_COUNT
} result_field;

/* One result as the result columns read it (report_result_view). The
 * repetition totals are computed when a column first needs them, once. */
typedef struct {
    const collcalc_query *query;
    const collcalc_result *result;
    collcalc_bw_basis basis;
    long layers, per_layer;
    bool fastest;
    signed char totals_known; /* -1: not computed yet; 0: could not be; 1: in totals */
    collcalc_totals totals;
} result_view;

void report_result_view(result_view *view, const collcalc_query *query, const collcalc_result *r,
                        collcalc_bw_basis basis, long layers, long per_layer, bool fastest);

/* Adds one result as a row of a set whose schema holds the result columns
 * (RESULT_SCHEMA or a command's superset). */
void report_result_row(record_set *set, const collcalc_query *query, const collcalc_result *r,
                       collcalc_bw_basis basis, long layers, long per_layer, bool fastest);

/* The same result straight into rows: the selected RESULT_SCHEMA columns
 * after lead, as CSV or a JSON line, with no document (batch): the very
 * text rows_write prints for report_result_row's records. */
void report_result_write(row_buffer *out, output_format format, const column_selection *selection,
                         result_view *view, const char *lead, long long lead_value);

/* Two-line header of a collective query for people. */
void report_header(document *doc, const collcalc_query *query, collcalc_bw_basis basis);

/* The --explain block of one result, as lines for people. */
void report_explain(document *doc, const collcalc_query *query, const collcalc_result *r);

/* Index of the fastest result NCCL itself runs, or count when none. */
size_t report_fastest_in_nccl(const collcalc_result *results, size_t count);

#endif
