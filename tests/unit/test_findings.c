/* The shared findings list (include/collcalc/findings.h): adding, evidence
 * lines kept sorted and unique, the stable severity sort, worst, lookup and
 * the bound (overflow counted in dropped, texts cut to fit). */
#include "support.h"

#include <string.h>

#include "collcalc/findings.h"

static collcalc_findings list;

static void test_add_and_lines(void **state)
{
    (void)state;
    collcalc_findings_init(&list);
    assert_int_equal(list.count, 0);
    assert_int_equal(list.dropped, 0);
    collcalc_finding *finding = collcalc_findings_add(&list, COLLCALC_SEVERITY_WARNING, "gdr-off",
                                                      "check NCCL_NET_GDR_LEVEL", "GDR %d on %s", 0,
                                                      "mlx5_0");
    assert_non_null(finding);
    assert_int_equal(list.count, 1);
    assert_string_equal(finding->code, "gdr-off");
    assert_string_equal(finding->message, "GDR 0 on mlx5_0");
    assert_string_equal(finding->next_step, "check NCCL_NET_GDR_LEVEL");
    static const long added[] = {30, 10, 20, 10, 0, -5, 30, 5};
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++)
        collcalc_finding_add_line(finding, added[i]);
    assert_int_equal(finding->line_count, 4);
    assert_int_equal(finding->lines[0], 5);
    assert_int_equal(finding->lines[1], 10);
    assert_int_equal(finding->lines[2], 20);
    assert_int_equal(finding->lines[3], 30);
    for (long line = 100; line < 110; line++)
        collcalc_finding_add_line(finding, line);
    assert_int_equal(finding->line_count, COLLCALC_FINDING_LINES_MAX);
    assert_int_equal(finding->lines[COLLCALC_FINDING_LINES_MAX - 1], 103);
    collcalc_finding_add_line(NULL, 7); /* NULL-safe */

    collcalc_finding *bare = collcalc_findings_add(&list, COLLCALC_SEVERITY_INFO, NULL, NULL, "x");
    assert_string_equal(bare->code, "");
    assert_string_equal(bare->next_step, "");
}

static void test_sort_worst_find(void **state)
{
    (void)state;
    collcalc_findings_init(&list);
    assert_int_equal(collcalc_findings_worst(&list), COLLCALC_SEVERITY_INFO);
    collcalc_findings_add(&list, COLLCALC_SEVERITY_INFO, "i1", NULL, "info 1");
    collcalc_findings_add(&list, COLLCALC_SEVERITY_WARNING, "w1", NULL, "warning 1");
    collcalc_findings_add(&list, COLLCALC_SEVERITY_INFO, "i2", NULL, "info 2");
    collcalc_findings_add(&list, COLLCALC_SEVERITY_ERROR, "e1", NULL, "error 1");
    collcalc_findings_add(&list, COLLCALC_SEVERITY_WARNING, "w2", NULL, "warning 2");
    assert_int_equal(collcalc_findings_worst(&list), COLLCALC_SEVERITY_ERROR);
    collcalc_findings_sort(&list);
    static const char *const order[] = {"e1", "w1", "w2", "i1", "i2"};
    for (size_t i = 0; i < 5; i++)
        assert_string_equal(list.items[i].code, order[i]);
    assert_ptr_equal(collcalc_findings_find(&list, "w2"), &list.items[2]);
    assert_null(collcalc_findings_find(&list, "nope"));
    assert_string_equal(collcalc_severity_name(COLLCALC_SEVERITY_ERROR), "error");
    assert_string_equal(collcalc_severity_name(COLLCALC_SEVERITY_WARNING), "warning");
    assert_string_equal(collcalc_severity_name(COLLCALC_SEVERITY_INFO), "info");
}

static void test_overflow_and_cut(void **state)
{
    (void)state;
    collcalc_findings_init(&list);
    for (int i = 0; i < COLLCALC_FINDINGS_MAX; i++)
        assert_non_null(collcalc_findings_add(&list, COLLCALC_SEVERITY_INFO, "n", NULL, "%d", i));
    assert_null(collcalc_findings_add(&list, COLLCALC_SEVERITY_ERROR, "late", NULL, "one"));
    assert_null(collcalc_findings_add(&list, COLLCALC_SEVERITY_ERROR, "late", NULL, "two"));
    assert_int_equal(list.count, COLLCALC_FINDINGS_MAX);
    assert_int_equal(list.dropped, 2);
    assert_int_equal(collcalc_findings_worst(&list), COLLCALC_SEVERITY_INFO);

    collcalc_findings_init(&list);
    char long_text[1000];
    memset(long_text, 'a', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    collcalc_finding *finding =
        collcalc_findings_add(&list, COLLCALC_SEVERITY_INFO, long_text, long_text, "%s", long_text);
    assert_int_equal(strlen(finding->code), COLLCALC_FINDING_CODE_MAX - 1);
    assert_int_equal(strlen(finding->message), COLLCALC_FINDING_TEXT_MAX - 1);
    assert_int_equal(strlen(finding->next_step), COLLCALC_FINDING_TEXT_MAX - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_and_lines),
        cmocka_unit_test(test_sort_worst_find),
        cmocka_unit_test(test_overflow_and_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
