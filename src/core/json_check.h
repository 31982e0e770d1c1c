/* Strict, typed access to JSON documents on top of cJSON, reporting every
 * problem with the JSON path of the bad value; shared by all data loaders. */
#ifndef COLLCALC_CORE_JSON_CHECK_H
#define COLLCALC_CORE_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "collcalc/status.h"

/* Deepest nesting of arrays and objects a document may have. Our data files
 * nest four levels; the limit keeps the syntax check's recursion bounded. */
#define COLLCALC_JSON_DEPTH_MAX 64

/* Longest path text kept for messages, including the NUL; longer paths end
 * in "...". */
#define COLLCALC_JSON_PATH_MAX 192

/* Most keys one collcalc_json_check_object call can describe. */
#define COLLCALC_JSON_KEYS_MAX 64

/* What one document may hold, checked by the syntax scan before any tree is
 * built (collcalc_json_parse), so memory stays bounded by the limits, not
 * by the input: at most array_max elements in any one array and values_max
 * values (of any kind, containers included) in the whole document. The
 * defaults bound a tree to about 20 MB; tables pass their own (data/table.h). */
typedef struct {
    size_t array_max;
    size_t values_max;
} collcalc_json_limits;
#define COLLCALC_JSON_ARRAY_MAX 65536
#define COLLCALC_JSON_VALUES_MAX 262144

/* Where in the document a value is, as loaders walk it:
 * "links[3].bw_per_direction_GBps". Push a segment before looking at a
 * member or element, pop it afterwards. No allocation. */
typedef struct {
    char text[COLLCALC_JSON_PATH_MAX];
    size_t length;                         /* strlen(text) */
    size_t marks[COLLCALC_JSON_DEPTH_MAX]; /* length before each recorded push */
    size_t depth;                          /* pushes not yet popped; may exceed DEPTH_MAX */
} collcalc_json_path;

/* Empties the path (the document's top level). */
void collcalc_json_path_init(collcalc_json_path *path);

/* Appends ".key" (or "key" at the top level; ["key"] with escapes when the
 * key is not an identifier). */
void collcalc_json_path_push_key(collcalc_json_path *path, const char *key);

/* Appends "[index]". */
void collcalc_json_path_push_index(collcalc_json_path *path, size_t index);

/* Removes the last pushed segment; a pop without a push does nothing. */
void collcalc_json_path_pop(collcalc_json_path *path);

/* The path as text, "top level" when empty. Borrowed from path. */
const char *collcalc_json_path_text(const collcalc_json_path *path);

/* One document check in progress: where messages go, what they name. Every
 * failing call below writes "[origin: ]path: what is wrong" into diag. */
typedef struct {
    const char *origin;   /* file name for messages, or NULL; borrowed */
    collcalc_diag *diag;  /* may be NULL */
    collcalc_json_path path;
    collcalc_json_limits limits; /* for collcalc_json_parse; the defaults after init */
} collcalc_json_ctx;

/* Starts a check of one document. origin and diag are borrowed and must
 * outlive ctx; either may be NULL. */
void collcalc_json_ctx_init(collcalc_json_ctx *ctx, const char *origin, collcalc_diag *diag);

/* Reports a problem with the value at the current path (printf-style
 * detail) and returns COLLCALC_ERR_INVALID; for loaders' own rules. */
