/* The model-shape table: strict loading of data/models.json-style documents
 * into an immutable table, lookup by name or alias, overlaying a user's
 * file, and the dtype names.
 *
 * Schema (version 1; data/README.md has the full description):
 *
 *   { "schema_version": 1,
 *     "models": [                                  1..COLLCALC_MODELS_MAX entries
 *       { "name": "llama-3-70b",                   [a-z0-9.-], 1..31 chars, unique
 *         "aliases": ["llama-3.1-70b"],            optional, 0..4 names
 *         "description": "...",                    optional, 1..255 bytes
 *         "layers": 80, "hidden_size": 8192,
 *         "attention": "gqa",                      gqa | mla
 *         "heads": 64, "kv_heads": 8, "head_dim": 128,
 *         "ffn_intermediate": 28672,               0 when every layer is MoE
 *         "vocab_size": 128256,                    optional
 *         "params_billion": 70.6,
 *         "moe": { "routed_experts": 256, "shared_experts": 1,
 *                  "experts_per_token": 8, "expert_groups": 8, "top_groups": 4,
 *                  "moe_intermediate": 2048, "dense_layers": 3 },      optional
 *         "mla": { "kv_lora_rank": 512, "rope_head_dim": 64,
 *                  "q_lora_rank": 1536 },          exactly when attention is mla
 *         "sliding_window": { "layers": 18, "window_tokens": 128 },    optional
 *         "sources": { "shape": "...", "moe": "...", "attention": "..." } } ] }
 *
 * Unknown and duplicate keys are errors, so a typo ("kv_head") cannot fall
 * back to a default silently. */
#include "collcalc/models.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "json_check.h"
#include "names.h"
#include "table.h"

#define MODELS_SCHEMA_VERSION 1

/* Bounds: beyond these a figure is a typing mistake, not a model. */
#define MODELS_LAYERS_MAX 1000
#define MODELS_WIDTH_MAX 1000000
#define MODELS_HEADS_MAX 100000
#define MODELS_EXPERTS_MAX 100000
#define MODELS_VOCAB_MAX 100000000
#define MODELS_WINDOW_MAX 100000000
#define MODELS_PARAMS_MAX_BILLION 1e6

struct collcalc_model_table {
    size_t count;
    unsigned char origins[COLLCALC_MODELS_MAX]; /* collcalc_entry_origin of each entry */
    collcalc_model_shape models[]; /* count entries, in file order */
};

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

static const char *const attention_words[] = {"gqa", "mla"};
static const char *const dtype_words[] = {"bf16", "fp8", "fp16", "fp32"};
static const unsigned dtype_sizes[] = {2, 1, 2, 4};

static const collcalc_json_key model_keys[] = {
    {"name", true},           {"aliases", false},        {"description", false},
    {"layers", true},         {"hidden_size", true},     {"attention", true},
    {"heads", true},          {"kv_heads", true},        {"head_dim", true},
    {"ffn_intermediate", true}, {"vocab_size", false},   {"params_billion", true},
    {"moe", false},           {"mla", false},            {"sliding_window", false},
    {"weights", false},       {"sources", false},
};

static const collcalc_json_key weights_keys[] = {
    {"dtype", true},
    {"expert_dtype", false},
};

static const char *const weight_words[] = {"bf16", "fp8", "fp16", "fp32", "mxfp4", "nvfp4"};
static const double weight_sizes[] = {2.0, 1.0, 2.0, 4.0, 0.53125, 0.5625};

static const collcalc_json_key moe_keys[] = {
    {"routed_experts", true},    {"shared_experts", true}, {"experts_per_token", true},
    {"expert_groups", false},    {"top_groups", false},    {"moe_intermediate", true},
    {"dense_layers", true},
};

static const collcalc_json_key mla_keys[] = {
    {"kv_lora_rank", true},
    {"rope_head_dim", true},
    {"q_lora_rank", false},
};

static const collcalc_json_key window_keys[] = {
    {"layers", true},
    {"window_tokens", true},
};

static const collcalc_json_key source_keys[] = {
    {"shape", false},
    {"moe", false},
    {"attention", false},
    {"weights", false},
};

