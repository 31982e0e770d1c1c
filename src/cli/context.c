/* The command context: errors, warnings, tables, inputs, option values,
 * rendering (context.h). */
#include "context.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/units.h"
#include "commands.h"
#include "messages.h"
#include "helpers.h"

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 0)))
#endif
static void report(cli_context *ctx, const char *where, bool pointer, const char *format,
                   va_list args)
{
    char message[512];
    vsnprintf(message, sizeof message, format, args);
    for (char *c = message; *c != '\0'; c++)
        if (*c == '\n' || *c == '\r' || *c == '\t')
            *c = ' ';
    /* A library message may already start with the option it concerns. */
    if (where != NULL && strncmp(message, where, strlen(where)) == 0 &&
        message[strlen(where)] == ':')
        where = NULL;
    fprintf(ctx->err, "collcalc %s: ", ctx->name);
    if (where != NULL && where[0] != '\0')
        fprintf(ctx->err, "%s: ", where);
    fputs(message, ctx->err);
    if (pointer && strstr(message, "(see ") == NULL)
        fprintf(ctx->err, " (see 'collcalc %s --help')", ctx->name);
    fputc('\n', ctx->err);
}

int cli_usage_error(cli_context *ctx, const char *option, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report(ctx, option, true, format, args);
    va_end(args);
    return EXIT_USAGE;
}

int cli_data_error(cli_context *ctx, const char *where, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report(ctx, where, false, format, args);
    va_end(args);
    return EXIT_DATA;
}

int cli_strict_failure(cli_context *ctx, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    report(ctx, "--strict", false, format, args);
    va_end(args);
    return EXIT_VIOLATION;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 0)))
#endif
static void queue(cli_context *ctx, const char *kind, const char *format, va_list args)
{
    if (ctx->warning_count >= WARNINGS_MAX)
        return;
    char *slot = ctx->warnings[ctx->warning_count++];
    int used = snprintf(slot, sizeof ctx->warnings[0], "%s: ", kind);
    vsnprintf(slot + used, sizeof ctx->warnings[0] - (size_t)used, format, args);
    /* The sides of a comparison may say the same thing: once is enough. */
    for (int i = 0; i + 1 < ctx->warning_count; i++)
        if (strcmp(ctx->warnings[i], slot) == 0) {
            ctx->warning_count--;
            break;
        }
}

void cli_warn(cli_context *ctx, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    queue(ctx, "warning", format, args);
    va_end(args);
}

void cli_note(cli_context *ctx, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    queue(ctx, "note", format, args);
    va_end(args);
}

const char *cli_spelled(const cli_context *ctx, option_id id)
{
    static char fallback[48];
    if (ctx->args.spelled[id] != NULL) {
        /* "--size=8" is spelled "--size" */
        const char *spelled = ctx->args.spelled[id];
        if (spelled[1] == '-')
            return option_long(id, fallback, sizeof fallback);
        return spelled[0] == '-' && spelled[1] != '\0' && spelled[2] == '\0'
                   ? spelled
                   : option_long(id, fallback, sizeof fallback);
    }
    return option_long(id, fallback, sizeof fallback);
}

const char *cli_input_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

int cli_open_input(cli_context *ctx, const char *path, FILE **out_file)
{
    bool from_stdin = strcmp(path, "-") == 0;
    if (from_stdin && ctx->stdin_used)
        return cli_usage_error(ctx, NULL, "standard input ('-') can be read only once");
    FILE *file = from_stdin ? ctx->in : fopen(path, "rb");
    if (file == NULL)
        return cli_data_error(ctx, cli_input_name(path), "cannot open: %s", strerror(errno));
    if (from_stdin)
        ctx->stdin_used = true;
    *out_file = file;
    return 0;
}

void cli_close_input(cli_context *ctx, FILE *file)
{
    if (file != ctx->in)
        fclose(file);
}

int cli_read_input(cli_context *ctx, const char *path, char **out_text, size_t *out_length)
{
    enum { MAX_FILE_BYTES = 64 << 20 };
    FILE *file = NULL;
    int code = cli_open_input(ctx, path, &file);
    if (code != 0)
        return code;
    const char *shown = cli_input_name(path);
    size_t capacity = 1 << 14, length = 0, got;
    char *text = malloc(capacity + 1);
    while (text != NULL && (got = fread(text + length, 1, capacity - length, file)) > 0) {
        length += got;
        if (length < capacity)
            continue;
        if (capacity >= MAX_FILE_BYTES) {
            free(text);
            cli_close_input(ctx, file);
            return cli_data_error(ctx, shown, "larger than 64 MiB");
        }
        capacity *= 2;
        char *bigger = realloc(text, capacity + 1);
        if (bigger == NULL)
            free(text);
        text = bigger;
    }
    bool failed = ferror(file) != 0;
    cli_close_input(ctx, file);
    if (text == NULL)
        return cli_data_error(ctx, shown, "out of memory");
    if (failed) {
        free(text);
        return cli_data_error(ctx, shown, "read error");
    }
    text[length] = '\0';
    *out_text = text;
    *out_length = length;
    return 0;
}

