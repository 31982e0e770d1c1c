/* batch's input stream, read for the library's line reader (batch_lines.h). */
#ifndef COLLCALC_CLI_BATCH_INPUT_H
#define COLLCALC_CLI_BATCH_INPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "batch_lines.h"

typedef struct {
    FILE *in;
    /* SIGINT is blocked but while a read waits (cmd_batch handles it
     * without SA_RESTART); a read it cuts short ends the input there */
    bool interruptible;
} batch_file;

/* A batch_read_fn over a batch_file. */
batch_source_status batch_file_read(void *file, char *into, size_t room, size_t *got);

#endif