static const collcalc_names_layout model_names = {
    sizeof(collcalc_model_shape), offsetof(collcalc_model_shape, name),
    offsetof(collcalc_model_shape, aliases), "models"};

/* object[key] as an int in [min, max]. */
static collcalc_status get_int(collcalc_json_ctx *ctx, const cJSON *object, const char *key,
                               int min, int max, int *out)
{
    int64_t value = 0;
    collcalc_status status = collcalc_json_get_integer(ctx, object, key, min, max, &value);
    if (status == COLLCALC_OK)
        *out = (int)value;
    return status;
}

/* Reports a consistency rule broken at object[key] (printf-style). */
static collcalc_status fail_at(collcalc_json_ctx *ctx, const char *key, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static collcalc_status fail_at(collcalc_json_ctx *ctx, const char *key, const char *format, ...)
{
    char why[COLLCALC_DIAG_MESSAGE_MAX];
    va_list args;
    va_start(args, format);
    vsnprintf(why, sizeof why, format, args);
    va_end(args);
    collcalc_json_path_push_key(&ctx->path, key);
    collcalc_status status = collcalc_json_fail(ctx, "%s", why);
    collcalc_json_path_pop(&ctx->path);
    return status;
}

static collcalc_status load_moe(collcalc_json_ctx *ctx, const cJSON *model_object,
                                collcalc_model_shape *m)
{
    const cJSON *object = collcalc_json_enter(ctx, model_object, "moe");
    collcalc_status status =
        collcalc_json_check_object(ctx, object, moe_keys, COUNT_OF(moe_keys));
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "routed_experts", 2, MODELS_EXPERTS_MAX,
                         &m->routed_experts);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "shared_experts", 0, MODELS_EXPERTS_MAX,
                         &m->shared_experts);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "experts_per_token", 1, MODELS_EXPERTS_MAX,
                         &m->experts_per_token);
    m->expert_groups = 1;
    if (status == COLLCALC_OK && collcalc_json_has(object, "expert_groups"))
        status = get_int(ctx, object, "expert_groups", 1, MODELS_EXPERTS_MAX, &m->expert_groups);
    m->top_groups = m->expert_groups;
    if (status == COLLCALC_OK && collcalc_json_has(object, "top_groups"))
        status = get_int(ctx, object, "top_groups", 1, MODELS_EXPERTS_MAX, &m->top_groups);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "moe_intermediate", 1, MODELS_WIDTH_MAX,
                         &m->moe_intermediate);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "dense_layers", 0, MODELS_LAYERS_MAX, &m->dense_layers);
    if (status == COLLCALC_OK && m->experts_per_token > m->routed_experts)
        status = fail_at(ctx, "experts_per_token",
                         "must be at most routed_experts (%d), got %d", m->routed_experts, m->experts_per_token);
    if (status == COLLCALC_OK && m->routed_experts % m->expert_groups != 0)
        status = fail_at(ctx, "expert_groups", "must divide routed_experts (%d), got %d",
                         m->routed_experts, m->expert_groups);
    if (status == COLLCALC_OK && m->top_groups > m->expert_groups)
        status = fail_at(ctx, "top_groups", "must be at most expert_groups (%d), got %d",
                         m->expert_groups, m->top_groups);
    if (status == COLLCALC_OK && m->dense_layers >= m->layers)
        status = fail_at(ctx, "dense_layers",
                         "must be below layers (%d) so some layer is MoE, got %d", m->layers, m->dense_layers);
    collcalc_json_leave(ctx);
    return status;
}

static collcalc_status load_mla(collcalc_json_ctx *ctx, const cJSON *model_object,
                                collcalc_model_shape *m)
{
    const cJSON *object = collcalc_json_enter(ctx, model_object, "mla");
    collcalc_status status =
        collcalc_json_check_object(ctx, object, mla_keys, COUNT_OF(mla_keys));
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "kv_lora_rank", 1, MODELS_WIDTH_MAX, &m->kv_lora_rank);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "rope_head_dim", 0, MODELS_WIDTH_MAX, &m->rope_head_dim);
    if (status == COLLCALC_OK && collcalc_json_has(object, "q_lora_rank"))
        status = get_int(ctx, object, "q_lora_rank", 0, MODELS_WIDTH_MAX, &m->q_lora_rank);
    collcalc_json_leave(ctx);
    return status;
}

