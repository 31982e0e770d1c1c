/* Shared test helpers: source-tree paths, file reading, in-process CLI runs. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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

