/* Charts (plot.h): the chart value a command fills in, the log-log geometry
 * both renderers share, the terminal renderer (ASCII, or Unicode braille and
 * symbols), the SVG renderer, and the terminal's width and locale. */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "human.h"
#include "helpers.h"

/* ---- the chart value -------------------------------------------------------- */

typedef struct {
    double x, y;
} plot_point;

typedef struct {
    char label[PLOT_LABEL_MAX];
    plot_kind kind;
    plot_point *points; /* owned; count stored of capacity */
    size_t count, capacity, skipped;
} plot_series;

typedef struct {
    double value;
    char label[PLOT_LABEL_MAX];
} plot_marker;

struct plot_chart {
    char title[2 * PLOT_LABEL_MAX];
    char x_label[PLOT_LABEL_MAX], y_label[PLOT_LABEL_MAX];
    plot_unit x_unit, y_unit;
    size_t series_count;
    plot_series series[PLOT_MAX_SERIES];
    size_t vmarker_count, hmarker_count;
    plot_marker vmarkers[PLOT_MAX_MARKERS], hmarkers[PLOT_MAX_MARKERS];
    bool failed;
};

/* Copies text (NULL: empty), cut to the buffer at a UTF-8 character start. */
static void copy_label(char *buffer, size_t size, const char *text)
{
    if (text == NULL)
        text = "";
    size_t n = strlen(text);
    if (n >= size) {
        n = size - 1;
        while (n > 0 && ((unsigned char)text[n] & 0xC0u) == 0x80u)
            n--;
    }
    memcpy(buffer, text, n);
    buffer[n] = '\0';
}

plot_chart *plot_new(const char *title)
{
    plot_chart *chart = calloc(1, sizeof *chart);
    if (chart == NULL)
        return NULL;
    copy_label(chart->title, sizeof chart->title, title);
    return chart;
}

void plot_free(plot_chart *chart)
{
    if (chart == NULL)
        return;
    for (size_t i = 0; i < chart->series_count; i++)
        free(chart->series[i].points);
    free(chart);
}

bool plot_failed(const plot_chart *chart)
{
    return chart == NULL || chart->failed;
}

void plot_set_x_axis(plot_chart *chart, const char *label, plot_unit unit)
{
    if (chart == NULL)
        return;
    copy_label(chart->x_label, sizeof chart->x_label, label);
    chart->x_unit = unit;
}

void plot_set_y_axis(plot_chart *chart, const char *label, plot_unit unit)
{
    if (chart == NULL)
        return;
    copy_label(chart->y_label, sizeof chart->y_label, label);
    chart->y_unit = unit;
}

int plot_add_series(plot_chart *chart, const char *label, plot_kind kind)
{
    if (chart == NULL || chart->series_count >= PLOT_MAX_SERIES)
        return -1;
    plot_series *s = &chart->series[chart->series_count];
    memset(s, 0, sizeof *s);
    copy_label(s->label, sizeof s->label, label);
    s->kind = kind == PLOT_POINTS ? PLOT_POINTS : PLOT_LINE;
    return (int)chart->series_count++;
}

static bool drawable(double v)
{
    return isfinite(v) && v > 0.0;
}

bool plot_add_point(plot_chart *chart, int series, double x, double y)
{
    if (chart == NULL || chart->failed || series < 0 || (size_t)series >= chart->series_count)
        return false;
    plot_series *s = &chart->series[series];
    if (!drawable(x) || !drawable(y)) {
        s->skipped++;
        return false;
    }
    if (s->count >= PLOT_MAX_POINTS)
        return false;
    if (s->count == s->capacity) {
        size_t capacity = s->capacity == 0 ? 64 : s->capacity * 2;
        if (capacity > PLOT_MAX_POINTS)
            capacity = PLOT_MAX_POINTS;
        plot_point *grown = realloc(s->points, capacity * sizeof *grown);
        if (grown == NULL) {
            chart->failed = true;
            return false;
        }
        s->points = grown;
        s->capacity = capacity;
    }
    s->points[s->count].x = x;
    s->points[s->count].y = y;
    s->count++;
    return true;
}

static bool add_marker(plot_marker *markers, size_t *count, double value, const char *label)
{
    if (!drawable(value) || *count >= PLOT_MAX_MARKERS)
        return false;
    markers[*count].value = value;
    copy_label(markers[*count].label, sizeof markers[*count].label, label);
    (*count)++;
    return true;
}

bool plot_add_vmarker(plot_chart *chart, double x, const char *label)
{
    return chart != NULL && add_marker(chart->vmarkers, &chart->vmarker_count, x, label);
}

bool plot_add_hmarker(plot_chart *chart, double y, const char *label)
{
    return chart != NULL && add_marker(chart->hmarkers, &chart->hmarker_count, y, label);
}

size_t plot_series_count(const plot_chart *chart)
{
    return chart == NULL ? 0 : chart->series_count;
}

static const plot_series *series_at(const plot_chart *chart, int series)
{
    if (chart == NULL || series < 0 || (size_t)series >= chart->series_count)
        return NULL;
    return &chart->series[series];
}

size_t plot_point_count(const plot_chart *chart, int series)
{
    const plot_series *s = series_at(chart, series);
    return s == NULL ? 0 : s->count;
}

size_t plot_skipped_count(const plot_chart *chart, int series)
{
    const plot_series *s = series_at(chart, series);
    return s == NULL ? 0 : s->skipped;
}

/* ---- geometry --------------------------------------------------------------- */

/* Both axes span whole decades [10^lo, 10^hi] around every point and
 * marker, so each has at least two decade ticks; one value (or values in
 * one decade exactly at a power of ten) gets a decade either side. */
typedef struct {
    int lo, hi; /* exponents, lo < hi */
} log_axis;

typedef struct {
    log_axis x, y;
    bool empty; /* no point at all */
} plot_frame;

/* Exponents kept where 10^e is a normal, finite double. */
enum { EXP_MIN = -307, EXP_MAX = 308 };

