/* Building documents of records (record.h): an arena for text, growable
 * row arrays, and the document's ordered items. */
#include "record.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/status.h"
#include "plot.h"
#include "record_internal.h"
#include "helpers.h"

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

void doc_free(document *doc)
{
    if (doc == NULL)
        return;
    for (size_t i = 0; i < doc->item_count; i++)
        if (doc->items[i].kind == ITEM_CHART)
            plot_free(doc->items[i].chart);
    free(doc->items);
    free(doc->query);
    while (doc->arena != NULL) {
        arena_chunk *next = doc->arena->next;
        free(doc->arena);
        doc->arena = next;
    }
    free(doc);
}

void doc_reset(document *doc)
{
    for (size_t i = 0; i < doc->item_count; i++)
        if (doc->items[i].kind == ITEM_CHART)
            plot_free(doc->items[i].chart);
    doc->item_count = 0;
    doc->query_count = 0;
    doc->failed = false;
    doc->bad_column = NULL;
    /* Keep the newest chunk of the arena (the others are older and not
     * larger), emptied. */
    arena_chunk *keep = doc->arena;
    if (keep != NULL) {
        arena_chunk *older = keep->next;
        while (older != NULL) {
            arena_chunk *next = older->next;
            free(older);
            older = next;
        }
        keep->next = NULL;
        keep->used = 0;
    }
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

/* Sets, their rows and values live in the arena: a document is freed (or
 * reset) in one sweep, and a batch line costs no malloc once it has run. */
static record_set *new_set(document *doc, const record_schema *schema)
{
    record_set *set = arena_alloc(doc, sizeof *set);
    if (set == NULL)
        return NULL;
    memset(set, 0, sizeof *set);
    set->doc = doc;
    set->schema = schema;
    for (size_t i = 0; i < sizeof doc->selections / sizeof doc->selections[0]; i++)
        if (doc->selections[i] != NULL && doc->selections[i]->schema == schema)
            set->selection = doc->selections[i];
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
    if (item == NULL)
        return NULL;
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
    if (set->row_count == set->row_capacity) { /* double, in the arena */
        size_t grown = set->row_capacity ? set->row_capacity * 2 : 8;
        record_row *rows = arena_alloc(set->doc, grown * sizeof *rows);
        if (rows == NULL)
            return;
        if (set->row_count > 0)
            memcpy(rows, set->rows, set->row_count * sizeof *rows);
        set->rows = rows;
        set->row_capacity = grown;
    }
    record_row *row = &set->rows[set->row_count];
    size_t columns = set->schema->column_count ? set->schema->column_count : 1;
    row->values = arena_alloc(set->doc, columns * sizeof *row->values);
    row->mark = NULL;
    if (row->values == NULL)
        return;
    memset(row->values, 0, columns * sizeof *row->values);
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
        if (set->schema->columns[c].name == column) {
            set->next_column = c + 1;
            *out_kind = set->schema->columns[c].kind;
            return &current_row(set)->values[c];
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

/* ---- column selections -------------------------------------------------- */

bool column_selection_parse(column_selection *out, const record_schema *schema, const char *list,
                            char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->schema = schema;
    const char *names[SELECTION_MAX];
    size_t name_count = 0;
    for (size_t c = 0; c < schema->column_count && name_count < SELECTION_MAX; c++)
        if (schema->columns[c].flags & COLUMN_MACHINE)
            names[name_count++] = schema->columns[c].name;
    const char *at = list;
    for (;;) {
        const char *end = strchr(at, ',');
        size_t length = end != NULL ? (size_t)(end - at) : strlen(at);
        char name[64];
        if (length == 0) {
            snprintf(why, why_size, "an empty column name (names are separated by single commas)");
            return false;
        }
        snprintf(name, sizeof name, "%.*s", length < sizeof name ? (int)length : 60, at);
        size_t found = schema->column_count;
        for (size_t c = 0; c < schema->column_count; c++)
            if ((schema->columns[c].flags & COLUMN_MACHINE) &&
                strlen(schema->columns[c].name) == length &&
                memcmp(schema->columns[c].name, at, length) == 0)
                found = c;
        if (found == schema->column_count) {
            char shown[COLLCALC_ECHO_BUFFER];
            collcalc_echo(shown, sizeof shown, name);
            char hint[COLLCALC_ECHO_BUFFER + 64];
            collcalc_suggest_text(hint, sizeof hint, name, names, name_count);
            int used = snprintf(why, why_size, "no column '%s' in %s%s", shown, schema->name,
                                hint);
            /* Nothing near: name them all (as far as the buffer goes). */
            for (size_t c = 0; hint[0] == '\0' && c < name_count && used >= 0 &&
                               (size_t)used < why_size;
                 c++)
                used += snprintf(why + used, why_size - (size_t)used, "%s%s",
                                 c == 0 ? "; the columns: " : ", ", names[c]);
            return false;
        }
        for (size_t k = 0; k < out->count; k++)
            if (out->column[k] == found) {
                snprintf(why, why_size, "column '%s' named twice", schema->columns[found].name);
                return false;
            }
        if (out->count == SELECTION_MAX) {
            snprintf(why, why_size, "more than %d columns", SELECTION_MAX);
            return false;
        }
        out->column[out->count++] = (unsigned char)found;
        out->mask |= UINT64_C(1) << found;
        if (end == NULL)
            return true;
        at = end + 1;
    }
}

void column_selection_all(column_selection *out, const record_schema *schema)
{
    memset(out, 0, sizeof *out);
    out->schema = schema;
    for (size_t c = 0; c < schema->column_count && out->count < SELECTION_MAX; c++)
        if (schema->columns[c].flags & COLUMN_MACHINE) {
            out->column[out->count++] = (unsigned char)c;
            out->mask |= UINT64_C(1) << c;
        }
}

bool doc_select_columns(document *doc, const column_selection *selection)
{
    const size_t slots = sizeof doc->selections / sizeof doc->selections[0];
    for (size_t i = 0; i < slots; i++)
        if (doc->selections[i] == NULL || doc->selections[i]->schema == selection->schema) {
            doc->selections[i] = selection;
            return true;
        }
    return false;
}

bool record_wants(const record_set *set, const char *column)
{
    if (set == NULL || set->selection == NULL)
        return true;
    const record_schema *schema = set->schema;
    /* Asked just before the column is set: look from the cursor first. */
    for (size_t c = set->next_column; c < schema->column_count; c++)
        if (schema->columns[c].name == column)
            return (set->selection->mask >> c) & 1u;
    for (size_t c = 0; c < schema->column_count; c++)
        if (strcmp(schema->columns[c].name, column) == 0)
            return (set->selection->mask >> c) & 1u;
    return false;
}

size_t schema_machine_columns(const record_schema *schema, const column_selection *selection,
                              size_t columns[SELECTION_MAX])
{
    column_selection all;
    if (selection == NULL) {
        column_selection_all(&all, schema);
        selection = &all;
    }
    for (size_t k = 0; k < selection->count; k++)
        columns[k] = selection->column[k];
    return selection->count;
}

size_t set_machine_columns(const record_set *set, size_t columns[SELECTION_MAX])
{
    return schema_machine_columns(set->schema, set->selection, columns);
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
