/* collcalc plan: a whole TP/EP/PP/DP(/CP/SP) deployment on a cluster for a
 * model shape: which tier each group's collectives land on, the
 * communication budget per step, the rule checks; --strict gates CI;
 * --search ranks every factorization. */
#include <stdlib.h>
#include <string.h>

#include "collcalc/plan.h"
#include "commands.h"
#include "findings_out.h"
#include "human.h"
#include "nccl_setup.h"
#include "plan_args.h"

static const record_column ITEM_COLUMNS[] = {
    {"kind", "collective", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"group_size", "group", FIELD_INT, COLUMN_BOTH, NULL},
    {"nodes", "nodes", FIELD_INT, COLUMN_BOTH, NULL},
    {"crosses_node", "crosses node", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"link", "link", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"algorithm", "algorithm", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"count_per_layer", "per layer", FIELD_NUMBER, COLUMN_BOTH, NULL},
    {"count_per_step", "per step", FIELD_INT, COLUMN_BOTH, NULL},
    {"message_bytes", "message", FIELD_BYTES, COLUMN_BOTH, NULL},
    {"latency_us_each", "latency", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"bandwidth_us_each", "bandwidth", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"time_us_each", "each", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"total_us", "per step", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"hidden_fraction", "hidden", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"exposed_us", "exposed", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"dominant", "dominant", FIELD_TEXT, COLUMN_BOTH, NULL},
};
static const record_schema ITEM_SCHEMA = {"collectives",
                                          sizeof ITEM_COLUMNS / sizeof ITEM_COLUMNS[0],
                                          ITEM_COLUMNS};

static const record_column CANDIDATE_COLUMNS[] = {
    {"rank", "rank", FIELD_INT, COLUMN_BOTH, NULL},
    {"tp", "TP", FIELD_INT, COLUMN_BOTH, NULL},
    {"ep", "EP", FIELD_INT, COLUMN_BOTH, NULL},
    {"pp", "PP", FIELD_INT, COLUMN_BOTH, NULL},
    {"dp", "DP", FIELD_INT, COLUMN_BOTH, NULL},
    {"comm_us", "comm/step", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"exposed_us", "exposed", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"dominant", "dominant", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"errors", "errors", FIELD_INT, COLUMN_BOTH, NULL},
    {"warnings", "warnings", FIELD_INT, COLUMN_BOTH, NULL},
    {"violations", "violations", FIELD_TEXT, COLUMN_BOTH, NULL},
};
static const record_schema CANDIDATE_SCHEMA = {
    "plans", sizeof CANDIDATE_COLUMNS / sizeof CANDIDATE_COLUMNS[0], CANDIDATE_COLUMNS};

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
    static const option_id DEGREES[] = {OPT_TP, OPT_PP, OPT_EP, OPT_DP, OPT_CP};
    int *fields[] = {&q->tp, &q->pp, &q->ep, &q->dp, &q->cp};
    for (size_t i = 0; code == 0 && i < 5; i++)
        code = plan_degree(ctx, DEGREES[i], fields[i]);
    q->sp = arg_given(&ctx->args, OPT_SP);
    const char *order = arg_value(&ctx->args, OPT_ORDER);
    if (code == 0 && order != NULL && collcalc_dim_order_parse(order, q->order, &diag) != COLLCALC_OK)
        code = cli_usage_error(ctx, "--order", "%s", diag.message);
    double overlap = 0.0;
    if (code == 0)
        code = plan_fraction(ctx, OPT_OVERLAP, &overlap);
    q->overlap_tp = q->overlap_ep = overlap;
    if (code == 0)
        code = plan_factor(ctx, OPT_SM_SLOWDOWN, &q->sm_slowdown);
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
    long gpus = (long)q->tp * q->pp * q->ep * q->dp * q->cp;
    if (code == 0 && arg_given(&ctx->args, OPT_SEARCH)) {
        if (!arg_given(&ctx->args, OPT_GPUS) && !arg_given(&ctx->args, OPT_NODES))
            code = cli_usage_error(ctx, "--search", "needs the GPUs to split: --gpus N or --nodes N");
        gpus = 1;
    }
    bool single = false;
    collcalc_bw_basis basis;
    if (code == 0)
        code = plan_cluster(ctx, gpus, &q->cluster, &single, &basis);
    q->gpus = q->cluster.gpus;
    uint64_t memory = 0;
    if (code == 0 && (code = cli_size(ctx, OPT_GPU_MEMORY, &memory)) == 0)
        q->gpu_memory_GB = (double)memory / 1e9;
    return code;
}

