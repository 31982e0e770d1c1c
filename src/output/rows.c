/* Rows straight into an output buffer (rows.h): no stdio call per field,
 * no allocation per row once the buffers have grown. */
#include "rows.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "record_internal.h"

/* A row repeats values (time_us and total_time_us; phase after phase):
 * where the row's recent texts are in the buffer is kept in a small
 * direct-mapped table keyed by the bits of the double, and a repeat is
 * copied from there. Every text is written straight into the buffer (a
 * text written and at once read back whole would wait for its bytes).
 * Whole numbers are cheap and not kept. No table (NULL): no copies. */
enum { CACHED = 32 };
typedef struct {
    uint64_t bits[CACHED];
    size_t offset[CACHED]; /* in the buffer's data */
    unsigned char length[CACHED]; /* 0: empty */
} number_cache;

/* The text of the last row's lead value (batch's line number). The next
 * row's lead is most often one more: its last digit is counted up in place
 * instead of the number printed anew (which a carry past a 9 still is). */
typedef struct {
    long long value;
    size_t length; /* 0: none yet */
    /* The text in eight-byte words, in memory order: counting up adds to
     * the word that holds the last digit and a row copies the words, so a
     * copy reads back what one eight-byte store wrote (a wider load over a
     * fresh narrower store waits for it: a stall on every row, seen in a
     * perf profile of batch). */
    uint64_t words[3];
} lead_text;

struct row_numbers {
    number_cache cache; /* of the row rows_begin started */
    lead_text lead;
};

bool row_buffer_init(row_buffer *buffer, FILE *out, size_t capacity)
{
    memset(buffer, 0, sizeof *buffer);
    buffer->out = out;
    buffer->data = malloc(capacity);
    buffer->numbers = calloc(1, sizeof *buffer->numbers);
    if (buffer->data == NULL || buffer->numbers == NULL) {
        free(buffer->data);
        free(buffer->numbers);
        buffer->data = NULL;
        buffer->numbers = NULL;
    }
    buffer->capacity = buffer->data != NULL ? capacity : 0;
    buffer->failed = buffer->data == NULL;
    return !buffer->failed;
}

/* Writes data[0, n) and moves the rest to the front. */
static void write_front(row_buffer *buffer, size_t n)
{
    if (n == 0)
        return;
    if (!buffer->failed && n > 0 && fwrite(buffer->data, 1, n, buffer->out) != n)
        buffer->failed = true;
    memmove(buffer->data, buffer->data + n, buffer->used - n);
    buffer->used -= n;
    buffer->whole = 0;
    if (buffer->numbers != NULL) /* the texts the table points at moved */
        memset(buffer->numbers->cache.length, 0, sizeof buffer->numbers->cache.length);
}

bool row_buffer_flush(row_buffer *buffer)
{
    if (buffer->out == NULL || buffer->used == 0)
        return !buffer->failed;
    if (!buffer->failed && fwrite(buffer->data, 1, buffer->used, buffer->out) != buffer->used)
        buffer->failed = true;
    buffer->used = 0;
    buffer->whole = 0;
    if (buffer->numbers != NULL) /* the texts the table points at are gone */
        memset(buffer->numbers->cache.length, 0, sizeof buffer->numbers->cache.length);
    return !buffer->failed;
}

void row_buffer_free(row_buffer *buffer)
{
    free(buffer->data);
    free(buffer->numbers);
    memset(buffer, 0, sizeof *buffer);
}

static bool reserve_more(row_buffer *b, size_t n);

/* Room for n more bytes: at once when there is, else flush or grow. */
static inline bool reserve(row_buffer *b, size_t n)
{
    return b->capacity - b->used >= n || reserve_more(b, n);
}

static bool reserve_more(row_buffer *b, size_t n)
{
    if (b->out != NULL) {
        /* Only whole rows go out: output cut short (a signal, a full disk)
         * never ends inside a row. The row being written stays. */
        write_front(b, b->whole);
        if (b->failed)
            return false;
        if (b->capacity - b->used >= n)
            return true;
    }
    size_t capacity = b->capacity ? b->capacity : 256;
    while (capacity - b->used < n)
        capacity *= 2;
    char *bigger = realloc(b->data, capacity);
    if (bigger == NULL) {
        b->failed = true;
        return false;
    }
    b->data = bigger;
    b->capacity = capacity;
    return true;
}

