/* Names and aliases of data-table entries: one implementation of the name
 * rules for every loader, so links and platforms cannot drift apart. */
#include "names.h"
#include "collcalc/alloc.h"
#include "helpers.h"

#include <string.h>

/* ASCII-only case folding: names are ASCII, and the C library's tolower
 * depends on the locale. */
static char fold(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

bool collcalc_names_equal(const char *a, const char *b)
{
    while (*a != '\0' && fold(*a) == fold(*b)) {
        a++;
        b++;
    }
    return fold(*a) == fold(*b);
}

const char *collcalc_names_word(const char *const *words, size_t count, int value)
{
    return (value >= 0 && (size_t)value < count) ? words[value] : "unknown";
}

collcalc_status collcalc_names_check_chars(collcalc_json_ctx *ctx, const char *text,
                                           bool allow_upper)
{
    for (size_t i = 0; text[i] != '\0'; i++) {
        char c = text[i];
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
            (allow_upper && c >= 'A' && c <= 'Z'))
            continue;
        unsigned char byte = (unsigned char)c;
        const char *letters = allow_upper ? "a-z, A-Z" : "a-z";
        /* Printable bytes are quoted; others as hex, so the message itself
         * stays printable. */
        if (byte > 0x20 && byte < 0x7F)
            return collcalc_json_fail(ctx, "character %zu ('%c') not allowed: use %s, 0-9, "
                                      "'.' and '-'", i + 1, c, letters);
        return collcalc_json_fail(ctx, "character %zu (byte 0x%02x) not allowed: use %s, 0-9, "
                                  "'.' and '-'", i + 1, byte, letters);
    }
    return COLLCALC_OK;
}

/* Checks a name or alias at the current path and copies it to out. */
static collcalc_status load_one(collcalc_json_ctx *ctx, const cJSON *item,
                                char out[COLLCALC_NAME_MAX])
{
    const char *text = NULL;
    collcalc_status status = collcalc_json_as_string(ctx, item, COLLCALC_NAME_MAX - 1, &text);
    if (status == COLLCALC_OK)
        status = collcalc_names_check_chars(ctx, text, false);
    if (status == COLLCALC_OK)
        memcpy(out, text, strlen(text) + 1);
    return status;
}

/* Reads object["aliases"], an array of 0..COLLCALC_MAX_ALIASES names. */
static collcalc_status load_aliases(collcalc_json_ctx *ctx, const cJSON *object,
                                    char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX])
{
    const cJSON *array = collcalc_json_enter(ctx, object, "aliases");
    size_t count = 0;
    collcalc_status status =
        collcalc_json_as_array(ctx, array, 0, COLLCALC_MAX_ALIASES, &count);
    const cJSON *element;
    size_t index = 0;
    if (status == COLLCALC_OK) {
        cJSON_ArrayForEach(element, array) {
            collcalc_json_path_push_index(&ctx->path, index);
            status = load_one(ctx, element, aliases[index]);
            collcalc_json_path_pop(&ctx->path);
            if (status != COLLCALC_OK)
                break;
            index++;
        }
    }
    collcalc_json_leave(ctx);
    return status;
}

collcalc_status collcalc_names_load(collcalc_json_ctx *ctx, const cJSON *object,
                                    char name[COLLCALC_NAME_MAX],
                                    char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX])
{
    const cJSON *item = collcalc_json_enter(ctx, object, "name");
    collcalc_status status = load_one(ctx, item, name);
    collcalc_json_leave(ctx);
    if (status == COLLCALC_OK && collcalc_json_has(object, "aliases"))
        status = load_aliases(ctx, object, aliases);
    return status;
}

const char *collcalc_names_slot(const collcalc_names_layout *layout, const void *entries,
                                size_t index, size_t slot)
{
    /* Byte arithmetic through the layout: the one way to reach the same
     * fields of two different struct types without a common header struct
     * in the public API. */
    const char *entry = (const char *)entries + index * layout->stride;
    if (slot == 0)
        return entry + layout->name_offset;
    return entry + layout->aliases_offset + (slot - 1) * COLLCALC_NAME_MAX;
}

/* Points the path at slot of the current entry: .name or .aliases[k]. */
static void push_slot(collcalc_json_ctx *ctx, size_t slot)
{
    if (slot == 0) {
        collcalc_json_path_push_key(&ctx->path, "name");
    } else {
        collcalc_json_path_push_key(&ctx->path, "aliases");
        collcalc_json_path_push_index(&ctx->path, slot - 1);
    }
}

/* Undoes push_slot. */
static void pop_slot(collcalc_json_ctx *ctx, size_t slot)
{
    collcalc_json_path_pop(&ctx->path);
    if (slot != 0)
        collcalc_json_path_pop(&ctx->path);
}

