/* The library's allocator hook (include/collcalc/alloc.h): one process-wide
 * set of four functions, the C library's until a program installs its own,
 * shared with cJSON through its hooks so that a document's parse tree is
 * allocated by the same functions as the tables built from it. */
#include "collcalc/alloc.h"
#include "helpers.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>

static collcalc_allocator installed = {malloc, calloc, realloc, free};

void collcalc_allocator_init(collcalc_allocator *allocator)
{
    if (allocator == NULL)
        return;
    allocator->malloc_fn = malloc;
    allocator->calloc_fn = calloc;
    allocator->realloc_fn = realloc;
    allocator->free_fn = free;
}

void collcalc_allocator_set(const collcalc_allocator *allocator)
{
    if (allocator == NULL || allocator->malloc_fn == NULL || allocator->calloc_fn == NULL ||
        allocator->realloc_fn == NULL || allocator->free_fn == NULL) {
        collcalc_allocator_init(&installed);
        cJSON_InitHooks(NULL); /* cJSON's own defaults (malloc, free, realloc) */
        return;
    }
    installed = *allocator;
    /* cJSON takes malloc and free only (it stops using realloc when they
     * are not the C library's, and allocates anew instead). */
    cJSON_Hooks hooks = {allocator->malloc_fn, allocator->free_fn};
    cJSON_InitHooks(&hooks);
}

void *collcalc_mem_malloc(size_t size)
{
    return installed.malloc_fn(size);
}

void *collcalc_mem_calloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    return installed.calloc_fn(count, size);
}

void *collcalc_mem_realloc(void *pointer, size_t size)
{
    return installed.realloc_fn(pointer, size);
}

void collcalc_mem_free(void *pointer)
{
    if (pointer != NULL)
        installed.free_fn(pointer);
}
