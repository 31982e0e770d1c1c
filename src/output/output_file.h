/* Writing an output file so that nothing a user had on disk is lost: the
 * text goes to a temporary file beside the target, which replaces the
 * target only once every byte is written and on disk (fflush, fsync,
 * fclose checked, then rename). A failed write (a full disk, a file-size
 * limit) removes the temporary file and leaves the old target as it was.
 * A target that is the same file as one of the command's inputs (same
 * device and inode, however it is spelled) is refused before anything is
 * written. "-" is standard output; an existing target that is not a
 * regular file (/dev/null, a FIFO, a terminal) is written in place. */
#ifndef COLLCALC_OUTPUT_OUTPUT_FILE_H
#define COLLCALC_OUTPUT_OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *file;    /* write here between open and commit */
    char *target;  /* where the text ends up (a symbolic link resolved) */
    char *temp;    /* the temporary file beside it; NULL: written in place */
    bool is_stdout; /* "-": file is the standard output given to open */
    bool existed;  /* the target was there before (and is replaced) */
} output_file;

typedef enum {
    OUTPUT_FILE_OK = 0,
    OUTPUT_FILE_IS_INPUT, /* the target is inputs[*input_index] */
    OUTPUT_FILE_ERROR     /* *error_number says why (an errno value) */
} output_file_status;

/* Opens path for writing. inputs[0..input_count) are the paths the
 * command reads ("-" is std_in, compared through its descriptor; NULL
 * entries are skipped). On OUTPUT_FILE_OK the caller writes to f->file and
 * calls output_file_commit or output_file_abort. */
output_file_status output_file_open(output_file *f, const char *path, FILE *std_out,
                                    FILE *std_in, const char *const *inputs, size_t input_count,
                                    size_t *input_index, int *error_number);

/* Finishes the file: flushed, synced and closed with every error checked,
 * then renamed over the target. False (and *error_number) when any step
 * failed: the temporary file is removed and the target is as it was. The
 * standard output is flushed, not closed. */
bool output_file_commit(output_file *f, int *error_number);

/* Drops what was written (the temporary file is removed; a file written
 * in place keeps what it got). */
void output_file_abort(output_file *f);

#endif
