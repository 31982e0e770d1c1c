/* The rows of a batch of queries (batch_rows.h). */
#include "batch_rows.h"

#include <string.h>

#include "report.h"

/* One inlined body for the rows of a flush (GCC and Clang): the pending
 * rows pay for one call, not one each (cachegrind: about 10 % fewer
 * instructions a row, bench/README.md). */
#if defined(__GNUC__) || defined(__clang__)
#define ROWS_FLATTEN __attribute__((flatten))
#else
#define ROWS_FLATTEN
#endif

_Static_assert((int)BATCH_PENDING_RESULTS >= (int)COLLCALC_ALGO_COUNT,
               "a plan's results fit the queue");

bool batch_rows_init(batch_rows *rows, FILE *out, output_format format, size_t capacity)
{
    memset(rows, 0, sizeof *rows);
    rows->format = format;
    column_selection_all(&rows->all_results, &RESULT_SCHEMA);
    return row_buffer_init(&rows->out, out, capacity);
}

void batch_rows_free(batch_rows *rows)
{
    row_buffer_free(&rows->out);
}

batch_rows_status batch_rows_columns(batch_rows *rows, document *doc, const char *columns,
                                     char *why, size_t size)
{
    rows->columns_text = columns;
    if (columns == NULL)
        return BATCH_ROWS_OK;
    for (const char *at = columns; at != NULL; at = strchr(at, ',')) {
        at += *at == ',';
        if (strncmp(at, "line", 4) == 0 && (at[4] == ',' || at[4] == '\0')) {
            snprintf(why, size, "'line' is always the first column; list the others");
            return BATCH_ROWS_USAGE;
        }
    }
    static const record_schema *const SCHEMAS[2] = {&RESULT_SCHEMA, &NCCL_SCHEMA};
    for (int i = 0; i < 2; i++) {
        rows->selection_ok[i] =
            column_selection_parse(&rows->selection[i], SCHEMAS[i], columns,
                                   rows->selection_why[i], sizeof rows->selection_why[i]);
        if (rows->selection_ok[i] && !doc_select_columns(doc, &rows->selection[i]))
            return BATCH_ROWS_NOMEM;
    }
    if (!rows->selection_ok[0] && !rows->selection_ok[1]) {
        snprintf(why, size, "%s", rows->selection_why[0]);
        return BATCH_ROWS_USAGE;
    }
    return BATCH_ROWS_OK;
}

batch_rows_status batch_rows_document(batch_rows *rows, const document *doc, long line_no,
                                      const char *command, char *why, size_t size)
{
    const record_schema *schema = rows_schema(doc);
    const char *model = schema == &NCCL_SCHEMA ? "NCCL" : "alpha-beta";
    if (rows->columns_text != NULL) {
        bool fits = false;
        for (int i = 0; i < 2; i++)
            fits |= schema == rows->selection[i].schema && rows->selection_ok[i];
        if (!fits) {
            snprintf(why, size, "%s: --columns: %s (the %s model answered this line)", command,
                     rows->selection_why[schema == &NCCL_SCHEMA ? 1 : 0], model);
            return BATCH_ROWS_USAGE;
        }
    }
    if (rows->format == FORMAT_CSV && schema != NULL) {
        if (rows->schema == NULL) {
            rows->schema = schema;
            rows_csv_header(&rows->out, "line", schema,
                            rows->columns_text != NULL
                                ? &rows->selection[schema == &NCCL_SCHEMA]
                                : NULL);
        } else if (schema != rows->schema) {
            snprintf(why, size,
                     "%s: this query uses the %s model, whose columns differ from the first "
                     "result's; give --cost-model on every line, or use --format jsonl",
                     command, model);
            return BATCH_ROWS_USAGE;
        }
    }
    if (rows_write(&rows->out, doc, rows->format, "line", line_no) < 0 && !rows->out.failed) {
        snprintf(why, size, "out of memory");
        return BATCH_ROWS_NOMEM;
    }
    return BATCH_ROWS_OK;
}

/* The columns of rows written without a document, the selected ones or
 * all of them; NULL: such rows go through a document. */
static const column_selection *direct_columns(const batch_rows *rows)
{
    const column_selection *columns = rows->columns_text == NULL ? &rows->all_results
                                      : rows->selection_ok[0]    ? &rows->selection[0]
                                                                 : NULL;
    return columns != NULL && (rows->format == FORMAT_JSONL || rows->schema == &RESULT_SCHEMA)
               ? columns
               : NULL;
}

bool batch_rows_direct(const batch_rows *rows)
{
    return direct_columns(rows) != NULL;
}

bool batch_rows_queue(batch_rows *rows, const collcalc_prepared *prepared, long line_no,
                      uint64_t size_bytes, collcalc_diag *diag)
{
    if (rows->pending_used + prepared->row_count > BATCH_PENDING_RESULTS)
        batch_rows_flush_pending(rows);
    batch_pending_row *row = &rows->pending[rows->pending_rows];
    row->prepared = prepared;
    row->line_no = line_no;
    row->first = rows->pending_used;
    row->basis = prepared->basis;
    row->layers = prepared->layers;
    row->per_layer = prepared->per_layer;
    if (collcalc_evaluate_results(prepared, size_bytes, rows->pending_results + row->first,
                                  &row->count, &row->fastest, diag) != COLLCALC_OK)
        return false;
    rows->pending_rows++;
    rows->pending_used += row->count;
    return true;
}

ROWS_FLATTEN void batch_rows_flush_pending(batch_rows *rows)
{
    const column_selection *columns = direct_columns(rows);
    for (size_t i = 0; i < rows->pending_rows; i++) {
        const batch_pending_row *row = &rows->pending[i];
        report_result_rows(&row->prepared->query, row->basis, row->layers, row->per_layer,
                           rows->pending_results + row->first, row->count, row->fastest,
                           &rows->out, rows->format, columns, "line", row->line_no);
    }
    rows->pending_rows = rows->pending_used = 0;
}

bool batch_rows_flush(batch_rows *rows)
{
    return row_buffer_flush(&rows->out);
}
