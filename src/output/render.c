/* The renderers: one per format, all reading the same document
 * (record.h). The table sizes each column to its widest cell, so it stays
 * aligned at every magnitude; machine formats print every number at full
 * precision. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/units.h"
#include "human.h"
#include "number.h"
#include "plot.h"
#include "record_internal.h"

void format_number_exact(char *buffer, size_t size, double value)
{
    number_format(buffer, size, value); /* number.c: fast, same text as the %.*g loop */
}

/* ---- machine text of one value --------------------------------------------- */

static void json_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++) {
        switch (*c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*c < 0x20)
                fprintf(out, "\\u%04x", *c);
            else
                fputc(*c, out);
        }
    }
    fputc('"', out);
}

static void json_set(FILE *out, const record_set *set);

/* Writes a present value that is neither text nor nested records (a bool,
 * a whole number, a number) the way JSON and CSV both spell it: true, 42,
 * 0.5 exactly. Text and records each format quotes or nests its own way. */
static void scalar_value(FILE *out, field_kind kind, const record_value *v)
{
    char number[40];
    if (kind == FIELD_BOOL) {
        fputs(v->as.flag ? "true" : "false", out);
    } else if (kind == FIELD_INT) {
        fprintf(out, "%lld", v->as.integer);
    } else {
        format_number_exact(number, sizeof number, v->as.number);
        fputs(number, out);
    }
}

static void json_value(FILE *out, field_kind kind, const record_value *v)
{
    if (!v->present)
        fputs("null", out);
    else if (kind == FIELD_TEXT)
        json_string(out, v->as.text);
    else if (kind == FIELD_RECORDS)
        json_set(out, v->as.records);
    else
        scalar_value(out, kind, v);
}

static void json_row(FILE *out, const record_set *set, size_t r)
{
    fputc('{', out);
    size_t columns[SELECTION_MAX];
    size_t count = set_machine_columns(set, columns);
    for (size_t k = 0; k < count; k++) {
        size_t c = columns[k];
        const record_column *column = &set->schema->columns[c];
        if (k > 0)
            fputc(',', out);
        json_string(out, column->name);
        fputc(':', out);
        json_value(out, column->kind, &set->rows[r].values[c]);
    }
    fputc('}', out);
}

static void json_set(FILE *out, const record_set *set)
{
    fputc('[', out);
    for (size_t r = 0; r < set->row_count; r++) {
        if (r > 0)
            fputc(',', out);
        json_row(out, set, r);
    }
    fputc(']', out);
}

static void json_query(FILE *out, const document *doc)
{
    fputc('{', out);
    for (size_t i = 0; i < doc->query_count; i++) {
        if (i > 0)
            fputc(',', out);
        json_string(out, doc->query[i].key);
        fputc(':', out);
        json_value(out, doc->query[i].kind, &doc->query[i].value);
    }
    fputc('}', out);
}

static void render_json(const document *doc, FILE *out)
{
    fputs("{\"schema_version\":1,\"command\":", out);
    json_string(out, doc->command);
    fputs(",\"query\":", out);
    json_query(out, doc);
    for (size_t i = 0; i < doc->item_count; i++) {
        const doc_item *item = &doc->items[i];
        if (item->kind != ITEM_RECORDS || !item->set->show_machine)
            continue;
        fputc(',', out);
        json_string(out, item->set->schema->name);
        fputc(':', out);
        json_set(out, item->set);
    }
    fputs(",\"notes\":[", out);
    bool first = true;
    for (size_t i = 0; i < doc->item_count; i++)
        if (doc->items[i].kind == ITEM_NOTE) {
            if (!first)
                fputc(',', out);
            first = false;
            json_string(out, doc->items[i].text);
        }
    fputs("]}\n", out);
}

