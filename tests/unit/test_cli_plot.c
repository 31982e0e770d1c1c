/* The chart renderers (src/output/plot.h): terminal charts stay inside their
 * width and character set and show every series, tick and marker; SVG
 * documents carry every text escaped and render with a real renderer
 * (rsvg-convert) to a PNG of the declared size; bad values, empty charts,
 * single points and huge ranges draw without nan, inf or overflow. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include "plot.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ---------------------------------------------------------------- */

typedef struct {
    char *text;
    size_t length;
} rendered;

static rendered render_terminal(const plot_chart *chart, int width, bool unicode)
{
    rendered r = {NULL, 0};
    FILE *out = open_memstream(&r.text, &r.length);
    assert_non_null(out);
    assert_int_equal(plot_terminal(chart, out, width, unicode), 0);
    assert_int_equal(fclose(out), 0);
    return r;
}

static rendered render_svg(const plot_chart *chart)
{
    rendered r = {NULL, 0};
    FILE *out = open_memstream(&r.text, &r.length);
    assert_non_null(out);
    assert_int_equal(plot_svg(chart, out), 0);
    assert_int_equal(fclose(out), 0);
    return r;
}

/* Characters (UTF-8 code points) per line; fails on invalid UTF-8. Returns
 * the widest line and the number of lines. */
static int widest_line(const char *text, size_t length, int *lines)
{
    int widest = 0, columns = 0;
    *lines = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            (*lines)++;
            widest = columns > widest ? columns : widest;
            columns = 0;
            continue;
        }
        if (c >= 0x80) {
            size_t extra = (c & 0xE0u) == 0xC0u ? 1 : (c & 0xF0u) == 0xE0u ? 2 : (c & 0xF8u) == 0xF0u ? 3 : 9;
            assert_true(extra <= 3);
            for (size_t k = 1; k <= extra; k++)
                assert_true(i + k < length && ((unsigned char)text[i + k] & 0xC0u) == 0x80u);
            i += extra;
        } else {
            assert_true(c >= 0x20 && c < 0x7F); /* no control character, no escape */
        }
        columns++;
    }
    assert_int_equal(columns, 0); /* ends with a newline */
    return widest;
}

static void assert_printable_ascii(const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        assert_true(c == '\n' || (c >= 0x20 && c < 0x7F));
    }
}

static void assert_lacks(const char *text, const char *needle)
{
    if (strstr(text, needle) != NULL) {
        print_error("unexpected \"%s\" in:\n%s\n", needle, text);
        fail();
    }
}

/* Line `index` (0-based) of text, copied into buffer. */
static const char *line_of(const char *text, int index, char *buffer, size_t size)
{
    const char *p = text;
    for (int i = 0; i < index && p != NULL; i++) {
        p = strchr(p, '\n');
        p = p != NULL ? p + 1 : NULL;
    }
    assert_non_null(p);
    const char *end = strchr(p, '\n');
    size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
    assert_true(n < size);
    memcpy(buffer, p, n);
    buffer[n] = '\0';
    return buffer;
}

static size_t count_of(const char *text, const char *needle)
{
    size_t count = 0;
    for (const char *p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle))
        count++;
    return count;
}

/* The chart a sweep would draw: ring and tree all-reduce busbw on 8 GPUs
 * over NVLink 5 from 8 B to 16 GiB (doubling), the alpha-beta model of
 * doc/MODEL.md (ring: 2(p-1) steps of 2 us; tree: 2 log2(p) steps), a
 * measured series 8 % under ring, the 900 GB/s line rate and the size where
 * ring overtakes tree. */