static int clamp_int(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static log_axis axis_from(double min, double max, bool any)
{
    log_axis a = {0, 1};
    if (!any || !(min > 0) || !(max >= min) || !isfinite(max))
        return a;
    /* Clamped as doubles, so the conversion to int is always defined. */
    double lmin = fmax(EXP_MIN, fmin(EXP_MAX, floor(log10(min))));
    double lmax = fmax(EXP_MIN, fmin(EXP_MAX, ceil(log10(max))));
    a.lo = (int)lmin;
    a.hi = (int)lmax;
    if (a.hi <= a.lo) {
        a.lo = a.lo > EXP_MIN ? a.lo - 1 : a.lo;
        a.hi = a.lo + 2 <= EXP_MAX ? a.lo + 2 : EXP_MAX;
    }
    return a;
}

static plot_frame frame_of(const plot_chart *chart)
{
    double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
    bool any = false;
    for (size_t i = 0; i < chart->series_count; i++) {
        const plot_series *s = &chart->series[i];
        for (size_t j = 0; j < s->count; j++) {
            xmin = fmin(xmin, s->points[j].x);
            xmax = fmax(xmax, s->points[j].x);
            ymin = fmin(ymin, s->points[j].y);
            ymax = fmax(ymax, s->points[j].y);
            any = true;
        }
    }
    plot_frame f;
    f.empty = !any;
    /* Markers widen an axis that has data; alone they do not make a chart. */
    if (any) {
        for (size_t i = 0; i < chart->vmarker_count; i++) {
            xmin = fmin(xmin, chart->vmarkers[i].value);
            xmax = fmax(xmax, chart->vmarkers[i].value);
        }
        for (size_t i = 0; i < chart->hmarker_count; i++) {
            ymin = fmin(ymin, chart->hmarkers[i].value);
            ymax = fmax(ymax, chart->hmarkers[i].value);
        }
    }
    f.x = axis_from(xmin, xmax, any);
    f.y = axis_from(ymin, ymax, any);
    return f;
}

/* Where a value sits along an axis, 0 at 10^lo to 1 at 10^hi. */
static double fraction_of(log_axis a, double value)
{
    double f = (log10(value) - a.lo) / (double)(a.hi - a.lo);
    return isfinite(f) ? (f < 0 ? 0 : f > 1 ? 1 : f) : 0;
}

static double fraction_of_exp(log_axis a, double exponent)
{
    double f = (exponent - a.lo) / (double)(a.hi - a.lo);
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

/* Decades between labelled ticks: the smallest step whose spacing reaches
 * `needed` (in whatever unit `per_decade` is). Unit axes step 1, 3, 6, 9,
 * ... decades so labels land on the ladder's units (1 B, 1 kB, 1 MB);
 * plain numbers step 1, 2, 5, 10, 20, ... */
static int label_step(double per_decade, double needed, int decades, plot_unit unit)
{
    static const int PLAIN[] = {1, 2, 5};
    if (unit != PLOT_UNIT_PLAIN) {
        if (per_decade >= needed)
            return 1;
        for (int k = 3; k < 1000; k += 3)
            if (k * per_decade >= needed || k >= decades)
                return k;
        return decades > 0 ? decades : 1;
    }
    for (int scale = 1; scale <= 100; scale *= 10)
        for (size_t i = 0; i < sizeof PLAIN / sizeof PLAIN[0]; i++) {
            int k = PLAIN[i] * scale;
            if (k * per_decade >= needed || k >= decades)
                return k;
        }
    return decades > 0 ? decades : 1;
}

static bool labelled(int exponent, int step)
{
    return ((exponent % step) + step) % step == 0;
}

/* Drops a fraction of zeros: "1.00 kB" -> "1 kB", "0.100 ps" -> "0.1 ps". */
static void tidy_number(char *text)
{
    char *dot = strchr(text, '.');
    if (dot == NULL)
        return;
    char *end = dot + 1;
    while (*end >= '0' && *end <= '9')
        end++;
    char *cut = end;
    while (cut > dot + 1 && cut[-1] == '0')
        cut--;
    if (cut == dot + 1)
        cut = dot;
    memmove(cut, end, strlen(end) + 1);
}

/* A value on an axis's unit ladder, for people. */
static void format_value(char *buffer, size_t size, plot_unit unit, double value)
{
    switch (unit) {
    case PLOT_UNIT_BYTES: human_bytes(buffer, size, value); return;
    case PLOT_UNIT_TIME_US: human_time_us(buffer, size, value); return;
    case PLOT_UNIT_GBPS: human_bandwidth_GBps(buffer, size, value); return;
    case PLOT_UNIT_PLAIN:
    default: human_number(buffer, size, value); return;
    }
}

/* The label of the tick at mantissa x 10^exponent (mantissa 1, 2 or 5):
 * "1 kB", "20 us", "100000", "1e10". */
static void format_tick_at(char *buffer, size_t size, plot_unit unit, int exponent, int mantissa)
{
    double value = mantissa * pow(10.0, exponent);
    if (unit == PLOT_UNIT_PLAIN) {
        if (exponent >= -4 && exponent <= 5)
            snprintf(buffer, size, "%g", value);
        else
            snprintf(buffer, size, "%de%d", mantissa, exponent);
        return;
    }
    format_value(buffer, size, unit, value);
    tidy_number(buffer);
}

static void format_tick(char *buffer, size_t size, plot_unit unit, int exponent)
{
    format_tick_at(buffer, size, unit, exponent, 1);
}

/* "label: value" of a marker, or the value alone. */
static void marker_text(char *buffer, size_t size, const plot_marker *m, plot_unit unit)
{
    char value[48];
    format_value(value, sizeof value, unit, m->value);
    if (m->label[0] != '\0')
        snprintf(buffer, size, "%s: %s", m->label, value);
    else
        snprintf(buffer, size, "%s", value);
}

static int by_x(const void *a, const void *b)
{
    double xa = ((const plot_point *)a)->x, xb = ((const plot_point *)b)->x;
    return xa < xb ? -1 : xa > xb ? 1 : 0;
}

/* A copy of a series' points in x order (lines are joined left to right).
 * NULL when out of memory; an empty series gives a 1-element buffer. */
static plot_point *sorted_points(const plot_series *s)
{
    plot_point *copy = malloc((s->count > 0 ? s->count : 1) * sizeof *copy);
    if (copy == NULL)
        return NULL;
    if (s->count > 0) {
        memcpy(copy, s->points, s->count * sizeof *copy);
        qsort(copy, s->count, sizeof *copy, by_x);
    }
    return copy;
}

/* ---- text ------------------------------------------------------------------- */

/* Decodes one UTF-8 character at s (NUL-terminated; collcalc_utf8_decode).
 * Returns the bytes it takes (>= 1 unless at the end) and sets *valid:
 * false for a malformed, overlong, surrogate or out-of-range sequence (then
 * 1 byte is consumed). */
static size_t utf8_next(const unsigned char *s, uint32_t *code, bool *valid)
{
    *code = 0;
    *valid = false;
    if (s[0] == 0)
        return 0;
    size_t length = collcalc_utf8_decode(s, 4, code);
    if (length == 0) {
        *code = 0;
        return 1;
    }
    *valid = true;
    return length;
}

/* One line of terminal output: at most `limit` columns, one per character. */
typedef struct {
    char bytes[PLOT_MAX_WIDTH * 4 + 8];
    size_t length;
    int columns, limit;
    bool unicode;
} text_line;

static void line_start(text_line *line, int limit, bool unicode)
{
    line->length = 0;
    line->columns = 0;
    line->limit = limit;
    line->unicode = unicode;
    line->bytes[0] = '\0';
}

/* Appends one glyph known to be one column (ASCII or a UTF-8 symbol). */
static void line_glyph(text_line *line, const char *glyph)
{
    size_t n = strlen(glyph);
    if (line->columns >= line->limit || line->length + n + 1 > sizeof line->bytes)
        return;
    memcpy(line->bytes + line->length, glyph, n + 1);
    line->length += n;
    line->columns++;
}

static void line_spaces(text_line *line, int count)
{
    for (int i = 0; i < count; i++)
        line_glyph(line, " ");
}

/* Appends text shown safely: control characters, invalid UTF-8 and (in
 * ASCII) anything not ASCII become '?'. Cut at the line's limit. */
static void line_text(text_line *line, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s != 0 && line->columns < line->limit) {
        uint32_t code;
        bool valid;
        size_t n = utf8_next(s, &code, &valid);
        char glyph[5] = "?";
        if (valid && code >= 0x20 && code != 0x7F && !(code >= 0x80 && code < 0xA0) &&
            (code < 0x80 || line->unicode)) {
            memcpy(glyph, s, n);
            glyph[n] = '\0';
        }
        line_glyph(line, glyph);
        s += n;
    }
}

/* Columns text takes once shown by line_text (uncut). */
static int text_columns(const char *text)
{
    int columns = 0;
    const unsigned char *s = (const unsigned char *)text;
    while (*s != 0) {
        uint32_t code;
        bool valid;
        s += utf8_next(s, &code, &valid);
        columns++;
    }
    return columns;
}

/* Writes the line without trailing spaces, then a newline. */
static void line_emit(text_line *line, FILE *out)
{
    while (line->length > 0 && line->bytes[line->length - 1] == ' ')
        line->length--;
    fwrite(line->bytes, 1, line->length, out);
    fputc('\n', out);
}

/* ---- terminal renderer ------------------------------------------------------ */

/* What a cell shows, by priority: label text over data symbols over line
 * glyphs over markers; braille connectors show where no symbol is. */
enum { PRIO_EMPTY = 0, PRIO_MARKER, PRIO_LINE, PRIO_SYMBOL, PRIO_TEXT };

/* The plot's height: a 4.5th of the width, from 8 to 30 rows. */
enum { TERM_MAX_ROWS = 30 };

typedef struct {
    char glyph[5];
    unsigned char prio;
    unsigned char dots; /* braille dot bits (Unicode lines) */
} term_cell;

typedef struct {
    term_cell *cells; /* rows x columns, row 0 at the top */
    int columns, rows;
    plot_frame frame;
    bool unicode;
} term_grid;

/* Distinct per series; ASCII avoids the axis and marker characters. */
static const char *const ASCII_GLYPHS[PLOT_MAX_SERIES] = {
    "*", "o", "x", "#", "@", "%", "&", "$", "=", "~", "^", "s", "v", "z", "w", "m"};
static const char *const UNICODE_GLYPHS[PLOT_MAX_SERIES] = {
    "\u25CF", "\u25A0", "\u25B2", "\u25C6", "\u25CB", "\u25A1", "\u25B3", "\u25C7",
    "\u2605", "\u271A", "\u2716", "\u25BC", "\u25BD", "\u2606", "\u25C9", "\u25C8"};

static const char *series_glyph(size_t index, bool unicode)
{
    return (unicode ? UNICODE_GLYPHS : ASCII_GLYPHS)[index % PLOT_MAX_SERIES];
}

static term_cell *cell_at(term_grid *g, int row, int column)
{
    if (row < 0 || row >= g->rows || column < 0 || column >= g->columns)
        return NULL;
    return &g->cells[(size_t)row * (size_t)g->columns + (size_t)column];
}

static void put_glyph(term_grid *g, int row, int column, const char *glyph, unsigned char prio)
{
    term_cell *c = cell_at(g, row, column);
    if (c == NULL || c->prio > prio)
        return;
    copy_label(c->glyph, sizeof c->glyph, glyph);
    c->prio = prio;
}

/* Positions go through the braille sub-cell grid (2 x 4 per cell), so a
 * point's symbol, its line's dots and the decade ticks land in the same
 * cell: 0 is the first column (bottom row), 1 the last (top row). */
static int sub_x(const term_grid *g, double fraction)
{
    return (int)lround(fraction * (g->columns * 2 - 1));
}

static int sub_y(const term_grid *g, double fraction)
{
    return (int)lround(fraction * (g->rows * 4 - 1));
}

static int column_of(const term_grid *g, double fraction)
{
    return sub_x(g, fraction) / 2;
}

/* Row from the top. */
static int row_of(const term_grid *g, double fraction)
{
    return g->rows - 1 - sub_y(g, fraction) / 4;
}

/* True when text of `width` columns fits at (row, column) over nothing
 * (strict) or nothing but markers. */
static bool span_free(term_grid *g, int row, int column, int width, bool strict)
{
    if (row < 0 || row >= g->rows || column < 0 || column + width > g->columns)
        return false;
    for (int i = 0; i < width; i++) {
        const term_cell *c = cell_at(g, row, column + i);
        if (c->prio > (strict ? PRIO_EMPTY : PRIO_MARKER) || c->dots != 0)
            return false;
    }
    return true;
}

static void put_text(term_grid *g, int row, int column, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    for (int i = 0; *s != 0; i++) {
        uint32_t code;
        bool valid;
        size_t n = utf8_next(s, &code, &valid);
        char glyph[5] = "?";
        if (valid && code >= 0x20 && code != 0x7F && !(code >= 0x80 && code < 0xA0) &&
            (code < 0x80 || g->unicode)) {
            memcpy(glyph, s, n);
            glyph[n] = '\0';
        }
        put_glyph(g, row, column + i, glyph, PRIO_TEXT);
        s += n;
    }
}

/* Sets one braille dot; sub-cells are 2 wide and 4 tall, y from the bottom. */
static void put_dot(term_grid *g, int sx, int sy_bottom)
{
    static const unsigned char BITS[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
    int sy = g->rows * 4 - 1 - sy_bottom;
    term_cell *c = cell_at(g, sy / 4, sx / 2);
    if (c != NULL && sx >= 0 && sy >= 0)
        c->dots |= BITS[sx % 2][sy % 4];
}

static void braille_segment(term_grid *g, plot_point a, plot_point b)
{
    int ax = sub_x(g, fraction_of(g->frame.x, a.x)), ay = sub_y(g, fraction_of(g->frame.y, a.y));
    int bx = sub_x(g, fraction_of(g->frame.x, b.x)), by = sub_y(g, fraction_of(g->frame.y, b.y));
    int steps = abs(bx - ax) > abs(by - ay) ? abs(bx - ax) : abs(by - ay);
    for (int i = 0; i <= steps; i++) {
        double t = steps == 0 ? 0 : (double)i / steps;
        put_dot(g, (int)lround(ax + (bx - ax) * t), (int)lround(ay + (by - ay) * t));
    }
}

/* ASCII lines: the series' glyph in every column it spans, at the y the
 * line (straight in log-log) has at the column's centre. */
static void ascii_line(term_grid *g, const plot_point *p, size_t count, const char *glyph)
{
    if (count < 2)
        return;
    log_axis xa = g->frame.x;
    double first = log10(p[0].x), last = log10(p[count - 1].x);
    int c0 = column_of(g, fraction_of(xa, p[0].x)), c1 = column_of(g, fraction_of(xa, p[count - 1].x));
    size_t j = 0;
    for (int c = c0; c <= c1; c++) {
        double lx = xa.lo + (double)c / (g->columns - 1) * (xa.hi - xa.lo);
        lx = lx < first ? first : lx > last ? last : lx;
        while (j + 2 < count && log10(p[j + 1].x) < lx)
            j++;
        double l0 = log10(p[j].x), l1 = log10(p[j + 1].x);
        double y0 = log10(p[j].y), y1 = log10(p[j + 1].y);
        double t = l1 > l0 ? (lx - l0) / (l1 - l0) : 0;
        double ly = y0 + (y1 - y0) * t;
        put_glyph(g, row_of(g, fraction_of_exp(g->frame.y, ly)), c, glyph, PRIO_LINE);
    }
}

static void draw_markers(term_grid *g, const plot_chart *chart)
{
    const char *vglyph = g->unicode ? "\u250A" : ":";
    const char *hglyph = g->unicode ? "\u2504" : "-";
    for (size_t i = 0; i < chart->vmarker_count; i++) {
        int c = column_of(g, fraction_of(g->frame.x, chart->vmarkers[i].value));
        for (int r = 0; r < g->rows; r++)
            if (g->unicode || r % 2 == 0)
                put_glyph(g, r, c, vglyph, PRIO_MARKER);
    }
    for (size_t i = 0; i < chart->hmarker_count; i++) {
        int r = row_of(g, fraction_of(g->frame.y, chart->hmarkers[i].value));
        for (int c = 0; c < g->columns; c++)
            if (g->unicode || c % 2 == 0)
                put_glyph(g, r, c, hglyph, PRIO_MARKER);
    }
}

/* Marker labels go where they hide no data: beside a vertical marker's
 * column from the top down, above or below a horizontal one from the right;
 * when nowhere fits, the legend still carries them. */
static void label_markers(term_grid *g, const plot_chart *chart)
{
    char text[2 * PLOT_LABEL_MAX];
    for (size_t i = 0; i < chart->hmarker_count; i++) {
        marker_text(text, sizeof text, &chart->hmarkers[i], chart->y_unit);
        int width = text_columns(text);
        int r = row_of(g, fraction_of(g->frame.y, chart->hmarkers[i].value));
        /* Above, then below the line; at its right end, then its left. */
        const int rows[2] = {r - 1, r + 1};
        const int columns[2] = {g->columns - width - 1, 1};
        for (int k = 0; k < 8; k++) {
            int row = rows[k % 2], column = columns[(k / 2) % 2];
            if (span_free(g, row, column, width, k < 4)) {
                put_text(g, row, column, text);
                break;
            }
        }
    }
    for (size_t i = 0; i < chart->vmarker_count; i++) {
        marker_text(text, sizeof text, &chart->vmarkers[i], chart->x_unit);
        int width = text_columns(text);
        int c = column_of(g, fraction_of(g->frame.x, chart->vmarkers[i].value));
        bool placed = false;
        for (int pass = 0; pass < 2 && !placed; pass++)
            for (int r = 0; r < g->rows && !placed; r++) {
                if (span_free(g, r, c + 1, width, pass == 0)) {
                    put_text(g, r, c + 1, text);
                    placed = true;
                } else if (span_free(g, r, c - width, width, pass == 0)) {
                    put_text(g, r, c - width, text);
                    placed = true;
                }
            }
    }
}

static void draw_series(term_grid *g, const plot_chart *chart, plot_point *const *sorted)
{
    /* Lines first, so measurements stay on top. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < chart->series_count; i++) {
            const plot_series *s = &chart->series[i];
            if ((pass == 0) != (s->kind == PLOT_LINE))
                continue;
            const plot_point *p = sorted[i];
            const char *glyph = series_glyph(i, g->unicode);
            if (s->kind == PLOT_LINE) {
                if (g->unicode)
                    for (size_t j = 0; j + 1 < s->count; j++)
                        braille_segment(g, p[j], p[j + 1]);
                else
                    ascii_line(g, p, s->count, glyph);
            }
            for (size_t j = 0; j < s->count; j++)
                put_glyph(g, row_of(g, fraction_of(g->frame.y, p[j].y)),
                          column_of(g, fraction_of(g->frame.x, p[j].x)), glyph, PRIO_SYMBOL);
        }
}

static void cell_glyph(const term_cell *c, char glyph[5])
{
    if (c->prio >= PRIO_LINE || (c->prio == PRIO_MARKER && c->dots == 0)) {
        copy_label(glyph, 5, c->glyph);
    } else if (c->dots != 0) {
        /* U+2800 + dots, in UTF-8. */
        glyph[0] = (char)0xE2;
        glyph[1] = (char)(0xA0 | (c->dots >> 6));
        glyph[2] = (char)(0x80 | (c->dots & 0x3F));
        glyph[3] = '\0';
    } else {
        copy_label(glyph, 5, " ");
    }
}

/* Packs legend entries onto lines of the width, two spaces in front and
 * three between; an entry longer than a line is cut. */
static void legend_entry(text_line *line, FILE *out, const char *glyph, const char *label)
{
    int needed = 2 + text_columns(label);
    if (line->columns > 2 && line->columns + 3 + needed > line->limit) {
        line_emit(line, out);
        line_start(line, line->limit, line->unicode);
    }
    if (line->columns == 0)
        line_spaces(line, 2);
    else
        line_spaces(line, 3);
    line_glyph(line, glyph);
    line_glyph(line, " ");
    line_text(line, label);
}

int plot_terminal(const plot_chart *chart, FILE *out, int width, bool unicode)
{
    if (chart == NULL || chart->failed || out == NULL)
        return -1;
    int total = clamp_int(width, PLOT_MIN_WIDTH, PLOT_MAX_WIDTH);
    plot_frame frame = frame_of(chart);

    term_grid g;
    g.rows = clamp_int((int)lround(total / 4.5), 8, TERM_MAX_ROWS);
    g.columns = 1; /* rows first: the y labels set the left margin */
    g.frame = frame;

    /* The y axis: a tick per decade while they are 2 rows apart (else only
     * at labelled ones), labels every ystep decades, and at 2x and 5x too
     * when a decade has 6 rows or more and they keep a row free around. */
    bool ytick[TERM_MAX_ROWS] = {false};
    char ylabels[TERM_MAX_ROWS][48];
    double rows_per_decade = (double)g.rows / (frame.y.hi - frame.y.lo);
    int ystep = label_step(rows_per_decade, 2.0, frame.y.hi - frame.y.lo, chart->y_unit);
    for (int r = 0; r < g.rows; r++)
        ylabels[r][0] = '\0';
    for (int e = frame.y.lo; e <= frame.y.hi; e++) {
        int r = row_of(&g, fraction_of_exp(frame.y, e));
        if (labelled(e, ystep))
            format_tick(ylabels[r], sizeof ylabels[r], chart->y_unit, e);
        ytick[r] = ytick[r] || labelled(e, ystep) || rows_per_decade >= 2;
    }
    for (int e = frame.y.lo; rows_per_decade >= 6 && e < frame.y.hi; e++)
        for (int m = 2; m <= 5; m += 3) {
            int r = row_of(&g, fraction_of_exp(frame.y, e + log10(m)));
            if (ylabels[r][0] != '\0' || (r > 0 && ylabels[r - 1][0] != '\0') ||
                (r + 1 < g.rows && ylabels[r + 1][0] != '\0'))
                continue;
            format_tick_at(ylabels[r], sizeof ylabels[r], chart->y_unit, e, m);
            ytick[r] = true;
        }
    /* Left margin: the widest y label (at most half the width, less 4). */
    int ylabel_width = 1;
    for (int r = 0; r < g.rows; r++) {
        int w = text_columns(ylabels[r]);
        ylabel_width = w > ylabel_width ? w : ylabel_width;
    }
    ylabel_width = ylabel_width > total / 2 - 4 ? total / 2 - 4 : ylabel_width;
    int left = ylabel_width + 2; /* labels, a space, the axis */
    g.columns = total - left;
    char label[64];
    g.unicode = unicode;
    g.cells = calloc((size_t)g.rows * (size_t)g.columns, sizeof *g.cells);
    plot_point *sorted[PLOT_MAX_SERIES] = {0};
    bool ok = g.cells != NULL;
    for (size_t i = 0; ok && i < chart->series_count; i++) {
        sorted[i] = sorted_points(&chart->series[i]);
        ok = sorted[i] != NULL;
    }
    if (!ok) {
        for (size_t i = 0; i < chart->series_count; i++)
            free(sorted[i]);
        free(g.cells);
        return -1;
    }

    draw_markers(&g, chart);
    draw_series(&g, chart, sorted);
    label_markers(&g, chart);
    if (frame.empty) {
        const char *none = "no data to plot";
        put_text(&g, g.rows / 2, (g.columns - (int)strlen(none)) / 2, none);
    }

    text_line line;
    if (chart->title[0] != '\0') {
        line_start(&line, total, unicode);
        line_text(&line, chart->title);
        line_emit(&line, out);
    }
    if (chart->y_label[0] != '\0') {
        line_start(&line, total, unicode);
        line_text(&line, chart->y_label);
        line_emit(&line, out);
    }
    for (int r = 0; r < g.rows; r++) {
        line_start(&line, total, unicode);
        bool tick = ytick[r];
        int w = text_columns(ylabels[r]);
        w = w > ylabel_width ? ylabel_width : w;
        line_spaces(&line, ylabel_width - w);
        text_line cut;
        line_start(&cut, w, false);
        line_text(&cut, ylabels[r]);
        line_text(&line, cut.bytes);
        line_glyph(&line, " ");
        line_glyph(&line, tick ? (unicode ? "\u2524" : "+") : (unicode ? "\u2502" : "|"));
        for (int c = 0; c < g.columns; c++) {
            char glyph[5];
            cell_glyph(cell_at(&g, r, c), glyph);
            line_glyph(&line, glyph);
        }
        line_emit(&line, out);
    }

    /* The x axis, its ticks and their labels. */
    double columns_per_decade = (double)g.columns / (frame.x.hi - frame.x.lo);
    int xlabel_width = 1;
    for (int e = frame.x.lo; e <= frame.x.hi; e++) {
        format_tick(label, sizeof label, chart->x_unit, e);
        int w = (int)strlen(label);
        xlabel_width = w > xlabel_width ? w : xlabel_width;
    }
    int xstep = label_step(columns_per_decade, xlabel_width + 2.0, frame.x.hi - frame.x.lo,
                           chart->x_unit);
    char *axis = calloc((size_t)g.columns, 1);
    if (axis == NULL) {
        for (size_t i = 0; i < chart->series_count; i++)
            free(sorted[i]);
        free(g.cells);
        return -1;
    }
    for (int e = frame.x.lo; e <= frame.x.hi; e++)
        if (labelled(e, xstep) || columns_per_decade >= 2)
            axis[column_of(&g, fraction_of_exp(frame.x, e))] = 1;
    line_start(&line, total, unicode);
    line_spaces(&line, ylabel_width + 1);
    line_glyph(&line, unicode ? "\u2514" : "+");
    for (int c = 0; c < g.columns; c++)
        line_glyph(&line, axis[c] ? (unicode ? "\u252C" : "+") : (unicode ? "\u2500" : "-"));
    line_emit(&line, out);
    free(axis);

    char ticks[PLOT_MAX_WIDTH + 1];
    memset(ticks, ' ', (size_t)total);
    ticks[total] = '\0';
    int last_end = -1;
    for (int e = frame.x.lo; e <= frame.x.hi; e++) {
        if (!labelled(e, xstep))
            continue;
        format_tick(label, sizeof label, chart->x_unit, e);
        int w = (int)strlen(label);
        if (w > total)
            continue;
        int start = left + column_of(&g, fraction_of_exp(frame.x, e)) - w / 2;
        start = clamp_int(start, 0, total - w);
        if (start <= last_end)
            continue;
        memcpy(ticks + start, label, (size_t)w);
        last_end = start + w;
    }
    line_start(&line, total, unicode);
    line_text(&line, ticks);
    line_emit(&line, out);
    if (chart->x_label[0] != '\0') {
        line_start(&line, total, unicode);
        int w = text_columns(chart->x_label);
        int pad = left + (g.columns - w) / 2;
        line_spaces(&line, pad > 0 ? pad : 0);
        line_text(&line, chart->x_label);
        line_emit(&line, out);
    }

    /* The legend: series, then markers, then what could not be drawn. */
    size_t skipped = 0;
    line_start(&line, total, unicode);
    for (size_t i = 0; i < chart->series_count; i++) {
        legend_entry(&line, out, series_glyph(i, unicode), chart->series[i].label);
        skipped += chart->series[i].skipped;
    }
    if (line.columns > 0)
        line_emit(&line, out);
    char text[2 * PLOT_LABEL_MAX];
    for (size_t i = 0; i < chart->vmarker_count; i++) {
        line_start(&line, total, unicode);
        marker_text(text, sizeof text, &chart->vmarkers[i], chart->x_unit);
        legend_entry(&line, out, unicode ? "\u250A" : ":", text);
        line_emit(&line, out);
    }
    for (size_t i = 0; i < chart->hmarker_count; i++) {
        line_start(&line, total, unicode);
        marker_text(text, sizeof text, &chart->hmarkers[i], chart->y_unit);
        legend_entry(&line, out, unicode ? "\u2504" : "-", text);
        line_emit(&line, out);
    }
    if (skipped > 0) {
        line_start(&line, total, unicode);
        snprintf(text, sizeof text, "  (%zu point%s not drawn: zero, negative or not finite)",
                 skipped, skipped == 1 ? "" : "s");
        line_text(&line, text);
        line_emit(&line, out);
    }

    for (size_t i = 0; i < chart->series_count; i++)
        free(sorted[i]);
    free(g.cells);
    return 0;
}

/* ---- SVG renderer ----------------------------------------------------------- */

/* Matplotlib's "tab10" colours, then five darker ones and black: distinct
 * on white. */
static const char *const COLOURS[PLOT_MAX_SERIES] = {
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#000000"};

/* Text as XML character data or attribute value: the five special
 * characters escaped, control characters and invalid UTF-8 as '?'. */
static void svg_text(FILE *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    while (*s != 0) {
        uint32_t code;
        bool valid;
        size_t n = utf8_next(s, &code, &valid);
        if (!valid || (code < 0x20 && code != '\t') || code == 0x7F || code == 0xFFFE ||
            code == 0xFFFF)
            fputc('?', out);
        else if (code == '&')
            fputs("&amp;", out);
        else if (code == '<')
            fputs("&lt;", out);
        else if (code == '>')
            fputs("&gt;", out);
        else if (code == '"')
            fputs("&quot;", out);
        else if (code == '\'')
            fputs("&apos;", out);
        else
            fwrite(s, 1, n, out);
        s += n;
    }
}

/* Rough width of text at 12 px in a sans-serif face, for layout only. */
static double text_px(const char *text, double font_px)
{
    return text_columns(text) * font_px * 0.6;
}

enum { SVG_PLOT_W = 640, SVG_PLOT_H = 400 };

typedef struct {
    double left, top, width, height;
    plot_frame frame;
} svg_box;

static double svg_x(const svg_box *b, double x)
{
    return b->left + fraction_of(b->frame.x, x) * b->width;
}

static double svg_y(const svg_box *b, double y)
{
    return b->top + (1.0 - fraction_of(b->frame.y, y)) * b->height;
}

static void svg_gridlines(FILE *out, const svg_box *b)
{
    int xd = b->frame.x.hi - b->frame.x.lo, yd = b->frame.y.hi - b->frame.y.lo;
    fputs("<g stroke=\"#eeeeee\" stroke-width=\"1\">\n", out);
    for (int e = b->frame.x.lo; xd <= 6 && e < b->frame.x.hi; e++)
        for (int m = 2; m <= 9; m++) {
            double px = b->left + fraction_of_exp(b->frame.x, e + log10(m)) * b->width;
            fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", px, b->top,
                    px, b->top + b->height);
        }
    for (int e = b->frame.y.lo; yd <= 6 && e < b->frame.y.hi; e++)
        for (int m = 2; m <= 9; m++) {
            double py = b->top + (1 - fraction_of_exp(b->frame.y, e + log10(m))) * b->height;
            fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", b->left,
                    py, b->left + b->width, py);
        }
    fputs("</g>\n<g stroke=\"#cccccc\" stroke-width=\"1\">\n", out);
    for (int e = b->frame.x.lo; e <= b->frame.x.hi; e++) {
        double px = b->left + fraction_of_exp(b->frame.x, e) * b->width;
        fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", px, b->top, px,
                b->top + b->height);
    }
    for (int e = b->frame.y.lo; e <= b->frame.y.hi; e++) {
        double py = b->top + (1 - fraction_of_exp(b->frame.y, e)) * b->height;
        fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", b->left, py,
                b->left + b->width, py);
    }
    fputs("</g>\n", out);
}

