/* collcalc fit: reads one or more nccl-tests runs of one cluster, fits the
 * NCCL-faithful model's network step latency, bandwidth efficiency and
 * fabric efficiency to them (include/collcalc/fit.h), prints the fit with
 * its residuals, and writes a platforms overlay (--platforms FILE) whose
 * "nccl_fit" object the model reads back. Reads the runs the way check
 * does (src/cli/cmd_check.c). */
#include <stdlib.h>
#include <string.h>

#include "collcalc/fit.h"
#include "collcalc/nccl_tests_reader.h"
#include "commands.h"
#include "findings_out.h"
#include "fit_doc.h"
#include "inputs.h"
#include "nccl_setup.h"
#include "request.h"
#include "output_target.h"

/* The one platform of every run: --platform, else the first run's GPU. */
static int find_platform(cli_context *ctx, const collcalc_nccl_tests_run *first,
                         const collcalc_platform **out)
{
    const collcalc_platform_table *platforms;
    int code = cli_platforms(ctx, &platforms);
    if (code != 0)
        return code;
    const char *name = arg_value(&ctx->args, OPT_PLATFORM);
    if (name != NULL)
        return cli_platform_named(ctx, name, out);
    *out = collcalc_platform_guess(platforms, first->gpu_model, first->ranks_per_host);
    if (*out == NULL)
        return cli_usage_error(ctx, "--platform",
                               "the cluster is not known: give --platform (see 'collcalc "
                               "platforms')");
    return 0;
}

/* Nodes and GPUs per node of one run: --nodes, else the hosts it lists,
 * else as many full nodes as its ranks need. */
static int run_shape(cli_context *ctx, const char *path, const collcalc_nccl_tests_run *run,
                     const collcalc_platform *platform, int *nodes, int *gpus_per_node)
{
    long given = 0;
    int code = cli_count(ctx, OPT_NODES, 1, 1L << 20, &given);
    if (code != 0)
        return code;
    const char *field = NULL;
    collcalc_diag diag;
    if (collcalc_run_shape(platform, run->ranks, run->hosts, given, nodes, gpus_per_node, &field,
                           &diag) == COLLCALC_OK)
        return 0;
    /* "nodes: ..." said as "--nodes: FILE: ..." */
    const char *text = diag.message + strlen(field) + 2;
    collcalc_diag said;
    snprintf(said.message, sizeof said.message, "%s: %s: %s%s", field, input_shown(path), text,
             strcmp(field, "gpus") == 0 ? ": give --gpus" : "");
    return request_error(ctx, COLLCALC_ERR_INVALID, field, &said);
}

/* What the fit keeps of one input file. */
typedef struct {
    collcalc_nccl_tests_run run;
    collcalc_fit_row *rows;
    int nodes, gpus_per_node;
    const char *version; /* the NCCL constants the run is predicted with */
} fit_input;

/* One entry per input file, any number of them; fit_runs side by side, as
 * collcalc_fit takes them. */
typedef struct {
    fit_input *inputs;
    collcalc_fit_run *fit_runs;
    nccl_setup setup;
    collcalc_fit_result result;
    size_t count;
} fit_state;

static void state_free(fit_state *s)
{
    for (size_t i = 0; s != NULL && s->inputs != NULL && i < s->count; i++) {
        free(s->inputs[i].rows);
        collcalc_nccl_tests_run_free(&s->inputs[i].run);
    }
    if (s != NULL) {
        collcalc_fit_result_free(&s->result);
        free(s->inputs);
        free(s->fit_runs);
    }
    free(s);
}

static fit_state *state_new(size_t count)
{
    fit_state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->count = count;
    s->inputs = calloc(count, sizeof *s->inputs);
    s->fit_runs = calloc(count, sizeof *s->fit_runs);
    if (s->inputs == NULL || s->fit_runs == NULL) {
        state_free(s);
        return NULL;
    }
    return s;
}

/* The runs as the fit takes them, each predicted on the platform without
 * its own fit (so the values written are absolute, not a fit of a fit). */
static int prepare(cli_context *ctx, fit_state *s, const collcalc_platform *base)
{
    for (size_t i = 0; i < s->count; i++) {
        const char *path = arg_positional(&ctx->args, (int)i);
        fit_input *in = &s->inputs[i];
        collcalc_nccl_tests_run *run = &in->run;
        collcalc_nccl_func func;
        if (run->op_source == COLLCALC_NCCL_TESTS_FROM_NONE || !collcalc_nccl_func_from_op(run->op, &func))
            return cli_usage_error(ctx, "--op",
                                   "%s: the op is not known or not one NCCL's tuner costs: give "
                                   "--op (all-reduce, all-gather, reduce-scatter, broadcast, "
                                   "reduce)",
                                   input_shown(path));
        int code = run_shape(ctx, path, run, base, &in->nodes, &in->gpus_per_node);
        if (code != 0)
            return code;
        collcalc_nccl_launch launch = collcalc_run_launch(run, in->nodes, base);
        code = nccl_setup_build(ctx, base, in->nodes, in->gpus_per_node,
                                run->nccl_version[0] ? run->nccl_version : NULL, launch,
                                &s->setup);
        if (code != 0)
            return code;
        in->version = s->setup.constants->version;
        in->rows = calloc(run->row_count + 1, sizeof *in->rows);
        if (in->rows == NULL)
            return cli_data_error(ctx, NULL, "out of memory");
        size_t too_large = 0;
        long too_large_line = 0;
        collcalc_run_fit_input(run, func, &s->setup.system, s->setup.constants,
                               &s->setup.options, in->rows, &s->fit_runs[i], &too_large,
                               &too_large_line);
        if (too_large > 0) /* the fit leaves them out (collcalc_fit) */
            cli_warn(ctx,
                     "%s: line %ld: %zu row%s above 1 PiB, the largest size NCCL's model costs: "
                     "left out of the fit",
                     input_shown(path), too_large_line, too_large, too_large == 1 ? "" : "s");
    }
    return 0;
}

