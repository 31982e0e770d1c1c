/* Setting up the NCCL-faithful model from argv (nccl_setup.h). */
#include "nccl_setup.h"

#include "collcalc/fit.h"

#include <stdio.h>
#include <string.h>

/* The built-in NCCL constants, parsed once per process. */
static collcalc_nccl_constants_table *builtin_constants;

bool nccl_func_of(collcalc_op op, collcalc_nccl_func *out)
{
    return collcalc_nccl_func_from_op(op, out);
}

void nccl_choice_text(char *buffer, size_t size, const collcalc_nccl_candidate *candidate)
{
    if (candidate == NULL)
        snprintf(buffer, size, "-");
    else
        snprintf(buffer, size, "%s/%s", collcalc_nccl_algo_name(candidate->algo),
                 collcalc_nccl_proto_name(candidate->proto));
}

static int read_launch(cli_context *ctx, collcalc_nccl_launch *launch)
{
    const char *value = arg_value(&ctx->args, OPT_LAUNCH);
    if (value == NULL)
        return 0;
    if (strcmp(value, "process-per-gpu") == 0)
        *launch = COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
    else if (strcmp(value, "single-process") == 0)
        *launch = COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS;
    else
        return cli_usage_error(ctx, "--launch",
                               "unknown launch mode '%.60s' (process-per-gpu or single-process)",
                               value);
    return 0;
}

int nccl_setup_build(cli_context *ctx, const collcalc_platform *platform, int nodes,
                     int gpus_per_node, const char *version, collcalc_nccl_launch launch,
                     nccl_setup *out)
{
    memset(out, 0, sizeof *out);
    out->platform = platform;
    out->nodes = nodes;
    out->gpus_per_node = gpus_per_node;
    collcalc_diag diag;
    if (builtin_constants == NULL &&
        collcalc_nccl_constants_builtin(&builtin_constants, &diag) != COLLCALC_OK)
        return cli_data_error(ctx, "built-in data/nccl.json", "%s", diag.message);
    const char *wanted = arg_value(&ctx->args, OPT_NCCL_VERSION);
    if (wanted == NULL)
        wanted = version;
    collcalc_status status = collcalc_nccl_constants_find(builtin_constants, wanted,
                                                          &out->constants, &diag);
    if (status != COLLCALC_OK)
        return arg_given(&ctx->args, OPT_NCCL_VERSION)
                   ? cli_usage_error(ctx, "--nccl-version", "%s", diag.message)
                   : cli_data_error(ctx, NULL, "NCCL version '%.60s': %s", wanted, diag.message);
    collcalc_nccl_constants_find(builtin_constants, NULL, &out->newest, NULL);
    int code = read_launch(ctx, &launch);
    if (code != 0)
        return code;
    out->launch = launch;
    const collcalc_link_table *links;
    if ((code = cli_links(ctx, &links)) != 0)
        return code;
    collcalc_nccl_hardware hardware;
    if (collcalc_nccl_hardware_from_platform(platform, links, nodes, gpus_per_node, launch,
                                             &hardware, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, "--platform", "%s: %s", platform->name, diag.message);
    if (arg_given(&ctx->args, OPT_NO_P2P))
        hardware.p2p = false;
    if (collcalc_nccl_system_derive(&hardware, &out->system, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, "--platform", "%s: %s", platform->name, diag.message);
    /* A platform calibrated by 'collcalc fit' carries its fitted values. */
    if (collcalc_nccl_system_apply_fit(&platform->nccl_fit, &out->system, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, "--platform", "%s: %s", platform->name, diag.message);
    out->system.cuda_graph = arg_given(&ctx->args, OPT_CUDA_GRAPH);
    out->system.symmetric = arg_given(&ctx->args, OPT_SYMMETRIC);
    if ((code = cli_number(ctx, OPT_FABRIC_EFFICIENCY, 0.05, 1.0,
                           &out->system.fabric_efficiency)) != 0)
        return code;
    collcalc_nccl_options_init(&out->options);
    out->options.refined = out->newest;
    if (arg_given(&ctx->args, OPT_FAITHFUL))
        out->options.corrections = 0;
    const char *algo = arg_value(&ctx->args, OPT_NCCL_ALGO);
    if (algo != NULL &&
        collcalc_nccl_parse_algo_env(algo, out->options.algo_mask, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, "--nccl-algo", "%s", diag.message);
    const char *proto = arg_value(&ctx->args, OPT_NCCL_PROTO);
    if (proto != NULL &&
        collcalc_nccl_parse_proto_env(proto, out->options.proto_mask, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, "--nccl-proto", "%s", diag.message);
    return 0;
}
