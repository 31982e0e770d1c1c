/* collcalc plan: a whole TP/EP/PP/DP(/CP/SP) deployment on a cluster for a
 * model shape: which tier each group's collectives land on, the
 * communication budget per step, the rule checks; --strict gates CI;
 * --search ranks every factorization. */
#include <stdlib.h>
#include <string.h>

#include "collcalc/plan.h"
#include "commands.h"
#include "findings_out.h"
#include "plan_doc.h"
#include "nccl_setup.h"
#include "plan_args.h"
#include "request.h"

static int plan_query(cli_context *ctx, collcalc_plan_query *q)
{
    const char *phase = arg_value(&ctx->args, OPT_PHASE);
    collcalc_diag diag;
    int code = 0;
    if (phase != NULL && collcalc_workload_from_name(phase, &q->workload, &diag) != COLLCALC_OK)
        code = cli_usage_error(ctx, "--phase", "%s", diag.message);
    if (code == 0)
        code = plan_tokens(ctx, &q->tokens);
    if (code == 0)
        code = cli_dtype(ctx, OPT_DTYPE, COLLCALC_DTYPE_BF16, &q->dtype);
    static const option_id DEGREES[] = {OPT_TP, OPT_CP, OPT_EP, OPT_PP, OPT_DP}; /* dim order */
    int *fields[] = {&q->tp, &q->cp, &q->ep, &q->pp, &q->dp};
    for (size_t i = 0; code == 0 && i < 5; i++)
        if ((code = plan_degree(ctx, DEGREES[i], fields[i])) == 0 && arg_given(&ctx->args, DEGREES[i]))
            q->search_fixed |= 1u << i; /* --search keeps it */
    q->sp = arg_given(&ctx->args, OPT_SP);
    const char *order = arg_value(&ctx->args, OPT_ORDER);
    if (code == 0 && order != NULL && collcalc_dim_order_parse(order, q->order, &diag) != COLLCALC_OK)
        code = cli_usage_error(ctx, "--order", "%s", diag.message);
    if (code == 0 && (code = cli_number(ctx, OPT_OVERLAP, 0.0, 1.0, &q->overlap_tp)) == 0)
        code = cli_number(ctx, OPT_SM_SLOWDOWN, 1.0, COLLCALC_MOE_SM_SLOWDOWN_MAX, &q->sm_slowdown);
    q->overlap_ep = q->overlap_tp;
    long value = 0;
    if (code == 0 && (code = cli_count(ctx, OPT_MICRO_BATCHES, 1, 100000, &value)) == 0 && value > 0)
        q->micro_batches = (int)value;
    if (code == 0)
        code = cli_dtype(ctx, OPT_DISPATCH_DTYPE, COLLCALC_DTYPE_FP8, &q->dispatch_dtype);
    if (code == 0)
        code = cli_dtype(ctx, OPT_COMBINE_DTYPE, COLLCALC_DTYPE_BF16, &q->combine_dtype);
    const char *mode = arg_value(&ctx->args, OPT_MODE);
    if (code == 0 && mode != NULL) {
        q->moe_mode_auto = false;
        if (collcalc_moe_mode_from_name(mode, &q->moe_mode, &diag) != COLLCALC_OK)
            code = cli_usage_error(ctx, "--mode", "%s", diag.message);
    }
    value = 0;
    if (code == 0 && (code = cli_count(ctx, OPT_REDUNDANT_EXPERTS, 0, 100000, &value)) == 0)
        q->redundant_experts = (int)value;
    if (code == 0)
        code = cli_number(ctx, OPT_IMBALANCE, 1.0, 1e6, &q->imbalance);
    if (code == 0 && !plan_has_cluster(ctx))
        code = cli_usage_error(ctx, "--platform",
                               "missing: the cluster, e.g. --platform hgx-h100 --nodes 2 (or "
                               "--gpus-per-node, --intra, --inter)");
    /* The degrees' product checked in double before it is a GPU count (no overflow). */
    bool search = arg_given(&ctx->args, OPT_SEARCH);
    double product = (double)q->tp * q->pp * q->ep * q->dp * q->cp;
    if (code == 0 && product > 1000000.0 && !search)
        code = cli_usage_error(ctx, "--tp",
                               "tp x pp x ep x dp x cp = %.0f GPUs: at most 1000000 (got tp %d, "
                               "pp %d, ep %d, dp %d, cp %d)", product, q->tp, q->pp, q->ep, q->dp,
                               q->cp);
    long gpus = code == 0 && product <= 1000000.0 && !search ? (long)product : 1;
    if (code == 0 && search && !arg_given(&ctx->args, OPT_GPUS) && !arg_given(&ctx->args, OPT_NODES))
        code = cli_usage_error(ctx, "--search", "needs the GPUs to split: --gpus N or --nodes N");
    bool single = false;
    collcalc_bw_basis basis;
    if (code == 0)
        code = plan_cluster(ctx, gpus, &q->cluster, &single, &basis);
    q->gpus = q->cluster.gpus;
    if (code == 0 && !search && q->gpus != gpus) /* only --gpus or --nodes can differ */
        code = cli_usage_error(ctx, arg_given(&ctx->args, OPT_GPUS) ? "--gpus" : "--nodes",
                               "%d GPUs, but the degrees make %ld (--tp %d x --cp %d x --ep %d x --pp %d x --dp %d)",
                               q->gpus, gpus, q->tp, q->cp, q->ep, q->pp, q->dp);
    uint64_t memory = 0;
    if (code == 0 && (code = cli_size(ctx, OPT_GPU_MEMORY, &memory)) == 0)
        q->gpu_memory_GB = (double)memory / 1e9;
    if (code == 0 && arg_given(&ctx->args, OPT_GPU_MEMORY) && q->gpu_memory_GB < 0.001)
        code = cli_usage_error(ctx, "--gpu-memory", "must be at least 1MB");
    const char *weights = arg_value(&ctx->args, OPT_WEIGHT_DTYPE);
    if (code == 0 && weights != NULL) {
        q->weight_format_given = true;
        if (collcalc_weight_format_from_name(weights, &q->weight_format, &diag) != COLLCALC_OK)
            code = cli_usage_error(ctx, "--weight-dtype", "%s", diag.message);
    }
    if (code == 0 && arg_given(&ctx->args, OPT_KV_DTYPE)) {
        q->kv_dtype_given = true;
        code = cli_dtype(ctx, OPT_KV_DTYPE, q->dtype, &q->kv_dtype);
    }
    if (code == 0)
        code = plan_token_option(ctx, OPT_CONTEXT, &q->context);
    if (code == 0 && arg_given(&ctx->args, OPT_COMPUTE_EFFICIENCY))
        code = cli_number(ctx, OPT_COMPUTE_EFFICIENCY, 0.01, 1.0, &q->compute_efficiency);
    const char *goal = arg_value(&ctx->args, OPT_GOAL);
    if (code == 0 && goal != NULL &&
        collcalc_plan_goal_from_name(goal, &q->goal, &diag) != COLLCALC_OK)
        code = cli_usage_error(ctx, "--goal", "%s", diag.message);
    if (code == 0 && (code = cli_time(ctx, OPT_LATENCY_BUDGET, &q->latency_budget_us)) == 0 &&
        arg_given(&ctx->args, OPT_LATENCY_BUDGET) && !(q->latency_budget_us > 0))
        code = cli_usage_error(ctx, "--latency-budget", "must be above 0 (leave it out for none)");
    static const option_id SEARCH_ONLY[] = {OPT_GOAL, OPT_LATENCY_BUDGET, OPT_TOP};
    for (size_t i = 0; code == 0 && i < 3 && !search; i++)
        if (arg_given(&ctx->args, SEARCH_ONLY[i]))
            code = cli_usage_error(ctx, cli_spelled(ctx, SEARCH_ONLY[i]), "ranks the plans of --search");
    return code;
}

