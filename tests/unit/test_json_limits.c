/* JSON documents are bounded while they are scanned, before cJSON builds a
 * tree (issue 23, item 3): a 16 MB table of eight million zeros took 650 MB
 * of memory before "at most 256 elements". Counted here through the
 * library's allocator (cJSON allocates through it): the refusal makes a
 * handful of allocations, not millions. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>

#include "collcalc/links.h"
#include "collcalc/models.h"
#include "collcalc/platforms.h"
#include "json_check.h"

/* "{"schema_version": 1, "KEY": [0,0,...]}" with count zeros. */
static char *zeros_table(const char *key, size_t count, size_t *out_length)
{
    size_t capacity = 64 + strlen(key) + 2 * count;
    char *text = malloc(capacity);
    assert_non_null(text);
    size_t length = (size_t)snprintf(text, capacity, "{\"schema_version\": 1, \"%s\": [", key);
    for (size_t i = 0; i < count; i++) {
        text[length++] = '0';
        text[length++] = ',';
    }
    text[length - 1] = ']';
    text[length++] = '}';
    text[length] = '\0';
    *out_length = length;
    return text;
}

static void huge_tables_are_refused_unbuilt(void **unused)
{
    (void)unused;
    enum { ZEROS = 8 << 20 }; /* 16 MiB of text */
    size_t length;
    collcalc_diag diag;

    char *text = zeros_table("links", ZEROS, &length);
    collcalc_link_table *links = NULL;
    test_allocator_install(-1);
    collcalc_status status = collcalc_link_table_parse_named(text, length, "zeros.json", &links,
                                                             &diag);
    long attempts = test_allocator_attempts();
    collcalc_allocator_set(NULL);
    assert_int_equal(status, COLLCALC_ERR_INVALID);
    assert_null(links);
    assert_string_equal(diag.message,
                        "zeros.json: links: must have at most 256 elements (has 8388608)");
    assert_true(attempts < 8);
    free(text);

    collcalc_link_table *builtin = NULL;
    assert_int_equal(collcalc_link_table_builtin(&builtin, &diag), COLLCALC_OK);
    text = zeros_table("platforms", ZEROS, &length);
    collcalc_platform_table *platforms = NULL;
    test_allocator_install(-1);
    status = collcalc_platform_table_parse_named(text, length, "p.json", builtin, &platforms,
                                                 &diag);
    attempts = test_allocator_attempts();
    collcalc_allocator_set(NULL);
    assert_int_equal(status, COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message,
                        "p.json: platforms: must have at most 256 elements (has 8388608)");
    assert_true(attempts < 8);
    free(text);
    collcalc_link_table_free(builtin);

    text = zeros_table("models", ZEROS, &length);
    collcalc_model_table *models = NULL;
    test_allocator_install(-1);
    status = collcalc_model_table_parse(text, length, "m.json", &models, &diag);
    attempts = test_allocator_attempts();
    collcalc_allocator_set(NULL);
    assert_int_equal(status, COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message,
                        "m.json: models: must have at most 256 elements (has 8388608)");
    assert_true(attempts < 8);
    free(text);
}

/* Many values in arrays each within the limit: refused at the value past
 * the document's bound, with its path. */
static void values_are_bounded_with_their_path(void **unused)
{
    (void)unused;
    size_t capacity = 1 << 22, length = 0;
    char *text = malloc(capacity);
    assert_non_null(text);
    length += (size_t)snprintf(text, capacity, "{\"schema_version\": 1, \"models\": [");
    for (int m = 0; m < 250; m++) {
        length += (size_t)snprintf(text + length, capacity - length,
                                   "%s{\"name\": \"x%d\", \"junk\": [", m ? "," : "", m);
        for (int v = 0; v < 200; v++)
            length += (size_t)snprintf(text + length, capacity - length, "%s1", v ? "," : "");
        length += (size_t)snprintf(text + length, capacity - length, "]}");
    }
    length += (size_t)snprintf(text + length, capacity - length, "]}");
    collcalc_diag diag;
    collcalc_model_table *models = NULL;
    assert_int_equal(collcalc_model_table_parse(text, length, "m.json", &models, &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "m.json: models[161].junk[79]: more than 32768 values in "
                                      "the document (at most 32768)");
    free(text);

    /* The general parser's own bounds, and the top level named as such. */
    collcalc_json_ctx ctx;
    collcalc_json_ctx_init(&ctx, "t.json", &diag);
    ctx.limits.array_max = 3;
    cJSON *root = NULL;
    assert_int_equal(collcalc_json_parse(&ctx, "[1, [2, 3, 4, 5], 6]", 20, &root),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "t.json: [1]: must have at most 3 elements (has 4)");
    assert_int_equal(collcalc_json_parse(&ctx, "[1, 2, 3, 4]", 12, &root), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "t.json: top level: must have at most 3 elements (has 4)");
    assert_int_equal(collcalc_json_parse(&ctx, "[1, 2, 3]", 9, &root), COLLCALC_OK);
    cJSON_Delete(root);
    ctx.limits.values_max = 4;
    assert_int_equal(collcalc_json_parse(&ctx, "{\"a\": [1, 2], \"b\": 3}", 21, &root),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message,
                        "t.json: b: more than 4 values in the document (at most 4)");
    assert_null(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(huge_tables_are_refused_unbuilt),
        cmocka_unit_test(values_are_bounded_with_their_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
