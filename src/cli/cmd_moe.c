/* collcalc moe: expert-parallel dispatch and combine for one MoE layer
 * (DeepEP's accounting and kernel families), load imbalance, redundant
 * experts and two-batch overlap. */
#include <stdlib.h>
#include <string.h>

#include "collcalc/plan.h"
#include "commands.h"
#include "moe_doc.h"
#include "plan_args.h"

/* --expert-loads FILE into loads (caller-owned). */
static int read_loads(cli_context *ctx, collcalc_expert_loads *loads)
{
    const char *path = arg_value(&ctx->args, OPT_EXPERT_LOADS);
    char *text;
    size_t length;
    int code = cli_read_input(ctx, path, &text, &length);
    if (code != 0)
        return code;
    collcalc_diag diag;
    collcalc_status status = collcalc_expert_loads_parse(text, length, loads, &diag);
    free(text);
    if (status != COLLCALC_OK)
        return cli_data_error(ctx, cli_input_name(path), "%s", diag.message);
    return 0;
}

static int moe_query(cli_context *ctx, collcalc_moe_query *q, collcalc_expert_loads *loads)
{
    if (!arg_given(&ctx->args, OPT_EP))
        return cli_usage_error(ctx, "--ep", "missing: the expert-parallel degree, e.g. --ep 32");
    int code = plan_degree(ctx, OPT_EP, &q->ep);
    if (code == 0)
        code = plan_tokens(ctx, &q->tokens);
    if (code == 0)
        code = cli_dtype(ctx, OPT_DISPATCH_DTYPE, COLLCALC_DTYPE_FP8, &q->dispatch_dtype);
    if (code == 0)
        code = cli_dtype(ctx, OPT_COMBINE_DTYPE, COLLCALC_DTYPE_BF16, &q->combine_dtype);
    const char *mode = arg_value(&ctx->args, OPT_MODE);
    collcalc_diag diag;
    if (code == 0 && mode != NULL && collcalc_moe_mode_from_name(mode, &q->mode, &diag) != COLLCALC_OK)
        code = cli_usage_error(ctx, "--mode", "%s", diag.message);
    int given = arg_given(&ctx->args, OPT_IMBALANCE) + arg_given(&ctx->args, OPT_ZIPF) +
                arg_given(&ctx->args, OPT_EXPERT_LOADS);
    if (code == 0 && given > 1)
        code = cli_usage_error(ctx, "--imbalance",
                               "give one of --imbalance, --zipf and --expert-loads");
    if (code == 0)
        code = cli_number(ctx, OPT_IMBALANCE, 1.0, COLLCALC_MOE_IMBALANCE_MAX, &q->imbalance);
    if (code == 0)
        code = cli_number(ctx, OPT_ZIPF, 0.0, COLLCALC_MOE_ZIPF_MAX, &q->zipf_s);
    if (code == 0 && arg_given(&ctx->args, OPT_EXPERT_LOADS)) {
        code = read_loads(ctx, loads);
        q->expert_loads = loads->loads;
        q->expert_load_count = loads->experts;
    }
    long value = 0;
    if (code == 0 && (code = cli_count(ctx, OPT_REDUNDANT_EXPERTS, 0, COLLCALC_MOE_EXPERTS_MAX, &value)) == 0)
        q->redundant_experts = (int)value;
    value = 1;
    if (code == 0 && (code = cli_count(ctx, OPT_SPLIT_BATCH, 1, 2, &value)) == 0)
        q->split_batch = (int)value;
    if (code == 0)
        code = cli_time(ctx, OPT_ROUTER_TIME, &q->router_us);
    if (code == 0)
        code = cli_time(ctx, OPT_EXPERT_TIME, &q->expert_compute_us);
    if (code == 0)
        code = cli_number(ctx, OPT_SM_SLOWDOWN, 1, COLLCALC_MOE_SM_SLOWDOWN_MAX, &q->sm_slowdown);
    bool single = false;
    collcalc_bw_basis basis;
    if (code == 0 && !plan_has_cluster(ctx))
        code = cli_usage_error(ctx, "--platform",
                               "missing: the cluster, e.g. --platform hgx-h800 (or --gpus-per-node, "
                               "--intra, --inter)");
    if (code == 0)
        code = plan_cluster(ctx, q->ep, &q->cluster, &single, &basis);
    return code;
}

int cmd_moe(cli_context *ctx)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    const collcalc_model_shape *model;
    int code = cli_model(ctx, &model);
    collcalc_moe_query q;
    collcalc_moe_query_init(&q);
    q.model = model;
    collcalc_expert_loads *loads = malloc(sizeof *loads);
    collcalc_moe_result *r = malloc(sizeof *r);
    if (loads == NULL || r == NULL)
        code = code != 0 ? code : cli_data_error(ctx, NULL, "out of memory");
    if (code == 0)
        code = moe_query(ctx, &q, loads);
    collcalc_diag diag;
    if (code == 0 && collcalc_moe_evaluate(&q, r, &diag) != COLLCALC_OK)
        code = cli_usage_error(ctx, NULL, "%s", diag.message);
    if (code != 0) {
        free(loads);
        free(r);
        return code;
    }
    document *doc = moe_doc(ctx->name, &q, r);
    free(loads);
    free(r);
    return cli_emit(ctx, doc);
}
