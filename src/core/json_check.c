/* Strict, typed access to JSON documents on top of cJSON (see json_check.h). */
#include "json_check.h"
#include "collcalc/alloc.h"
#include "helpers.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Longest key written plainly in a path; buffers for quoted user text. */
#define QUOTE_MAX_BYTES 48
#define QUOTE_BUFFER COLLCALC_ECHO_BUFFER

/* Whole numbers above this are not all representable in a double. */
#define EXACT_INTEGER_LIMIT 9007199254740992.0 /* 2^53 */

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

/* ---- small text helpers ------------------------------------------------ */

/* Appends src to dst[0..size) at *length, stopping before the end; returns
 * false when something did not fit. */
static bool append_text(char *dst, size_t size, size_t *length, const char *src)
{
    size_t n = strlen(src);
    if (*length + n + 1 > size) {
        size_t room = size - 1 - *length;
        memcpy(dst + *length, src, room);
        *length += room;
        dst[*length] = '\0';
        return false;
    }
    memcpy(dst + *length, src, n + 1);
    *length += n;
    return true;
}

/* Copies user text into out for a message through the library's one echo
 * helper (collcalc_echo): control bytes escaped, long text cut with "...". */
static void quote_text(char *out, size_t out_size, const char *text)
{
    collcalc_echo(out, out_size, text);
}

/* A number for a message: whole numbers without exponent, others shortest
 * round-ish form. */
static void format_number(char *out, size_t out_size, double value)
{
    if (isnan(value))
        snprintf(out, out_size, "nan");
    else if (isinf(value))
        snprintf(out, out_size, value > 0 ? "inf" : "-inf");
    else if (value == floor(value) && fabs(value) < 1e15)
        snprintf(out, out_size, "%.0f", value);
    else
        snprintf(out, out_size, "%.15g", value);
}

/* ---- paths ------------------------------------------------------------- */

void collcalc_json_path_init(collcalc_json_path *path)
{
    path->text[0] = '\0';
    path->length = 0;
    path->depth = 0;
}

/* Appends one already-formatted segment, remembering where it started. */
static void path_push_segment(collcalc_json_path *path, const char *segment)
{
    if (path->depth < COLLCALC_JSON_DEPTH_MAX) {
        path->marks[path->depth] = path->length;
        if (!append_text(path->text, sizeof path->text, &path->length, segment)) {
            /* Show that the path was cut rather than print a wrong one. */
            size_t keep = sizeof path->text - 4;
            if (path->length > keep)
                path->length = keep;
            path->text[path->length] = '\0';
            append_text(path->text, sizeof path->text, &path->length, "...");
        }
    }
    path->depth++;
}

static bool is_identifier(const char *key)
{
    if (key[0] == '\0' || (key[0] >= '0' && key[0] <= '9'))
        return false;
    for (const char *p = key; *p != '\0'; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '$';
        if (!ok)
            return false;
    }
    return true;
}

void collcalc_json_path_push_key(collcalc_json_path *path, const char *key)
{
    char segment[QUOTE_BUFFER + 16];
    if (key == NULL)
        key = "";
    if (is_identifier(key) && strlen(key) <= QUOTE_MAX_BYTES) {
        snprintf(segment, sizeof segment, "%s%s", path->length == 0 ? "" : ".", key);
    } else {
        char quoted[QUOTE_BUFFER];
        quote_text(quoted, sizeof quoted, key);
        snprintf(segment, sizeof segment, "[\"%s\"]", quoted);
    }
    path_push_segment(path, segment);
}

void collcalc_json_path_push_index(collcalc_json_path *path, size_t index)
{
    char segment[32];
    snprintf(segment, sizeof segment, "[%zu]", index);
    path_push_segment(path, segment);
}

void collcalc_json_path_pop(collcalc_json_path *path)
{
    if (path->depth == 0)
        return;
    path->depth--;
    if (path->depth < COLLCALC_JSON_DEPTH_MAX) {
        path->length = path->marks[path->depth];
        path->text[path->length] = '\0';
    }
}

const char *collcalc_json_path_text(const collcalc_json_path *path)
{
    return path->length == 0 ? "top level" : path->text;
}

/* ---- context and messages ---------------------------------------------- */