static plot_chart *busbw_chart(void)
{
    plot_chart *chart = plot_new("all-reduce busbw on 8 GPUs over nvlink5");
    assert_non_null(chart);
    plot_set_x_axis(chart, "message size (bytes)", PLOT_UNIT_BYTES);
    plot_set_y_axis(chart, "busbw (GB/s)", PLOT_UNIT_GBPS);
    int ring = plot_add_series(chart, "ring", PLOT_LINE);
    int tree = plot_add_series(chart, "tree", PLOT_LINE);
    int measured = plot_add_series(chart, "measured (nccl-tests)", PLOT_POINTS);
    assert_int_equal(ring, 0);
    assert_int_equal(tree, 1);
    assert_int_equal(measured, 2);
    const double p = 8, bw_bytes_per_us = 900e3, factor = 2 * (p - 1) / p;
    for (int e = 3; e <= 34; e++) {
        double size = ldexp(1.0, e);
        double t_ring = 2 * (p - 1) * 2.0 + factor * size / bw_bytes_per_us;
        double t_tree = 2 * 3 * 2.0 + factor * size / (0.92 * bw_bytes_per_us);
        assert_true(plot_add_point(chart, ring, size, factor * size / t_ring / 1e3));
        assert_true(plot_add_point(chart, tree, size, factor * size / t_tree / 1e3));
        if (e % 2 == 1)
            assert_true(plot_add_point(chart, measured, size, 0.92 * factor * size / t_ring / 1e3));
    }
    assert_true(plot_add_hmarker(chart, 900, "line rate"));
    assert_true(plot_add_vmarker(chart, 4.0 * 1024 * 1024, "ring > tree"));
    return chart;
}

/* ---- terminal --------------------------------------------------------------- */

static void ascii_stays_inside_its_width(void **state)
{
    (void)state;
    plot_chart *chart = busbw_chart();
    const int widths[] = {40, 60, 80, 100, 132, 200, 400};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        rendered r = render_terminal(chart, widths[i], false);
        assert_printable_ascii(r.text, r.length);
        int lines;
        /* The x axis spans the whole width: the chart uses all of it. */
        assert_int_equal(widest_line(r.text, r.length, &lines), widths[i]);
        assert_true(lines >= 14);
        assert_contains(r.text, "all-reduce busbw on 8 GPUs over nvlink5");
        assert_contains(r.text, "busbw (GB/s)");
        assert_contains(r.text, "message size (bytes)");
        assert_contains(r.text, "* ring");
        assert_contains(r.text, "o tree");
        assert_contains(r.text, "x measured (nccl-tests)");
        assert_contains(r.text, ": ring > tree: 4.19 MB");
        assert_contains(r.text, "- line rate: 900 GB/s");
        free(r.text);
    }
    /* Out-of-range widths are clamped, never overrun. */
    rendered narrow = render_terminal(chart, 5, false);
    int lines;
    assert_int_equal(widest_line(narrow.text, narrow.length, &lines), PLOT_MIN_WIDTH);
    free(narrow.text);
    rendered wide = render_terminal(chart, 100000, false);
    assert_int_equal(widest_line(wide.text, wide.length, &lines), PLOT_MAX_WIDTH);
    free(wide.text);
    plot_free(chart);
}

/* At 80 columns: the exact axis rows, decade ticks on the unit ladder, the
 * marker column and its label in the plot. */
static void ascii_axes_ticks_and_markers(void **state)
{
    (void)state;
    plot_chart *chart = busbw_chart();
    rendered r = render_terminal(chart, 80, false);
    char line[512];
    /* title, y label, 18 plot rows (80 / 4.5), axis, tick labels, x label. */
    assert_string_equal(line_of(r.text, 0, line, sizeof line),
                        "all-reduce busbw on 8 GPUs over nvlink5");
    assert_string_equal(line_of(r.text, 1, line, sizeof line), "busbw (GB/s)");
    /* y from 100 kB/s (the smallest busbw: 8 B in 28 us is 500 kB/s) to
     * 1,000 GB/s, 7 decades on 18 rows; the line rate dashed on the top row
     * (900 GB/s rounds there), its label right-aligned on the row below. */
    assert_true(strncmp(line_of(r.text, 2, line, sizeof line), "1,000 GB/s +- - - -", 19) == 0);
    assert_string_equal(line_of(r.text, 3, line, sizeof line) + 60, "line rate: 900 GB/s");
    assert_true(strncmp(line_of(r.text, 4, line, sizeof line), "  100 GB/s +  ", 14) == 0);
    assert_string_equal(line_of(r.text, 19, line, sizeof line), "  100 kB/s +");
    /* x from 1 B to 100 GB: a tick per decade, labels every 3 (the units). */
    assert_string_equal(line_of(r.text, 20, line, sizeof line),
                        "           ++-----+-----+-----+-----+-----+------+-----+-----+-----+-----+-----+");
    assert_string_equal(line_of(r.text, 21, line, sizeof line),
                        "           1 B              1 kB               1 MB              1 GB");
    assert_string_equal(line_of(r.text, 22, line, sizeof line),
                        "                                    message size (bytes)");
    /* The crossover: a dashed column at 4.19 MB (plot column 40 of 68, so
     * text column 52) on every other row. */
    for (int row = 6; row <= 18; row += 2)
        assert_int_equal(line_of(r.text, row, line, sizeof line)[52], ':');
    assert_contains(line_of(r.text, 4, line, sizeof line), ":ring > tree: 4.19 MB");
    free(r.text);
    plot_free(chart);
}

