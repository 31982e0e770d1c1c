/* Shared test helpers: source-tree paths, file reading, in-process CLI runs. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

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

/* Allocations cJSON (and so the loader) may still make before failing. */
static long allocations_left;

static void *failing_malloc(size_t size)
{
    if (allocations_left <= 0)
        return NULL;
    allocations_left--;
    return malloc(size);
}

long test_allocation_failure_loop(test_load_attempt attempt, const void *arg)
{
    cJSON_Hooks hooks = {failing_malloc, free};
    cJSON_InitHooks(&hooks);
    long budget = 0;
    for (;; budget++) {
        allocations_left = budget;
        collcalc_diag diag = {{0}};
        collcalc_status status = attempt(arg, &diag);
        if (status == COLLCALC_OK)
            break;
        if (status != COLLCALC_ERR_NOMEM)
            print_error("budget %ld: %s\n", budget, diag.message);
        assert_int_equal(status, COLLCALC_ERR_NOMEM);
        assert_contains(diag.message, "out of memory");
    }
    cJSON_InitHooks(NULL);
    return budget;
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
    snprintf(buffer, sizeof buffer, "%s/%s", env_dir("COLLCALC_SHARED_DIR", "../shared"), relative);
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

