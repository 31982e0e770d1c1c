/* The documents of the table listings (tables_doc.h). */
#include "tables_doc.h"

#include <stdio.h>

void doc_aliases_text(char *out, const char (*aliases)[COLLCALC_NAME_MAX])
{
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < COLLCALC_MAX_ALIASES && used < DOC_ALIASES_TEXT; k++)
        if (aliases[k][0] != '\0')
            used += (size_t)snprintf(out + used, DOC_ALIASES_TEXT - used, "%s%s", used ? " " : "",
                                     aliases[k]);
}

static const record_column PLATFORM_COLUMNS[] = {
    {"name", "platform", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"aliases", "aliases", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"gpu", "gpu", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"gpu_arch", "arch", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"gpus_per_node", "GPUs/node", FIELD_INT, COLUMN_BOTH, NULL},
    {"intra_link", "intra", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"nics", "NICs per node", FIELD_TEXT, COLUMN_TABLE, NULL},
    {"inter_link", "inter", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"nics_per_node", "NICs", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nics_per_gpu", "NICs per GPU", FIELD_INT, COLUMN_MACHINE, NULL},
    {"transport", "transport", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"memory_link", "memory", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"host_link", "host", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"nvls", "nvls", FIELD_BOOL, COLUMN_BOTH, NULL},
    {"nvswitch", "nvswitch", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"nvlink_links_per_gpu", "NVLinks per GPU", FIELD_INT, COLUMN_MACHINE, NULL},
    {"p2p", "p2p", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"sharp", "sharp", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"cpu_vendor", "cpu", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"description", "description", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"topology_source", "topology source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"nics_source", "NICs source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"nvls_source", "NVLS source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"arch_source", "arch source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"transport_source", "transport source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"fabric_source", "fabric source", FIELD_TEXT, COLUMN_MACHINE, NULL},
};
static const record_schema PLATFORM_SCHEMA = {
    "platforms", sizeof PLATFORM_COLUMNS / sizeof PLATFORM_COLUMNS[0], PLATFORM_COLUMNS};

void platforms_doc(document *doc, const collcalc_platform_table *platforms)
{
    record_set *set = doc_records(doc, &PLATFORM_SCHEMA);
    for (size_t i = 0; i < collcalc_platform_table_count(platforms); i++) {
        const collcalc_platform *p = collcalc_platform_table_at(platforms, i);
        char aliases[DOC_ALIASES_TEXT];
        doc_aliases_text(aliases, p->aliases);
        record_begin(set);
        record_text(set, "name", p->name);
        record_text(set, "aliases", aliases);
        record_text(set, "gpu", p->gpu);
        record_text(set, "gpu_arch", collcalc_gpu_arch_name(p->gpu_arch));
        record_int(set, "gpus_per_node", p->gpus_per_node);
        record_text(set, "intra_link", p->intra_link);
        record_textf(set, "nics", "%d x %s", p->nics_per_node, p->inter_link);
        record_text(set, "inter_link", p->inter_link);
        record_int(set, "nics_per_node", p->nics_per_node);
        record_int(set, "nics_per_gpu", p->nics_per_gpu);
        record_text(set, "transport", collcalc_transport_name(p->transport));
        record_text(set, "memory_link", p->memory_link);
        record_text(set, "host_link", p->host_link);
        record_bool(set, "nvls", p->nvls);
        record_bool(set, "nvswitch", p->nvswitch);
        record_int(set, "nvlink_links_per_gpu", p->nvlink_links_per_gpu);
        record_bool(set, "p2p", p->p2p);
        record_bool(set, "sharp", p->sharp);
        record_text(set, "cpu_vendor", collcalc_cpu_vendor_name(p->cpu_vendor));
        record_text(set, "description", p->description);
        record_text(set, "topology_source", p->topology_source);
        record_text(set, "nics_source", p->nics_source);
        record_text(set, "nvls_source", p->nvls_source);
        record_text(set, "arch_source", p->arch_source);
        record_text(set, "transport_source", p->transport_source);
        record_text(set, "fabric_source", p->fabric_source);
    }
}

static const record_column MODEL_COLUMNS[] = {
    {"name", "model", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"aliases", "aliases", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"layers", "layers", FIELD_INT, COLUMN_BOTH, NULL},
    {"hidden_size", "hidden", FIELD_INT, COLUMN_BOTH, NULL},
    {"attention", "attention", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"heads", "heads", FIELD_INT, COLUMN_BOTH, NULL},
    {"kv_heads", "KV heads", FIELD_INT, COLUMN_BOTH, NULL},
    {"head_dim", "head dim", FIELD_INT, COLUMN_BOTH, NULL},
    {"ffn_intermediate", "FFN", FIELD_INT, COLUMN_MACHINE, NULL},
    {"vocab_size", "vocab", FIELD_INT, COLUMN_MACHINE, NULL},
    {"params_billion", "params (B)", FIELD_NUMBER, COLUMN_BOTH, NULL},
    {"routed_experts", "experts", FIELD_INT, COLUMN_BOTH, NULL},
    {"shared_experts", "shared", FIELD_INT, COLUMN_MACHINE, NULL},
    {"experts_per_token", "top-k", FIELD_INT, COLUMN_BOTH, NULL},
    {"expert_groups", "groups", FIELD_INT, COLUMN_MACHINE, NULL},
    {"top_groups", "top groups", FIELD_INT, COLUMN_MACHINE, NULL},
    {"moe_intermediate", "expert FFN", FIELD_INT, COLUMN_MACHINE, NULL},
    {"dense_layers", "dense layers", FIELD_INT, COLUMN_MACHINE, NULL},
    {"kv_lora_rank", "kv_lora_rank", FIELD_INT, COLUMN_MACHINE, NULL},
    {"rope_head_dim", "rope dim", FIELD_INT, COLUMN_MACHINE, NULL},
    {"q_lora_rank", "q_lora_rank", FIELD_INT, COLUMN_MACHINE, NULL},
    {"sliding_window_layers", "window layers", FIELD_INT, COLUMN_MACHINE, NULL},
    {"sliding_window_tokens", "window", FIELD_INT, COLUMN_MACHINE, NULL},
    {"description", "description", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"shape_source", "shape source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"moe_source", "MoE source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"attention_source", "attention source", FIELD_TEXT, COLUMN_MACHINE, NULL},
};
static const record_schema MODEL_SCHEMA = {"models", sizeof MODEL_COLUMNS / sizeof MODEL_COLUMNS[0],
                                           MODEL_COLUMNS};

void models_doc(document *doc, const collcalc_model_table *table,
                const collcalc_model_shape *only)
{
    record_set *set = doc_records(doc, &MODEL_SCHEMA);
    for (size_t i = 0; i < collcalc_model_table_count(table); i++) {
        const collcalc_model_shape *m = collcalc_model_table_at(table, i);
        if (only != NULL && m != only)
            continue;
        char aliases[DOC_ALIASES_TEXT];
        doc_aliases_text(aliases, m->aliases);
        record_begin(set);
        record_text(set, "name", m->name);
        record_text(set, "aliases", aliases);
        record_int(set, "layers", m->layers);
        record_int(set, "hidden_size", m->hidden_size);
        record_text(set, "attention", collcalc_attention_name(m->attention));
        record_int(set, "heads", m->heads);
        record_int(set, "kv_heads", m->kv_heads);
        record_int(set, "head_dim", m->head_dim);
        record_int(set, "ffn_intermediate", m->ffn_intermediate);
        record_int(set, "vocab_size", m->vocab_size);
        record_number(set, "params_billion", m->params_billion);
        record_int(set, "routed_experts", m->routed_experts);
        record_int(set, "shared_experts", m->shared_experts);
        record_int(set, "experts_per_token", m->experts_per_token);
        record_int(set, "expert_groups", m->expert_groups);
        record_int(set, "top_groups", m->top_groups);
        record_int(set, "moe_intermediate", m->moe_intermediate);
        record_int(set, "dense_layers", m->dense_layers);
        record_int(set, "kv_lora_rank", m->kv_lora_rank);
        record_int(set, "rope_head_dim", m->rope_head_dim);
        record_int(set, "q_lora_rank", m->q_lora_rank);
        record_int(set, "sliding_window_layers", m->sliding_window_layers);
        record_int(set, "sliding_window_tokens", m->sliding_window_tokens);
        record_text(set, "description", m->description);
        record_text(set, "shape_source", m->shape_source);
        record_text(set, "moe_source", m->moe_source);
        record_text(set, "attention_source", m->attention_source);
    }
}
