/* collcalc platforms: the platform presets (GPUs per node or NVLink domain,
 * links, NICs, NVLS, NCCL inputs) that --platform fills in. */
#include "commands.h"
#include "tables_doc.h"

int cmd_platforms(cli_context *ctx)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    const collcalc_platform_table *platforms;
    int code = cli_platforms(ctx, &platforms);
    if (code != 0)
        return code;
    document *doc = doc_new(ctx->name);
    if (doc == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    platforms_doc(doc, platforms);
    return cli_emit(ctx, doc);
}
