/* The table-level code every named data table shares (data/table.h): one
 * implementation of the top-level parse, the overlay merge with origins and
 * the accessors, so links, platforms and models cannot drift apart. */
#include "table.h"
#include "collcalc/alloc.h"
#include "helpers.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The count member, first in every table (COLLCALC_TABLE_CHECK). */
static size_t count_of(const void *table)
{
    return *(const size_t *)table;
}

static unsigned char *origins_of(const collcalc_table_layout *layout, void *table)
{
    return (unsigned char *)table + layout->origins_offset;
}

static unsigned char *entries_of(const collcalc_table_layout *layout, void *table)
{
    return (unsigned char *)table + layout->entries_offset;
}

/* collcalc_data_parse_document within limits (NULL: the defaults). */
static collcalc_status parse_document(const char *json_text, size_t json_length,
                                      const char *origin, collcalc_diag *diag,
                                      const collcalc_json_limits *limits,
                                      collcalc_document_loader load, void *arg)
{
    collcalc_json_ctx ctx;
    collcalc_json_ctx_init(&ctx, origin, diag);
    if (limits != NULL)
        ctx.limits = *limits;
    cJSON *root = NULL;
    collcalc_status status = collcalc_json_parse(&ctx, json_text, json_length, &root);
    if (status != COLLCALC_OK)
        return status;
    status = load(&ctx, root, arg);
    cJSON_Delete(root);
    return status;
}

collcalc_status collcalc_data_parse_document(const char *json_text, size_t json_length,
                                             const char *origin, collcalc_diag *diag,
                                             collcalc_document_loader load, void *arg)
{
    return parse_document(json_text, json_length, origin, diag, NULL, load, arg);
}

/* What collcalc_table_parse hands its document loader. */
typedef struct {
    const collcalc_table_layout *layout;
    int schema_version;
    collcalc_entry_loader load_entry;
    const void *context;
    void **out_table;
} table_job;

/* Checks the root's keys and schema version, then loads the array. */
static collcalc_status load_table(collcalc_json_ctx *ctx, const cJSON *root, void *arg)
{
    const table_job *job = arg;
    const collcalc_names_layout *names = job->layout->names;
    const collcalc_json_key root_keys[] = {
        {"schema_version", true},
        {names->array_key, true},
    };
    collcalc_status status = collcalc_json_check_object(ctx, root, root_keys, 2);
    if (status != COLLCALC_OK)
        return status;
    status = collcalc_json_check_version(ctx, root, job->schema_version);
    if (status != COLLCALC_OK)
        return status;
    void *block = NULL;
    size_t count = 0;
    status = collcalc_names_load_entries(ctx, root, names, job->layout->max_entries,
                                         job->layout->entries_offset, job->load_entry,
                                         job->context, &block, &count);
    if (status != COLLCALC_OK)
        return status;
    *(size_t *)block = count;
    *job->out_table = block;
    return COLLCALC_OK;
}

collcalc_status collcalc_table_parse(const collcalc_table_layout *layout, int schema_version,
                                     const char *json_text, size_t json_length,
                                     const char *origin, collcalc_entry_loader load_entry,
                                     const void *context, void **out_table,
                                     collcalc_diag *diag)
{
    table_job job = {layout, schema_version, load_entry, context, out_table};
    /* Checked while the text is scanned, before a tree is built: a file of
     * millions of elements is refused in the memory of its text. */
    collcalc_json_limits limits = {layout->max_entries,
                                   layout->max_entries * COLLCALC_TABLE_ENTRY_VALUES_MAX};
    return parse_document(json_text, json_length, origin, diag, &limits, load_table, &job);
}

void *collcalc_table_merge(const collcalc_table_layout *layout, const void *base,
                           const void *overlay, const size_t *replaces, size_t count)
{
    size_t stride = layout->names->stride;
    size_t bytes = layout->entries_offset + count * stride;
    void *table = collcalc_mem_malloc(bytes);
    if (table == NULL)
        return NULL;
    memset(table, 0, bytes);
    *(size_t *)table = count;
    size_t base_count = count_of(base);
    unsigned char *origins = origins_of(layout, table);
    unsigned char *entries = entries_of(layout, table);
    memcpy(origins, (const unsigned char *)base + layout->origins_offset, base_count);
    memcpy(entries, collcalc_table_entries(layout, base), base_count * stride);
    const unsigned char *added = collcalc_table_entries(layout, overlay);
    size_t next = base_count;
    for (size_t i = 0; i < count_of(overlay); i++) {
        bool replaced = replaces[i] != base_count;
        size_t at = replaced ? replaces[i] : next++;
        memcpy(entries + at * stride, added + i * stride, stride);
        origins[at] = (unsigned char)(replaced ? COLLCALC_ENTRY_REPLACED : COLLCALC_ENTRY_ADDED);
    }
    return table;
}

