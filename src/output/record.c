/* Building documents of records (record.h): an arena for text, growable
 * row arrays, and the document's ordered items. */
#include "record.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "record_internal.h"

/* ---- arena ------------------------------------------------------------ */

enum { ARENA_CHUNK = 16384 };

static void *arena_alloc(document *doc, size_t size)
{
    size = (size + 7) & ~(size_t)7;
    arena_chunk *chunk = doc->arena;
    if (chunk == NULL || chunk->used + size > chunk->capacity) {
        size_t capacity = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        arena_chunk *fresh = malloc(sizeof *fresh + capacity);
        if (fresh == NULL) {
            doc->failed = true;
            return NULL;
        }
        fresh->next = chunk;
        fresh->used = 0;
        fresh->capacity = capacity;
        doc->arena = fresh;
        chunk = fresh;
    }
    void *at = chunk->data + chunk->used;
    chunk->used += size;
    return at;
}

static const char *arena_strdup(document *doc, const char *text)
{
    size_t length = strlen(text);
    char *copy = arena_alloc(doc, length + 1);
    if (copy == NULL)
        return "";
    memcpy(copy, text, length + 1);
    return copy;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 0)))
#endif
static const char *arena_vprintf(document *doc, const char *format, va_list args)
{
    va_list copy;
    va_copy(copy, args);
    int length = vsnprintf(NULL, 0, format, copy);
    va_end(copy);
    if (length < 0)
        return "";
    char *text = arena_alloc(doc, (size_t)length + 1);
    if (text == NULL)
        return "";
    vsnprintf(text, (size_t)length + 1, format, args);
    return text;
}

/* ---- documents ---------------------------------------------------------- */

document *doc_new(const char *command)
{
    document *doc = calloc(1, sizeof *doc);
    if (doc != NULL)
        doc->command = command;
    return doc;
}

static void free_set(record_set *set)
{
    if (set == NULL)
        return;
    for (size_t r = 0; r < set->row_count; r++)
        for (size_t c = 0; c < set->schema->column_count; c++)
            if (set->schema->columns[c].kind == FIELD_RECORDS && set->rows[r].values[c].present)
                free_set(set->rows[r].values[c].as.records);
    for (size_t r = 0; r < set->row_count; r++)
        free(set->rows[r].values);
    free(set->rows);
    free(set);
}

void doc_free(document *doc)
{
    if (doc == NULL)
        return;
    for (size_t i = 0; i < doc->item_count; i++) {
        if (doc->items[i].kind == ITEM_RECORDS)
            free_set(doc->items[i].set);
        if (doc->items[i].kind == ITEM_CHART)
            plot_free(doc->items[i].chart);
    }
    free(doc->items);
    free(doc->query);
    while (doc->arena != NULL) {
        arena_chunk *next = doc->arena->next;
        free(doc->arena);
        doc->arena = next;
    }
    free(doc);
}

bool doc_failed(const document *doc)
{
    return doc == NULL || doc->failed;
}

/* Makes room for one more element in array (count in use of *capacity,
 * element_size bytes each), doubling from first: returns the array to use
 * from now on, or NULL when out of memory (array unchanged, doc failed). */
static void *room_for_one(document *doc, void *array, size_t count, size_t *capacity,
                          size_t element_size, size_t first)
{
    if (count < *capacity)
        return array;
    size_t grown = *capacity ? *capacity * 2 : first;
    void *bigger = realloc(array, grown * element_size);
    if (bigger == NULL) {
        doc->failed = true;
        return NULL;
    }
    *capacity = grown;
    return bigger;
}

static doc_item *add_item(document *doc, item_kind kind)
{
    if (doc == NULL || doc->failed)
        return NULL;
    doc_item *items = room_for_one(doc, doc->items, doc->item_count, &doc->item_capacity,
                                   sizeof *items, 16);
    if (items == NULL)
        return NULL;
    doc->items = items;
    doc_item *item = &doc->items[doc->item_count++];
    memset(item, 0, sizeof *item);
    item->kind = kind;
    return item;
}