/* The whole chart, byte for byte, against tests/plot/: what a user sees
 * (regenerate a file only after looking at the new chart). */
static void charts_match_their_golden_files(void **state)
{
    (void)state;
    const struct {
        const char *file;
        int width;
        bool unicode;
    } cases[] = {{"tests/plot/busbw_ascii_80.txt", 80, false},
                 {"tests/plot/busbw_unicode_100.txt", 100, true}};
    plot_chart *chart = busbw_chart();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t length = 0;
        char *expected = test_read_file(test_source_path(cases[i].file), &length);
        rendered r = render_terminal(chart, cases[i].width, cases[i].unicode);
        if (r.length != length || memcmp(r.text, expected, length) != 0) {
            print_error("%s differs; now:\n%s", cases[i].file, r.text);
            fail();
        }
        free(expected);
        free(r.text);
    }
    plot_free(chart);
}

static void unicode_uses_braille_symbols_and_box_drawing(void **state)
{
    (void)state;
    plot_chart *chart = busbw_chart();
    const int widths[] = {40, 80, 160};
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        rendered r = render_terminal(chart, widths[i], true);
        int lines;
        assert_int_equal(widest_line(r.text, r.length, &lines), widths[i]);
        assert_contains(r.text, "\u25CF ring");
        assert_contains(r.text, "\u25A0 tree");
        assert_contains(r.text, "\u25B2 measured (nccl-tests)");
        assert_contains(r.text, "\u250A ring > tree: 4.19 MB");
        assert_contains(r.text, "\u2504 line rate: 900 GB/s");
        assert_contains(r.text, "\u2514");      /* axis corner */
        /* Braille (U+2800..U+28FF: E2 A0..A3 xx) joins the line series. */
        bool braille = false;
        for (size_t k = 0; k + 1 < r.length; k++)
            braille |= (unsigned char)r.text[k] == 0xE2 && ((unsigned char)r.text[k + 1] & 0xFC) == 0xA0;
        assert_true(braille);
        free(r.text);
    }
    plot_free(chart);
}

/* Two points at (1, 1) and (1000, 1000): the axes are exactly those decades,
 * so the points sit in the plot's bottom-left and top-right cells. */
static void points_land_in_their_cells(void **state)
{
    (void)state;
    plot_chart *chart = plot_new(NULL);
    int s = plot_add_series(chart, "pair", PLOT_POINTS);
    assert_true(plot_add_point(chart, s, 1000, 1000));
    assert_true(plot_add_point(chart, s, 1, 1));
    rendered r = render_terminal(chart, 40, false);
    char line[256];
    /* No title, no y label: the plot starts on line 0; 9 rows (40 / 4.5). */
    const char *top = line_of(r.text, 0, line, sizeof line);
    assert_int_equal(strlen(top), 40);
    assert_string_equal(top + 39, "*");
    assert_true(strncmp(top, "1000 +", 6) == 0);
    const char *bottom = line_of(r.text, 8, line, sizeof line);
    assert_string_equal(bottom, "   1 +*");
    assert_string_equal(line_of(r.text, 10, line, sizeof line),
                        "      1         10         100      1000");
    free(r.text);
    plot_free(chart);
}

