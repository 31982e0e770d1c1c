/* Unit tests for the model-shape table (src/data/models.c) and the built-in
 * data/models.json: every shape figure of the nine models, lookups by
 * alias, the strict loader's messages, and overlaying a user's file. */
#include "support.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/models.h"

typedef struct {
    const char *name;
    int layers, hidden, heads, kv_heads, head_dim, ffn;
    collcalc_attention attention;
    int routed, shared, top_k, groups, top_groups, moe_intermediate, dense_layers;
    int kv_lora, rope, q_lora;
    int window_layers, window;
} expected_model;

static const expected_model expected[] = {
    {"llama-3-70b", 80, 8192, 64, 8, 128, 28672, COLLCALC_ATTENTION_GQA, 0, 0, 0, 0, 0, 0, 80, 0, 0, 0, 0, 0},
    {"llama-3.1-8b", 32, 4096, 32, 8, 128, 14336, COLLCALC_ATTENTION_GQA, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 0, 0},
    {"llama-3.1-405b", 126, 16384, 128, 8, 128, 53248, COLLCALC_ATTENTION_GQA, 0, 0, 0, 0, 0, 0, 126, 0, 0, 0, 0, 0},
    {"mixtral-8x7b", 32, 4096, 32, 8, 128, 14336, COLLCALC_ATTENTION_GQA, 8, 0, 2, 1, 1, 14336, 0, 0, 0, 0, 0, 0},
    {"qwen3-8b", 36, 4096, 32, 8, 128, 12288, COLLCALC_ATTENTION_GQA, 0, 0, 0, 0, 0, 0, 36, 0, 0, 0, 0, 0},
    {"qwen3-235b-a22b", 94, 4096, 64, 4, 128, 12288, COLLCALC_ATTENTION_GQA, 128, 0, 8, 1, 1, 1536, 0, 0, 0, 0, 0, 0},
    {"deepseek-v3", 61, 7168, 128, 128, 128, 18432, COLLCALC_ATTENTION_MLA, 256, 1, 8, 8, 4, 2048, 3, 512, 64, 1536, 0, 0},
    {"kimi-k2", 61, 7168, 64, 64, 128, 18432, COLLCALC_ATTENTION_MLA, 384, 1, 8, 1, 1, 2048, 1, 512, 64, 1536, 0, 0},
    {"gpt-oss-120b", 36, 2880, 64, 8, 64, 0, COLLCALC_ATTENTION_GQA, 128, 0, 4, 1, 1, 2880, 0, 0, 0, 0, 18, 128},
};

static collcalc_model_table *builtin(void)
{
    collcalc_model_table *table = NULL;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_model_table_builtin(&table, &diag), COLLCALC_OK);
    assert_non_null(table);
    return table;
}

static void test_builtin_figures(void **state)
{
    (void)state;
    collcalc_model_table *table = builtin();
    assert_int_equal(collcalc_model_table_count(table), sizeof expected / sizeof expected[0]);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const expected_model *e = &expected[i];
        const collcalc_model_shape *m = collcalc_model_table_at(table, i);
        assert_non_null(m);
        assert_string_equal(m->name, e->name);
        assert_int_equal(m->layers, e->layers);
        assert_int_equal(m->hidden_size, e->hidden);
        assert_int_equal(m->heads, e->heads);
        assert_int_equal(m->kv_heads, e->kv_heads);
        assert_int_equal(m->head_dim, e->head_dim);
        assert_int_equal(m->ffn_intermediate, e->ffn);
        assert_int_equal(m->attention, e->attention);
        assert_int_equal(m->routed_experts, e->routed);
        assert_int_equal(m->shared_experts, e->shared);
        assert_int_equal(m->experts_per_token, e->top_k);
        assert_int_equal(m->expert_groups, e->groups);
        assert_int_equal(m->top_groups, e->top_groups);
        assert_int_equal(m->moe_intermediate, e->moe_intermediate);
        assert_int_equal(m->dense_layers, e->dense_layers);
        assert_int_equal(m->kv_lora_rank, e->kv_lora);
        assert_int_equal(m->rope_head_dim, e->rope);
        assert_int_equal(m->q_lora_rank, e->q_lora);
        assert_int_equal(m->sliding_window_layers, e->window_layers);
        assert_int_equal(m->sliding_window_tokens, e->window);
        assert_true(m->params_billion > 1.0);
        assert_true(m->shape_source[0] != '\0'); /* every built-in figure has a source */
        if (e->routed > 0)
            assert_true(m->moe_source[0] != '\0');
    }
    collcalc_model_table_free(table);
}