/* With a platform, the NCCL-faithful model costs the collectives (unless
 * --cost-model alpha-beta). */
static int plan_costing(cli_context *ctx, collcalc_plan_query *q, collcalc_nccl_costing *costing,
                        nccl_setup *setup)
{
    const char *model = arg_value(&ctx->args, OPT_COST_MODEL);
    const char *platform_name = arg_value(&ctx->args, OPT_PLATFORM);
    if (model != NULL && strcmp(model, "nccl") != 0 && strcmp(model, "alpha-beta") != 0)
        return cli_usage_error(ctx, "--cost-model", "unknown model '%.60s' (nccl or alpha-beta)",
                               model);
    bool nccl = model != NULL ? strcmp(model, "nccl") == 0 : platform_name != NULL;
    if (nccl && platform_name == NULL)
        return cli_usage_error(ctx, "--cost-model", "the NCCL model needs --platform");
    if (!nccl) {
        if (arg_given(&ctx->args, OPT_NCCL_VERSION))
            return cli_usage_error(ctx, "--nccl-version", "applies to the NCCL model");
        return 0;
    }
    const collcalc_platform_table *platforms;
    const collcalc_link_table *links;
    int code = cli_platforms(ctx, &platforms);
    if (code == 0)
        code = cli_links(ctx, &links);
    if (code != 0)
        return code;
    const collcalc_platform *platform = collcalc_platform_table_find(platforms, platform_name);
    if (platform == NULL)
        return 0; /* the cluster resolution has already said so */
    code = nccl_setup_build(ctx, platform, 1, platform->gpus_per_node, NULL,
                            COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU, setup);
    if (code != 0)
        return code;
    collcalc_nccl_costing_init(costing);
    costing->platform = platform;
    costing->links = links;
    costing->constants = setup->constants;
    costing->options = setup->options;
    q->costing.fn = collcalc_cost_nccl_platform;
    q->costing.context = costing;
    return 0;
}

static void add_items(document *doc, const collcalc_plan_result *r)
{
    record_set *set = doc_records(doc, &ITEM_SCHEMA);
    for (size_t i = 0; i < r->item_count; i++) {
        const collcalc_plan_item *it = &r->items[i];
        record_begin(set);
        record_text(set, "kind", collcalc_comm_kind_name(it->kind));
        record_int(set, "group_size", it->group_size);
        record_int(set, "nodes", it->nodes);
        record_bool(set, "crosses_node", it->crosses_node);
        record_text(set, "link", it->link);
        record_text(set, "algorithm", it->algo);
        record_number(set, "count_per_layer", it->count_per_layer);
        record_int(set, "count_per_step", it->count_per_step);
        record_number(set, "message_bytes", (double)it->message_bytes);
        record_number(set, "latency_us_each", it->latency_us_each);
        record_number(set, "bandwidth_us_each", it->bandwidth_us_each);
        record_number(set, "time_us_each", it->time_us_each);
        record_number(set, "total_us", it->total_us);
        record_number(set, "hidden_fraction", it->hidden_fraction);
        record_number(set, "exposed_us", it->exposed_us);
        record_text(set, "dominant", collcalc_dominant_name(it->dominant));
        if (it->crosses_node)
            records_mark(set, record_count(set) - 1, "<- crosses the node boundary");
    }
}

