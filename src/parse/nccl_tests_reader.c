/* Streaming reader for nccl-tests output (include/collcalc/nccl_tests_reader.h).
 * Lines are classified one at a time (preamble, device lines, table header,
 * data row, footer, noise); rows are stored up to a cap; at the end the op,
 * ranks and busbw factor are inferred and every stored row is checked
 * against its own numbers. Numbers are read through collcalc/units.h. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_tests_reader.h"
#include "collcalc/alloc.h"
#include "collcalc/units.h"
#include "text_lines.h"
#include "helpers.h"

#define TOKENS_MAX 48
#define HOSTS_MAX 128
#define HOST_NAME_MAX_BYTES 64
#define LINES_KEPT 8

/* Column kinds of a table layout. */
typedef enum {
    COL_SIZE,
    COL_COUNT,
    COL_TYPE,
    COL_REDOP,
    COL_ROOT,
    COL_TIME,
    COL_ALGBW,
    COL_BUSBW,
    COL_WRONG,
    COL_TIMESTAMP,
    COL_OTHER
} column_kind;

typedef struct {
    column_kind kind;
    int group; /* 0 out-of-place, 1 in-place */
} column;

/* Half a unit of the last printed digit of each number of a measurement. */
typedef struct {
    double time, algbw, busbw;
} rounding;

typedef struct {
    rounding group[2];
} row_rounding;

/* A count plus the first few line numbers, for one finding. */
typedef struct {
    size_t count;
    int kept;
    long lines[LINES_KEPT];
} line_list;

typedef struct {
    char name[HOST_NAME_MAX_BYTES];
    int ranks;
} host_entry;

struct collcalc_nccl_tests_reader {
    collcalc_nccl_tests_reader_options options;
    size_t max_rows;
    collcalc_nccl_tests_run run;
    row_rounding *roundings; /* parallel to run.rows */
    size_t capacity;
    bool finished;
    long line; /* last line number used */

    /* current table layout */
    column columns[TOKENS_MAX];
    int column_count;
    bool have_layout;
    bool layout_timestamp;
    long header_line;
    bool saw_header;
    long first_header_line;
    bool header_bad;
    long header_bad_line;
    char header_missing[16];
    int table; /* index of the current table; -1 before any */
    bool in_place_label; /* "out-of-place ... in-place" label line seen */

    /* op evidence */
    bool banner_known;
    collcalc_op banner_op;
    long banner_line;
    bool ignoring; /* rows of a second op are not read */
    long unmodelled_line; /* a banner naming a binary collcalc does not model */
    char unmodelled[40];
    char mixed_name[40];
    long mixed_line;
    size_t mixed_rows;
    int command_state; /* 0 none, 1 one op, 2 several */
    collcalc_op command_op;
    long command_line;
    bool saw_preamble;

    /* devices */
    int max_rank;
    host_entry hosts[HOSTS_MAX];
    int host_count;
    long pids[HOSTS_MAX]; /* distinct (host index, pid) pairs, folded into one number */
    int pid_count;
    int pid_lines; /* device lines with both a host and a pid */
    bool pids_overflow;
    bool hosts_overflow;
    bool models_differ;
    long models_differ_line;

    /* per-line findings collected while streaming */
    line_list skipped;
    char skip_reason[160];
    long noise_line;
    char noise_reason[160];
    line_list zero_time;
    line_list size_order;
    line_list avg_mismatch;
    long out_of_bounds_line;
    double avg_mismatch_printed, avg_mismatch_rows;

    /* previous row, for the size order */
    bool have_prev;
    uint64_t prev_size;
    char prev_type[COLLCALC_NCCL_TESTS_NAME_MAX];
    char prev_redop[COLLCALC_NCCL_TESTS_NAME_MAX];
    long prev_root;
    int prev_table;

    /* busbw mean: whole input and the current table */
    double sum_all, sum_table;
    size_t n_all, n_table;
};

/* ---- small helpers ------------------------------------------------------ */

const char *collcalc_nccl_tests_source_name(collcalc_nccl_tests_source source)
{
    switch (source) {
    case COLLCALC_NCCL_TESTS_FROM_NONE: return "none";
    case COLLCALC_NCCL_TESTS_FROM_CALLER: return "caller";
    case COLLCALC_NCCL_TESTS_FROM_BANNER: return "banner";
    case COLLCALC_NCCL_TESTS_FROM_DEVICES: return "device-lines";
    case COLLCALC_NCCL_TESTS_FROM_COMMAND: return "command-line";
    case COLLCALC_NCCL_TESTS_FROM_COLUMNS: return "columns";
    case COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO: return "busbw-ratio";
    case COLLCALC_NCCL_TESTS_FROM_LOG: return "log";
    case COLLCALC_NCCL_TESTS_FROM_HEADING: return "heading";
    case COLLCALC_NCCL_TESTS_FROM_PREVIOUS_RUN: return "previous run";
    }
    return "unknown";
}

const char *collcalc_nccl_tests_launch_name(collcalc_nccl_tests_launch launch)
{
    switch (launch) {
    case COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU: return "process-per-gpu";
    case COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS: return "single-process";
    case COLLCALC_NCCL_TESTS_LAUNCH_UNKNOWN: break;
    }
    return "unknown";
}

const char *collcalc_nccl_tests_check_name(collcalc_nccl_tests_check check)
{
    switch (check) {
    case COLLCALC_NCCL_TESTS_CHECK_OK: return "ok";
    case COLLCALC_NCCL_TESTS_CHECK_MISMATCH: return "mismatch";
    case COLLCALC_NCCL_TESTS_CHECK_SKIPPED: break;
    }
    return "skipped";
}

void collcalc_nccl_tests_reader_options_init(collcalc_nccl_tests_reader_options *options)
{
    memset(options, 0, sizeof *options);
    options->version = COLLCALC_NCCL_TESTS_READER_OPTIONS_VERSION;
    options->op = COLLCALC_OP_ALLREDUCE;
}

static void line_list_add(line_list *list, long line)
{
    list->count++;
    if (list->kept < LINES_KEPT)
        list->lines[list->kept++] = line;
}

static void attach_lines(collcalc_finding *finding, const line_list *list)
{
    for (int i = 0; i < list->kept; i++)
        collcalc_finding_add_line(finding, list->lines[i]);
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_' || c == '.' ||
           c == '-';
}

/* Splits buffer in place at blanks; returns the token count (at most max). */
static int tokenize(char *buffer, char **tokens, int max)
{
    int count = 0;
    char *p = buffer;
    while (*p != '\0') {
        while (is_space(*p))
            p++;
        if (*p == '\0')
            break;
        if (count == max)
            return max + 1; /* more than we keep */
        tokens[count++] = p;
        while (*p != '\0' && !is_space(*p))
            p++;
        if (*p != '\0')
            *p++ = '\0';
    }
    return count;
}

/* A whole number with optional '_' or ',' digit separators ("1_048_576"). */
static bool parse_unsigned(const char *token, uint64_t *out)
{
    char digits[32];
    size_t used = 0;
    if (!is_digit(token[0]))
        return false;
    for (const char *p = token; *p != '\0'; p++) {
        if (is_digit(*p)) {
            if (used + 1 >= sizeof digits)
                return false;
            digits[used++] = *p;
        } else if ((*p == '_' || *p == ',') && is_digit(p[1]) && p != token) {
            continue;
        } else {
            return false;
        }
    }
    digits[used] = '\0';
    long value = 0;
    if (collcalc_count_parse(digits, 0, LONG_MAX, &value, NULL) != COLLCALC_OK)
        return false;
    *out = (uint64_t)value;
    return true;
}

/* A token as it may be echoed in one line of text: control bytes become
 * '?', long tokens are cut with "...". */
static void show_token(char *out, size_t size, const char *token)
{
    size_t used = 0;
    for (const char *p = token; *p != '\0' && used + 1 < size; p++)
        out[used++] = ((unsigned char)*p < 0x20 || *p == 0x7f) ? '?' : *p;
    out[used] = '\0';
    if (token[used] != '\0' && size >= 4)
        memcpy(out + size - 4, "...", 4);
}

static bool is_integer_token(const char *token)
{
    if (!is_digit(token[0]))
        return false;
    for (const char *p = token; *p != '\0'; p++)
        if (!is_digit(*p) && *p != '_' && *p != ',')
            return false;
    return true;
}

static bool parse_signed(const char *token, long *out)
{
    bool negative = token[0] == '-';
    uint64_t value = 0;
    if (!parse_unsigned(token + (negative ? 1 : 0), &value) || value > (uint64_t)LONG_MAX)
        return false;
    *out = negative ? -(long)value : (long)value;
    return true;
}

/* A printed decimal ("238.4", "0.00", "1.2e+05") and half a unit of its last
 * digit. */
