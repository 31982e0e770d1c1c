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

#include "batch_lines.h"
#include "commands.h"
#include "collcalc/units.h"
#include "machine.h"
#include "messages.h"
#include "report.h"
#include "rows.h"
#include "helpers.h"

#ifdef MACHINE_SSE2
#include <emmintrin.h>
#endif

enum { OUTPUT_BUFFER = 1 << 20, ARGS_MAX = 2 * BATCH_WORDS_MAX + 2 };

/* The plans of recent lines, keyed by the line with the value of --size
 * left out: a line that differs from one of them only in its size is
 * answered from the plan (collective_answer, or collective_plan_results
 * and collective_write_rows) without being split, parsed and resolved
 * again; a bad size sends it down the whole path, which says so as the
 * single command would. Fixed in size (PLAN_SETS sets of PLAN_WAYS, the
 * oldest of a set replaced), so memory stays bounded; lines whose plan
 * queued a warning, NCCL-model lines, and lines that spell the size
 * another way are never kept and take the single command's whole path
 * every time. Eight ways, their tags compared at once: a thousand plans
 * in use at once (the benchmark's 1,023 GPU counts) all stay kept; with
 * four ways (of 1,024 sets) a few sets overflowed, and their lines were
 * planned again and again. */
enum { PLAN_SETS = 512, PLAN_WAYS = 8, PLAN_KEY_MAX = 256 };
typedef struct {
    uint32_t key_shape; /* shape_of the key */
    char key[PLAN_KEY_MAX]; /* kind, head, tail */
    const command_spec *spec;
    collective_plan plan;
} plan_slot;

/* A query's key (make_line_key, make_word_key): its text without the size
 * value, as two pieces, head and tail. A line's pieces are read where
 * they are in the line (the text before the value, 'L' first, and after
 * it); they are copied into text only for a plan to keep (key_text). */
typedef struct {
    const char *size_value; /* where the --size value is; NULL: the line cannot use a plan */
    char kind;              /* 'L': a line's pieces; 'W': words joined in text */
    const char *head, *tail;
    size_t head_length, tail_length;
    size_t length; /* 1 (the kind) + head_length + tail_length */
    uint64_t hash;
    char text[PLAN_KEY_MAX];
} plan_key;

/* Rows of lines answered from kept plans wait here (their results costed,
 * in order) and are written together by write_pending: a row's text takes
 * a long chain of dependent arithmetic (the model's divisions, then the
 * shortest digits of each number), and rows made one after another let
 * the processor work on several chains at once where one line's reading
 * and keying would stand between them. Written before any other line is
 * handled, and at the end, so the rows keep the order of their lines (and
 * no kept plan a pending row reads is replaced meanwhile). */
enum { PENDING_RESULTS = 16 };
_Static_assert((int)PENDING_RESULTS >= (int)COLLCALC_ALGO_COUNT,
               "a plan's results fit the queue");
typedef struct {
    const plan_slot *slot;
    long line_no;
    size_t first, count, fastest; /* its results: pending_results[first, first + count) */
    /* what the row reads of the plan, taken when it is costed (its memory
     * is at hand then) */
    collcalc_bw_basis basis;
    long layers, per_layer;
} pending_row;

