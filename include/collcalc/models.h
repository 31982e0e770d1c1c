/* Model shapes: the figures of a transformer that decide what it moves
 * between GPUs (layers, hidden size, heads, KV heads, MoE experts, MLA
 * ranks, sliding-window layers), loaded from a JSON table such as
 * data/models.json, and the element types (dtypes) the planners count in. */
#ifndef COLLCALC_MODELS_H
#define COLLCALC_MODELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/links.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Most models one table may hold. */
#define COLLCALC_MODELS_MAX 256

/* Element types of activations, KV cache and expert traffic. */
typedef enum {
    COLLCALC_DTYPE_BF16 = 0, /* 2 bytes */
    COLLCALC_DTYPE_FP8,      /* 1 byte (e4m3/e5m2) */
    COLLCALC_DTYPE_FP16,     /* 2 bytes */
    COLLCALC_DTYPE_FP32,     /* 4 bytes */
    COLLCALC_DTYPE_COUNT
} collcalc_dtype;

/* Bytes per element: 2, 1, 2, 4; 0 outside the enum. */
unsigned collcalc_dtype_bytes(collcalc_dtype dtype);
/* "bf16", "fp8", "fp16", "fp32"; "unknown" outside the enum. Static. */
const char *collcalc_dtype_name(collcalc_dtype dtype);
/* Parses "bf16", "fp8", "fp16", "fp32" (any case). */
collcalc_status collcalc_dtype_from_name(const char *name, collcalc_dtype *out_dtype,
                                         collcalc_diag *diag);

/* Formats weights are stored in, with their bytes per parameter (block
 * scales included): bf16 2, fp16 2, fp32 4, fp8 1 (DeepSeek's 128 x 128
 * blocks add 4 B per 16,384 weights, under 0.03 %: not counted), mxfp4
 * 0.53125 (4 bits + one 8-bit scale per 32, OCP MX spec), nvfp4 0.5625
 * (4 bits + one FP8 scale per 16, NVIDIA NVFP4). */
typedef enum {
    COLLCALC_WEIGHTS_BF16 = 0,
    COLLCALC_WEIGHTS_FP8,
    COLLCALC_WEIGHTS_FP16,
    COLLCALC_WEIGHTS_FP32,
    COLLCALC_WEIGHTS_MXFP4,
    COLLCALC_WEIGHTS_NVFP4,
    COLLCALC_WEIGHTS_COUNT
} collcalc_weight_format;

/* Bytes per parameter (above); 0 outside the enum. */
double collcalc_weight_format_bytes(collcalc_weight_format format);
/* "bf16", "fp8", "fp16", "fp32", "mxfp4", "nvfp4"; "unknown" outside. Static. */
const char *collcalc_weight_format_name(collcalc_weight_format format);
/* Parses those names (any case). */
collcalc_status collcalc_weight_format_from_name(const char *name,
                                                 collcalc_weight_format *out_format,
                                                 collcalc_diag *diag);

/* How attention keeps its KV cache. */
typedef enum {
    COLLCALC_ATTENTION_GQA = 0, /* MHA or GQA: K and V per KV head */
    COLLCALC_ATTENTION_MLA      /* multi-head latent attention: one compressed latent per token */
} collcalc_attention;

/* "gqa", "mla"; "unknown" outside the enum. Static. */
const char *collcalc_attention_name(collcalc_attention attention);

/* One model. Counts are whole numbers; 0 means "none" where said. */
typedef struct {
    char name[COLLCALC_NAME_MAX];                          /* "llama-3-70b" */
    char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX]; /* "" when unused */
    char description[COLLCALC_TEXT_MAX];                   /* "" when not given */
    int layers;          /* decoder layers, 1..1000 (DeepSeek-V3: 61, MTP not counted) */
    int hidden_size;     /* H, 1..1000000 */
    collcalc_attention attention;
    int heads;           /* query heads, 1..100000 */
    int kv_heads;        /* KV heads (GQA); for MLA the config's value (= heads) */
    int head_dim;        /* K/V head dimension (MLA: v_head_dim) */
    int ffn_intermediate; /* dense FFN width; 0 when every layer is MoE */
    int vocab_size;      /* 0 when not given */
    double params_billion; /* total parameters (incl. experts), 1e9 */
    /* MoE: routed_experts 0 means dense. */
    int routed_experts;
    int shared_experts;
    int experts_per_token; /* top-k */
    int expert_groups;     /* 1 when routing is not group-limited */
    int top_groups;        /* groups a token may use (node-limited routing) */
    int moe_intermediate;  /* one expert's FFN width */
    int dense_layers;      /* layers with a dense FFN (DeepSeek-V3: 3); = layers for a dense model */
    /* MLA (attention == COLLCALC_ATTENTION_MLA), else 0. */
    int kv_lora_rank;
    int rope_head_dim;
    int q_lora_rank;       /* 0 when queries are not compressed */
    /* Sliding-window attention: that many layers keep only the last
     * window_tokens tokens of KV; 0 and 0 when none. */
    int sliding_window_layers;
    int sliding_window_tokens;
    /* The checkpoint's native weight formats ("weights" block; default
     * bf16 for both when a user's file leaves it out). */
    collcalc_weight_format weight_format;        /* every weight but the routed experts' */
    collcalc_weight_format expert_weight_format; /* the routed experts' (gpt-oss: mxfp4) */
    char shape_source[COLLCALC_TEXT_MAX];  /* "" in a user's file without sources */
    char moe_source[COLLCALC_TEXT_MAX];
    char attention_source[COLLCALC_TEXT_MAX];
    char weights_source[COLLCALC_TEXT_MAX];
} collcalc_model_shape;

