/* The answer (collcalc/answer.h) as records: the schema of an alpha-beta
 * result and its phases, NCCL's candidates, the query object, the header
 * lines and the --explain arithmetic; the whole document of a collective
 * question. The collective commands, compare, sweep and batch build their
 * records here: a field has one name and one definition. */
#ifndef COLLCALC_OUTPUT_REPORT_H
#define COLLCALC_OUTPUT_REPORT_H

#include <stdbool.h>

#include "collcalc/answer.h"
#include "record.h"
#include "rows.h"

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
/* Results (count of them, the fastest's index) of query written straight
 * as rows, each through report_result_view and report_result_write. What
 * the rows read of the prepared question besides (its basis, layers and
 * per_layer) is passed as values, which a caller takes when it costs:
 * batch writes a row some lines later, when the question's memory may
 * have left the nearest cache. */
void report_result_rows(const collcalc_query *query, collcalc_bw_basis basis, long layers,
                        long per_layer, const collcalc_result *results, size_t count,
                        size_t fastest, row_buffer *out, output_format format,
                        const column_selection *selection, const char *lead,
                        long long lead_value);

/* Two-line header of a collective query for people. */
void report_header(document *doc, const collcalc_query *query, collcalc_bw_basis basis);

/* The --explain block of one result, as lines for people. */
void report_explain(document *doc, const collcalc_query *query, const collcalc_result *r);

/* The candidates' schema ("results"): size_bytes, model, algorithm,
 * protocol, channels, selected, latency_us, bandwidth_us, time_us,
 * algbw_GBps, busbw_GBps, busbw_low_GBps, busbw_high_GBps, time_low_us,
 * time_high_us (the band), nccl_time_us, available, why. */
extern const record_schema NCCL_SCHEMA;

/* A runnable candidate's figures into the current row: channels,
 * latency_us, bandwidth_us, time_us, algbw_GBps, busbw_GBps, nccl_time_us
 * (NCCL_SCHEMA, or a schema with those columns). */
void report_nccl_figures(record_set *set, const collcalc_nccl_candidate *candidate);

/* A runnable candidate's band (doc/MODEL.md 15.1) into the current row:
 * busbw_low_GBps, busbw_high_GBps, time_low_us, time_high_us; left empty
 * (null) when the prediction's regime has no validation run. */
void report_nccl_band(record_set *set, const collcalc_nccl_prediction *prediction,
                      const collcalc_nccl_candidate *candidate);

/* One prediction's candidates as rows (every one with all_candidates, else
 * those that can run); the selected one is marked. */
void report_nccl_rows(record_set *set, const collcalc_nccl_prediction *prediction,
                      uint64_t size_bytes, bool all_candidates);

/* "NCCL 2.30.7 tuner on hgx-h100 (ib, process-per-gpu launch); times with
 * collcalc's corrections": the setup line of an NCCL answer. */
void report_nccl_setup_text(char *buffer, size_t size, const collcalc_prepared *prepared);

/* "Ring/LL", "NVLS/Simple"; "-" for NULL. */
void report_nccl_choice_text(char *buffer, size_t size, const collcalc_nccl_candidate *candidate);

/* The query object of a prepared question (report_query, the model's
 * keys; the totals of the headline when it repeats). */
void report_prepared_query(document *doc, const collcalc_prepared *prepared,
                           const collcalc_answer *answer, bool with_size);

/* The document of one collective question: the query object and the
 * lines for people only when format shows them, then the records
 * (alpha-beta results, or NCCL's candidates: every one with explain). */
void report_answer(document *doc, const collcalc_prepared *prepared,
                   const collcalc_answer *answer, output_format format, bool explain);

/* One side of a comparison: the answer's headline as a result (alpha-beta:
 * the result itself; NCCL: its choice's figures, no phases). */
void report_side_result(const collcalc_prepared *prepared, const collcalc_answer *answer,
                        collcalc_result *out);

/* The headline as a row of a schema holding the result columns: an
 * alpha-beta result, or NCCL's choice ("NVLS/Simple", its figures; the
 * columns NCCL's model has no value for absent). */
void report_side_row(record_set *set, const collcalc_prepared *prepared,
                     const collcalc_answer *answer);

#endif
