/* collcalc kv: KV-cache bytes per token and per shard (MHA/GQA/MLA,
 * sliding windows, TP replication), and the prefill -> decode transfer time
 * over a link or cluster with a transfer backend. */
#include <stdlib.h>
#include <string.h>

#include "collcalc/answer.h"
#include "commands.h"
#include "human.h"
#include "kv_doc.h"
#include "plan_args.h"

/* --no-gdr, or the tcp backend's copy: the platform's host link
 * (collcalc_kv_host_link); tcp without one leaves it uncounted. */
static int kv_host_link(cli_context *ctx, collcalc_kv_query *q)
{
    const collcalc_platform *p = NULL;
    const collcalc_link_table *links;
    int code = arg_value(&ctx->args, OPT_PLATFORM) != NULL ? plan_platform(ctx, &p, &links)
               : q->no_gdr ? cli_usage_error(ctx, "--no-gdr", "needs --platform (its host link)")
                           : 0;
    collcalc_diag diag;
    if (code == 0 && p != NULL && collcalc_kv_host_link(p, links, q, &diag) != COLLCALC_OK &&
        q->no_gdr)
        code = cli_usage_error(ctx, "--no-gdr", "%s", diag.message + strlen("platform: "));
    return code;
}

/* --topo: the NICs of GPU0 and of the node (collcalc_kv_topo_text). */
static int kv_topo_nics(cli_context *ctx, collcalc_kv_query *q)
{
    const char *path = arg_value(&ctx->args, OPT_TOPO);
    char *text = NULL;
    size_t length = 0;
    int code = cli_read_input(ctx, path, &text, &length);
    collcalc_diag diag;
    if (code == 0 && collcalc_kv_topo_text(text, length, q, &diag) != COLLCALC_OK)
        code = cli_data_error(ctx, cli_input_name(path), "%s", diag.message);
    free(text);
    return code;
}

static int kv_query(cli_context *ctx, collcalc_kv_query *q, const collcalc_model_shape *model)
{
    q->model = model;
    q->check_tp = true;
    int code = plan_tokens(ctx, &q->tokens);
    if (code == 0)
        code = cli_dtype(ctx, OPT_DTYPE, COLLCALC_DTYPE_BF16, &q->dtype);
    if (code == 0)
        code = plan_degree(ctx, OPT_TP, &q->tp);
    if (code == 0)
        code = plan_degree(ctx, OPT_PP, &q->pp);
    if (code == 0 && arg_given(&ctx->args, OPT_DECODE_TP))
        code = plan_degree(ctx, OPT_DECODE_TP, &q->decode_tp);
    q->dedup = arg_given(&ctx->args, OPT_DEDUP);
    const char *backend = arg_value(&ctx->args, OPT_BACKEND);
    collcalc_diag diag;
    if (code == 0 && backend != NULL &&
        collcalc_kv_backend_from_name(backend, &q->backend, &diag) != COLLCALC_OK)
        code = cli_usage_error(ctx, "--backend", "%s", diag.message);
    if (code == 0 && arg_given(&ctx->args, OPT_BUDGET) &&
        (code = cli_time(ctx, OPT_BUDGET, &q->budget_us)) == 0 && q->budget_us <= 0)
        code = cli_usage_error(ctx, "--budget", "must be above 0 (leave it out for none)");
    if (code == 0 && (code = cli_size(ctx, OPT_BLOCK_SIZE, &q->block_bytes)) == 0 &&
        arg_given(&ctx->args, OPT_BLOCK_SIZE) && q->block_bytes == 0)
        code = cli_usage_error(ctx, "--block-size", "must be above 0 (leave it out for one layer)");
    if (code != 0 || !plan_has_cluster(ctx)) {
        static const option_id NEED_CLUSTER[] = {OPT_BACKEND, OPT_BUDGET, OPT_BLOCK_SIZE,
                                                 OPT_KV_PATH, OPT_NO_GDR, OPT_TOPO};
        for (size_t i = 0; code == 0 && i < sizeof NEED_CLUSTER / sizeof NEED_CLUSTER[0]; i++)
            if (arg_given(&ctx->args, NEED_CLUSTER[i]))
                code = cli_usage_error(ctx, cli_spelled(ctx, NEED_CLUSTER[i]),
                                       "needs a path to time the transfer over (--link or "
                                       "--platform)");
        return code;
    }
    collcalc_cluster cluster;
    bool single = false;
    collcalc_bw_basis basis;
    code = plan_cluster(ctx, (long)q->tp * q->pp, &cluster, &single, &basis);
    if (code == 0 && !single && arg_given(&ctx->args, OPT_LINK))
        code = cli_usage_error(ctx, "--link", "names the whole path as one link: with a cluster "
                                              "(--platform, ...) give the NICs with --inter");
    if (code != 0)
        return code;
    q->with_transfer = true;
    q->nic = single ? cluster.intra : cluster.inter;
    q->gpus_per_node = single ? 1 : cluster.gpus_per_node;
    q->nics_per_node = single ? 1 : cluster.nics_per_node;
    q->nics_per_gpu = single ? 1 : cluster.nics_per_gpu;
    q->intra = cluster.intra;
    collcalc_diag path_diag;
    if (collcalc_kv_choose_path(q, arg_value(&ctx->args, OPT_KV_PATH), single, &path_diag) !=
        COLLCALC_OK)
        return cli_usage_error(ctx, "--kv-path", "%s", path_diag.message);
    q->no_gdr = arg_given(&ctx->args, OPT_NO_GDR);
    if (q->no_gdr || q->backend == COLLCALC_KV_BACKEND_TCP)
        code = kv_host_link(ctx, q);
    if (code == 0 && arg_given(&ctx->args, OPT_TOPO))
        code = kv_topo_nics(ctx, q);
    return code;
}

int cmd_kv(cli_context *ctx)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    const collcalc_model_shape *model;
    int code = cli_model(ctx, &model);
    collcalc_kv_query q;
    collcalc_kv_query_init(&q);
    if (code == 0)
        code = kv_query(ctx, &q, model);
    if (code != 0)
        return code;
    collcalc_kv_result *r = malloc(sizeof *r);
    if (r == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    collcalc_diag diag;
    if (collcalc_kv_evaluate(&q, r, &diag) != COLLCALC_OK) {
        free(r);
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    }
    document *doc = kv_doc(ctx->name, &q, r);
    bool over_budget = r->has_budget && !r->fits_budget && arg_given(&ctx->args, OPT_STRICT);
    char took[32], budget[32];
    human_time_us(took, sizeof took, r->transfer_us);
    human_time_us(budget, sizeof budget, q.budget_us);
    free(r);
    code = cli_emit(ctx, doc);
    if (code == 0 && over_budget)
        code = cli_strict_failure(ctx, "the transfer takes %s, over --budget %s", took, budget);
    return code;
}
