/* collcalc check: reads a paste (nccl-tests output, NCCL_DEBUG lines,
 * topology matrices), resolves the cluster of each run from the options or
 * the run's own words, and renders check's document (src/output/check_doc.c):
 * measured against predicted, a verdict per run, how the runs compare. */
#include <stdlib.h>
#include <string.h>

#include "check_doc.h"
#include "collcalc/nccl_check.h"
#include "collcalc/paste.h"
#include "chart.h"
#include "commands.h"
#include "findings_out.h"
#include "inputs.h"
#include "nccl_setup.h"
#include "request.h"

typedef struct {
    cli_context *ctx;
    nccl_setup setup; /* the model of the run being judged */
    collcalc_nccl_tests_run run; /* a run given its rank count by --gpus */
    bool several_runs;           /* a paste of several runs: --nodes may fit only some */
} check_state;

/* Which cluster the run was on: the options, else the run's own words
 * (collcalc_run_cluster). */
static int find_platform(cli_context *ctx, const collcalc_nccl_tests_run *run,
                         bool several_runs, const collcalc_platform *on,
                         const collcalc_platform **out, int *nodes, int *gpus_per_node,
                         char *shape_problem, size_t shape_problem_size)
{
    const collcalc_platform_table *platforms;
    int code = cli_platforms(ctx, &platforms);
    const char *name = arg_value(&ctx->args, OPT_PLATFORM);
    const collcalc_platform *named = NULL;
    if (code == 0 && name != NULL)
        code = cli_platform_named(ctx, name, &named);
    long given_nodes = 0;
    if (code == 0)
        code = cli_count(ctx, OPT_NODES, 1, 1L << 20, &given_nodes);
    const char *field = NULL;
    collcalc_diag diag;
    if (code == 0 && collcalc_run_cluster(platforms, named, on, given_nodes, several_runs, run, out,
                                          nodes, gpus_per_node, shape_problem, shape_problem_size,
                                          &field, &diag) != COLLCALC_OK)
        code = request_error(ctx, COLLCALC_ERR_INVALID, field, &diag);
    return code;
}

/* check_hooks.model: NCCL's model of the cluster the run was on. */
static int run_model(void *context, const collcalc_nccl_tests_run *run, bool modelled,
                     const collcalc_platform *on, check_model *out)
{
    check_state *state = context;
    cli_context *ctx = state->ctx;
    int nodes = 1, gpus_per_node = 1;
    const collcalc_platform *platform = NULL;
    long given_ranks = 0;
    int code = cli_count(ctx, OPT_GPUS, 1, 1L << 20, &given_ranks);
    if (code != 0)
        return code;
    if (run->ranks <= 0 && given_ranks > 0) { /* an NCCL log that does not say its ranks */
        state->run = *run;
        state->run.ranks = (int)given_ranks;
        run = &state->run;
    }
    char shape_problem[sizeof out->shape_problem];
    code = find_platform(ctx, run, state->several_runs, on, &platform, &nodes, &gpus_per_node,
                         shape_problem, sizeof shape_problem);
    if (code != 0)
        return code;
    memset(out, 0, sizeof *out);
    memcpy(out->shape_problem, shape_problem, sizeof shape_problem);
    out->platform = platform;
    out->guessed = arg_value(&ctx->args, OPT_PLATFORM) == NULL;
    if (cli_platforms(ctx, &out->platforms) != 0)
        out->platforms = NULL;
    out->nodes = nodes;
    out->gpus_per_node = gpus_per_node;
    if (platform == NULL || run->ranks <= 0 || !modelled || shape_problem[0] != '\0')
        return 0;
    collcalc_nccl_launch launch = collcalc_run_launch(run, nodes, platform);
    nccl_setup *setup = &state->setup;
    code = nccl_setup_build(ctx, platform, nodes, gpus_per_node,
                            run->nccl_version[0] ? run->nccl_version : NULL, launch, setup);
    if (code != 0)
        return code;
    if (run->graph > 0)
        setup->system.cuda_graph = true;
    const collcalc_link_table *links;
    if (cli_links(ctx, &links) == 0)
        out->line_rate_GBps = collcalc_check_line_rate_GBps(
            platform, collcalc_link_table_find(links, platform->intra_link),
            collcalc_link_table_find(links, platform->inter_link), nodes, gpus_per_node);
    out->system = &setup->system;
    out->constants = setup->constants;
    out->options = &setup->options;
    return 0;
}

static void run_warn(void *context, const char *message)
{
    cli_warn(((check_state *)context)->ctx, "%s", message);
}

int cmd_check(cli_context *ctx)
{
    const char *path;
    chart_request charts;
    int code = chart_options(ctx, &charts);
    if (code == 0)
        code = input_operand(ctx, &path);
    collcalc_paste_result paste;
    memset(&paste, 0, sizeof paste);
    if (code == 0)
        code = read_paste(ctx, path, &paste);
    if (code != 0)
        return code;
    const char *shown = input_shown(path);
    size_t read_runs = 0, index = 0;
    for (size_t i = 0; i < paste.run_count; i++)
        if (paste.runs[i].read) {
            read_runs++;
            index = i;
        }
    if (paste.run_count == 1 && read_runs == 0) {
        code = cli_data_error(ctx, shown, "%s", paste.runs[0].error);
        collcalc_paste_result_free(&paste);
        return code;
    }
    check_state *state = malloc(sizeof *state);
    document *doc = doc_new(ctx->name);
    if (state == NULL || doc == NULL) {
        free(state);
        doc_free(doc);
        collcalc_paste_result_free(&paste);
        return cli_data_error(ctx, NULL, "out of memory");
    }
    state->ctx = ctx;
    state->several_runs = paste.run_count > 1;
    check_hooks hooks = {state, run_model, run_warn};
    collcalc_diag diag;
    bool unhealthy = false;
    const char *verdict = NULL;
    plot_chart *chart = NULL;
    if (paste.run_count > 1)
        code = check_doc_runs(doc, shown, &paste, &hooks, &unhealthy, &diag);
    else if (read_runs == 1)
        code = check_doc_single(doc, shown, &paste, index, &hooks, chart_wanted(&charts), &chart,
                                &unhealthy, &verdict, &diag);
    else
        code = check_doc_other(doc, shown, &paste, &hooks, &unhealthy, &diag);
    collcalc_paste_result_free(&paste);
    free(state);
    if (code == CHECK_DOC_DATA_ERROR)
        code = cli_data_error(ctx, shown, "%s", diag.message);
    if (code == 0 && chart_wanted(&charts))
        code = chart_finish(ctx, &charts, doc, chart);
    if (code != 0) {
        doc_free(doc);
        return code;
    }
    code = cli_emit(ctx, doc);
    if (code == 0 && unhealthy && arg_given(&ctx->args, OPT_STRICT))
        code = verdict != NULL
                   ? cli_strict_failure(ctx, "%s: the verdict is %s, not healthy", shown, verdict)
                   : cli_strict_failure(ctx, "%s: not every run is healthy, or the runs differ, "
                                             "or an error was found",
                                        shown);
    return code;
}
