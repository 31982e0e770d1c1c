/* NCCL's tuning-model constants, one set per NCCL release: strict loading
 * of data/nccl.json-style documents (schema in data/README.md, section
 * "nccl.json") and lookup by version.
 *
 *   { "schema_version": 1,
 *     "description": "...",                        optional
 *     "versions": [                                1..16 entries, ascending, unique
 *       { "version": "2.30.7",
 *         "source": "...",
 *         "base_latency_us": { "tree": [LL, LL128, Simple], "ring": [...], ... 7 algorithms },
 *         "hw_latency_us": { "nvlink": {7 algorithms}, "pci": {...}, "net": {...} },
 *         "ll_max_bw_GBps": { "volta": [N1, N2, N4], "ampere", "hopper", "blackwell" },
 *         "per_channel_max_ring_ll128_GBps", "per_channel_max_tree_ll128_GBps",
 *         "per_channel_max_tree_GBps", "max_nvls_tree_GBps": same shape,
 *         "nvls_efficiency": { "volta": 0, ... },
 *         "tree_correction": { "ll": [24 factors], "ll128": [...], "simple": [...] },
 *         "net_overhead_us": { "intel_other": 1.0, "amd": 2.0 },
 *         "ring_plateau_factor": { "pre_ampere": 1.9, "ampere_plus": 1.4 },
 *         "pat_factor": 0.75, "legacy_ring_ll": false, "tree_cap_all_functions": false,
 *         "nvls_model": "2.18" | "2.23" | "2.28",
 *         "nvls_tree_correction_blackwell_x86": true, "symmetric_kernels": true,
 *         "blackwell_row": true } ] } */
#include "collcalc/nccl_model.h"
#include "collcalc/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "table.h"
#include "helpers.h"

#define NCCL_SCHEMA_VERSION 1
#define NCCL_VERSIONS_MAX 16
#define NCCL_LATENCY_MAX_US 1000.0
#define NCCL_BW_MAX_GBPS 10000.0

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

struct collcalc_nccl_constants_table {
    size_t count;
    collcalc_nccl_constants versions[NCCL_VERSIONS_MAX];
};

