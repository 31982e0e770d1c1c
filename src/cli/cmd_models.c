/* collcalc models: the model shapes the planners know (data/models.json,
 * plus --model-file). */
#include "commands.h"
#include "tables_doc.h"

int cmd_models(cli_context *ctx)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    const collcalc_model_table *table;
    const collcalc_model_shape *only = NULL;
    int code = cli_models(ctx, &table);
    if (code == 0 && arg_given(&ctx->args, OPT_MODEL))
        code = cli_model(ctx, &only);
    if (code != 0)
        return code;
    document *doc = doc_new(ctx->name);
    if (doc == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    models_doc(doc, table, only);
    return cli_emit(ctx, doc);
}
