/* Names and aliases of data-table entries (links, platforms, models): the
 * one set of rules for reading, comparing, de-duplicating and looking them
 * up, and the tables' enum words. Whole-table operations built on these are
 * in table.h. */
#ifndef COLLCALC_DATA_NAMES_H
#define COLLCALC_DATA_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "collcalc/links.h"
#include "json_check.h"

/* Where the names sit in one table's entry type, so the helpers below can
 * walk an array of collcalc_link or collcalc_platform alike. Both types hold
 * char name[COLLCALC_NAME_MAX] and
 * char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX]. */
typedef struct {
    size_t stride;         /* sizeof one entry */
    size_t name_offset;    /* offsetof(entry, name) */
    size_t aliases_offset; /* offsetof(entry, aliases) */
    const char *array_key; /* the document's array, "links": for messages */
} collcalc_names_layout;

/* Name slots of one entry: slot 0 is the name, 1..COLLCALC_MAX_ALIASES the
 * aliases. */
#define COLLCALC_NAMES_SLOTS (COLLCALC_MAX_ALIASES + 1)

/* Whether a and b are the same name ignoring ASCII case; ASCII only because
 * names are ASCII and tolower would depend on the locale. */
bool collcalc_names_equal(const char *a, const char *b);

/* Checks that text (at the current path) uses only name characters a-z,
 * 0-9, '.' and '-' (A-Z too when allow_upper, for references that are
 * looked up ignoring case). Refusing other bytes also keeps raw control
 * bytes out of later messages that quote the text. */
collcalc_status collcalc_names_check_chars(collcalc_json_ctx *ctx, const char *text,
                                           bool allow_upper);

/* Reads object's required "name" and optional "aliases" members (the path
 * ends at the entry) into name and aliases; unused aliases are left as they
 * are (callers start from a zeroed entry). */
collcalc_status collcalc_names_load(collcalc_json_ctx *ctx, const cJSON *object,
                                    char name[COLLCALC_NAME_MAX],
                                    char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX]);

/* Name slot slot (< COLLCALC_NAMES_SLOTS) of entries[index]; "" when the
 * alias is unused. */
const char *collcalc_names_slot(const collcalc_names_layout *layout, const void *entries,
                                size_t index, size_t slot);

/* Checks that entries[i]'s name and aliases clash with no name or alias of
 * entries[0..i], ignoring case, so a lookup by name has exactly one answer.
 * The path ends at entry i; a clash is reported at its name or alias. */
collcalc_status collcalc_names_check_unique(collcalc_json_ctx *ctx,
                                            const collcalc_names_layout *layout,
                                            const void *entries, size_t i);

/* The first of entries[0..count) with name as its name or an alias, ignoring
 * case; NULL when none does or name is NULL or "". */
const void *collcalc_names_find(const collcalc_names_layout *layout, const void *entries,
                                size_t count, const char *name);

/* The data tables' enum names: words[value] (index = enum value), or
 * "unknown" outside words[0..count). */
const char *collcalc_names_word(const char *const *words, size_t count, int value);

/* Loads one element of a table's array into entry (zeroed, the path ends at
 * the element); context is the caller's. */
typedef collcalc_status (*collcalc_entry_loader)(collcalc_json_ctx *ctx, const cJSON *element,
                                                 void *entry, const void *context);

/* Loads root[layout->array_key], an array of 1..max_entries elements, into a
 * new zeroed block of header_size + count x layout->stride bytes from
 * collcalc_mem_malloc (free with collcalc_mem_free): entry i starts at header_size + i x
 * stride. Each element goes through load, then its names are checked
 * unique. On success the caller owns *out_block and fills in the header. */
collcalc_status collcalc_names_load_entries(collcalc_json_ctx *ctx, const cJSON *root,
                                            const collcalc_names_layout *layout,
                                            size_t max_entries, size_t header_size,
                                            collcalc_entry_loader load, const void *context,
                                            void **out_block, size_t *out_count);

/* Plans an overlay of overlay[0..overlay_count) on base[0..base_count)
 * (same layout): replaces[i] is the index of the base entry overlay entry i
 * replaces (same name, ignoring case), or base_count when it is added.
 * Refused when an overlay name or alias is the name or an alias of another
 * base entry (the message names layout->array_key[i] and the base entry),
 * or when the result would exceed max_entries. *out_count is the merged
 * count. */
collcalc_status collcalc_names_plan_overlay(const collcalc_names_layout *layout, const void *base,
                                            size_t base_count, const void *overlay,
                                            size_t overlay_count, size_t max_entries,
                                            size_t *replaces, size_t *out_count,
                                            collcalc_diag *diag);

#endif