static bool parse_printed(const char *token, double *out, double *half_unit)
{
    double value = 0.0;
    if (collcalc_number_parse(token, 0.0, 1e18, &value, NULL) != COLLCALC_OK)
        return false;
    int decimals = 0;
    const char *dot = strchr(token, '.');
    const char *exponent = strpbrk(token, "eE");
    if (dot != NULL) {
        const char *end = exponent != NULL ? exponent : token + strlen(token);
        decimals = (int)(end - dot - 1);
    }
    long power = 0;
    if (exponent != NULL) {
        const char *p = exponent + 1;
        bool negative = *p == '-';
        if (*p == '-' || *p == '+')
            p++;
        while (is_digit(*p) && power < 400)
            power = power * 10 + (*p++ - '0');
        if (negative)
            power = -power;
    }
    long scale = power - decimals;
    if (scale < -330)
        scale = -330;
    if (scale > 300)
        scale = 300;
    static const double POWERS[] = {1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4,
                                    1e-3,  1e-2,  1e-1,  1e0,  1e1,  1e2,  1e3,  1e4};
    *out = value;
    *half_unit = 0.5 * (scale >= -12 && scale <= 4 ? POWERS[scale + 12] : pow(10.0, (double)scale));
    return true;
}

/* Copies a name that is_plain_name accepted (or one already stored). */
static void copy_name(char target[COLLCALC_NCCL_TESTS_NAME_MAX], const char *name)
{
    size_t length = strnlen(name, COLLCALC_NCCL_TESTS_NAME_MAX - 1);
    memcpy(target, name, length);
    target[length] = '\0';
}

/* A type or redop name: a letter, then letters, digits, '_', '.', '-'. */
static bool is_plain_name(const char *token)
{
    size_t length = strlen(token);
    if (length == 0 || length >= COLLCALC_NCCL_TESTS_NAME_MAX ||
        !((token[0] >= 'a' && token[0] <= 'z') || (token[0] >= 'A' && token[0] <= 'Z')))
        return false;
    for (size_t i = 0; i < length; i++)
        if (!is_name_char(token[i]))
            return false;
    return true;
}

/* ---- reader lifecycle ---------------------------------------------------- */

static void run_reset(collcalc_nccl_tests_run *run)
{
    memset(run, 0, sizeof *run);
    run->op = COLLCALC_OP_ALLREDUCE;
    run->threads_per_process = 0;
    run->gpus_per_thread = 0;
    run->min_bytes = -1;
    run->max_bytes = -1;
    run->iters = -1;
    run->warmup_iters = -1;
    run->agg_iters = -1;
    run->graph = -1;
    run->out_of_bounds = -1;
    run->busbw_factor = -1.0;
    collcalc_findings_init(&run->findings);
}

collcalc_status collcalc_nccl_tests_reader_create(const collcalc_nccl_tests_reader_options *options,
                                                  collcalc_nccl_tests_reader **out_reader,
                                                  collcalc_diag *diag)
{
    if (out_reader == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the reader");
    *out_reader = NULL;
    collcalc_nccl_tests_reader_options defaults;
    collcalc_nccl_tests_reader_options_init(&defaults);
    if (options == NULL)
        options = &defaults;
    if (options->max_rows > COLLCALC_NCCL_TESTS_ROWS_LIMIT)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "at most %d rows can be kept (asked for %zu)",
                                  COLLCALC_NCCL_TESTS_ROWS_LIMIT, options->max_rows);
    if (options->has_op && (unsigned)options->op >= COLLCALC_OP_COUNT)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown operation %d",
                                  (int)options->op);
    if (options->ranks < 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "rank count %d is negative",
                                  options->ranks);
    collcalc_nccl_tests_reader *reader = collcalc_mem_calloc(1, sizeof *reader);
    if (reader == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory for the reader");
    reader->options = *options;
    reader->max_rows =
        options->max_rows != 0 ? options->max_rows : (size_t)COLLCALC_NCCL_TESTS_ROWS_DEFAULT;
    run_reset(&reader->run);
    reader->table = -1;
    reader->max_rank = -1;
    *out_reader = reader;
    return COLLCALC_OK;
}

void collcalc_nccl_tests_reader_free(collcalc_nccl_tests_reader *reader)
{
    if (reader == NULL)
        return;
    collcalc_mem_free(reader->run.rows);
    collcalc_mem_free(reader->roundings);
    collcalc_mem_free(reader);
}

void collcalc_nccl_tests_run_free(collcalc_nccl_tests_run *run)
{
    if (run == NULL)
        return;
    collcalc_mem_free(run->rows);
    run->rows = NULL;
    run->row_count = 0;
}

/* ---- line kinds ---------------------------------------------------------- */

static column_kind column_named(const char *token, bool *known)
{
    char name[24];
    size_t length = strcspn(token, "(");
    if (length >= sizeof name)
        length = sizeof name - 1;
    memcpy(name, token, length);
    name[length] = '\0';
    *known = true;
    if (strcmp(name, "size") == 0)
        return COL_SIZE;
    if (strcmp(name, "count") == 0)
        return COL_COUNT;
    if (strcmp(name, "type") == 0)
        return COL_TYPE;
    if (strcmp(name, "redop") == 0)
        return COL_REDOP;
    if (strcmp(name, "root") == 0)
        return COL_ROOT;
    if (strcmp(name, "time") == 0 || strcmp(name, "cputime") == 0)
        return COL_TIME;
    if (strcmp(name, "algbw") == 0)
        return COL_ALGBW;
    if (strcmp(name, "busbw") == 0)
        return COL_BUSBW;
    if (strcmp(name, "#wrong") == 0 || strcmp(name, "wrong") == 0)
        return COL_WRONG;
    if (strcmp(name, "timestamp") == 0)
        return COL_TIMESTAMP;
    *known = false;
    return COL_OTHER;
}

static void start_table(collcalc_nccl_tests_reader *reader)
{
    reader->table++;
    reader->run.tables = reader->table + 1;
    reader->sum_table = 0.0;
    reader->n_table = 0;
    reader->have_prev = false;
}

/* A table header ("#  size  count  type ... busbw  #wrong ..." or the
 * excerpt's "size time algbw busbw"). Returns false when the line is not one. */
static bool read_header(collcalc_nccl_tests_reader *reader, char **tokens, int count, long line)
{
    if (count < 2 || count > TOKENS_MAX)
        return false;
    bool known = false;
    if (column_named(tokens[0], &known) != COL_SIZE)
        return false;
    int known_count = 0, unknown_count = 0;
    for (int i = 0; i < count; i++) {
        column_named(tokens[i], &known);
        if (known)
            known_count++;
        else
            unknown_count++;
    }
    if (known_count < 3 || unknown_count > 4)
        return false;

    column columns[TOKENS_MAX];
    bool seen[2][COL_OTHER + 1];
    memset(seen, 0, sizeof seen);
    int group = 0;
    bool cputime = false, timestamp = false;
    for (int i = 0; i < count; i++) {
        column_kind kind = column_named(tokens[i], &known);
        if (kind == COL_TIME && seen[group][COL_TIME] && group == 0)
            group = 1;
        if (kind == COL_TIME && strncmp(tokens[i], "cputime", 7) == 0)
            cputime = true;
        if (kind == COL_TIMESTAMP)
            timestamp = true;
        columns[i].kind = kind;
        columns[i].group = group;
        seen[group][kind] = true;
    }
    reader->saw_header = true;
    if (reader->first_header_line == 0)
        reader->first_header_line = line;
    const char *missing = !seen[0][COL_TIME]    ? "time"
                          : !seen[0][COL_ALGBW] ? "algbw"
                          : !seen[0][COL_BUSBW] ? "busbw"
                          : (group == 1 && (!seen[1][COL_ALGBW] || !seen[1][COL_BUSBW]))
                              ? (!seen[1][COL_ALGBW] ? "in-place algbw" : "in-place busbw")
                              : NULL;
    start_table(reader);
    if (missing != NULL) {
        reader->have_layout = false;
        if (!reader->header_bad) {
            reader->header_bad = true;
            reader->header_bad_line = line;
            snprintf(reader->header_missing, sizeof reader->header_missing, "%s", missing);
        }
        return true;
    }
    memcpy(reader->columns, columns, sizeof columns[0] * (size_t)count);
    reader->column_count = count;
    reader->have_layout = true;
    reader->layout_timestamp = timestamp && columns[count - 1].kind == COL_TIMESTAMP;
    reader->header_line = line;
    if (cputime)
        reader->run.cputime = true;
    if (timestamp)
        reader->run.timestamp = true;
    if (group == 1)
        reader->run.has_in_place = true;
    reader->run.abbreviated = !seen[0][COL_COUNT];
    return true;
}

/* The default layouts for rows without a header: 13 columns (full table),
 * 9 (out-of-place only), 4 (size time algbw busbw). */
