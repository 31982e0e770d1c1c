/* A whole paste (include/collcalc/paste.h): each line is cleaned (ANSI
 * escapes, a leading timestamp), given to the NCCL log reader, kept when it
 * belongs to a topology matrix, and given to the nccl-tests reader of the
 * current run; the run ends where a new one visibly starts. Then the runs
 * are compared: a run far below the comparable run before it, and a run
 * far below the others of its kind (the slow node pair of a sweep). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/paste.h"
#include "collcalc/alloc.h"
#include "text_lines.h"
#include "helpers.h"

#define WORDS_MAX 48

/* A line kept to start a continuation run with (its banner, command,
 * preamble, table header). */
typedef struct {
    char text[COLLCALC_PASTE_LINE_BYTES];
    size_t length;
    long line;
} kept_line;

enum { KEPT_BANNER, KEPT_COMMAND, KEPT_PREAMBLE, KEPT_LABEL, KEPT_HEADER, KEPT_COUNT };

struct collcalc_paste {
    collcalc_nccl_tests_reader_options options;
    collcalc_paste_result result;
    size_t capacity;
    bool finished;
    long line;

    /* the current run */
    collcalc_nccl_tests_reader *reader;
    collcalc_paste_run current;
    bool open;        /* a reader exists */
    long rows;        /* row-like lines fed to it */
    long last_row_line;
    bool closed;      /* its footer was seen */
    bool have_prev;
    unsigned long long prev_size;
    char prev_key[3][COLLCALC_NCCL_TESTS_NAME_MAX];
    int log_ranks;    /* "nRanks N" in NCCL lines of this run */
    int log_op_state; /* 0 none, 1 one collective named, 2 several */
    collcalc_op log_op;

    /* what continues a run after a size reset */
    kept_line kept[KEPT_COUNT];

    /* the last heading seen */
    char heading[COLLCALC_PASTE_LABEL_MAX];
    long heading_line;
    int headings;

    /* matrix capture */
    bool in_matrix;
    size_t topo_capacity;
    long topo_last_line; /* input line of the last matrix line kept */

    char clean[COLLCALC_PASTE_LINE_BYTES];
    char words_buffer[COLLCALC_PASTE_LINE_BYTES];
};

const char *collcalc_paste_split_name(collcalc_paste_split split)
{
    switch (split) {
    case COLLCALC_PASTE_SPLIT_FIRST: return "first";
    case COLLCALC_PASTE_SPLIT_BANNER: return "banner";
    case COLLCALC_PASTE_SPLIT_PREAMBLE: return "preamble";
    case COLLCALC_PASTE_SPLIT_HEADER: return "header";
    case COLLCALC_PASTE_SPLIT_COMMAND: return "command";
    case COLLCALC_PASTE_SPLIT_DEVICES: return "device-lines";
    case COLLCALC_PASTE_SPLIT_VERSION: return "version";
    case COLLCALC_PASTE_SPLIT_SIZE_RESET: return "size-reset";
    case COLLCALC_PASTE_SPLIT_AFTER_FOOTER: return "after-footer";
    }
    return "first";
}

/* ---- timestamps ---------------------------------------------------------- */

static size_t digits_at(const char *s, size_t n, size_t at)
{
    size_t k = at;
    while (k < n && s[k] >= '0' && s[k] <= '9')
        k++;
    return k - at;
}

/* "hh:mm:ss" with optional fraction at s+at; returns the end, 0 when absent. */
static size_t clock_end(const char *s, size_t n, size_t at)
{
    for (int part = 0; part < 3; part++) {
        size_t d = digits_at(s, n, at);
        if (d < 1 || d > 2)
            return 0;
        at += d;
        if (part < 2) {
            if (at >= n || s[at] != ':')
                return 0;
            at++;
        }
    }
    if (at < n && (s[at] == '.' || s[at] == ',')) {
        size_t d = digits_at(s, n, at + 1);
        if (d > 0)
            at += 1 + d;
    }
    if (at < n && s[at] == 'Z')
        at++;
    else if (at + 5 < n + 1 && at < n && (s[at] == '+' || s[at] == '-') &&
             digits_at(s, n, at + 1) >= 2) {
        size_t k = at + 1 + digits_at(s, n, at + 1);
        if (k < n && s[k] == ':')
            k += 1 + digits_at(s, n, k + 1);
        at = k;
    }
    return at;
}

size_t collcalc_paste_timestamp_length(const char *text, size_t length)
{
    if (text == NULL)
        return 0;
    size_t at = 0;
    bool bracket = at < length && text[at] == '[';
    if (bracket)
        at++;
    size_t end = 0;
    size_t d = digits_at(text, length, at);
    if (d == 4 && at + 10 <= length && text[at + 4] == '-' && digits_at(text, length, at + 5) == 2 &&
        text[at + 7] == '-' && digits_at(text, length, at + 8) == 2) {
        size_t k = at + 10;
        if (k < length && (text[k] == 'T' || text[k] == ' '))
            end = clock_end(text, length, k + 1);
        if (end == 0)
            return 0;
    } else {
        end = clock_end(text, length, at);
        if (end == 0 || d > 2)
            return 0;
    }
    if (bracket) {
        if (end >= length || text[end] != ']')
            return 0;
        end++;
    }
    if (end < length && text[end] != ' ' && text[end] != '\t' && text[end] != ':')
        return 0;
    if (end < length && text[end] == ':')
        end++;
    while (end < length && (text[end] == ' ' || text[end] == '\t'))
        end++;
    return end;
}

