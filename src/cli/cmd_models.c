/* collcalc models: the model shapes the planners know (data/models.json,
 * plus --model-file). */
#include "commands.h"

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

int cmd_models(cli_context *ctx)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    const collcalc_model_table *table;
    const collcalc_model_shape *only = NULL;
    int code = cli_models(ctx, &table);
    if (code == 0 && arg_given(&ctx->args, OPT_MODEL))
        code = cli_model(ctx, &only);
    if (code != 0)
        return code;
    document *doc = doc_new(ctx->name);
    record_set *set = doc_records(doc, &MODEL_SCHEMA);
    for (size_t i = 0; i < collcalc_model_table_count(table); i++) {
        const collcalc_model_shape *m = collcalc_model_table_at(table, i);
        if (only != NULL && m != only)
            continue;
        char aliases[COLLCALC_MAX_ALIASES * COLLCALC_NAME_MAX + 8] = "";
        size_t used = 0;
        for (int k = 0; k < COLLCALC_MAX_ALIASES && used < sizeof aliases; k++)
            if (m->aliases[k][0] != '\0')
                used += (size_t)snprintf(aliases + used, sizeof aliases - used, "%s%s",
                                         used ? " " : "", m->aliases[k]);
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
    return cli_emit(ctx, doc);
}
