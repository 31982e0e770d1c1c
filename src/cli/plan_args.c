/* Shared planning options (plan_args.h). */
#include "plan_args.h"

#include "collcalc/plan.h"
#include "request.h"

int plan_tokens(cli_context *ctx, uint64_t *out)
{
    if (!arg_given(&ctx->args, OPT_TOKENS))
        return cli_usage_error(ctx, "--tokens", "missing: how many tokens, e.g. --tokens 8192");
    return plan_token_option(ctx, OPT_TOKENS, out);
}

int plan_token_option(cli_context *ctx, option_id id, uint64_t *out)
{
    const char *value = arg_value(&ctx->args, id);
    if (value == NULL)
        return 0;
    collcalc_diag diag;
    if (collcalc_tokens_parse(value, COLLCALC_TOKENS_MAX, out, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, cli_spelled(ctx, id), "%s", diag.message);
    return 0;
}

int plan_degree(cli_context *ctx, option_id id, int *out)
{
    long value = 1;
    int code = cli_count(ctx, id, 1, 1000000, &value);
    *out = (int)value;
    return code;
}

bool plan_has_cluster(const cli_context *ctx)
{
    static const option_id CLUSTER[] = {OPT_LINK, OPT_PLATFORM, OPT_GPUS_PER_NODE, OPT_INTRA,
                                        OPT_INTER, OPT_NODES, OPT_BW};
    for (size_t i = 0; i < sizeof CLUSTER / sizeof CLUSTER[0]; i++)
        if (arg_given(&ctx->args, CLUSTER[i]))
            return true;
    return false;
}

int plan_cluster(cli_context *ctx, long gpus, collcalc_cluster *out, bool *single_link,
                 collcalc_bw_basis *out_basis)
{
    collcalc_cluster_spec spec;
    collcalc_cluster_spec_init(&spec);
    int code = request_spec_from_args(ctx, &spec);
    if (code != 0)
        return code;
    if (spec.gpus == 0 && spec.nodes == 0)
        spec.gpus = gpus;
    collcalc_cluster_info info;
    code = request_cluster(ctx, &spec, out, &info);
    *single_link = info.single_link;
    *out_basis = spec.basis;
    return code;
}

int plan_platform(cli_context *ctx, const collcalc_platform **out,
                  const collcalc_link_table **out_links)
{
    *out = NULL;
    const char *name = arg_value(&ctx->args, OPT_PLATFORM);
    if (name == NULL)
        return 0;
    const collcalc_platform_table *platforms;
    const collcalc_link_table *links = NULL;
    int code = cli_platforms(ctx, &platforms);
    if (code == 0)
        code = cli_links(ctx, &links);
    if (code != 0)
        return code;
    if (out_links != NULL)
        *out_links = links;
    *out = collcalc_platform_table_find(platforms, name);
    return 0;
}
