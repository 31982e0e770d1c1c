/* The files a command writes (fit --output, --svg): opened through the
 * safe writer (output_file.h) with the command's inputs, its errors said
 * the CLI's way. */
#ifndef COLLCALC_CLI_OUTPUT_TARGET_H
#define COLLCALC_CLI_OUTPUT_TARGET_H

#include "context.h"
#include "output_file.h"

/* Opens path, given with option (--output, --svg), for writing: a usage
 * error when it is one of the command's inputs (an operand or a FILE
 * option), a data error when it cannot be created. "-" is the standard
 * output, which then holds this file alone: the report is not printed
 * (ctx->report_dropped). Returns 0 or an exit code. */
int output_target_open(cli_context *ctx, option_id option, const char *path, output_file *f);

/* Finishes the file: 0, or a data error naming path, what it is ("the
 * SVG", "the platform file") and the reason (the old file kept). */
int output_target_commit(cli_context *ctx, const char *path, const char *what, output_file *f);

#endif