static void svg_ticks(FILE *out, const svg_box *b, const plot_chart *chart)
{
    char label[64];
    int xd = b->frame.x.hi - b->frame.x.lo, yd = b->frame.y.hi - b->frame.y.lo;
    double widest = 0;
    for (int e = b->frame.x.lo; e <= b->frame.x.hi; e++) {
        format_tick(label, sizeof label, chart->x_unit, e);
        widest = fmax(widest, text_px(label, 12));
    }
    int xstep = label_step(b->width / xd, widest + 12, xd, chart->x_unit);
    int ystep = label_step(b->height / yd, 18, yd, chart->y_unit);
    fputs("<g stroke=\"#333333\" stroke-width=\"1\">\n", out);
    for (int e = b->frame.x.lo; e <= b->frame.x.hi; e++) {
        double px = b->left + fraction_of_exp(b->frame.x, e) * b->width;
        double length = labelled(e, xstep) ? 6 : 3;
        fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", px,
                b->top + b->height, px, b->top + b->height + length);
    }
    for (int e = b->frame.y.lo; e <= b->frame.y.hi; e++) {
        double py = b->top + (1 - fraction_of_exp(b->frame.y, e)) * b->height;
        double length = labelled(e, ystep) ? 6 : 3;
        fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", b->left - length,
                py, b->left, py);
    }
    fputs("</g>\n<g fill=\"#333333\">\n", out);
    for (int e = b->frame.x.lo; e <= b->frame.x.hi; e++) {
        if (!labelled(e, xstep))
            continue;
        format_tick(label, sizeof label, chart->x_unit, e);
        double px = b->left + fraction_of_exp(b->frame.x, e) * b->width;
        fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", px,
                b->top + b->height + 20);
        svg_text(out, label);
        fputs("</text>\n", out);
    }
    for (int e = b->frame.y.lo; e <= b->frame.y.hi; e++) {
        if (!labelled(e, ystep))
            continue;
        format_tick(label, sizeof label, chart->y_unit, e);
        double py = b->top + (1 - fraction_of_exp(b->frame.y, e)) * b->height;
        fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">", b->left - 9, py + 4);
        svg_text(out, label);
        fputs("</text>\n", out);
    }
    /* Two decades or fewer leave room to label 2x and 5x as well. */
    for (int e = b->frame.x.lo; xd <= 2 && e < b->frame.x.hi; e++)
        for (int m = 2; m <= 5; m += 3) {
            format_tick_at(label, sizeof label, chart->x_unit, e, m);
            double px = b->left + fraction_of_exp(b->frame.x, e + log10(m)) * b->width;
            fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" fill=\"#666666\">",
                    px, b->top + b->height + 20);
            svg_text(out, label);
            fputs("</text>\n", out);
        }
    for (int e = b->frame.y.lo; yd <= 2 && e < b->frame.y.hi; e++)
        for (int m = 2; m <= 5; m += 3) {
            format_tick_at(label, sizeof label, chart->y_unit, e, m);
            double py = b->top + (1 - fraction_of_exp(b->frame.y, e + log10(m))) * b->height;
            fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" fill=\"#666666\">",
                    b->left - 9, py + 4);
            svg_text(out, label);
            fputs("</text>\n", out);
        }
    fputs("</g>\n", out);
}