static inline void put(row_buffer *b, const char *text, size_t n)
{
    if (!reserve(b, n))
        return;
    char *to = b->data + b->used;
    b->used += n;
    if (n <= 16) { /* keys and numbers: no call */
        for (size_t i = 0; i < n; i++)
            to[i] = text[i];
        return;
    }
    memcpy(to, text, n);
}

static void put_char(row_buffer *b, char c)
{
    if (b->used < b->capacity || reserve(b, 1))
        b->data[b->used++] = c;
}

static void put_text(row_buffer *b, const char *text)
{
    put(b, text, strlen(text));
}

static void put_integer(row_buffer *b, long long value)
{
    if (reserve(b, 20))
        b->used += number_format_integer(b->data + b->used, value);
}

/* One more on the last digit when it is not a 9, in the word that holds
 * it (little-endian words: byte i is bits 8i to 8i+7 of words[i / 8]);
 * false for a 9 (a carry), or on a machine of the other order. */
static bool count_up_in_word(lead_text *lead)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    size_t last = lead->length - 1;
    unsigned shift = 8 * (unsigned)(last % 8);
    if (((lead->words[last / 8] >> shift) & 0xFF) == '9')
        return false;
    lead->words[last / 8] += (uint64_t)1 << shift;
    return true;
#else
    (void)lead;
    return false;
#endif
}

/* The lead value, from the last row's text when it is one more. */
static void put_lead(row_buffer *b, long long value)
{
    if (b->numbers == NULL) {
        put_integer(b, value);
        return;
    }
    lead_text *lead = &b->numbers->lead;
    bool next = lead->length > 0 && lead->value >= 0 && lead->value < LLONG_MAX &&
                value == lead->value + 1;
    lead->value = value;
    if (!next || !count_up_in_word(lead)) { /* a carry past a 9, or a new number */
        char text[sizeof lead->words] = {0};
        lead->length = number_format_integer(text, value);
        memcpy(lead->words, text, sizeof text);
    }
    if (reserve(b, sizeof lead->words)) { /* fixed-size copies: no loop, no call */
        char *to = b->data + b->used;
        uint64_t first = lead->words[0];
        memcpy(to, &first, 8);
        if (lead->length > 8) {
            uint64_t second = lead->words[1], third = lead->words[2];
            memcpy(to + 8, &second, 8);
            memcpy(to + 16, &third, 8);
        }
        b->used += lead->length;
    }
}

static void put_number(row_buffer *b, number_cache *cache, double value)
{
    if (value > -9007199254740992.0 && value < 9007199254740992.0 &&
        (double)(long long)value == value) { /* -0 prints "0" either way */
        put_integer(b, (long long)value);
        return;
    }
    if (!reserve(b, NUMBER_TEXT_MAX))
        return;
    if (cache == NULL) {
        b->used += number_format(b->data + b->used, NUMBER_TEXT_MAX, value);
        return;
    }
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    unsigned slot = (unsigned)((bits * 0x9E3779B97F4A7C15ull) >> 59); /* 0..31 */
    if (cache->length[slot] != 0 && cache->bits[slot] == bits) {
        /* A fixed-size copy (no loop, no call) through a local: the two
         * places may overlap. The earlier text had this room reserved. */
        char text[NUMBER_TEXT_MAX];
        memcpy(text, b->data + cache->offset[slot], NUMBER_TEXT_MAX);
        memcpy(b->data + b->used, text, NUMBER_TEXT_MAX);
        b->used += cache->length[slot];
        return;
    }
    size_t length = number_format(b->data + b->used, NUMBER_TEXT_MAX, value);
    cache->bits[slot] = bits;
    cache->offset[slot] = b->used;
    cache->length[slot] = (unsigned char)length;
    b->used += length;
}

/* How JSON is written: plain, or inside a quoted CSV field (every '"'
 * doubled), so a nested list goes into its CSV field in one pass. */
typedef struct {
    const char *quote; /* "\"" or "\"\"" */
    size_t quote_length;
    number_cache *cache;
} json_style;

static void put_quote(row_buffer *b, const json_style *style)
{
    put(b, style->quote, style->quote_length);
}