static void test_lookup_by_alias(void **state)
{
    (void)state;
    collcalc_model_table *table = builtin();
    const collcalc_model_shape *a = collcalc_model_table_find(table, "Llama-3.1-70B");
    assert_non_null(a);
    assert_string_equal(a->name, "llama-3-70b");
    const collcalc_model_shape *r1 = collcalc_model_table_find(table, "DeepSeek-R1");
    assert_non_null(r1);
    assert_string_equal(r1->name, "deepseek-v3");
    assert_null(collcalc_model_table_find(table, "llama-4"));
    assert_null(collcalc_model_table_find(table, ""));
    assert_null(collcalc_model_table_find(table, NULL));
    char names[512];
    collcalc_model_table_names(table, names, sizeof names);
    assert_string_equal(names, "llama-3-70b, llama-3.1-8b, llama-3.1-405b, mixtral-8x7b, "
                               "qwen3-8b, qwen3-235b-a22b, deepseek-v3, kimi-k2, gpt-oss-120b");
    char small[16];
    collcalc_model_table_names(table, small, sizeof small);
    assert_string_equal(small, "llama-3-70b");
    collcalc_model_table_free(table);
}

static void test_derived_counts(void **state)
{
    (void)state;
    collcalc_model_table *table = builtin();
    const collcalc_model_shape *ds = collcalc_model_table_find(table, "deepseek-v3");
    assert_true(collcalc_model_is_moe(ds));
    assert_int_equal(collcalc_model_moe_layers(ds), 58);
    /* 58 x 256 x 3 x 7168 x 2048 */
    assert_true(collcalc_model_expert_params(ds) == 58.0 * 256 * 3 * 7168 * 2048);
    const collcalc_model_shape *llama = collcalc_model_table_find(table, "llama-3-70b");
    assert_false(collcalc_model_is_moe(llama));
    assert_int_equal(collcalc_model_moe_layers(llama), 0);
    assert_true(collcalc_model_expert_params(llama) == 0.0);
    collcalc_model_table_free(table);
}

static void test_dtypes(void **state)
{
    (void)state;
    assert_int_equal(collcalc_dtype_bytes(COLLCALC_DTYPE_BF16), 2);
    assert_int_equal(collcalc_dtype_bytes(COLLCALC_DTYPE_FP8), 1);
    assert_int_equal(collcalc_dtype_bytes(COLLCALC_DTYPE_FP32), 4);
    assert_int_equal(collcalc_dtype_bytes((collcalc_dtype)99), 0);
    assert_string_equal(collcalc_dtype_name(COLLCALC_DTYPE_FP8), "fp8");
    assert_string_equal(collcalc_dtype_name((collcalc_dtype)-1), "unknown");
    collcalc_dtype d;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_dtype_from_name("BF16", &d, &diag), COLLCALC_OK);
    assert_int_equal(d, COLLCALC_DTYPE_BF16);
    assert_int_equal(collcalc_dtype_from_name("int4", &d, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "unknown dtype 'int4' (use bf16, fp8, fp16 or fp32)");
    assert_string_equal(collcalc_attention_name(COLLCALC_ATTENTION_MLA), "mla");
}

/* A one-model document with `extra` inserted into the model object. */
static char *doc_with(const char *extra)
{
    static char buffer[2048];
    snprintf(buffer, sizeof buffer,
             "{\"schema_version\": 1, \"models\": [{\"name\": \"tiny\", \"layers\": 4, "
             "\"hidden_size\": 256, \"attention\": \"gqa\", \"heads\": 8, \"kv_heads\": 2, "
             "\"head_dim\": 32, \"ffn_intermediate\": 1024, \"params_billion\": 0.01%s}]}",
             extra);
    return buffer;
}

