/* The storage and the table-level operations shared by the named data tables
 * (links, platforms, models): parsing a document's top level, merging an
 * overlay with origins, and the count/at/find/origin accessors. Each table
 * keeps its own private struct, laid out as
 *
 *   struct collcalc_X_table {
 *       size_t count;                  first member
 *       unsigned char origins[X_MAX];  collcalc_entry_origin of each entry
 *       entry_type entries[];          count entries, in file order
 *   };
 *
 * and describes it once with COLLCALC_TABLE_LAYOUT, so the public
 * collcalc_X_table_* functions stay typed one-line wrappers. */
#ifndef COLLCALC_DATA_TABLE_H
#define COLLCALC_DATA_TABLE_H

#include <stddef.h>

#include "collcalc/links.h"
#include "json_check.h"
#include "names.h"

/* Most entries any table holds (COLLCALC_TABLE_CHECK holds each table to it),
 * so an overlay can plan its merge on the stack. */
#define COLLCALC_TABLE_MAX_ENTRIES 256

/* Where one table type keeps its parts (see the comment above). */
typedef struct {
    const collcalc_names_layout *names; /* entry stride, name fields, array key */
    size_t origins_offset;              /* offsetof(table, origins) */
    size_t entries_offset;              /* offsetof(table, entries) */
    size_t max_entries;                 /* the origins array's length */
    const char *noun;                   /* "link": "no place for the link table" */
} collcalc_table_layout;

/* A layout for struct `type` with members count, `origins` and `entries`,
 * checked at compile time (COLLCALC_TABLE_CHECK, once per table): count
 * first, one byte per origin, max_entries origins. */
#define COLLCALC_TABLE_LAYOUT(type, origins, entries, max, names_layout, noun)               \
    {&(names_layout), offsetof(type, origins), offsetof(type, entries), (max), (noun)}
#define COLLCALC_TABLE_CHECK(type, origins, max)                                             \
    _Static_assert(offsetof(type, count) == 0, #type ": count must come first");             \
    _Static_assert(sizeof(((type *)0)->origins) == (max), #type ": one byte per origin");    \
    _Static_assert((max) <= COLLCALC_TABLE_MAX_ENTRIES, #type ": too many entries")

/* Loads a parsed document's top level (the cJSON tree, the path at the root)
 * into whatever arg points to; see collcalc_data_parse_document. */
typedef collcalc_status (*collcalc_document_loader)(collcalc_json_ctx *ctx, const cJSON *root,
                                                    void *arg);

/* Parses json_text strictly (collcalc_json_parse; origin names the document
 * in messages), hands the tree to load with arg, and frees the tree. */
collcalc_status collcalc_data_parse_document(const char *json_text, size_t json_length,
                                             const char *origin, collcalc_diag *diag,
                                             collcalc_document_loader load, void *arg);

/* The most values (of any kind, containers included) one table entry may
 * hold on average: a table document may hold max_entries times this many
 * (the largest built-in entry, a platform, holds about 40). */
#define COLLCALC_TABLE_ENTRY_VALUES_MAX 128

/* Parses a whole table document, { "schema_version": schema_version,
 * layout->names->array_key: [ 1..max_entries entries ] } (no array in it
 * longer than max_entries, at most max_entries x COLLCALC_TABLE_ENTRY_VALUES_MAX
 * values, both checked before a tree is built), each entry read by
 * load_entry with context and its names checked unique. On success *out_table
 * is a new table (all origins COLLCALC_ENTRY_BASE; free with
 * collcalc_table_free); *out_table is untouched on failure. */
collcalc_status collcalc_table_parse(const collcalc_table_layout *layout, int schema_version,
                                     const char *json_text, size_t json_length,
                                     const char *origin, collcalc_entry_loader load_entry,
                                     const void *context, void **out_table,
                                     collcalc_diag *diag);

/* A new table: base's entries and origins, then each overlay entry i put at
 * replaces[i] (origin REPLACED) or, when replaces[i] == base's count, at the
 * end (origin ADDED), count entries in all. NULL when out of memory. */
void *collcalc_table_merge(const collcalc_table_layout *layout, const void *base,
                           const void *overlay, const size_t *replaces, size_t count);

/* Overlays overlay on base by the shared rules (collcalc_names_plan_overlay,
 * then collcalc_table_merge); *out_table is NULL on failure. */
collcalc_status collcalc_table_overlay(const collcalc_table_layout *layout, const void *base,
                                       const void *overlay, void **out_table,
                                       collcalc_diag *diag);

/* Entries in table (0 for NULL). */
size_t collcalc_table_count(const void *table);

/* The first entry of a table (count entries at layout->names->stride). */
const void *collcalc_table_entries(const collcalc_table_layout *layout, const void *table);

/* Entry index, NULL for a NULL table or an index out of range. */
const void *collcalc_table_at(const collcalc_table_layout *layout, const void *table,
                              size_t index);

/* The entry with name as its name or an alias, ignoring case; NULL if none. */
const void *collcalc_table_find(const collcalc_table_layout *layout, const void *table,
                                const char *name);

/* Where entry index came from; COLLCALC_ENTRY_BASE for NULL or out of range. */
/* The entry named name (or an alias), as collcalc_table_find; else
 * COLLCALC_ERR_NOT_FOUND with "FIELD: unknown NOUN 'name' (did you mean
 * ...?); known: a, b, ..." (no "FIELD: " when field is NULL): the one
 * lookup by name of links, platforms and models. */
collcalc_status collcalc_table_lookup(const collcalc_table_layout *layout, const void *table,
                                      const char *field, const char *name, const void **out,
                                      collcalc_diag *diag);

collcalc_entry_origin collcalc_table_origin(const collcalc_table_layout *layout,
                                            const void *table, size_t index);

/* Entries with origin COLLCALC_ENTRY_REPLACED (0 for NULL). */
size_t collcalc_table_replaced_count(const collcalc_table_layout *layout, const void *table);

/* Frees a table from collcalc_table_parse/merge/overlay; NULL is fine. */
void collcalc_table_free(void *table);

#endif