/* How much data a label box [x0, x1] x [y0, y1] would hide: points, and
 * the midpoints of line segments, within 4 px of it. */
static size_t data_under(const svg_box *b, const plot_chart *chart, plot_point *const *sorted,
                         double x0, double y0, double x1, double y1)
{
    size_t count = 0;
    for (size_t k = 0; k < chart->series_count; k++) {
        const plot_series *s = &chart->series[k];
        const plot_point *p = sorted[k];
        for (size_t j = 0; j < s->count; j++) {
            for (int half = 0; half < (s->kind == PLOT_LINE && j + 1 < s->count ? 2 : 1); half++) {
                double px = svg_x(b, p[j].x), py = svg_y(b, p[j].y);
                if (half == 1) {
                    px = (px + svg_x(b, p[j + 1].x)) / 2;
                    py = (py + svg_y(b, p[j + 1].y)) / 2;
                }
                count += px >= x0 - 4 && px <= x1 + 4 && py >= y0 - 4 && py <= y1 + 4;
            }
        }
    }
    return count;
}

/* A marker's label: of the candidate anchors (x, baseline y, "start" or
 * "end"), the first hiding the least data. */
typedef struct {
    double x, y;
    bool end;
} svg_anchor;

static svg_anchor place_label(const svg_box *b, const plot_chart *chart, plot_point *const *sorted,
                              const svg_anchor *candidates, size_t count, double width)
{
    svg_anchor best = candidates[0];
    size_t least = SIZE_MAX;
    for (size_t i = 0; i < count; i++) {
        const svg_anchor *a = &candidates[i];
        double x0 = a->end ? a->x - width : a->x, y0 = a->y - 11;
        if (x0 < b->left || x0 + width > b->left + b->width || y0 < b->top ||
            a->y + 3 > b->top + b->height)
            continue;
        size_t hidden = data_under(b, chart, sorted, x0, y0, x0 + width, a->y + 3);
        if (hidden < least) {
            least = hidden;
            best = *a;
        }
    }
    return best;
}

