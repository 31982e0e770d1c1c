/* Reader of per-expert token counts, as expert-distribution recorders dump
 * them (SGLang's `logical_count`, per-layer CSV rows): JSON arrays of
 * counts (depth 1..3, leading dimensions summed) or CSV with 1..3 columns.
 * Hand-written so every error names its line; the only JSON this reads is
 * arrays of numbers under at most one object key. */
#include "plan_internal.h"

#include <math.h>
#include <string.h>

#define LOADS_DEPTH_MAX 3
#define LOADS_COUNT_MAX 1e18

typedef struct {
    const char *text;
    size_t length;
    size_t pos;
    long line;
    collcalc_diag *diag;
    collcalc_expert_loads *out;
    int leaf_depth;  /* depth of the arrays holding numbers; 0 until seen */
    size_t width;    /* numbers per innermost array; 0 until the first ends */
} reader;

static collcalc_status fail(reader *rd, const char *what)
{
    return collcalc_diag_fail(rd->diag, COLLCALC_ERR_INVALID, "line %ld: %s", rd->line, what);
}

static void skip_space(reader *rd)
{
    while (rd->pos < rd->length) {
        char c = rd->text[rd->pos];
        if (c == '\n')
            rd->line++;
        else if (c != ' ' && c != '\t' && c != '\r')
            return;
        rd->pos++;
    }
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A non-negative decimal: digits [. digits] [e[+-]digits]; JSON's grammar
 * without the sign. Returns the number of bytes read, 0 when none. */
static size_t scan_number(const char *text, size_t length, double *out)
{
    size_t i = 0;
    double value = 0;
    if (i >= length || !is_digit(text[i]))
        return 0;
    while (i < length && is_digit(text[i])) {
        value = value * 10 + (text[i] - '0');
        i++;
    }
    if (i < length && text[i] == '.') {
        i++;
        if (i >= length || !is_digit(text[i]))
            return 0;
        double scale = 0.1;
        while (i < length && is_digit(text[i])) {
            value += (text[i] - '0') * scale;
            scale /= 10;
            i++;
        }
    }
    if (i < length && (text[i] == 'e' || text[i] == 'E')) {
        i++;
        int sign = 1;
        if (i < length && (text[i] == '+' || text[i] == '-')) {
            sign = text[i] == '-' ? -1 : 1;
            i++;
        }
        if (i >= length || !is_digit(text[i]))
            return 0;
        int exponent = 0;
        while (i < length && is_digit(text[i])) {
            if (exponent < 1000)
                exponent = exponent * 10 + (text[i] - '0');
            i++;
        }
        value *= pow(10.0, sign * exponent);
    }
    *out = value;
    return i;
}

static collcalc_status add_count(reader *rd, size_t index, double value)
{
    if (!isfinite(value) || value > LOADS_COUNT_MAX)
        return fail(rd, "count out of range (at most 1e18)");
    if (index >= COLLCALC_MOE_EXPERTS_MAX)
        return collcalc_diag_fail(rd->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: more than %d experts", rd->line,
                                  COLLCALC_MOE_EXPERTS_MAX);
    rd->out->loads[index] += value;
    if (index + 1 > rd->out->experts)
        rd->out->experts = index + 1;
    return COLLCALC_OK;
}

/* An array at depth (1 = outermost), the '[' not yet read. */
static collcalc_status read_array(reader *rd, int depth)
{
    if (depth > LOADS_DEPTH_MAX)
        return fail(rd, "arrays nested deeper than 3 (layers x experts at most, plus passes)");
    rd->pos++; /* '[' */
    size_t count = 0;
    bool numbers = false, arrays = false;
    skip_space(rd);
    if (rd->pos < rd->length && rd->text[rd->pos] == ']')
        return fail(rd, "empty array");
    for (;;) {
        skip_space(rd);
        if (rd->pos >= rd->length)
            return fail(rd, "unexpected end of text inside an array");
        char c = rd->text[rd->pos];
        if (c == '[') {
            if (numbers)
                return fail(rd, "an array mixes counts and arrays");
            arrays = true;
            collcalc_status status = read_array(rd, depth + 1);
            if (status != COLLCALC_OK)
                return status;
        } else {
            if (arrays)
                return fail(rd, "an array mixes counts and arrays");
            if (rd->leaf_depth != 0 && rd->leaf_depth != depth)
                return fail(rd, "counts at different depths");
            rd->leaf_depth = depth;
            numbers = true;
            double value = 0;
            size_t used = scan_number(rd->text + rd->pos, rd->length - rd->pos, &value);
            if (used == 0)
                return fail(rd, c == '-' ? "a count cannot be negative" : "expected a count "
                                                                           "(a non-negative "
                                                                           "number) or '['");
            rd->pos += used;
            collcalc_status status = add_count(rd, count, value);
            if (status != COLLCALC_OK)
                return status;
        }
        count++;
        skip_space(rd);
        if (rd->pos >= rd->length)
            return fail(rd, "unexpected end of text inside an array");
        c = rd->text[rd->pos];
        if (c == ',') {
            rd->pos++;
            continue;
        }
        if (c == ']') {
            rd->pos++;
            break;
        }
        return fail(rd, "expected ',' or ']'");
    }
    if (numbers) {
        rd->out->rows++;
        if (rd->width != 0 && count != rd->width)
            return collcalc_diag_fail(rd->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: %zu counts where earlier rows have %zu",
                                      rd->line, count, rd->width);
        rd->width = count;
    }
    return COLLCALC_OK;
}

static collcalc_status read_json(reader *rd)
{
    skip_space(rd);
    collcalc_status status;
    if (rd->text[rd->pos] == '{') {
        rd->pos++;
        skip_space(rd);
        static const char *const keys[] = {"\"logical_count\"", "\"expert_counts\""};
        bool known = false;
        for (size_t i = 0; i < PLAN_COUNT_OF(keys) && !known; i++) {
            size_t n = strlen(keys[i]);
            if (rd->length - rd->pos >= n && memcmp(rd->text + rd->pos, keys[i], n) == 0) {
                rd->pos += n;
                known = true;
            }
        }
        if (!known)
            return fail(rd, "expected the key \"logical_count\" or \"expert_counts\"");
        skip_space(rd);
        if (rd->pos >= rd->length || rd->text[rd->pos] != ':')
            return fail(rd, "expected ':'");
        rd->pos++;
        skip_space(rd);
        if (rd->pos >= rd->length || rd->text[rd->pos] != '[')
            return fail(rd, "expected an array of counts");
        status = read_array(rd, 1);
        if (status != COLLCALC_OK)
            return status;
        skip_space(rd);
        if (rd->pos >= rd->length || rd->text[rd->pos] != '}')
            return fail(rd, "expected '}' (one key only)");
        rd->pos++;
    } else {
        status = read_array(rd, 1);
        if (status != COLLCALC_OK)
            return status;
    }
    skip_space(rd);
    if (rd->pos < rd->length)
        return fail(rd, "unexpected text after the counts");
    return COLLCALC_OK;
}

/* One CSV line [start, end) split into at most 3 trimmed fields. */
typedef struct {
    size_t count;
    const char *field[4];
    size_t size[4];
} csv_fields;

static bool split_line(const char *start, const char *end, csv_fields *f)
{
    f->count = 0;
    const char *p = start;
    for (;;) {
        const char *comma = p;
        while (comma < end && *comma != ',')
            comma++;
        const char *a = p, *b = comma;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r'))
            b--;
        if (f->count == 3)
            return false; /* a fourth column */
        f->field[f->count] = a;
        f->size[f->count] = (size_t)(b - a);
        f->count++;
        if (comma >= end)
            return true;
        p = comma + 1;
    }
}

static bool has_letter(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z'))
            return true;
    return false;
}

/* A whole field as a number; false when it is not one. */
static bool field_number(const char *p, size_t n, double *out)
{
    return n > 0 && scan_number(p, n, out) == n;
}

static collcalc_status read_csv(reader *rd)
{
    size_t columns = 0;
    bool header_seen = false;
    size_t next_expert = 0;
    const char *text = rd->text;
    size_t pos = 0;
    rd->line = 0;
    while (pos < rd->length) {
        size_t end = pos;
        while (end < rd->length && text[end] != '\n')
            end++;
        rd->line++;
        const char *start = text + pos;
        const char *stop = text + end;
        pos = end + 1;
        while (start < stop && (*start == ' ' || *start == '\t'))
            start++;
        if (start == stop || *start == '#' || (stop - start == 1 && *start == '\r'))
            continue;
        csv_fields f;
        if (!split_line(start, stop, &f))
            return fail(rd, "more than 3 columns (use count, expert_id,count or "
                            "layer_id,expert_id,count)");
        bool all_numbers = true;
        for (size_t i = 0; i < f.count; i++) {
            double ignored = 0;
            if (!field_number(f.field[i], f.size[i], &ignored))
                all_numbers = false;
        }
        if (!header_seen && rd->out->rows == 0 && !all_numbers &&
            has_letter(start, (size_t)(stop - start))) {
            header_seen = true;
            columns = f.count;
            continue;
        }
        if (columns == 0)
            columns = f.count;
        if (f.count != columns)
            return collcalc_diag_fail(rd->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: %zu columns where the file has %zu", rd->line,
                                      f.count, columns);
        double values[3] = {0, 0, 0};
        for (size_t i = 0; i < f.count; i++) {
            if (!field_number(f.field[i], f.size[i], &values[i])) {
                char shown[24];
                size_t n = f.size[i] < sizeof shown - 1 ? f.size[i] : sizeof shown - 1;
                for (size_t j = 0; j < n; j++) {
                    unsigned char ch = (unsigned char)f.field[i][j];
                    shown[j] = (ch >= 0x20 && ch < 0x7F) ? (char)ch : '?';
                }
                shown[n] = '\0';
                return collcalc_diag_fail(rd->diag, COLLCALC_ERR_INVALID,
                                          "line %ld: '%s' is not a count (a non-negative "
                                          "number)", rd->line, shown);
            }
        }
        size_t expert;
        double count;
        if (columns == 1) {
            expert = next_expert++;
            count = values[0];
        } else {
            double id = values[columns - 2];
            if (id != floor(id) || id >= COLLCALC_MOE_EXPERTS_MAX)
                return collcalc_diag_fail(rd->diag, COLLCALC_ERR_INVALID,
                                          "line %ld: expert id must be a whole number below %d",
                                          rd->line, COLLCALC_MOE_EXPERTS_MAX);
            expert = (size_t)id;
            count = values[columns - 1];
        }
        collcalc_status status = add_count(rd, expert, count);
        if (status != COLLCALC_OK)
            return status;
        rd->out->rows++;
    }
    if (rd->out->rows == 0)
        return collcalc_diag_fail(rd->diag, COLLCALC_ERR_INVALID, "no counts in the file");
    return COLLCALC_OK;
}

collcalc_status collcalc_expert_loads_parse(const char *text, size_t length,
                                            collcalc_expert_loads *out_loads,
                                            collcalc_diag *diag)
{
    if (out_loads == NULL || (text == NULL && length > 0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no expert-count text");
    memset(out_loads, 0, sizeof *out_loads);
    reader rd = {text, length, 0, 1, diag, out_loads, 0, 0};
    for (size_t i = 0; i < length; i++)
        if (text[i] == '\0')
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "the expert-count file contains a NUL byte");
    if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        rd.pos = 3;
    skip_space(&rd);
    if (rd.pos >= length)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "the expert-count file is empty");
    char first = text[rd.pos];
    collcalc_status status;
    if (first == '[' || first == '{') {
        status = read_json(&rd);
    } else {
        rd.text = text + (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0);
        rd.length = length - (size_t)(rd.text - text);
        status = read_csv(&rd);
    }
    if (status == COLLCALC_OK) {
        double total = 0;
        for (size_t i = 0; i < out_loads->experts; i++)
            total += out_loads->loads[i];
        out_loads->total = total;
        if (!(total > 0) || !isfinite(total))
            status = collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                        "the expert counts are all zero");
    }
    if (status != COLLCALC_OK)
        memset(out_loads, 0, sizeof *out_loads);
    return status;
}
