/* libFuzzer target for the model-shape loader (src/data/models.c): any bytes
 * either load into a table whose entries keep the schema's invariants (and
 * overlay cleanly on the built-in table, and give finite KV figures) or are
 * refused with one printable line. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/models.h"
#include "collcalc/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int condition)
{
    if (!condition)
        abort();
}

static void require_one_line(const collcalc_diag *diag)
{
    require(diag->message[0] != '\0');
    for (const char *p = diag->message; *p != '\0'; p++)
        require((unsigned char)*p >= 0x20);
}

static void check_model(const collcalc_model_table *table, const collcalc_model_shape *m)
{
    require(memchr(m->name, '\0', COLLCALC_NAME_MAX) != NULL && m->name[0] != '\0');
    require(collcalc_model_table_find(table, m->name) == m);
    require(m->layers >= 1 && m->hidden_size >= 1 && m->heads >= 1);
    require(m->kv_heads >= 1 && m->kv_heads <= m->heads && m->head_dim >= 1);
    if (m->attention == COLLCALC_ATTENTION_GQA)
        require(m->heads % m->kv_heads == 0);
    else
        require(m->kv_lora_rank >= 1);
    require(isfinite(m->params_billion) && m->params_billion > 0);
    require(m->dense_layers >= 0 && m->dense_layers <= m->layers);
    if (collcalc_model_is_moe(m)) {
        require(m->experts_per_token <= m->routed_experts);
        require(m->top_groups <= m->expert_groups);
        require(m->routed_experts % m->expert_groups == 0);
        require(collcalc_model_moe_layers(m) >= 1);
    }
    require(m->sliding_window_layers <= m->layers);
    /* KV sizing never crashes and stays finite or refuses cleanly. */
    collcalc_kv_query q;
    collcalc_kv_query_init(&q);
    q.model = m;
    q.tokens = 131072;
    collcalc_kv_result r;
    collcalc_diag diag;
    diag.message[0] = '\0';
    if (collcalc_kv_evaluate(&q, &r, &diag) == COLLCALC_OK)
        require(r.kv_bytes_total >= r.kv_bytes_per_layer_token);
    else
        require_one_line(&diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    collcalc_diag diag;
    diag.message[0] = '\0';
    collcalc_model_table *table = NULL;
    collcalc_status status =
        collcalc_model_table_parse((const char *)data, size, "fuzz.json", &table, &diag);
    if (status != COLLCALC_OK) {
        require(status == COLLCALC_ERR_INVALID);
        require(table == NULL);
        require_one_line(&diag);
        return 0;
    }
    size_t count = collcalc_model_table_count(table);
    require(count >= 1 && count <= COLLCALC_MODELS_MAX);
    for (size_t i = 0; i < count; i++)
        check_model(table, collcalc_model_table_at(table, i));
    require(collcalc_model_table_at(table, count) == NULL);

    collcalc_model_table *builtin = NULL;
    require(collcalc_model_table_builtin(&builtin, &diag) == COLLCALC_OK);
    collcalc_model_table *merged = NULL;
    diag.message[0] = '\0';
    if (collcalc_model_table_overlay(builtin, table, &merged, &diag) == COLLCALC_OK) {
        require(collcalc_model_table_count(merged) >= collcalc_model_table_count(builtin));
        for (size_t i = 0; i < count; i++)
            require(collcalc_model_table_find(merged, collcalc_model_table_at(table, i)->name) !=
                    NULL);
    } else {
        require(merged == NULL);
        require_one_line(&diag);
    }
    collcalc_model_table_free(merged);
    collcalc_model_table_free(builtin);
    collcalc_model_table_free(table);
    return 0;
}
