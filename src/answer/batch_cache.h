/* The prepared questions of recent batch lines, kept to answer a line that
 * differs from one of them only in its size (batch_cache.c says why this
 * machinery exists). A key is a query's text with its size value cut out;
 * a slot holds the prepared question of that key, which the caller costs
 * at the line's size (collcalc_evaluate, collcalc_evaluate_results)
 * without splitting, parsing and resolving the line again. */
#ifndef COLLCALC_ANSWER_BATCH_CACHE_H
#define COLLCALC_ANSWER_BATCH_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "batch_lines.h"
#include "collcalc/answer.h"

enum { BATCH_CACHE_KEY_MAX = 256 };

/* A query's key (batch_key_line, batch_key_words): its text without the
 * size value, as two pieces, head and tail. A line's pieces are read where
 * they are in the line (the text before the value, 'L' first, and after
 * it); they are copied into text only for a plan to keep
 * (batch_key_copy). */
typedef struct {
    const char *size_value; /* where the size value is; NULL: the query cannot use a plan */
    char kind;              /* 'L': a line's pieces; 'W': words joined in text */
    const char *head, *tail;
    size_t head_length, tail_length;
    size_t length; /* 1 (the kind) + head_length + tail_length */
    uint64_t hash;
    char text[BATCH_CACHE_KEY_MAX];
} batch_key;

/* A kept plan: the key's text, the caller's command (opaque here) and
 * flags, and the prepared question. */
typedef struct {
    uint32_t key_shape;
    char key[BATCH_CACHE_KEY_MAX]; /* kind, head, tail */
    const void *command;
    unsigned flags;
    collcalc_prepared prepared;
} batch_plan;

typedef struct batch_cache batch_cache;

/* An empty cache (NULL when out of memory); free with batch_cache_free. */
batch_cache *batch_cache_new(void);
void batch_cache_free(batch_cache *cache);

/* The key of a query line as read, before it is split: the line with the
 * value of its first "--size VALUE" cut out. The value must be a plain
 * word (no quote in it or right after it, not starting with '-' or '#'),
 * so two lines with the same key split into the same words but that one.
 * Nothing else is checked here: the caller keeps a plan only when its
 * parser took that very word as the size, given once and without a
 * warning, so a line of a kept key parses as the kept one did. *value_end
 * is where the value ends. False when the line has no such value. */
bool batch_key_line(batch_key *key, const char *text, size_t length, size_t *value_end);

/* The key of a query given as words (a CSV row, a line with quotes): the
 * words joined by NUL bytes, the size value left empty. --size must be
 * written once, as "--size VALUE" with a value that is not an option, and
 * the words must fit the key; else size_value is NULL. */
void batch_key_words(batch_key *key, int argc, char **argv, const size_t *lengths);

/* A line key's pieces copied into its text (before the line is split in
 * place), for batch_cache_keep. */
void batch_key_copy(batch_key *key);

/* The plan kept for key, or NULL. */
const batch_plan *batch_cache_find(const batch_cache *cache, const batch_key *key);

/* Keeps prepared (and the caller's command and flags) for key, replacing
 * the oldest plan of its set. Nothing when the key has no size value. A
 * plan found before may be replaced: the caller uses it no more. */
void batch_cache_keep(batch_cache *cache, const batch_key *key, const void *command,
                      unsigned flags, const collcalc_prepared *prepared);

/* A line read for batch (batch_read_group), with its key once it is made. */
typedef struct {
    batch_line_status status;
    char *text;
    size_t length;
    long line_no;
    bool plain;    /* reader->plain for it */
    bool key_made; /* keyed, value_end and key are set */
    bool keyed;    /* batch_key_line found the line's key */
    size_t value_end;
    batch_key key;
} batch_line;

/* The lines batch_read_group takes at once. */
enum { BATCH_LINE_GROUP = 4 };

/* The next line into group[0] (*count 1); with ahead, also the lines after
 * it that the buffer holds whole (batch_read_buffered_line: no line read
 * before moves), up to BATCH_LINE_GROUP, and keys the plain ones one after
 * another before the first of them runs: the keying of lines in a row
 * overlaps in the processor, where one line's keying would wait behind the
 * line before it (2-3 % of the time; fetching their plans early as well
 * did not help). Returns the first read's status; BATCH_LINE_END,
 * BATCH_LINE_READ_ERROR and BATCH_LINE_RUNAWAY take no line (*count 0). */
batch_line_status batch_read_group(batch_reader *reader, bool ahead, batch_line *group,
                                   size_t *count);

/* Whether the line has a key (batch_key_line), made now if not yet. */
bool batch_line_keyed(batch_line *line);

#endif
