/* NCCL's model for a run whose shape the command knows (check, fit, plan):
 * a platform, node count and launch mode with argv's NCCL options, set up
 * by the library (collcalc_prepare_nccl). */
#ifndef COLLCALC_CLI_NCCL_SETUP_H
#define COLLCALC_CLI_NCCL_SETUP_H

#include <stdbool.h>

#include "collcalc/answer.h"
#include "context.h"

typedef struct {
    const collcalc_platform *platform;           /* borrowed from the session's table */
    collcalc_nccl_system system;
    const collcalc_nccl_constants *constants;    /* the release's (selection) */
    collcalc_nccl_options options;
    collcalc_nccl_launch launch;
    int nodes, gpus_per_node;
} nccl_setup;

/* Builds the setup for `nodes` nodes of `gpus_per_node` GPUs of platform.
 * version: the run's NCCL version (NULL: --nccl-version, else the newest);
 * launch: the run's (used unless --launch says otherwise). Reads
 * --nccl-version, --launch, --cuda-graph, --symmetric, --fabric-efficiency,
 * --nccl-algo, --nccl-proto, --no-p2p and --faithful. Returns 0 or an exit
 * code. */
int nccl_setup_build(cli_context *ctx, const collcalc_platform *platform, int nodes,
                     int gpus_per_node, const char *version, collcalc_nccl_launch launch,
                     nccl_setup *out);

#endif
