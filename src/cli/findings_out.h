/* The --strict failure of a command's findings (their records and lines:
 * src/output/findings_doc.h); and reading an input file line by line in
 * bounded memory. */
#ifndef COLLCALC_CLI_FINDINGS_OUT_H
#define COLLCALC_CLI_FINDINGS_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "collcalc/findings.h"
#include "context.h"
#include "findings_doc.h"
#include "record.h"

/* The --strict failure of a report whose findings hold an error: one line
 * on stderr naming how many and their codes; returns EXIT_VIOLATION. */
int findings_strict_failure(cli_context *ctx, const collcalc_findings *findings);

/* Calls line_fn for each line of path ('-' = stdin), read by batch's line
 * reader (batch_lines.h), without its newline ("\n" or "\r\n") or a UTF-8
 * byte order mark;
 * lines longer than max_line bytes are cut to max_line (the rest is read
 * and dropped), so memory stays bounded for any input; a line over
 * READ_LINE_REFUSE_BYTES (/dev/zero) ends the read with a data error. Returns 0 or an exit
 * code (a file that cannot be opened or read). */
/* A longer line is refused (a data error naming the line). */
#define READ_LINE_REFUSE_BYTES (1 << 20)
typedef void (*line_fn)(void *context, const char *line, size_t length, long number);
int read_lines(cli_context *ctx, const char *path, size_t max_line, line_fn fn, void *context);

/* The single FILE operand of a reader command (or '-'): usage error when
 * missing or doubled. */
int input_operand(cli_context *ctx, const char **out_path);

#endif