collcalc_status collcalc_names_check_unique(collcalc_json_ctx *ctx,
                                            const collcalc_names_layout *layout,
                                            const void *entries, size_t i)
{
    for (size_t s = 0; s < COLLCALC_NAMES_SLOTS; s++) {
        const char *name = collcalc_names_slot(layout, entries, i, s);
        if (name[0] == '\0')
            continue;
        for (size_t k = 0; k <= i; k++) {
            /* Within entry i only the earlier slots, so a name is not
             * compared with itself. */
            size_t slots = (k == i) ? s : COLLCALC_NAMES_SLOTS;
            for (size_t t = 0; t < slots; t++) {
                if (!collcalc_names_equal(name, collcalc_names_slot(layout, entries, k, t)))
                    continue;
                push_slot(ctx, s);
                collcalc_status status;
                if (t == 0)
                    status = collcalc_json_fail(ctx, "'%s' is already the name of %s[%zu]",
                                                name, layout->array_key, k);
                else
                    status = collcalc_json_fail(ctx,
                                                "'%s' is already an alias of %s[%zu] ('%s')",
                                                name, layout->array_key, k,
                                                collcalc_names_slot(layout, entries, k, 0));
                pop_slot(ctx, s);
                return status;
            }
        }
    }
    return COLLCALC_OK;
}

const void *collcalc_names_find(const collcalc_names_layout *layout, const void *entries,
                                size_t count, const char *name)
{
    if (name == NULL || name[0] == '\0')
        return NULL;
    for (size_t i = 0; i < count; i++) {
        for (size_t s = 0; s < COLLCALC_NAMES_SLOTS; s++) {
            const char *candidate = collcalc_names_slot(layout, entries, i, s);
            if (candidate[0] != '\0' && collcalc_names_equal(name, candidate))
                return (const char *)entries + i * layout->stride;
        }
    }
    return NULL;
}

collcalc_status collcalc_names_load_entries(collcalc_json_ctx *ctx, const cJSON *root,
                                            const collcalc_names_layout *layout,
                                            size_t max_entries, size_t header_size,
                                            collcalc_entry_loader load, const void *context,
                                            void **out_block, size_t *out_count)
{
    const cJSON *array = collcalc_json_enter(ctx, root, layout->array_key);
    size_t count = 0;
    collcalc_status status = collcalc_json_as_array(ctx, array, 1, max_entries, &count);
    if (status != COLLCALC_OK) {
        collcalc_json_leave(ctx);
        return status;
    }
    /* The library's allocator (collcalc/alloc.h), which cJSON's parse uses
     * too, so one hook covers a whole load. */
    size_t bytes = header_size + count * layout->stride;
    unsigned char *block = collcalc_mem_malloc(bytes);
    if (block == NULL) {
        collcalc_json_leave(ctx);
        return collcalc_diag_fail(ctx->diag, COLLCALC_ERR_NOMEM, "out of memory loading %zu %s",
                                  count, layout->array_key);
    }
    memset(block, 0, bytes);
    unsigned char *entries = block + header_size;
    const cJSON *element;
    size_t index = 0;
    cJSON_ArrayForEach(element, array) {
        collcalc_json_path_push_index(&ctx->path, index);
        status = load(ctx, element, entries + index * layout->stride, context);
        if (status == COLLCALC_OK)
            status = collcalc_names_check_unique(ctx, layout, entries, index);
        collcalc_json_path_pop(&ctx->path);
        if (status != COLLCALC_OK)
            break;
        index++;
    }
    collcalc_json_leave(ctx);
    if (status != COLLCALC_OK) {
        collcalc_mem_free(block);
        return status;
    }
    *out_block = block;
    *out_count = count;
    return COLLCALC_OK;
}

collcalc_status collcalc_names_plan_overlay(const collcalc_names_layout *layout, const void *base,
                                            size_t base_count, const void *overlay,
                                            size_t overlay_count, size_t max_entries,
                                            size_t *replaces, size_t *out_count,
                                            collcalc_diag *diag)
{
    size_t added = 0;
    for (size_t i = 0; i < overlay_count; i++) {
        const char *name = collcalc_names_slot(layout, overlay, i, 0);
        size_t target = base_count;
        for (size_t b = 0; b < base_count; b++)
            if (collcalc_names_equal(collcalc_names_slot(layout, base, b, 0), name))
                target = b;
        for (size_t slot = 0; slot < COLLCALC_NAMES_SLOTS; slot++) {
            const char *text = collcalc_names_slot(layout, overlay, i, slot);
            if (text[0] == '\0')
                continue;
            const void *owner_entry = collcalc_names_find(layout, base, base_count, text);
            if (owner_entry == NULL)
                continue;
            size_t owner = (size_t)((const char *)owner_entry - (const char *)base) / layout->stride;
            if (owner == target)
                continue;
            const char *owner_name = collcalc_names_slot(layout, base, owner, 0);
            return collcalc_diag_fail(
                diag, COLLCALC_ERR_INVALID,
                "%s[%zu]: '%s' is already %s of the built-in entry '%s'; rename it, or name the "
                "entry '%s' to replace that one",
                layout->array_key, i, text,
                collcalc_names_equal(owner_name, text) ? "the name" : "an alias", owner_name,
                owner_name);
        }
        replaces[i] = target;
        if (target == base_count)
            added++;
    }
    if (base_count + added > max_entries)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "the merged table would hold %zu %s (at most %zu)",
                                  base_count + added, layout->array_key, max_entries);
    *out_count = base_count + added;
    return COLLCALC_OK;
}
