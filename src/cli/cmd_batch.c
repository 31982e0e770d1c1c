/* collcalc batch [FILE|-]: one collective query per line (written like the
 * command line, or a CSV whose header names the options), one CSV row or
 * JSON object per result, each with its input line number. Every line goes
 * through the same option parser, validation and model as the single
 * command (collective_document); the tables are loaded once, output is
 * written into one buffer, and memory stays bounded for any input. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "batch_lines.h"
#include "commands.h"
#include "messages.h"
#include "nccl_view.h"
#include "rows.h"

enum { OUTPUT_BUFFER = 1 << 20, ARGS_MAX = 2 * BATCH_WORDS_MAX + 2 };

typedef struct {
    cli_context *ctx;  /* the batch command's */
    cli_context *line; /* reused for every query line */
    option_use accepted[OPT_COUNT + 1];
    const char *shown; /* the input as messages name it */
    output_format format;
    row_buffer out;
    const record_schema *schema; /* CSV: the columns, fixed by the first result */
    FILE *capture;               /* a line's own error message lands here */
    char capture_text[2048];
    long failed;
    /* CSV input: the header's columns */
    bool csv;
    int columns, op_column;
    option_id column_id[BATCH_WORDS_MAX];
    char column_option[BATCH_WORDS_MAX][48]; /* "--size" */
} batch_state;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static void line_error(batch_state *s, long line, const char *format, ...)
{
    char message[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    fprintf(s->ctx->err, "collcalc batch: %s:%ld: %s\n", s->shown, line, message);
    s->failed++;
}

/* The message a query's command wrote ("collcalc allreduce: --size: ..."),
 * said again with the line number. */
static void relay(batch_state *s, long line)
{
    fflush(s->capture);
    long length = ftell(s->capture);
    rewind(s->capture);
    if (length < 0)
        length = 0;
    if ((size_t)length >= sizeof s->capture_text)
        length = (long)sizeof s->capture_text - 1;
    char *text = s->capture_text;
    text[length] = '\0';
    char *end = strchr(text, '\n');
    if (end != NULL)
        *end = '\0';
    if (strncmp(text, "collcalc ", 9) == 0)
        text += 9;
    line_error(s, line, "%s", text[0] != '\0' ? text : "failed");
}

/* Options that belong on the batch command line, not in a query. */
static const char *refused_in_line(option_id id)
{
    switch (id) {
    case OPT_LINKS_FILE:
    case OPT_LINKS_ONLY:
    case OPT_PLATFORMS_FILE:
    case OPT_PLATFORMS_ONLY:
        return "give table options on the batch command line: the tables are loaded once";
    case OPT_FORMAT: return "give --format on the batch command line";
    case OPT_HELP: return "--help is not a query";
    default: return NULL;
    }
}

/* One query: words[0] the command, the rest its options. */
static void run_query(batch_state *s, long line_no, int argc, char **argv)
{
    const command_spec *spec = command_find(argv[0]);
    char shown[COLLCALC_ECHO_BUFFER];
    if (spec == NULL || spec->op < 0) {
        collcalc_echo(shown, sizeof shown, argv[0]);
        if (spec == NULL)
            line_error(s, line_no, "unknown command '%s' (batch runs collective queries: "
                                   "allreduce, allgather, reducescatter, alltoall, broadcast, "
                                   "reduce, sendrecv)", shown);
        else
            line_error(s, line_no, "batch runs collective queries; %s is not one", spec->name);
        return;
    }
    cli_context *line = s->line;
    line->spec = spec;
    line->name = spec->name;
    line->warning_count = 0;
    parse_error error;
    if (!options_parse(s->accepted, argc, argv, &line->args, &error)) {
        cli_usage_error(line, NULL, "%s", error.message);
        relay(s, line_no);
        return;
    }
    for (const option_use *use = s->accepted; use->id != OPT_NONE; use++) {
        const char *why = line->args.count[use->id] > 0 ? refused_in_line(use->id) : NULL;
        if (why != NULL) {
            line_error(s, line_no, "%s: %s: %s", spec->name, cli_spelled(line, use->id), why);
            return;
        }
    }
    document *doc = doc_new(spec->name);
    int code = doc != NULL ? collective_document(line, doc, s->format)
                           : cli_data_error(line, NULL, "out of memory");
    /* A table the line loaded (the platforms, over --links) is the batch's. */
    if (line->platforms_owned && s->ctx->platforms == NULL) {
        s->ctx->platforms = line->platforms;
        s->ctx->platforms_owned = true;
        line->platforms_owned = false;
    }
    if (code != 0) {
        doc_free(doc);
        relay(s, line_no);
        return;
    }
    const record_schema *schema = rows_schema(doc);
    if (s->format == FORMAT_CSV && schema != NULL) {
        if (s->schema == NULL) {
            s->schema = schema;
            rows_csv_header(&s->out, "line", schema);
        } else if (schema != s->schema) {
            doc_free(doc);
            line_error(s, line_no,
                       "%s: this query uses the %s model, whose columns differ from the first "
                       "result's; give --cost-model on every line, or use --format jsonl",
                       spec->name, schema == &NCCL_SCHEMA ? "NCCL" : "alpha-beta");
            return;
        }
    }
    if (rows_write(&s->out, doc, s->format, "line", line_no) < 0 && !s->out.failed)
        line_error(s, line_no, "out of memory");
    doc_free(doc);
    bool quiet = arg_given(&s->ctx->args, OPT_QUIET) || arg_given(&line->args, OPT_QUIET);
    for (int i = 0; i < line->warning_count && !quiet; i++)
        fprintf(s->ctx->err, "collcalc batch: %s:%ld: %s: %s\n", s->shown, line_no, spec->name,
                line->warnings[i]);
}

/* The CSV header: "op" and option names of the collective commands. */
static int read_header(batch_state *s, long line_no, char *text, size_t length)
{
    char *fields[BATCH_WORDS_MAX];
    const char *why = NULL;
    int n = batch_split_csv(text, length, fields, BATCH_WORDS_MAX, &why);
    if (n < 0) {
        line_error(s, line_no, "CSV header: %s", why);
        return EXIT_DATA;
    }
    s->csv = true;
    s->columns = n;
    s->op_column = -1;
    const char *names[OPT_COUNT];
    size_t name_count = 0;
    for (const option_use *use = s->accepted; use->id != OPT_NONE; use++)
        if (refused_in_line(use->id) == NULL)
            names[name_count++] = option_def_of(use->id)->name;
    for (int c = 0; c < n; c++) {
        const char *name = fields[c];
        while (*name == '-')
            name++;
        s->column_id[c] = OPT_NONE;
        if (strcmp(name, "op") == 0 && s->op_column < 0) {
            s->op_column = c;
            continue;
        }
        for (const option_use *use = s->accepted; use->id != OPT_NONE; use++) {
            const option_def *def = option_def_of(use->id);
            if (strcmp(def->name, name) == 0 || (def->alias != NULL && strcmp(def->alias, name) == 0))
                s->column_id[c] = use->id;
        }
        char shown[COLLCALC_ECHO_BUFFER];
        collcalc_echo(shown, sizeof shown, fields[c]);
        if (s->column_id[c] == OPT_NONE) {
            char hint[160];
            message_suggest(hint, sizeof hint, name, names, name_count, "");
            line_error(s, line_no, "CSV header: column '%s' is not an option of the collective "
                                   "commands%s",
                       shown, hint);
            return EXIT_DATA;
        }
        if ((why = refused_in_line(s->column_id[c])) != NULL) {
            line_error(s, line_no, "CSV header: column '%s': %s", shown, why);
            return EXIT_DATA;
        }
        option_long(s->column_id[c], s->column_option[c], sizeof s->column_option[c]);
    }
    if (s->op_column < 0) {
        line_error(s, line_no, "CSV header: no 'op' column (the collective of each row: "
                               "allreduce, allgather, ...)");
        return EXIT_DATA;
    }
    return 0;
}

static bool word_in(const char *word, const char *const *list)
{
    for (; *list != NULL; list++)
        if (strcmp(word, *list) == 0)
            return true;
    return false;
}

/* A CSV row becomes the argument vector the same query would have. */
static void run_csv_row(batch_state *s, long line_no, char *text, size_t length)
{
    static const char *const YES[] = {"true", "yes", "1", "on", NULL};
    static const char *const NO[] = {"false", "no", "0", "off", NULL};
    char *fields[BATCH_WORDS_MAX];
    const char *why = NULL;
    int n = batch_split_csv(text, length, fields, BATCH_WORDS_MAX, &why);
    if (n < 0) {
        line_error(s, line_no, "%s", why);
        return;
    }
    if (n != s->columns) {
        line_error(s, line_no, "%d field%s; the header has %d", n, n == 1 ? "" : "s", s->columns);
        return;
    }
    char *argv[ARGS_MAX];
    int argc = 0;
    argv[argc++] = fields[s->op_column];
    for (int c = 0; c < n; c++) {
        if (c == s->op_column || fields[c][0] == '\0')
            continue;
        const option_def *def = option_def_of(s->column_id[c]);
        if (def->value_name == NULL) {
            if (word_in(fields[c], NO))
                continue;
            if (!word_in(fields[c], YES)) {
                char shown[COLLCALC_ECHO_BUFFER];
                collcalc_echo(shown, sizeof shown, fields[c]);
                line_error(s, line_no, "column '%s': true or false, not '%s'", def->name, shown);
                return;
            }
            argv[argc++] = s->column_option[c];
            continue;
        }
        /* A repeatable option takes several values separated by ';'. */
        char *value = fields[c];
        bool repeatable = s->column_id[c] == OPT_ALGO;
        for (;;) {
            char *next = repeatable ? strchr(value, ';') : NULL;
            if (next != NULL)
                *next = '\0';
            if (argc + 2 > ARGS_MAX) {
                line_error(s, line_no, "too many values");
                return;
            }
            argv[argc++] = s->column_option[c];
            argv[argc++] = value;
            if (next == NULL)
                break;
            value = next + 1;
        }
    }
    argv[argc] = NULL;
    if (argv[0][0] == '\0') {
        line_error(s, line_no, "no op (the 'op' column is empty)");
        return;
    }
    run_query(s, line_no, argc, argv);
}

static int batch_loop(batch_state *s, batch_reader *reader, bool fail_fast)
{
    bool first = true;
    char why[96];
    for (;;) {
        char *text;
        size_t length;
        batch_line_status status = batch_read_line(reader, &text, &length);
        if (status == BATCH_LINE_END)
            return 0;
        if (status == BATCH_LINE_READ_ERROR)
            return cli_data_error(s->ctx, s->shown, "read error");
        long line_no = reader->line;
        long failed_before = s->failed;
        if (status == BATCH_LINE_TOO_LONG) {
            line_error(s, line_no, "longer than %d bytes; skipped", BATCH_LINE_MAX);
        } else if (batch_check_text(text, length, why, sizeof why) != NULL) {
            line_error(s, line_no, "%s; skipped", why);
        } else if (batch_is_blank(text, length)) {
            continue;
        } else if (first && batch_looks_like_csv(text, length)) {
            first = false;
            int code = read_header(s, line_no, text, length);
            if (code != 0)
                return code;
        } else if (s->csv) {
            run_csv_row(s, line_no, text, length);
        } else {
            first = false;
            char *words[BATCH_WORDS_MAX + 1];
            const char *error = NULL;
            int n = batch_split_words(text, length, words, BATCH_WORDS_MAX, &error);
            if (n < 0)
                line_error(s, line_no, "%s", error);
            else {
                words[n] = NULL;
                run_query(s, line_no, n, words);
            }
        }
        if (fail_fast && s->failed > failed_before)
            return 0;
        if (s->out.failed)
            return 0;
    }
}

int cmd_batch(cli_context *ctx)
{
    const char *format = arg_value(&ctx->args, OPT_FORMAT);
    output_format chosen = FORMAT_CSV;
    if (format != NULL && strcmp(format, "jsonl") == 0)
        chosen = FORMAT_JSONL;
    else if (format != NULL && strcmp(format, "csv") != 0)
        return cli_usage_error(ctx, "--format",
                               "batch writes csv (the default) or jsonl (one JSON object per "
                               "line), not '%.20s'%s",
                               format,
                               strcmp(format, "json") == 0
                                   ? ": one JSON document would hold every result in memory"
                                   : "");
    if (ctx->args.positional_count > 1)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s' (one input: FILE or -)",
                               ctx->args.positionals[1]);
    const char *path = ctx->args.positional_count == 1 ? ctx->args.positionals[0] : "-";
    bool from_stdin = strcmp(path, "-") == 0;
    static const option_id TABLE_FILES[] = {OPT_LINKS_FILE, OPT_LINKS_ONLY, OPT_PLATFORMS_FILE,
                                             OPT_PLATFORMS_ONLY};
    for (size_t i = 0; from_stdin && i < sizeof TABLE_FILES / sizeof TABLE_FILES[0]; i++) {
        const char *table = arg_value(&ctx->args, TABLE_FILES[i]);
        if (table != NULL && strcmp(table, "-") == 0)
            return cli_usage_error(ctx, cli_spelled(ctx, TABLE_FILES[i]),
                                   "standard input ('-') can be read only once: it holds the "
                                   "queries; give the table as a file, or the queries as FILE");
    }
    const collcalc_link_table *links;
    int code = cli_links(ctx, &links); /* once, with the batch's --links */
    if (code != 0)
        return code;
    if (from_stdin && ctx->stdin_used)
        return cli_usage_error(ctx, NULL, "standard input ('-') can be read only once");
    FILE *in = from_stdin ? ctx->in : fopen(path, "rb");
    if (in == NULL)
        return cli_data_error(ctx, path, "cannot open: %s", strerror(errno));

    batch_state *s = calloc(1, sizeof *s);
    cli_context *line = malloc(sizeof *line);
    batch_reader reader;
    bool ready = s != NULL && line != NULL && batch_reader_init(&reader, in);
    if (!ready) {
        if (s != NULL && line != NULL)
            batch_reader_free(&reader);
        free(s);
        free(line);
        if (!from_stdin)
            fclose(in);
        return cli_data_error(ctx, NULL, "out of memory");
    }
    s->ctx = ctx;
    s->line = line;
    s->shown = from_stdin ? "<stdin>" : path;
    s->format = chosen;
    ctx->format = chosen;
    /* The options every collective command accepts, as run_command lists
     * them for one. */
    size_t count = 0;
    const command_spec *allreduce = command_find("allreduce");
    for (const option_group *group = allreduce->groups; group->title != NULL; group++)
        for (const option_use *use = group->options; use->id != OPT_NONE && count < OPT_COUNT;
             use++)
            s->accepted[count++] = *use;
    s->accepted[count] = (option_use){OPT_NONE, false, NULL};
    memcpy(line, ctx, sizeof *line);
    line->links_owned = line->platforms_owned = line->models_owned = false;
    line->stdin_used = ctx->stdin_used || from_stdin;
    line->format = chosen;
    s->capture = fmemopen(s->capture_text, sizeof s->capture_text, "w");
    line->err = s->capture;
    if (s->capture == NULL || !row_buffer_init(&s->out, ctx->out, OUTPUT_BUFFER)) {
        code = cli_data_error(ctx, NULL, "out of memory");
    } else {
        code = batch_loop(s, &reader, arg_given(&ctx->args, OPT_FAIL_FAST));
        /* A write error is cli_finish's to report (ferror); memory is ours. */
        if (!row_buffer_flush(&s->out) && code == 0 && !ferror(ctx->out))
            code = cli_data_error(ctx, NULL, "out of memory");
    }
    if (line->platforms_owned)
        collcalc_platform_table_free(line->platforms);
    if (s->capture != NULL)
        fclose(s->capture);
    row_buffer_free(&s->out);
    batch_reader_free(&reader);
    if (!from_stdin)
        fclose(in);
    if (code == 0 && s->failed > 0)
        code = EXIT_DATA;
    free(line);
    free(s);
    return code;
}
