/* What every command shares: its streams, the parsed options, the tables
 * (loaded once, only when needed, user files overlaying the built-in
 * ones), the output format, and the one-line errors with their exit codes. */
#ifndef COLLCALC_CLI_CONTEXT_H
#define COLLCALC_CLI_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "collcalc/answer.h"
#include "collcalc/links.h"
#include "collcalc/model.h"
#include "collcalc/models.h"
#include "collcalc/platforms.h"
#include "options.h"
#include "record.h"

/* Exit codes (doc/collcalc.1, 'collcalc --help'). */
enum {
    EXIT_OK = 0,
    EXIT_DATA = 1,     /* bad table or input file, unreadable file, write error */
    EXIT_USAGE = 2,    /* bad option or value */
    EXIT_VIOLATION = 3, /* --strict: the input is fine but breaks a rule */
    EXIT_INTERRUPTED = 130 /* batch stopped by SIGINT (128 + 2, as shells report it) */
};

struct command_spec;

#define WARNINGS_MAX 8

typedef struct cli_context {
    const struct command_spec *spec;
    const char *name; /* the command word as dispatched: "allreduce" */
    FILE *in, *out, *err;
    parsed_args args;
    output_format format;

    collcalc_session *session; /* the tables; NULL until cli_session() */
    bool session_owned;        /* false: batch's, lent to its lines */
    size_t session_notes;      /* the session's notes queued so far */
    bool models_loaded;        /* --model-file is in the session */
    bool stdin_used;                    /* '-' may be read once */
    bool report_dropped; /* stdout holds a file (--svg -, --output -): cli_emit prints nothing */

    int warning_count; /* printed by cli_finish on success only */
    char warnings[WARNINGS_MAX][256];
} cli_context;

/* "collcalc CMD: OPTION: message (see 'collcalc CMD --help')" on stderr;
 * returns EXIT_USAGE. option may be NULL. A message that already points
 * somewhere ("(see ...") gets no second pointer. */
int cli_usage_error(cli_context *ctx, const char *option, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* "collcalc CMD: WHERE: message" on stderr; returns EXIT_DATA. */
int cli_data_error(cli_context *ctx, const char *where, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* "collcalc CMD: --strict: message" on stderr (the one line saying why a
 * report that was printed fails the check); returns EXIT_VIOLATION. */
int cli_strict_failure(cli_context *ctx, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Queues a warning; it is printed (after the output) only if the command
 * succeeds: a failing run prints exactly one line on stderr. */
void cli_warn(cli_context *ctx, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Queues a note ("note: <stdin> replaces the built-in link nvlink5"),
 * printed like warnings. */
void cli_note(cli_context *ctx, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* How the user wrote an option ("--size", "-s"), for messages. */
const char *cli_spelled(const cli_context *ctx, option_id id);

/* The session: the tables, built-in, overlaid by --links / --platforms
 * FILE or replaced by --links-only / --platforms-only FILE (read when the
 * session is first asked for). Returns 0 or an exit code. */
int cli_session(cli_context *ctx, collcalc_session **out);

/* The session's link table. Returns 0 or an exit code (after the message). */
int cli_links(cli_context *ctx, const collcalc_link_table **out);

/* The platform table (after the links), the same way. */
int cli_platforms(cli_context *ctx, const collcalc_platform_table **out);

/* The --model shape (required: a usage error names the known ones), from
 * the built-in table overlaid by --model-file FILE. */
int cli_model(cli_context *ctx, const collcalc_model_shape **out);
/* The model table alone (built-in + --model-file). */
int cli_models(cli_context *ctx, const collcalc_model_table **out);

/* A dtype option (default when absent), a duration option in us. */
int cli_dtype(cli_context *ctx, option_id id, collcalc_dtype fallback, collcalc_dtype *out);
int cli_time(cli_context *ctx, option_id id, double *out_us);

/* How messages name an input path: "<stdin>" for "-", else path. */
const char *cli_input_name(const char *path);

/* Opens path for reading, or the command's standard input for "-" (which
 * may be read once); reports a failure and returns its exit code, else 0
 * with *out_file to close with cli_close_input. */
int cli_open_input(cli_context *ctx, const char *path, FILE **out_file);
void cli_close_input(cli_context *ctx, FILE *file);

/* Reads a file, or stdin for "-", into a NUL-terminated buffer the caller
 * frees (at most 64 MiB). Returns 0 or an exit code. */
int cli_read_input(cli_context *ctx, const char *path, char **out_text, size_t *out_length);

/* Option values with their checks; each returns 0 or the usage error's
 * code. A missing option leaves *out unchanged. */
int cli_count(cli_context *ctx, option_id id, long min_value, long max_value, long *out);
int cli_size(cli_context *ctx, option_id id, uint64_t *out);
int cli_number(cli_context *ctx, option_id id, double min_value, double max_value, double *out);
int cli_basis(cli_context *ctx, collcalc_bw_basis *out);

/* The operation of compare and sweep: the one word after the command, or
 * --op. Returns 0 or the usage error's exit code. */
int cli_operation(cli_context *ctx, collcalc_op *out);

/* Renders the document in ctx->format, prints queued warnings, checks
 * that stdout took everything. Frees doc. Returns the exit code. */
int cli_emit(cli_context *ctx, document *doc);

/* Final step of every command: flushes stdout and reports a write error
 * (exit 1). */
int cli_finish(cli_context *ctx, int code);

void cli_context_free(cli_context *ctx);

#endif