static collcalc_status load_window(collcalc_json_ctx *ctx, const cJSON *model_object,
                                   collcalc_model_shape *m)
{
    const cJSON *object = collcalc_json_enter(ctx, model_object, "sliding_window");
    collcalc_status status =
        collcalc_json_check_object(ctx, object, window_keys, COUNT_OF(window_keys));
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "layers", 1, MODELS_LAYERS_MAX, &m->sliding_window_layers);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "window_tokens", 1, MODELS_WINDOW_MAX,
                         &m->sliding_window_tokens);
    if (status == COLLCALC_OK && m->sliding_window_layers > m->layers)
        status = fail_at(ctx, "layers", "must be at most the model's layers (%d), got %d",
                         m->layers, m->sliding_window_layers);
    collcalc_json_leave(ctx);
    return status;
}

static collcalc_status load_weights(collcalc_json_ctx *ctx, const cJSON *model_object,
                                    collcalc_model_shape *m)
{
    const cJSON *object = collcalc_json_enter(ctx, model_object, "weights");
    collcalc_status status =
        collcalc_json_check_object(ctx, object, weights_keys, COUNT_OF(weights_keys));
    size_t word = 0;
    if (status == COLLCALC_OK)
        status = collcalc_json_get_enum(ctx, object, "dtype", weight_words,
                                        COUNT_OF(weight_words), &word);
    m->weight_format = (collcalc_weight_format)word;
    m->expert_weight_format = m->weight_format;
    if (status == COLLCALC_OK && collcalc_json_has(object, "expert_dtype")) {
        status = collcalc_json_get_enum(ctx, object, "expert_dtype", weight_words,
                                        COUNT_OF(weight_words), &word);
        m->expert_weight_format = (collcalc_weight_format)word;
    }
    collcalc_json_leave(ctx);
    return status;
}

static collcalc_status load_sources(collcalc_json_ctx *ctx, const cJSON *object,
                                    collcalc_model_shape *m)
{
    char *const targets[] = {m->shape_source, m->moe_source, m->attention_source,
                             m->weights_source};
    return collcalc_json_get_string_fields(ctx, object, "sources", source_keys, targets,
                                           COUNT_OF(source_keys), COLLCALC_TEXT_MAX);
}

/* The shape rules after every field is read. */
static collcalc_status check_shape(collcalc_json_ctx *ctx, collcalc_model_shape *m)
{
    if (m->attention == COLLCALC_ATTENTION_GQA && m->heads % m->kv_heads != 0)
        return fail_at(ctx, "kv_heads", "must divide heads (%d), got %d", m->heads, m->kv_heads);
    if (m->kv_heads > m->heads)
        return fail_at(ctx, "kv_heads", "must be at most heads (%d), got %d", m->heads, m->kv_heads);
    if (m->routed_experts == 0)
        m->dense_layers = m->layers;
    if (m->dense_layers > 0 && m->ffn_intermediate == 0)
        return fail_at(ctx, "ffn_intermediate",
                       "must be > 0: %d layers have a dense FFN (got %d)", m->dense_layers, m->ffn_intermediate);
    return COLLCALC_OK;
}