/* ---- tables --------------------------------------------------------------- */

/* The session notes not yet queued (the tables' "replaces the built-in"
 * lines), as notes of this command. */
static void queue_session_notes(cli_context *ctx)
{
    size_t count = collcalc_session_note_count(ctx->session);
    for (; ctx->session_notes < count; ctx->session_notes++)
        cli_note(ctx, "%s", collcalc_session_note(ctx->session, ctx->session_notes));
}

/* A user's table file into the session (load is one of the session's
 * loaders, with the mode). Returns 0 or an exit code. */
typedef collcalc_status (*table_loader)(collcalc_session *session, const char *text,
                                        size_t length, const char *name,
                                        collcalc_table_mode mode, collcalc_diag *diag);

static int load_table(cli_context *ctx, option_id overlay_id, option_id only_id,
                      table_loader load)
{
    const char *overlay = arg_value(&ctx->args, overlay_id);
    const char *only = arg_value(&ctx->args, only_id);
    const char *path = only != NULL ? only : overlay;
    if (path == NULL)
        return 0;
    char *text;
    size_t length;
    int code = cli_read_input(ctx, path, &text, &length);
    if (code != 0)
        return code;
    collcalc_diag diag;
    collcalc_status status = load(ctx->session, text, length, cli_input_name(path),
                                  only != NULL ? COLLCALC_TABLE_REPLACE : COLLCALC_TABLE_OVERLAY,
                                  &diag);
    free(text);
    if (status != COLLCALC_OK)
        return cli_data_error(ctx, NULL, "%s", diag.message);
    queue_session_notes(ctx);
    return 0;
}

int cli_session(cli_context *ctx, collcalc_session **out)
{
    if (ctx->session == NULL) {
        collcalc_diag diag;
        if (collcalc_session_new(&ctx->session, &diag) != COLLCALC_OK)
            return cli_data_error(ctx, NULL, "out of memory");
        ctx->session_owned = true;
        ctx->session_notes = 0;
        if (arg_given(&ctx->args, OPT_LINKS_FILE) && arg_given(&ctx->args, OPT_LINKS_ONLY))
            return cli_usage_error(ctx, "--links-only", "give --links or --links-only, not both");
        if (arg_given(&ctx->args, OPT_PLATFORMS_FILE) && arg_given(&ctx->args, OPT_PLATFORMS_ONLY))
            return cli_usage_error(ctx, "--platforms-only",
                                   "give --platforms or --platforms-only, not both");
        int code = load_table(ctx, OPT_LINKS_FILE, OPT_LINKS_ONLY, collcalc_session_load_links);
        if (code == 0)
            code = load_table(ctx, OPT_PLATFORMS_FILE, OPT_PLATFORMS_ONLY,
                              collcalc_session_load_platforms);
        if (code != 0) {
            collcalc_session_free(ctx->session);
            ctx->session = NULL;
            return code;
        }
    }
    *out = ctx->session;
    return 0;
}

/* A table of the session: a failure is a bad built-in table. */
static int table_failed(cli_context *ctx, const char *what, const collcalc_diag *diag)
{
    return cli_data_error(ctx, what, "%s", diag->message);
}

int cli_links(cli_context *ctx, const collcalc_link_table **out)
{
    collcalc_session *session = NULL;
    int code = cli_session(ctx, &session);
    collcalc_diag diag;
    if (code == 0 && collcalc_session_links(session, out, &diag) != COLLCALC_OK)
        code = table_failed(ctx, "built-in data/links.json", &diag);
    return code;
}

int cli_platforms(cli_context *ctx, const collcalc_platform_table **out)
{
    collcalc_session *session = NULL;
    int code = cli_session(ctx, &session);
    collcalc_diag diag;
    if (code == 0 && collcalc_session_platforms(session, out, &diag) != COLLCALC_OK)
        code = table_failed(ctx, "built-in data/platforms.json", &diag);
    return code;
}

int cli_models(cli_context *ctx, const collcalc_model_table **out)
{
    collcalc_session *session = NULL;
    int code = cli_session(ctx, &session);
    if (code != 0)
        return code;
    const char *path = arg_value(&ctx->args, OPT_MODEL_FILE);
    if (path != NULL && !ctx->models_loaded) {
        char *text;
        size_t length;
        if ((code = cli_read_input(ctx, path, &text, &length)) != 0)
            return code;
        collcalc_diag diag;
        collcalc_status status = collcalc_session_load_models(session, text, length,
                                                              cli_input_name(path), &diag);
        free(text);
        if (status != COLLCALC_OK)
            return cli_data_error(ctx, NULL, "%s", diag.message);
        queue_session_notes(ctx);
    }
    ctx->models_loaded = true;
    collcalc_diag diag;
    if (collcalc_session_models(session, out, &diag) != COLLCALC_OK)
        return table_failed(ctx, "built-in data/models.json", &diag);
    return 0;
}

