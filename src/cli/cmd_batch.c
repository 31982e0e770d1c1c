/* collcalc batch [FILE|-]: one collective query per line (written like the
 * command line, or a CSV whose header names the options), one CSV row or
 * JSON object per result, each with its input line number. Every line goes
 * through the same option parser, validation and model as the single
 * command (collective_document); the tables are loaded once, output is
 * written into one buffer, and memory stays bounded for any input. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "batch_cache.h"
#include "batch_input.h"
#include "batch_rows.h"
#include "commands.h"
#include "collcalc/units.h"
#include "messages.h"
#include "helpers.h"

enum { OUTPUT_BUFFER = 1 << 20, ARGS_MAX = 2 * BATCH_WORDS_MAX + 2 };

/* The prepared questions of recent lines are kept (batch_cache.h), keyed
 * by the line with the value of --size left out: a line that differs from
 * one of them only in its size is answered from the plan without being
 * split, parsed and resolved again; a bad size sends it down the whole
 * path, which says so as the single command would. Lines whose plan
 * queued a warning, NCCL-model lines, and lines that spell the size
 * another way are never kept and take the single command's whole path
 * every time. */
enum { PLAN_EXPLAIN = 1 }; /* a kept plan's flag: --explain */

typedef struct {
    cli_context *ctx;  /* the batch command's */
    cli_context *line; /* reused for every query line */
    option_use accepted[OPT_COUNT + 1];
    const char *shown; /* the input as messages name it */
    output_format format;
    batch_rows rows;
    FILE *capture;               /* a line's own error message lands here */
    document *doc;               /* reused for every line (doc_reset) */
    batch_cache *plans;
    bool line_args_set; /* line->args hold the last parsed line's options */
    char capture_text[2048];
    long failed;
    long last_line; /* the last line run */
    bool csv; /* CSV input, with its header */
    batch_csv_header header;
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

/* Keeps the plan of a line the whole path answered: only when the parser
 * took the key's size word as the size, and nothing was said about it. */
static void keep_plan(batch_state *s, const batch_key *key, const command_spec *spec,
                      const collective_plan *plan)
{
    const cli_context *line = s->line;
    if (key->size_value == NULL || line->warning_count > 0 ||
        plan->prepared.model == COLLCALC_COST_MODEL_NCCL || line->args.count[OPT_SIZE] != 1 ||
        arg_value(&line->args, OPT_SIZE) != key->size_value)
        return;
    batch_cache_keep(s->plans, key, spec, plan->explain ? PLAN_EXPLAIN : 0, &plan->prepared);
}

/* The document of an answered line as rows, and the line's warnings. */
static void write_answer(batch_state *s, long line_no, const command_spec *spec)
{
    const cli_context *line = s->line;
    char why[1536];
    batch_rows_status status = batch_rows_document(&s->rows, s->doc, line_no, spec->name, why,
                                                   sizeof why);
    if (status != BATCH_ROWS_OK)
        line_error(s, line_no, "%s", why);
    if (status == BATCH_ROWS_USAGE)
        return;
    bool quiet = arg_given(&s->ctx->args, OPT_QUIET) || arg_given(&line->args, OPT_QUIET);
    for (int i = 0; i < line->warning_count && !quiet; i++)
        fprintf(s->ctx->err, "collcalc batch: %s:%ld: %s: %s\n", s->shown, line_no, spec->name,
                line->warnings[i]);
}

/* A line answered from a kept plan: its size parsed, the plan costed.
 * False when the line must take the whole path instead (its size is bad:
 * the whole path says so in the single command's words). */
static inline bool answer_from_plan(batch_state *s, long line_no, const batch_plan *kept,
                                    const char *size_text)
{
    uint64_t size_bytes;
    collcalc_diag diag;
    if (collcalc_size_bytes_parse(size_text, &size_bytes, &diag) != COLLCALC_OK)
        return false;
    const command_spec *spec = kept->command;
    cli_context *line = s->line;
    line->spec = spec;
    line->name = spec->name;
    line->warning_count = 0;
    if (s->line_args_set) { /* this line gave no option to read: --quiet and the like */
        memset(line->args.count, 0, sizeof line->args.count);
        s->line_args_set = false;
    }
    /* Alpha-beta results go straight into rows (the kept plans are all
     * alpha-beta), costed now and written with the pending ones. */
    if (batch_rows_direct(&s->rows)) {
        if (!batch_rows_queue(&s->rows, &kept->prepared, line_no, size_bytes, &diag)) {
            cli_data_error(line, NULL, "%s", diag.message);
            relay(s, line_no);
        }
        return true;
    }
    batch_rows_flush_pending(&s->rows);
    doc_reset(s->doc);
    collective_plan plan = {kept->prepared, (kept->flags & PLAN_EXPLAIN) != 0};
    if (collective_answer(line, &plan, size_bytes, s->doc, s->format) != 0)
        relay(s, line_no);
    else
        write_answer(s, line_no, spec);
    return true;
}

/* One query: words[0] the command, the rest its options. A line's key
 * (its plan was not kept) comes with it; else the words are keyed. */
static void run_query(batch_state *s, long line_no, int argc, char **argv, const size_t *lengths,
                      const batch_key *line_key)
{
    batch_key word_key;
    if (line_key == NULL) {
        batch_key_words(&word_key, argc, argv, lengths);
        const batch_plan *kept = batch_cache_find(s->plans, &word_key);
        if (kept != NULL && answer_from_plan(s, line_no, kept, word_key.size_value))
            return;
    }
    const batch_key *key = line_key != NULL ? line_key : &word_key;
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
    s->line_args_set = true;
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
    doc_reset(s->doc);
    collective_plan plan;
    int code = collective_document(line, s->doc, s->format, &plan);
    if (code != 0) {
        relay(s, line_no);
        return;
    }
    keep_plan(s, key, spec, &plan);
    write_answer(s, line_no, spec);
}

/* A CSV header's column: an option of the collective commands that may
 * be given in a query (batch_csv_header_read). */
static bool resolve_column(void *context, const char *name, batch_csv_column *out, char *why,
                           size_t size)
{
    const batch_state *s = context;
    option_id id = OPT_NONE;
    const char *names[OPT_COUNT];
    size_t name_count = 0;
    for (const option_use *use = s->accepted; use->id != OPT_NONE; use++) {
        const option_def *def = option_def_of(use->id);
        if (refused_in_line(use->id) == NULL)
            names[name_count++] = def->name;
        if (strcmp(def->name, name) == 0 || (def->alias != NULL && strcmp(def->alias, name) == 0))
            id = use->id;
    }
    if (id == OPT_NONE) {
        char hint[160];
        collcalc_suggest_text(hint, sizeof hint, name, names, name_count);
        snprintf(why, size, " is not an option of the collective commands%s", hint);
        return false;
    }
    const char *refused = refused_in_line(id);
    if (refused != NULL) {
        snprintf(why, size, ": %s", refused);
        return false;
    }
    const option_def *def = option_def_of(id);
    option_long(id, out->spelled, sizeof out->spelled);
    snprintf(out->name, sizeof out->name, "%s", def->name);
    out->flag = def->value_name == NULL;
    out->repeatable = id == OPT_ALGO;
    return true;
}

/* The CSV header: "op" and option names of the collective commands. */
static int read_header(batch_state *s, long line_no, char *text, size_t length)
{
    char why[512];
    s->csv = true;
    if (batch_csv_header_read(&s->header, text, length, resolve_column, s, why, sizeof why))
        return 0;
    line_error(s, line_no, "%s", why);
    return EXIT_DATA;
}

/* A CSV row becomes the argument vector the same query would have. */
static void run_csv_row(batch_state *s, long line_no, char *text, size_t length)
{
    char *argv[ARGS_MAX + 1];
    size_t lengths[ARGS_MAX];
    char why[512];
    int argc = batch_csv_row_words(&s->header, text, length, argv, lengths, ARGS_MAX, why,
                                   sizeof why);
    if (argc < 0)
        line_error(s, line_no, "%s", why);
    else
        run_query(s, line_no, argc, argv, lengths, NULL);
}

/* A query line: answered from a kept plan when one matches its key, else
 * split into words and run. */
static void run_line(batch_state *s, batch_line *line)
{
    char *text = line->text;
    long line_no = line->line_no;
    batch_key *key = &line->key;
    bool keyed = batch_line_keyed(line);
    const batch_plan *kept = keyed ? batch_cache_find(s->plans, key) : NULL;
    if (kept != NULL) {
        size_t value_end = line->value_end;
        char after = text[value_end]; /* the size value as a string, for a moment */
        text[value_end] = '\0';
        bool answered = answer_from_plan(s, line_no, kept, key->size_value);
        text[value_end] = after;
        if (answered)
            return;
    }
    batch_rows_flush_pending(&s->rows); /* this line's rows or message come after theirs */
    size_t length = line->length;
    if (keyed)
        batch_key_copy(key); /* the split below writes into the line */
    char *words[BATCH_WORDS_MAX + 1];
    size_t lengths[BATCH_WORDS_MAX];
    const char *error = NULL;
    int n = batch_split_words(text, length, words, lengths, BATCH_WORDS_MAX, &error);
    if (n < 0) {
        line_error(s, line_no, "%s", error);
        return;
    }
    words[n] = NULL;
    run_query(s, line_no, n, words, lengths, keyed ? key : NULL);
}

static int read_lines(batch_state *s, batch_reader *reader, bool fail_fast);

/* The lines, then the rows still pending. */
static int batch_loop(batch_state *s, batch_reader *reader, bool fail_fast)
{
    int code = read_lines(s, reader, fail_fast);
    batch_rows_flush_pending(&s->rows);
    return code;
}

/* One line in its turn (read_lines); false when batch stops there (*code:
 * 0, or the exit code of a bad CSV header). */
static bool run_read_line(batch_state *s, batch_line *line, bool *first, bool fail_fast, int *code)
{
    long failed_before = s->failed;
    char why[96];
    if (line->status != BATCH_LINE_OK || !line->plain || s->csv || *first)
        batch_rows_flush_pending(&s->rows); /* a line run_line does not take: after the rows before it */
    if (line->status == BATCH_LINE_TOO_LONG) {
        line_error(s, line->line_no, "longer than %d bytes; skipped", BATCH_LINE_MAX);
    } else if (!line->plain &&
               batch_check_text(line->text, line->length, why, sizeof why) != NULL) {
        line_error(s, line->line_no, "%s; skipped", why);
    } else if (batch_is_blank(line->text, line->length)) {
        return true;
    } else if (*first && batch_looks_like_csv(line->text, line->length)) {
        *first = false;
        *code = read_header(s, line->line_no, line->text, line->length);
        if (*code != 0)
            return false;
    } else if (s->csv) {
        run_csv_row(s, line->line_no, line->text, line->length);
    } else {
        *first = false;
        run_line(s, line);
    }
    *code = 0;
    return !(fail_fast && s->failed > failed_before) && !s->rows.out.failed;
}

/* Set by SIGINT while batch runs (cmd_batch): the lines stop at the next
 * line boundary, the rows of the lines before it are written whole. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number)
{
    (void)signal_number;
    interrupted = 1;
}

static int read_lines(batch_state *s, batch_reader *reader, bool fail_fast)
{
    bool first = true;
    batch_line group[BATCH_LINE_GROUP];
    for (;;) {
        /* Until the first query line has run (it may be a CSV header), and
         * in CSV input, one line at a time. */
        size_t count = 0;
        batch_line_status status = batch_read_group(reader, !first && !s->csv, group, &count);
        if (status == BATCH_LINE_END)
            return 0;
        if (status == BATCH_LINE_READ_ERROR)
            return cli_data_error(s->ctx, s->shown, "read error");
        if (status == BATCH_LINE_RUNAWAY) {
            batch_rows_flush_pending(&s->rows);
            return cli_data_error(s->ctx, s->shown,
                                  "line %ld: over %d MiB without a line break: not a file of "
                                  "queries; stopped there",
                                  reader->line, BATCH_LINE_RUNAWAY_BYTES >> 20);
        }
        for (size_t i = 0; i < count; i++) {
            int code = 0;
            if (!run_read_line(s, &group[i], &first, fail_fast, &code))
                return code;
            s->last_line = group[i].line_no;
            if (interrupted)
                return 0;
        }
    }
}

