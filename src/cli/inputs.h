/* What several commands read the same way: a platform named on the
 * command line, and an nccl-tests run from a file or stdin. */
#ifndef COLLCALC_CLI_INPUTS_H
#define COLLCALC_CLI_INPUTS_H

#include "collcalc/nccl_tests_reader.h"
#include "collcalc/paste.h"
#include "collcalc/platforms.h"
#include "context.h"

/* The platform called `name` (a name or alias) in the context's table, or a
 * usage error naming --platform with the nearest names. Returns 0 or an
 * exit code. */
int cli_platform_named(cli_context *ctx, const char *name, const collcalc_platform **out);

/* "<stdin>" for "-", else path: how messages name an input. */
const char *input_shown(const char *path);

/* Reads one nccl-tests run in bounded memory; --op and --gpus supply what
 * the file does not say. A data error names the file and line. Returns 0
 * or an exit code; on 0 the caller frees run. */
int read_nccl_tests_run(cli_context *ctx, const char *path, collcalc_nccl_tests_run *run);

/* Reads a whole paste (runs, NCCL log lines, matrices) in bounded memory;
 * --op and --gpus apply to every run. Returns 0 or an exit code; on 0 the
 * caller frees result (collcalc_paste_result_free). */
int read_paste(cli_context *ctx, const char *path, collcalc_paste_result *result);

#endif
