/* Helpers shared by the cmocka tests: reading files from the source tree,
 * running the CLI in-process with captured output, and assertions several
 * test files use. */
#ifndef COLLCALC_TESTS_SUPPORT_H
#define COLLCALC_TESTS_SUPPORT_H

#include <stddef.h>
#include <stdarg.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "collcalc/status.h"

/* Asserts that text contains needle, printing both when it does not. */
#define assert_contains(text, needle)                                                   \
    do {                                                                                \
        if (strstr((text), (needle)) == NULL) {                                         \
            print_error("expected \"%s\" in \"%s\"\n", (needle), (text));               \
            fail();                                                                     \
        }                                                                               \
    } while (0)

/* Doubles compared as doubles (cmocka's float assert narrows to float):
 * |got - want| <= tolerance, reported at file:line. */
void test_assert_close_at(double got, double want, double tolerance, const char *file, int line);

/* |got - want| <= relative x |want|, reported with both values. */
void test_assert_close_relative(double got, double want, double relative);

/* Path under the source tree (COLLCALC_SOURCE_DIR, set by CTest). Static buffer. */
const char *test_source_path(const char *relative);

/* Path under ../shared (COLLCALC_SHARED_DIR). Static buffer. */
const char *test_shared_path(const char *relative);

/* Reads a whole file; caller frees. NULL (and a failed assertion) when unreadable. */
char *test_read_file(const char *path, size_t *out_length);

/* One attempt of test_allocation_failure_loop: loads something (arg is the
 * caller's) and returns the status. On success it checks and frees what it
 * loaded; on failure it checks that nothing was handed back. */
typedef collcalc_status (*test_load_attempt)(const void *arg, collcalc_diag *diag);

/* Runs attempt with cJSON's allocator failing after 0, 1, 2, ...
 * allocations until it succeeds; each failure must be COLLCALC_ERR_NOMEM
 * with "out of memory" in its message, and leak nothing (ASan and valgrind
 * check). Returns the budget that succeeded. */
long test_allocation_failure_loop(test_load_attempt attempt, const void *arg);

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