/* ---- runs ---------------------------------------------------------------- */

/* The op a heading names ("All Reduce - 2 Nodes", "NCCL All-to-All Single
 * Node", "All 2 All", "allgather"); false when it names none or several. */
static bool op_named(const char *heading, collcalc_op *op)
{
    char squeezed[COLLCALC_PASTE_LABEL_MAX];
    size_t n = 0;
    for (const char *c = heading; *c != '\0' && n + 1 < sizeof squeezed; c++) {
        char l = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
        if ((l >= 'a' && l <= 'z') || (l >= '0' && l <= '9'))
            squeezed[n++] = l;
    }
    squeezed[n] = '\0';
    static const struct {
        const char *name;
        collcalc_op op;
    } names[] = {{"allreduce", COLLCALC_OP_ALLREDUCE},     {"allgather", COLLCALC_OP_ALLGATHER},
                 {"reducescatter", COLLCALC_OP_REDUCESCATTER}, {"alltoall", COLLCALC_OP_ALLTOALL},
                 {"all2all", COLLCALC_OP_ALLTOALL},       {"sendrecv", COLLCALC_OP_SENDRECV},
                 {"broadcast", COLLCALC_OP_BROADCAST}};
    int found = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strstr(squeezed, names[i].name) != NULL) {
            if (found > 0 && *op != names[i].op)
                return false;
            *op = names[i].op;
            found++;
        }
    return found > 0;
}

static collcalc_status open_run(collcalc_paste *p, collcalc_paste_split split, long line,
                                const collcalc_paste_run *before, collcalc_diag *diag)
{
    collcalc_nccl_tests_reader_options options = p->options;
    bool carry = before != NULL && before->read &&
                 (split == COLLCALC_PASTE_SPLIT_SIZE_RESET ||
                  split == COLLCALC_PASTE_SPLIT_AFTER_FOOTER);
    if (carry && !options.has_op && before->run.op_source != COLLCALC_NCCL_TESTS_FROM_NONE) {
        options.has_op = true;
        options.op = before->run.op;
    }
    if (carry && options.ranks <= 0 && before->run.ranks > 0)
        options.ranks = before->run.ranks;
    bool labelled = p->heading_line > 0 && p->heading_line > p->last_row_line;
    if (labelled && !options.has_op)
        options.has_heading_op = op_named(p->heading, &options.heading_op);
    collcalc_status status = collcalc_nccl_tests_reader_create(&options, &p->reader, diag);
    if (status != COLLCALC_OK)
        return status;
    memset(&p->current, 0, sizeof p->current);
    p->current.first_line = split == COLLCALC_PASTE_SPLIT_FIRST ? 0 : line;
    p->current.section = p->headings;
    p->current.split = split;
    p->current.carried = carry;
    if (labelled) {
        text_copy(p->current.label, sizeof p->current.label, p->heading);
        p->current.label_line = p->heading_line;
    }
    p->open = true;
    p->rows = 0;
    p->closed = false;
    p->have_prev = false;
    p->log_ranks = 0;
    p->log_op_state = 0;
    if (carry) {
        /* The continuation reads under the same banner, command and header. */
        for (int k = 0; k < KEPT_COUNT && status == COLLCALC_OK; k++)
            if (p->kept[k].line > 0)
                status = collcalc_nccl_tests_reader_feed_line(p->reader, p->kept[k].text,
                                                              p->kept[k].length, p->kept[k].line,
                                                              diag);
    }
    return status;
}

/* The run's own figures: peak busbw, the largest size, rows with #wrong. */
static void measure_run(collcalc_paste_run *r)
{
    const collcalc_nccl_tests_run *run = &r->run;
    for (size_t i = 0; i < run->row_count; i++) {
        const collcalc_nccl_tests_read_row *row = &run->rows[i];
        const collcalc_nccl_tests_measurement *m[2] = {&row->row.out_of_place,
                                                        &row->row.in_place};
        bool wrong = false;
        for (int g = 0; g < 2; g++) {
            if (!m[g]->present)
                continue;
            if (m[g]->wrong > 0)
                wrong = true;
            if (m[g]->busbw_GBps > r->peak_busbw_GBps) {
                r->peak_busbw_GBps = m[g]->busbw_GBps;
                r->peak_bytes = row->row.size_bytes;
            }
        }
        if (wrong)
            r->rows_wrong++;
        if (row->row.size_bytes >= r->max_bytes && m[0]->present) {
            r->max_bytes = row->row.size_bytes;
            r->busbw_at_max_GBps = m[0]->busbw_GBps;
        }
    }
}

