/* The GPU table: strict loading of data/gpus.json-style documents (memory,
 * memory bandwidth, dense tensor FLOP/s per type, a source for each figure)
 * and lookup by name.
 *
 * Schema (version 1; data/README.md has the full description):
 *
 *   { "schema_version": 1,
 *     "gpus": [                                   1..COLLCALC_GPUS_MAX entries
 *       { "name": "H100 SXM",                      free text, 1..31 bytes, unique
 *         "description": "...",                    optional
 *         "memory_GB": 80,                         (0, 100000]
 *         "hbm_GBps": 3350,                        (0, 1e6]
 *         "tflops": { "bf16": 989.4,               required, (0, 1e6]
 *                     "fp8": 1978.9, "fp4": ... }, optional
 *         "sources": { "memory_GB": "...", "hbm_GBps": "...",
 *                      "bf16": "...", "fp8": "...", "fp4": "..." } } ] }
 *
 * Every figure needs its source string: a number without one is refused. */
#include "collcalc/gpus.h"

#include <stddef.h>
#include <string.h>

#include "json_check.h"
#include "names.h"
#include "table.h"

#define GPUS_SCHEMA_VERSION 1
#define GPUS_MEMORY_MAX_GB 100000.0
#define GPUS_BANDWIDTH_MAX_GBPS 1e6
#define GPUS_TFLOPS_MAX 1e6

struct collcalc_gpu_table {
    size_t count;
    unsigned char origins[COLLCALC_GPUS_MAX];
    collcalc_gpu gpus[];
};

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

static const char *const flops_words[] = {"bf16", "fp8", "fp4"};

static const collcalc_json_key gpu_keys[] = {
    {"name", true},     {"description", false}, {"memory_GB", true},
    {"hbm_GBps", true}, {"tflops", true},       {"sources", true},
};

static const collcalc_json_key tflops_keys[] = {
    {"bf16", true},
    {"fp8", false},
    {"fp4", false},
};

static const collcalc_json_key source_keys[] = {
    {"memory_GB", true}, {"hbm_GBps", true}, {"bf16", true}, {"fp8", false}, {"fp4", false},
};

static const collcalc_names_layout gpu_names = {sizeof(collcalc_gpu),
                                                offsetof(collcalc_gpu, name),
                                                offsetof(collcalc_gpu, aliases), "gpus"};

const char *collcalc_gpu_flops_type_name(collcalc_gpu_flops_type type)
{
    return collcalc_names_word(flops_words, COUNT_OF(flops_words), (int)type);
}

double collcalc_gpu_tflops(const collcalc_gpu *gpu, collcalc_gpu_flops_type type,
                           collcalc_gpu_flops_type *out_used)
{
    if (gpu == NULL || (int)type < 0 || type >= COLLCALC_GPU_FLOPS_COUNT)
        return 0.0;
    int t = (int)type;
    while (t > 0 && !(gpu->tflops[t] > 0))
        t--;
    if (out_used != NULL)
        *out_used = (collcalc_gpu_flops_type)t;
    return gpu->tflops[t];
}

static collcalc_status load_tflops(collcalc_json_ctx *ctx, const cJSON *gpu_object,
                                   collcalc_gpu *g)
{
    const cJSON *object = collcalc_json_enter(ctx, gpu_object, "tflops");
    collcalc_status status =
        collcalc_json_check_object(ctx, object, tflops_keys, COUNT_OF(tflops_keys));
    for (size_t i = 0; status == COLLCALC_OK && i < COUNT_OF(flops_words); i++)
        if (i == 0 || collcalc_json_has(object, flops_words[i]))
            status = collcalc_json_get_number(ctx, object, flops_words[i], 0.0, GPUS_TFLOPS_MAX,
                                              COLLCALC_JSON_MIN_EXCLUSIVE, &g->tflops[i]);
    collcalc_json_leave(ctx);
    return status;
}

/* The sources block: one string per figure given, none for a figure absent. */
static collcalc_status load_sources(collcalc_json_ctx *ctx, const cJSON *gpu_object,
                                    collcalc_gpu *g)
{
    char *const targets[] = {g->memory_source, g->bandwidth_source,
                             g->tflops_source[COLLCALC_GPU_FLOPS_BF16],
                             g->tflops_source[COLLCALC_GPU_FLOPS_FP8],
                             g->tflops_source[COLLCALC_GPU_FLOPS_FP4]};
    collcalc_status status =
        collcalc_json_get_string_fields(ctx, gpu_object, "sources", source_keys, targets,
                                        COUNT_OF(source_keys), COLLCALC_TEXT_MAX);
    if (status != COLLCALC_OK)
        return status;
    collcalc_json_path_push_key(&ctx->path, "sources");
    for (size_t i = 0; status == COLLCALC_OK && i < COUNT_OF(source_keys); i++) {
        bool figure = i < 2 || g->tflops[i - 2] > 0;
        bool source = targets[i][0] != '\0';
        if (figure == source)
            continue;
        collcalc_json_path_push_key(&ctx->path, source_keys[i].name);
        status = figure ? collcalc_json_fail(ctx, "missing: every figure needs its source")
                        : collcalc_json_fail(ctx, "a source for tflops.%s, which is not given",
                                             source_keys[i].name);
        collcalc_json_path_pop(&ctx->path);
    }
    collcalc_json_path_pop(&ctx->path);
    return status;
}