static query_entry *add_query(document *doc, const char *key, field_kind kind)
{
    if (doc == NULL || doc->failed)
        return NULL;
    for (size_t i = 0; i < doc->query_count; i++)
        if (strcmp(doc->query[i].key, key) == 0) {
            doc->query[i].kind = kind;
            return &doc->query[i];
        }
    query_entry *query = room_for_one(doc, doc->query, doc->query_count, &doc->query_capacity,
                                      sizeof *query, 16);
    if (query == NULL)
        return NULL;
    doc->query = query;
    query_entry *entry = &doc->query[doc->query_count++];
    memset(entry, 0, sizeof *entry);
    entry->key = key;
    entry->kind = kind;
    return entry;
}

void doc_query_text(document *doc, const char *key, const char *value)
{
    query_entry *entry = add_query(doc, key, FIELD_TEXT);
    if (entry != NULL) {
        entry->value.present = value != NULL;
        entry->value.as.text = value != NULL ? arena_strdup(doc, value) : NULL;
    }
}

void doc_query_int(document *doc, const char *key, long long value)
{
    query_entry *entry = add_query(doc, key, FIELD_INT);
    if (entry != NULL) {
        entry->value.present = true;
        entry->value.as.integer = value;
    }
}

void doc_query_number(document *doc, const char *key, field_kind kind, double value)
{
    query_entry *entry = add_query(doc, key, kind);
    if (entry != NULL) {
        entry->value.present = true;
        entry->value.as.number = value;
    }
}

void doc_query_bool(document *doc, const char *key, bool value)
{
    query_entry *entry = add_query(doc, key, FIELD_BOOL);
    if (entry != NULL) {
        entry->value.present = true;
        entry->value.as.flag = value;
    }
}

void doc_query_null(document *doc, const char *key)
{
    query_entry *entry = add_query(doc, key, FIELD_TEXT);
    if (entry != NULL)
        entry->value.present = false;
}

static record_set *new_set(document *doc, const record_schema *schema)
{
    record_set *set = calloc(1, sizeof *set);
    if (set == NULL) {
        doc->failed = true;
        return NULL;
    }
    set->doc = doc;
    set->schema = schema;
    set->show_table = true;
    set->show_machine = true;
    return set;
}

record_set *doc_records(document *doc, const record_schema *schema)
{
    if (doc == NULL || doc->failed)
        return NULL;
    record_set *set = new_set(doc, schema);
    if (set == NULL)
        return NULL;
    doc_item *item = add_item(doc, ITEM_RECORDS);
    if (item == NULL) {
        free(set);
        return NULL;
    }
    item->set = set;
    return set;
}

record_set *record_nested(record_set *set, const record_schema *schema)
{
    if (set == NULL || set->doc->failed)
        return NULL;
    return new_set(set->doc, schema);
}

void record_begin(record_set *set)
{
    if (set == NULL || set->doc->failed)
        return;
    record_row *rows = room_for_one(set->doc, set->rows, set->row_count, &set->row_capacity,
                                    sizeof *rows, 8);
    if (rows == NULL)
        return;
    set->rows = rows;
    record_row *row = &set->rows[set->row_count];
    row->values = calloc(set->schema->column_count ? set->schema->column_count : 1,
                         sizeof *row->values);
    row->mark = NULL;
    if (row->values == NULL) {
        set->doc->failed = true;
        return;
    }
    set->current = set->row_count++;
    set->next_column = 0;
}

/* The row values are set on: the last begun, or the one record_select chose. */
static record_row *current_row(record_set *set)
{
    return &set->rows[set->current];
}

void record_select(record_set *set, size_t row)
{
    if (set != NULL && row < set->row_count)
        set->current = row;
}

/* The current row's slot for a column; NULL (and a failed document: a
 * column name that is not in the schema is a programming error the tests
 * catch) when absent. */
static record_value *slot(record_set *set, const char *column, field_kind *out_kind)
{
    if (set == NULL || set->doc->failed || set->row_count == 0)
        return NULL;
    /* Rows are set column after column: try the one after the last first. */
    size_t guess = set->next_column;
    if (guess < set->schema->column_count) {
        const char *name = set->schema->columns[guess].name;
        if (name == column || strcmp(name, column) == 0) {
            set->next_column = guess + 1;
            *out_kind = set->schema->columns[guess].kind;
            return &current_row(set)->values[guess];
        }
    }
    for (size_t c = 0; c < set->schema->column_count; c++)
        if (strcmp(set->schema->columns[c].name, column) == 0) {
            set->next_column = c + 1;
            *out_kind = set->schema->columns[c].kind;
            return &current_row(set)->values[c];
        }
    set->doc->failed = true;
    set->doc->bad_column = column;
    return NULL;
}