collcalc_status collcalc_json_fail(collcalc_json_ctx *ctx, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Parses length bytes of text (need not be NUL-terminated). The text must be
 * strict RFC 8259 JSON in UTF-8 (a leading byte-order mark is skipped) with
 * no NUL bytes and no "\u0000" escapes, nesting at most
 * COLLCALC_JSON_DEPTH_MAX, within ctx->limits (refused before parsing, as
 * "origin: links: more than 256 elements in an array (at most 256)", the
 * JSON path of the array). Syntax errors are reported as
 * "origin:3:14: not valid JSON: expected ',' or '}'" ("line 3, column 14:
 * ..." without an origin); columns count characters, from 1.
 * On success *out_root is a new tree the caller owns (free with
 * cJSON_Delete). COLLCALC_ERR_NOMEM when an allocation fails. */
collcalc_status collcalc_json_parse(collcalc_json_ctx *ctx, const char *text, size_t length,
                                    cJSON **out_root);

/* A key an object may hold. */
typedef struct {
    const char *name;
    bool required;
} collcalc_json_key;

/* Checks that item (at the current path) is an object whose keys are all in
 * keys[0..key_count), none repeated, and every required one present.
 * Unknown keys are named with the nearest allowed key or the allowed list;
 * key_count must be <= COLLCALC_JSON_KEYS_MAX. A NULL item is "missing". */
collcalc_status collcalc_json_check_object(collcalc_json_ctx *ctx, const cJSON *item,
                                           const collcalc_json_key *keys, size_t key_count);

/* Whether object has a member named key (case-sensitive, unlike
 * cJSON_HasObjectItem). */
bool collcalc_json_has(const cJSON *object, const char *key);

/* Looks up key in object (case-sensitive) and pushes it onto the path;
 * returns the member, or NULL when absent (getters report NULL as
 * "missing"). Pair every call with collcalc_json_leave. */
const cJSON *collcalc_json_enter(collcalc_json_ctx *ctx, const cJSON *object, const char *key);

/* Pops the segment pushed by collcalc_json_enter. */
void collcalc_json_leave(collcalc_json_ctx *ctx);

/* Flags for collcalc_json_as_number: make a bound strict ("> 0"). */
enum {
    COLLCALC_JSON_MIN_EXCLUSIVE = 1u,
    COLLCALC_JSON_MAX_EXCLUSIVE = 2u
};

/* The getters below check the value at the current path; a NULL item is
 * reported as missing. On failure *out is left unchanged. */

/* A non-empty string of at most max_length bytes. *out is borrowed from the
 * tree. */
collcalc_status collcalc_json_as_string(collcalc_json_ctx *ctx, const cJSON *item,
                                        size_t max_length, const char **out);

/* A non-empty string copied into buffer; it must fit (at most
 * buffer_size - 1 bytes). */
collcalc_status collcalc_json_as_string_copy(collcalc_json_ctx *ctx, const cJSON *item,
                                             char *buffer, size_t buffer_size);

/* A string equal (case-sensitively) to one of words[0..word_count);
 * *out_index is its index. The message lists the allowed words. */
collcalc_status collcalc_json_as_enum(collcalc_json_ctx *ctx, const cJSON *item,
                                      const char *const *words, size_t word_count,
                                      size_t *out_index);

/* A finite number in [min, max] (each bound strict when flagged). Strings
 * such as "450" are refused, as are 1e999 and -1e999, which cJSON turns into
 * infinities. */
collcalc_status collcalc_json_as_number(collcalc_json_ctx *ctx, const cJSON *item, double min,
                                        double max, unsigned flags, double *out);

/* A whole number in [min, max], exactly representable (|x| <= 2^53).
 * Reads valuedouble: cJSON's valueint saturates silently. */
collcalc_status collcalc_json_as_integer(collcalc_json_ctx *ctx, const cJSON *item, int64_t min,
                                         int64_t max, int64_t *out);

/* true or false. */
collcalc_status collcalc_json_as_bool(collcalc_json_ctx *ctx, const cJSON *item, bool *out);

/* An array with min_count..max_count elements; *out_count is its length.
 * Walk it with cJSON_ArrayForEach, pushing each index onto the path. */
collcalc_status collcalc_json_as_array(collcalc_json_ctx *ctx, const cJSON *item,
                                       size_t min_count, size_t max_count, size_t *out_count);

/* Member versions of the getters: look up key in object (case-sensitive),
 * push it onto the path while checking, pop it again. An absent key is
 * "missing"; test optional keys with collcalc_json_has first. */

/* object[key] as by collcalc_json_as_string. */
collcalc_status collcalc_json_get_string(collcalc_json_ctx *ctx, const cJSON *object,
                                         const char *key, size_t max_length, const char **out);

/* object[key] as by collcalc_json_as_string_copy. */
collcalc_status collcalc_json_get_string_copy(collcalc_json_ctx *ctx, const cJSON *object,
                                              const char *key, char *buffer, size_t buffer_size);

/* Reads object["schema_version"] and refuses any value but `expected`
 * ("schema_version: unsupported version 2 (this collcalc reads 1)"). */
collcalc_status collcalc_json_check_version(collcalc_json_ctx *ctx, const cJSON *object,
                                            int expected);

/* Reads object[key], an object of optional string members (such as a
 * "sources" block): keys[i] is copied into targets[i] (target_size bytes
 * each) when present; members not in keys are refused with their path. */
collcalc_status collcalc_json_get_string_fields(collcalc_json_ctx *ctx, const cJSON *object,
                                                const char *key, const collcalc_json_key *keys,
                                                char *const *targets, size_t count,
                                                size_t target_size);

/* object[key] as by collcalc_json_as_enum. */
collcalc_status collcalc_json_get_enum(collcalc_json_ctx *ctx, const cJSON *object,
                                       const char *key, const char *const *words,
                                       size_t word_count, size_t *out_index);

/* object[key] as by collcalc_json_as_number. */
collcalc_status collcalc_json_get_number(collcalc_json_ctx *ctx, const cJSON *object,
                                         const char *key, double min, double max,
                                         unsigned flags, double *out);

/* object[key] as by collcalc_json_as_integer. */
collcalc_status collcalc_json_get_integer(collcalc_json_ctx *ctx, const cJSON *object,
                                          const char *key, int64_t min, int64_t max,
                                          int64_t *out);

/* object[key] as by collcalc_json_as_bool. */
collcalc_status collcalc_json_get_bool(collcalc_json_ctx *ctx, const cJSON *object,
                                       const char *key, bool *out);

#endif