/* --columns: the list parsed for each model's results; refused when it
 * fits neither. */
static int read_columns(batch_state *s)
{
    char why[1024];
    switch (batch_rows_columns(&s->rows, s->doc, arg_value(&s->ctx->args, OPT_COLUMNS), why,
                               sizeof why)) {
    case BATCH_ROWS_OK: return 0;
    case BATCH_ROWS_USAGE: return cli_usage_error(s->ctx, "--columns", "%s", why);
    default: return cli_data_error(s->ctx, NULL, "out of memory");
    }
}

/* Reads batch's input: SIGINT is let in only while a read waits. */
batch_source_status batch_file_read(void *source, char *into, size_t room, size_t *got)
{
    batch_file *file = source;
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    if (file->interruptible)
        sigprocmask(SIG_UNBLOCK, &interrupt, NULL);
    errno = 0;
    *got = fread(into, 1, room, file->in);
    int why = errno;
    if (file->interruptible)
        sigprocmask(SIG_BLOCK, &interrupt, NULL);
    if (file->interruptible && why == EINTR && ferror(file->in)) {
        clearerr(file->in);
        return BATCH_SOURCE_STOPPED;
    }
    return *got == 0 && ferror(file->in) ? BATCH_SOURCE_ERROR : BATCH_SOURCE_OK;
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
    collcalc_session *session = NULL;
    int code = cli_session(ctx, &session); /* once, with the batch's --links, --platforms */
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
    batch_file file = {in, false};
    bool ready = s != NULL && line != NULL && batch_reader_init(&reader, batch_file_read, &file);
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
    line->session_owned = false; /* the batch's session, lent to every line */
    line->stdin_used = ctx->stdin_used || from_stdin;
    line->format = chosen;
    s->capture = fmemopen(s->capture_text, sizeof s->capture_text, "w");
    line->err = s->capture;
    s->doc = doc_new("batch");
    s->plans = batch_cache_new();
    if (s->capture == NULL || s->doc == NULL || s->plans == NULL ||
        !batch_rows_init(&s->rows, ctx->out, chosen, OUTPUT_BUFFER)) {
        code = cli_data_error(ctx, NULL, "out of memory");
    } else if ((code = read_columns(s)) == 0) {
        /* SIGINT stops batch between lines: blocked (so no write is cut
         * short) but while the reader waits for input. */
        struct sigaction action, previous;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_interrupt;
        sigemptyset(&action.sa_mask);
        sigset_t block, old_mask;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        interrupted = 0;
        sigaction(SIGINT, &action, &previous);
        sigprocmask(SIG_BLOCK, &block, &old_mask);
        file.interruptible = true;
        code = batch_loop(s, &reader, arg_given(&ctx->args, OPT_FAIL_FAST));
        /* A write error is cli_finish's to report (ferror); memory is ours. */
        if (!batch_rows_flush(&s->rows) && code == 0 && !ferror(ctx->out))
            code = cli_data_error(ctx, NULL, "out of memory");
        fflush(ctx->out); /* still with SIGINT held */
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        sigaction(SIGINT, &previous, NULL);
        if (interrupted && code == 0) {
            fprintf(ctx->err,
                    "collcalc batch: interrupted: stopped after line %ld of %s; the rows of the "
                    "lines before are written whole\n",
                    s->last_line, s->shown);
            code = EXIT_INTERRUPTED;
        }
    }
    options_free(&line->args);
    if (s->capture != NULL)
        fclose(s->capture);
    doc_free(s->doc);
    batch_cache_free(s->plans);
    batch_rows_free(&s->rows);
    batch_reader_free(&reader);
    if (!from_stdin)
        fclose(in);
    if (code == 0 && s->failed > 0)
        code = EXIT_DATA;
    free(line);
    free(s);
    return code;
}