/* The label twice: a white outline first (a halo over gridlines and
 * data; SVG 1.1 has no paint-order), then the text. */
static void svg_label(FILE *out, svg_anchor a, const char *colour, const char *text)
{
    for (int pass = 0; pass < 2; pass++) {
        fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"11\" ", a.x, a.y,
                a.end ? "end" : "start");
        if (pass == 0)
            fputs("fill=\"#ffffff\" stroke=\"#ffffff\" stroke-width=\"3\" "
                  "stroke-linejoin=\"round\">",
                  out);
        else
            fprintf(out, "fill=\"%s\">", colour);
        svg_text(out, text);
        fputs("</text>\n", out);
    }
}

static void svg_markers(FILE *out, const svg_box *b, const plot_chart *chart,
                        plot_point *const *sorted)
{
    char text[2 * PLOT_LABEL_MAX];
    double right = b->left + b->width, bottom = b->top + b->height;
    for (size_t i = 0; i < chart->hmarker_count; i++) {
        const plot_marker *m = &chart->hmarkers[i];
        double py = svg_y(b, m->value);
        fprintf(out,
                "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#b22222\" "
                "stroke-width=\"1.5\" stroke-dasharray=\"8 4\"/>\n",
                b->left, py, right, py);
        marker_text(text, sizeof text, m, chart->y_unit);
        /* Above or below the line, at its right or left end. */
        const svg_anchor candidates[] = {{right - 6, py - 5, true}, {right - 6, py + 14, true},
                                         {b->left + 6, py - 5, false}, {b->left + 6, py + 14, false}};
        svg_label(out, place_label(b, chart, sorted, candidates, 4, text_px(text, 11)), "#b22222",
                  text);
    }
    for (size_t i = 0; i < chart->vmarker_count; i++) {
        const plot_marker *m = &chart->vmarkers[i];
        double px = svg_x(b, m->value);
        fprintf(out,
                "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#555555\" "
                "stroke-width=\"1.2\" stroke-dasharray=\"5 4\"/>\n",
                px, b->top, px, bottom);
        marker_text(text, sizeof text, m, chart->x_unit);
        /* Beside the line at the top or the bottom, staggered so markers
         * close together do not print over each other. */
        double step = 14 * (double)i;
        const svg_anchor candidates[] = {{px + 4, b->top + 14 + step, false},
                                         {px - 4, b->top + 14 + step, true},
                                         {px + 4, bottom - 6 - step, false},
                                         {px - 4, bottom - 6 - step, true}};
        svg_label(out, place_label(b, chart, sorted, candidates, 4, text_px(text, 11)), "#333333",
                  text);
    }
}