static void json_text(row_buffer *b, const json_style *style, const char *text)
{
    static const char HEX[] = "0123456789abcdef";
    put_quote(b, style);
    const unsigned char *c = (const unsigned char *)text;
    for (;;) {
        const unsigned char *run = c;
        while (*c >= 0x20 && *c != '"' && *c != '\\')
            c++;
        put(b, (const char *)run, (size_t)(c - run));
        if (*c == '\0')
            break;
        char escape[6] = {'\\', 0, 0, 0, 0, 0};
        size_t n = 2;
        switch (*c) {
        case '"':
            put_char(b, '\\');
            put_quote(b, style);
            n = 0;
            break;
        case '\\': escape[1] = '\\'; break;
        case '\n': escape[1] = 'n'; break;
        case '\r': escape[1] = 'r'; break;
        case '\t': escape[1] = 't'; break;
        default:
            memcpy(escape + 1, "u00", 3);
            escape[4] = HEX[*c >> 4];
            escape[5] = HEX[*c & 15];
            n = 6;
        }
        put(b, escape, n);
        c++;
    }
    put_quote(b, style);
}

static void csv_field_text(row_buffer *b, const char *text, size_t length)
{
    size_t i = 0;
    while (i < length && text[i] != ',' && text[i] != '"' && text[i] != '\n' && text[i] != '\r')
        i++;
    if (i == length) {
        put(b, text, length);
        return;
    }
    put_char(b, '"');
    const char *end = text + length;
    for (const char *from = text; from < end;) {
        const char *quote = memchr(from, '"', (size_t)(end - from));
        const char *stop = quote != NULL ? quote + 1 : end;
        put(b, from, (size_t)(stop - from));
        if (quote != NULL)
            put_char(b, '"');
        from = stop;
    }
    put_char(b, '"');
}

/* "name": (column names are plain identifiers: nothing to escape). */
static void put_name(row_buffer *b, const json_style *style, const char *name)
{
    size_t n = strlen(name), q = style->quote_length, total = n + 2 * q + 1;
    if (!reserve(b, total)) /* once for the four pieces */
        return;
    char *to = b->data + b->used;
    for (size_t i = 0; i < q; i++)
        to[i] = to[q + n + i] = style->quote[i];
    memcpy(to + q, name, n);
    to[total - 1] = ':';
    b->used += total;
}

static void json_set(row_buffer *b, const json_style *style, const record_set *set);

static void json_value(row_buffer *b, const json_style *style, field_kind kind,
                       const record_value *v)
{
    if (!v->present) {
        put(b, "null", 4);
        return;
    }
    switch (kind) {
    case FIELD_TEXT: json_text(b, style, v->as.text); return;
    case FIELD_BOOL: put_text(b, v->as.flag ? "true" : "false"); return;
    case FIELD_INT: put_integer(b, v->as.integer); return;
    case FIELD_RECORDS: json_set(b, style, v->as.records); return;
    default: put_number(b, style->cache, v->as.number); return;
    }
}

/* The machine fields of a row, comma-separated, as "name":value. */
static void json_fields(row_buffer *b, const json_style *style, const record_set *set, size_t r)
{
    size_t columns[SELECTION_MAX];
    size_t count = set_machine_columns(set, columns);
    for (size_t k = 0; k < count; k++) {
        const record_column *column = &set->schema->columns[columns[k]];
        if (k > 0)
            put_char(b, ',');
        put_name(b, style, column->name);
        json_value(b, style, column->kind, &set->rows[r].values[columns[k]]);
    }
}

static void json_set(row_buffer *b, const json_style *style, const record_set *set)
{
    put_char(b, '[');
    for (size_t r = 0; r < set->row_count; r++) {
        if (r > 0)
            put_char(b, ',');
        put_char(b, '{');
        json_fields(b, style, set, r);
        put_char(b, '}');
    }
    put_char(b, ']');
}

static void csv_value(row_buffer *b, const json_style *nested, field_kind kind,
                      const record_value *v)
{
    if (!v->present)
        return;
    switch (kind) {
    case FIELD_TEXT: csv_field_text(b, v->as.text, strlen(v->as.text)); return;
    case FIELD_BOOL: put_text(b, v->as.flag ? "true" : "false"); return;
    case FIELD_INT: put_integer(b, v->as.integer); return;
    case FIELD_RECORDS:
        /* A nested list goes into one CSV field as its JSON text, quoted
         * but when empty ("[]" needs no quotes: the CSV renderer's rule). */
        if (v->as.records->row_count == 0) {
            put_text(b, "[]");
            return;
        }
        put_char(b, '"');
        json_set(b, nested, v->as.records);
        put_char(b, '"');
        return;
    default: put_number(b, nested->cache, v->as.number); return;
    }
}