/* The platform's GPU in the GPU table (data/gpus.json): memory, FLOP/s and
 * memory bandwidth. *out stays NULL without a platform or when the table
 * does not know its GPU. */
static int plan_gpu(cli_context *ctx, collcalc_gpu_table **table, const collcalc_gpu **out,
                    const char **out_gpu_name)
{
    *out = NULL;
    *out_gpu_name = NULL;
    const collcalc_platform *platform;
    int code = plan_platform(ctx, &platform, NULL);
    if (code != 0 || platform == NULL)
        return code;
    *out_gpu_name = platform->gpu;
    collcalc_diag diag;
    if (collcalc_gpu_table_builtin(table, &diag) != COLLCALC_OK)
        return cli_data_error(ctx, NULL, "%s", diag.message);
    *out = collcalc_gpu_table_find(*table, platform->gpu);
    return 0;
}

/* With a platform, the NCCL-faithful model costs the collectives (unless
 * --cost-model alpha-beta), through the answer layer (collcalc_cost_answer):
 * each group as the single command answers it. */
static int plan_costing(cli_context *ctx, collcalc_plan_query *q, collcalc_answer_costing *costing,
                        collcalc_request *words, nccl_setup *setup)
{
    const char *platform_name = arg_value(&ctx->args, OPT_PLATFORM);
    int code = request_nccl_from_args(ctx, words);
    if (code == 0)
        code = request_spec_from_args(ctx, &words->cluster);
    if (code != 0)
        return code;
    bool nccl = words->cost_model != COLLCALC_COST_MODEL_AUTO
                    ? words->cost_model == COLLCALC_COST_MODEL_NCCL
                    : platform_name != NULL;
    if (nccl && platform_name == NULL)
        return cli_usage_error(ctx, "--cost-model", "the NCCL model needs --platform");
    if (!nccl) {
        if (arg_given(&ctx->args, OPT_NCCL_VERSION))
            return cli_usage_error(ctx, "--nccl-version", "applies to the NCCL model");
        return 0;
    }
    const collcalc_platform *platform;
    code = plan_platform(ctx, &platform, NULL);
    if (code != 0 || platform == NULL)
        return code; /* an unknown platform: the cluster resolution has already said so */
    /* One node of the platform: the NCCL options are checked, and said
     * with their flags, before the search costs any group. */
    code = nccl_setup_build(ctx, platform, 1, platform->gpus_per_node, NULL,
                            COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU, setup);
    if (code == 0)
        code = cli_session(ctx, &costing->session);
    if (code != 0)
        return code;
    costing->request = words;
    costing->platform = setup->platform;
    q->costing.fn = collcalc_cost_answer;
    q->costing.context = costing;
    return 0;
}