void record_text(record_set *set, const char *column, const char *value)
{
    field_kind kind;
    record_value *v = slot(set, column, &kind);
    if (v != NULL && value != NULL) {
        v->present = true;
        v->as.text = arena_strdup(set->doc, value);
    }
}

void record_textf(record_set *set, const char *column, const char *format, ...)
{
    field_kind kind;
    record_value *v = slot(set, column, &kind);
    if (v == NULL)
        return;
    va_list args;
    va_start(args, format);
    v->as.text = arena_vprintf(set->doc, format, args);
    va_end(args);
    v->present = true;
}

void record_bool(record_set *set, const char *column, bool value)
{
    field_kind kind;
    record_value *v = slot(set, column, &kind);
    if (v != NULL) {
        v->present = true;
        v->as.flag = value;
    }
}

void record_int(record_set *set, const char *column, long long value)
{
    field_kind kind;
    record_value *v = slot(set, column, &kind);
    if (v == NULL)
        return;
    v->present = true;
    if (kind == FIELD_INT)
        v->as.integer = value;
    else
        v->as.number = (double)value;
}

void record_number(record_set *set, const char *column, double value)
{
    field_kind kind;
    record_value *v = slot(set, column, &kind);
    if (v == NULL)
        return;
    v->present = true;
    if (kind == FIELD_INT)
        v->as.integer = (long long)value;
    else
        v->as.number = value;
}

void record_set_records(record_set *set, const char *column, record_set *nested)
{
    field_kind kind;
    record_value *v = slot(set, column, &kind);
    if (v != NULL && nested != NULL) {
        v->present = true;
        v->as.records = nested;
    } else if (nested != NULL) {
        free_set(nested);
    }
}

size_t record_count(const record_set *set)
{
    return set != NULL ? set->row_count : 0;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 0)))
#endif
static void add_text_item(document *doc, item_kind kind, const char *format, va_list args)
{
    doc_item *item = add_item(doc, kind);
    if (item != NULL)
        item->text = arena_vprintf(doc, format, args);
}

void doc_text(document *doc, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    add_text_item(doc, ITEM_TEXT, format, args);
    va_end(args);
}

void doc_note(document *doc, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    add_text_item(doc, ITEM_NOTE, format, args);
    va_end(args);
}

void doc_chart(document *doc, struct plot_chart *chart, int width, bool unicode)
{
    doc_item *item = add_item(doc, ITEM_CHART);
    if (item == NULL) {
        plot_free(chart);
        return;
    }
    item->chart = chart;
    item->width = width;
    item->unicode = unicode;
}

void records_mark(record_set *set, size_t row, const char *mark)
{
    if (set != NULL && row < set->row_count && mark != NULL)
        set->rows[row].mark = arena_strdup(set->doc, mark);
}

void records_blank_repeats(record_set *set, const char *column)
{
    if (set == NULL)
        return;
    set->blank_column = column;
}

void records_hide_column(record_set *set, const char *column)
{
    if (set == NULL)
        return;
    for (size_t i = 0; i < sizeof set->hidden / sizeof set->hidden[0]; i++)
        if (set->hidden[i] == NULL) {
            set->hidden[i] = column;
            return;
        }
}

void records_machine_only(record_set *set)
{
    if (set != NULL)
        set->show_table = false;
}

void records_table_only(record_set *set)
{
    if (set != NULL)
        set->show_machine = false;
}

bool output_format_parse(const char *text, output_format *out)
{
    static const struct {
        const char *name;
        output_format format;
    } FORMATS[] = {{"table", FORMAT_TABLE}, {"json", FORMAT_JSON}, {"csv", FORMAT_CSV},
                   {"jsonl", FORMAT_JSONL}};
    for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++)
        if (strcmp(text, FORMATS[i].name) == 0) {
            *out = FORMATS[i].format;
            return true;
        }
    return false;
}