static const char *const algo_keys[COLLCALC_NCCL_NUM_ALGOS] = {
    "tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
static const char *const hw_keys[COLLCALC_NCCL_NUM_HW] = {"nvlink", "pci", "net"};
static const char *const arch_keys[COLLCALC_NCCL_NUM_ARCHS] = {"volta", "ampere", "hopper",
                                                               "blackwell"};
static const char *const proto_keys[COLLCALC_NCCL_NUM_PROTOS] = {"ll", "ll128", "simple"};
static const char *const nvls_words[] = {"2.18", "2.23", "2.28"};

static const collcalc_json_key root_keys[] = {
    {"schema_version", true},
    {"description", false},
    {"versions", true},
};

static const collcalc_json_key version_keys[] = {
    {"version", true},
    {"source", true},
    {"base_latency_us", true},
    {"hw_latency_us", true},
    {"ll_max_bw_GBps", true},
    {"per_channel_max_ring_ll128_GBps", true},
    {"per_channel_max_tree_ll128_GBps", true},
    {"per_channel_max_tree_GBps", true},
    {"max_nvls_tree_GBps", true},
    {"nvls_efficiency", true},
    {"tree_correction", true},
    {"net_overhead_us", true},
    {"ring_plateau_factor", true},
    {"pat_factor", true},
    {"legacy_ring_ll", true},
    {"tree_cap_all_functions", true},
    {"nvls_model", true},
    {"nvls_tree_correction_blackwell_x86", true},
    {"symmetric_kernels", true},
    {"blackwell_row", true},
};

/* Builds a key list where every name is required. */
static void required_keys(const char *const *names, size_t count, collcalc_json_key *keys)
{
    for (size_t i = 0; i < count; i++) {
        keys[i].name = names[i];
        keys[i].required = true;
    }
}

/* An array of exactly `count` numbers in [min, max] into out[]. */
static collcalc_status load_numbers(collcalc_json_ctx *ctx, const cJSON *item, size_t count,
                                    double min, double max, double *out)
{
    size_t length = 0;
    collcalc_status status = collcalc_json_as_array(ctx, item, count, count, &length);
    if (status != COLLCALC_OK)
        return status;
    size_t i = 0;
    const cJSON *element = NULL;
    cJSON_ArrayForEach(element, item)
    {
        collcalc_json_path_push_index(&ctx->path, i);
        status = collcalc_json_as_number(ctx, element, min, max, 0u, &out[i]);
        collcalc_json_path_pop(&ctx->path);
        if (status != COLLCALC_OK)
            return status;
        i++;
    }
    return COLLCALC_OK;
}

/* object[key] = { names[i]: [width numbers] } into rows (row stride width). */
static collcalc_status load_rows(collcalc_json_ctx *ctx, const cJSON *object, const char *key,
                                 const char *const *names, size_t count, size_t width, double min,
                                 double max, double *rows)
{
    collcalc_json_key keys[COLLCALC_NCCL_NUM_ALGOS];
    required_keys(names, count, keys);
    const cJSON *table = collcalc_json_enter(ctx, object, key);
    collcalc_status status = collcalc_json_check_object(ctx, table, keys, count);
    for (size_t r = 0; status == COLLCALC_OK && r < count; r++) {
        const cJSON *row = collcalc_json_enter(ctx, table, names[r]);
        status = load_numbers(ctx, row, width, min, max, rows + r * width);
        collcalc_json_leave(ctx);
    }
    collcalc_json_leave(ctx);
    return status;
}

/* object[key] = { names[i]: number } into out[i]. */
static collcalc_status load_scalars(collcalc_json_ctx *ctx, const cJSON *object, const char *key,
                                    const char *const *names, size_t count, double min, double max,
                                    double *out)
{
    collcalc_json_key keys[COLLCALC_NCCL_NUM_ALGOS];
    required_keys(names, count, keys);
    const cJSON *table = collcalc_json_enter(ctx, object, key);
    collcalc_status status = collcalc_json_check_object(ctx, table, keys, count);
    for (size_t r = 0; status == COLLCALC_OK && r < count; r++)
        status = collcalc_json_get_number(ctx, table, names[r], min, max, 0u, &out[r]);
    collcalc_json_leave(ctx);
    return status;
}

/* "2.30.7" or "2.27" -> 23007 / 22700; -1 when not MAJOR.MINOR[.PATCH] with
 * MAJOR 1..9, MINOR and PATCH 0..99. */
static int version_code(const char *text)
{
    int parts[3] = {0, 0, 0};
    int count = 0;
    const char *p = text;
    while (count < 3) {
        if (*p < '0' || *p > '9')
            return -1;
        int value = 0, digits = 0;
        while (*p >= '0' && *p <= '9') {
            value = value * 10 + (*p - '0');
            p++;
            if (++digits > 2)
                return -1;
        }
        parts[count++] = value;
        if (*p == '\0')
            break;
        if (*p != '.')
            return -1;
        p++;
    }
    if (*p != '\0' || count < 2 || parts[0] < 1 || parts[0] > 9)
        return -1;
    return parts[0] * 10000 + parts[1] * 100 + parts[2];
}

static collcalc_status load_version(collcalc_json_ctx *ctx, const cJSON *object,
                                    collcalc_nccl_constants *k)
{
    collcalc_status status =
        collcalc_json_check_object(ctx, object, version_keys, COUNT_OF(version_keys));
    if (status != COLLCALC_OK)
        return status;
    status = collcalc_json_get_string_copy(ctx, object, "version", k->version, sizeof k->version);
    if (status != COLLCALC_OK)
        return status;
    k->version_code = version_code(k->version);
    if (k->version_code < 0) {
        collcalc_json_enter(ctx, object, "version");
        status = collcalc_json_fail(
            ctx, "must be MAJOR.MINOR.PATCH such as \"2.30.7\" (got \"%s\")", k->version);
        collcalc_json_leave(ctx);
        return status;
    }
    status = collcalc_json_get_string_copy(ctx, object, "source", k->source, sizeof k->source);
    if (status != COLLCALC_OK)
        return status;

    status =
        load_rows(ctx, object, "base_latency_us", algo_keys, COLLCALC_NCCL_NUM_ALGOS,
                  COLLCALC_NCCL_NUM_PROTOS, 0.0, NCCL_LATENCY_MAX_US, &k->base_latency_us[0][0]);
    if (status != COLLCALC_OK)
        return status;
    {
        collcalc_json_key keys[COLLCALC_NCCL_NUM_HW];
        required_keys(hw_keys, COLLCALC_NCCL_NUM_HW, keys);
        const cJSON *table = collcalc_json_enter(ctx, object, "hw_latency_us");
        status = collcalc_json_check_object(ctx, table, keys, COLLCALC_NCCL_NUM_HW);
        for (size_t h = 0; status == COLLCALC_OK && h < COLLCALC_NCCL_NUM_HW; h++)
            status = load_rows(ctx, table, hw_keys[h], algo_keys, COLLCALC_NCCL_NUM_ALGOS,
                               COLLCALC_NCCL_NUM_PROTOS, 0.0, NCCL_LATENCY_MAX_US,
                               &k->hw_latency_us[h][0][0]);
        collcalc_json_leave(ctx);
        if (status != COLLCALC_OK)
            return status;
    }
    struct {
        const char *key;
        double *rows;
    } const caps[] = {
        {"ll_max_bw_GBps", &k->ll_max_bw_GBps[0][0]},
        {"per_channel_max_ring_ll128_GBps", &k->per_channel_max_ring_ll128_GBps[0][0]},
        {"per_channel_max_tree_ll128_GBps", &k->per_channel_max_tree_ll128_GBps[0][0]},
        {"per_channel_max_tree_GBps", &k->per_channel_max_tree_GBps[0][0]},
        {"max_nvls_tree_GBps", &k->max_nvls_tree_GBps[0][0]},
    };
    for (size_t i = 0; i < COUNT_OF(caps); i++) {
        status = load_rows(ctx, object, caps[i].key, arch_keys, COLLCALC_NCCL_NUM_ARCHS,
                           COLLCALC_NCCL_NUM_SCALES, 0.0, NCCL_BW_MAX_GBPS, caps[i].rows);
        if (status != COLLCALC_OK)
            return status;
    }
    status = load_scalars(ctx, object, "nvls_efficiency", arch_keys, COLLCALC_NCCL_NUM_ARCHS, 0.0,
                          1.0, k->nvls_efficiency);
    if (status != COLLCALC_OK)
        return status;
    status = load_rows(ctx, object, "tree_correction", proto_keys, COLLCALC_NCCL_NUM_PROTOS,
                       COLLCALC_NCCL_TREE_CORRECTION_SIZES, 0.01, 1.0, &k->tree_correction[0][0]);
    if (status != COLLCALC_OK)
        return status;
    static const char *const overhead_keys[] = {"intel_other", "amd"};
    status = load_scalars(ctx, object, "net_overhead_us", overhead_keys, 2, 0.0,
                          NCCL_LATENCY_MAX_US, k->net_overhead_us);
    if (status != COLLCALC_OK)
        return status;
    static const char *const plateau_keys[] = {"pre_ampere", "ampere_plus"};
    status = load_scalars(ctx, object, "ring_plateau_factor", plateau_keys, 2, 1.0, 10.0,
                          k->ring_plateau_factor);
    if (status != COLLCALC_OK)
        return status;
    status = collcalc_json_get_number(ctx, object, "pat_factor", 0.0, 1.0, 0u, &k->pat_factor);
    if (status != COLLCALC_OK)
        return status;
    struct {
        const char *key;
        bool *value;
    } const flags[] = {
        {"legacy_ring_ll", &k->legacy_ring_ll},
        {"tree_cap_all_functions", &k->tree_cap_all_functions},
        {"nvls_tree_correction_blackwell_x86", &k->nvls_tree_correction_blackwell_x86},
        {"symmetric_kernels", &k->symmetric_kernels},
        {"blackwell_row", &k->blackwell_row},
    };
    for (size_t i = 0; i < COUNT_OF(flags); i++) {
        status = collcalc_json_get_bool(ctx, object, flags[i].key, flags[i].value);
        if (status != COLLCALC_OK)
            return status;
    }
    size_t word = 0;
    status =
        collcalc_json_get_enum(ctx, object, "nvls_model", nvls_words, COUNT_OF(nvls_words), &word);
    if (status != COLLCALC_OK)
        return status;
    k->nvls_model = (collcalc_nccl_nvls_model)word;
    return COLLCALC_OK;
}

static collcalc_status load_table(collcalc_json_ctx *ctx, const cJSON *root,
                                  collcalc_nccl_constants_table *table)
{
    collcalc_status status = collcalc_json_check_object(ctx, root, root_keys, COUNT_OF(root_keys));
    if (status != COLLCALC_OK)
        return status;
    status = collcalc_json_check_version(ctx, root, NCCL_SCHEMA_VERSION);
    if (status != COLLCALC_OK)
        return status;
    if (collcalc_json_has(root, "description")) {
        const char *text = NULL;
        status = collcalc_json_get_string(ctx, root, "description", 1000, &text);
        if (status != COLLCALC_OK)
            return status;
    }
    const cJSON *versions = collcalc_json_enter(ctx, root, "versions");
    size_t count = 0;
    status = collcalc_json_as_array(ctx, versions, 1, NCCL_VERSIONS_MAX, &count);
    size_t i = 0;
    const cJSON *element = NULL;
    if (status == COLLCALC_OK) {
        cJSON_ArrayForEach(element, versions)
        {
            collcalc_json_path_push_index(&ctx->path, i);
            status = load_version(ctx, element, &table->versions[i]);
            if (status == COLLCALC_OK && i > 0 &&
                table->versions[i].version_code <= table->versions[i - 1].version_code)
                status =
                    collcalc_json_fail(ctx,
                                       "versions must be unique and in ascending order "
                                       "(%s after %s)",
                                       table->versions[i].version, table->versions[i - 1].version);
            collcalc_json_path_pop(&ctx->path);
            if (status != COLLCALC_OK)
                break;
            i++;
        }
    }
    collcalc_json_leave(ctx);
    table->count = i;
    return status;
}

/* Loads the parsed document into a new table (arg: where to put it). */
static collcalc_status load_document(collcalc_json_ctx *ctx, const cJSON *root, void *arg)
{
    collcalc_nccl_constants_table *table = collcalc_mem_calloc(1, sizeof *table);
    if (table == NULL)
        return collcalc_diag_fail(ctx->diag, COLLCALC_ERR_NOMEM, "out of memory");
    collcalc_status status = load_table(ctx, root, table);
    if (status != COLLCALC_OK) {
        collcalc_mem_free(table);
        return status;
    }
    *(collcalc_nccl_constants_table **)arg = table;
    return COLLCALC_OK;
}

static collcalc_status parse_table(const char *json_text, size_t json_length, const char *origin,
                                   collcalc_nccl_constants_table **out_table, collcalc_diag *diag)
{
    if (out_table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the constants table");
    *out_table = NULL;
    if (json_text == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no text");
    return collcalc_data_parse_document(json_text, json_length, origin, diag, load_document,
                                        out_table);
}

collcalc_status collcalc_nccl_constants_parse(const char *json_text, size_t json_length,
                                              collcalc_nccl_constants_table **out_table,
                                              collcalc_diag *diag)
{
    return parse_table(json_text, json_length, NULL, out_table, diag);
}

collcalc_status collcalc_nccl_constants_builtin(collcalc_nccl_constants_table **out_table,
                                                collcalc_diag *diag)
{
    const char *json = collcalc_builtin_nccl_json();
    return parse_table(json, strlen(json), "built-in data/nccl.json", out_table, diag);
}

void collcalc_nccl_constants_table_free(collcalc_nccl_constants_table *table)
{
    collcalc_mem_free(table);
}

size_t collcalc_nccl_constants_count(const collcalc_nccl_constants_table *table)
{
    return table != NULL ? table->count : 0;
}

const collcalc_nccl_constants *
collcalc_nccl_constants_at(const collcalc_nccl_constants_table *table, size_t index)
{
    if (table == NULL || index >= table->count)
        return NULL;
    return &table->versions[index];
}

collcalc_status collcalc_nccl_constants_find(const collcalc_nccl_constants_table *table,
                                             const char *version,
                                             const collcalc_nccl_constants **out,
                                             collcalc_diag *diag)
{
    if (table == NULL || table->count == 0 || out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no constants table");
    if (version == NULL) {
        *out = &table->versions[table->count - 1];
        return COLLCALC_OK;
    }
    /* Accept a "+cuda12.8" suffix as NCCL's banner prints it. */
    char text[COLLCALC_NCCL_VERSION_TEXT_MAX];
    size_t length = strcspn(version, "+");
    if (length == 0 || length >= sizeof text)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "NCCL version '%.32s' is not MAJOR.MINOR[.PATCH]", version);
    memcpy(text, version, length);
    text[length] = '\0';
    int code = version_code(text);
    if (code < 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "NCCL version '%.32s' is not MAJOR.MINOR[.PATCH]", version);
    if (strchr(text, '.') == strrchr(text, '.'))
        code += 99; /* "2.27" means the newest 2.27.x */
    for (size_t i = table->count; i-- > 0;) {
        if (table->versions[i].version_code <= code) {
            *out = &table->versions[i];
            return COLLCALC_OK;
        }
    }
    return collcalc_diag_fail(diag, COLLCALC_ERR_NOT_FOUND,
                              "NCCL %s is older than every modelled release (oldest %s)", text,
                              table->versions[0].version);
}