static collcalc_status close_run(collcalc_paste *p, collcalc_diag *diag)
{
    if (!p->open)
        return COLLCALC_OK;
    p->open = false;
    collcalc_paste_run *r = &p->current;
    r->last_line = p->line;
    collcalc_diag local;
    local.message[0] = '\0';
    collcalc_status status = collcalc_nccl_tests_reader_finish(p->reader, &r->run, &local);
    collcalc_nccl_tests_reader_free(p->reader);
    p->reader = NULL;
    if (status == COLLCALC_ERR_NOMEM)
        return collcalc_diag_fail(diag, status, "%s", local.message);
    r->read = status == COLLCALC_OK;
    if (!r->read) {
        text_copy(r->error, sizeof r->error, local.message);
        /* A part without a row is not a run (a banner alone, prose). */
        if (p->rows == 0)
            return COLLCALC_OK;
    } else {
        collcalc_nccl_tests_run *run = &r->run;
        /* The log settles what the columns could only guess. */
        if ((run->op_source == COLLCALC_NCCL_TESTS_FROM_NONE || run->op_guessed) &&
            p->log_op_state == 1 && !p->options.has_op) {
            run->op = p->log_op;
            run->op_source = COLLCALC_NCCL_TESTS_FROM_LOG;
            run->op_guessed = false;
        }
        if (run->ranks <= 0 && p->log_ranks > 0) {
            run->ranks = p->log_ranks;
            run->ranks_source = COLLCALC_NCCL_TESTS_FROM_LOG;
            if (run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE && run->busbw_factor < 0)
                run->busbw_factor = collcalc_busbw_factor(run->op, run->ranks);
        }
        /* One job's tests one after another (a banner each, no heading
         * between): a table that cannot tell its rank count (send/recv:
         * busbw = algbw, no '#  Rank' lines) ran on the ranks of the one
         * before it. Said in a finding. */
        if (run->ranks <= 0 && !r->carried && p->options.ranks <= 0 && p->result.run_count > 0 &&
            (r->split == COLLCALC_PASTE_SPLIT_BANNER || r->split == COLLCALC_PASTE_SPLIT_VERSION) &&
            r->label[0] == '\0') {
            const collcalc_paste_run *before = &p->result.runs[p->result.run_count - 1];
            if (before->read && before->section == r->section && before->run.ranks > 0) {
                run->ranks = before->run.ranks;
                run->ranks_source = COLLCALC_NCCL_TESTS_FROM_PREVIOUS_RUN;
                if (run->hosts == 0)
                    run->hosts = before->run.hosts;
                if (run->ranks_per_host == 0)
                    run->ranks_per_host = before->run.ranks_per_host;
                if (run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE && run->busbw_factor < 0)
                    run->busbw_factor = collcalc_busbw_factor(run->op, run->ranks);
                collcalc_finding *f = collcalc_findings_add(
                    &run->findings, COLLCALC_SEVERITY_INFO, "ranks-from-previous-run",
                    "give --gpus N when this test ran on other ranks",
                    "rank count %d taken from the run before it (same job, lines %ld-%ld): this "
                    "table cannot tell its own",
                    run->ranks, before->first_line, before->last_line);
                collcalc_finding_add_line(f, r->first_line);
            }
        }
        if (r->carried && p->result.run_count > 0) {
            const collcalc_paste_run *before = &p->result.runs[p->result.run_count - 1];
            if (!p->options.has_op && before->run.op_source != COLLCALC_NCCL_TESTS_FROM_NONE)
                run->op_source = before->run.op_source;
            if (p->options.ranks <= 0 && before->run.ranks > 0) {
                run->ranks_source = before->run.ranks_source;
                if (run->hosts == 0)
                    run->hosts = before->run.hosts;
                if (run->ranks_per_host == 0)
                    run->ranks_per_host = before->run.ranks_per_host;
                if (run->launch == COLLCALC_NCCL_TESTS_LAUNCH_UNKNOWN)
                    run->launch = before->run.launch;
                if (run->gpu_model[0] == '\0')
                    text_copy(run->gpu_model, sizeof run->gpu_model, before->run.gpu_model);
                if (run->nccl_version[0] == '\0')
                    text_copy(run->nccl_version, sizeof run->nccl_version,
                              before->run.nccl_version);
            }
        }
        measure_run(r);
    }
    collcalc_paste_result *result = &p->result;
    if (result->run_count >= COLLCALC_PASTE_RUNS_MAX) {
        result->runs_dropped++;
        collcalc_nccl_tests_run_free(&r->run);
        return COLLCALC_OK;
    }
    if (result->run_count == p->capacity) {
        size_t capacity = p->capacity == 0 ? 4 : p->capacity * 2;
        collcalc_paste_run *runs = collcalc_mem_realloc(result->runs, capacity * sizeof *runs);
        if (runs == NULL) {
            collcalc_nccl_tests_run_free(&r->run);
            return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory keeping runs");
        }
        result->runs = runs;
        p->capacity = capacity;
    }
    result->runs[result->run_count++] = *r;
    memset(r, 0, sizeof *r);
    return COLLCALC_OK;
}

