/* The NCCL constants loader (data/nccl.json): the built-in table's values
 * and version lookup, and every kind of bad document refused with its JSON
 * path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "collcalc/nccl_model.h"

static collcalc_nccl_constants_table *builtin_table(void)
{
    collcalc_nccl_constants_table *table = NULL;
    collcalc_diag diag;
    collcalc_status status = collcalc_nccl_constants_builtin(&table, &diag);
    if (status != COLLCALC_OK)
        fprintf(stderr, "%s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    return table;
}

static void test_builtin_values(void **state)
{
    (void)state;
    collcalc_nccl_constants_table *table = builtin_table();
    assert_int_equal(collcalc_nccl_constants_count(table), 6);
    for (size_t i = 1; i < collcalc_nccl_constants_count(table); i++)
        assert_true(collcalc_nccl_constants_at(table, i)->version_code >
                    collcalc_nccl_constants_at(table, i - 1)->version_code);
    assert_null(collcalc_nccl_constants_at(table, 6));

    const collcalc_nccl_constants *k = NULL;
    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_constants_find(table, NULL, &k, &diag), COLLCALC_OK);
    assert_string_equal(k->version, "2.30.7");
    assert_int_equal(k->version_code, 23007);
    assert_true(k->base_latency_us[COLLCALC_NCCL_RING][COLLCALC_NCCL_LL] == 6.6);
    assert_true(k->base_latency_us[COLLCALC_NCCL_TREE][COLLCALC_NCCL_LL] == 6.8);
    assert_true(
        k->hw_latency_us[COLLCALC_NCCL_HW_NVLINK][COLLCALC_NCCL_RING][COLLCALC_NCCL_SIMPLE] == 3.4);
    assert_true(
        k->hw_latency_us[COLLCALC_NCCL_HW_NET][COLLCALC_NCCL_NVLS_TREE][COLLCALC_NCCL_SIMPLE] ==
        20.9);
    assert_true(k->ll_max_bw_GBps[COLLCALC_NCCL_HOPPER][0] == 141.0);
    assert_true(k->ll_max_bw_GBps[COLLCALC_NCCL_BLACKWELL][2] == 70.0);
    assert_true(k->per_channel_max_tree_GBps[COLLCALC_NCCL_AMPERE][1] == 23.6);
    assert_true(k->max_nvls_tree_GBps[COLLCALC_NCCL_HOPPER][1] == 57.7);
    assert_true(k->nvls_efficiency[COLLCALC_NCCL_BLACKWELL] == 0.74);
    assert_true(k->tree_correction[COLLCALC_NCCL_LL][12] == 0.4);
    assert_true(k->tree_correction[COLLCALC_NCCL_SIMPLE][0] == 0.9);
    assert_true(k->net_overhead_us[1] == 2.0);
    assert_true(k->ring_plateau_factor[0] == 1.9 && k->ring_plateau_factor[1] == 1.4);
    assert_true(k->pat_factor == 0.75);
    assert_int_equal(k->nvls_model, COLLCALC_NCCL_NVLS_MODEL_2_28);
    assert_true(k->nvls_tree_correction_blackwell_x86 && k->symmetric_kernels && k->blackwell_row);
    assert_true(k->source[0] != '\0');

    /* The releases a run names map to the newest modelled one at or below. */
    assert_int_equal(collcalc_nccl_constants_find(table, "2.26.2+cuda12.8", &k, &diag),
                     COLLCALC_OK);
    assert_string_equal(k->version, "2.25.1");
    assert_false(k->blackwell_row);
    assert_int_equal(collcalc_nccl_constants_find(table, "2.27", &k, &diag), COLLCALC_OK);
    assert_string_equal(k->version, "2.27.5");
    assert_int_equal(k->nvls_model, COLLCALC_NCCL_NVLS_MODEL_2_23);
    assert_true(k->symmetric_kernels);
    assert_int_equal(collcalc_nccl_constants_find(table, "2.29.7", &k, &diag), COLLCALC_OK);
    assert_string_equal(k->version, "2.28.3");
    assert_true(
        k->hw_latency_us[COLLCALC_NCCL_HW_NET][COLLCALC_NCCL_NVLS_TREE][COLLCALC_NCCL_SIMPLE] ==
        14.0);
    assert_int_equal(collcalc_nccl_constants_find(table, "2.18.3", &k, &diag), COLLCALC_OK);
    assert_true(k->legacy_ring_ll && k->tree_cap_all_functions);
    assert_true(k->pat_factor == 0.0);
    assert_true(k->base_latency_us[COLLCALC_NCCL_NVLS][COLLCALC_NCCL_SIMPLE] == 23.0);
    assert_int_equal(collcalc_nccl_constants_find(table, "2.23", &k, &diag), COLLCALC_OK);
    assert_true(k->pat_factor == 0.85);
    assert_int_equal(collcalc_nccl_constants_find(table, "2.30.99", &k, &diag), COLLCALC_OK);
    assert_string_equal(k->version, "2.30.7");

    assert_int_equal(collcalc_nccl_constants_find(table, "2.17.1", &k, &diag),
                     COLLCALC_ERR_NOT_FOUND);
    assert_non_null(strstr(diag.message, "2.18.3"));
    static const char *const bad[] = {"", "2", "2.x", "two.30", "2.30.7.1", "2.300", "+cuda"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(collcalc_nccl_constants_find(table, bad[i], &k, &diag),
                         COLLCALC_ERR_INVALID);
    collcalc_nccl_constants_table_free(table);
    collcalc_nccl_constants_table_free(NULL);
    assert_int_equal(collcalc_nccl_constants_count(NULL), 0);
}