/* True when the model has routed experts. */
bool collcalc_model_is_moe(const collcalc_model_shape *model);
/* Layers whose FFN is MoE: layers - dense_layers (0 for a dense model). */
int collcalc_model_moe_layers(const collcalc_model_shape *model);
/* Parameters of the routed experts, from the shape: moe_layers x routed x
 * 3 x H x moe_intermediate (gated FFN: gate, up, down). 0 for dense. */
double collcalc_model_expert_params(const collcalc_model_shape *model);

/* Bytes of the model's weights in its native formats: the routed experts
 * (collcalc_model_expert_params) at the expert format, the rest of
 * params_billion at the weight format. 0 for NULL. */
double collcalc_model_weight_bytes(const collcalc_model_shape *model);

/* An immutable, validated table. Opaque; free with collcalc_model_table_free. */
typedef struct collcalc_model_table collcalc_model_table;

/* Parses a model table (json_length bytes, not NUL-terminated; schema in
 * data/README.md) with the strictness of the link table: schema_version 1,
 * unknown and duplicate keys, types, ranges, unique names and aliases
 * (ignoring case), and consistency rules (kv_heads divides heads for GQA,
 * top-k <= routed experts, top_groups <= expert_groups, an "mla" block
 * exactly when attention is "mla", dense_layers <= layers ...). diag names
 * the JSON path ("models[2].kv_heads: must divide heads (64), got 7").
 * origin names the document in messages (may be NULL). COLLCALC_ERR_INVALID
 * for a bad document, COLLCALC_ERR_NOMEM when memory runs out. On success
 * the caller owns *out_table; on failure it is NULL. */
collcalc_status collcalc_model_table_parse(const char *json_text, size_t json_length,
                                           const char *origin,
                                           collcalc_model_table **out_table,
                                           collcalc_diag *diag);

/* The table compiled in from data/models.json, through the same loader
 * (messages name "built-in data/models.json"). Caller owns the result. */
collcalc_status collcalc_model_table_builtin(collcalc_model_table **out_table,
                                             collcalc_diag *diag);

/* The text of data/models.json as compiled in (NUL-terminated, static). */
const char *collcalc_builtin_models_json(void);

/* `--model-file FILE`: a new table with base's entries in base order, each
 * replaced in place by the overlay entry of the same name (ignoring case;
 * the overlay's aliases replace the base entry's), then the overlay's other
 * entries in file order, as collcalc_link_table_overlay does for links.
 * Refused (COLLCALC_ERR_INVALID) when an overlay name or alias equals a name
 * or alias of a different base entry ("models[0].aliases[0]: 'deepseek-r1'
 * is already an alias of built-in 'deepseek-v3'"), or the result would hold
 * more than COLLCALC_MODELS_MAX models. Both inputs are borrowed; the caller
 * owns *out_table, NULL on failure. Which entries were replaced:
 * collcalc_model_table_origin. */
collcalc_status collcalc_model_table_overlay(const collcalc_model_table *base,
                                             const collcalc_model_table *overlay,
                                             collcalc_model_table **out_table,
                                             collcalc_diag *diag);

/* Where entry index came from (COLLCALC_ENTRY_BASE, _ADDED, _REPLACED, from
 * collcalc/links.h); COLLCALC_ENTRY_BASE for a parsed table or an index out
 * of range. */
collcalc_entry_origin collcalc_model_table_origin(const collcalc_model_table *table,
                                                  size_t index);

/* Number of entries with origin COLLCALC_ENTRY_REPLACED (0 for NULL). */
size_t collcalc_model_table_replaced_count(const collcalc_model_table *table);

/* Frees a table. NULL is a no-op. */
void collcalc_model_table_free(collcalc_model_table *table);
/* Number of models (0 for NULL). */
size_t collcalc_model_table_count(const collcalc_model_table *table);
/* Entry i in file order; NULL when out of range. Borrowed. */
const collcalc_model_shape *collcalc_model_table_at(const collcalc_model_table *table,
                                                    size_t index);
/* By name or alias, ignoring case; NULL when absent (the caller offers a
 * did-you-mean from collcalc_model_table_names). Borrowed. */
const collcalc_model_shape *collcalc_model_table_find(const collcalc_model_table *table,
                                                      const char *name);
/* The same, or COLLCALC_ERR_NOT_FOUND with "FIELD: unknown model 'name' (did
 * you mean ...?); known: ..." (field NULL: without "FIELD: "): the lookup
 * whose message every command gives. */
collcalc_status collcalc_model_table_lookup(const collcalc_model_table *table, const char *field,
                                const char *name, const collcalc_model_shape **out, collcalc_diag *diag);
/* Writes the model names, comma-separated in table order ("llama-3-70b,
 * llama-3.1-8b, ..."), into buffer (always NUL-terminated, cut to fit;
 * nothing when buffer_size is 0). Returns buffer. */
char *collcalc_model_table_names(const collcalc_model_table *table, char *buffer,
                                 size_t buffer_size);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