typedef struct {
    cli_context *ctx;  /* the batch command's */
    cli_context *line; /* reused for every query line */
    option_use accepted[OPT_COUNT + 1];
    const char *shown; /* the input as messages name it */
    output_format format;
    row_buffer out;
    const record_schema *schema; /* CSV: the columns, fixed by the first result */
    FILE *capture;               /* a line's own error message lands here */
    document *doc;               /* reused for every line (doc_reset) */
    plan_slot *plans;            /* PLAN_SETS x PLAN_WAYS */
    /* The slots' tags (tag_of their keys; 0: an empty slot): what picks a
     * set's way, found without touching the slots, a set's eight in 32
     * bytes compared at once */
    _Alignas(64) uint32_t tags[PLAN_SETS][PLAN_WAYS];
    unsigned char next_way[PLAN_SETS]; /* the way a set replaces next */
    bool line_args_set; /* line->args hold the last parsed line's options */
    /* --columns, parsed for each model's results (ok: the list names
     * columns of that schema; else why not) */
    const char *columns_text;
    column_selection selection[2];
    bool selection_ok[2];
    column_selection all_results; /* every RESULT_SCHEMA column: rows without --columns */
    char selection_why[2][1024];
    char capture_text[2048];
    long failed;
    long last_line; /* the last line run */
    pending_row pending[PENDING_RESULTS];
    size_t pending_rows, pending_used; /* rows, and results they hold */
    collcalc_result pending_results[PENDING_RESULTS];
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

static void key_append(plan_key *key, const char *bytes, size_t n)
{
    memcpy(key->text + key->length, bytes, n);
    key->length += n;
}

/* The hash of a key is a sum of independent products, one per sixteen
 * bytes: each block's two halves, one keyed by the block's place in the
 * key, are multiplied to 128 bits and folded, and only the sum waits on
 * the block before. (A chain of multiplies, each on the last one's
 * result, took some 50 cycles for a benchmark line's 55 bytes, all of
 * them before its plan could be looked up.) */
static CLI_ALWAYS_INLINE uint64_t hash_fold(uint64_t a, uint64_t b)
{
    uint64_t high, low = machine_multiply_wide(a, b, &high);
    return low ^ high;
}

static CLI_ALWAYS_INLINE uint64_t load8(const char *at)
{
    uint64_t word;
    memcpy(&word, at, 8);
    return word;
}

static CLI_ALWAYS_INLINE uint64_t load4(const char *at)
{
    uint32_t word;
    memcpy(&word, at, 4);
    return word;
}

static const uint64_t HASH_PLACE = 0xA0761D6478BD642Full, HASH_HALF = 0xE7037ED1A0B428DBull;

/* A block of the key: the two halves, the first keyed by its place
 * (*place, stepped for each block). */
static CLI_ALWAYS_INLINE uint64_t hash_block(uint64_t first, uint64_t second, uint64_t *place)
{
    *place += HASH_PLACE;
    return hash_fold(first ^ *place, second ^ HASH_HALF);
}

/* Sixteen bytes at a time where they are; the last 1..16 as one more
 * block, read as the piece's last sixteen bytes when it has as many (the
 * overlap read twice), else as two overlapping words of the piece's first
 * and last bytes. The piece's length is the caller's to mix in. */
static CLI_ALWAYS_INLINE uint64_t hash_piece(const char *bytes, size_t n, uint64_t *place)
{
    uint64_t sum = 0;
    size_t k = 0;
    for (; k + 16 < n; k += 16)
        sum += hash_block(load8(bytes + k), load8(bytes + k + 8), place);
    if (n >= 16)
        return sum + hash_block(load8(bytes + n - 16), load8(bytes + n - 8), place);
    if (n >= 8)
        return hash_block(load8(bytes), load8(bytes + n - 8), place);
    if (n >= 4)
        return hash_block(load4(bytes), load4(bytes + n - 4), place);
    if (n > 0)
        return hash_block((uint64_t)(unsigned char)bytes[0] << 16 |
                              (uint64_t)(unsigned char)bytes[n / 2] << 8 |
                              (unsigned char)bytes[n - 1],
                          0, place);
    return 0;
}

static CLI_ALWAYS_INLINE void key_hash(plan_key *key)
{
    uint64_t place = 0;
    uint64_t sum = hash_piece(key->head, key->head_length, &place) +
                   hash_piece(key->tail, key->tail_length, &place);
    uint64_t shape = (uint64_t)(unsigned char)key->kind | (uint64_t)key->head_length << 8 |
                     (uint64_t)key->tail_length << 24;
    key->hash = hash_fold(sum ^ 0x9E3779B97F4A7C15ull, shape ^ 0x8EBC6AF09C88C6E3ull);
}

/* A line key's pieces copied into its text (before the line is split in
 * place), for keep_plan. */
static void key_text(plan_key *key)
{
    if (key->size_value == NULL || key->kind != 'L')
        return;
    memcpy(key->text, key->head, key->head_length);
    memcpy(key->text + key->head_length, key->tail, key->tail_length);
    key->head = key->text;
    key->tail = key->text + key->head_length;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The key of a query line as read, before it is split: the line with the
 * value of its first "--size VALUE" cut out. The value must be a plain
 * word (no quote in it or right after it, not starting with '-' or '#'),
 * so two lines with the same key split into the same words but that one.
 * Nothing else is checked here: keep_plan keeps a plan only when the
 * whole path took that very word as the size, given once and without a
 * warning, so a line of a kept key parses as the kept one did. *value_end
 * is where the value ends. False when the line has no such value. */
static bool make_line_key(plan_key *key, const char *text, size_t length, size_t *value_end)
{
    key->size_value = NULL;
    key->length = 0;
    if (length + 1 > PLAN_KEY_MAX)
        return false;
    size_t option = batch_size_option(text, length);
    if (option == length)
        return false;
    const char *end = text + length, *value = text + option + 6;
    while (value < end && is_blank(*value))
        value++;
    const char *after = text + batch_plain_end(text, (size_t)(value - text), length);
    if (value == after || value[0] == '-' || value[0] == '#' || (after < end && !is_blank(*after)))
        return false;
    key->kind = 'L';
    key->head = text;
    key->head_length = (size_t)(value - text);
    key->tail = after;
    key->tail_length = (size_t)(end - after);
    key->length = 1 + key->head_length + key->tail_length;
    key->size_value = value;
    *value_end = (size_t)(after - text);
    key_hash(key);
    return true;
}

/* The key of a query given as words (a CSV row, a line with quotes): the
 * words joined by NUL bytes, the size value left empty. --size must be
 * written once, as "--size VALUE" with a value that is not an option, and
 * the words must fit the key; else size_value is NULL. */
static void make_word_key(plan_key *key, int argc, char **argv, const size_t *lengths)
{
    key->size_value = NULL;
    key->length = 0;
    if (argc < 3) /* a command, --size and its value at least */
        return;
    int size_word = 0;
    size_t total = 1;
    for (int i = 0; i < argc; i++) {
        const char *word = argv[i];
        total += lengths[i] + 1;
        if (i == 0 || word[0] != '-' || (word[1] != 's' && word[1] != '-'))
            continue;
        if (word[1] == 's' || (lengths[i] >= 6 && memcmp(word, "--size", 6) == 0)) {
            if (size_word != 0 || lengths[i] != 6 || word[1] != '-' || i + 1 >= argc ||
                argv[i + 1][0] == '-' || argv[i + 1][0] == '\0')
                return; /* given twice, or spelled another way */
            size_word = i + 1;
        }
    }
    if (size_word == 0 || total > PLAN_KEY_MAX)
        return;
    for (int i = 0; i < argc; i++) {
        key_append(key, argv[i], i == size_word ? 0 : lengths[i]);
        key_append(key, "", 1);
    }
    key->kind = 'W';
    key->head = key->text;
    key->head_length = key->length;
    key->tail = key->text + key->length;
    key->tail_length = 0;
    key->length = 1 + key->head_length;
    key->size_value = argv[size_word];
    key_hash(key);
}

static size_t set_of(const plan_key *key)
{
    return (size_t)((key->hash ^ (key->hash >> 32)) % PLAN_SETS);
}

/* A key's tag in its set: its hash's high half, never 0 (an empty slot). */
static uint32_t tag_of(const plan_key *key)
{
    return (uint32_t)(key->hash >> 32) | 1u;
}

/* A key's two lengths in one word, kept in its slot: compared at once. */
static uint32_t shape_of(const plan_key *key)
{
    return (uint32_t)key->length | (uint32_t)key->head_length << 16;
}
_Static_assert(PLAN_KEY_MAX < 65536, "a key's lengths fit the shape's 16-bit fields");

/* The ways of a set whose tag is tag, as bits (bit w: way w), found
 * without a branch per way: the eight tags compared in two vector
 * registers where there are (x86-64 always has SSE2), else one by one
 * (machine.h: the same bits). */
static CLI_ALWAYS_INLINE unsigned matching_ways(const uint32_t *tags, uint32_t tag)
{
#ifdef MACHINE_SSE2
    __m128i wanted = _mm_set1_epi32((int)tag);
    __m128i low = _mm_cmpeq_epi32(_mm_load_si128((const __m128i *)tags), wanted);
    __m128i high = _mm_cmpeq_epi32(_mm_load_si128((const __m128i *)(tags + 4)), wanted);
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(low)) |
           (unsigned)_mm_movemask_ps(_mm_castsi128_ps(high)) << 4;
#else
    unsigned match = 0;
    for (unsigned w = 0; w < PLAN_WAYS; w++)
        match |= (unsigned)(tags[w] == tag) << w;
    return match;
#endif
}
_Static_assert(PLAN_WAYS == 8, "matching_ways compares eight tags");

/* The plan kept for the key, or NULL. */
static CLI_ALWAYS_INLINE const plan_slot *find_plan(const batch_state *s, const plan_key *key)
{
    if (key->size_value == NULL || key->length == 0)
        return NULL;
    size_t set = set_of(key);
    uint32_t shape = shape_of(key);
    for (unsigned match = matching_ways(s->tags[set], tag_of(key)); match != 0;
         match &= match - 1) {
        const plan_slot *slot = &s->plans[set * PLAN_WAYS + (size_t)__builtin_ctz(match)];
        if (slot->key_shape == shape && slot->key[0] == key->kind &&
            memcmp(slot->key + 1, key->head, key->head_length) == 0 &&
            memcmp(slot->key + 1 + key->head_length, key->tail, key->tail_length) == 0)
            return slot;
    }
    return NULL;
}

/* Keeps the plan of a line the whole path answered: only when the parser
 * took the key's size word as the size, and nothing was said about it. */
static void keep_plan(batch_state *s, const plan_key *key, const command_spec *spec,
                      const collective_plan *plan)
{
    const cli_context *line = s->line;
    if (key->size_value == NULL || line->warning_count > 0 || plan->prepared.model == COLLCALC_COST_MODEL_NCCL ||
        line->args.count[OPT_SIZE] != 1 || arg_value(&line->args, OPT_SIZE) != key->size_value)
        return;
    size_t set = set_of(key);
    plan_slot *slot = &s->plans[set * PLAN_WAYS + s->next_way[set]];
    s->tags[set][s->next_way[set]] = tag_of(key);
    s->next_way[set] = (unsigned char)((s->next_way[set] + 1) % PLAN_WAYS);
    slot->key_shape = shape_of(key);
    slot->key[0] = key->kind;
    memcpy(slot->key + 1, key->head, key->head_length);
    memcpy(slot->key + 1 + key->head_length, key->tail, key->tail_length);
    slot->spec = spec;
    slot->plan = *plan;
}

static bool check_columns(batch_state *s, long line_no, const command_spec *spec)
{
    if (s->columns_text == NULL)
        return true;
    const record_schema *schema = rows_schema(s->doc);
    for (int i = 0; i < 2; i++)
        if (schema == s->selection[i].schema && s->selection_ok[i])
            return true;
    int which = schema == &NCCL_SCHEMA ? 1 : 0;
    line_error(s, line_no, "%s: --columns: %s (the %s model answered this line)", spec->name,
               s->selection_why[which], which == 1 ? "NCCL" : "alpha-beta");
    return false;
}

/* The document of an answered line as rows, and the line's warnings. */
static void write_answer(batch_state *s, long line_no, const command_spec *spec)
{
    const cli_context *line = s->line;
    if (!check_columns(s, line_no, spec))
        return;
    const record_schema *schema = rows_schema(s->doc);
    if (s->format == FORMAT_CSV && schema != NULL) {
        if (s->schema == NULL) {
            s->schema = schema;
            rows_csv_header(&s->out, "line", schema, s->columns_text != NULL
                                                          ? &s->selection[schema == &NCCL_SCHEMA]
                                                          : NULL);
        } else if (schema != s->schema) {
            line_error(s, line_no,
                       "%s: this query uses the %s model, whose columns differ from the first "
                       "result's; give --cost-model on every line, or use --format jsonl",
                       spec->name, schema == &NCCL_SCHEMA ? "NCCL" : "alpha-beta");
            return;
        }
    }
    if (rows_write(&s->out, s->doc, s->format, "line", line_no) < 0 && !s->out.failed)
        line_error(s, line_no, "out of memory");
    bool quiet = arg_given(&s->ctx->args, OPT_QUIET) || arg_given(&line->args, OPT_QUIET);
    for (int i = 0; i < line->warning_count && !quiet; i++)
        fprintf(s->ctx->err, "collcalc batch: %s:%ld: %s: %s\n", s->shown, line_no, spec->name,
                line->warnings[i]);
}

/* The columns of rows answered from kept plans, the selected ones or all
 * of them; NULL: such rows go through a document (a --columns list the
 * alpha-beta results do not have, or a CSV whose columns are NCCL's). */
static const column_selection *plan_row_columns(const batch_state *s)
{
    const column_selection *columns = s->columns_text == NULL ? &s->all_results
                                      : s->selection_ok[0]    ? &s->selection[0]
                                                              : NULL;
    return columns != NULL && (s->format == FORMAT_JSONL || s->schema == &RESULT_SCHEMA)
               ? columns
               : NULL;
}

/* Writes the pending rows, in their lines' order: one inlined body for
 * all of them (CLI_FLATTEN), so that the rows of a flush pay for one call,
 * not one each. */
static CLI_FLATTEN void write_pending(batch_state *s)
{
    const column_selection *columns = plan_row_columns(s);
    for (size_t i = 0; i < s->pending_rows; i++) {
        const pending_row *row = &s->pending[i];
        collective_write_rows(&row->slot->plan.prepared.query, row->basis, row->layers, row->per_layer,
                              s->pending_results + row->first, row->count, row->fastest,
                              &s->out, s->format, columns, "line", row->line_no);
    }
    s->pending_rows = s->pending_used = 0;
}

/* A line answered from a kept plan: its size parsed, the plan costed.
 * False when the line must take the whole path instead (its size is bad:
 * the whole path says so in the single command's words). */
static CLI_ALWAYS_INLINE bool answer_from_plan(batch_state *s, long line_no,
                                               const plan_slot *slot, const char *size_text)
{
    uint64_t size_bytes;
    collcalc_diag diag;
    if (collcalc_parse_size_bytes(size_text, &size_bytes, &diag) != COLLCALC_OK)
        return false;
    cli_context *line = s->line;
    line->spec = slot->spec;
    line->name = slot->spec->name;
    line->warning_count = 0;
    if (s->line_args_set) { /* this line gave no option to read: --quiet and the like */
        memset(line->args.count, 0, sizeof line->args.count);
        s->line_args_set = false;
    }
    /* Alpha-beta results go straight into rows (the kept plans are all
     * alpha-beta), costed now and written with the pending ones. */
    if (plan_row_columns(s) != NULL) {
        if (s->pending_used + slot->plan.prepared.row_count > PENDING_RESULTS)
            write_pending(s);
        pending_row *row = &s->pending[s->pending_rows];
        row->slot = slot;
        row->line_no = line_no;
        row->first = s->pending_used;
        row->basis = slot->plan.prepared.basis;
        row->layers = slot->plan.prepared.layers;
        row->per_layer = slot->plan.prepared.per_layer;
        if (collective_plan_results(line, &slot->plan, size_bytes,
                                    s->pending_results + row->first, &row->count,
                                    &row->fastest) != 0) {
            relay(s, line_no);
            return true;
        }
        s->pending_rows++;
        s->pending_used += row->count;
        return true;
    }
    write_pending(s);
    doc_reset(s->doc);
    if (collective_answer(line, &slot->plan, size_bytes, s->doc, s->format) != 0)
        relay(s, line_no);
    else
        write_answer(s, line_no, slot->spec);
    return true;
}

/* One query: words[0] the command, the rest its options. A line's key
 * (its plan was not kept) comes with it; else the words are keyed. */
static void run_query(batch_state *s, long line_no, int argc, char **argv, const size_t *lengths,
                      const plan_key *line_key)
{
    plan_key word_key;
    if (line_key == NULL) {
        make_word_key(&word_key, argc, argv, lengths);
        const plan_slot *kept = find_plan(s, &word_key);
        if (kept != NULL && answer_from_plan(s, line_no, kept, word_key.size_value))
            return;
    }
    const plan_key *key = line_key != NULL ? line_key : &word_key;
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
            if (strcmp(def->name, name) == 0 ||
                (def->alias != NULL && strcmp(def->alias, name) == 0))
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
    size_t lengths[ARGS_MAX];
    for (int i = 0; i < argc; i++)
        lengths[i] = strlen(argv[i]);
    run_query(s, line_no, argc, argv, lengths, NULL);
}

/* A line read (read_lines), with its key once it is made. */
typedef struct {
    batch_line_status status;
    char *text;
    size_t length;
    long line_no;
    bool plain;     /* reader->plain for it */
    bool key_made;  /* keyed, value_end and key are set */
    bool keyed;     /* make_line_key found the line's key */
    size_t value_end;
    plan_key key;
} read_line;

/* A query line: answered from a kept plan when one matches its key, else
 * split into words and run. */
static void run_line(batch_state *s, read_line *line)
{
    char *text = line->text;
    long line_no = line->line_no;
    plan_key *key = &line->key;
    if (!line->key_made)
        line->keyed = make_line_key(key, text, line->length, &line->value_end);
    bool keyed = line->keyed;
    const plan_slot *kept = keyed ? find_plan(s, key) : NULL;
    if (kept != NULL) {
        size_t value_end = line->value_end;
        char after = text[value_end]; /* the size value as a string, for a moment */
        text[value_end] = '\0';
        bool answered = answer_from_plan(s, line_no, kept, key->size_value);
        text[value_end] = after;
        if (answered)
            return;
    }
    write_pending(s); /* this line's rows or message come after theirs */
    size_t length = line->length;
    if (keyed)
        key_text(key); /* the split below writes into the line */
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
    write_pending(s);
    return code;
}

/* One line in its turn (read_lines); false when batch stops there (*code:
 * 0, or the exit code of a bad CSV header). */
static bool run_read_line(batch_state *s, read_line *line, bool *first, bool fail_fast, int *code)
{
    long failed_before = s->failed;
    char why[96];
    if (line->status != BATCH_LINE_OK || !line->plain || s->csv || *first)
        write_pending(s); /* a line run_line does not take: after the rows before it */
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
    return !(fail_fast && s->failed > failed_before) && !s->out.failed;
}

/* The lines, read LINE_GROUP at a time where the buffer holds them all
 * (batch_read_buffered_line: no line read before moves), and keyed one
 * after another before the first of them runs: the keying of lines in a
 * row overlaps in the processor, where one line's keying would wait
 * behind the line before it (2-3 % of the time; fetching their plans
 * early as well did not help). Until the first query line has run (it
 * may be a CSV header), and in CSV input, one line at a time. */
enum { LINE_GROUP = 4 };

/* A line the reader has just taken: what it says of it, no key yet. */
static void line_taken(read_line *line, const batch_reader *reader, batch_line_status status)
{
    line->status = status;
    line->line_no = reader->line;
    line->plain = reader->plain;
    line->key_made = false;
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
    read_line group[LINE_GROUP];
    for (;;) {
        read_line *line = &group[0];
        batch_line_status status = batch_read_line(reader, &line->text, &line->length);
        if (status == BATCH_LINE_END)
            return 0;
        if (status == BATCH_LINE_READ_ERROR)
            return cli_data_error(s->ctx, s->shown, "read error");
        if (status == BATCH_LINE_RUNAWAY) {
            write_pending(s);
            return cli_data_error(s->ctx, s->shown,
                                  "line %ld: over %d MiB without a line break: not a file of "
                                  "queries; stopped there",
                                  reader->line, BATCH_LINE_RUNAWAY_BYTES >> 20);
        }
        line_taken(line, reader, status);
        size_t count = 1;
        bool ahead = !first && !s->csv;
        while (ahead && count < LINE_GROUP &&
               batch_read_buffered_line(reader, &group[count].text, &group[count].length))
            line_taken(&group[count++], reader, BATCH_LINE_OK);
        for (size_t i = 0; ahead && i < count; i++) {
            line = &group[i];
            if (line->status != BATCH_LINE_OK || !line->plain)
                continue;
            line->key_made = true;
            line->keyed = make_line_key(&line->key, line->text, line->length, &line->value_end);
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
    column_selection_all(&s->all_results, &RESULT_SCHEMA);
    s->columns_text = arg_value(&s->ctx->args, OPT_COLUMNS);
    if (s->columns_text == NULL)
        return 0;
    for (const char *at = s->columns_text; at != NULL; at = strchr(at, ',')) {
        at += *at == ',';
        if (strncmp(at, "line", 4) == 0 && (at[4] == ',' || at[4] == '\0'))
            return cli_usage_error(s->ctx, "--columns",
                                   "'line' is always the first column; list the others");
    }
    static const record_schema *const SCHEMAS[2] = {&RESULT_SCHEMA, &NCCL_SCHEMA};
    for (int i = 0; i < 2; i++) {
        s->selection_ok[i] = column_selection_parse(&s->selection[i], SCHEMAS[i], s->columns_text,
                                                    s->selection_why[i],
                                                    sizeof s->selection_why[i]);
        if (s->selection_ok[i] && !doc_select_columns(s->doc, &s->selection[i]))
            return cli_data_error(s->ctx, NULL, "out of memory");
    }
    if (!s->selection_ok[0] && !s->selection_ok[1])
        return cli_usage_error(s->ctx, "--columns", "%s", s->selection_why[0]);
    return 0;
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

    /* (aligned for its tags: sizeof is a multiple of the alignment) */
    batch_state *s = aligned_alloc(_Alignof(batch_state), sizeof *s);
    if (s != NULL)
        memset(s, 0, sizeof *s);
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
    line->session_owned = false; /* the batch's session, lent to every line */
    line->stdin_used = ctx->stdin_used || from_stdin;
    line->format = chosen;
    s->capture = fmemopen(s->capture_text, sizeof s->capture_text, "w");
    line->err = s->capture;
    s->doc = doc_new("batch");
    s->plans = calloc((size_t)PLAN_SETS * PLAN_WAYS, sizeof *s->plans);
    if (s->capture == NULL || s->doc == NULL || s->plans == NULL ||
        !row_buffer_init(&s->out, ctx->out, OUTPUT_BUFFER)) {
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
        reader.interruptible = true;
        code = batch_loop(s, &reader, arg_given(&ctx->args, OPT_FAIL_FAST));
        /* A write error is cli_finish's to report (ferror); memory is ours. */
        if (!row_buffer_flush(&s->out) && code == 0 && !ferror(ctx->out))
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
    free(s->plans);
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
