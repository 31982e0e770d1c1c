/* collcalc compare: algorithms side by side across sizes with the sizes
 * where the fastest one changes (ring vs tree), or links / cluster
 * placements side by side with the ratio between them (NVLink vs
 * InfiniBand, TP inside an NVL72 rack vs across HGX nodes). */
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "commands.h"
#include "compare_doc.h"
#include "request.h"
#include "sizes.h"

enum { MAX_CONFIGS = COMPARE_SIDES_MAX };

/* ---- links and placements -------------------------------------------------------- */

/* Options that describe one cluster: with --placement each placement says
 * them itself, so they may not stand beside it. */
static const option_id PER_CLUSTER[] = {OPT_LINK, OPT_PLATFORM, OPT_NODES, OPT_GPUS_PER_NODE,
                                        OPT_INTRA, OPT_INTER, OPT_NICS_PER_NODE, OPT_NICS_PER_GPU,
                                        OPT_NVLS, OPT_NO_NVLS, OPT_SHARP, OPT_BW, OPT_ALPHA};

/* The sides of request (its cluster the options every side shares). */
static int build_configs(cli_context *ctx, const collcalc_request *request, compare_side *configs,
                         int *out_count)
{
    int count = 0;
    int placements = ctx->args.count[OPT_PLACEMENT];
    collcalc_request side = *request;
    if (placements > 0) {
        for (size_t i = 0; i < sizeof PER_CLUSTER / sizeof PER_CLUSTER[0]; i++)
            if (arg_given(&ctx->args, PER_CLUSTER[i]))
                return cli_usage_error(ctx, cli_spelled(ctx, PER_CLUSTER[i]),
                                       "with --placement, say it inside each placement "
                                       "(e.g. --placement platform=hgx-h100,nodes=2)");
        if (placements > MAX_CONFIGS)
            return cli_usage_error(ctx, "--placement", "at most %d placements", MAX_CONFIGS);
        for (int i = 0; i < placements; i++) {
            collcalc_placement placement;
            collcalc_diag diag;
            if (collcalc_placement_parse(ctx->args.values[OPT_PLACEMENT][i], &placement, &diag) !=
                COLLCALC_OK)
                return cli_usage_error(ctx, NULL, "%s", diag.message);
            side.cluster = request->cluster;
            collcalc_cluster_spec_overlay(&side.cluster, &placement.spec);
            int code = request_prepare(ctx, &side, &configs[count].prepared);
            if (code != 0)
                return code;
            snprintf(configs[count].label, sizeof configs[count].label, "%s", placement.label);
            count++;
        }
    } else {
        int links = ctx->args.count[OPT_LINK];
        if (links > MAX_CONFIGS)
            return cli_usage_error(ctx, "--link", "at most %d links", MAX_CONFIGS);
        for (int i = 0; i < links; i++) {
            side.cluster = request->cluster;
            snprintf(side.cluster.link, sizeof side.cluster.link, "%s",
                     ctx->args.values[OPT_LINK][i]);
            int code = request_prepare(ctx, &side, &configs[count].prepared);
            if (code != 0)
                return code;
            snprintf(configs[count].label, sizeof configs[count].label, "%s",
                     configs[count].prepared.query.cluster.intra.name);
            count++;
        }
    }
    *out_count = count;
    return 0;
}

/* The sides' document, rendered. */
static int compare_sides(cli_context *ctx, const collcalc_request *request,
                         const compare_side *sides, int side_count, const uint64_t *sizes,
                         int size_count, collcalc_answer *answer)
{
    document *doc = doc_new(ctx->name);
    const char *field = NULL;
    collcalc_diag diag;
    collcalc_status status = doc == NULL ? COLLCALC_ERR_NOMEM
                                         : compare_doc_sides(doc, request, sides, side_count,
                                                             sizes, size_count, answer, &field,
                                                             &diag);
    if (status == COLLCALC_OK)
        return cli_emit(ctx, doc);
    doc_free(doc);
    if (field != NULL && field[0] == '\0')
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    return request_error(ctx, status, field, &diag);
}

/* One cluster: NCCL's candidates, or the algorithms side by side; the
 * chart handed over when asked for. */
