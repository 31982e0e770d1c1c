/* The command table: each command's name, its function, and what its
 * --help says (usage, description, option groups, examples). Help texts
 * are generated from this table and the option registry (help.c); the
 * tests run every example. */
#ifndef COLLCALC_CLI_COMMANDS_H
#define COLLCALC_CLI_COMMANDS_H

#include <stdio.h>

#include "collcalc/answer.h"
#include "context.h"
#include "rows.h"
#include "options.h"

typedef int (*command_fn)(cli_context *ctx);

typedef struct {
    const char *title;           /* "What to move" */
    const option_use *options;   /* terminated by {OPT_NONE} */
} option_group;

typedef struct command_spec {
    const char *name;
    command_fn run;
    const char *summary;         /* one line for 'collcalc --help' */
    const char *usage;           /* argument lines after "collcalc NAME ", '\n'-separated */
    const char *description;     /* paragraph(s) */
    const option_group *groups;  /* terminated by {NULL} */
    const char *const *examples; /* full command lines, NULL-terminated */
    int op;                      /* the collcalc_op of a collective command, else -1 */
} command_spec;

/* Every command, in the order 'collcalc --help' lists them. */
const command_spec *command_table(size_t *out_count);

/* The command named word (or an operation alias such as "ar"), or NULL. */
const command_spec *command_find(const char *word);

/* Prints a command's --help. */
void help_print(FILE *out, const command_spec *spec);

/* Option groups several commands share (commands_common.c). */
extern const option_group COLLECTIVE_GROUPS[];

int cmd_collective(cli_context *ctx);
/* A collective question resolved from its options, all but the size: the
 * library's prepared question (cluster, model, algorithms, repetitions)
 * and --explain. batch keeps the plans of recent lines to answer a line
 * that differs from one only in --size. A plain value. */
typedef struct {
    collcalc_prepared prepared;
    bool explain; /* --explain */
} collective_plan;

/* What a collective command answers, as the records of doc (alpha-beta
 * results, or NCCL's candidates with the NCCL model); the lines for people
 * and the query object only when format shows them. The plan it resolved
 * goes to *out_plan. Returns 0 or an exit code (after the message). */
int collective_document(cli_context *ctx, document *doc, output_format format,
                        collective_plan *out_plan);

/* The plan of ctx's options (the size aside). Returns 0 or an exit code
 * (after the message); warnings are queued on ctx. */
int collective_prepare(cli_context *ctx, collective_plan *plan);

/* What collective_document answers for a plan and a size. */
int collective_answer(cli_context *ctx, const collective_plan *plan, uint64_t size_bytes,
                      document *doc, output_format format);
int cmd_batch(cli_context *ctx);
int cmd_compare(cli_context *ctx);
int cmd_sweep(cli_context *ctx);
int cmd_links(cli_context *ctx);
int cmd_platforms(cli_context *ctx);
int cmd_topo(cli_context *ctx);
int cmd_diagnose(cli_context *ctx);
int cmd_models(cli_context *ctx);
int cmd_check(cli_context *ctx);
int cmd_fit(cli_context *ctx);
int cmd_kv(cli_context *ctx);
int cmd_moe(cli_context *ctx);
int cmd_plan(cli_context *ctx);
int cmd_completion(cli_context *ctx);

#endif