/* Ends the current run when it has rows and a new one starts here. */
static collcalc_status split_at(collcalc_paste *p, collcalc_paste_split split, long line,
                                collcalc_diag *diag)
{
    if (p->open && p->rows == 0)
        return COLLCALC_OK;
    collcalc_status status = close_run(p, diag);
    if (status != COLLCALC_OK)
        return status;
    const collcalc_paste_run *before =
        p->result.run_count > 0 ? &p->result.runs[p->result.run_count - 1] : NULL;
    return open_run(p, p->result.run_count == 0 && p->result.runs_dropped == 0
                           ? COLLCALC_PASTE_SPLIT_FIRST
                           : split,
                    line, before, diag);
}

static void keep(collcalc_paste *p, int which, const char *text, size_t length, long line)
{
    kept_line *k = &p->kept[which];
    text_copy_n(k->text, sizeof k->text, text, length);
    k->length = strlen(k->text);
    k->line = line;
}

/* ---- line kinds ---------------------------------------------------------- */

static bool is_integer(const char *w)
{
    if (*w == '\0')
        return false;
    for (; *w != '\0'; w++)
        if (!((*w >= '0' && *w <= '9') || *w == '_' || *w == ','))
            return false;
    return true;
}

static unsigned long long integer_value(const char *w)
{
    unsigned long long v = 0;
    for (; *w != '\0'; w++) {
        if (*w < '0' || *w > '9')
            continue;
        if (v > (~0ULL - 9) / 10)
            return ~0ULL;
        v = v * 10 + (unsigned long long)(*w - '0');
    }
    return v;
}

static bool is_nccl_line(const char *text)
{
    return strstr(text, "NCCL INFO") != NULL || strstr(text, "NCCL WARN") != NULL ||
           strstr(text, "RCCL INFO") != NULL || strstr(text, "RCCL WARN") != NULL;
}

/* "GPU0", "NIC3", "mlx5_0", "CPU Affinity" heads of a matrix's rows. */
static bool is_device_word(const char *w)
{
    if ((strncmp(w, "GPU", 3) == 0 || strncmp(w, "NIC", 3) == 0) && w[3] >= '0' && w[3] <= '9')
        return true;
    if (strncmp(w, "GPU[", 4) == 0) /* rocm-smi's "GPU[0] : (Topology) Numa Node: 0" */
        return true;
    return strncmp(w, "mlx5_", 5) == 0 || strncmp(w, "bnxt_", 5) == 0;
}

static collcalc_status add_topo_line(collcalc_paste *p, const char *text, size_t length, long line)
{
    collcalc_paste_result *r = &p->result;
    /* A few lines between two matrix lines (a "node-b:" label, a prompt)
     * stay as blank lines, so the matrix text keeps the paste's numbering. */
    size_t gap = 0;
    if (r->topo_length > 0 && line - p->topo_last_line > 1 && line - p->topo_last_line <= 17)
        gap = (size_t)(line - p->topo_last_line - 1);
    if (r->topo_length + gap + length + 1 > (size_t)COLLCALC_PASTE_TOPO_BYTES) {
        r->topo_cut = true;
        return COLLCALC_OK;
    }
    if (r->topo_length + gap + length + 2 > p->topo_capacity) {
        size_t capacity = p->topo_capacity == 0 ? 4096 : p->topo_capacity;
        while (capacity < r->topo_length + gap + length + 2)
            capacity *= 2;
        char *grown = collcalc_mem_realloc(r->topo_text, capacity);
        if (grown == NULL)
            return COLLCALC_ERR_NOMEM;
        r->topo_text = grown;
        p->topo_capacity = capacity;
    }
    memset(r->topo_text + r->topo_length, '\n', gap);
    r->topo_length += gap;
    p->topo_last_line = line;
    memcpy(r->topo_text + r->topo_length, text, length);
    r->topo_length += length;
    r->topo_text[r->topo_length++] = '\n';
    r->topo_text[r->topo_length] = '\0';
    if (length == 0)
        return COLLCALC_OK;
    if (r->topo_first_line == 0)
        r->topo_first_line = line;
    r->topo_lines++;
    return COLLCALC_OK;
}

/* A heading that names the run below it: "## ...", "=== a b ===",
 * "#### NCCL All-to-All Single Node". */
static void note_heading(collcalc_paste *p, const char *body, long line)
{
    const char *h = body;
    bool heading = (h[0] == '#' && h[1] == '#') || h[0] == '=' || strstr(h, "===") != NULL;
    if (!heading)
        return;
    while (*h == '#' || *h == '=' || *h == ' ' || *h == '\t')
        h++;
    size_t n = strlen(h);
    while (n > 0 && (h[n - 1] == '=' || h[n - 1] == ' ' || h[n - 1] == '#'))
        n--;
    if (n == 0)
        return;
    /* A long heading keeps its first word and its end (a log file's name). */
    if (n >= sizeof p->heading) {
        size_t first = strcspn(h, " \t");
        if (first > 40)
            first = 40;
        size_t tail = sizeof p->heading - first - 6;
        char shortened[COLLCALC_PASTE_LABEL_MAX];
        snprintf(shortened, sizeof shortened, "%.*s ... %.*s", (int)first, h, (int)tail,
                 h + n - tail);
        text_copy(p->heading, sizeof p->heading, shortened);
    } else {
        text_copy_n(p->heading, sizeof p->heading, h, n);
    }
    for (char *c = p->heading; *c != '\0'; c++) /* a label is one printable line */
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = ' ';
    p->heading_line = line;
    p->headings++;
    if (p->open && p->current.first_line == 0) {
        /* Nothing of the run read yet: it starts under this heading. */
        collcalc_nccl_tests_reader_free(p->reader);
        p->reader = NULL;
        p->open = false;
        collcalc_diag ignored;
        if (open_run(p, COLLCALC_PASTE_SPLIT_FIRST, 0, NULL, &ignored) != COLLCALC_OK)
            p->open = false;
    }
}