static collcalc_status load_model(collcalc_json_ctx *ctx, const cJSON *object,
                                  collcalc_model_shape *m)
{
    collcalc_status status =
        collcalc_json_check_object(ctx, object, model_keys, COUNT_OF(model_keys));
    if (status == COLLCALC_OK)
        status = collcalc_names_load(ctx, object, m->name, m->aliases);
    if (status == COLLCALC_OK && collcalc_json_has(object, "description"))
        status = collcalc_json_get_string_copy(ctx, object, "description", m->description,
                                               sizeof m->description);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "layers", 1, MODELS_LAYERS_MAX, &m->layers);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "hidden_size", 1, MODELS_WIDTH_MAX, &m->hidden_size);
    size_t word = 0;
    if (status == COLLCALC_OK)
        status = collcalc_json_get_enum(ctx, object, "attention", attention_words,
                                        COUNT_OF(attention_words), &word);
    m->attention = (collcalc_attention)word;
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "heads", 1, MODELS_HEADS_MAX, &m->heads);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "kv_heads", 1, MODELS_HEADS_MAX, &m->kv_heads);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "head_dim", 1, MODELS_WIDTH_MAX, &m->head_dim);
    if (status == COLLCALC_OK)
        status = get_int(ctx, object, "ffn_intermediate", 0, MODELS_WIDTH_MAX,
                         &m->ffn_intermediate);
    if (status == COLLCALC_OK && collcalc_json_has(object, "vocab_size"))
        status = get_int(ctx, object, "vocab_size", 1, MODELS_VOCAB_MAX, &m->vocab_size);
    if (status == COLLCALC_OK)
        status = collcalc_json_get_number(ctx, object, "params_billion", 0.0,
                                          MODELS_PARAMS_MAX_BILLION, COLLCALC_JSON_MIN_EXCLUSIVE,
                                          &m->params_billion);
    if (status == COLLCALC_OK && collcalc_json_has(object, "moe"))
        status = load_moe(ctx, object, m);
    bool has_mla = collcalc_json_has(object, "mla");
    if (status == COLLCALC_OK && has_mla != (m->attention == COLLCALC_ATTENTION_MLA)) {
        collcalc_json_path_push_key(&ctx->path, has_mla ? "mla" : "attention");
        status = has_mla ? collcalc_json_fail(ctx, "only allowed with \"attention\": \"mla\"")
                         : collcalc_json_fail(ctx, "\"mla\" needs an \"mla\" block "
                                                   "(kv_lora_rank, rope_head_dim)");
        collcalc_json_path_pop(&ctx->path);
    }
    if (status == COLLCALC_OK && has_mla)
        status = load_mla(ctx, object, m);
    if (status == COLLCALC_OK && collcalc_json_has(object, "sliding_window"))
        status = load_window(ctx, object, m);
    if (status == COLLCALC_OK && collcalc_json_has(object, "weights"))
        status = load_weights(ctx, object, m);
    if (status == COLLCALC_OK && collcalc_json_has(object, "sources"))
        status = load_sources(ctx, object, m);
    if (status == COLLCALC_OK)
        status = check_shape(ctx, m);
    return status;
}

static collcalc_status load_model_entry(collcalc_json_ctx *ctx, const cJSON *element,
                                        void *entry, const void *context)
{
    (void)context;
    return load_model(ctx, element, entry);
}

COLLCALC_TABLE_CHECK(collcalc_model_table, origins, COLLCALC_MODELS_MAX);
static const collcalc_table_layout model_table = COLLCALC_TABLE_LAYOUT(
    collcalc_model_table, origins, models, COLLCALC_MODELS_MAX, model_names, "model");

