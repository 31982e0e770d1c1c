/* A small table-driven option parser: reentrant (no getopt globals), so the
 * CLI can run many times in one process (tests, fuzzers, batch). */
#ifndef COLLCALC_CLI_ARGS_H
#define COLLCALC_CLI_ARGS_H

#include <stdbool.h>

/* One option a command accepts. */
typedef struct {
    const char *name;     /* long name without dashes: "size" */
    char short_name;      /* 'b', or 0 for none */
    bool takes_value;
    int id;               /* returned by args_next */
} cli_option;

/* Walks argv[first..argc). */
typedef struct {
    int argc;
    char **argv;
    int index;
    bool options_done; /* after "--" everything is positional */
    char error[256];   /* set when args_next returns ARGS_ERROR */
    const char *option_text; /* the option as the user wrote it, for messages */
} arg_cursor;

enum {
    ARGS_END = 0,
    ARGS_POSITIONAL = -1,
    ARGS_ERROR = -2
};

void args_init(arg_cursor *cursor, int argc, char **argv, int first);

/* Returns the next option's id (> 0) with *value set when it takes one,
 * ARGS_POSITIONAL with *value = the word, ARGS_END, or ARGS_ERROR with
 * cursor->error saying what was wrong. Accepts --name VALUE, --name=VALUE,
 * -x VALUE and -xVALUE. */
int args_next(arg_cursor *cursor, const cli_option *options, const char **value);

#endif