static void note_log_hints(collcalc_paste *p, const char *text)
{
    const char *at = strstr(text, "nRanks ");
    if (at != NULL) {
        long v = 0;
        const char *cursor = at + 7;
        if (text_read_digits(&cursor, &v) && v > 0 && v <= (1L << 24) && (*cursor < '0' ||
                                                                           *cursor > '9') &&
            v > p->log_ranks)
            p->log_ranks = (int)v;
    }
    static const struct {
        const char *name;
        collcalc_op op;
    } names[] = {{"AllReduce: ", COLLCALC_OP_ALLREDUCE},
                 {"AllGather: ", COLLCALC_OP_ALLGATHER},
                 {"ReduceScatter: ", COLLCALC_OP_REDUCESCATTER},
                 {"Broadcast: ", COLLCALC_OP_BROADCAST},
                 {"Reduce: ", COLLCALC_OP_REDUCE}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *m = strstr(text, names[i].name);
        if (m == NULL || (m > text && m[-1] != ' '))
            continue;
        if (strstr(m, "opCount") == NULL && strstr(m, "Bytes ->") == NULL)
            continue;
        if (p->log_op_state == 0) {
            p->log_op_state = 1;
            p->log_op = names[i].op;
        } else if (p->log_op != names[i].op) {
            p->log_op_state = 2;
        }
    }
}

