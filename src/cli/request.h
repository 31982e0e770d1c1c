/* argv -> request: the options of a collective question as a
 * collcalc_request (collcalc/answer.h), and the library's answers to it
 * (errors naming a field, warnings, notes) said in the command line's
 * terms (the field's flag). */
#ifndef COLLCALC_CLI_REQUEST_H
#define COLLCALC_CLI_REQUEST_H

#include <stdbool.h>

#include "collcalc/answer.h"
#include "context.h"

/* A request and the text it borrows (the --topo file), freed by
 * request_free. */
typedef struct {
    collcalc_request request;
    char *topo_text;
} cli_request;

/* The cluster options of argv applied to a spec (on top of what it
 * holds). Returns 0 or a usage error's exit code. */
int request_spec_from_args(cli_context *ctx, collcalc_cluster_spec *spec);

/* The --algo choices, each checked against the op (an algorithm that does
 * not exist for the op is a usage error naming the ones that do). *count 0
 * means all. Returns 0 or an exit code. */
int request_algos(cli_context *ctx, collcalc_op op, collcalc_algo *algos, size_t *count);

/* The question of argv for op: cluster options, --topo (read now),
 * --algo, --layers/--per-layer, --cost-model and NCCL's options. with_cluster
 * false leaves the cluster options out (compare's sides say them). Returns
 * 0 or an exit code; free with request_free either way. */
int request_from_args(cli_context *ctx, collcalc_op op, bool with_cluster, cli_request *out);
void request_free(cli_request *request);

/* --cost-model, --launch and NCCL's options of argv into r. Returns 0 or
 * an exit code. */
int request_nccl_from_args(cli_context *ctx, collcalc_request *r);

/* The cluster of spec (and --topo): collcalc_request_cluster, its warnings
 * queued. info may be NULL. Returns 0 or an exit code. */
int request_cluster(cli_context *ctx, const collcalc_cluster_spec *spec, collcalc_cluster *out,
                    collcalc_cluster_info *info);

/* collcalc_prepare, its warnings and notes queued on ctx, its error said
 * with the field's flag. Returns 0 or an exit code. */
int request_prepare(cli_context *ctx, const collcalc_request *request,
                    collcalc_prepared *out);

/* collcalc_evaluate, a failure said as a usage error. */
int request_evaluate(cli_context *ctx, const collcalc_prepared *prepared, uint64_t size_bytes,
                     collcalc_answer *out);

/* A library error (status, the field at fault or NULL, its message) as the
 * command line says it: a usage error naming the field's flag, or a data
 * error. Returns the exit code. */
int request_error(cli_context *ctx, collcalc_status status, const char *field,
                  const collcalc_diag *diag);

/* A model's refusal of a question at a size: "size_bytes: ..." names the
 * option that gave the size (--size, --sizes, -e); anything else is a
 * usage error (usage) or a data error. Returns the exit code. */
int request_model_error(cli_context *ctx, collcalc_status status, bool usage,
                        const collcalc_diag *diag);

#endif