collcalc_status collcalc_table_overlay(const collcalc_table_layout *layout, const void *base,
                                       const void *overlay, void **out_table,
                                       collcalc_diag *diag)
{
    if (out_table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the %s table",
                                  layout->noun);
    *out_table = NULL;
    if (base == NULL || overlay == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no %s table to overlay",
                                  layout->noun);
    /* overlay is a parsed table of the same type: at most max_entries. */
    size_t replaces[COLLCALC_TABLE_MAX_ENTRIES];
    size_t count = 0;
    collcalc_status status = collcalc_names_plan_overlay(
        layout->names, collcalc_table_entries(layout, base), count_of(base),
        collcalc_table_entries(layout, overlay), count_of(overlay), layout->max_entries,
        replaces, &count, diag);
    if (status != COLLCALC_OK)
        return status;
    void *table = collcalc_table_merge(layout, base, overlay, replaces, count);
    if (table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory merging %s tables",
                                  layout->noun);
    *out_table = table;
    return COLLCALC_OK;
}

size_t collcalc_table_count(const void *table)
{
    return table != NULL ? count_of(table) : 0;
}

const void *collcalc_table_entries(const collcalc_table_layout *layout, const void *table)
{
    return (const unsigned char *)table + layout->entries_offset;
}

const void *collcalc_table_at(const collcalc_table_layout *layout, const void *table,
                              size_t index)
{
    if (table == NULL || index >= count_of(table))
        return NULL;
    return (const unsigned char *)collcalc_table_entries(layout, table) +
           index * layout->names->stride;
}

const void *collcalc_table_find(const collcalc_table_layout *layout, const void *table,
                                const char *name)
{
    if (table == NULL)
        return NULL;
    return collcalc_names_find(layout->names, collcalc_table_entries(layout, table),
                               count_of(table), name);
}

/* Longest "known: a, b, c" list kept in a message. */
enum { KNOWN_LIST_MAX = 320 };

/* "a, b, c" of names, cut at a whole name (", ...") to fit size. */
static void known_list(char *out, size_t size, const char *const *names, size_t count)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < count && used + 1 < size; i++) {
        int n = snprintf(out + used, size - used, "%s%s", i > 0 ? ", " : "", names[i]);
        if (n < 0 || (size_t)n >= size - used) {
            out[used] = '\0';
            if (used + 5 < size)
                memcpy(out + used, ", ...", 6);
            return;
        }
        used += (size_t)n;
    }
}

collcalc_status collcalc_table_lookup(const collcalc_table_layout *layout, const void *table,
                                      const char *field, const char *name, const void **out,
                                      collcalc_diag *diag)
{
    *out = collcalc_table_find(layout, table, name);
    if (*out != NULL)
        return COLLCALC_OK;
    /* Every name and alias for the suggestion, the names for the list. */
    static const size_t SLOTS = COLLCALC_NAMES_SLOTS;
    const char *all[COLLCALC_TABLE_MAX_ENTRIES * COLLCALC_NAMES_SLOTS] = {NULL};
    const char *canonical[COLLCALC_TABLE_MAX_ENTRIES];
    size_t all_count = 0, count = table != NULL ? count_of(table) : 0;
    if (count > COLLCALC_TABLE_MAX_ENTRIES)
        count = COLLCALC_TABLE_MAX_ENTRIES;
    const void *entries = table != NULL ? collcalc_table_entries(layout, table) : NULL;
    for (size_t i = 0; i < count; i++) {
        canonical[i] = collcalc_names_slot(layout->names, entries, i, 0);
        for (size_t slot = 0; slot < SLOTS; slot++) {
            const char *text = collcalc_names_slot(layout->names, entries, i, slot);
            if (text[0] != '\0')
                all[all_count++] = text;
        }
    }
    char shown[COLLCALC_ECHO_BUFFER], hint[160], known[KNOWN_LIST_MAX];
    collcalc_suggest_text(hint, sizeof hint, name != NULL ? name : "", all, all_count);
    known_list(known, sizeof known, canonical, count);
    collcalc_echo(shown, sizeof shown, name != NULL ? name : "");
    return collcalc_diag_fail(diag, COLLCALC_ERR_NOT_FOUND, "%s%sunknown %s '%s'%s; known: %s",
                              field != NULL ? field : "", field != NULL ? ": " : "",
                              layout->noun, shown, hint, known);
}

collcalc_entry_origin collcalc_table_origin(const collcalc_table_layout *layout,
                                            const void *table, size_t index)
{
    if (table == NULL || index >= count_of(table))
        return COLLCALC_ENTRY_BASE;
    return (collcalc_entry_origin)((const unsigned char *)table + layout->origins_offset)[index];
}

size_t collcalc_table_replaced_count(const collcalc_table_layout *layout, const void *table)
{
    size_t replaced = 0;
    for (size_t i = 0; i < collcalc_table_count(table); i++)
        if (collcalc_table_origin(layout, table, i) == COLLCALC_ENTRY_REPLACED)
            replaced++;
    return replaced;
}

void collcalc_table_free(void *table)
{
    if (table != NULL)
        collcalc_mem_free(table);
}