static void svg_series(FILE *out, const svg_box *b, const plot_chart *chart,
                       plot_point *const *sorted)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < chart->series_count; i++) {
            const plot_series *s = &chart->series[i];
            if ((pass == 0) != (s->kind == PLOT_LINE) || s->count == 0)
                continue;
            const plot_point *p = sorted[i];
            const char *colour = COLOURS[i];
            fputs("<g>\n<title>", out);
            svg_text(out, s->label);
            fputs("</title>\n", out);
            if (s->kind == PLOT_LINE) {
                fprintf(out,
                        "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                        "stroke-linejoin=\"round\" stroke-linecap=\"round\" points=\"",
                        colour);
                for (size_t j = 0; j < s->count; j++)
                    fprintf(out, "%s%.2f,%.2f", j ? " " : "", svg_x(b, p[j].x), svg_y(b, p[j].y));
                fputs("\"/>\n", out);
                if (s->count <= 48)
                    for (size_t j = 0; j < s->count; j++)
                        fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"2.5\" fill=\"%s\"/>\n",
                                svg_x(b, p[j].x), svg_y(b, p[j].y), colour);
            } else {
                for (size_t j = 0; j < s->count; j++)
                    fprintf(out,
                            "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"#ffffff\" "
                            "stroke=\"%s\" stroke-width=\"1.8\"/>\n",
                            svg_x(b, p[j].x), svg_y(b, p[j].y), colour);
            }
            fputs("</g>\n", out);
        }
}