int cli_model(cli_context *ctx, const collcalc_model_shape **out)
{
    const collcalc_model_table *table;
    int code = cli_models(ctx, &table);
    if (code != 0)
        return code;
    const char *name = arg_value(&ctx->args, OPT_MODEL);
    char known[1024];
    collcalc_model_table_names(table, known, sizeof known);
    if (name == NULL)
        return cli_usage_error(ctx, "--model", "missing: the model, one of %s", known);
    collcalc_diag diag;
    if (collcalc_model_table_lookup(table, NULL, name, out, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, "--model", "%s", diag.message);
    return 0;
}

/* What an option getter returns once its value is parsed: 0 when status is
 * COLLCALC_OK, else the usage error for option id with diag's message. */
static int option_result(cli_context *ctx, option_id id, collcalc_status status,
                         const collcalc_diag *diag)
{
    if (status == COLLCALC_OK)
        return 0;
    return cli_usage_error(ctx, cli_spelled(ctx, id), "%s", diag->message);
}

int cli_dtype(cli_context *ctx, option_id id, collcalc_dtype fallback, collcalc_dtype *out)
{
    *out = fallback;
    const char *value = arg_value(&ctx->args, id);
    collcalc_diag diag;
    if (value == NULL)
        return 0;
    return option_result(ctx, id, collcalc_dtype_from_name(value, out, &diag), &diag);
}

int cli_time(cli_context *ctx, option_id id, double *out_us)
{
    const char *value = arg_value(&ctx->args, id);
    collcalc_diag diag;
    if (value == NULL)
        return 0;
    return option_result(ctx, id, collcalc_time_us_parse(value, out_us, &diag), &diag);
}

/* ---- option values ---------------------------------------------------------- */

int cli_count(cli_context *ctx, option_id id, long min_value, long max_value, long *out)
{
    const char *value = arg_value(&ctx->args, id);
    collcalc_diag diag;
    if (value == NULL)
        return 0;
    return option_result(ctx, id, collcalc_count_parse(value, min_value, max_value, out, &diag),
                         &diag);
}

int cli_size(cli_context *ctx, option_id id, uint64_t *out)
{
    const char *value = arg_value(&ctx->args, id);
    collcalc_diag diag;
    if (value == NULL)
        return 0;
    return option_result(ctx, id, collcalc_size_bytes_parse(value, out, &diag), &diag);
}

int cli_number(cli_context *ctx, option_id id, double min_value, double max_value, double *out)
{
    const char *value = arg_value(&ctx->args, id);
    collcalc_diag diag;
    if (value == NULL)
        return 0;
    return option_result(ctx, id,
                         collcalc_number_parse(value, min_value, max_value, out, &diag), &diag);
}

int cli_operation(cli_context *ctx, collcalc_op *out)
{
    const char *word = arg_value(&ctx->args, OPT_OP);
    if (ctx->args.positional_count > (word == NULL ? 1 : 0))
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'",
                               arg_positional(&ctx->args, ctx->args.positional_count - 1));
    if (word == NULL && ctx->args.positional_count == 1)
        word = ctx->args.positionals[0];
    if (word == NULL)
        return cli_usage_error(ctx, NULL, "missing the operation, e.g. 'collcalc %s allreduce'",
                               ctx->name);
    collcalc_diag diag;
    if (collcalc_op_from_name(word, out, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    return 0;
}

int cli_basis(cli_context *ctx, collcalc_bw_basis *out)
{
    const char *value = arg_value(&ctx->args, OPT_BW_BASIS);
    *out = COLLCALC_BW_PER_DIRECTION;
    if (value == NULL || strcmp(value, "per-direction") == 0)
        return 0;
    if (strcmp(value, "headline") == 0) {
        *out = COLLCALC_BW_HEADLINE;
        return 0;
    }
    char shown[80];
    message_cut(shown, sizeof shown, value, strlen(value));
    return cli_usage_error(ctx, "--bw-basis", "unknown basis '%s' (per-direction or headline)",
                           shown);
}

/* ---- output ---------------------------------------------------------------- */

int cli_emit(cli_context *ctx, document *doc)
{
    int code = 0;
    if (ctx->report_dropped) {
        doc_free(doc);
        return 0;
    }
    if (doc == NULL || doc_render(doc, ctx->format, ctx->out) != 0)
        code = cli_data_error(ctx, NULL, "out of memory");
    doc_free(doc);
    return code;
}

int cli_finish(cli_context *ctx, int code)
{
    if (fflush(ctx->out) != 0 || ferror(ctx->out)) {
        fprintf(ctx->err, "collcalc %s: error writing output: %s\n", ctx->name,
                errno != 0 ? strerror(errno) : "write failed");
        return code == 0 ? EXIT_DATA : code;
    }
    if (code == 0 && !arg_given(&ctx->args, OPT_QUIET))
        for (int i = 0; i < ctx->warning_count; i++)
            fprintf(ctx->err, "collcalc %s: %s\n", ctx->name, ctx->warnings[i]);
    return code;
}

void cli_context_free(cli_context *ctx)
{
    options_free(&ctx->args);
    if (ctx->session_owned)
        collcalc_session_free(ctx->session);
    ctx->session = NULL;
    ctx->session_owned = false;
}