/* Two decades on 18 rows: 2x and 5x get labels too. */
static void few_decades_label_2x_and_5x(void **state)
{
    (void)state;
    plot_chart *chart = plot_new(NULL);
    plot_set_x_axis(chart, "GPUs", PLOT_UNIT_PLAIN);
    plot_set_y_axis(chart, "busbw (GB/s)", PLOT_UNIT_GBPS);
    int s = plot_add_series(chart, "tp=1", PLOT_LINE);
    for (int gpus = 2; gpus <= 4096; gpus *= 2)
        assert_true(plot_add_point(chart, s, gpus, 50.0 * (1 - 1.0 / (gpus + 1))));
    assert_true(plot_add_hmarker(chart, 900, "line rate"));
    rendered r = render_terminal(chart, 80, false);
    char line[256];
    const char *expected[] = {"1,000 GB/s +", "  500 GB/s +", "  200 GB/s +", "  100 GB/s +",
                              "   50 GB/s +", "   20 GB/s +", "   10 GB/s +"};
    const int rows[] = {1, 3, 7, 9, 12, 16, 18}; /* line 0 is the y label */
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        assert_true(strncmp(line_of(r.text, rows[i], line, sizeof line), expected[i],
                            strlen(expected[i])) == 0);
    assert_string_equal(line_of(r.text, 20, line, sizeof line),
                        "            1               10               100            1000           10000");
    free(r.text);
    plot_free(chart);
}

static void ascii_lines_join_their_points(void **state)
{
    (void)state;
    plot_chart *chart = plot_new("t");
    int s = plot_add_series(chart, "diagonal", PLOT_LINE);
    assert_true(plot_add_point(chart, s, 1, 1));
    assert_true(plot_add_point(chart, s, 1e6, 1e6));
    rendered r = render_terminal(chart, 80, false);
    /* A line glyph in every one of the 80 - 8 plot columns (8: "100000",
     * a space, the axis), and one in the legend. */
    assert_int_equal(count_of(r.text, "*"), 72 + 1);
    free(r.text);
    plot_free(chart);
}

static void empty_and_degenerate_charts_draw(void **state)
{
    (void)state;
    /* No series at all. */
    plot_chart *empty = plot_new("nothing yet");
    rendered r = render_terminal(empty, 80, false);
    assert_contains(r.text, "no data to plot");
    int lines;
    assert_int_equal(widest_line(r.text, r.length, &lines), 80);
    free(r.text);
    r = render_svg(empty);
    assert_contains(r.text, "no data to plot");
    free(r.text);
    plot_free(empty);

    /* One point; all-equal values; values at the ends of double's range. */
    const double cases[][2] = {{1, 1}, {100, 100}, {7e-9, 3e12}, {1e-300, 1e300},
                               {1.7e308, 4.9e-324}, {5e-324, 1.7e308}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        plot_chart *chart = plot_new("one");
        plot_set_x_axis(chart, "size", PLOT_UNIT_BYTES);
        plot_set_y_axis(chart, "time", PLOT_UNIT_TIME_US);
        int s = plot_add_series(chart, "a", PLOT_LINE);
        int t = plot_add_series(chart, "b", PLOT_POINTS);
        assert_true(plot_add_point(chart, s, cases[i][0], cases[i][1]));
        for (int k = 0; k < 3; k++)
            assert_true(plot_add_point(chart, t, cases[i][0], cases[i][0]));
        for (int unicode = 0; unicode < 2; unicode++) {
            r = render_terminal(chart, 80, unicode != 0);
            assert_int_equal(widest_line(r.text, r.length, &lines), 80);
            assert_lacks(r.text, "nan");
            assert_lacks(r.text, "inf");
            free(r.text);
        }
        r = render_svg(chart);
        assert_lacks(r.text, "nan");
        assert_lacks(r.text, "inf");
        free(r.text);
        plot_free(chart);
    }

    /* Huge ranges on both axes: 1e-9 .. 1e12 thins the labels. */
    plot_chart *huge = plot_new("huge");
    plot_set_x_axis(huge, "x", PLOT_UNIT_PLAIN);
    plot_set_y_axis(huge, "y", PLOT_UNIT_GBPS);
    int s = plot_add_series(huge, "wide", PLOT_LINE);
    for (int e = -9; e <= 12; e++)
        assert_true(plot_add_point(huge, s, pow(10, e), pow(10, -e)));
    r = render_terminal(huge, 40, false);
    assert_int_equal(widest_line(r.text, r.length, &lines), 40);
    assert_contains(r.text, "1e10");
    assert_contains(r.text, "1,000,000 GB/s");
    free(r.text);
    plot_free(huge);
}