/* Writes text to path (a temporary file renamed over it: a failed write
 * keeps the old file), saying when a file was replaced. */
static int write_file(cli_context *ctx, const char *path, const char *text)
{
    output_file file;
    int code = output_target_open(ctx, OPT_OUTPUT, path, &file);
    if (code != 0)
        return code;
    bool replaced = file.existed;
    fputs(text, file.file);
    fputc('\n', file.file);
    code = output_target_commit(ctx, path, "the platform file", &file);
    if (code == 0 && replaced)
        cli_note(ctx, "%s existed and was replaced", path);
    return code;
}

/* A value at the edge of its range is a sign the runs are not of this
 * platform (or the node count is wrong, or the run is degraded). */
static void warn_bounds(cli_context *ctx, const collcalc_fit_result *r)
{
    for (int k = 0; k < COLLCALC_FIT_PARAMS; k++) {
        const collcalc_fit_parameter *p = &r->params[k];
        if (p->fitted && p->at_bound)
            cli_warn(ctx,
                     "%s = %g is at the edge of its physical range %g..%g: check --platform, "
                     "--nodes and that the run is healthy ('collcalc check')",
                     p->name, p->value, p->min_value, p->max_value);
    }
}

static int add_report(cli_context *ctx, document *doc, const fit_state *s,
                      const collcalc_platform *platform, const char *name, const char *output)
{
    fit_doc_run *runs = calloc(s->count, sizeof *runs);
    if (runs == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    for (size_t i = 0; i < s->count; i++)
        runs[i] = (fit_doc_run){input_shown(arg_positional(&ctx->args, (int)i)),
                                s->inputs[i].run.op, s->inputs[i].nodes,
                                s->inputs[i].gpus_per_node, s->inputs[i].version};
    fit_doc(doc, &s->result, platform, name, output, runs, s->count);
    free(runs);
    warn_bounds(ctx, &s->result);
    return 0;
}

int cmd_fit(cli_context *ctx)
{
    size_t count = (size_t)ctx->args.positional_count;
    if (count == 0)
        return cli_usage_error(ctx, NULL,
                               "missing the input: one or more nccl-tests output FILEs ('-' for "
                               "standard input)");
    const char *output = arg_value(&ctx->args, OPT_OUTPUT);
    if (output == NULL && ctx->format != FORMAT_TABLE)
        return cli_usage_error(ctx, "--format",
                               "without --output the platform file is what fit prints; give "
                               "--output FILE to get the report in this format");
    fit_state *s = state_new(count);
    if (s == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    int code = 0;
    for (size_t i = 0; i < count && code == 0; i++)
        code = read_nccl_tests_run(ctx, arg_positional(&ctx->args, (int)i), &s->inputs[i].run);
    const collcalc_platform *platform = NULL;
    if (code == 0)
        code = find_platform(ctx, &s->inputs[0].run, &platform);
    /* The platform without any earlier fit: what the new one replaces. */
    collcalc_platform base;
    if (code == 0) {
        base = *platform;
        memset(&base.nccl_fit, 0, sizeof base.nccl_fit);
        base.nccl_fit.bw_efficiency = 1.0;
        code = prepare(ctx, s, &base);
    }
    collcalc_diag diag;
    if (code == 0 && collcalc_fit(s->fit_runs, count, &s->result, &diag) != COLLCALC_OK)
        code = cli_data_error(ctx, NULL, "%s", diag.message);
    const collcalc_link_table *links = NULL;
    if (code == 0)
        code = cli_links(ctx, &links);
    char name[COLLCALC_NAME_MAX];
    char *json = NULL;
    const char **shown = code == 0 ? calloc(count, sizeof *shown) : NULL;
    if (code == 0 && shown == NULL)
        code = cli_data_error(ctx, NULL, "out of memory");
    for (size_t i = 0; code == 0 && i < count; i++)
        shown[i] = input_shown(arg_positional(&ctx->args, (int)i));
    if (code == 0 && collcalc_fit_platform_file(platform, arg_value(&ctx->args, OPT_NAME),
                                                &s->result, shown, count, links, name, &json,
                                                &diag) != COLLCALC_OK)
        code = cli_usage_error(ctx, "--name", "%s", diag.message + strlen("name: "));
    free(shown);
    if (code == 0 && output == NULL) {
        fputs(json, ctx->out);
        fputc('\n', ctx->out);
        const collcalc_fit_residuals *t = &s->result.total;
        cli_note(ctx, "fitted %s: median |busbw error| >= 1 MiB %.1f%% -> %.1f%%, |time "
                      "error| <= 64 KiB %.1f%% -> %.1f%% (--output FILE for the report)",
                 name, 100.0 * t->busbw_error_before, 100.0 * t->busbw_error_after,
                 100.0 * t->time_error_before, 100.0 * t->time_error_after);
        warn_bounds(ctx, &s->result);
        collcalc_fit_text_free(json);
        state_free(s);
        return 0;
    }
    if (code == 0)
        code = write_file(ctx, output, json);
    collcalc_fit_text_free(json);
    if (code != 0) {
        state_free(s);
        return code;
    }
    document *doc = doc_new(ctx->name);
    code = doc == NULL ? cli_data_error(ctx, NULL, "out of memory")
                       : add_report(ctx, doc, s, platform, name, output);
    state_free(s);
    if (code != 0) {
        doc_free(doc);
        return code;
    }
    return cli_emit(ctx, doc);
}