static bool default_layout(collcalc_nccl_tests_reader *reader, int count)
{
    static const column full[13] = {
        {COL_SIZE, 0},  {COL_COUNT, 0}, {COL_TYPE, 0},  {COL_REDOP, 0}, {COL_ROOT, 0},
        {COL_TIME, 0},  {COL_ALGBW, 0}, {COL_BUSBW, 0}, {COL_WRONG, 0}, {COL_TIME, 1},
        {COL_ALGBW, 1}, {COL_BUSBW, 1}, {COL_WRONG, 1}};
    static const column brief[4] = {{COL_SIZE, 0}, {COL_TIME, 0}, {COL_ALGBW, 0}, {COL_BUSBW, 0}};
    if (count != 13 && count != 9 && count != 4)
        return false;
    if (count == 4)
        memcpy(reader->columns, brief, sizeof brief);
    else
        memcpy(reader->columns, full, sizeof full[0] * (size_t)count);
    reader->column_count = count;
    reader->have_layout = true;
    reader->layout_timestamp = false;
    return true;
}

static void note_skip(collcalc_nccl_tests_reader *reader, long line, const char *reason)
{
    if (reader->skipped.count == 0)
        snprintf(reader->skip_reason, sizeof reader->skip_reason, "%s", reason);
    line_list_add(&reader->skipped, line);
    reader->run.rows_skipped++;
}

/* A digit-led line outside any table that is not a row: kept only to say
 * why, should nothing at all be readable. */
static void note_noise(collcalc_nccl_tests_reader *reader, long line, const char *reason)
{
    if (reader->noise_line == 0) {
        reader->noise_line = line;
        snprintf(reader->noise_reason, sizeof reader->noise_reason, "%s", reason);
    }
}

static void remember_name(char list[][COLLCALC_NCCL_TESTS_NAME_MAX], size_t *count,
                          const char *name)
{
    for (size_t i = 0; i < *count; i++)
        if (strcmp(list[i], name) == 0)
            return;
    if (*count < COLLCALC_NCCL_TESTS_TYPES_MAX)
        snprintf(list[(*count)++], COLLCALC_NCCL_TESTS_NAME_MAX, "%s", name);
}

static collcalc_status store_row(collcalc_nccl_tests_reader *reader,
                                 const collcalc_nccl_tests_read_row *row,
                                 const row_rounding *round, collcalc_diag *diag)
{
    collcalc_nccl_tests_run *run = &reader->run;
    if (run->row_count >= reader->max_rows) {
        run->rows_dropped++;
        return COLLCALC_OK;
    }
    if (run->row_count == reader->capacity) {
        size_t capacity = reader->capacity == 0 ? 64 : reader->capacity * 2;
        if (capacity > reader->max_rows)
            capacity = reader->max_rows;
        collcalc_nccl_tests_read_row *rows = collcalc_mem_realloc(run->rows, capacity * sizeof *rows);
        if (rows == NULL)
            return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory storing rows");
        run->rows = rows;
        row_rounding *roundings = collcalc_mem_realloc(reader->roundings, capacity * sizeof *roundings);
        if (roundings == NULL)
            return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory storing rows");
        reader->roundings = roundings;
        reader->capacity = capacity;
    }
    run->rows[run->row_count] = *row;
    reader->roundings[run->row_count] = *round;
    run->row_count++;
    return COLLCALC_OK;
}

/* A data row. Returns a status only for NOMEM; bad rows become skips. */
static collcalc_status read_row(collcalc_nccl_tests_reader *reader, char **tokens, int count,
                                long line, collcalc_diag *diag)
{
    if (reader->ignoring) {
        reader->mixed_rows++;
        return COLLCALC_OK;
    }
    if (reader->header_bad && !reader->have_layout) {
        note_skip(reader, line, "the table header above it lacks a column");
        return COLLCALC_OK;
    }
    /* Without a header, a row must fit one of the default layouts; until
     * one does, lines that do not are prose, not broken rows. */
    bool defaulted = false;
    if (!reader->have_layout) {
        if (!default_layout(reader, count)) {
            char reason[96];
            snprintf(reason, sizeof reason,
                     "%d fields where a table row has 13 (or 9, or 4 for size time algbw busbw)",
                     count > TOKENS_MAX ? TOKENS_MAX : count);
            note_noise(reader, line, reason);
            return COLLCALC_OK;
        }
        defaulted = true;
    }
    int expected = reader->column_count;
    if (count > TOKENS_MAX || (reader->layout_timestamp ? count < expected : count != expected)) {
        char reason[96];
        if (count < expected)
            snprintf(reason, sizeof reason, "cut short: %d of the table's %d fields", count,
                     expected);
        else
            snprintf(reason, sizeof reason, "%d fields where the table has %d",
                     count > TOKENS_MAX ? TOKENS_MAX : count, expected);
        note_skip(reader, line, reason);
        return COLLCALC_OK;
    }

    collcalc_nccl_tests_read_row row;
    memset(&row, 0, sizeof row);
    collcalc_nccl_tests_row_init(&row.row);
    row_rounding round;
    memset(&round, 0, sizeof round);
    row.line = line;
    row.table = reader->table < 0 ? 0 : reader->table;
    bool has[2] = {false, false};
    for (int i = 0; i < expected; i++) {
        const char *token = tokens[i];
        int g = reader->columns[i].group;
        collcalc_nccl_tests_measurement *m = g == 0 ? &row.row.out_of_place : &row.row.in_place;
        rounding *r = &round.group[g];
        bool ok = true;
        switch (reader->columns[i].kind) {
        case COL_SIZE: ok = parse_unsigned(token, &row.row.size_bytes); break;
        case COL_COUNT:
            ok = parse_unsigned(token, &row.row.count);
            row.has_count = ok;
            break;
        case COL_TYPE:
            ok = is_plain_name(token);
            if (ok)
                copy_name(row.row.type, token);
            row.has_type = ok;
            break;
        case COL_REDOP:
            ok = is_plain_name(token);
            if (ok)
                copy_name(row.row.redop, token);
            break;
        case COL_ROOT: ok = parse_signed(token, &row.row.root); break;
        case COL_TIME:
            ok = parse_printed(token, &m->time_us, &r->time);
            has[g] = has[g] || ok;
            break;
        case COL_ALGBW: ok = parse_printed(token, &m->algbw_GBps, &r->algbw); break;
        case COL_BUSBW: ok = parse_printed(token, &m->busbw_GBps, &r->busbw); break;
        case COL_WRONG:
            if (strcmp(token, "N/A") == 0) {
                m->wrong = COLLCALC_NCCL_TESTS_WRONG_NA;
                reader->run.wrong_na = true;
            } else {
                double wrong = 0.0, half = 0.0;
                ok = parse_printed(token, &wrong, &half) && wrong <= 1e15;
                m->wrong = ok ? (long)wrong : 0;
            }
            break;
        case COL_TIMESTAMP:
        case COL_OTHER: break;
        }
        if (!ok) {
            char reason[96];
            char shown[28];
            show_token(shown, sizeof shown, token);
            snprintf(reason, sizeof reason, "'%s' is not a valid value for field %d", shown,
                     i + 1);
            if (defaulted) {
                reader->have_layout = false;
                note_noise(reader, line, reason);
            } else {
                note_skip(reader, line, reason);
            }
            return COLLCALC_OK;
        }
    }
    if (defaulted) {
        if (reader->table < 0)
            start_table(reader);
        row.table = reader->table;
        reader->run.abbreviated = count == 4;
        if (count == 13)
            reader->run.has_in_place = true;
    }
    row.row.out_of_place.present = has[0];
    row.row.in_place.present = has[1];
    if (!row.has_type) {
        /* The excerpt has no type column: nothing to say about it. */
        row.row.type[0] = '\0';
        row.row.redop[0] = '\0';
    }
    if ((has[0] && row.row.out_of_place.time_us == 0.0) ||
        (has[1] && row.row.in_place.time_us == 0.0)) {
        row.zero_time = true;
        line_list_add(&reader->zero_time, line);
    }
    if (reader->have_prev && reader->prev_table == row.table &&
        strcmp(reader->prev_type, row.row.type) == 0 &&
        strcmp(reader->prev_redop, row.row.redop) == 0 && reader->prev_root == row.row.root &&
        row.row.size_bytes < reader->prev_size)
        line_list_add(&reader->size_order, line);
    reader->have_prev = true;
    reader->prev_size = row.row.size_bytes;
    reader->prev_table = row.table;
    reader->prev_root = row.row.root;
    copy_name(reader->prev_type, row.row.type);
    copy_name(reader->prev_redop, row.row.redop);
    if (row.has_type) {
        remember_name(reader->run.types, &reader->run.type_count, row.row.type);
        remember_name(reader->run.redops, &reader->run.redop_count, row.row.redop);
    }
    for (int g = 0; g < 2; g++) {
        const collcalc_nccl_tests_measurement *m = g == 0 ? &row.row.out_of_place
                                                          : &row.row.in_place;
        if (!m->present)
            continue;
        reader->sum_all += m->busbw_GBps;
        reader->sum_table += m->busbw_GBps;
        reader->n_all++;
        reader->n_table++;
    }
    return store_row(reader, &row, &round, diag);
}