/* One JSON object per record of every list, each naming the command. */
static void render_jsonl(const document *doc, FILE *out)
{
    for (size_t i = 0; i < doc->item_count; i++) {
        const doc_item *item = &doc->items[i];
        if (item->kind != ITEM_RECORDS || !item->set->show_machine)
            continue;
        for (size_t r = 0; r < item->set->row_count; r++) {
            json_row(out, item->set, r);
            fputc('\n', out);
        }
    }
}

/* ---- CSV ---------------------------------------------------------------- */

static void csv_text(FILE *out, const char *text)
{
    if (strpbrk(text, ",\"\n\r") == NULL) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *c = text; *c != '\0'; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

/* A nested list goes into one CSV field as its JSON text. */
static void csv_nested(FILE *out, const record_set *set)
{
    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream(&text, &length);
    if (memory == NULL)
        return;
    json_set(memory, set);
    fclose(memory);
    csv_text(out, text != NULL ? text : "");
    free(text);
}

static void csv_value(FILE *out, field_kind kind, const record_value *v)
{
    if (!v->present)
        return;
    if (kind == FIELD_TEXT)
        csv_text(out, v->as.text);
    else if (kind == FIELD_RECORDS)
        csv_nested(out, v->as.records);
    else
        scalar_value(out, kind, v);
}

/* CSV carries the document's first machine list: its header once, then a
 * line per record, with exactly the JSON record fields as columns. */
static void render_csv(const document *doc, FILE *out)
{
    const record_set *set = NULL;
    for (size_t i = 0; i < doc->item_count && set == NULL; i++)
        if (doc->items[i].kind == ITEM_RECORDS && doc->items[i].set->show_machine)
            set = doc->items[i].set;
    if (set == NULL)
        return;
    size_t columns[SELECTION_MAX];
    size_t count = set_machine_columns(set, columns);
    for (size_t k = 0; k < count; k++) {
        if (k > 0)
            fputc(',', out);
        fputs(set->schema->columns[columns[k]].name, out);
    }
    fputc('\n', out);
    for (size_t r = 0; r < set->row_count; r++) {
        for (size_t k = 0; k < count; k++) {
            if (k > 0)
                fputc(',', out);
            csv_value(out, set->schema->columns[columns[k]].kind,
                      &set->rows[r].values[columns[k]]);
        }
        fputc('\n', out);
    }
}

/* ---- table for people ------------------------------------------------------ */

enum { CELL_MAX = 160 };

static void human_value(char *cell, size_t size, field_kind kind, const record_value *v)
{
    if (!v->present) {
        snprintf(cell, size, "-");
        return;
    }
    switch (kind) {
    case FIELD_TEXT: snprintf(cell, size, "%s", v->as.text); return;
    case FIELD_BOOL: snprintf(cell, size, "%s", v->as.flag ? "yes" : "-"); return;
    case FIELD_INT: human_integer(cell, size, v->as.integer); return;
    case FIELD_NUMBER: human_number(cell, size, v->as.number); return;
    case FIELD_BYTES: human_bytes(cell, size, v->as.number); return;
    case FIELD_BYTES_IEC: collcalc_bytes_format_iec(cell, size, v->as.number); return;
    case FIELD_TIME_US: human_time_us(cell, size, v->as.number); return;
    case FIELD_GBPS: human_bandwidth_GBps(cell, size, v->as.number); return;
    case FIELD_RATIO: human_ratio(cell, size, v->as.number); return;
    case FIELD_RECORDS: snprintf(cell, size, "%zu", record_count(v->as.records)); return;
    }
}

static bool left_aligned(const record_column *column)
{
    return column->kind == FIELD_TEXT || (column->flags & COLUMN_LEFT) != 0;
}

/* Display width: UTF-8 continuation bytes take no column. */
static int text_width(const char *text)
{
    int width = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++)
        if ((*c & 0xC0) != 0x80)
            width++;
    return width;
}

static void pad(FILE *out, int count)
{
    for (int i = 0; i < count; i++)
        fputc(' ', out);
}

