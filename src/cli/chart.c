/* Charts for the commands (chart.h). */
#include "chart.h"

#include <errno.h>
#include <string.h>

int chart_options(cli_context *ctx, chart_request *out)
{
    memset(out, 0, sizeof *out);
    out->plot = arg_given(&ctx->args, OPT_PLOT);
    out->svg_path = arg_value(&ctx->args, OPT_SVG);
    if (out->plot && ctx->format != FORMAT_TABLE)
        return cli_usage_error(ctx, "--plot",
                               "draws for people, in the table format; with --format json or csv "
                               "use --svg FILE");
    long width = 0;
    int code = cli_count(ctx, OPT_WIDTH, PLOT_MIN_WIDTH, PLOT_MAX_WIDTH, &width);
    if (code != 0)
        return code;
    if (arg_given(&ctx->args, OPT_WIDTH) && !out->plot)
        return cli_usage_error(ctx, "--width", "sets the width of --plot");
    out->width = width > 0 ? (int)width : plot_terminal_width();
    out->unicode = plot_utf8_locale();
    return 0;
}

bool chart_wanted(const chart_request *request)
{
    return request->plot || request->svg_path != NULL;
}

int chart_finish(cli_context *ctx, const chart_request *request, document *doc, plot_chart *chart)
{
    if (chart == NULL)
        return 0;
    if (plot_failed(chart)) {
        plot_free(chart);
        return cli_data_error(ctx, NULL, "out of memory drawing the chart");
    }
    int code = 0;
    if (request->svg_path != NULL) {
        FILE *file = fopen(request->svg_path, "w");
        if (file == NULL)
            code = cli_data_error(ctx, request->svg_path, "cannot write: %s", strerror(errno));
        else {
            int drawn = plot_svg(chart, file);
            if (fclose(file) != 0 || drawn != 0)
                code = cli_data_error(ctx, request->svg_path, "error writing the SVG");
        }
    }
    if (code == 0 && request->plot) {
        doc_text(doc, "%s", "");
        doc_chart(doc, chart, request->width, request->unicode);
        return 0;
    }
    plot_free(chart);
    return code;
}
