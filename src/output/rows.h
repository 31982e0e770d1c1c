/* Record rows written straight into an output buffer, one line each: the
 * streaming form of the CSV and JSON-lines renderers for commands that
 * answer many queries (batch). Every row carries a leading integer field
 * ("line") and then exactly the machine columns of its schema, with the
 * same names, order and number texts as doc_render prints them. */
#ifndef COLLCALC_OUTPUT_ROWS_H
#define COLLCALC_OUTPUT_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "record.h"

/* An output buffer: fwrite to out when full (out NULL: it grows). */
struct row_numbers; /* rows.c: the number texts of the row being written */
typedef struct {
    char *data;
    size_t used, capacity;
    size_t whole; /* data[0, whole) are complete rows: a full buffer writes only those */
    FILE *out;
    bool failed; /* a write error or out of memory: later writes are dropped */
    struct row_numbers *numbers;
} row_buffer;

/* capacity bytes of storage (malloc'd; freed by row_buffer_free). */
bool row_buffer_init(row_buffer *buffer, FILE *out, size_t capacity);
/* Writes what is buffered to out. False on a write error. */
bool row_buffer_flush(row_buffer *buffer);
void row_buffer_free(row_buffer *buffer);

/* The schema of the document's first list the machine formats carry, or
 * NULL when it has none. */
const record_schema *rows_schema(const document *doc);

/* CSV header: lead, then the schema's machine column names (those of the
 * selection, in its order, when it is one of this schema; NULL: all). */
void rows_csv_header(row_buffer *buffer, const char *lead, const record_schema *schema,
                     const column_selection *selection);

/* The document's rows: CSV (its first machine list, as doc_render) or
 * JSON lines (every machine list), each starting with lead = lead_value;
 * a list of the document's selected schema has only the selected columns.
 * Returns the rows written, or -1 when the document failed to build. */
long rows_write(row_buffer *buffer, const document *doc, output_format format, const char *lead,
                long long lead_value);

/* One row written field by field, for a command that has the values
 * without a document (batch's direct path): the same texts rows_write
 * prints. CSV: lead_value, then ",value" per field; JSON: {"lead":N, then
 * ,"name":value per field. */
void rows_begin(row_buffer *buffer, output_format format, const char *lead, long long lead_value);
void rows_field(row_buffer *buffer, output_format format, const record_column *column,
                const record_value *value);
void rows_end(row_buffer *buffer, output_format format);

/* A nested list field of count items (the phases), item by item: its
 * JSON text, inside one quoted CSV field (quotes doubled; "[]" unquoted,
 * as the CSV renderer writes it) or as a JSON array. */
void rows_list_begin(row_buffer *buffer, output_format format, const record_column *column,
                     size_t count);
void rows_list_item_begin(row_buffer *buffer, bool first);
void rows_list_field(row_buffer *buffer, output_format format, const record_column *column,
                     const record_value *value, bool first);
void rows_list_item_end(row_buffer *buffer);
void rows_list_end(row_buffer *buffer, output_format format, size_t count);

#endif