static collcalc_status parse_table(const char *json_text, size_t json_length, const char *origin,
                                   collcalc_model_table **out_table, collcalc_diag *diag)
{
    if (out_table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the model table");
    *out_table = NULL;
    if (json_text == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no model table text");
    void *table = NULL;
    collcalc_status status = collcalc_table_parse(&model_table, MODELS_SCHEMA_VERSION, json_text,
                                                  json_length, origin, load_model_entry, NULL,
                                                  &table, diag);
    *out_table = table;
    return status;
}

collcalc_status collcalc_model_table_parse(const char *json_text, size_t json_length,
                                           const char *origin,
                                           collcalc_model_table **out_table,
                                           collcalc_diag *diag)
{
    return parse_table(json_text, json_length, origin, out_table, diag);
}

collcalc_status collcalc_model_table_builtin(collcalc_model_table **out_table,
                                             collcalc_diag *diag)
{
    const char *json = collcalc_builtin_models_json();
    return parse_table(json, strlen(json), "built-in data/models.json", out_table, diag);
}

/* Whether any name slot of a equals any name slot of b (ignoring case). */
static bool names_clash(const collcalc_model_shape *a, const collcalc_model_shape *b,
                        size_t *out_slot)
{
    for (size_t s = 0; s < COLLCALC_NAMES_SLOTS; s++) {
        const char *name = collcalc_names_slot(&model_names, a, 0, s);
        if (name[0] == '\0')
            continue;
        for (size_t t = 0; t < COLLCALC_NAMES_SLOTS; t++) {
            const char *other = collcalc_names_slot(&model_names, b, 0, t);
            if (other[0] != '\0' && collcalc_names_equal(name, other)) {
                *out_slot = s;
                return true;
            }
        }
    }
    return false;
}

/* Plans an overlay as collcalc_names_plan_overlay does (replaces[i]: the base
 * entry overlay entry i replaces, or base->count when added), by the model
 * table's own rules and messages: a clash is reported per base entry, in the
 * words "is already a name or alias of built-in", and the size limit at the
 * first entry that would pass it. */
static collcalc_status plan_overlay(const collcalc_model_table *base,
                                    const collcalc_model_table *overlay, size_t *replaces,
                                    size_t *out_count, collcalc_diag *diag)
{
    size_t count = base->count;
    for (size_t i = 0; i < overlay->count; i++) {
        const collcalc_model_shape *m = &overlay->models[i];
        size_t same = base->count;
        for (size_t k = 0; k < base->count; k++)
            if (collcalc_names_equal(m->name, base->models[k].name))
                same = k;
        for (size_t k = 0; k < base->count; k++) {
            size_t slot = 0;
            if (k == same || !names_clash(m, &base->models[k], &slot))
                continue;
            const char *name = collcalc_names_slot(&model_names, m, 0, slot);
            if (slot == 0)
                return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                          "models[%zu].name: '%s' is already a name or alias "
                                          "of built-in '%s'", i, name, base->models[k].name);
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "models[%zu].aliases[%zu]: '%s' is already a name or "
                                      "alias of built-in '%s'", i, slot - 1, name,
                                      base->models[k].name);
        }
        replaces[i] = same;
        if (same < base->count)
            continue;
        if (count >= COLLCALC_MODELS_MAX)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "models[%zu]: more than %d models with the built-in ones",
                                      i, COLLCALC_MODELS_MAX);
        count++;
    }
    *out_count = count;
    return COLLCALC_OK;
}