static void bad_points_are_skipped_and_counted(void **state)
{
    (void)state;
    plot_chart *chart = plot_new("skips");
    int s = plot_add_series(chart, "a", PLOT_LINE);
    assert_false(plot_add_point(chart, s, 0, 1));
    assert_false(plot_add_point(chart, s, 1, -1));
    assert_false(plot_add_point(chart, s, NAN, 1));
    assert_false(plot_add_point(chart, s, 1, INFINITY));
    assert_false(plot_add_point(chart, s, -INFINITY, 1));
    assert_true(plot_add_point(chart, s, 10, 10));
    assert_false(plot_add_point(chart, 1, 10, 10)); /* no such series */
    assert_false(plot_add_point(chart, -1, 10, 10));
    assert_int_equal(plot_point_count(chart, s), 1);
    assert_int_equal(plot_skipped_count(chart, s), 5);
    assert_false(plot_add_vmarker(chart, 0, "zero"));
    assert_false(plot_add_hmarker(chart, NAN, "nan"));
    rendered r = render_terminal(chart, 80, false);
    assert_contains(r.text, "(5 points not drawn: zero, negative or not finite)");
    assert_lacks(r.text, "nan");
    free(r.text);
    plot_free(chart);
}

static void limits_hold(void **state)
{
    (void)state;
    plot_chart *chart = plot_new("limits");
    for (int i = 0; i < PLOT_MAX_SERIES; i++)
        assert_int_equal(plot_add_series(chart, "s", PLOT_LINE), i);
    assert_int_equal(plot_add_series(chart, "one too many", PLOT_LINE), -1);
    assert_int_equal(plot_series_count(chart), PLOT_MAX_SERIES);
    for (int i = 0; i < PLOT_MAX_POINTS; i++)
        assert_true(plot_add_point(chart, 3, 1.0 + i, 1.0 + i * 0.5));
    assert_false(plot_add_point(chart, 3, 1e9, 1));
    assert_int_equal(plot_point_count(chart, 3), PLOT_MAX_POINTS);
    for (int i = 0; i < PLOT_MAX_MARKERS; i++) {
        assert_true(plot_add_vmarker(chart, 10.0 * (i + 1), "v"));
        assert_true(plot_add_hmarker(chart, 10.0 * (i + 1), "h"));
    }
    assert_false(plot_add_vmarker(chart, 5, "v"));
    assert_false(plot_add_hmarker(chart, 5, "h"));
    /* Sixteen distinct glyphs in the legend. */
    rendered r = render_terminal(chart, 200, false);
    const char *glyphs = "*ox#@%&$=~^svzwm";
    for (const char *g = glyphs; *g != '\0'; g++) {
        char entry[4] = {*g, ' ', 's', '\0'};
        assert_contains(r.text, entry);
    }
    free(r.text);
    r = render_svg(chart);
    assert_int_equal(count_of(r.text, "<polyline"), 1); /* only series 3 has points */
    free(r.text);
    plot_free(chart);

    /* NULL everywhere is refused, not a crash. */
    assert_int_equal(plot_add_series(NULL, "x", PLOT_LINE), -1);
    assert_false(plot_add_point(NULL, 0, 1, 1));
    assert_false(plot_add_vmarker(NULL, 1, "x"));
    assert_int_equal(plot_terminal(NULL, stdout, 80, false), -1);
    assert_int_equal(plot_svg(NULL, stdout), -1);
    assert_true(plot_failed(NULL));
    plot_set_x_axis(NULL, "x", PLOT_UNIT_BYTES);
    plot_free(NULL);
}