collcalc_status collcalc_paste_create(const collcalc_nccl_tests_reader_options *options,
                                      collcalc_paste **out, collcalc_diag *diag)
{
    if (out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the paste reader");
    *out = NULL;
    collcalc_paste *p = collcalc_mem_calloc(1, sizeof *p);
    if (p == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");
    if (options != NULL)
        p->options = *options;
    else
        collcalc_nccl_tests_reader_options_init(&p->options);
    p->result.log = collcalc_mem_malloc(sizeof *p->result.log);
    if (p->result.log == NULL) {
        collcalc_mem_free(p);
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");
    }
    collcalc_nccl_log_init(p->result.log);
    collcalc_findings_init(&p->result.findings);
    /* Options are checked once, by the first reader. */
    collcalc_status status = open_run(p, COLLCALC_PASTE_SPLIT_FIRST, 1, NULL, diag);
    if (status != COLLCALC_OK) {
        collcalc_paste_free(p);
        return status;
    }
    *out = p;
    return COLLCALC_OK;
}

collcalc_status collcalc_paste_feed_line(collcalc_paste *p, const char *line, size_t length,
                                         long line_number, collcalc_diag *diag)
{
    if (p == NULL || (line == NULL && length > 0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no paste reader or no line");
    if (p->finished)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "the paste reader has finished");
    long number = line_number > 0 ? line_number : p->line + 1;
    p->line = number;
    p->result.lines++;
    if (line != NULL) {
        const char *nul = memchr(line, '\0', length);
        if (nul != NULL)
            length = (size_t)(nul - line);
    }
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r'))
        length--;
    int cut = 0;
    size_t n = length > 0 ? text_clean(line, length, p->clean, sizeof p->clean, &cut) : 0;
    if (length == 0)
        p->clean[0] = '\0';
    if (cut)
        p->result.cut_lines++;
    size_t skip = collcalc_paste_timestamp_length(p->clean, n);
    char *clean = p->clean + skip;
    n -= skip;

    size_t launcher = text_skip_launcher(clean, n);
    collcalc_nccl_log_feed_line(p->result.log, clean + launcher, n - launcher, number);
    bool nccl = is_nccl_line(clean);
    if (nccl) {
        note_log_hints(p, clean);
        p->in_matrix = false;
        return COLLCALC_OK;
    }

    /* The body without launcher prefix or timestamp, split into words. */
    size_t start = text_skip_launcher(clean, n);
    start += collcalc_paste_timestamp_length(clean + start, n - start);
    const char *body = clean + start;
    text_copy(p->words_buffer, sizeof p->words_buffer, body);
    for (char *c = p->words_buffer; *c != '\0'; c++)
        if (*c == '\t')
            *c = ' ';
    bool comment = p->words_buffer[0] == '#';
    char *words[WORDS_MAX];
    size_t count = text_split_words(p->words_buffer + (comment ? 1 : 0), words, WORDS_MAX);
    size_t kept = count < WORDS_MAX ? count : WORDS_MAX;

    /* Matrix lines: a header of device columns, then rows headed by a device. */
    bool matrix_head = kept >= 2 && is_device_word(words[0]) && !comment &&
                       (strcmp(words[0], "GPU0") == 0 || strcmp(words[1], "GPU0") == 0) &&
                       is_device_word(words[1]);
    bool matrix_title = !comment && (strstr(body, "between two GPUs") != NULL ||
                                     strstr(body, "Numa Nodes") != NULL);
    if (matrix_head || matrix_title)
        p->in_matrix = true;
    if (p->in_matrix) {
        bool row = kept >= 1 && !comment && (is_device_word(words[0]) || matrix_head);
        if (row || matrix_title || (kept == 0 && p->result.topo_length > 0)) {
            if (add_topo_line(p, clean, n, number) != COLLCALC_OK)
                return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");
            if (row || matrix_title)
                return COLLCALC_OK;
        } else if (kept > 0) {
            p->in_matrix = false;
        }
    }

    collcalc_status status = COLLCALC_OK;
    bool row = !comment && kept >= 4 && is_integer(words[0]);
    if (comment && kept >= 3 && strcmp(words[0], "Collective") == 0 &&
        strcmp(words[1], "test") == 0) {
        if (strcmp(words[2], "starting:") == 0) {
            status = split_at(p, COLLCALC_PASTE_SPLIT_BANNER, number, diag);
            for (int k = 0; k < KEPT_COUNT; k++)
                p->kept[k].line = 0;
            keep(p, KEPT_BANNER, clean, n, number);
        } else {
            p->closed = true;
        }
    } else if (comment && kept >= 2 && strcmp(words[0], "nThread") == 0) {
        status = split_at(p, COLLCALC_PASTE_SPLIT_PREAMBLE, number, diag);
        keep(p, KEPT_PREAMBLE, clean, n, number);
    } else if (comment && kept >= 4 && strcmp(words[0], "Rank") == 0 &&
               strcmp(words[2], "Group") == 0) {
        status = split_at(p, COLLCALC_PASTE_SPLIT_DEVICES, number, diag);
    } else if (comment && kept >= 2 && strcmp(words[0], "out-of-place") == 0) {
        status = split_at(p, COLLCALC_PASTE_SPLIT_HEADER, number, diag);
        keep(p, KEPT_LABEL, clean, n, number);
    } else if (kept >= 3 && strcmp(words[0], "size") == 0 &&
               (strstr(body, "busbw") != NULL || strstr(body, "algbw") != NULL)) {
        status = split_at(p, COLLCALC_PASTE_SPLIT_HEADER, number, diag);
        keep(p, KEPT_HEADER, clean, n, number);
        p->have_prev = false;
    } else if (comment && kept >= 2 && strcmp(words[0], "Avg") == 0 &&
               strcmp(words[1], "bus") == 0) {
        p->closed = true;
    } else if (strstr(body, "NCCL version ") != NULL || strstr(body, "RCCL version ") != NULL ||
               strstr(body, "nccl-tests version ") != NULL) {
        status = split_at(p, COLLCALC_PASTE_SPLIT_VERSION, number, diag);
    } else if (!row && strstr(body, "_perf") != NULL && !(body[0] == '|')) {
        /* a command naming a *_perf binary (not a table of results) */
        bool command = false;
        for (size_t i = 0; i < kept && !command; i++) {
            const char *w = words[i];
            const char *slash = strrchr(w, '/');
            const char *name = slash != NULL ? slash + 1 : w;
            size_t len = strlen(name);
            command = len > 5 && (strcmp(name + len - 5, "_perf") == 0 ||
                                  (len > 9 && strcmp(name + len - 9, "_perf_mpi") == 0));
        }
        if (command) {
            status = split_at(p, COLLCALC_PASTE_SPLIT_COMMAND, number, diag);
            keep(p, KEPT_COMMAND, clean, n, number);
        }
    } else if (row) {
        unsigned long long size = integer_value(words[0]);
        char key[3][COLLCALC_NCCL_TESTS_NAME_MAX] = {{0}}; /* compared whole: no stale bytes after a NUL */
        for (int k = 0; k < 3; k++)
            text_copy(key[k], sizeof key[k], kept >= 9 ? words[2 + k] : "");
        bool same = p->have_prev && memcmp(key, p->prev_key, sizeof key) == 0;
        if (p->closed && p->rows > 0)
            status = split_at(p, COLLCALC_PASTE_SPLIT_AFTER_FOOTER, number, diag);
        else if (same && size < p->prev_size)
            status = split_at(p, COLLCALC_PASTE_SPLIT_SIZE_RESET, number, diag);
        p->have_prev = true;
        p->prev_size = size;
        memcpy(p->prev_key, key, sizeof key);
        p->rows++;
        p->last_row_line = number;
    } else if (kept > 0) {
        note_heading(p, body, number);
    }
    if (status != COLLCALC_OK)
        return status;
    if (!p->open && (status = open_run(p, COLLCALC_PASTE_SPLIT_FIRST, number, NULL, diag)) !=
                        COLLCALC_OK)
        return status;
    if (comment || row || kept > 0)
        p->result.test_lines++;
    if (p->current.first_line == 0 && (comment || row))
        p->current.first_line = number;
    return collcalc_nccl_tests_reader_feed_line(p->reader, clean, n, number, diag);
}

/* ---- comparing runs ------------------------------------------------------ */

static bool same_kind(const collcalc_paste_run *a, const collcalc_paste_run *b)
{
    if (!a->read || !b->read || a->run.op_source == COLLCALC_NCCL_TESTS_FROM_NONE ||
        b->run.op_source == COLLCALC_NCCL_TESTS_FROM_NONE || a->run.op != b->run.op)
        return false;
    if (a->run.ranks > 0 && b->run.ranks > 0)
        return a->run.ranks == b->run.ranks;
    /* Rank counts unknown: only runs under one heading. */
    return a->run.ranks == 0 && b->run.ranks == 0 && b->section == a->section;
}

/* busbw of both runs at the largest size both measured (>= 1 MiB); false when none. */
static bool common_busbw(const collcalc_paste_run *a, const collcalc_paste_run *b,
                         unsigned long long *bytes, double *busbw_a, double *busbw_b)
{
    bool found = false;
    for (size_t i = 0; i < a->run.row_count; i++) {
        const collcalc_nccl_tests_read_row *ra = &a->run.rows[i];
        if (ra->row.size_bytes < (1ULL << 20) || !ra->row.out_of_place.present ||
            (found && ra->row.size_bytes <= *bytes))
            continue;
        for (size_t j = 0; j < b->run.row_count; j++) {
            const collcalc_nccl_tests_read_row *rb = &b->run.rows[j];
            if (rb->row.size_bytes != ra->row.size_bytes || !rb->row.out_of_place.present)
                continue;
            *bytes = ra->row.size_bytes;
            *busbw_a = ra->row.out_of_place.busbw_GBps;
            *busbw_b = rb->row.out_of_place.busbw_GBps;
            found = true;
            break;
        }
    }
    return found;
}

static void format_size(char *out, size_t size, unsigned long long bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    if (v == floor(v))
        snprintf(out, size, "%.0f %s", v, units[u]);
    else
        snprintf(out, size, "%.1f %s", v, units[u]);
}

static void describe(char *out, size_t size, const collcalc_paste_result *r, size_t i)
{
    const collcalc_paste_run *run = &r->runs[i];
    snprintf(out, size, "run %zu (line %ld%s%s%s)", i + 1, run->first_line,
             run->label[0] ? ", '" : "", run->label, run->label[0] ? "'" : "");
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void compare_runs(collcalc_paste_result *r)
{
    char a[200], b[200], size_text[32];
    /* A run far below the comparable run just before it. */
    bool *slow = calloc(r->run_count + 1, sizeof *slow);
    if (slow == NULL)
        return;
    for (size_t i = 1; i < r->run_count; i++) {
        const collcalc_paste_run *now = &r->runs[i];
        size_t j = i;
        while (j > 0 && !same_kind(&r->runs[j - 1], now))
            j--;
        if (j == 0)
            continue;
        const collcalc_paste_run *before = &r->runs[j - 1];
        unsigned long long bytes = 0;
        double bw_before = 0.0, bw_now = 0.0;
        if (!common_busbw(before, now, &bytes, &bw_before, &bw_now) || !(bw_before > 0.0) ||
            !(bw_now > 0.0))
            continue;
        double ratio = bw_before / bw_now;
        /* A run back to speed after a slow one is no news. */
        if ((ratio < 2.0 && ratio > 0.5) || (ratio <= 0.5 && slow[j - 1]))
            continue;
        slow[i] = ratio >= 2.0;
        describe(a, sizeof a, r, i);
        describe(b, sizeof b, r, j - 1);
        format_size(size_text, sizeof size_text, bytes);
        collcalc_finding *f;
        if (ratio >= 2.0)
            f = collcalc_findings_add(
                &r->findings, COLLCALC_SEVERITY_ERROR, "slow-run",
                "the same test on the same ranks lost most of its bandwidth: rerun it node pair "
                "by node pair to find the bad node or link (a NIC, a cable, a GPU's PCIe link), "
                "and diff the two runs' NCCL_DEBUG=INFO logs",
                "%s reaches %.1fx less busbw than %s at %s (%.3g vs %.3g GB/s, %s)", a, ratio, b,
                size_text, bw_now, bw_before, collcalc_nccl_tests_binary_name(now->run.op));
        else
            f = collcalc_findings_add(&r->findings, COLLCALC_SEVERITY_INFO, "faster-run", NULL,
                                      "%s reaches %.1fx the busbw of %s at %s (%.3g vs %.3g "
                                      "GB/s, %s)",
                                      a, 1.0 / ratio, b, size_text, bw_now, bw_before,
                                      collcalc_nccl_tests_binary_name(now->run.op));
        if (f != NULL) {
            collcalc_finding_add_line(f, before->first_line);
            collcalc_finding_add_line(f, now->first_line);
        }
    }
    free(slow);
    /* A run far below the others of its kind (the slow pair of a sweep). */
    bool *done = calloc(r->run_count + 1, sizeof *done);
    double *peaks = calloc(r->run_count + 1, sizeof *peaks);
    if (done == NULL || peaks == NULL) {
        free(done);
        free(peaks);
        return;
    }
    for (size_t i = 0; i < r->run_count; i++) {
        const collcalc_paste_run *first = &r->runs[i];
        if (done[i] || !first->read || first->run.ranks <= 0 ||
            first->run.op_source == COLLCALC_NCCL_TESTS_FROM_NONE || !(first->peak_busbw_GBps > 0))
            continue;
        size_t n = 0;
        for (size_t j = i; j < r->run_count; j++) {
            const collcalc_paste_run *o = &r->runs[j];
            if (!o->read || o->run.op != first->run.op || o->run.ranks != first->run.ranks ||
                o->run.op_source == COLLCALC_NCCL_TESTS_FROM_NONE || !(o->peak_busbw_GBps > 0) ||
                o->max_bytes != first->max_bytes)
                continue;
            done[j] = true;
            peaks[n++] = o->peak_busbw_GBps;
        }
        if (n < 3)
            continue;
        qsort(peaks, n, sizeof *peaks, compare_double);
        double median = n % 2 ? peaks[n / 2] : 0.5 * (peaks[n / 2 - 1] + peaks[n / 2]);
        for (size_t j = i; j < r->run_count; j++) {
            const collcalc_paste_run *o = &r->runs[j];
            if (!o->read || o->run.op != first->run.op || o->run.ranks != first->run.ranks ||
                o->run.op_source == COLLCALC_NCCL_TESTS_FROM_NONE ||
                o->max_bytes != first->max_bytes || !(o->peak_busbw_GBps < 0.75 * median))
                continue;
            describe(a, sizeof a, r, j);
            collcalc_finding *f = collcalc_findings_add(
                &r->findings, COLLCALC_SEVERITY_ERROR, "slow-among",
                "the slow one shares a node or a link the others do not: test that node against "
                "two good ones, check its NICs (ibstat, NCCL_IB_HCA) and cables",
                "%s peaks at %.3g GB/s busbw, %.1fx below the median %.3g GB/s of the %zu runs "
                "of %s on %d ranks",
                a, o->peak_busbw_GBps, median / o->peak_busbw_GBps, median, n,
                collcalc_nccl_tests_binary_name(o->run.op), o->run.ranks);
            if (f != NULL)
                collcalc_finding_add_line(f, o->first_line);
        }
    }
    free(done);
    free(peaks);
}

collcalc_status collcalc_paste_finish(collcalc_paste *p, collcalc_paste_result *out,
                                      collcalc_diag *diag)
{
    if (p == NULL || out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no paste reader or no result");
    memset(out, 0, sizeof *out);
    if (p->finished)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "the paste reader has finished");
    p->finished = true;
    collcalc_status status = close_run(p, diag);
    if (status != COLLCALC_OK)
        return status;
    collcalc_paste_result *r = &p->result;
    r->has_log = r->log->nccl_lines > 0;
    size_t kept_runs = 0;
    for (size_t i = 0; i < r->run_count; i++)
        kept_runs += r->runs[i].read ? 1 : 0;
    if (kept_runs == 0 && !r->has_log && r->topo_lines == 0) {
        const char *why = r->run_count > 0 ? r->runs[0].error : "";
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s%snothing to read: no nccl-tests table, no NCCL_DEBUG line "
                                  "and no topology matrix in %ld line%s",
                                  why, why[0] ? "; " : "", r->lines, r->lines == 1 ? "" : "s");
    }
    compare_runs(r);
    collcalc_findings_sort(&r->findings);
    *out = *r;
    memset(r, 0, sizeof *r);
    return COLLCALC_OK;
}

void collcalc_paste_free(collcalc_paste *p)
{
    if (p == NULL)
        return;
    collcalc_nccl_tests_reader_free(p->reader);
    collcalc_nccl_tests_run_free(&p->current.run);
    collcalc_paste_result_free(&p->result);
    collcalc_mem_free(p);
}

void collcalc_paste_result_free(collcalc_paste_result *result)
{
    if (result == NULL)
        return;
    for (size_t i = 0; i < result->run_count; i++)
        collcalc_nccl_tests_run_free(&result->runs[i].run);
    collcalc_mem_free(result->runs);
    collcalc_mem_free(result->log);
    collcalc_mem_free(result->topo_text);
    memset(result, 0, sizeof *result);
}

collcalc_status collcalc_paste_read_text(const char *text, size_t length,
                                         const collcalc_nccl_tests_reader_options *options,
                                         collcalc_paste_result *out, collcalc_diag *diag)
{
    if (out == NULL || (text == NULL && length > 0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no text or no place for the result");
    memset(out, 0, sizeof *out);
    collcalc_paste *p = NULL;
    collcalc_status status = collcalc_paste_create(options, &p, diag);
    size_t at = 0;
    long line = 0;
    while (status == COLLCALC_OK && at < length) {
        const char *nl = memchr(text + at, '\n', length - at);
        size_t end = nl != NULL ? (size_t)(nl - text) : length;
        status = collcalc_paste_feed_line(p, text + at, end - at, ++line, diag);
        at = end + 1;
    }
    if (status == COLLCALC_OK)
        status = collcalc_paste_finish(p, out, diag);
    collcalc_paste_free(p);
    return status;
}
