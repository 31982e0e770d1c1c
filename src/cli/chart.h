/* --plot, --svg FILE and --width for the commands that draw curves (sweep,
 * compare, check): the chart is built by the command, drawn for people by
 * the table renderer, and written as SVG on request. */
#ifndef COLLCALC_CLI_CHART_H
#define COLLCALC_CLI_CHART_H

#include <stdbool.h>

#include "context.h"
#include "plot.h"
#include "record.h"

typedef struct {
    bool plot;            /* --plot */
    const char *svg_path; /* --svg FILE, or NULL */
    int width;            /* columns for --plot */
    bool unicode;
} chart_request;

/* Reads the options; --plot outside the table format is a usage error.
 * Returns 0 or an exit code. */
int chart_options(cli_context *ctx, chart_request *out);

/* True when a chart is wanted at all. */
bool chart_wanted(const chart_request *request);

/* Hands the chart over: into doc for --plot, to the SVG file for --svg.
 * Takes ownership of chart (NULL is fine). Returns 0 or an exit code. */
int chart_finish(cli_context *ctx, const chart_request *request, document *doc, plot_chart *chart);

#endif
