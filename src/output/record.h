/* The one output path: commands build a document of records against column
 * schemas (field name with its unit suffix, kind, title for people); one
 * renderer per format (table, CSV, JSON, JSON lines) consumes it. No command
 * writes its own CSV header or JSON. */
#ifndef COLLCALC_OUTPUT_RECORD_H
#define COLLCALC_OUTPUT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a field holds, and so how each renderer prints it. Machine formats
 * print numbers at full precision (the shortest text that reads back to the
 * same double; integers as integers); the table prints them for people. */
typedef enum {
    FIELD_TEXT = 0, /* a string; "" allowed */
    FIELD_BOOL,     /* table: "yes" / "-" */
    FIELD_INT,      /* a whole number; table groups thousands */
    FIELD_NUMBER,   /* a plain number; table: 4 significant digits */
    FIELD_BYTES,    /* bytes; table: "175 MB" (below 1 kB whole bytes) */
    FIELD_BYTES_IEC, /* bytes; table with binary units as nccl-tests sizes: "8 MiB" */
    FIELD_TIME_US,  /* microseconds; table: "97.2 us", "3.50 ms" */
    FIELD_GBPS,     /* GB/s; table: "450 GB/s" */
    FIELD_RATIO,    /* a ratio; table: "1.00x" */
    FIELD_RECORDS   /* a nested list of records (JSON array; CSV a compact summary) */
} field_kind;

/* Where a column appears. */
enum {
    COLUMN_TABLE = 1u << 0,   /* in the table for people */
    COLUMN_MACHINE = 1u << 1, /* in JSON and CSV */
    COLUMN_BOTH = COLUMN_TABLE | COLUMN_MACHINE,
    COLUMN_LEFT = 1u << 2     /* left-aligned in the table (text columns are by default) */
};

typedef struct record_set record_set;

/* One column: its machine name carries the unit ("time_us"), its title is
 * for people ("time"). */
typedef struct {
    const char *name;
    const char *title;
    field_kind kind;
    unsigned flags;
    const struct record_schema *nested; /* FIELD_RECORDS: the nested records' schema */
} record_column;

typedef struct record_schema {
    const char *name; /* the JSON key of the list: "results" */
    size_t column_count;
    const record_column *columns;
} record_schema;

/* One value in a row. */
typedef struct {
    bool present; /* false: JSON null, CSV empty, table "-" */
    union {
        const char *text; /* owned by the document's arena */
        bool flag;
        long long integer;
        double number;
        record_set *records;
    } as;
} record_value;

/* The document a command builds. Opaque; create with doc_new, free with
 * doc_free. Every add function is safe after an allocation failure: the
 * document remembers it and doc_failed() says so (renderers refuse). */
typedef struct document document;

document *doc_new(const char *command);
void doc_free(document *doc);
bool doc_failed(const document *doc);

/* The query: an ordered list of key/values (one row of an ad-hoc schema).
 * Keys are static strings with unit suffixes. */
void doc_query_text(document *doc, const char *key, const char *value);
void doc_query_int(document *doc, const char *key, long long value);
void doc_query_number(document *doc, const char *key, field_kind kind, double value);
void doc_query_bool(document *doc, const char *key, bool value);
void doc_query_null(document *doc, const char *key);

/* A top-level record list under schema->name. Returns it, to add rows. */
record_set *doc_records(document *doc, const record_schema *schema);

/* A nested list for a FIELD_RECORDS column of the current row. */
record_set *record_nested(record_set *set, const record_schema *schema);

/* Rows: start one, then set its values by column name (columns not set
 * are absent). */
void record_begin(record_set *set);
void record_text(record_set *set, const char *column, const char *value);
void record_textf(record_set *set, const char *column, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void record_bool(record_set *set, const char *column, bool value);
void record_int(record_set *set, const char *column, long long value);
void record_number(record_set *set, const char *column, double value);
void record_set_records(record_set *set, const char *column, record_set *nested);
size_t record_count(const record_set *set);
/* Makes row `row` the current one again (to add values to an earlier row). */
void record_select(record_set *set, size_t row);

/* Lines for people: printed by the table renderer at the point they were
 * added (before, between or after the record lists). Machine formats carry
 * the same facts as fields; these are prose. */
void doc_text(document *doc, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A sentence machine formats carry as "notes": [...] and the table prints
 * as a line. */
void doc_note(document *doc, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A chart for people, drawn by the table renderer where it was added (the
 * document takes ownership; machine formats leave it out: they carry the
 * same numbers as records). */
struct plot_chart;
void doc_chart(document *doc, struct plot_chart *chart, int width, bool unicode);

/* Table options for one record list: a mark column after the last one
 * ("<- fastest") and whether a repeated value in the first column is
 * blanked (sizes in compare). */
void records_mark(record_set *set, size_t row, const char *mark);
void records_blank_repeats(record_set *set, const char *column);
/* Hides one column of this list from the table (e.g. totals when nothing
 * repeats); machine formats keep it. */
void records_hide_column(record_set *set, const char *column);
/* Hides the list from the table (it still goes to JSON / CSV). */
void records_machine_only(record_set *set);
/* Hides the list from the machine formats (a view for people only). */
void records_table_only(record_set *set);

/* Which machine columns of one schema a reader wants, in the order given
 * ("time_us,busbw_GBps"): the machine renderers print only these, and
 * builders may skip the work of the others (record_wants). */
enum { SELECTION_MAX = 64 };
typedef struct {
    const record_schema *schema;
    size_t count;
    unsigned char column[SELECTION_MAX]; /* indices into schema->columns */
    uint64_t mask;                       /* bit c: column c is selected */
} column_selection;

/* Parses a comma-separated list of the schema's machine column names.
 * False, with why written ("no column 'tim_us' in results (did you mean
 * time_us?)"; with nothing near, the list of the columns, as far as
 * why_size allows), for an unknown, repeated or empty name. */
bool column_selection_parse(column_selection *out, const record_schema *schema, const char *list,
                            char *why, size_t why_size);

/* Every machine column of the schema, in its order (what the renderers
 * print without a selection). */
void column_selection_all(column_selection *out, const record_schema *schema);

/* The selection applies to the document's lists of its schema from now on
 * (the pointer is kept: it must outlive the document), replacing an
 * earlier one of the same schema. False when the document already holds
 * selections for four other schemas. */
bool doc_select_columns(document *doc, const column_selection *selection);

/* False when the set's document will not print the column: a builder can
 * skip computing it (an explanation, a nested list). */
bool record_wants(const record_set *set, const char *column);

/* Empties the document for the next answer of the same command, keeping
 * its storage (batch answers millions of queries with one document). The
 * selection stays. */
void doc_reset(document *doc);

typedef enum { FORMAT_TABLE = 0, FORMAT_JSON, FORMAT_CSV, FORMAT_JSONL } output_format;

/* Parses "table", "json", "csv", "jsonl"; false when unknown. */
bool output_format_parse(const char *text, output_format *out);

/* Renders the document. Returns 0, or -1 when the document failed to build
 * (out of memory). Write errors are the caller's to check (ferror). */
int doc_render(const document *doc, output_format format, FILE *out);

/* Shortest decimal text that reads back to the same double ("0.0003125",
 * "175000000", "1e-300"). Non-finite values print as "null" (the model
 * never returns them; this is a last guard). */
void format_number_exact(char *buffer, size_t size, double value);

#endif
