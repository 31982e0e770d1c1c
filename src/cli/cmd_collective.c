/* collcalc allreduce|allgather|reducescatter|alltoall|broadcast|reduce|sendrecv:
 * one collective, one or all algorithms, on a link or a cluster:
 * argv -> request -> prepared question -> answer -> document. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report.h"
#include "request.h"

int cmd_collective(cli_context *ctx)
{
    document *doc = doc_new(ctx->name);
    if (doc == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    collective_plan *plan = malloc(sizeof *plan);
    int code = plan == NULL ? cli_data_error(ctx, NULL, "out of memory")
                            : collective_document(ctx, doc, ctx->format, plan);
    free(plan);
    if (code != 0) {
        doc_free(doc);
        return code;
    }
    return cli_emit(ctx, doc);
}

int collective_document(cli_context *ctx, document *doc, output_format format,
                        collective_plan *out_plan)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    if (!arg_given(&ctx->args, OPT_SIZE))
        return cli_usage_error(ctx, "--size", "missing: the message size, e.g. --size 100MB");
    uint64_t size_bytes = 0;
    int code = cli_size(ctx, OPT_SIZE, &size_bytes);
    if (code == 0)
        code = collective_prepare(ctx, out_plan);
    if (code == 0)
        code = collective_answer(ctx, out_plan, size_bytes, doc, format);
    return code;
}

int collective_prepare(cli_context *ctx, collective_plan *plan)
{
    plan->explain = arg_given(&ctx->args, OPT_EXPLAIN);
    cli_request request;
    int code = request_from_args(ctx, (collcalc_op)ctx->spec->op, true, &request);
    if (code == 0)
        code = request_prepare(ctx, &request.request, &plan->prepared);
    request_free(&request);
    return code;
}

int collective_answer(cli_context *ctx, const collective_plan *plan, uint64_t size_bytes,
                      document *doc, output_format format)
{
    collcalc_answer *answer = malloc(sizeof *answer);
    if (answer == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    int code = request_evaluate(ctx, &plan->prepared, size_bytes, answer);
    if (code == 0)
        report_answer(doc, &plan->prepared, answer, format, plan->explain);
    free(answer);
    return code;
}