/* The built-in text with the first `from` replaced by `to` (caller frees). */
static char *edited(const char *from, const char *to)
{
    const char *text = collcalc_builtin_nccl_json();
    const char *at = strstr(text, from);
    assert_non_null(at);
    size_t head = (size_t)(at - text), from_length = strlen(from), to_length = strlen(to);
    size_t total = strlen(text) - from_length + to_length;
    char *copy = malloc(total + 1);
    assert_non_null(copy);
    memcpy(copy, text, head);
    memcpy(copy + head, to, to_length);
    strcpy(copy + head + to_length, at + from_length);
    return copy;
}

typedef struct {
    const char *from, *to, *message;
} bad_edit;

static void test_bad_documents(void **state)
{
    (void)state;
    static const bad_edit edits[] = {
        {"\"schema_version\": 1", "\"schema_version\": 2", "schema_version"},
        {"\"pat_factor\": 0", "\"pat_factor\": 2", "versions[0].pat_factor"},
        {"\"pat_factor\": 0", "\"pat_factor\": 1e999", "versions[0].pat_factor"},
        {"\"pat_factor\": 0", "\"pat_factor\": \"0\"", "versions[0].pat_factor"},
        {"\"pat_factor\": 0", "\"pat_factor\": 0, \"pat_factor\": 0", "pat_factor"},
        {"\"tree\": [6.8, 14.0, 8.4]", "\"tree\": [6.8, 14.0]", "versions[0].base_latency_us.tree"},
        {"\"tree\": [6.8, 14.0, 8.4]", "\"tree\": [6.8, 14.0, -1]",
         "versions[0].base_latency_us.tree[2]"},
        {"\"nvls_model\": \"2.18\"", "\"nvls_model\": \"2.19\"", "versions[0].nvls_model"},
        {"\"version\": \"2.23.4\"", "\"version\": \"2.18.3\"", "versions[1]"},
        {"\"version\": \"2.18.3\"", "\"version\": \"2.18.x\"", "versions[0].version"},
        {"\"blackwell_row\": false", "\"blackwell_row\": false, \"blackwel_row\": true",
         "blackwel_row"},
        {"\"amd\": 2.0", "\"amd\": 2.0, \"arm\": 1.0", "net_overhead_us"},
        {"\"pre_ampere\": 1.9", "\"pre_ampere\": 0.5", "ring_plateau_factor.pre_ampere"},
        {"\"volta\": 0,", "", "nvls_efficiency"},
        {"\"versions\": [", "\"versions\": [], \"x\": [", "versions"},
        {"\"legacy_ring_ll\": true", "\"legacy_ring_ll\": 1", "versions[0].legacy_ring_ll"},
    };
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        char *text = edited(edits[i].from, edits[i].to);
        collcalc_nccl_constants_table *table = (collcalc_nccl_constants_table *)&table;
        collcalc_diag diag;
        diag.message[0] = '\0';
        collcalc_status status = collcalc_nccl_constants_parse(text, strlen(text), &table, &diag);
        if (status == COLLCALC_OK || strstr(diag.message, edits[i].message) == NULL)
            fprintf(stderr, "edit %zu: status %d, message '%s'\n", i, (int)status, diag.message);
        assert_int_equal(status, COLLCALC_ERR_INVALID);
        assert_null(table);
        assert_non_null(strstr(diag.message, edits[i].message));
        free(text);
    }
    /* Not JSON, truncated, wrong top level. */
    static const char *const texts[] = {"", "{", "[]", "{\"schema_version\": 1}", "null"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        collcalc_nccl_constants_table *table = NULL;
        collcalc_diag diag;
        assert_int_equal(collcalc_nccl_constants_parse(texts[i], strlen(texts[i]), &table, &diag),
                         COLLCALC_ERR_INVALID);
        assert_null(table);
        assert_true(diag.message[0] != '\0');
    }
    const char *text = collcalc_builtin_nccl_json();
    collcalc_nccl_constants_table *table = NULL;
    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_constants_parse(text, strlen(text) / 2, &table, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "line"));
    assert_int_equal(collcalc_nccl_constants_parse(text, strlen(text), NULL, &diag),
                     COLLCALC_ERR_INVALID);
}

/* data/nccl.json as a user's file: the same bytes load from disk. */
static void test_file_matches_builtin(void **state)
{
    (void)state;
    size_t length = 0;
    char *text = test_read_file(test_source_path("data/nccl.json"), &length);
    assert_non_null(text);
    assert_int_equal(length, strlen(collcalc_builtin_nccl_json()));
    assert_memory_equal(text, collcalc_builtin_nccl_json(), length);
    collcalc_nccl_constants_table *table = NULL;
    assert_int_equal(collcalc_nccl_constants_parse(text, length, &table, NULL), COLLCALC_OK);
    collcalc_nccl_constants_table_free(table);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_values),
        cmocka_unit_test(test_bad_documents),
        cmocka_unit_test(test_file_matches_builtin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