static void svg_legend(FILE *out, double x, double top, const plot_chart *chart, double width)
{
    if (chart->series_count == 0)
        return;
    double height = 14 + 20 * (double)chart->series_count;
    fprintf(out,
            "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#ffffff\" "
            "stroke=\"#bbbbbb\"/>\n",
            x, top, width, height);
    for (size_t i = 0; i < chart->series_count; i++) {
        const plot_series *s = &chart->series[i];
        double cy = top + 17 + 20 * (double)i;
        if (s->kind == PLOT_LINE)
            fprintf(out,
                    "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                    "stroke-width=\"2\"/>\n<circle cx=\"%.2f\" cy=\"%.2f\" r=\"2.5\" fill=\"%s\"/>\n",
                    x + 10, cy, x + 34, cy, COLOURS[i], x + 22, cy, COLOURS[i]);
        else
            fprintf(out,
                    "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"#ffffff\" stroke=\"%s\" "
                    "stroke-width=\"1.8\"/>\n",
                    x + 22, cy, COLOURS[i]);
        fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" fill=\"#222222\">", x + 42, cy + 4);
        svg_text(out, s->label);
        fputs("</text>\n", out);
    }
}

int plot_svg(const plot_chart *chart, FILE *out)
{
    if (chart == NULL || chart->failed || out == NULL)
        return -1;
    plot_point *sorted[PLOT_MAX_SERIES] = {0};
    for (size_t i = 0; i < chart->series_count; i++) {
        sorted[i] = sorted_points(&chart->series[i]);
        if (sorted[i] == NULL) {
            for (size_t k = 0; k < i; k++)
                free(sorted[k]);
            return -1;
        }
    }
    svg_box b;
    b.frame = frame_of(chart);
    b.width = SVG_PLOT_W;
    b.height = SVG_PLOT_H;
    char label[64];
    double widest_y = 0;
    for (int e = b.frame.y.lo; e <= b.frame.y.hi; e++) {
        format_tick(label, sizeof label, chart->y_unit, e);
        widest_y = fmax(widest_y, text_px(label, 12));
    }
    b.left = 34 + fmin(widest_y, 200) + 12;
    b.top = chart->title[0] != '\0' ? 48 : 20;
    double legend_width = 0;
    for (size_t i = 0; i < chart->series_count; i++)
        legend_width = fmax(legend_width, 52 + text_px(chart->series[i].label, 12));
    legend_width = fmin(legend_width, 420);
    double legend_x = b.left + b.width + 20;
    double total_w = chart->series_count > 0 ? legend_x + legend_width + 16 : b.left + b.width + 24;
    double legend_bottom = b.top + 14 + 20 * (double)chart->series_count;
    double total_h = fmax(b.top + b.height + 64, legend_bottom + 16);

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n", out);
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, "
            "Arial, sans-serif\" font-size=\"12\">\n",
            total_w, total_h, total_w, total_h);
    fputs("<title>", out);
    svg_text(out, chart->title);
    fputs("</title>\n", out);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
            total_w, total_h);
    if (chart->title[0] != '\0') {
        fprintf(out,
                "<text x=\"%.2f\" y=\"30\" font-size=\"16\" font-weight=\"bold\" fill=\"#222222\">",
                b.left);
        svg_text(out, chart->title);
        fputs("</text>\n", out);
    }
    svg_gridlines(out, &b);
    fprintf(out,
            "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" "
            "stroke=\"#333333\" stroke-width=\"1\"/>\n",
            b.left, b.top, b.width, b.height);
    svg_ticks(out, &b, chart);
    if (chart->x_label[0] != '\0') {
        fprintf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"13\" "
                     "fill=\"#222222\">",
                b.left + b.width / 2, b.top + b.height + 44);
        svg_text(out, chart->x_label);
        fputs("</text>\n", out);
    }
    if (chart->y_label[0] != '\0') {
        fprintf(out,
                "<text transform=\"translate(18 %.2f) rotate(-90)\" text-anchor=\"middle\" "
                "font-size=\"13\" fill=\"#222222\">",
                b.top + b.height / 2);
        svg_text(out, chart->y_label);
        fputs("</text>\n", out);
    }
    if (b.frame.empty)
        fprintf(out,
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" font-size=\"14\" "
                "fill=\"#777777\">no data to plot</text>\n",
                b.left + b.width / 2, b.top + b.height / 2);
    svg_markers(out, &b, chart, sorted);
    svg_series(out, &b, chart, sorted);
    svg_legend(out, legend_x, b.top, chart, legend_width);
    fputs("</svg>\n", out);

    for (size_t i = 0; i < chart->series_count; i++)
        free(sorted[i]);
    return 0;
}

