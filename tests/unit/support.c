/* Shared test helpers: source-tree paths, file reading, in-process CLI runs. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collcalc/alloc.h"

void test_assert_close_at(double got, double want, double tolerance, const char *file, int line)
{
    if (!(fabs(got - want) <= tolerance)) {
        print_error("%s:%d: got %.17g, wanted %.17g\n", file, line, got, want);
        fail();
    }
}

void test_assert_close_relative(double got, double want, double relative)
{
    if (!(fabs(got - want) <= relative * fabs(want))) {
        print_error("got %.6f, want %.6f (within %.3g)\n", got, want, relative);
        fail();
    }
}

/* The allocation-failure loop (support.h): a test allocator installed
 * through include/collcalc/alloc.h refuses the n-th allocation and counts
 * the blocks still live. */
static long budget;   /* allocations that may still succeed; -1 = any number */
static long attempts; /* allocation calls (malloc, calloc, realloc) */
static long failures; /* calls refused */
static long live;     /* blocks handed out and not yet freed */

static int take(void)
{
    attempts++;
    if (budget == 0) {
        failures++;
        return 0;
    }
    if (budget > 0)
        budget--;
    return 1;
}

static void *fail_malloc(size_t size)
{
    if (!take())
        return NULL;
    void *p = malloc(size != 0 ? size : 1);
    live += p != NULL;
    return p;
}

static void *fail_calloc(size_t count, size_t size)
{
    if (!take())
        return NULL;
    void *p = calloc(count != 0 ? count : 1, size != 0 ? size : 1);
    live += p != NULL;
    return p;
}

static void *fail_realloc(void *pointer, size_t size)
{
    if (!take())
        return NULL;
    void *p = realloc(pointer, size != 0 ? size : 1);
    live += p != NULL && pointer == NULL;
    return p;
}

static void fail_free(void *pointer)
{
    if (pointer == NULL)
        return;
    live--;
    free(pointer);
}

void test_allocator_install(long allowed)
{
    budget = allowed;
    attempts = failures = live = 0;
    collcalc_allocator_set(test_allocator());
}

const collcalc_allocator *test_allocator(void)
{
    static const collcalc_allocator allocator = {fail_malloc, fail_calloc, fail_realloc,
                                                 fail_free};
    return &allocator;
}

long test_allocator_attempts(void)
{
    return attempts;
}

long test_allocator_live(void)
{
    return live;
}

void test_allocator_clear_attempts(void)
{
    attempts = 0;
}

long test_allocation_failure_loop(const char *name, test_load_attempt attempt, const void *arg)
{
    for (long allowed = 0;; allowed++) {
        test_allocator_install(allowed);
        collcalc_diag diag;
        diag.message[0] = '\0';
        collcalc_status status = attempt(arg, &diag);
        long made = attempts, refused = failures, left = live;
        collcalc_allocator_set(NULL);
        if (left != 0)
            print_error("%s, allocation %ld failing: %ld blocks leaked\n", name, allowed + 1, left);
        assert_int_equal(left, 0);
        if (refused == 0) {
            if (status != COLLCALC_OK)
                print_error("%s: %s\n", name, diag.message);
            assert_int_equal(status, COLLCALC_OK);
            assert_int_equal(made, allowed); /* the first run with no refusal */
            print_message("%s: %ld allocation points\n", name, allowed);
            return allowed;
        }
        if (status != COLLCALC_ERR_NOMEM)
            print_error("%s, allocation %ld failing: %s (%s)\n", name, allowed + 1,
                        collcalc_status_name(status), diag.message);
        assert_int_equal(status, COLLCALC_ERR_NOMEM);
        assert_contains(diag.message, "out of memory");
        assert_true(allowed < 100000); /* the loop ends */
    }
}


static const char *env_dir(const char *name, const char *fallback)
{
    const char *value = getenv(name);
    return (value != NULL && value[0] != '\0') ? value : fallback;
}

const char *test_source_path(const char *relative)
{
    static char buffer[4096];
    snprintf(buffer, sizeof buffer, "%s/%s", env_dir("COLLCALC_SOURCE_DIR", "."), relative);
    return buffer;
}

const char *test_shared_path(const char *relative)
{
    static char buffer[4096];
    const char *dir = env_dir("COLLCALC_SHARED_DIR", "../shared");
    /* A checkout without the validation set beside it skips these tests
     * rather than failing them (CI always has it). */
    struct stat info;
    if (stat(dir, &info) != 0 || !S_ISDIR(info.st_mode)) {
        print_message("skipped: %s is not there (the validation set; set COLLCALC_SHARED_DIR)\n",
                      dir);
        skip();
    }
    snprintf(buffer, sizeof buffer, "%s/%s", dir, relative);
    return buffer;
}

char *test_read_file(const char *path, size_t *out_length)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        print_error("cannot open %s\n", path);
        fail();
    }
    size_t capacity = 1 << 16, length = 0, got;
    char *data = malloc(capacity + 1);
    assert_non_null(data);
    while ((got = fread(data + length, 1, capacity - length, file)) > 0) {
        length += got;
        if (length == capacity) {
            capacity *= 2;
            data = realloc(data, capacity + 1);
            assert_non_null(data);
        }
    }
    fclose(file);
    data[length] = '\0';
    if (out_length != NULL)
        *out_length = length;
    return data;
}


collcalc_nccl_prediction test_nccl_predict(const collcalc_nccl_system *system,
                                           const collcalc_nccl_constants *constants,
                                           const collcalc_nccl_options *options,
                                           collcalc_nccl_func func, uint64_t bytes)
{
    collcalc_nccl_prediction p;
    collcalc_diag diag;
    collcalc_status status = collcalc_nccl_predict(system, constants, options, func, bytes, &p,
                                                   &diag);
    if (status != COLLCALC_OK)
        fprintf(stderr, "%s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    return p;
}