void collcalc_json_ctx_init(collcalc_json_ctx *ctx, const char *origin, collcalc_diag *diag)
{
    ctx->origin = origin;
    ctx->diag = diag;
    collcalc_json_path_init(&ctx->path);
    ctx->limits.array_max = COLLCALC_JSON_ARRAY_MAX;
    ctx->limits.values_max = COLLCALC_JSON_VALUES_MAX;
}

/* The va_list form of collcalc_json_fail, for the getters' own messages. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 0)))
#endif
static collcalc_status fail_v(collcalc_json_ctx *ctx, const char *format, va_list args)
{
    char detail[COLLCALC_DIAG_MESSAGE_MAX];
    int written = vsnprintf(detail, sizeof detail, format, args);
    if (written < 0)
        detail[0] = '\0';
    return collcalc_diag_fail(ctx->diag, COLLCALC_ERR_INVALID, "%s%s%s: %s",
                              ctx->origin != NULL ? ctx->origin : "",
                              ctx->origin != NULL ? ": " : "",
                              collcalc_json_path_text(&ctx->path), detail);
}

collcalc_status collcalc_json_fail(collcalc_json_ctx *ctx, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    collcalc_status status = fail_v(ctx, format, args);
    va_end(args);
    return status;
}

static const char *type_name(const cJSON *item)
{
    if (cJSON_IsObject(item))
        return "an object";
    if (cJSON_IsArray(item))
        return "an array";
    if (cJSON_IsString(item))
        return "a string";
    if (cJSON_IsNumber(item))
        return "a number";
    if (cJSON_IsBool(item))
        return "a boolean";
    if (cJSON_IsNull(item))
        return "null";
    return "an invalid value";
}

static collcalc_status fail_missing(collcalc_json_ctx *ctx)
{
    return collcalc_json_fail(ctx, "required but missing");
}

/* "must be a number, not a string ("450")": the quoted text shows the usual
 * mistake of quoting a figure. */
static collcalc_status fail_type(collcalc_json_ctx *ctx, const cJSON *item, const char *wanted)
{
    if (cJSON_IsString(item)) {
        char quoted[QUOTE_BUFFER];
        quote_text(quoted, sizeof quoted, item->valuestring);
        return collcalc_json_fail(ctx, "must be %s, not a string (\"%s\")", wanted, quoted);
    }
    return collcalc_json_fail(ctx, "must be %s, not %s", wanted, type_name(item));
}

/* ---- syntax check -------------------------------------------------------- */

/* cJSON accepts much that is not JSON (leading zeros, control characters in
 * strings, bad \u escapes, any byte <= 32 as space) and cannot say where a
 * document broke in words or tell a syntax error from a failed allocation.
 * This strict scan runs first: it finds the exact place and reason, and once
 * it passes, a cJSON failure can only be an allocation failure. */
/* Where the scan is, for a limit's message: per open container, whether
 * it is an object, its elements so far and the key being read. */
typedef struct {
    bool is_object;
    bool over; /* an array past the limit: counted on to its end, its values not kept */
    size_t count;
    const unsigned char *key; /* the raw text between the key's quotes */
    size_t key_length;
} scan_frame;

typedef struct {
    const unsigned char *start;
    const unsigned char *cur;
    const unsigned char *end;
    const unsigned char *error_at;
    const char *error;
    collcalc_json_limits limits;
    size_t values;
    size_t unbounded; /* arrays open past the limit: values inside are not counted */
    bool over_limit;   /* error is a limit, limit_message says which */
    size_t limit_depth; /* the path shown: frames[1..limit_depth] */
    char limit_message[96];
    scan_frame frames[COLLCALC_JSON_DEPTH_MAX + 2];
} scanner;

/* Fails the scan on a limit; fail_limit writes the message with the path
 * of frames[1..depth] (each container's current member). */
static bool scan_over_limit(scanner *s, size_t depth, const char *what, size_t limit)
{
    s->over_limit = true;
    s->limit_depth = depth;
    snprintf(s->limit_message, sizeof s->limit_message, "more than %zu %s (at most %zu)", limit,
             what, limit);
    s->error_at = s->cur;
    s->error = s->limit_message;
    return false;
}

