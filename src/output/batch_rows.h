/* The rows of a batch of queries (`collcalc batch`), one writer for both
 * of batch's paths: a line answered through the single command's document
 * (its rows, rows_write) and a line answered from a kept plan, costed
 * straight into a queue of results and written as the same rows
 * (report_result_rows) without a document. Keeps the CSV's columns, fixed
 * by the first result, and the --columns selection of each model. */
#ifndef COLLCALC_OUTPUT_BATCH_ROWS_H
#define COLLCALC_OUTPUT_BATCH_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "collcalc/answer.h"
#include "record.h"
#include "rows.h"

/* Rows of lines answered from kept plans wait here (their results costed,
 * in order) and are written together by batch_rows_flush_pending: a row's
 * text takes a long chain of dependent arithmetic (the model's divisions,
 * then the shortest digits of each number), and rows made one after
 * another let the processor work on several chains at once where one
 * line's reading and keying would stand between them. The caller flushes
 * them before it writes any other line, and at the end, so the rows keep
 * the order of their lines (and no prepared question a pending row reads
 * is replaced meanwhile). */
enum { BATCH_PENDING_RESULTS = 16 };

typedef struct {
    const collcalc_prepared *prepared; /* its query, for the note column */
    long line_no;
    size_t first, count, fastest; /* its results: pending_results[first, first + count) */
    /* what the row reads of the plan, taken when it is costed (its memory
     * is at hand then) */
    collcalc_bw_basis basis;
    long layers, per_layer;
} batch_pending_row;

typedef struct {
    row_buffer out;
    output_format format;
    const record_schema *schema; /* CSV: the columns, fixed by the first result */
    /* --columns, parsed for each model's results (ok: the list names
     * columns of that schema; else why not) */
    const char *columns_text;
    column_selection selection[2];
    bool selection_ok[2];
    column_selection all_results; /* every RESULT_SCHEMA column: rows without --columns */
    char selection_why[2][1024];
    batch_pending_row pending[BATCH_PENDING_RESULTS];
    size_t pending_rows, pending_used; /* rows, and results they hold */
    collcalc_result pending_results[BATCH_PENDING_RESULTS];
} batch_rows;

/* Rows to out in format (FORMAT_CSV or FORMAT_JSONL), through a buffer of
 * capacity bytes. False when out of memory (batch_rows_free all the same). */
bool batch_rows_init(batch_rows *rows, FILE *out, output_format format, size_t capacity);
void batch_rows_free(batch_rows *rows);

typedef enum {
    BATCH_ROWS_OK = 0,
    BATCH_ROWS_USAGE,  /* why says what is wrong with the columns */
    BATCH_ROWS_NOMEM
} batch_rows_status;

/* The --columns list (NULL: every column), parsed for each model's
 * results and selected in doc (the document every line is answered
 * into); refused when it fits neither. */
batch_rows_status batch_rows_columns(batch_rows *rows, document *doc, const char *columns,
                                     char *why, size_t size);

/* The rows of a line's document (the answer of command, a collective).
 * BATCH_ROWS_OK when written; BATCH_ROWS_USAGE (nothing written) when its
 * model's columns do not fit --columns or the CSV's first result;
 * BATCH_ROWS_NOMEM when the rows could not all be made. why says it. */
batch_rows_status batch_rows_document(batch_rows *rows, const document *doc, long line_no,
                                      const char *command, char *why, size_t size);

/* True when the answer of an alpha-beta plan can be written as rows
 * without a document (batch_rows_queue): false for a --columns list the
 * alpha-beta results do not have, or a CSV whose columns are NCCL's. */
bool batch_rows_direct(const batch_rows *rows);

/* The results of prepared (an alpha-beta question) at size_bytes, queued
 * as line_no's rows (the queue written first when they do not fit). False,
 * nothing queued, when the model refuses (diag says why). */
bool batch_rows_queue(batch_rows *rows, const collcalc_prepared *prepared, long line_no,
                      uint64_t size_bytes, collcalc_diag *diag);

/* Writes the queued rows, in their lines' order. */
void batch_rows_flush_pending(batch_rows *rows);

/* Writes what is buffered to the output; false on a write error or when
 * memory ran out. */
bool batch_rows_flush(batch_rows *rows);

#endif