static bool parse_int_token(const char *token, int *out)
{
    uint64_t value = 0;
    if (!parse_unsigned(token, &value) || value > INT_MAX)
        return false;
    *out = (int)value;
    return true;
}

/* "# nThread 1 nGpus 8 minBytes 134217728 maxBytes 4294967296 step: 2(factor)
 *  warmup iters: 5 iters: 2 agg iters: 1 validation: 1 graph: 0" */
static void read_preamble(collcalc_nccl_tests_reader *reader, char **tokens, int count, long line)
{
    collcalc_nccl_tests_run *run = &reader->run;
    run->header_line = line;
    reader->saw_preamble = true;
    for (int i = 0; i + 1 < count; i++) {
        const char *key = tokens[i];
        const char *value = tokens[i + 1];
        uint64_t number = 0;
        if (strcmp(key, "nThread") == 0)
            parse_int_token(value, &run->threads_per_process);
        else if (strcmp(key, "nGpus") == 0)
            parse_int_token(value, &run->gpus_per_thread);
        else if (strcmp(key, "minBytes") == 0 && parse_unsigned(value, &number))
            run->min_bytes = (long long)number;
        else if (strcmp(key, "maxBytes") == 0 && parse_unsigned(value, &number))
            run->max_bytes = (long long)number;
        else if (strcmp(key, "graph:") == 0)
            parse_int_token(value, &run->graph);
        else if (strcmp(key, "iters:") == 0) {
            const char *before = i > 0 ? tokens[i - 1] : "";
            int *target = strcmp(before, "warmup") == 0 ? &run->warmup_iters
                          : strcmp(before, "agg") == 0  ? &run->agg_iters
                                                        : &run->iters;
            parse_int_token(value, target);
        }
    }
}