static int run_search(cli_context *ctx, const collcalc_plan_query *q)
{
    long top = 10;
    int code = cli_count(ctx, OPT_TOP, 1, 10000, &top);
    collcalc_plan_candidate *found = code == 0 ? calloc((size_t)top, sizeof *found) : NULL;
    if (code != 0 || found == NULL)
        return code != 0 ? code : cli_data_error(ctx, NULL, "out of memory");
    size_t count = 0, total = 0;
    collcalc_diag diag;
    if (collcalc_plan_search(q, q->cluster.gpus, found, (size_t)top, &count, &total, &diag) !=
        COLLCALC_OK) {
        free(found);
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    }
    char why[200];
    bool failed = arg_given(&ctx->args, OPT_STRICT) &&
                  plan_search_violation(found, count, why, sizeof why);
    document *doc = plan_search_doc(ctx->name, q, found, count, total);
    free(found);
    code = cli_emit(ctx, doc);
    return code == 0 && failed ? cli_strict_failure(ctx, "%s", why) : code;
}

static int plan_single(cli_context *ctx, const collcalc_plan_query *q, const char *gpu_name)
{
    collcalc_plan_result *r = malloc(sizeof *r);
    if (r == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    collcalc_diag diag;
    if (collcalc_plan_evaluate(q, r, &diag) != COLLCALC_OK) {
        free(r);
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    }
    document *doc = plan_doc(ctx->name, q, r, gpu_name);
    collcalc_severity worst = collcalc_findings_worst(&r->findings);
    int code = cli_emit(ctx, doc);
    if (code == 0 && arg_given(&ctx->args, OPT_STRICT) && worst == COLLCALC_SEVERITY_ERROR)
        code = findings_strict_failure(ctx, &r->findings);
    free(r);
    return code;
}

int cmd_plan(cli_context *ctx)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    const collcalc_model_shape *model;
    int code = cli_model(ctx, &model);
    collcalc_plan_query q;
    collcalc_plan_query_init(&q);
    q.model = model;
    if (code == 0)
        code = plan_query(ctx, &q);
    collcalc_answer_costing costing = {0};
    collcalc_request words = COLLCALC_REQUEST_INIT;
    nccl_setup setup;
    if (code == 0)
        code = plan_costing(ctx, &q, &costing, &words, &setup);
    collcalc_gpu_table *gpus = NULL;
    const char *gpu_name = NULL;
    if (code == 0)
        code = plan_gpu(ctx, &gpus, &q.gpu, &gpu_name);
    if (code == 0 && arg_given(&ctx->args, OPT_SEARCH))
        code = run_search(ctx, &q);
    else if (code == 0)
        code = plan_single(ctx, &q, gpu_name);
    collcalc_gpu_table_free(gpus);
    return code;
}
