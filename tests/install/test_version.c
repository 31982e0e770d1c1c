/* collcalc_version() and the version macros agree with each other and with
 * project(VERSION) in CMakeLists.txt (passed in as COLLCALC_EXPECTED_VERSION). */
#include <stdio.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "collcalc/collcalc.h"

static void test_version_string_matches_project(void **state)
{
    (void)state;
    assert_string_equal(collcalc_version(), COLLCALC_EXPECTED_VERSION);
    assert_string_equal(COLLCALC_VERSION_STRING, COLLCALC_EXPECTED_VERSION);
    /* a static string: the same pointer every call */
    assert_ptr_equal(collcalc_version(), collcalc_version());
}

static void test_version_numbers_match_string(void **state)
{
    (void)state;
    int major = -1, minor = -1, patch = -1;
    char tail = '\0';
    assert_int_equal(sscanf(collcalc_version(), "%d.%d.%d%c", &major, &minor, &patch, &tail), 3);
    assert_int_equal(major, COLLCALC_VERSION_MAJOR);
    assert_int_equal(minor, COLLCALC_VERSION_MINOR);
    assert_int_equal(patch, COLLCALC_VERSION_PATCH);
    assert_int_equal(COLLCALC_VERSION_NUMBER, major * 10000 + minor * 100 + patch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_string_matches_project),
        cmocka_unit_test(test_version_numbers_match_string),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
