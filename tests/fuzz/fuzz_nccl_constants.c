/* libFuzzer target for the NCCL constants loader (data/nccl.json): any bytes
 * either load into a table whose every figure is in range, versions
 * ascending, usable by the model, or are refused with one clean line. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed invariant aborts, which fails the fuzzer run and the replay test alike. */
static void require(int condition)
{
    if (!condition)
        abort();
}

static void require_range(const double *values, size_t count, double min, double max)
{
    for (size_t i = 0; i < count; i++)
        require(isfinite(values[i]) && values[i] >= min && values[i] <= max);
}

static void check_constants(const collcalc_nccl_constants *k)
{
    require(memchr(k->version, '\0', sizeof k->version) != NULL);
    require(memchr(k->source, '\0', sizeof k->source) != NULL);
    require(k->version_code >= 10000 && k->version_code <= 99999);
    require_range(&k->base_latency_us[0][0], sizeof k->base_latency_us / sizeof(double), 0, 1000);
    require_range(&k->hw_latency_us[0][0][0], sizeof k->hw_latency_us / sizeof(double), 0, 1000);
    require_range(&k->ll_max_bw_GBps[0][0], sizeof k->ll_max_bw_GBps / sizeof(double), 0, 1e4);
    require_range(k->nvls_efficiency, COLLCALC_NCCL_NUM_ARCHS, 0, 1);
    require_range(&k->tree_correction[0][0], sizeof k->tree_correction / sizeof(double), 0.01, 1);
    require_range(k->ring_plateau_factor, 2, 1, 10);
    require(k->pat_factor >= 0 && k->pat_factor <= 1);
    require((unsigned)k->nvls_model <= COLLCALC_NCCL_NVLS_MODEL_2_28);
}

/* The model on a loaded table: finite numbers for a 2 x 8 H100 system. */
static void check_model(const collcalc_nccl_constants *k)
{
    collcalc_nccl_hardware hw;
    collcalc_nccl_hardware_init(&hw);
    hw.nodes = 2;
    collcalc_nccl_system system;
    require(collcalc_nccl_system_derive(&hw, &system, NULL) == COLLCALC_OK);
    collcalc_nccl_options options;
    collcalc_nccl_options_init(&options);
    collcalc_nccl_prediction p;
    for (int f = 0; f < COLLCALC_NCCL_NUM_FUNCS; f++) {
        collcalc_status status =
            collcalc_nccl_predict(&system, k, &options, (collcalc_nccl_func)f, 1 << 20, &p, NULL);
        /* All-zero bandwidth caps can leave nothing to run: that is refused. */
        require(status == COLLCALC_OK || status == COLLCALC_ERR_UNSUPPORTED);
        if (status != COLLCALC_OK)
            continue;
        for (size_t i = 0; i < p.candidate_count; i++)
            require(isfinite(p.candidates[i].time_us) && p.candidates[i].time_us >= 0.0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    collcalc_diag diag;
    diag.message[0] = '\0';
    collcalc_nccl_constants_table *table = NULL;
    collcalc_status status = collcalc_nccl_constants_parse((const char *)data, size, &table, &diag);
    if (status != COLLCALC_OK) {
        require(status == COLLCALC_ERR_INVALID);
        require(table == NULL);
        require(diag.message[0] != '\0');
        for (const char *p = diag.message; *p != '\0'; p++)
            require((unsigned char)*p >= 0x20); /* one printable line */
        return 0;
    }
    size_t count = collcalc_nccl_constants_count(table);
    require(count >= 1 && count <= 16);
    for (size_t i = 0; i < count; i++) {
        const collcalc_nccl_constants *k = collcalc_nccl_constants_at(table, i);
        require(k != NULL);
        check_constants(k);
        if (i > 0)
            require(k->version_code > collcalc_nccl_constants_at(table, i - 1)->version_code);
    }
    require(collcalc_nccl_constants_at(table, count) == NULL);
    const collcalc_nccl_constants *newest = NULL;
    require(collcalc_nccl_constants_find(table, NULL, &newest, NULL) == COLLCALC_OK);
    check_model(newest);
    collcalc_nccl_constants_table_free(table);
    return 0;
}
