/* The batch plan cache (batch_cache.h): prepared questions kept by the
 * text of their query with the size left out.
 *
 * Why this machinery exists: `collcalc batch` answers millions of lines a
 * second, and most lines of a real input differ from an earlier one only
 * in --size (a sweep of sizes over a few shapes). Splitting, parsing,
 * validating and resolving such a line again costs some ten times what
 * costing it does, so bench/batch.sh's targets (>= 6x mawk computing the
 * ring formula alone on the same columns, bench/README.md) are reached
 * only when a line is matched to the plan of its shape straight from its
 * text. The cache is fixed in size (CACHE_SETS sets of CACHE_WAYS, the
 * oldest of a set replaced), so memory stays bounded. Eight ways, their
 * tags compared at once: a thousand plans in use at once (the benchmark's
 * 1,023 GPU counts) all stay kept; with four ways (of 1,024 sets) a few
 * sets overflowed, and their lines were planned again and again.
 *
 * The hash multiplies 64 x 64 -> 128 bits and the tags are compared with
 * SSE2 where the machine has them; machine.h gives the portable twins
 * (COLLCALC_PORTABLE forces them, and the CI checks the same bytes come
 * out either way). */
#include "batch_cache.h"

#include <stdlib.h>
#include <string.h>

#include "batch_lines.h"
#include "machine.h"

#ifdef MACHINE_SSE2
#include <emmintrin.h>
#endif

/* The code every batch line runs (GCC and Clang; nothing for others). */
#if defined(__GNUC__) || defined(__clang__)
#define CACHE_INLINE __attribute__((always_inline)) inline
#else
#define CACHE_INLINE inline
#endif

enum { PLAN_SETS = 512, PLAN_WAYS = 8 };

struct batch_cache {
    batch_plan *plans; /* PLAN_SETS x PLAN_WAYS */
    /* The slots' tags (tag_of their keys; 0: an empty slot): what picks a
     * set's way, found without touching the slots, a set's eight in 32
     * bytes compared at once */
    _Alignas(64) uint32_t tags[PLAN_SETS][PLAN_WAYS];
    unsigned char next_way[PLAN_SETS]; /* the way a set replaces next */
};

batch_cache *batch_cache_new(void)
{
    /* (aligned for its tags: sizeof is a multiple of the alignment) */
    batch_cache *cache = aligned_alloc(_Alignof(batch_cache), sizeof *cache);
    if (cache == NULL)
        return NULL;
    memset(cache, 0, sizeof *cache);
    cache->plans = calloc((size_t)PLAN_SETS * PLAN_WAYS, sizeof *cache->plans);
    if (cache->plans == NULL) {
        free(cache);
        return NULL;
    }
    return cache;
}

void batch_cache_free(batch_cache *cache)
{
    if (cache == NULL)
        return;
    free(cache->plans);
    free(cache);
}

static void key_append(batch_key *key, const char *bytes, size_t n)
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
static CACHE_INLINE uint64_t hash_fold(uint64_t a, uint64_t b)
{
    uint64_t high, low = machine_multiply_wide(a, b, &high);
    return low ^ high;
}

static CACHE_INLINE uint64_t load8(const char *at)
{
    uint64_t word;
    memcpy(&word, at, 8);
    return word;
}

static CACHE_INLINE uint64_t load4(const char *at)
{
    uint32_t word;
    memcpy(&word, at, 4);
    return word;
}

static const uint64_t HASH_PLACE = 0xA0761D6478BD642Full, HASH_HALF = 0xE7037ED1A0B428DBull;

/* A block of the key: the two halves, the first keyed by its place
 * (*place, stepped for each block). */
static CACHE_INLINE uint64_t hash_block(uint64_t first, uint64_t second, uint64_t *place)
{
    *place += HASH_PLACE;
    return hash_fold(first ^ *place, second ^ HASH_HALF);
}

/* Sixteen bytes at a time where they are; the last 1..16 as one more
 * block, read as the piece's last sixteen bytes when it has as many (the
 * overlap read twice), else as two overlapping words of the piece's first
 * and last bytes. The piece's length is the caller's to mix in. */
static CACHE_INLINE uint64_t hash_piece(const char *bytes, size_t n, uint64_t *place)
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

