/* Charts for the commands (chart.h). */
#include "chart.h"

#include <string.h>

#include "output_target.h"

int chart_options(cli_context *ctx, chart_request *out)
{
    memset(out, 0, sizeof *out);
    out->plot = arg_given(&ctx->args, OPT_PLOT);
    out->svg_path = arg_value(&ctx->args, OPT_SVG);
    if (out->plot && ctx->format != FORMAT_TABLE)
        return cli_usage_error(ctx, "--plot",
                               "draws for people, in the table format; with --format json or csv "
                               "use --svg FILE");
    if (out->plot && out->svg_path != NULL && strcmp(out->svg_path, "-") == 0)
        return cli_usage_error(ctx, "--plot",
                               "--svg - writes the SVG on standard output in place of the "
                               "report, which --plot would draw into");
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
        output_file file;
        code = output_target_open(ctx, OPT_SVG, request->svg_path, &file);
        if (code == 0 && plot_svg(chart, file.file) != 0) {
            output_file_abort(&file);
            code = cli_data_error(ctx, request->svg_path, "out of memory drawing the SVG");
        } else if (code == 0) {
            code = output_target_commit(ctx, request->svg_path, "the SVG", &file);
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
