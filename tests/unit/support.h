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

#include "collcalc/alloc.h"
#include "collcalc/status.h"
#include "collcalc/nccl_model.h"

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
/* collcalc_nccl_predict that must succeed (the model's message on stderr
 * when it does not). */
collcalc_nccl_prediction test_nccl_predict(const collcalc_nccl_system *system,
                                           const collcalc_nccl_constants *constants,
                                           const collcalc_nccl_options *options,
                                           collcalc_nccl_func func, uint64_t bytes);

const char *test_source_path(const char *relative);

/* Path under ../shared (COLLCALC_SHARED_DIR). Static buffer. Skips the
 * calling test when that folder is missing. */
const char *test_shared_path(const char *relative);

/* Reads a whole file; caller frees. NULL (and a failed assertion) when unreadable. */
char *test_read_file(const char *path, size_t *out_length);

/* One attempt of test_allocation_failure_loop: runs a call (arg is the
 * caller's) and returns its status. On success it checks and frees what it
 * got, while the test allocator is still installed; on failure it checks
 * that nothing was handed back. */
typedef collcalc_status (*test_load_attempt)(const void *arg, collcalc_diag *diag);

/* Runs attempt with its 1st, 2nd, 3rd ... allocation failing (through
 * collcalc_allocator_set, which cJSON's hooks follow) until it succeeds.
 * Every failure must be COLLCALC_ERR_NOMEM with "out of memory" in its
 * message and leave no block allocated; the successful run must make
 * exactly as many allocations as failures were tried. Returns that count
 * (the allocation points of the call); name labels the messages. */
long test_allocation_failure_loop(const char *name, test_load_attempt attempt, const void *arg);

/* The counting test allocator behind that loop, for tests of the hook
 * itself: install it letting `allowed` allocations succeed (-1: any), read
 * the allocation calls made and the blocks live. */
const collcalc_allocator *test_allocator(void);
void test_allocator_install(long allowed);
long test_allocator_attempts(void);
long test_allocator_live(void);
void test_allocator_clear_attempts(void);

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