static void expect_refused(const char *text, const char *message)
{
    collcalc_model_table *table = (collcalc_model_table *)1;
    collcalc_diag diag = {{0}};
    collcalc_status status =
        collcalc_model_table_parse(text, strlen(text), "my.json", &table, &diag);
    assert_int_equal(status, COLLCALC_ERR_INVALID);
    assert_null(table);
    assert_contains(diag.message, message);
}

static void test_strict_loader(void **state)
{
    (void)state;
    collcalc_model_table *table = NULL;
    collcalc_diag diag = {{0}};
    const char *ok = doc_with("");
    assert_int_equal(collcalc_model_table_parse(ok, strlen(ok), NULL, &table, &diag),
                     COLLCALC_OK);
    assert_int_equal(collcalc_model_table_at(table, 0)->dense_layers, 4);
    collcalc_model_table_free(table);

    expect_refused(doc_with(", \"kv_head\": 2"), "my.json: models[0]: unknown key 'kv_head'");
    expect_refused(doc_with(", \"layers\": 5"), "my.json: models[0]: duplicate key 'layers'");
    expect_refused(doc_with(", \"moe\": {\"routed_experts\": 8, \"shared_experts\": 0, "
                            "\"experts_per_token\": 9, \"moe_intermediate\": 64, "
                            "\"dense_layers\": 0}"),
                   "models[0].moe.experts_per_token: must be at most routed_experts (8), got 9");
    expect_refused(doc_with(", \"moe\": {\"routed_experts\": 8, \"shared_experts\": 0, "
                            "\"experts_per_token\": 2, \"expert_groups\": 3, "
                            "\"moe_intermediate\": 64, \"dense_layers\": 0}"),
                   "models[0].moe.expert_groups: must divide routed_experts (8), got 3");
    expect_refused(doc_with(", \"moe\": {\"routed_experts\": 8, \"shared_experts\": 0, "
                            "\"experts_per_token\": 2, \"moe_intermediate\": 64, "
                            "\"dense_layers\": 4}"),
                   "models[0].moe.dense_layers: must be below layers (4)");
    expect_refused(doc_with(", \"mla\": {\"kv_lora_rank\": 64, \"rope_head_dim\": 16}"),
                   "models[0].mla: only allowed with \"attention\": \"mla\"");
    expect_refused(doc_with(", \"sliding_window\": {\"layers\": 5, \"window_tokens\": 64}"),
                   "models[0].sliding_window.layers: must be at most the model's layers (4), "
                   "got 5");
    expect_refused(doc_with(", \"vocab_size\": \"32000\""),
                   "models[0].vocab_size: must be a whole number, not a string");
    expect_refused(doc_with(", \"vocab_size\": 1e999"),
                   "models[0].vocab_size: must be a finite number");

    const char *bad_kv = "{\"schema_version\": 1, \"models\": [{\"name\": \"x\", \"layers\": 4, "
                         "\"hidden_size\": 256, \"attention\": \"gqa\", \"heads\": 8, "
                         "\"kv_heads\": 3, \"head_dim\": 32, \"ffn_intermediate\": 1024, "
                         "\"params_billion\": 1}]}";
    expect_refused(bad_kv, "models[0].kv_heads: must divide heads (8), got 3");
    const char *no_mla = "{\"schema_version\": 1, \"models\": [{\"name\": \"x\", \"layers\": 4, "
                         "\"hidden_size\": 256, \"attention\": \"mla\", \"heads\": 8, "
                         "\"kv_heads\": 8, \"head_dim\": 32, \"ffn_intermediate\": 1024, "
                         "\"params_billion\": 1}]}";
    expect_refused(no_mla, "models[0].attention: \"mla\" needs an \"mla\" block");
    expect_refused("{\"schema_version\": 2, \"models\": []}", "schema_version");
    expect_refused("{\"schema_version\": 1, \"models\": [", "my.json:1:");
#define TINY(name)                                                                         \
    "{\"name\": \"" name "\", \"layers\": 4, \"hidden_size\": 256, \"attention\": \"gqa\", "      \
    "\"heads\": 8, \"kv_heads\": 2, \"head_dim\": 32, \"ffn_intermediate\": 1024, "           \
    "\"params_billion\": 1}"
    expect_refused("{\"schema_version\": 1, \"models\": [" TINY("a") ", " TINY("a") "]}",
                   "models[1].name: 'a' is already the name of models[0]");
    expect_refused("{\"schema_version\": 1, \"models\": [" TINY("a") "], \"models\": []}",
                   "models");
#undef TINY
}