static void labels_are_shown_safely(void **state)
{
    (void)state;
    char long_label[300];
    memset(long_label, 'a', sizeof long_label - 1);
    long_label[sizeof long_label - 1] = '\0';
    plot_chart *chart = plot_new("gr\xC3\xB6\xC3\x9F" "e \x1B[31mred");
    plot_set_x_axis(chart, "size <bytes> & more", PLOT_UNIT_BYTES);
    plot_set_y_axis(chart, "\"time\" 'us'", PLOT_UNIT_TIME_US);
    int a = plot_add_series(chart, "a<b>&c", PLOT_LINE);
    int b = plot_add_series(chart, long_label, PLOT_POINTS);
    int c = plot_add_series(chart, "bad \xFF\xC0\x80 utf8", PLOT_POINTS);
    assert_true(plot_add_point(chart, a, 8, 1));
    assert_true(plot_add_point(chart, b, 800, 100));
    assert_true(plot_add_point(chart, c, 80, 10));
    assert_true(plot_add_vmarker(chart, 64, "x<y"));

    rendered r = render_terminal(chart, 80, false);
    assert_printable_ascii(r.text, r.length);
    assert_contains(r.text, "gr??e ?[31mred"); /* no escape reaches the terminal */
    assert_contains(r.text, "bad ??? utf8");
    free(r.text);
    r = render_terminal(chart, 80, true);
    int lines;
    assert_int_equal(widest_line(r.text, r.length, &lines), 80);
    assert_contains(r.text, "gr\xC3\xB6\xC3\x9F" "e ?[31mred");
    free(r.text);

    r = render_svg(chart);
    assert_contains(r.text, "gr\xC3\xB6\xC3\x9F" "e ?[31mred");
    assert_contains(r.text, "size &lt;bytes&gt; &amp; more");
    assert_contains(r.text, "&quot;time&quot; &apos;us&apos;");
    assert_contains(r.text, ">a&lt;b&gt;&amp;c<");
    assert_contains(r.text, "x&lt;y: 64 B");
    assert_contains(r.text, "bad ??? utf8");
    assert_lacks(r.text, "a<b>");
    /* Labels are cut at PLOT_LABEL_MAX - 1 bytes. */
    char kept[PLOT_LABEL_MAX + 2];
    memset(kept, 'a', PLOT_LABEL_MAX - 1);
    kept[PLOT_LABEL_MAX - 1] = '<';
    kept[PLOT_LABEL_MAX] = '\0';
    assert_contains(r.text, kept);
    free(r.text);
    plot_free(chart);

    /* A cut never splits a UTF-8 character. */
    char accents[2 * PLOT_LABEL_MAX + 1];
    for (size_t i = 0; i + 1 < sizeof accents; i += 2) {
        accents[i] = (char)0xC3;
        accents[i + 1] = (char)0xA9;
    }
    accents[sizeof accents - 1] = '\0';
    plot_chart *cut = plot_new(NULL);
    plot_add_series(cut, accents + 1, PLOT_LINE); /* starts mid-character too */
    plot_add_point(cut, 0, 1, 1);
    r = render_terminal(cut, 200, true);
    assert_int_equal(widest_line(r.text, r.length, &lines), 200);
    free(r.text);
    plot_free(cut);
}

/* ---- SVG -------------------------------------------------------------------- */

static void svg_carries_every_text(void **state)
{
    (void)state;
    plot_chart *chart = busbw_chart();
    rendered r = render_svg(chart);
    assert_true(strncmp(r.text, "<?xml version=\"1.0\" encoding=\"UTF-8\"", 36) == 0);
    assert_contains(r.text, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"");
    assert_contains(r.text, "viewBox=\"0 0 ");
    assert_contains(r.text, ">all-reduce busbw on 8 GPUs over nvlink5</text>");
    assert_contains(r.text, ">message size (bytes)</text>");
    assert_contains(r.text, ">busbw (GB/s)</text>");
    assert_contains(r.text, ">ring</text>");
    assert_contains(r.text, ">tree</text>");
    assert_contains(r.text, ">measured (nccl-tests)</text>");
    assert_contains(r.text, ">line rate: 900 GB/s</text>");
    assert_contains(r.text, ">ring &gt; tree: 4.19 MB</text>");
    assert_contains(r.text, ">1 kB</text>");
    assert_contains(r.text, ">1 GB</text>");
    assert_contains(r.text, ">100 GB/s</text>");
    assert_int_equal(count_of(r.text, "<polyline"), 2);
    /* 32 + 32 small dots on the lines, 16 + 1 legend circles for measurements. */
    assert_int_equal(count_of(r.text, "<circle"), 32 + 32 + 16 + 3);
    assert_lacks(r.text, "<script");
    assert_lacks(r.text, "href");
    assert_lacks(r.text, "nan");
    assert_lacks(r.text, "inf");
    size_t n = strlen("</svg>\n");
    assert_true(r.length > n && strcmp(r.text + r.length - n, "</svg>\n") == 0);
    free(r.text);
    plot_free(chart);
}