static int run_search(cli_context *ctx, const collcalc_plan_query *q,
                      const collcalc_model_shape *model)
{
    long top = 10;
    int code = cli_count(ctx, OPT_TOP, 1, 10000, &top);
    if (code != 0)
        return code;
    collcalc_plan_candidate *found = calloc((size_t)top, sizeof *found);
    if (found == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    size_t count = 0, total = 0;
    collcalc_diag diag;
    if (collcalc_plan_search(q, q->cluster.gpus, found, (size_t)top, &count, &total, &diag) !=
        COLLCALC_OK) {
        free(found);
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    }
    document *doc = doc_new(ctx->name);
    doc_query_text(doc, "model", model->name);
    doc_query_text(doc, "phase", collcalc_workload_name(q->workload));
    doc_query_int(doc, "tokens", (long long)q->tokens);
    doc_query_int(doc, "gpus", q->cluster.gpus);
    doc_query_int(doc, "gpus_per_node", q->cluster.gpus_per_node);
    doc_query_int(doc, "plans_costed", (long long)total);
    doc_text(doc, "%s %s on %d GPUs (%d per node): %zu factorizations costed, best %zu by exposed "
                  "communication per step (plans with an error-level violation last)",
             model->name, collcalc_workload_name(q->workload), q->cluster.gpus,
             q->cluster.gpus_per_node, total, count);
    doc_text(doc, "%s", "");
    record_set *set = doc_records(doc, &CANDIDATE_SCHEMA);
    for (size_t i = 0; i < count; i++) {
        const collcalc_plan_candidate *c = &found[i];
        char codes[4 * COLLCALC_FINDING_CODE_MAX + 8] = "";
        size_t used = 0;
        for (int k = 0; k < c->code_count && used < sizeof codes; k++)
            used += (size_t)snprintf(codes + used, sizeof codes - used, "%s%s", k ? " " : "",
                                     c->codes[k]);
        record_begin(set);
        record_int(set, "rank", (long long)i + 1);
        record_int(set, "tp", c->tp);
        record_int(set, "ep", c->ep);
        record_int(set, "pp", c->pp);
        record_int(set, "dp", c->dp);
        record_number(set, "comm_us", c->comm_us);
        record_number(set, "exposed_us", c->exposed_us);
        record_text(set, "dominant", collcalc_dominant_name(c->dominant));
        record_int(set, "errors", c->errors);
        record_int(set, "warnings", c->warnings);
        record_text(set, "violations", codes);
    }
    free(found);
    return cli_emit(ctx, doc);
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
    collcalc_nccl_costing costing;
    nccl_setup setup;
    if (code == 0)
        code = plan_costing(ctx, &q, &costing, &setup);
    if (code != 0)
        return code;
    if (arg_given(&ctx->args, OPT_SEARCH))
        return run_search(ctx, &q, model);
    collcalc_plan_result *r = malloc(sizeof *r);
    if (r == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    collcalc_diag diag;
    if (collcalc_plan_evaluate(&q, r, &diag) != COLLCALC_OK) {
        free(r);
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    }
    document *doc = doc_new(ctx->name);
    doc_query_text(doc, "model", model->name);
    doc_query_text(doc, "phase", collcalc_workload_name(q.workload));
    doc_query_int(doc, "tokens", (long long)q.tokens);
    doc_query_text(doc, "dtype", collcalc_dtype_name(q.dtype));
    doc_query_int(doc, "tp", q.tp);
    doc_query_int(doc, "pp", q.pp);
    doc_query_int(doc, "ep", q.ep);
    doc_query_int(doc, "dp", q.dp);
    doc_query_int(doc, "cp", q.cp);
    doc_query_bool(doc, "sp", q.sp);
    doc_query_text(doc, "rank_order", r->rank_order);
    doc_query_int(doc, "gpus", r->gpus);
    doc_query_int(doc, "gpus_per_node", q.cluster.gpus_per_node);
    doc_query_int(doc, "nodes", r->nodes);
    doc_query_text(doc, "intra_link", q.cluster.intra.name);
    doc_query_text(doc, "inter_link", q.cluster.inter.name);
    doc_query_number(doc, "overlap", FIELD_NUMBER, q.overlap_tp);
    doc_query_number(doc, "sm_slowdown", FIELD_NUMBER, q.sm_slowdown);
    doc_query_number(doc, "comm_us", FIELD_TIME_US, r->comm_us);
    doc_query_number(doc, "exposed_us", FIELD_TIME_US, r->exposed_us);
    doc_query_number(doc, "floor_us", FIELD_TIME_US, r->floor_us);
    doc_query_number(doc, "latency_us", FIELD_TIME_US, r->latency_us);
    doc_query_number(doc, "bandwidth_us", FIELD_TIME_US, r->bandwidth_us);
    doc_query_text(doc, "dominant", collcalc_dominant_name(r->dominant));
    doc_query_text(doc, "cost_model", q.costing.fn != NULL ? "nccl" : "alpha-beta");
    doc_query_number(doc, "cross_node_fixed_us", FIELD_TIME_US, r->cross_node_fixed_us);
    collcalc_severity worst = collcalc_findings_worst(&r->findings);
    doc_query_text(doc, "verdict", worst == COLLCALC_SEVERITY_ERROR     ? "violation"
                                   : worst == COLLCALC_SEVERITY_WARNING ? "warning"
                                                                        : "ok");

    char a[32], b[32], c[32];
    doc_text(doc, "%s %s, %llu tokens in flight, %s: TP %d x CP %d x EP %d x PP %d x DP %d = %d GPUs "
                  "on %d node%s of %d (rank order %s)",
             model->name, collcalc_workload_name(q.workload), (unsigned long long)q.tokens,
             collcalc_dtype_name(q.dtype), q.tp, q.cp, q.ep, q.pp, q.dp, r->gpus, r->nodes,
             r->nodes == 1 ? "" : "s", q.cluster.gpus_per_node, r->rank_order);
    doc_text(doc, "collectives costed with %s", q.costing.fn != NULL
                                                   ? "NCCL's tuner on the platform (all-to-all and "
                                                     "send/recv: the alpha-beta model)"
                                                   : "the alpha-beta model (fastest algorithm NCCL "
                                                     "runs)");
    doc_text(doc, "%s", "");
    add_items(doc, r);
    human_time_us(a, sizeof a, r->comm_us);
    human_time_us(b, sizeof b, r->exposed_us);
    human_time_us(c, sizeof c, r->latency_us);
    doc_text(doc, "%s", "");
    doc_text(doc, "communication per step %s, exposed %s (overlap %.0f%%, SM slowdown %.3g); fixed "
                  "(latency) part %s: %s-bound",
             a, b, 100.0 * q.overlap_tp, q.sm_slowdown, c,
             r->dominant == COLLCALC_DOMINANT_LATENCY ? "latency" : "bandwidth");
    if (r->cross_node_fixed_us > 0) {
        human_time_us(a, sizeof a, r->cross_node_fixed_us);
        doc_text(doc, "a group crosses the node boundary: each of its collectives costs at least %s",
                 a);
    }
    doc_text(doc, "verdict: %s", worst == COLLCALC_SEVERITY_ERROR     ? "violation"
                                 : worst == COLLCALC_SEVERITY_WARNING ? "ok, with warnings"
                                                                      : "ok");
    doc_text(doc, "%s", "");
    findings_add(doc, &r->findings);
    code = cli_emit(ctx, doc);
    if (code == 0 && arg_given(&ctx->args, OPT_STRICT) && worst == COLLCALC_SEVERITY_ERROR)
        code = findings_strict_failure(ctx, &r->findings);
    free(r);
    return code;
}
