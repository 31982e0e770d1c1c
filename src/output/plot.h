/* Charts: series of (x, y) points on log-log axes, drawn as a terminal chart
 * (plain ASCII, or Unicode braille connectors and symbols) or as a standalone
 * SVG 1.1 document. A command fills a chart with values (it knows nothing of
 * commands); the renderers only read it. */
#ifndef COLLCALC_OUTPUT_PLOT_H
#define COLLCALC_OUTPUT_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum {
    PLOT_MAX_SERIES = 16,    /* series per chart */
    PLOT_MAX_POINTS = 4096,  /* points per series */
    PLOT_MAX_MARKERS = 8,    /* vertical markers, and as many horizontal ones */
    PLOT_LABEL_MAX = 96,     /* bytes kept of a label (longer ones are cut at a UTF-8 boundary) */
    PLOT_MIN_WIDTH = 40,     /* plot_terminal draws at least this many columns */
    PLOT_MAX_WIDTH = 400     /* ... and at most this many */
};

/* How a series is drawn: a line for predictions (the points joined), points
 * for measurements (each point on its own). */
typedef enum { PLOT_LINE = 0, PLOT_POINTS } plot_kind;

/* What an axis measures, and so how its decade ticks are labelled (with
 * human.h's unit ladders: "1 kB", "10 us", "100 GB/s"). */
typedef enum {
    PLOT_UNIT_PLAIN = 0, /* a plain number: "1000" */
    PLOT_UNIT_BYTES,     /* bytes, SI: "8 B", "1 kB", "1 GB" */
    PLOT_UNIT_TIME_US,   /* microseconds: "1 ns", "10 us", "1 s" */
    PLOT_UNIT_GBPS       /* GB/s: "1 MB/s", "100 GB/s", "1,000 GB/s" */
} plot_unit;

/* A chart. Opaque; create with plot_new, free with plot_free. Labels are
 * copied (the caller's strings may go away), points are copied. Every add
 * function is safe after an allocation failure: the chart remembers it,
 * plot_failed() says so and the renderers refuse. */
typedef struct plot_chart plot_chart;

/* A chart with a title ("all-reduce on 8 GPUs over nvlink5"; NULL for
 * none), both axes PLOT_UNIT_PLAIN and unlabelled. NULL when out of memory.
 * Free with plot_free. */
plot_chart *plot_new(const char *title);
/* NULL is a no-op. */
void plot_free(plot_chart *chart);
/* True after an allocation failure in plot_add_point. */
bool plot_failed(const plot_chart *chart);

/* Axis label with its unit for people ("message size (bytes)", "busbw
 * (GB/s)", "time (us)") and the unit its tick labels print in. */
void plot_set_x_axis(plot_chart *chart, const char *label, plot_unit unit);
void plot_set_y_axis(plot_chart *chart, const char *label, plot_unit unit);

/* A new series ("ring", "measured"); returns its index (0, 1, ...) for
 * plot_add_point, or -1 when the chart already holds PLOT_MAX_SERIES or
 * chart is NULL. Series get distinct glyphs and colours in this order. */
int plot_add_series(plot_chart *chart, const char *label, plot_kind kind);

/* Adds (x, y) to a series. Returns true when stored; false (nothing drawn)
 * when x or y is zero, negative or not finite (a log axis cannot show it:
 * counted, and the terminal legend says how many were left out), when the
 * series is full (PLOT_MAX_POINTS) or unknown, or when memory runs out
 * (then plot_failed). Points may come in any order. */
bool plot_add_point(plot_chart *chart, int series, double x, double y);

/* A vertical marker at x (a crossover size) or a horizontal one at y (the
 * line rate), drawn dashed across the plot with its label and value (the
 * renderer prints the value: pass "ring -> tree", not "ring -> tree at 64
 * kB"). False when the value is not positive and finite, or when
 * PLOT_MAX_MARKERS of that direction exist. */
bool plot_add_vmarker(plot_chart *chart, double x, const char *label);
bool plot_add_hmarker(plot_chart *chart, double y, const char *label);

/* Counts, for callers and tests. */
size_t plot_series_count(const plot_chart *chart);
size_t plot_point_count(const plot_chart *chart, int series);   /* stored points */
size_t plot_skipped_count(const plot_chart *chart, int series); /* points left out */

/* Draws the chart for a terminal: title, y axis label, the plot with decade
 * tick labels on both axes, x axis label, then a legend (one glyph per
 * series, each marker with its value). width is in columns and clamped to
 * [PLOT_MIN_WIDTH, PLOT_MAX_WIDTH]; no line is wider (Unicode counted as
 * one column per character); the height follows from it. unicode: braille
 * dots join a line series' points, symbols mark them, box drawing for the
 * axes; otherwise printable ASCII and newlines only. Labels are shown as
 * given, with control characters (and, in ASCII, every non-ASCII byte)
 * replaced by '?'. Returns 0, or -1 when chart is NULL, failed, or memory
 * runs out. Write errors are the caller's to check (ferror). */
int plot_terminal(const plot_chart *chart, FILE *out, int width, bool unicode);

/* Writes the chart as a standalone SVG 1.1 document (XML declaration, svg
 * element with width, height and viewBox, no scripts, no external fonts or
 * references): white background, frame, decade gridlines (and minor ones
 * when there are few decades), tick labels with units, axis labels, title,
 * one polyline (PLOT_LINE) or set of circles (PLOT_POINTS) per series in
 * distinct colours, a legend, dashed markers with label and value. Every
 * text is XML-escaped (and invalid UTF-8 replaced); coordinates print with
 * two decimals. Returns 0, or -1 when chart is NULL, failed, or memory
 * runs out. */
int plot_svg(const plot_chart *chart, FILE *out);

/* The terminal width: $COLUMNS when it is a whole number, else the width
 * of the terminal on standard output, else 80; clamped to
 * [PLOT_MIN_WIDTH, PLOT_MAX_WIDTH]. */
int plot_terminal_width(void);

/* Whether the locale speaks UTF-8: the first non-empty of LC_ALL, LC_CTYPE
 * and LANG contains "UTF-8" or "utf8" (any case). */
bool plot_utf8_locale(void);

#endif