/* Reads the 4-byte big-endian integer at offset. */
static unsigned long be32(const unsigned char *p)
{
    return ((unsigned long)p[0] << 24) | ((unsigned long)p[1] << 16) | ((unsigned long)p[2] << 8) |
           p[3];
}

/* Renders an SVG with rsvg-convert and checks the PNG: signature, the
 * size the svg element declares, and more than a blank page's bytes. */
static void assert_renders(const plot_chart *chart)
{
    char svg_path[] = "/tmp/collcalc-plot-XXXXXX";
    int fd = mkstemp(svg_path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    assert_non_null(out);
    assert_int_equal(plot_svg(chart, out), 0);
    assert_int_equal(fclose(out), 0);

    char png_path[64], command[256];
    /* A strict XML parser, when there is one (libxml2-utils), must accept it. */
    if (system("command -v xmllint >/dev/null 2>&1") == 0) {
        snprintf(command, sizeof command, "xmllint --noout '%s'", svg_path);
        assert_int_equal(system(command), 0);
    }
    snprintf(png_path, sizeof png_path, "%s.png", svg_path);
    snprintf(command, sizeof command, "rsvg-convert -o '%s' '%s' 2>&1", png_path, svg_path);
    int status = system(command);
    assert_int_equal(status, 0);

    size_t svg_length = 0, png_length = 0;
    char *svg = test_read_file(svg_path, &svg_length);
    unsigned char *png = (unsigned char *)test_read_file(png_path, &png_length);
    assert_true(png_length > 2000);
    assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
    unsigned long width = 0, height = 0;
    const char *attributes = strstr(svg, "width=\"");
    assert_non_null(attributes);
    assert_int_equal(sscanf(attributes, "width=\"%lu\" height=\"%lu\"", &width, &height), 2);
    assert_int_equal(be32(png + 16), width); /* IHDR */
    assert_int_equal(be32(png + 20), height);
    free(svg);
    free(png);
    unlink(svg_path);
    unlink(png_path);
}

static void svg_renders_with_rsvg(void **state)
{
    (void)state;
    if (system("command -v rsvg-convert >/dev/null 2>&1") != 0)
        skip();
    plot_chart *chart = busbw_chart();
    assert_renders(chart);
    plot_free(chart);

    plot_chart *empty = plot_new("no series & <nothing>");
    assert_renders(empty);
    plot_free(empty);

    plot_chart *odd = plot_new("a<b>&\"c\" \xFF");
    plot_set_x_axis(odd, "x & y", PLOT_UNIT_PLAIN);
    int s = plot_add_series(odd, "<tag>", PLOT_POINTS);
    plot_add_point(odd, s, 1e-9, 1e12);
    plot_add_point(odd, s, 1e12, 1e-9);
    plot_add_vmarker(odd, 1, "</svg>");
    plot_add_hmarker(odd, 1, "]]>");
    assert_renders(odd);
    plot_free(odd);
}

/* ---- random charts ---------------------------------------------------------- */

static uint64_t next_random(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* Any values at all: every render stays inside its width, valid and free of
 * nan and inf. */
static void random_charts_stay_bounded(void **state)
{
    (void)state;
    uint64_t seed = 42;
    const double specials[] = {0, -1, NAN, INFINITY, 5e-324, 1.7e308, 1, 1e-300};
    for (int round = 0; round < 60; round++) {
        plot_chart *chart = plot_new("random");
        plot_set_x_axis(chart, "x", (plot_unit)(next_random(&seed) % 4));
        plot_set_y_axis(chart, "y", (plot_unit)(next_random(&seed) % 4));
        int series = (int)(next_random(&seed) % 5);
        for (int s = 0; s < series; s++) {
            plot_add_series(chart, "s", next_random(&seed) % 2 ? PLOT_LINE : PLOT_POINTS);
            int points = (int)(next_random(&seed) % 50);
            for (int k = 0; k < points; k++) {
                double v[2];
                for (int j = 0; j < 2; j++) {
                    uint64_t pick = next_random(&seed) % 10;
                    v[j] = pick < 8 ? pow(10, (double)(next_random(&seed) % 600) - 300) *
                                          (1 + (double)(next_random(&seed) % 100) / 10)
                                    : specials[next_random(&seed) % 8];
                }
                plot_add_point(chart, s, v[0], v[1]);
            }
        }
        if (next_random(&seed) % 2)
            plot_add_vmarker(chart, pow(10, (double)(next_random(&seed) % 40) - 20), "v");
        if (next_random(&seed) % 2)
            plot_add_hmarker(chart, pow(10, (double)(next_random(&seed) % 40) - 20), "h");
        int width = 30 + (int)(next_random(&seed) % 200);
        int expected = width < PLOT_MIN_WIDTH ? PLOT_MIN_WIDTH : width;
        for (int unicode = 0; unicode < 2; unicode++) {
            rendered r = render_terminal(chart, width, unicode != 0);
            int lines;
            assert_true(widest_line(r.text, r.length, &lines) <= expected);
            assert_lacks(r.text, "nan");
            assert_lacks(r.text, "inf");
            free(r.text);
        }
        rendered r = render_svg(chart);
        assert_lacks(r.text, "nan");
        assert_lacks(r.text, "inf");
        free(r.text);
        plot_free(chart);
    }
}

/* ---- the terminal ----------------------------------------------------------- */

static void terminal_width_from_columns(void **state)
{
    (void)state;
    /* Without COLUMNS the terminal decides; under ctest there is none. */
    bool tty = isatty(STDOUT_FILENO);
    unsetenv("COLUMNS");
    if (!tty)
        assert_int_equal(plot_terminal_width(), 80);
    const struct {
        const char *value;
        int width;
    } cases[] = {{"132", 132}, {"80", 80}, {"", 80},     {"abc", 80}, {"12x", 80}, {"-5", 80},
                 {"0", 80},    {"20", 40}, {"100000", 400}, {"99999999999999999999", 80}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setenv("COLUMNS", cases[i].value, 1);
        if (!tty || cases[i].width != 80)
            assert_int_equal(plot_terminal_width(), cases[i].width);
    }
    unsetenv("COLUMNS");
}

static void utf8_locale_from_environment(void **state)
{
    (void)state;
    const struct {
        const char *lc_all, *lc_ctype, *lang;
        bool utf8;
    } cases[] = {
        {NULL, NULL, NULL, false},
        {NULL, NULL, "en_US.UTF-8", true},
        {NULL, NULL, "en_US.utf8", true},
        {NULL, NULL, "C", false},
        {"", "", "de_DE.Utf-8", true},
        {"C", NULL, "en_US.UTF-8", false}, /* LC_ALL wins */
        {NULL, "C.UTF-8", "C", true},      /* then LC_CTYPE */
        {NULL, "POSIX", "en_US.UTF-8", false},
        {"en_GB.ISO-8859-1", NULL, NULL, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *names[3] = {"LC_ALL", "LC_CTYPE", "LANG"};
        const char *values[3] = {cases[i].lc_all, cases[i].lc_ctype, cases[i].lang};
        for (int k = 0; k < 3; k++) {
            if (values[k] == NULL)
                unsetenv(names[k]);
            else
                setenv(names[k], values[k], 1);
        }
        assert_int_equal(plot_utf8_locale(), cases[i].utf8);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ascii_stays_inside_its_width),
        cmocka_unit_test(ascii_axes_ticks_and_markers),
        cmocka_unit_test(charts_match_their_golden_files),
        cmocka_unit_test(unicode_uses_braille_symbols_and_box_drawing),
        cmocka_unit_test(points_land_in_their_cells),
        cmocka_unit_test(few_decades_label_2x_and_5x),
        cmocka_unit_test(ascii_lines_join_their_points),
        cmocka_unit_test(empty_and_degenerate_charts_draw),
        cmocka_unit_test(bad_points_are_skipped_and_counted),
        cmocka_unit_test(limits_hold),
        cmocka_unit_test(labels_are_shown_safely),
        cmocka_unit_test(svg_carries_every_text),
        cmocka_unit_test(svg_renders_with_rsvg),
        cmocka_unit_test(random_charts_stay_bounded),
        cmocka_unit_test(terminal_width_from_columns),
        cmocka_unit_test(utf8_locale_from_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