collcalc_status collcalc_model_table_overlay(const collcalc_model_table *base,
                                             const collcalc_model_table *overlay,
                                             collcalc_model_table **out_table,
                                             collcalc_diag *diag)
{
    if (out_table == NULL || base == NULL || overlay == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no tables to overlay");
    *out_table = NULL;
    size_t replaces[COLLCALC_MODELS_MAX];
    size_t count = 0;
    collcalc_status status = plan_overlay(base, overlay, replaces, &count, diag);
    if (status != COLLCALC_OK)
        return status;
    collcalc_model_table *table = collcalc_table_merge(&model_table, base, overlay, replaces,
                                                       count);
    if (table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory overlaying models");
    *out_table = table;
    return COLLCALC_OK;
}

collcalc_entry_origin collcalc_model_table_origin(const collcalc_model_table *table,
                                                  size_t index)
{
    return collcalc_table_origin(&model_table, table, index);
}

size_t collcalc_model_table_replaced_count(const collcalc_model_table *table)
{
    return collcalc_table_replaced_count(&model_table, table);
}

void collcalc_model_table_free(collcalc_model_table *table)
{
    collcalc_table_free(table);
}

size_t collcalc_model_table_count(const collcalc_model_table *table)
{
    return collcalc_table_count(table);
}

const collcalc_model_shape *collcalc_model_table_at(const collcalc_model_table *table,
                                                    size_t index)
{
    return collcalc_table_at(&model_table, table, index);
}

const collcalc_model_shape *collcalc_model_table_find(const collcalc_model_table *table,
                                                      const char *name)
{
    return collcalc_table_find(&model_table, table, name);
}

collcalc_status collcalc_model_table_lookup(const collcalc_model_table *table, const char *field,
                                const char *name, const collcalc_model_shape **out, collcalc_diag *diag)
{
    const void *found = NULL;
    collcalc_status status = collcalc_table_lookup(&model_table, table, field, name, &found, diag);
    *out = found;
    return status;
}

char *collcalc_model_table_names(const collcalc_model_table *table, char *buffer,
                                 size_t buffer_size)
{
    if (buffer == NULL || buffer_size == 0)
        return buffer;
    buffer[0] = '\0';
    size_t used = 0;
    for (size_t i = 0; i < collcalc_model_table_count(table); i++) {
        const char *name = table->models[i].name;
        const char *sep = i > 0 ? ", " : "";
        size_t need = strlen(sep) + strlen(name);
        if (used + need >= buffer_size)
            break;
        memcpy(buffer + used, sep, strlen(sep));
        memcpy(buffer + used + strlen(sep), name, strlen(name) + 1);
        used += need;
    }
    return buffer;
}

bool collcalc_model_is_moe(const collcalc_model_shape *model)
{
    return model != NULL && model->routed_experts > 0;
}

int collcalc_model_moe_layers(const collcalc_model_shape *model)
{
    if (!collcalc_model_is_moe(model))
        return 0;
    return model->layers - model->dense_layers;
}

double collcalc_model_expert_params(const collcalc_model_shape *model)
{
    if (!collcalc_model_is_moe(model))
        return 0.0;
    return (double)collcalc_model_moe_layers(model) * model->routed_experts * 3.0 *
           model->hidden_size * model->moe_intermediate;
}

const char *collcalc_attention_name(collcalc_attention attention)
{
    return collcalc_names_word(attention_words, COUNT_OF(attention_words), (int)attention);
}

unsigned collcalc_dtype_bytes(collcalc_dtype dtype)
{
    int value = (int)dtype;
    return (value >= 0 && (size_t)value < COUNT_OF(dtype_sizes)) ? dtype_sizes[value] : 0u;
}

const char *collcalc_dtype_name(collcalc_dtype dtype)
{
    return collcalc_names_word(dtype_words, COUNT_OF(dtype_words), (int)dtype);
}

collcalc_status collcalc_dtype_from_name(const char *name, collcalc_dtype *out_dtype,
                                         collcalc_diag *diag)
{
    if (name != NULL && out_dtype != NULL) {
        for (size_t i = 0; i < COUNT_OF(dtype_words); i++) {
            if (collcalc_names_equal(name, dtype_words[i])) {
                *out_dtype = (collcalc_dtype)i;
                return COLLCALC_OK;
            }
        }
    }
    return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                              "unknown dtype '%.40s' (use bf16, fp8, fp16 or fp32)",
                              name != NULL ? name : "");
}

double collcalc_weight_format_bytes(collcalc_weight_format format)
{
    int value = (int)format;
    return (value >= 0 && (size_t)value < COUNT_OF(weight_sizes)) ? weight_sizes[value] : 0.0;
}

const char *collcalc_weight_format_name(collcalc_weight_format format)
{
    return collcalc_names_word(weight_words, COUNT_OF(weight_words), (int)format);
}

collcalc_status collcalc_weight_format_from_name(const char *name,
                                                 collcalc_weight_format *out_format,
                                                 collcalc_diag *diag)
{
    if (name != NULL && out_format != NULL) {
        for (size_t i = 0; i < COUNT_OF(weight_words); i++) {
            if (collcalc_names_equal(name, weight_words[i])) {
                *out_format = (collcalc_weight_format)i;
                return COLLCALC_OK;
            }
        }
    }
    return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                              "unknown weight type '%.40s' (use bf16, fp8, fp16, fp32, mxfp4 or "
                              "nvfp4)", name != NULL ? name : "");
}

double collcalc_model_weight_bytes(const collcalc_model_shape *model)
{
    if (model == NULL)
        return 0.0;
    double expert = collcalc_model_expert_params(model);
    double rest = model->params_billion * 1e9 - expert;
    if (rest < 0)
        rest = 0;
    return rest * collcalc_weight_format_bytes(model->weight_format) +
           expert * collcalc_weight_format_bytes(model->expert_weight_format);
}
