/* The collcalc command-line front end, callable in-process (tests, fuzzers). */
#ifndef COLLCALC_CLI_H
#define COLLCALC_CLI_H

#include <stdio.h>

/* Exit codes (README.md, "Conventions"). */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_DATA = 1,      /* bad table, unreadable file, runtime failure */
    CLI_EXIT_USAGE = 2,     /* bad option or value */
    CLI_EXIT_VIOLATION = 3  /* plan --strict: placement breaks a rule */
};

/* Runs one collcalc invocation. Reads stdin from in, writes results to out
 * and diagnostics to err. Never calls exit(); returns the exit code. argv is
 * not modified. */
int collcalc_cli_main(int argc, char **argv, FILE *in, FILE *out, FILE *err);

#endif