/* ---- the terminal ----------------------------------------------------------- */

/* The width of the terminal on standard output, or 0. */
static long tty_columns(void)
{
    struct winsize size;
    if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0)
        return 0;
    return size.ws_col;
}

int plot_terminal_width(void)
{
    /* Shells keep COLUMNS unexported unless asked, so the terminal itself
     * is the usual answer; an exported COLUMNS overrides it. */
    const char *columns = getenv("COLUMNS");
    long value = 0;
    if (columns != NULL && columns[0] != '\0') {
        for (const char *c = columns; *c != '\0' && value >= 0; c++)
            value = *c >= '0' && *c <= '9' && c - columns < 6 ? value * 10 + (*c - '0') : -1;
    }
    if (value <= 0)
        value = tty_columns();
    if (value <= 0)
        return 80;
    return value < PLOT_MIN_WIDTH ? PLOT_MIN_WIDTH : value > PLOT_MAX_WIDTH ? PLOT_MAX_WIDTH : (int)value;
}

/* Case-insensitive "does text contain word" for ASCII words. */
static bool contains_nocase(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *t = text; *t != '\0'; t++) {
        size_t i = 0;
        while (i < n && t[i] != '\0') {
            char a = t[i], b = word[i];
            a = (a >= 'A' && a <= 'Z') ? (char)(a - 'A' + 'a') : a;
            if (a != b)
                break;
            i++;
        }
        if (i == n)
            return true;
    }
    return false;
}

bool plot_utf8_locale(void)
{
    /* POSIX precedence: LC_ALL overrides LC_CTYPE overrides LANG. */
    static const char *const NAMES[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++) {
        const char *value = getenv(NAMES[i]);
        if (value != NULL && value[0] != '\0')
            return contains_nocase(value, "utf-8") || contains_nocase(value, "utf8");
    }
    return false;
}
