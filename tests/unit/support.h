/* Helpers shared by the cmocka tests: reading files from the source tree and
 * running the CLI in-process with captured output. */
#ifndef COLLCALC_TESTS_SUPPORT_H
#define COLLCALC_TESTS_SUPPORT_H

#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <cmocka.h>

/* Path under the source tree (COLLCALC_SOURCE_DIR, set by CTest). Static buffer. */
const char *test_source_path(const char *relative);

/* Path under ../shared (COLLCALC_SHARED_DIR). Static buffer. */
const char *test_shared_path(const char *relative);

/* Reads a whole file; caller frees. NULL (and a failed assertion) when unreadable. */
char *test_read_file(const char *path, size_t *out_length);

/* Result of running the CLI in-process. */
typedef struct {
    int exit_code;
    char *out; /* everything written to stdout, NUL-terminated */
    char *err; /* everything written to stderr */
} test_cli_run;

/* Runs collcalc with a NULL-terminated argv (argv[0] is "collcalc"), stdin
 * text optional (may be NULL). Free with test_cli_run_free. */
test_cli_run test_cli(const char *stdin_text, const char *const *argv);

/* Splits a command line on spaces (single/double quotes group words) and runs it. */
test_cli_run test_cli_line(const char *stdin_text, const char *command_line);

void test_cli_run_free(test_cli_run *run);

#endif