static CACHE_INLINE void key_hash(batch_key *key)
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
void batch_key_copy(batch_key *key)
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
bool batch_key_line(batch_key *key, const char *text, size_t length, size_t *value_end)
{
    key->size_value = NULL;
    key->length = 0;
    if (length + 1 > BATCH_CACHE_KEY_MAX)
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
void batch_key_words(batch_key *key, int argc, char **argv, const size_t *lengths)
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
    if (size_word == 0 || total > BATCH_CACHE_KEY_MAX)
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

static size_t set_of(const batch_key *key)
{
    return (size_t)((key->hash ^ (key->hash >> 32)) % PLAN_SETS);
}

/* A key's tag in its set: its hash's high half, never 0 (an empty slot). */
static uint32_t tag_of(const batch_key *key)
{
    return (uint32_t)(key->hash >> 32) | 1u;
}

/* A key's two lengths in one word, kept in its slot: compared at once. */
static uint32_t shape_of(const batch_key *key)
{
    return (uint32_t)key->length | (uint32_t)key->head_length << 16;
}
_Static_assert(BATCH_CACHE_KEY_MAX < 65536, "a key's lengths fit the shape's 16-bit fields");

/* The ways of a set whose tag is tag, as bits (bit w: way w), found
 * without a branch per way: the eight tags compared in two vector
 * registers where there are (x86-64 always has SSE2), else one by one
 * (machine.h: the same bits). */
static CACHE_INLINE unsigned matching_ways(const uint32_t *tags, uint32_t tag)
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
const batch_plan *batch_cache_find(const batch_cache *cache, const batch_key *key)
{
    if (key->size_value == NULL || key->length == 0)
        return NULL;
    size_t set = set_of(key);
    uint32_t shape = shape_of(key);
    for (unsigned match = matching_ways(cache->tags[set], tag_of(key)); match != 0;
         match &= match - 1) {
        const batch_plan *slot = &cache->plans[set * PLAN_WAYS + (size_t)__builtin_ctz(match)];
        if (slot->key_shape == shape && slot->key[0] == key->kind &&
            memcmp(slot->key + 1, key->head, key->head_length) == 0 &&
            memcmp(slot->key + 1 + key->head_length, key->tail, key->tail_length) == 0)
            return slot;
    }
    return NULL;
}


void batch_cache_keep(batch_cache *cache, const batch_key *key, const void *command,
                      unsigned flags, const collcalc_prepared *prepared)
{
    if (key->size_value == NULL || key->length == 0)
        return;
    size_t set = set_of(key);
    unsigned way = cache->next_way[set];
    batch_plan *slot = &cache->plans[set * PLAN_WAYS + way];
    cache->tags[set][way] = tag_of(key);
    cache->next_way[set] = (unsigned char)((way + 1) % PLAN_WAYS);
    slot->key_shape = shape_of(key);
    slot->key[0] = key->kind;
    memcpy(slot->key + 1, key->head, key->head_length);
    memcpy(slot->key + 1 + key->head_length, key->tail, key->tail_length);
    slot->command = command;
    slot->flags = flags;
    slot->prepared = *prepared;
}

/* A line the reader has just taken: what it says of it, no key yet. */
static void line_taken(batch_line *line, const batch_reader *reader, batch_line_status status)
{
    line->status = status;
    line->line_no = reader->line;
    line->plain = reader->plain;
    line->key_made = false;
}

bool batch_line_keyed(batch_line *line)
{
    if (!line->key_made) {
        line->key_made = true;
        line->keyed = batch_key_line(&line->key, line->text, line->length, &line->value_end);
    }
    return line->keyed;
}

batch_line_status batch_read_group(batch_reader *reader, bool ahead, batch_line *group,
                                   size_t *count)
{
    *count = 0;
    batch_line_status status = batch_read_line(reader, &group[0].text, &group[0].length);
    if (status != BATCH_LINE_OK && status != BATCH_LINE_TOO_LONG)
        return status;
    line_taken(&group[(*count)++], reader, status);
    while (ahead && *count < BATCH_LINE_GROUP &&
           batch_read_buffered_line(reader, &group[*count].text, &group[*count].length))
        line_taken(&group[(*count)++], reader, BATCH_LINE_OK);
    for (size_t i = 0; ahead && i < *count; i++)
        if (group[i].status == BATCH_LINE_OK && group[i].plain)
            batch_line_keyed(&group[i]);
    return status;
}
