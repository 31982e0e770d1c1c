/* Replays a fuzz corpus directory (or single files) through a fuzz target, so
 * every normal test run re-checks the inputs that once found bugs. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t capacity = 4096, length = 0;
    uint8_t *data = malloc(capacity);
    size_t got;
    while (data != NULL && (got = fread(data + length, 1, capacity - length, file)) > 0) {
        length += got;
        if (length == capacity) {
            capacity *= 2;
            uint8_t *bigger = realloc(data, capacity);
            if (bigger == NULL) {
                free(data);
                data = NULL;
            }
            data = bigger;
        }
    }
    fclose(file);
    if (data == NULL)
        return 1;
    LLVMFuzzerTestOneInput(data, length);
    free(data);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv)
{
    int failures = 0, replayed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat info;
        if (stat(argv[i], &info) != 0) {
            fprintf(stderr, "replay: no such corpus %s\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(info.st_mode)) {
            failures += replay_file(argv[i]);
            replayed++;
            continue;
        }
        DIR *dir = opendir(argv[i]);
        if (dir == NULL)
            return 1;
        char *names[4096];
        size_t count = 0;
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL && count < 4096) {
            if (entry->d_name[0] == '.')
                continue;
            names[count++] = strdup(entry->d_name);
        }
        closedir(dir);
        qsort(names, count, sizeof names[0], compare_names);
        for (size_t k = 0; k < count; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
            failures += replay_file(path);
            replayed++;
            free(names[k]);
        }
    }
    printf("replayed %d inputs\n", replayed);
    if (replayed == 0) {
        fprintf(stderr, "replay: empty corpus\n");
        return 1;
    }
    return failures == 0 ? 0 : 1;
}
