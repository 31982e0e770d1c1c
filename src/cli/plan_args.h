/* Options the planning commands (kv, moe, plan) share: degrees, token
 * counts, the cluster the plan runs on. */
#ifndef COLLCALC_CLI_PLAN_ARGS_H
#define COLLCALC_CLI_PLAN_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "collcalc/cluster_spec.h"
#include "context.h"

/* --tokens (required: a usage error names the option; 8k = 8192). */
int plan_tokens(cli_context *ctx, uint64_t *out);

/* A token-count option (k = 1,024, M = 1,048,576); *out unchanged when
 * absent. */
int plan_token_option(cli_context *ctx, option_id id, uint64_t *out);

/* A degree option: 1 when absent, else 1..1,000,000. */
int plan_degree(cli_context *ctx, option_id id, int *out);

/* Whether any cluster option was given (--link, --platform, --gpus-per-node,
 * --intra, --inter, ...). */
bool plan_has_cluster(const cli_context *ctx);

/* The --platform preset (NULL when not given or unknown: the cluster
 * resolution says so) and the link table (out_links may be NULL). Returns 0
 * or an exit code. */
int plan_platform(cli_context *ctx, const collcalc_platform **out,
                  const collcalc_link_table **out_links);

/* Resolves the cluster options for a group of `gpus` GPUs (used as --gpus
 * when neither --gpus nor --nodes is given). *single_link says the query was
 * one homogeneous link. Returns 0 or an exit code. */
int plan_cluster(cli_context *ctx, long gpus, collcalc_cluster *out, bool *single_link,
                 collcalc_bw_basis *out_basis);

#endif