/* Text kept from the input is shown to people: no control bytes. */
static void printable(char *text)
{
    for (char *p = text; *p != '\0'; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

/* "#  Rank  0 Group  0 Pid  31745 on HOST device  0 [0000:b4:00] NVIDIA ..." */
static void read_device(collcalc_nccl_tests_reader *reader, const char *text, char **tokens,
                        int count, long line)
{
    int rank = -1, pid = -1;
    const char *host = NULL;
    for (int i = 0; i + 1 < count; i++) {
        if (strcmp(tokens[i], "Rank") == 0)
            parse_int_token(tokens[i + 1], &rank);
        else if (strcmp(tokens[i], "Pid") == 0)
            parse_int_token(tokens[i + 1], &pid);
        else if (strcmp(tokens[i], "on") == 0 && host == NULL)
            host = tokens[i + 1];
    }
    if (rank < 0 || rank > (1 << 24))
        return;
    collcalc_nccl_tests_run *run = &reader->run;
    run->device_lines++;
    if (rank > reader->max_rank)
        reader->max_rank = rank;
    if (host != NULL) {
        int found = -1;
        for (int h = 0; h < reader->host_count; h++)
            if (strncmp(reader->hosts[h].name, host, HOST_NAME_MAX_BYTES - 1) == 0)
                found = h;
        if (found < 0 && reader->host_count < HOSTS_MAX) {
            found = reader->host_count++;
            snprintf(reader->hosts[found].name, HOST_NAME_MAX_BYTES, "%s", host);
        } else if (found < 0) {
            reader->hosts_overflow = true;
        }
        if (found >= 0)
            reader->hosts[found].ranks++;
        /* Several ranks in one process (same host, same pid): -g or -t > 1. */
        if (found >= 0 && pid >= 0) {
            long key = (long)found * 4194304L + pid;
            bool seen = false;
            reader->pid_lines++;
            for (int k = 0; k < reader->pid_count && !seen; k++)
                seen = reader->pids[k] == key;
            if (!seen && reader->pid_count < HOSTS_MAX)
                reader->pids[reader->pid_count++] = key;
            else if (!seen)
                reader->pids_overflow = true;
        }
    }
    /* The GPU model: everything after the "[bus id]" that follows "device". */
    const char *device = strstr(text, " device ");
    const char *bracket = device != NULL ? strchr(device, ']') : NULL;
    if (bracket == NULL)
        return;
    const char *model = bracket + 1;
    while (is_space(*model))
        model++;
    size_t length = strlen(model);
    while (length > 0 && is_space(model[length - 1]))
        length--;
    if (length == 0)
        return;
    if (length >= sizeof run->gpu_model)
        length = sizeof run->gpu_model - 1;
    if (run->gpu_model[0] == '\0') {
        memcpy(run->gpu_model, model, length);
        run->gpu_model[length] = '\0';
        printable(run->gpu_model);
    } else if (strlen(run->gpu_model) != length || strncmp(run->gpu_model, model, length) != 0) {
        if (!reader->models_differ)
            reader->models_differ_line = line;
        reader->models_differ = true;
    }
}

/* The token after `marker` in text (e.g. the version after "NCCL version "). */
static void copy_word_after(const char *text, const char *marker, char *target, size_t size)
{
    const char *at = strstr(text, marker);
    if (at == NULL || target[0] != '\0')
        return;
    at += strlen(marker);
    while (is_space(*at))
        at++;
    size_t length = 0;
    while (at[length] != '\0' && !is_space(at[length]))
        length++;
    if (length == 0 || !is_digit(at[0]))
        return;
    if (length >= size)
        length = size - 1;
    memcpy(target, at, length);
    target[length] = '\0';
    printable(target);
}

/* A *_perf binary named anywhere in a line ("$ ./build/all_reduce_perf -b 8",
 * "mpirun ... all_reduce_perf_mpi", "BENCHMARK=all_gather_perf"). */
static void read_command(collcalc_nccl_tests_reader *reader, char **tokens, int count, long line)
{
    for (int i = 0; i < count && i < TOKENS_MAX; i++) {
        const char *token = tokens[i];
        if (strstr(token, "_perf") == NULL)
            continue;
        const char *start = token;
        for (const char *p = token; *p != '\0'; p++)
            if (*p == '/' || *p == '=' || *p == '`' || *p == '(' || *p == '"' || *p == '\'')
                start = p + 1;
        char name[64];
        size_t length = 0;
        while (start[length] != '\0' && is_name_char(start[length]) && length + 1 < sizeof name)
            length++;
        memcpy(name, start, length);
        name[length] = '\0';
        collcalc_op op;
        if (collcalc_nccl_tests_op_from_binary(name, &op, NULL) != COLLCALC_OK)
            continue;
        if (reader->command_state == 0) {
            reader->command_state = 1;
            reader->command_op = op;
            reader->command_line = line;
        } else if (reader->command_state == 1 && reader->command_op != op) {
            reader->command_state = 2;
        }
    }
}

static void read_banner(collcalc_nccl_tests_reader *reader, const char *name, long line)
{
    collcalc_op op;
    if (collcalc_nccl_tests_op_from_binary(name, &op, NULL) != COLLCALC_OK) {
        /* gather_perf, scatter_perf, hypercube_perf, alltoallv_perf, ...:
         * real nccl-tests runs of ops collcalc does not model; their rows
         * are not read. */
        if (reader->unmodelled_line == 0) {
            reader->unmodelled_line = line;
            show_token(reader->unmodelled, sizeof reader->unmodelled, name);
        }
        if (reader->banner_known && reader->mixed_line == 0) {
            reader->mixed_line = line;
            show_token(reader->mixed_name, sizeof reader->mixed_name, name);
        }
        reader->ignoring = true;
        return;
    }
    reader->saw_preamble = true;
    if (!reader->banner_known) {
        reader->banner_known = true;
        reader->banner_op = op;
        reader->banner_line = line;
        reader->ignoring = false;
        return;
    }
    if (op == reader->banner_op) {
        reader->ignoring = false;
        return;
    }
    if (reader->mixed_line == 0) {
        reader->mixed_line = line;
        snprintf(reader->mixed_name, sizeof reader->mixed_name, "%s",
                 collcalc_nccl_tests_binary_name(op));
    }
    reader->ignoring = true;
}

static void read_footer_avg(collcalc_nccl_tests_reader *reader, const char *value_text, long line)
{
    double printed = 0.0, half = 0.0;
    char value[40];
    snprintf(value, sizeof value, "%.39s", value_text);
    value[strcspn(value, " \t")] = '\0';
    if (!parse_printed(value, &printed, &half))
        return;
    collcalc_nccl_tests_run *run = &reader->run;
    run->has_avg_busbw = true;
    run->avg_busbw_GBps = printed;
    if (reader->n_table == 0)
        return;
    double mean = reader->sum_table / (double)reader->n_table;
    /* nccl-tests averages unrounded busbw; each printed one is off by at
     * most 0.005, and %g keeps 6 significant digits. */
    double tolerance = 0.0051 + 1e-5 * fabs(printed) + half;
    if (fabs(mean - printed) > tolerance) {
        if (reader->avg_mismatch.count == 0) {
            reader->avg_mismatch_printed = printed;
            reader->avg_mismatch_rows = mean;
        }
        line_list_add(&reader->avg_mismatch, line);
    }
}

collcalc_status collcalc_nccl_tests_reader_feed_line(collcalc_nccl_tests_reader *reader,
                                                     const char *line, size_t length,
                                                     long line_number, collcalc_diag *diag)
{
    if (reader == NULL || (line == NULL && length > 0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no reader or no line");
    if (reader->finished)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "the reader has finished; create a new one");
    long number = line_number > 0 ? line_number : reader->line + 1;
    reader->line = number;
    reader->run.lines++;

    /* Bounded copy: NUL ends the line, so does the examined length. */
    char text[COLLCALC_NCCL_TESTS_LINE_BYTES];
    size_t n = 0;
    bool cut = false;
    if (line != NULL) {
        const char *nul = memchr(line, '\0', length);
        if (nul != NULL)
            length = (size_t)(nul - line);
    }
    if (length >= sizeof text) {
        cut = true;
        length = sizeof text - 1;
    }
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
        length--;
    size_t start = length > 0 ? text_skip_launcher(line, length) : 0;
    n = length - start;
    if (n > 0)
        memcpy(text, line + start, n);
    text[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (text[i] == '\t')
            text[i] = ' ';

    /* Facts that can sit in any line. */
    if (strstr(text, "NCCL version ") != NULL)
        copy_word_after(text, "NCCL version ", reader->run.nccl_version,
                        sizeof reader->run.nccl_version);
    if (strstr(text, "nccl-tests version ") != NULL)
        copy_word_after(text, "nccl-tests version ", reader->run.nccl_tests_version,
                        sizeof reader->run.nccl_tests_version);

    /* Most of a long log is noise (NCCL INFO lines): only a comment, a row,
     * a header ("size ...") or a command naming a *_perf binary matters. */
    if (text[0] != '#' && !is_digit(text[0]) && text[0] != 's' && strstr(text, "_perf") == NULL)
        return COLLCALC_OK;

    char tokenized[COLLCALC_NCCL_TESTS_LINE_BYTES];
    memcpy(tokenized, text, n + 1);
    char *tokens[TOKENS_MAX + 1];
    char *body = tokenized;
    bool comment = body[0] == '#';
    if (comment)
        body++;
    int count = tokenize(body, tokens, TOKENS_MAX);
    if (count == 0)
        return COLLCALC_OK;

    if (comment) {
        int kept = count > TOKENS_MAX ? TOKENS_MAX : count;
        if (kept >= 4 && strcmp(tokens[0], "Collective") == 0 && strcmp(tokens[1], "test") == 0 &&
            strcmp(tokens[2], "starting:") == 0) {
            read_banner(reader, tokens[3], number);
            return COLLCALC_OK;
        }
        if (kept >= 2 && strcmp(tokens[0], "nThread") == 0) {
            read_preamble(reader, tokens, kept, number);
            return COLLCALC_OK;
        }
        if (kept >= 4 && strcmp(tokens[0], "Rank") == 0 && strcmp(tokens[2], "Group") == 0) {
            read_device(reader, text, tokens, kept, number);
            return COLLCALC_OK;
        }
        if (kept >= 5 && strcmp(tokens[0], "Out") == 0 && strcmp(tokens[1], "of") == 0 &&
            strcmp(tokens[2], "bounds") == 0) {
            for (int i = 3; i + 1 < kept; i++)
                if (strcmp(tokens[i], ":") == 0) {
                    long errors = 0;
                    if (parse_signed(tokens[i + 1], &errors)) {
                        reader->run.out_of_bounds = errors;
                        reader->out_of_bounds_line = number;
                    }
                }
            return COLLCALC_OK;
        }
        if (kept >= 5 && strcmp(tokens[0], "Avg") == 0 && strcmp(tokens[1], "bus") == 0 &&
            strcmp(tokens[2], "bandwidth") == 0 && strcmp(tokens[3], ":") == 0) {
            read_footer_avg(reader, tokens[4], number);
            return COLLCALC_OK;
        }
        if (kept >= 2 && strcmp(tokens[0], "out-of-place") == 0) {
            reader->in_place_label = true;
            return COLLCALC_OK;
        }
        if (read_header(reader, tokens, count, number))
            return COLLCALC_OK;
        read_command(reader, tokens, kept, number);
        return COLLCALC_OK;
    }
    if (read_header(reader, tokens, count, number))
        return COLLCALC_OK;
    if (is_integer_token(tokens[0])) {
        if (cut) {
            note_skip(reader, number, "the line is too long for a table row");
            return COLLCALC_OK;
        }
        return read_row(reader, tokens, count, number, diag);
    }
    read_command(reader, tokens, count > TOKENS_MAX ? TOKENS_MAX : count, number);
    return COLLCALC_OK;
}

/* ---- inference and checks ------------------------------------------------ */

/* Does a printed value v (+- h) admit some value in [lo, hi]? */
static bool admits(double v, double h, double lo, double hi)
{
    double slack = 1e-9 * fabs(v) + 1e-12;
    return v + h + slack >= lo && v - h - slack <= hi;
}

/* The interval of true algbw a printed time and size allow. */
static void algbw_from_time(uint64_t size, double time, double half, double *lo, double *hi)
{
    double s = (double)size / 1e3;
    *lo = s / (time + half);
    *hi = time - half > 0.0 ? s / (time - half) : HUGE_VAL;
}

static void check_measurement(const collcalc_nccl_tests_measurement *m, const rounding *r,
                              uint64_t size, double factor, collcalc_nccl_tests_row_checks *out)
{
    memset(out, 0, sizeof *out);
    if (!m->present || !(m->time_us > 0.0))
        return;
    double expected = (double)size / m->time_us / 1e3;
    if (!isfinite(expected) || !isfinite(m->algbw_GBps * (factor > 0.0 ? factor : 1.0)))
        return; /* a time so small that nothing meaningful follows */
    double lo, hi;
    algbw_from_time(size, m->time_us, r->time, &lo, &hi);
    out->expected_algbw_GBps = expected;
    bool algbw_ok = admits(m->algbw_GBps, r->algbw, lo, hi);
    out->algbw = algbw_ok ? COLLCALC_NCCL_TESTS_CHECK_OK : COLLCALC_NCCL_TESTS_CHECK_MISMATCH;
    if (factor < 0.0)
        return;
    /* nccl-tests multiplies the unrounded algbw: use what both printed
     * numbers allow for it. */
    double a_lo = m->algbw_GBps - r->algbw, a_hi = m->algbw_GBps + r->algbw;
    if (algbw_ok) {
        a_lo = fmax(a_lo, lo);
        a_hi = fmin(a_hi, hi);
    }
    if (a_lo < 0.0)
        a_lo = 0.0;
    out->expected_busbw_GBps = m->algbw_GBps * factor;
    bool busbw_ok = admits(m->busbw_GBps, r->busbw, a_lo * factor, a_hi * factor);
    out->busbw = busbw_ok ? COLLCALC_NCCL_TESTS_CHECK_OK : COLLCALC_NCCL_TESTS_CHECK_MISMATCH;
}

/* Rows (of the stored ones) whose busbw fits factor f. */
static size_t rows_fitting(const collcalc_nccl_tests_reader *reader, double factor,
                           size_t *considered)
{
    size_t fit = 0;
    *considered = 0;
    for (size_t i = 0; i < reader->run.row_count; i++) {
        const collcalc_nccl_tests_read_row *row = &reader->run.rows[i];
        for (int g = 0; g < 2; g++) {
            const collcalc_nccl_tests_measurement *m = g == 0 ? &row->row.out_of_place
                                                              : &row->row.in_place;
            if (!m->present || m->algbw_GBps < 1.0)
                continue;
            collcalc_nccl_tests_row_checks checks;
            check_measurement(m, &reader->roundings[i].group[g], row->row.size_bytes, factor,
                              &checks);
            if (checks.busbw == COLLCALC_NCCL_TESTS_CHECK_SKIPPED)
                continue;
            (*considered)++;
            if (checks.busbw == COLLCALC_NCCL_TESTS_CHECK_OK)
                fit++;
        }
    }
    return fit;
}

/* busbw / algbw of the row with the largest algbw (the most digits). */
static double busbw_ratio(const collcalc_nccl_tests_run *run)
{
    double best = 0.0, ratio = -1.0;
    for (size_t i = 0; i < run->row_count; i++) {
        const collcalc_nccl_tests_measurement *m = &run->rows[i].row.out_of_place;
        if (m->present && m->algbw_GBps > best && m->busbw_GBps > 0.0) {
            best = m->algbw_GBps;
            ratio = m->busbw_GBps / m->algbw_GBps;
        }
    }
    return best >= 1.0 ? ratio : -1.0;
}

/* Ranks from the busbw ratio for a factor family: the candidate near the
 * estimate that most rows fit, when exactly one does best. */
static int ranks_from_ratio(const collcalc_nccl_tests_reader *reader, collcalc_op op, double ratio)
{
    double estimate;
    if (op == COLLCALC_OP_ALLREDUCE)
        estimate = ratio < 1.999 ? 2.0 / (2.0 - ratio) : -1.0;
    else if (collcalc_nccl_tests_count_is_per_rank(op))
        estimate = ratio < 0.999 ? 1.0 / (1.0 - ratio) : -1.0;
    else
        return 0;
    if (!(estimate >= 1.0 && estimate < (double)(1 << 24)))
        return 0;
    long centre = lround(estimate);
    int best = 0;
    size_t best_fit = 0;
    bool tie = false;
    for (long n = centre - 3; n <= centre + 3; n++) {
        if (n < 1)
            continue;
        size_t considered = 0;
        size_t fit = rows_fitting(reader, collcalc_busbw_factor(op, (int)n), &considered);
        if (fit > best_fit) {
            best_fit = fit;
            best = (int)n;
            tie = false;
        } else if (fit == best_fit && fit > 0) {
            tie = true;
        }
    }
    return tie ? 0 : best;
}

/* What the size, count, type, redop and root columns say. */
typedef struct {
    bool known;
    long ratio; /* size / (count x element size): 1, or n for per-rank counts; 0 inconsistent */
    bool reduces; /* redop other than "none" */
    bool rooted;  /* root >= 0 */
    long line;
    long other_ratio, other_line; /* a later row whose count says otherwise (0: none) */
} column_evidence;

static long column_ratio(const collcalc_nccl_tests_read_row *row, int bytes)
{
    uint64_t unit = row->row.count * (uint64_t)bytes;
    return (unit != 0 && row->row.size_bytes % unit == 0 &&
            row->row.size_bytes / unit <= (uint64_t)(1 << 24))
               ? (long)(row->row.size_bytes / unit)
               : 0;
}

/* The first row with a count and a type says it; a later row whose count
 * gives another ratio makes the count column no evidence of the rank count
 * (counts re-typed by hand: the other signals decide). */
static column_evidence read_columns(const collcalc_nccl_tests_run *run)
{
    column_evidence e;
    memset(&e, 0, sizeof e);
    for (size_t i = 0; i < run->row_count; i++) {
        const collcalc_nccl_tests_read_row *row = &run->rows[i];
        int bytes = collcalc_nccl_tests_type_bytes(row->row.type);
        if (!row->has_count || !row->has_type || row->row.count == 0 || bytes == 0)
            continue;
        if (row->row.count > UINT64_MAX / (uint64_t)bytes)
            continue;
        long ratio = column_ratio(row, bytes);
        if (!e.known) {
            e.known = true;
            e.line = row->line;
            e.ratio = ratio;
            e.reduces = strcmp(row->row.redop, "none") != 0;
            e.rooted = row->row.root >= 0;
        } else if (ratio != e.ratio && e.other_line == 0) {
            e.other_ratio = ratio;
            e.other_line = row->line;
        }
    }
    return e;
}

static void add_finding(collcalc_nccl_tests_run *run, collcalc_severity severity,
                        const char *code, const char *next_step, const line_list *lines,
                        long line, const char *message)
{
    collcalc_finding *finding =
        collcalc_findings_add(&run->findings, severity, code, next_step, "%s", message);
    if (lines != NULL)
        attach_lines(finding, lines);
    if (line > 0)
        collcalc_finding_add_line(finding, line);
}

static void infer_op(collcalc_nccl_tests_reader *reader, const column_evidence *columns,
                     double ratio, bool *family_per_rank_none)
{
    collcalc_nccl_tests_run *run = &reader->run;
    char message[COLLCALC_FINDING_TEXT_MAX];
    *family_per_rank_none = false;
    bool file_known = false;
    collcalc_op file_op = COLLCALC_OP_ALLREDUCE;
    long file_line = 0;
    collcalc_nccl_tests_source file_source = COLLCALC_NCCL_TESTS_FROM_NONE;
    if (reader->banner_known) {
        file_known = true;
        file_op = reader->banner_op;
        file_line = reader->banner_line;
        file_source = COLLCALC_NCCL_TESTS_FROM_BANNER;
    } else if (reader->command_state == 1) {
        file_known = true;
        file_op = reader->command_op;
        file_line = reader->command_line;
        file_source = COLLCALC_NCCL_TESTS_FROM_COMMAND;
    } else if (reader->unmodelled_line > 0) {
        /* a banner says what ran: do not guess another op from its columns */
    } else if (reader->options.has_heading_op) {
        file_known = true;
        file_op = reader->options.heading_op;
        file_source = COLLCALC_NCCL_TESTS_FROM_HEADING;
    } else if (columns->known && columns->ratio >= 1) {
        if (columns->ratio == 1 && columns->reduces) {
            file_known = true;
            file_op = columns->rooted ? COLLCALC_OP_REDUCE : COLLCALC_OP_ALLREDUCE;
            if (!columns->rooted && !(ratio > 1.01)) {
                /* busbw = algbw with a reduction and no root: all_reduce_perf on
                 * 2 ranks or sendrecv_perf (same busbw); more than 2 ranks in
                 * the device lines rule all-reduce out. */
                int devices = reader->max_rank >= 0 ? reader->max_rank + 1 : 0;
                if (devices > 2)
                    file_op = COLLCALC_OP_SENDRECV;
                else
                    run->op_guessed = true;
            }
        } else if (columns->ratio == 1 && columns->rooted) {
            file_known = true;
            file_op = COLLCALC_OP_BROADCAST;
        } else if (columns->ratio > 1 && columns->reduces) {
            file_known = true;
            file_op = COLLCALC_OP_REDUCESCATTER;
        } else if (columns->ratio > 1 && !columns->rooted) {
            *family_per_rank_none = true;
        }
        file_source = COLLCALC_NCCL_TESTS_FROM_COLUMNS;
    } else if (ratio > 1.01) {
        /* Only all-reduce's factor exceeds 1. */
        file_known = true;
        file_op = COLLCALC_OP_ALLREDUCE;
        file_source = COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO;
    }

    if (reader->options.has_op) {
        run->op = reader->options.op;
        run->op_source = COLLCALC_NCCL_TESTS_FROM_CALLER;
        bool guessed = run->op_guessed;
        run->op_guessed = false; /* the caller knows */
        if (file_known && !guessed && file_op != reader->options.op) {
            snprintf(message, sizeof message,
                     "the file is %s (from the %s) but %s was asked for; reading it as %s",
                     collcalc_nccl_tests_binary_name(file_op),
                     collcalc_nccl_tests_source_name(file_source),
                     collcalc_nccl_tests_binary_name(reader->options.op),
                     collcalc_nccl_tests_binary_name(reader->options.op));
            add_finding(run, COLLCALC_SEVERITY_WARNING, "op-override",
                        "check the --op given with this file", NULL, file_line, message);
        }
        return;
    }
    if (file_known) {
        run->op = file_op;
        run->op_source = file_source;
        run->op_line = file_line;
        return;
    }
    if (reader->unmodelled_line > 0 && !reader->banner_known) {
        snprintf(message, sizeof message,
                 "the file is a %s run, an op collcalc does not model (it models all_reduce_perf, "
                 "all_gather_perf, reduce_scatter_perf, alltoall_perf, broadcast_perf, "
                 "reduce_perf, sendrecv_perf)",
                 reader->unmodelled);
        add_finding(run, COLLCALC_SEVERITY_WARNING, "op-unsupported", NULL, NULL,
                    reader->unmodelled_line, message);
        return;
    }
    const char *candidates = "";
    if (*family_per_rank_none)
        candidates = " (the columns fit all_gather_perf or alltoall_perf)";
    else if (columns->known && columns->ratio == 1 && columns->reduces)
        candidates = " (the columns fit all_reduce_perf on 2 ranks or sendrecv_perf)";
    if (reader->command_state == 2)
        candidates = " (the input names several *_perf binaries)";
    snprintf(message, sizeof message, "the op of this run cannot be told from the file%s",
             candidates);
    add_finding(run, COLLCALC_SEVERITY_WARNING, "op-unknown",
                "give the op (e.g. --op allreduce) to check busbw", NULL, 0, message);
}

static void infer_ranks(collcalc_nccl_tests_reader *reader, const column_evidence *columns,
                        double ratio, bool family_per_rank_none)
{
    collcalc_nccl_tests_run *run = &reader->run;
    char message[COLLCALC_FINDING_TEXT_MAX];
    bool op_known = run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE;
    int from_devices = reader->max_rank >= 0 ? reader->max_rank + 1 : 0;
    int from_columns = 0;
    bool per_rank_counts =
        (op_known && collcalc_nccl_tests_count_is_per_rank(run->op)) || family_per_rank_none;
    if (columns->known && columns->ratio >= 1 && per_rank_counts) {
        if (columns->other_line == 0) {
            from_columns = (int)columns->ratio;
        } else {
            snprintf(message, sizeof message,
                     "the count column gives %ld ranks on line %ld but %ld on line %ld: not used "
                     "for the rank count",
                     columns->ratio, columns->line, columns->other_ratio, columns->other_line);
            add_finding(run, COLLCALC_SEVERITY_WARNING, "counts-disagree",
                        "counts re-typed or edited by hand: give --gpus N if the rank count "
                        "read is wrong",
                        NULL, columns->other_line, message);
        }
    }
    int from_ratio = 0;
    if (op_known && ratio > 0.0)
        from_ratio = ranks_from_ratio(reader, run->op, ratio);
    else if (family_per_rank_none && ratio > 0.0)
        from_ratio = ranks_from_ratio(reader, COLLCALC_OP_ALLGATHER, ratio);

    int file_ranks = 0;
    collcalc_nccl_tests_source source = COLLCALC_NCCL_TESTS_FROM_NONE;
    /* The count column is exact arithmetic; device lists are often trimmed;
     * the busbw ratio is a fit. */
    static const char *const SOURCE_TEXT[3] = {"count column says", "device lines say",
                                               "busbw/algbw ratio says"};
    static const collcalc_nccl_tests_source SOURCES[3] = {COLLCALC_NCCL_TESTS_FROM_COLUMNS,
                                                           COLLCALC_NCCL_TESTS_FROM_DEVICES,
                                                           COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO};
    int found[3] = {from_columns, from_devices, from_ratio};
    int chosen = -1;
    for (int k = 0; k < 3 && chosen < 0; k++)
        if (found[k] > 0)
            chosen = k;
    if (chosen >= 0) {
        file_ranks = found[chosen];
        source = SOURCES[chosen];
        for (int k = chosen + 1; k < 3; k++) {
            if (found[k] <= 0 || found[k] == file_ranks)
                continue;
            snprintf(message, sizeof message, "the %s %d ranks but the %s %d",
                     SOURCE_TEXT[chosen], file_ranks, SOURCE_TEXT[k], found[k]);
            add_finding(run, COLLCALC_SEVERITY_WARNING, "ranks-disagree",
                        "a trimmed device list, or rows edited by hand", NULL, 0, message);
            break;
        }
    }
    if (reader->options.ranks > 0) {
        run->ranks = reader->options.ranks;
        run->ranks_source = COLLCALC_NCCL_TESTS_FROM_CALLER;
        if (file_ranks > 0 && file_ranks != reader->options.ranks) {
            snprintf(message, sizeof message,
                     "the file says %d ranks (from the %s) but %d were given; using %d", file_ranks,
                     collcalc_nccl_tests_source_name(source), reader->options.ranks,
                     reader->options.ranks);
            add_finding(run, COLLCALC_SEVERITY_WARNING, "ranks-override", NULL, NULL, 0, message);
        }
    } else if (file_ranks > 0) {
        run->ranks = file_ranks;
        run->ranks_source = source;
    } else {
        bool needed = !op_known || run->op == COLLCALC_OP_ALLREDUCE ||
                      collcalc_nccl_tests_count_is_per_rank(run->op);
        if (needed)
            add_finding(run, COLLCALC_SEVERITY_INFO, "ranks-unknown",
                        "give the GPU count (e.g. --gpus 16)", NULL, 0,
                        "the number of ranks cannot be told from the file");
    }
    /* Hosts from a complete device list. */
    if (from_devices > 0 && run->device_lines == from_devices && !reader->hosts_overflow &&
        reader->host_count > 0) {
        run->hosts = reader->host_count;
        int per = reader->hosts[0].ranks;
        for (int h = 1; h < reader->host_count; h++)
            if (reader->hosts[h].ranks != per)
                per = 0;
        run->ranks_per_host = per;
    }
}

static void report_lines(collcalc_nccl_tests_run *run, collcalc_severity severity,
                         const char *code, const char *next_step, const line_list *list,
                         const char *what)
{
    if (list->count == 0)
        return;
    /* The finding keeps the first COLLCALC_FINDING_LINES_MAX lines, which
     * every renderer shows; when there are more, the message counts them
     * (the finding keeps what fits of it). */
    char message[COLLCALC_FINDING_TEXT_MAX + 48];
    if (list->count <= COLLCALC_FINDING_LINES_MAX)
        snprintf(message, sizeof message, "%s", what);
    else
        snprintf(message, sizeof message, "%s (%zu lines in all)", what, list->count);
    add_finding(run, severity, code, next_step, list, 0, message);
}

collcalc_status collcalc_nccl_tests_reader_finish(collcalc_nccl_tests_reader *reader,
                                                  collcalc_nccl_tests_run *out_run,
                                                  collcalc_diag *diag)
{
    if (reader == NULL || out_run == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no reader or no place for the run");
    if (reader->finished)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "the reader has already finished");
    reader->finished = true;
    run_reset(out_run);
    collcalc_nccl_tests_run *run = &reader->run;
    char message[COLLCALC_FINDING_TEXT_MAX];

    if (run->row_count == 0 && run->rows_dropped == 0) {
        collcalc_status status = COLLCALC_ERR_INVALID;
        if (reader->header_bad)
            return collcalc_diag_fail(
                diag, status,
                "line %ld: the table header has no %s column (an nccl-tests table has size, "
                "count, type, redop, root, then time, algbw, busbw, #wrong for out-of-place and "
                "in-place)",
                reader->header_bad_line, reader->header_missing);
        if (run->rows_skipped > 0)
            return collcalc_diag_fail(diag, status,
                                      "line %ld: no table row could be read (%s; %zu such "
                                      "line%s)",
                                      reader->skipped.lines[0], reader->skip_reason,
                                      run->rows_skipped, run->rows_skipped == 1 ? "" : "s");
        if (reader->noise_line > 0)
            return collcalc_diag_fail(diag, status,
                                      "line %ld: not an nccl-tests table row (%s), and no table "
                                      "was found (expected a header such as '#  size  count  "
                                      "type  redop  root  time  algbw  busbw  #wrong ...')",
                                      reader->noise_line, reader->noise_reason);
        if (reader->unmodelled_line > 0 && reader->mixed_rows > 0)
            return collcalc_diag_fail(diag, status,
                                      "line %ld: a %s run, an op collcalc does not model (it "
                                      "reads all_reduce_perf, all_gather_perf, "
                                      "reduce_scatter_perf, alltoall_perf, broadcast_perf, "
                                      "reduce_perf and sendrecv_perf output)",
                                      reader->unmodelled_line, reader->unmodelled);
        if (reader->mixed_rows > 0)
            return collcalc_diag_fail(diag, status,
                                      "line %ld: the only rows belong to a second test (%s) after "
                                      "%s; give one test per input",
                                      reader->mixed_line, reader->mixed_name,
                                      collcalc_nccl_tests_binary_name(reader->banner_op));
        if (reader->saw_header)
            return collcalc_diag_fail(diag, status,
                                      "line %ld: a table header, but no data rows follow it",
                                      reader->first_header_line);
        return collcalc_diag_fail(
            diag, status,
            "not nccl-tests output: no table in %ld line%s (expected a header such as "
            "'#  size  count  type  redop  root  time  algbw  busbw  #wrong ...' followed by rows "
            "of numbers, or the excerpt 'size time algbw busbw')",
            run->lines, run->lines == 1 ? "" : "s");
    }

    if (run->tables == 0)
        run->tables = 1;
    if (reader->in_place_label && run->row_count > 0)
        run->has_in_place = run->has_in_place || run->rows[0].row.in_place.present;
    run->avg_busbw_rows_GBps = reader->n_all > 0 ? reader->sum_all / (double)reader->n_all : 0.0;

    /* Launch mode from "# nThread T nGpus G", else from the device lines'
     * pids (ranks sharing a process). */
    if (run->threads_per_process > 0 && run->gpus_per_thread > 0)
        run->launch = run->threads_per_process * run->gpus_per_thread > 1
                          ? COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS
                          : COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU;
    else if (run->device_lines >= 2 && !reader->pids_overflow &&
             reader->pid_lines == run->device_lines)
        run->launch = reader->pid_count < run->device_lines
                          ? COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS
                          : COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU;

    column_evidence columns = read_columns(run);
    double ratio = busbw_ratio(run);
    bool family_per_rank_none = false;
    infer_op(reader, &columns, ratio, &family_per_rank_none);
    infer_ranks(reader, &columns, ratio, family_per_rank_none);

    /* The factor the busbw checks use. */
    bool op_known = run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE;
    if (op_known && run->ranks > 0)
        run->busbw_factor = collcalc_busbw_factor(run->op, run->ranks);
    else if (op_known && !collcalc_nccl_tests_count_is_per_rank(run->op) &&
             run->op != COLLCALC_OP_ALLREDUCE)
        run->busbw_factor = 1.0;
    else if (!op_known && family_per_rank_none && run->ranks > 0)
        run->busbw_factor = collcalc_busbw_factor(COLLCALC_OP_ALLGATHER, run->ranks);
    else if (!op_known && columns.known && columns.ratio == 1 && columns.reduces &&
             !columns.rooted && ratio > 0.0 && ratio < 1.01)
        run->busbw_factor = 1.0; /* all-reduce on 2 ranks and sendrecv agree */

    line_list mismatched;
    memset(&mismatched, 0, sizeof mismatched);
    size_t algbw_bad = 0, busbw_bad = 0;
    char first_bad[200] = "";
    for (size_t i = 0; i < run->row_count; i++) {
        collcalc_nccl_tests_read_row *row = &run->rows[i];
        check_measurement(&row->row.out_of_place, &reader->roundings[i].group[0],
                          row->row.size_bytes, run->busbw_factor, &row->out_of_place);
        check_measurement(&row->row.in_place, &reader->roundings[i].group[1], row->row.size_bytes,
                          run->busbw_factor, &row->in_place);
        bool bad = row->out_of_place.algbw == COLLCALC_NCCL_TESTS_CHECK_MISMATCH ||
                   row->out_of_place.busbw == COLLCALC_NCCL_TESTS_CHECK_MISMATCH ||
                   row->in_place.algbw == COLLCALC_NCCL_TESTS_CHECK_MISMATCH ||
                   row->in_place.busbw == COLLCALC_NCCL_TESTS_CHECK_MISMATCH;
        if (bad) {
            run->rows_mismatched++;
            line_list_add(&mismatched, row->line);
        }
        for (int g = 0; g < 2; g++) {
            const collcalc_nccl_tests_row_checks *c = g == 0 ? &row->out_of_place : &row->in_place;
            const collcalc_nccl_tests_measurement *m = g == 0 ? &row->row.out_of_place
                                                              : &row->row.in_place;
            bool a = c->algbw == COLLCALC_NCCL_TESTS_CHECK_MISMATCH;
            bool b = c->busbw == COLLCALC_NCCL_TESTS_CHECK_MISMATCH;
            algbw_bad += a ? 1 : 0;
            busbw_bad += b ? 1 : 0;
            if ((a || b) && first_bad[0] == '\0')
                snprintf(first_bad, sizeof first_bad,
                         a ? "line %ld: %s algbw %.2f GB/s, but size / time = %.2f GB/s"
                           : "line %ld: %s busbw %.2f GB/s, but algbw x factor = %.2f GB/s",
                         row->line, g == 0 ? "out-of-place" : "in-place",
                         a ? m->algbw_GBps : m->busbw_GBps,
                         a ? c->expected_algbw_GBps : c->expected_busbw_GBps);
        }
    }

    /* Findings, most useful first. */
    if (reader->mixed_line > 0) {
        snprintf(message, sizeof message,
                 "a second test (%s) starts here after %s; its %zu row%s not read",
                 reader->mixed_name,
                 collcalc_nccl_tests_binary_name(reader->banner_op), reader->mixed_rows,
                 reader->mixed_rows == 1 ? " was" : "s were");
        add_finding(run, COLLCALC_SEVERITY_WARNING, "mixed-ops",
                    "check one op per file: split the log at '# Collective test starting'",
                    NULL, reader->mixed_line, message);
    }
    if (reader->header_bad) {
        snprintf(message, sizeof message,
                 "a table header has no %s column; the rows under it were not read",
                 reader->header_missing);
        add_finding(run, COLLCALC_SEVERITY_WARNING, "header-missing-column", NULL, NULL,
                    reader->header_bad_line, message);
    }
    if (reader->skipped.count > 0) {
        char what[COLLCALC_FINDING_TEXT_MAX];
        snprintf(what, sizeof what, "%zu line%s like table rows could not be read: %s",
                 reader->skipped.count, reader->skipped.count == 1 ? " that looks" : "s that look",
                 reader->skip_reason);
        report_lines(run, COLLCALC_SEVERITY_WARNING, "rows-skipped",
                     "a truncated log or mixed-in output; the other rows were read",
                     &reader->skipped, what);
    }
    if (mismatched.count > 0) {
        char what[COLLCALC_FINDING_TEXT_MAX];
        snprintf(what, sizeof what,
                 "%zu row%s with %s own numbers (%zu algbw, %zu busbw); first %s",
                 mismatched.count, mismatched.count == 1 ? " disagrees" : "s disagree",
                 mismatched.count == 1 ? "its" : "their", algbw_bad, busbw_bad, first_bad);
        report_lines(run, COLLCALC_SEVERITY_WARNING, "row-mismatch",
                     "an edited or hand-made table, or another op or rank count than assumed",
                     &mismatched, what);
    }
    report_lines(run, COLLCALC_SEVERITY_WARNING, "zero-time", NULL, &reader->zero_time,
                 "rows report a time of 0 us: nothing can be checked in them");
    report_lines(run, COLLCALC_SEVERITY_WARNING, "size-order",
                 "several sweeps in one log (-N) or concatenated files", &reader->size_order,
                 "sizes go down within a table");
    if (reader->avg_mismatch.count > 0) {
        char what[COLLCALC_FINDING_TEXT_MAX];
        snprintf(what, sizeof what,
                 "the printed average busbw %g is not the mean of the rows above it (%.4g)",
                 reader->avg_mismatch_printed, reader->avg_mismatch_rows);
        report_lines(run, COLLCALC_SEVERITY_WARNING, "avg-busbw-mismatch",
                     "rows missing from the table (trimmed or truncated)", &reader->avg_mismatch,
                     what);
    }
    if (run->rows_dropped > 0) {
        snprintf(message, sizeof message,
                 "%zu rows past the first %zu were counted but not kept or checked",
                 run->rows_dropped, reader->max_rows);
        add_finding(run, COLLCALC_SEVERITY_INFO, "rows-dropped", NULL, NULL, 0, message);
    }
    if (reader->models_differ)
        add_finding(run, COLLCALC_SEVERITY_WARNING, "gpu-models-differ", NULL, NULL,
                    reader->models_differ_line, "the device lines name different GPU models");
    line_list wrong;
    memset(&wrong, 0, sizeof wrong);
    long wrong_values = 0;
    for (size_t i = 0; i < run->row_count; i++) {
        const collcalc_nccl_tests_row *row = &run->rows[i].row;
        long w = (row->out_of_place.present && row->out_of_place.wrong > 0
                      ? row->out_of_place.wrong
                      : 0) +
                 (row->in_place.present && row->in_place.wrong > 0 ? row->in_place.wrong : 0);
        if (w <= 0)
            continue;
        run->rows_wrong++;
        wrong_values = wrong_values > LONG_MAX - w ? LONG_MAX : wrong_values + w;
        line_list_add(&wrong, run->rows[i].line);
    }
    if (wrong.count > 0) {
        char what[COLLCALC_FINDING_TEXT_MAX];
        snprintf(what, sizeof what,
                 "wrong results: %zu row%s report%s %ld wrong value%s (#wrong above 0)%s",
                 wrong.count, wrong.count == 1 ? "" : "s", wrong.count == 1 ? "s" : "",
                 wrong_values, wrong_values == 1 ? "" : "s",
                 run->out_of_bounds > 0 ? "" : "; the log has no 'Out of bounds' line (cut short?)");
        report_lines(run, COLLCALC_SEVERITY_ERROR, "wrong-results",
                     "the results are wrong, not only slow: rerun with -c 1 on each node alone to "
                     "find the GPU or node that corrupts data (nvidia-smi -q -d ECC, dmesg for Xid "
                     "errors), then on node pairs for the link",
                     &wrong, what);
    }
    if (run->out_of_bounds > 0) {
        snprintf(message, sizeof message,
                 "nccl-tests reported %ld out-of-bounds (wrong) values: the run FAILED",
                 run->out_of_bounds);
        add_finding(run, COLLCALC_SEVERITY_ERROR, "out-of-bounds",
                    "the results are wrong, not only slow: check the GPUs (ECC, Xid errors) and "
                    "the fabric node by node",
                    NULL, reader->out_of_bounds_line, message);
    }

    /* Hand over: the rows move into out_run. */
    *out_run = *run;
    run->rows = NULL;
    run->row_count = 0;
    return COLLCALC_OK;
}

collcalc_status collcalc_nccl_tests_read_text(const char *text, size_t length,
                                              const collcalc_nccl_tests_reader_options *options,
                                              collcalc_nccl_tests_run *out_run,
                                              collcalc_diag *diag)
{
    if (out_run == NULL || (text == NULL && length > 0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no text or no place for the run");
    run_reset(out_run);
    collcalc_nccl_tests_reader *reader = NULL;
    collcalc_status status = collcalc_nccl_tests_reader_create(options, &reader, diag);
    if (status != COLLCALC_OK)
        return status;
    size_t at = 0;
    long line = 0;
    while (at < length && status == COLLCALC_OK) {
        const char *newline = memchr(text + at, '\n', length - at);
        size_t end = newline != NULL ? (size_t)(newline - text) : length;
        status = collcalc_nccl_tests_reader_feed_line(reader, text + at, end - at, ++line, diag);
        at = end + 1;
    }
    if (status == COLLCALC_OK)
        status = collcalc_nccl_tests_reader_finish(reader, out_run, diag);
    collcalc_nccl_tests_reader_free(reader);
    return status;
}