static collcalc_model_table *parse(const char *text)
{
    collcalc_model_table *table = NULL;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_model_table_parse(text, strlen(text), "mine.json", &table, &diag),
                     COLLCALC_OK);
    return table;
}

static void test_overlay(void **state)
{
    (void)state;
    collcalc_model_table *base = builtin();
    const char *mine =
        "{\"schema_version\": 1, \"models\": ["
        "{\"name\": \"llama-3-70b\", \"layers\": 40, \"hidden_size\": 8192, \"attention\": "
        "\"gqa\", \"heads\": 64, \"kv_heads\": 8, \"head_dim\": 128, \"ffn_intermediate\": "
        "28672, \"params_billion\": 35},"
        "{\"name\": \"my-model\", \"aliases\": [\"mine\"], \"layers\": 2, \"hidden_size\": 64, "
        "\"attention\": \"gqa\", \"heads\": 4, \"kv_heads\": 4, \"head_dim\": 16, "
        "\"ffn_intermediate\": 256, \"params_billion\": 0.001}]}";
    collcalc_model_table *overlay = parse(mine);
    collcalc_model_table *merged = NULL;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_model_table_overlay(base, overlay, &merged, &diag), COLLCALC_OK);
    assert_int_equal(collcalc_model_table_count(merged), 10);
    assert_int_equal(collcalc_model_table_replaced_count(merged), 1);
    assert_int_equal(collcalc_model_table_origin(merged, 0), COLLCALC_ENTRY_REPLACED);
    assert_int_equal(collcalc_model_table_origin(merged, 1), COLLCALC_ENTRY_BASE);
    assert_int_equal(collcalc_model_table_origin(merged, 9), COLLCALC_ENTRY_ADDED);
    assert_int_equal(collcalc_model_table_origin(merged, 99), COLLCALC_ENTRY_BASE);
    assert_int_equal(collcalc_model_table_find(merged, "llama-3-70b")->layers, 40);
    /* the replaced entry's aliases are the overlay's: none */
    assert_null(collcalc_model_table_find(merged, "llama-3.1-70b"));
    assert_int_equal(collcalc_model_table_find(merged, "MINE")->layers, 2);
    collcalc_model_table_free(merged);
    collcalc_model_table_free(overlay);

    const char *clash =
        "{\"schema_version\": 1, \"models\": [{\"name\": \"r1\", \"aliases\": "
        "[\"deepseek-r1\"], \"layers\": 2, \"hidden_size\": 64, \"attention\": \"gqa\", "
        "\"heads\": 4, \"kv_heads\": 4, \"head_dim\": 16, \"ffn_intermediate\": 256, "
        "\"params_billion\": 1}]}";
    overlay = parse(clash);
    merged = (collcalc_model_table *)1;
    assert_int_equal(collcalc_model_table_overlay(base, overlay, &merged, &diag),
                     COLLCALC_ERR_INVALID);
    assert_null(merged);
    assert_string_equal(diag.message, "models[0].aliases[0]: 'deepseek-r1' is already a name or "
                                      "alias of built-in 'deepseek-v3'");
    collcalc_model_table_free(overlay);
    assert_int_equal(collcalc_model_table_overlay(base, NULL, &merged, &diag),
                     COLLCALC_ERR_INVALID);
    collcalc_model_table_free(base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_figures), cmocka_unit_test(test_lookup_by_alias),
        cmocka_unit_test(test_derived_counts),  cmocka_unit_test(test_dtypes),
        cmocka_unit_test(test_strict_loader),   cmocka_unit_test(test_overlay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