const record_schema *rows_schema(const document *doc)
{
    for (size_t i = 0; doc != NULL && i < doc->item_count; i++)
        if (doc->items[i].kind == ITEM_RECORDS && doc->items[i].set->show_machine)
            return doc->items[i].set->schema;
    return NULL;
}

void rows_csv_header(row_buffer *buffer, const char *lead, const record_schema *schema,
                     const column_selection *selection)
{
    size_t columns[SELECTION_MAX];
    size_t count = schema_machine_columns(
        schema, selection != NULL && selection->schema == schema ? selection : NULL, columns);
    put_text(buffer, lead);
    for (size_t k = 0; k < count; k++) {
        put_char(buffer, ',');
        put_text(buffer, schema->columns[columns[k]].name);
    }
    put_char(buffer, '\n');
    buffer->whole = buffer->used;
}

/* The JSON style of a row written field by field: plain in JSON lines,
 * quotes doubled inside a CSV field (a nested list), with the row's number
 * table. */
static json_style row_style(row_buffer *buffer, output_format format)
{
    number_cache *cache = buffer->numbers != NULL ? &buffer->numbers->cache : NULL;
    json_style style = {"\"", 1, cache};
    if (format == FORMAT_CSV)
        style = (json_style){"\"\"", 2, cache};
    return style;
}

void rows_begin(row_buffer *buffer, output_format format, const char *lead, long long lead_value)
{
    if (buffer->numbers != NULL)
        memset(buffer->numbers->cache.length, 0, sizeof buffer->numbers->cache.length);
    if (format == FORMAT_CSV) {
        put_lead(buffer, lead_value);
        return;
    }
    const json_style plain = {"\"", 1, NULL};
    put_char(buffer, '{');
    json_text(buffer, &plain, lead);
    put_char(buffer, ':');
    put_lead(buffer, lead_value);
}

void rows_field(row_buffer *buffer, output_format format, const record_column *column,
                const record_value *value)
{
    json_style style = row_style(buffer, format);
    put_char(buffer, ',');
    if (format == FORMAT_CSV) {
        csv_value(buffer, &style, column->kind, value);
        return;
    }
    put_name(buffer, &style, column->name);
    json_value(buffer, &style, column->kind, value);
}

void rows_end(row_buffer *buffer, output_format format)
{
    if (format != FORMAT_CSV)
        put_char(buffer, '}');
    put_char(buffer, '\n');
    buffer->whole = buffer->used;
}

void rows_list_begin(row_buffer *buffer, output_format format, const record_column *column,
                     size_t count)
{
    put_char(buffer, ',');
    if (format == FORMAT_CSV) {
        if (count > 0)
            put_char(buffer, '"');
    } else {
        json_style style = row_style(buffer, format);
        put_name(buffer, &style, column->name);
    }
    put_char(buffer, '[');
}

void rows_list_item_begin(row_buffer *buffer, bool first)
{
    if (!first)
        put_char(buffer, ',');
    put_char(buffer, '{');
}

void rows_list_field(row_buffer *buffer, output_format format, const record_column *column,
                     const record_value *value, bool first)
{
    json_style style = row_style(buffer, format);
    if (!first)
        put_char(buffer, ',');
    put_name(buffer, &style, column->name);
    json_value(buffer, &style, column->kind, value);
}

void rows_list_item_end(row_buffer *buffer)
{
    put_char(buffer, '}');
}

void rows_list_end(row_buffer *buffer, output_format format, size_t count)
{
    put_char(buffer, ']');
    if (format == FORMAT_CSV && count > 0)
        put_char(buffer, '"');
}

long rows_write(row_buffer *buffer, const document *doc, output_format format, const char *lead,
                long long lead_value)
{
    if (doc_failed(doc))
        return -1;
    long rows = 0;
    for (size_t i = 0; i < doc->item_count; i++) {
        const doc_item *item = &doc->items[i];
        if (item->kind != ITEM_RECORDS || !item->set->show_machine)
            continue;
        const record_set *set = item->set;
        size_t columns[SELECTION_MAX];
        size_t count = set_machine_columns(set, columns);
        for (size_t r = 0; r < set->row_count; r++, rows++) {
            rows_begin(buffer, format, lead, lead_value);
            for (size_t k = 0; k < count; k++)
                rows_field(buffer, format, &set->schema->columns[columns[k]],
                           &set->rows[r].values[columns[k]]);
            rows_end(buffer, format);
        }
        if (format == FORMAT_CSV)
            break;
    }
    return buffer->failed ? -1 : rows;
}