static bool scan_fail(scanner *s, const unsigned char *at, const char *message)
{
    s->error_at = at;
    s->error = message;
    return false;
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static void skip_space(scanner *s)
{
    while (s->cur < s->end &&
           (*s->cur == ' ' || *s->cur == '\t' || *s->cur == '\n' || *s->cur == '\r'))
        s->cur++;
}

static bool scan_hex4(scanner *s, const unsigned char *escape, unsigned *out)
{
    unsigned value = 0;
    if (s->end - s->cur < 4)
        return scan_fail(s, escape, "invalid \\u escape (needs 4 hex digits)");
    for (int i = 0; i < 4; i++) {
        unsigned char c = *s->cur++;
        unsigned digit;
        if (c >= '0' && c <= '9')
            digit = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            digit = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            digit = (unsigned)(c - 'A' + 10);
        else
            return scan_fail(s, escape, "invalid \\u escape (needs 4 hex digits)");
        value = value * 16u + digit;
    }
    *out = value;
    return true;
}

static bool scan_escape(scanner *s)
{
    const unsigned char *escape = s->cur;
    s->cur++; /* the backslash */
    if (s->cur >= s->end)
        return scan_fail(s, escape, "unterminated string");
    unsigned char c = *s->cur++;
    if (c != '\0' && strchr("\"\\/bfnrt", c) != NULL)
        return true;
    if (c != 'u')
        return scan_fail(s, escape, "invalid escape in a string");
    unsigned code;
    if (!scan_hex4(s, escape, &code))
        return false;
    /* A NUL would silently cut the C string cJSON hands back. */
    if (code == 0)
        return scan_fail(s, escape, "\\u0000 (NUL) is not allowed in a string");
    if (code >= 0xDC00 && code <= 0xDFFF)
        return scan_fail(s, escape, "invalid \\u escape (low surrogate without a high one)");
    if (code >= 0xD800 && code <= 0xDBFF) {
        unsigned low;
        if (s->end - s->cur < 2 || s->cur[0] != '\\' || s->cur[1] != 'u')
            return scan_fail(s, escape, "invalid \\u escape (high surrogate without a low one)");
        s->cur += 2;
        if (!scan_hex4(s, escape, &low))
            return false;
        if (low < 0xDC00 || low > 0xDFFF)
            return scan_fail(s, escape, "invalid \\u escape (high surrogate without a low one)");
    }
    return true;
}

static bool scan_string(scanner *s)
{
    const unsigned char *open = s->cur;
    s->cur++;
    for (;;) {
        if (s->cur >= s->end)
            return scan_fail(s, open, "unterminated string");
        unsigned char c = *s->cur;
        if (c == '"') {
            s->cur++;
            return true;
        }
        if (c == '\\') {
            if (!scan_escape(s))
                return false;
        } else if (c < 0x20) {
            return scan_fail(s, s->cur, c == '\n' ? "line break inside a string"
                                                  : "control character in a string");
        } else if (c < 0x80) {
            s->cur++;
        } else {
            size_t n = collcalc_utf8_decode(s->cur, (size_t)(s->end - s->cur), NULL);
            if (n == 0)
                return scan_fail(s, s->cur, "invalid UTF-8 in a string");
            s->cur += n;
        }
    }
}

static bool scan_number(scanner *s)
{
    const unsigned char *start = s->cur;
    if (*s->cur == '-')
        s->cur++;
    if (s->cur >= s->end || !is_digit(*s->cur))
        return scan_fail(s, start, "invalid number");
    if (*s->cur == '0') {
        s->cur++;
        if (s->cur < s->end && is_digit(*s->cur))
            return scan_fail(s, start, "invalid number (leading zero)");
    } else {
        while (s->cur < s->end && is_digit(*s->cur))
            s->cur++;
    }
    if (s->cur < s->end && *s->cur == '.') {
        s->cur++;
        if (s->cur >= s->end || !is_digit(*s->cur))
            return scan_fail(s, start, "invalid number (digit expected after '.')");
        while (s->cur < s->end && is_digit(*s->cur))
            s->cur++;
    }
    if (s->cur < s->end && (*s->cur == 'e' || *s->cur == 'E')) {
        s->cur++;
        if (s->cur < s->end && (*s->cur == '+' || *s->cur == '-'))
            s->cur++;
        if (s->cur >= s->end || !is_digit(*s->cur))
            return scan_fail(s, start, "invalid number (digit expected in the exponent)");
        while (s->cur < s->end && is_digit(*s->cur))
            s->cur++;
    }
    return true;
}

static bool scan_word(scanner *s, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(s->end - s->cur) < n || memcmp(s->cur, word, n) != 0)
        return scan_fail(s, s->cur, "expected a value");
    s->cur += n;
    return true;
}

