/* Output files written beside the target and renamed over it (output_file.h). */
#define _XOPEN_SOURCE 700 /* realpath, mkstemp, fsync */
#include "output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *copy_text(const char *text)
{
    size_t n = strlen(text) + 1;
    char *copy = malloc(n);
    if (copy != NULL)
        memcpy(copy, text, n);
    return copy;
}

static void release(output_file *f)
{
    free(f->temp);
    free(f->target);
    f->temp = f->target = NULL;
    f->file = NULL;
}

/* The errno of a failed step, EIO when the step left none. */
static int failure(void)
{
    return errno != 0 ? errno : EIO;
}

/* Which of inputs is the same file as target (device and inode), or
 * input_count. "-" is std_in, through its descriptor when it has one. */
static size_t input_of(const struct stat *target, FILE *std_in, const char *const *inputs,
                       size_t input_count)
{
    for (size_t i = 0; i < input_count; i++) {
        if (inputs[i] == NULL)
            continue;
        struct stat input;
        int got = -1;
        if (strcmp(inputs[i], "-") != 0)
            got = stat(inputs[i], &input);
        else if (std_in != NULL && fileno(std_in) >= 0)
            got = fstat(fileno(std_in), &input);
        if (got == 0 && input.st_dev == target->st_dev && input.st_ino == target->st_ino)
            return i;
    }
    return input_count;
}

output_file_status output_file_open(output_file *f, const char *path, FILE *std_out,
                                    FILE *std_in, const char *const *inputs, size_t input_count,
                                    size_t *input_index, int *error_number)
{
    memset(f, 0, sizeof *f);
    *error_number = 0;
    if (strcmp(path, "-") == 0) {
        f->file = std_out;
        f->is_stdout = true;
        return OUTPUT_FILE_OK;
    }
    struct stat target;
    errno = 0;
    bool exists = stat(path, &target) == 0;
    if (!exists && errno != ENOENT) {
        *error_number = failure();
        return OUTPUT_FILE_ERROR;
    }
    if (exists) {
        size_t i = input_of(&target, std_in, inputs, input_count);
        if (i < input_count) {
            *input_index = i;
            return OUTPUT_FILE_IS_INPUT;
        }
    }
    f->existed = exists;
    if (exists && !S_ISREG(target.st_mode)) { /* a device, a FIFO: nothing to keep */
        f->file = fopen(path, "w");
        if (f->file == NULL) {
            *error_number = failure();
            return OUTPUT_FILE_ERROR;
        }
        return OUTPUT_FILE_OK;
    }
    /* A symbolic link stays one: its file is replaced. */
    struct stat link;
    char *resolved = NULL;
    if (exists && lstat(path, &link) == 0 && S_ISLNK(link.st_mode))
        resolved = realpath(path, NULL);
    f->target = resolved != NULL ? resolved : copy_text(path);
    if (f->target == NULL) {
        *error_number = ENOMEM;
        return OUTPUT_FILE_ERROR;
    }
    /* DIR/.NAME.XXXXXX: in the target's directory, so rename never copies. */
    const char *slash = strrchr(f->target, '/');
    size_t dir_length = slash != NULL ? (size_t)(slash - f->target) + 1 : 0;
    size_t size = strlen(f->target) + sizeof ".XXXXXX" + 1;
    f->temp = malloc(size);
    if (f->temp == NULL) {
        release(f);
        *error_number = ENOMEM;
        return OUTPUT_FILE_ERROR;
    }
    snprintf(f->temp, size, "%.*s.%s.XXXXXX", (int)dir_length, f->target,
             f->target + dir_length);
    int fd = mkstemp(f->temp);
    if (fd < 0) {
        *error_number = failure();
        release(f);
        return OUTPUT_FILE_ERROR;
    }
    /* The mode the file had, or a new file's (mkstemp makes it 0600). */
    mode_t mode;
    if (exists) {
        mode = target.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    f->file = fchmod(fd, mode) == 0 ? fdopen(fd, "w") : NULL;
    if (f->file == NULL) {
        *error_number = failure();
        close(fd);
        unlink(f->temp);
        release(f);
        return OUTPUT_FILE_ERROR;
    }
    return OUTPUT_FILE_OK;
}

/* The rename on disk too: the directory synced (errors ignored: some file
 * systems cannot sync a directory, and the file itself is complete). */
static void sync_directory(const char *target)
{
    const char *slash = strrchr(target, '/');
    char dir[4096];
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == target)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - target), target);
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

bool output_file_commit(output_file *f, int *error_number)
{
    *error_number = 0;
    if (f->file == NULL) {
        *error_number = EBADF;
        return false;
    }
    if (f->is_stdout) {
        bool ok = fflush(f->file) == 0 && !ferror(f->file);
        if (!ok)
            *error_number = failure();
        f->file = NULL;
        return ok;
    }
    errno = 0;
    bool ok = fflush(f->file) == 0 && !ferror(f->file);
    if (!ok)
        *error_number = failure();
    /* Synced before the rename, so the name never points at a file the
     * disk has not got; a file system that cannot sync files is let be. */
    if (ok && f->temp != NULL && fsync(fileno(f->file)) != 0 && errno != EINVAL &&
        errno != ENOTSUP) {
        ok = false;
        *error_number = failure();
    }
    if (fclose(f->file) != 0 && ok) {
        ok = false;
        *error_number = failure();
    }
    f->file = NULL;
    if (ok && f->temp != NULL && rename(f->temp, f->target) != 0) {
        ok = false;
        *error_number = failure();
    }
    if (!ok && f->temp != NULL)
        unlink(f->temp);
    if (ok && f->temp != NULL)
        sync_directory(f->target);
    release(f);
    return ok;
}

void output_file_abort(output_file *f)
{
    if (f->file != NULL && !f->is_stdout)
        fclose(f->file);
    if (f->temp != NULL)
        unlink(f->temp);
    release(f);
}