static int compare_one(cli_context *ctx, const collcalc_prepared *prepared, bool nccl,
                       const uint64_t *sizes, int size_count, const chart_request *charts)
{
    document *doc = doc_new(ctx->name);
    if (doc == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    plot_chart *chart = NULL;
    collcalc_diag diag;
    collcalc_status status =
        nccl ? compare_doc_nccl(doc, prepared, sizes, size_count, chart_wanted(charts), &chart,
                                &diag)
             : compare_doc_algorithms(doc, prepared, sizes, size_count, chart_wanted(charts),
                                      &chart, &diag);
    int code = 0;
    if (status != COLLCALC_OK && (nccl || strncmp(diag.message, "size_bytes:", 11) == 0))
        code = request_model_error(ctx, status, true, &diag);
    else if (status != COLLCALC_OK)
        code = status == COLLCALC_ERR_UNSUPPORTED
                   ? cli_usage_error(ctx, "--algo", "%s", diag.message)
                   : cli_data_error(ctx, NULL, "%s", diag.message);
    if (code == 0 && chart_wanted(charts))
        code = chart_finish(ctx, charts, doc, chart);
    if (code != 0) {
        doc_free(doc);
        return code;
    }
    return cli_emit(ctx, doc);
}

/* ---- the command ------------------------------------------------------------------ */

int cmd_compare(cli_context *ctx)
{
    collcalc_op op = COLLCALC_OP_ALLREDUCE;
    int code = cli_operation(ctx, &op);
    if (code != 0)
        return code;
    uint64_t sizes[MAX_SWEEP_SIZES];
    int size_count = 0;
    chart_request charts;
    code = chart_options(ctx, &charts);
    /* A chart wants a curve: by default every power of two, 1 KiB .. 1 GiB. */
    if (code == 0)
        code = sizes_expand(ctx, chart_wanted(&charts) ? "1K..1G" : "64KB,1MB,100MB,1GB", 8,
                            1ULL << 30, sizes, &size_count);
    bool many_links = ctx->args.count[OPT_LINK] > 1;
    bool placements = ctx->args.count[OPT_PLACEMENT] > 0;
    cli_request request;
    if (code == 0)
        code = request_from_args(ctx, op, true, &request);
    else
        memset(&request, 0, sizeof request);
    if (code == 0 && many_links && placements)
        code = cli_usage_error(ctx, "--placement", "compare links or placements, not both");
    if (code == 0 && (many_links || placements) && chart_wanted(&charts))
        code = cli_usage_error(ctx, "--plot",
                               "charts compare algorithms for now; drop --link/--placement or "
                               "the chart");
    if (code == 0 && (many_links || placements)) {
        /* The shared settings only; each side adds its own cluster. */
        request.request.cluster.link[0] = '\0';
        compare_side *configs = malloc(MAX_CONFIGS * sizeof *configs);
        collcalc_answer *answer = malloc(sizeof *answer);
        int config_count = 0;
        code = configs == NULL || answer == NULL ? cli_data_error(ctx, NULL, "out of memory")
                                                 : build_configs(ctx, &request.request, configs,
                                                                 &config_count);
        if (code == 0)
            code = compare_sides(ctx, &request.request, configs, config_count, sizes, size_count,
                                 answer);
        free(configs);
        free(answer);
        request_free(&request);
        return code;
    }
    collcalc_prepared *prepared = malloc(sizeof *prepared);
    if (code == 0 && prepared == NULL)
        code = cli_data_error(ctx, NULL, "out of memory");
    if (code == 0)
        code = request_prepare(ctx, &request.request, prepared);
    request_free(&request);
    bool nccl = code == 0 && prepared->model == COLLCALC_COST_MODEL_NCCL;
    if (nccl && prepared->layers * prepared->per_layer > 1)
        code = cli_usage_error(ctx, arg_given(&ctx->args, OPT_LAYERS) ? "--layers" : "--per-layer",
                               "totals are for the alpha-beta comparison (--cost-model "
                               "alpha-beta); NCCL's tuner view compares one call");
    if (code == 0)
        code = compare_one(ctx, prepared, nccl, sizes, size_count, &charts);
    free(prepared);
    return code;
}
