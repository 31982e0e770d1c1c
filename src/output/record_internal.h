/* Inside a document (record.c builds it, render.c prints it). */
#ifndef COLLCALC_OUTPUT_RECORD_INTERNAL_H
#define COLLCALC_OUTPUT_RECORD_INTERNAL_H

#include "record.h"

typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t used, capacity;
    _Alignas(8) char data[];
} arena_chunk;

typedef struct {
    record_value *values; /* one per schema column */
    const char *mark;     /* table only: "<- fastest"; NULL when none */
} record_row;

struct record_set {
    document *doc;
    const record_schema *schema;
    record_row *rows;
    size_t row_count, row_capacity;
    size_t current; /* the row record_* functions set */
    size_t next_column; /* where the next column name is looked for first (rows set in order) */
    const char *blank_column; /* table: blank a value equal to the row above's */
    const char *hidden[4];    /* table: columns not shown */
    bool show_table, show_machine;
    const column_selection *selection; /* machine columns printed; NULL: every one */
};

typedef enum { ITEM_TEXT, ITEM_NOTE, ITEM_RECORDS, ITEM_CHART } item_kind;

typedef struct {
    item_kind kind;
    const char *text;         /* ITEM_TEXT, ITEM_NOTE */
    record_set *set;          /* ITEM_RECORDS */
    struct plot_chart *chart; /* ITEM_CHART (owned) */
    int width;                /* ITEM_CHART: columns */
    bool unicode;             /* ITEM_CHART */
} doc_item;

typedef struct {
    const char *key;
    field_kind kind;
    record_value value;
} query_entry;

struct document {
    const char *command;
    bool failed;
    const char *bad_column; /* the column name that was not in a schema */
    query_entry *query;
    size_t query_count, query_capacity;
    doc_item *items;
    size_t item_count, item_capacity;
    arena_chunk *arena;
    const column_selection *selections[4]; /* doc_select_columns, one per schema */
};

/* The machine columns a renderer prints for set, in order: the selection,
 * or every COLUMN_MACHINE column. Returns the count; columns has room for
 * SELECTION_MAX (no schema is wider). */
size_t set_machine_columns(const record_set *set, size_t columns[SELECTION_MAX]);

/* The same for a schema and a selection of it (NULL: every machine column). */
size_t schema_machine_columns(const record_schema *schema, const column_selection *selection,
                              size_t columns[SELECTION_MAX]);

#endif