static void table_cell(const record_set *set, size_t r, size_t c, char *cell, size_t size)
{
    const record_column *column = &set->schema->columns[c];
    const record_value *v = &set->rows[r].values[c];
    human_value(cell, size, column->kind, v);
    if (set->blank_column != NULL && r > 0 && strcmp(column->name, set->blank_column) == 0) {
        char above[CELL_MAX];
        human_value(above, sizeof above, column->kind, &set->rows[r - 1].values[c]);
        if (strcmp(above, cell) == 0)
            cell[0] = '\0';
    }
}

static bool shown_in_table(const record_set *set, size_t c)
{
    const record_column *column = &set->schema->columns[c];
    if (!(column->flags & COLUMN_TABLE))
        return false;
    for (size_t i = 0; i < sizeof set->hidden / sizeof set->hidden[0]; i++)
        if (set->hidden[i] != NULL && strcmp(set->hidden[i], column->name) == 0)
            return false;
    return true;
}

static void render_set_table(const record_set *set, FILE *out)
{
    size_t columns = set->schema->column_count;
    int *width = calloc(columns ? columns : 1, sizeof *width);
    if (width == NULL)
        return;
    char cell[CELL_MAX];
    for (size_t c = 0; c < columns; c++)
        if (shown_in_table(set, c))
            width[c] = text_width(set->schema->columns[c].title);
    for (size_t r = 0; r < set->row_count; r++)
        for (size_t c = 0; c < columns; c++)
            if (shown_in_table(set, c)) {
                table_cell(set, r, c, cell, sizeof cell);
                int w = text_width(cell);
                if (w > width[c])
                    width[c] = w;
            }
    /* The last shown column: no trailing padding after it. */
    size_t last = 0;
    bool any = false;
    for (size_t c = 0; c < columns; c++)
        if (shown_in_table(set, c)) {
            last = c;
            any = true;
        }
    if (!any) {
        free(width);
        return;
    }
    bool marks = false;
    for (size_t r = 0; r < set->row_count; r++)
        marks = marks || set->rows[r].mark != NULL;
    for (int row = -1; row < (int)set->row_count; row++) {
        bool first = true;
        for (size_t c = 0; c < columns; c++) {
            const record_column *column = &set->schema->columns[c];
            if (!shown_in_table(set, c))
                continue;
            const char *text = column->title;
            if (row >= 0) {
                table_cell(set, (size_t)row, c, cell, sizeof cell);
                text = cell;
            }
            if (!first)
                fputs("  ", out);
            first = false;
            int gap = width[c] - text_width(text);
            bool is_last = c == last;
            if (left_aligned(column)) {
                fputs(text, out);
                if (!is_last || (marks && row >= 0 && set->rows[row].mark != NULL))
                    pad(out, gap);
            } else {
                pad(out, gap);
                fputs(text, out);
            }
        }
        if (row >= 0 && set->rows[row].mark != NULL)
            fprintf(out, "  %s", set->rows[row].mark);
        fputc('\n', out);
    }
    free(width);
}

static void render_table(const document *doc, FILE *out)
{
    for (size_t i = 0; i < doc->item_count; i++) {
        const doc_item *item = &doc->items[i];
        switch (item->kind) {
        case ITEM_TEXT: fprintf(out, "%s\n", item->text); break;
        case ITEM_NOTE: fprintf(out, "note: %s\n", item->text); break;
        case ITEM_RECORDS:
            if (item->set->show_table)
                render_set_table(item->set, out);
            break;
        case ITEM_CHART: plot_terminal(item->chart, out, item->width, item->unicode); break;
        }
    }
}

int doc_render(const document *doc, output_format format, FILE *out)
{
    if (doc_failed(doc))
        return -1;
    switch (format) {
    case FORMAT_TABLE: render_table(doc, out); break;
    case FORMAT_JSON: render_json(doc, out); break;
    case FORMAT_CSV: render_csv(doc, out); break;
    case FORMAT_JSONL: render_jsonl(doc, out); break;
    }
    return 0;
}
