/* GPU figures the planners need beyond the links: memory per GPU, memory
 * (HBM or GDDR) bandwidth and dense tensor FLOP/s per element type, each
 * with its source, loaded from a JSON table such as data/gpus.json. A
 * platform preset names its GPU ("gpu": "H100 SXM"); the same name keys
 * this table. */
#ifndef COLLCALC_GPUS_H
#define COLLCALC_GPUS_H

#include <stdbool.h>
#include <stddef.h>

#include "collcalc/links.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Most GPUs one table may hold. */
#define COLLCALC_GPUS_MAX 256

/* Tensor-core element types a GPU's FLOP/s are given for. */
typedef enum {
    COLLCALC_GPU_FLOPS_BF16 = 0, /* 16-bit (BF16; FP16 where the GPU has no BF16) */
    COLLCALC_GPU_FLOPS_FP8,
    COLLCALC_GPU_FLOPS_FP4,
    COLLCALC_GPU_FLOPS_COUNT
} collcalc_gpu_flops_type;

/* "bf16", "fp8", "fp4"; "unknown" outside the enum. Static. */
const char *collcalc_gpu_flops_type_name(collcalc_gpu_flops_type type);

typedef struct {
    char name[COLLCALC_NAME_MAX];                          /* "H100 SXM": 1..31 bytes */
    char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX]; /* unused: always "" */
    char description[COLLCALC_TEXT_MAX];                   /* "" when not given */
    double memory_GB;        /* memory per GPU, 1e9 B, (0, 100000] */
    double memory_GBps;      /* memory bandwidth, GB/s, (0, 1e6] */
    /* Dense (no 2:4 sparsity) tensor TFLOP/s per type; 0 = the GPU has no
     * such unit (A100 FP8). bf16 is required. */
    double tflops[COLLCALC_GPU_FLOPS_COUNT];
    char memory_source[COLLCALC_TEXT_MAX];
    char bandwidth_source[COLLCALC_TEXT_MAX];
    char tflops_source[COLLCALC_GPU_FLOPS_COUNT][COLLCALC_TEXT_MAX];
} collcalc_gpu;

/* Dense TFLOP/s of gpu for operands of the given type: the type's own
 * figure, else the next wider type the GPU has (FP4 -> FP8 -> BF16), as an
 * engine upcasts what the tensor cores cannot take. *out_used (may be NULL)
 * is the type whose figure was taken. 0 for NULL. */
double collcalc_gpu_tflops(const collcalc_gpu *gpu, collcalc_gpu_flops_type type,
                           collcalc_gpu_flops_type *out_used);

typedef struct collcalc_gpu_table collcalc_gpu_table;

/* Parses a GPU table (schema in data/README.md) strictly: schema_version 1,
 * unknown and duplicate keys, types, ranges, unique names (ignoring case),
 * a source for every figure given. diag names the JSON path. origin names
 * the document (may be NULL). The caller owns *out_table (NULL on failure). */
collcalc_status collcalc_gpu_table_parse(const char *json_text, size_t json_length,
                                         const char *origin, collcalc_gpu_table **out_table,
                                         collcalc_diag *diag);

/* The table compiled in from data/gpus.json. Caller owns the result. */
collcalc_status collcalc_gpu_table_builtin(collcalc_gpu_table **out_table, collcalc_diag *diag);

/* The text of data/gpus.json as compiled in (NUL-terminated, static). */
const char *collcalc_builtin_gpus_json(void);

void collcalc_gpu_table_free(collcalc_gpu_table *table);
size_t collcalc_gpu_table_count(const collcalc_gpu_table *table);
const collcalc_gpu *collcalc_gpu_table_at(const collcalc_gpu_table *table, size_t index);
/* By name, ignoring case; NULL when absent. Borrowed. */
const collcalc_gpu *collcalc_gpu_table_find(const collcalc_gpu_table *table, const char *name);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
