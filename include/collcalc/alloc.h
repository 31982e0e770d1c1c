/* The library's allocator: every allocation collcalc makes (its own tables,
 * readers and plans, and cJSON's while it parses a document) goes through
 * the functions below, so a program can account for the memory, put it in an
 * arena, or make any single allocation fail to test its error paths
 * (tests/unit/test_alloc_failures.c does the last). */
#ifndef COLLCALC_ALLOC_H
#define COLLCALC_ALLOC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Four functions with the C library's contracts: malloc_fn(size),
 * calloc_fn(count, size) returning zeroed memory (NULL when count * size
 * overflows), realloc_fn(pointer, size) (NULL pointer = malloc; on failure
 * the old block stays valid), free_fn(pointer) (NULL is a no-op). All four
 * are required. */
typedef struct {
    void *(*malloc_fn)(size_t size);
    void *(*calloc_fn)(size_t count, size_t size);
    void *(*realloc_fn)(void *pointer, size_t size);
    void (*free_fn)(void *pointer);
} collcalc_allocator;

/* Fills allocator with the C library's malloc, calloc, realloc and free. */
void collcalc_allocator_init(collcalc_allocator *allocator);

/* Installs allocator (copied; NULL, or one with any member NULL, restores
 * the C library's) for the whole process, and matching cJSON hooks, so
 * cJSON's allocations during a parse go through it too. Not thread-safe:
 * call it before any other collcalc function runs, and free what was
 * allocated under one allocator while that allocator is still installed. */
void collcalc_allocator_set(const collcalc_allocator *allocator);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