static bool scan_value(scanner *s, size_t depth);

static bool scan_container(scanner *s, size_t depth, bool is_object)
{
    if (depth > COLLCALC_JSON_DEPTH_MAX)
        return scan_fail(s, s->cur, "nested too deeply (at most " STRINGIFY(COLLCALC_JSON_DEPTH_MAX) " levels)");
    scan_frame *frame = &s->frames[depth];
    *frame = (scan_frame){is_object, false, 0, NULL, 0};
    unsigned char close = is_object ? '}' : ']';
    s->cur++;
    skip_space(s);
    if (s->cur < s->end && *s->cur == close) {
        s->cur++;
        return true;
    }
    for (;;) {
        if (!is_object && frame->count == s->limits.array_max) {
            frame->over = true;
            s->unbounded++;
        }
        frame->count++;
        if (is_object) {
            skip_space(s);
            if (s->cur >= s->end || *s->cur != '"')
                return scan_fail(s, s->cur, "expected a string key");
            const unsigned char *key = s->cur + 1;
            if (!scan_string(s))
                return false;
            frame->key = key;
            frame->key_length = (size_t)(s->cur - 1 - key);
            skip_space(s);
            if (s->cur >= s->end || *s->cur != ':')
                return scan_fail(s, s->cur, "expected ':'");
            s->cur++;
        }
        if (!scan_value(s, depth))
            return false;
        skip_space(s);
        if (s->cur < s->end && *s->cur == ',') {
            s->cur++;
            continue;
        }
        if (s->cur < s->end && *s->cur == close) {
            s->cur++;
            if (frame->over) { /* the loaders' words, with the whole count */
                s->unbounded--;
                s->over_limit = true;
                s->limit_depth = depth - 1;
                snprintf(s->limit_message, sizeof s->limit_message,
                         "must have at most %zu elements (has %zu)", s->limits.array_max,
                         frame->count);
                s->error = s->limit_message;
                s->error_at = s->cur;
                return false;
            }
            return true;
        }
        return scan_fail(s, s->cur, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static bool scan_value(scanner *s, size_t depth)
{
    skip_space(s);
    if (s->cur >= s->end)
        return scan_fail(s, s->cur, "expected a value");
    if (s->unbounded == 0 && ++s->values > s->limits.values_max)
        return scan_over_limit(s, depth, "values in the document", s->limits.values_max);
    switch (*s->cur) {
    case '{': return scan_container(s, depth + 1, true);
    case '[': return scan_container(s, depth + 1, false);
    case '"': return scan_string(s);
    case 't': return scan_word(s, "true");
    case 'f': return scan_word(s, "false");
    case 'n': return scan_word(s, "null");
    default:
        if (*s->cur == '-' || is_digit(*s->cur))
            return scan_number(s);
        return scan_fail(s, s->cur, "expected a value");
    }
}

/* Reports a syntax error as origin:line:column, counting characters (not
 * UTF-8 continuation bytes) from 1 as editors do. */
static collcalc_status fail_syntax(collcalc_json_ctx *ctx, const scanner *s)
{
    size_t line = 1, column = 1;
    for (const unsigned char *p = s->start; p < s->error_at; p++) {
        if (*p == '\n') {
            line++;
            column = 1;
        } else if ((*p & 0xC0u) != 0x80u) {
            column++;
        }
    }
    const char *prefix = s->error_at >= s->end ? "unexpected end of document, " : "";
    if (ctx->origin != NULL)
        return collcalc_diag_fail(ctx->diag, COLLCALC_ERR_INVALID,
                                  "%s:%zu:%zu: not valid JSON: %s%s", ctx->origin, line, column,
                                  prefix, s->error);
    return collcalc_diag_fail(ctx->diag, COLLCALC_ERR_INVALID,
                              "line %zu, column %zu: not valid JSON: %s%s", line, column, prefix,
                              s->error);
}

/* Reports a limit with the JSON path of where the scan stopped: the open
 * containers, down to the element being read. */
static collcalc_status fail_limit(collcalc_json_ctx *ctx, const scanner *s)
{
    size_t depth = s->limit_depth;
    collcalc_json_path path;
    collcalc_json_path_init(&path);
    for (size_t d = 1; d <= depth && d <= COLLCALC_JSON_DEPTH_MAX; d++) {
        const scan_frame *f = &s->frames[d];
        if (f->is_object) {
            char key[QUOTE_MAX_BYTES + 1];
            size_t n = f->key_length < QUOTE_MAX_BYTES ? f->key_length : QUOTE_MAX_BYTES;
            memcpy(key, f->key, n);
            key[n] = '\0';
            collcalc_json_path_push_key(&path, key);
        } else {
            collcalc_json_path_push_index(&path, f->count - 1);
        }
    }
    return collcalc_diag_fail(ctx->diag, COLLCALC_ERR_INVALID, "%s%s%s: %s",
                              ctx->origin != NULL ? ctx->origin : "",
                              ctx->origin != NULL ? ": " : "", collcalc_json_path_text(&path),
                              s->error);
}

static collcalc_status fail_document(collcalc_json_ctx *ctx, const char *what)
{
    return collcalc_diag_fail(ctx->diag, COLLCALC_ERR_INVALID, "%s%snot valid JSON: %s",
                              ctx->origin != NULL ? ctx->origin : "",
                              ctx->origin != NULL ? ": " : "", what);
}

collcalc_status collcalc_json_parse(collcalc_json_ctx *ctx, const char *text, size_t length,
                                    cJSON **out_root)
{
    *out_root = NULL;
    if (text == NULL || length == 0)
        return fail_document(ctx, "the document is empty");

    scanner s;
    s.start = (const unsigned char *)text;
    s.end = s.start + length;
    s.error_at = NULL;
    s.error = NULL;
    s.limits = ctx->limits;
    s.values = 0;
    s.unbounded = 0;
    s.over_limit = false;
    s.limit_depth = 0;
    s.limit_message[0] = '\0';
    memset(s.frames, 0, sizeof s.frames);
    /* Editors on some systems write a byte-order mark; it carries no data. */
    if (length >= 3 && memcmp(s.start, "\xEF\xBB\xBF", 3) == 0)
        s.start += 3;
    s.cur = s.start;

    const unsigned char *nul = memchr(s.start, '\0', (size_t)(s.end - s.start));
    if (nul != NULL) {
        scan_fail(&s, nul, "contains a NUL byte");
        return fail_syntax(ctx, &s);
    }
    skip_space(&s);
    if (s.cur >= s.end)
        return fail_document(ctx, "the document is empty");
    if (!scan_value(&s, 0))
        return s.over_limit ? fail_limit(ctx, &s) : fail_syntax(ctx, &s);
    skip_space(&s);
    if (s.cur < s.end) {
        scan_fail(&s, s.cur, "unexpected text after the JSON value");
        return fail_syntax(ctx, &s);
    }

    /* cJSON wants a NUL-terminated buffer and the caller's text need not
     * be one. The library's allocator (collcalc/alloc.h), so
     * allocation-failure tests cover it. */
    size_t body = (size_t)(s.end - s.start);
    char *copy = collcalc_mem_malloc(body + 1);
    if (copy == NULL)
        goto out_of_memory;
    memcpy(copy, s.start, body);
    copy[body] = '\0';
    cJSON *root = cJSON_ParseWithOpts(copy, NULL, 1);
    collcalc_mem_free(copy);
    if (root == NULL)
        goto out_of_memory; /* the syntax passed the stricter scan above */
    *out_root = root;
    return COLLCALC_OK;

out_of_memory:
    return collcalc_diag_fail(ctx->diag, COLLCALC_ERR_NOMEM, "%s%sout of memory parsing JSON",
                              ctx->origin != NULL ? ctx->origin : "",
                              ctx->origin != NULL ? ": " : "");
}

/* ---- objects ------------------------------------------------------------ */

/* Edit distance for "did you mean": the library's one implementation. */
static size_t edit_distance(const char *a, const char *b)
{
    return collcalc_edit_distance(a, b);
}

static collcalc_status fail_unknown_key(collcalc_json_ctx *ctx, const char *name,
                                        const collcalc_json_key *keys, size_t key_count)
{
    char quoted[QUOTE_BUFFER];
    quote_text(quoted, sizeof quoted, name);

    size_t best = SIZE_MAX, best_index = 0;
    for (size_t k = 0; k < key_count; k++) {
        size_t d = edit_distance(name, keys[k].name);
        if (d < best) {
            best = d;
            best_index = k;
        }
    }
    /* A near miss is a typo worth naming; otherwise list what is allowed. */
    if (best != SIZE_MAX && best <= 1 + strlen(keys[best_index].name) / 4)
        return collcalc_json_fail(ctx, "unknown key '%s' (did you mean '%s'?)", quoted,
                                  keys[best_index].name);

    char allowed[COLLCALC_DIAG_MESSAGE_MAX];
    size_t length = 0;
    allowed[0] = '\0';
    for (size_t k = 0; k < key_count; k++) {
        if (k > 0)
            append_text(allowed, sizeof allowed, &length, ", ");
        append_text(allowed, sizeof allowed, &length, keys[k].name);
    }
    return collcalc_json_fail(ctx, "unknown key '%s' (allowed: %s)", quoted, allowed);
}

collcalc_status collcalc_json_check_object(collcalc_json_ctx *ctx, const cJSON *item,
                                           const collcalc_json_key *keys, size_t key_count)
{
    if (item == NULL)
        return fail_missing(ctx);
    if (!cJSON_IsObject(item))
        return fail_type(ctx, item, "an object");
    if (key_count > COLLCALC_JSON_KEYS_MAX)
        return collcalc_json_fail(ctx, "internal error: schema lists %zu keys (at most %d)",
                                  key_count, COLLCALC_JSON_KEYS_MAX);

    /* cJSON keeps every duplicate and lookups return the first, so a second
     * "alpha_us" would be silently ignored: count each allowed key instead. */
    bool seen[COLLCALC_JSON_KEYS_MAX] = {false};
    const cJSON *child;
    cJSON_ArrayForEach(child, item) {
        const char *name = child->string != NULL ? child->string : "";
        size_t k = 0;
        while (k < key_count && strcmp(keys[k].name, name) != 0)
            k++;
        if (k == key_count)
            return fail_unknown_key(ctx, name, keys, key_count);
        if (seen[k])
            return collcalc_json_fail(ctx, "duplicate key '%s'", keys[k].name);
        seen[k] = true;
    }
    for (size_t k = 0; k < key_count; k++)
        if (keys[k].required && !seen[k])
            return collcalc_json_fail(ctx, "missing required key '%s'", keys[k].name);
    return COLLCALC_OK;
}

bool collcalc_json_has(const cJSON *object, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(object, key) != NULL;
}

const cJSON *collcalc_json_enter(collcalc_json_ctx *ctx, const cJSON *object, const char *key)
{
    collcalc_json_path_push_key(&ctx->path, key);
    return cJSON_GetObjectItemCaseSensitive(object, key);
}

void collcalc_json_leave(collcalc_json_ctx *ctx)
{
    collcalc_json_path_pop(&ctx->path);
}

/* ---- scalar getters ----------------------------------------------------- */

collcalc_status collcalc_json_as_string(collcalc_json_ctx *ctx, const cJSON *item,
                                        size_t max_length, const char **out)
{
    if (item == NULL)
        return fail_missing(ctx);
    if (!cJSON_IsString(item) || item->valuestring == NULL)
        return fail_type(ctx, item, "a string");
    size_t length = strlen(item->valuestring);
    if (length == 0)
        return collcalc_json_fail(ctx, "must not be empty");
    if (length > max_length)
        return collcalc_json_fail(ctx, "too long: %zu bytes (at most %zu)", length, max_length);
    *out = item->valuestring;
    return COLLCALC_OK;
}

collcalc_status collcalc_json_as_string_copy(collcalc_json_ctx *ctx, const cJSON *item,
                                             char *buffer, size_t buffer_size)
{
    const char *text = NULL;
    if (buffer == NULL || buffer_size == 0)
        return collcalc_json_fail(ctx, "internal error: no room for a string");
    collcalc_status status = collcalc_json_as_string(ctx, item, buffer_size - 1, &text);
    if (status != COLLCALC_OK)
        return status;
    memcpy(buffer, text, strlen(text) + 1);
    return COLLCALC_OK;
}

collcalc_status collcalc_json_as_enum(collcalc_json_ctx *ctx, const cJSON *item,
                                      const char *const *words, size_t word_count,
                                      size_t *out_index)
{
    if (item == NULL)
        return fail_missing(ctx);
    if (!cJSON_IsString(item) || item->valuestring == NULL)
        return fail_type(ctx, item, "a string");
    for (size_t i = 0; i < word_count; i++) {
        if (strcmp(item->valuestring, words[i]) == 0) {
            *out_index = i;
            return COLLCALC_OK;
        }
    }
    char list[COLLCALC_DIAG_MESSAGE_MAX];
    size_t length = 0;
    list[0] = '\0';
    for (size_t i = 0; i < word_count; i++) {
        if (i > 0)
            append_text(list, sizeof list, &length, ", ");
        append_text(list, sizeof list, &length, words[i]);
    }
    char quoted[QUOTE_BUFFER];
    quote_text(quoted, sizeof quoted, item->valuestring);
    return collcalc_json_fail(ctx, "must be one of %s (got '%s')", list, quoted);
}

/* The checks every numeric getter starts with: present, a number (what
 * names the expected kind), finite. */
static collcalc_status read_finite_number(collcalc_json_ctx *ctx, const cJSON *item,
                                          const char *what, double *out)
{
    if (item == NULL)
        return fail_missing(ctx);
    if (!cJSON_IsNumber(item))
        return fail_type(ctx, item, what);
    double value = item->valuedouble;
    if (isnan(value)) /* only from trees built in code: JSON text has no NaN */
        return collcalc_json_fail(ctx, "must be a finite number (got nan)");
    if (!isfinite(value))
        return collcalc_json_fail(ctx, "must be a finite number (this one overflows a double)");
    *out = value;
    return COLLCALC_OK;
}

collcalc_status collcalc_json_as_number(collcalc_json_ctx *ctx, const cJSON *item, double min,
                                        double max, unsigned flags, double *out)
{
    double value = 0.0;
    collcalc_status status = read_finite_number(ctx, item, "a number", &value);
    if (status != COLLCALC_OK)
        return status;
    char got[40], bound[40];
    format_number(got, sizeof got, value);
    bool min_strict = (flags & COLLCALC_JSON_MIN_EXCLUSIVE) != 0;
    bool max_strict = (flags & COLLCALC_JSON_MAX_EXCLUSIVE) != 0;
    if (min_strict ? !(value > min) : !(value >= min)) {
        format_number(bound, sizeof bound, min);
        return collcalc_json_fail(ctx, "must be %s %s (got %s)", min_strict ? ">" : ">=", bound,
                                  got);
    }
    if (max_strict ? !(value < max) : !(value <= max)) {
        format_number(bound, sizeof bound, max);
        return collcalc_json_fail(ctx, "must be %s %s (got %s)", max_strict ? "<" : "<=", bound,
                                  got);
    }
    *out = value;
    return COLLCALC_OK;
}

collcalc_status collcalc_json_as_integer(collcalc_json_ctx *ctx, const cJSON *item, int64_t min,
                                         int64_t max, int64_t *out)
{
    double value = 0.0;
    collcalc_status status = read_finite_number(ctx, item, "a whole number", &value);
    if (status != COLLCALC_OK)
        return status;
    char got[40];
    format_number(got, sizeof got, value);
    if (value != floor(value))
        return collcalc_json_fail(ctx, "must be a whole number (got %s)", got);
    if (value < (double)min)
        return collcalc_json_fail(ctx, "must be >= %" PRId64 " (got %s)", min, got);
    if (value > (double)max)
        return collcalc_json_fail(ctx, "must be <= %" PRId64 " (got %s)", max, got);
    /* Also keeps the cast below defined: (double)INT64_MAX rounds up to 2^63. */
    if (fabs(value) > EXACT_INTEGER_LIMIT)
        return collcalc_json_fail(ctx, "too large to be exact (got %s; at most 2^53)", got);
    int64_t whole = (int64_t)value;
    if (whole < min || whole > max) /* (double)min/max may have rounded */
        return collcalc_json_fail(ctx, "must be between %" PRId64 " and %" PRId64 " (got %s)",
                                  min, max, got);
    *out = whole;
    return COLLCALC_OK;
}

collcalc_status collcalc_json_as_bool(collcalc_json_ctx *ctx, const cJSON *item, bool *out)
{
    if (item == NULL)
        return fail_missing(ctx);
    if (!cJSON_IsBool(item))
        return fail_type(ctx, item, "true or false");
    *out = cJSON_IsTrue(item) != 0;
    return COLLCALC_OK;
}

collcalc_status collcalc_json_as_array(collcalc_json_ctx *ctx, const cJSON *item,
                                       size_t min_count, size_t max_count, size_t *out_count)
{
    if (item == NULL)
        return fail_missing(ctx);
    if (!cJSON_IsArray(item))
        return fail_type(ctx, item, "an array");
    size_t count = 0;
    const cJSON *element;
    cJSON_ArrayForEach(element, item) {
        count++;
    }
    if (count < min_count)
        return collcalc_json_fail(ctx, "must have at least %zu element%s (has %zu)", min_count,
                                  min_count == 1 ? "" : "s", count);
    if (count > max_count)
        return collcalc_json_fail(ctx, "must have at most %zu element%s (has %zu)", max_count,
                                  max_count == 1 ? "" : "s", count);
    *out_count = count;
    return COLLCALC_OK;
}

/* ---- member getters ----------------------------------------------------- */

collcalc_status collcalc_json_get_string(collcalc_json_ctx *ctx, const cJSON *object,
                                         const char *key, size_t max_length, const char **out)
{
    const cJSON *item = collcalc_json_enter(ctx, object, key);
    collcalc_status status = collcalc_json_as_string(ctx, item, max_length, out);
    collcalc_json_leave(ctx);
    return status;
}

collcalc_status collcalc_json_get_string_copy(collcalc_json_ctx *ctx, const cJSON *object,
                                              const char *key, char *buffer, size_t buffer_size)
{
    const cJSON *item = collcalc_json_enter(ctx, object, key);
    collcalc_status status = collcalc_json_as_string_copy(ctx, item, buffer, buffer_size);
    collcalc_json_leave(ctx);
    return status;
}

collcalc_status collcalc_json_check_version(collcalc_json_ctx *ctx, const cJSON *object,
                                            int expected)
{
    int64_t version = 0;
    collcalc_status status =
        collcalc_json_get_integer(ctx, object, "schema_version", 0, INT32_MAX, &version);
    if (status != COLLCALC_OK || version == expected)
        return status;
    collcalc_json_path_push_key(&ctx->path, "schema_version");
    status = collcalc_json_fail(ctx, "unsupported version %lld (this collcalc reads %d)",
                                (long long)version, expected);
    collcalc_json_path_pop(&ctx->path);
    return status;
}

collcalc_status collcalc_json_get_string_fields(collcalc_json_ctx *ctx, const cJSON *object,
                                                const char *key, const collcalc_json_key *keys,
                                                char *const *targets, size_t count,
                                                size_t target_size)
{
    const cJSON *fields = collcalc_json_enter(ctx, object, key);
    collcalc_status status = collcalc_json_check_object(ctx, fields, keys, count);
    for (size_t i = 0; status == COLLCALC_OK && i < count; i++)
        if (collcalc_json_has(fields, keys[i].name))
            status = collcalc_json_get_string_copy(ctx, fields, keys[i].name, targets[i],
                                                   target_size);
    collcalc_json_leave(ctx);
    return status;
}

collcalc_status collcalc_json_get_enum(collcalc_json_ctx *ctx, const cJSON *object,
                                       const char *key, const char *const *words,
                                       size_t word_count, size_t *out_index)
{
    const cJSON *item = collcalc_json_enter(ctx, object, key);
    collcalc_status status = collcalc_json_as_enum(ctx, item, words, word_count, out_index);
    collcalc_json_leave(ctx);
    return status;
}

collcalc_status collcalc_json_get_number(collcalc_json_ctx *ctx, const cJSON *object,
                                         const char *key, double min, double max,
                                         unsigned flags, double *out)
{
    const cJSON *item = collcalc_json_enter(ctx, object, key);
    collcalc_status status = collcalc_json_as_number(ctx, item, min, max, flags, out);
    collcalc_json_leave(ctx);
    return status;
}

collcalc_status collcalc_json_get_integer(collcalc_json_ctx *ctx, const cJSON *object,
                                          const char *key, int64_t min, int64_t max,
                                          int64_t *out)
{
    const cJSON *item = collcalc_json_enter(ctx, object, key);
    collcalc_status status = collcalc_json_as_integer(ctx, item, min, max, out);
    collcalc_json_leave(ctx);
    return status;
}

collcalc_status collcalc_json_get_bool(collcalc_json_ctx *ctx, const cJSON *object,
                                       const char *key, bool *out)
{
    const cJSON *item = collcalc_json_enter(ctx, object, key);
    collcalc_status status = collcalc_json_as_bool(ctx, item, out);
    collcalc_json_leave(ctx);
    return status;
}