/* A GPU name is printable ASCII (spaces inside: "H100 SXM"), so messages
 * quoting it stay printable. */
static collcalc_status check_name(collcalc_json_ctx *ctx, const char *name)
{
    size_t n = strlen(name);
    collcalc_status status = COLLCALC_OK;
    collcalc_json_path_push_key(&ctx->path, "name");
    for (size_t i = 0; status == COLLCALC_OK && i < n; i++) {
        unsigned char byte = (unsigned char)name[i];
        if (byte < 0x20 || byte > 0x7E)
            status = collcalc_json_fail(ctx, "character %zu (byte 0x%02x) not allowed: use "
                                        "printable ASCII", i + 1, byte);
    }
    if (status == COLLCALC_OK && (name[0] == ' ' || name[n - 1] == ' '))
        status = collcalc_json_fail(ctx, "no leading or trailing spaces");
    collcalc_json_path_pop(&ctx->path);
    return status;
}

static collcalc_status load_gpu(collcalc_json_ctx *ctx, const cJSON *object, void *entry,
                                const void *context)
{
    (void)context;
    collcalc_gpu *g = entry;
    collcalc_status status = collcalc_json_check_object(ctx, object, gpu_keys, COUNT_OF(gpu_keys));
    if (status == COLLCALC_OK)
        status = collcalc_json_get_string_copy(ctx, object, "name", g->name, sizeof g->name);
    if (status == COLLCALC_OK)
        status = check_name(ctx, g->name);
    if (status == COLLCALC_OK && collcalc_json_has(object, "description"))
        status = collcalc_json_get_string_copy(ctx, object, "description", g->description,
                                               sizeof g->description);
    if (status == COLLCALC_OK)
        status = collcalc_json_get_number(ctx, object, "memory_GB", 0.0, GPUS_MEMORY_MAX_GB,
                                          COLLCALC_JSON_MIN_EXCLUSIVE, &g->memory_GB);
    if (status == COLLCALC_OK)
        status = collcalc_json_get_number(ctx, object, "hbm_GBps", 0.0, GPUS_BANDWIDTH_MAX_GBPS,
                                          COLLCALC_JSON_MIN_EXCLUSIVE, &g->memory_GBps);
    if (status == COLLCALC_OK)
        status = load_tflops(ctx, object, g);
    if (status == COLLCALC_OK)
        status = load_sources(ctx, object, g);
    return status;
}

COLLCALC_TABLE_CHECK(collcalc_gpu_table, origins, COLLCALC_GPUS_MAX);
static const collcalc_table_layout gpu_table = COLLCALC_TABLE_LAYOUT(
    collcalc_gpu_table, origins, gpus, COLLCALC_GPUS_MAX, gpu_names, "GPU");

collcalc_status collcalc_gpu_table_parse(const char *json_text, size_t json_length,
                                         const char *origin, collcalc_gpu_table **out_table,
                                         collcalc_diag *diag)
{
    if (out_table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the GPU table");
    *out_table = NULL;
    if (json_text == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no GPU table text");
    void *table = NULL;
    collcalc_status status = collcalc_table_parse(&gpu_table, GPUS_SCHEMA_VERSION, json_text,
                                                  json_length, origin, load_gpu, NULL, &table,
                                                  diag);
    *out_table = table;
    return status;
}

collcalc_status collcalc_gpu_table_builtin(collcalc_gpu_table **out_table, collcalc_diag *diag)
{
    const char *json = collcalc_builtin_gpus_json();
    return collcalc_gpu_table_parse(json, strlen(json), "built-in data/gpus.json", out_table,
                                    diag);
}

void collcalc_gpu_table_free(collcalc_gpu_table *table)
{
    collcalc_table_free(table);
}

size_t collcalc_gpu_table_count(const collcalc_gpu_table *table)
{
    return collcalc_table_count(table);
}

const collcalc_gpu *collcalc_gpu_table_at(const collcalc_gpu_table *table, size_t index)
{
    return collcalc_table_at(&gpu_table, table, index);
}

const collcalc_gpu *collcalc_gpu_table_find(const collcalc_gpu_table *table, const char *name)
{
    return collcalc_table_find(&gpu_table, table, name);
}
