/* collcalc sweep: one collective over a range of sizes, one row per size,
 * optionally in nccl-tests' own layout so runs compare line by line. With a
 * platform the rows are NCCL's tuner's predictions (what nccl-tests would
 * print); otherwise the alpha-beta model's. */
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "commands.h"
#include "request.h"
#include "sizes.h"
#include "sweep_doc.h"

int cmd_sweep(cli_context *ctx)
{
    collcalc_op op = COLLCALC_OP_ALLREDUCE;
    int code = cli_operation(ctx, &op);
    const char *style = arg_value(&ctx->args, OPT_STYLE);
    bool nccl_style = false;
    if (code == 0 && style != NULL) {
        nccl_style = strcmp(style, "nccl-tests") == 0;
        if (!nccl_style && strcmp(style, "table") != 0)
            code = cli_usage_error(ctx, "--style", "unknown style '%.60s' (table or nccl-tests)",
                                   style);
        else if (nccl_style && ctx->format != FORMAT_TABLE)
            code = cli_usage_error(ctx, "--style",
                                   "nccl-tests is a layout for people; --format json/csv "
                                   "already carry its count, type, redop and root columns");
    }
    chart_request charts;
    if (code == 0)
        code = chart_options(ctx, &charts);
    uint64_t sizes[MAX_SWEEP_SIZES];
    int size_count = 0;
    if (code == 0)
        code = sizes_expand(ctx, NULL, 8, 1ULL << 30, sizes, &size_count);
    cli_request request;
    memset(&request, 0, sizeof request);
    if (code == 0)
        code = request_from_args(ctx, op, true, &request);
    /* (a sweep costs one call a size: repetitions are the single command's) */
    request.request.layers = request.request.per_layer = 1;
    collcalc_prepared *setup = malloc(sizeof *setup);
    if (code == 0 && setup == NULL)
        code = cli_data_error(ctx, NULL, "out of memory");
    if (code == 0)
        code = request_prepare(ctx, &request.request, setup);
    request_free(&request);
    size_t algo_count = code == 0 ? setup->algo_count : 0;
    if (code == 0 && nccl_style && algo_count > 1)
        code = cli_usage_error(ctx, "--algo", "the nccl-tests layout shows one algorithm");
    document *doc = code == 0 ? doc_new(ctx->name) : NULL;
    if (code == 0 && doc == NULL)
        code = cli_data_error(ctx, NULL, "out of memory");
    plot_chart *chart = NULL;
    if (code == 0) {
        bool refused = false;
        collcalc_diag diag;
        collcalc_status status = sweep_doc(doc, setup, sizes, size_count, nccl_style,
                                           chart_wanted(&charts), &chart, &refused, &diag);
        if (status != COLLCALC_OK)
            code = request_model_error(ctx, status, refused, &diag);
    }
    if (code == 0 && chart_wanted(&charts))
        code = chart_finish(ctx, &charts, doc, chart);
    free(setup);
    if (code != 0) {
        doc_free(doc);
        return code;
    }
    return cli_emit(ctx, doc);
}
