/* libFuzzer target for the nvidia-smi topo -m reader: any bytes either parse
 * into a topo whose every count, index, string and figure is in bounds, or
 * are refused with one printable diagnostic line. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed invariant aborts, which fails the fuzzer run and the replay test alike. */
static void require(int condition)
{
    if (!condition)
        abort();
}

static void require_text(const char *text, size_t cap)
{
    require(memchr(text, '\0', cap) != NULL);
}

static void require_one_line(const char *text)
{
    require(text[0] != '\0');
    for (const char *p = text; *p != '\0'; p++)
        require((unsigned char)*p >= 0x20 && *p != 0x7f);
}

static int has_code(const collcalc_findings *findings, const char *code)
{
    for (size_t i = 0; i < findings->count; i++)
        if (strcmp(findings->items[i].code, code) == 0)
            return 1;
    return 0;
}

static void check_findings(const collcalc_findings *findings)
{
    require(findings->count <= COLLCALC_FINDINGS_MAX);
    for (size_t i = 0; i < findings->count; i++) {
        const collcalc_finding *f = &findings->items[i];
        require(f->severity >= COLLCALC_SEVERITY_INFO && f->severity <= COLLCALC_SEVERITY_ERROR);
        require(i == 0 || findings->items[i - 1].severity >= f->severity); /* sorted */
        require_text(f->code, sizeof f->code);
        require_text(f->message, sizeof f->message);
        require_text(f->next_step, sizeof f->next_step);
        require(f->code[0] != '\0' && f->message[0] != '\0');
        require(f->line_count >= 0 && f->line_count <= COLLCALC_FINDING_LINES_MAX);
        for (int k = 0; k < f->line_count; k++)
            require(f->lines[k] > 0 && (k == 0 || f->lines[k - 1] < f->lines[k]));
    }
}

static void check_device(const collcalc_topo *topo, int i)
{
    const collcalc_topo_device *d = &topo->devices[i];
    require_text(d->name, sizeof d->name);
    require(d->name[0] != '\0');
    require_text(d->legend_name, sizeof d->legend_name);
    require_text(d->cpu_affinity, sizeof d->cpu_affinity);
    require(d->numa_node >= -1 && d->numa_node <= 4095);
    require(d->gpu_numa_id >= -1 && d->gpu_numa_id <= 4095);
    require(isfinite(d->nvlink_GBps) && d->nvlink_GBps >= 0 && d->nvlink_GBps <= 1e6);
    if (d->kind == COLLCALC_TOPO_NIC) {
        require(d->island == -1);
        return;
    }
    require(d->kind == COLLCALC_TOPO_GPU);
    require(d->island >= 0 && d->island < topo->island_count);
    require(d->nearest_nic_count >= 0 && d->nearest_nic_count <= topo->nic_count);
    for (int k = 0; k < d->nearest_nic_count && k < COLLCALC_TOPO_NEAREST_MAX; k++) {
        int nic = d->nearest_nics[k];
        require(nic >= 0 && nic < topo->device_count);
        require(topo->devices[nic].kind == COLLCALC_TOPO_NIC);
        require(topo->cells[i][nic].connection == d->nearest_nic_class);
    }
}

static void check_cells(const collcalc_topo *topo)
{
    for (int i = 0; i < topo->device_count; i++) {
        for (int j = 0; j < topo->device_count; j++) {
            const collcalc_topo_cell *cell = &topo->cells[i][j];
            require(cell->connection >= COLLCALC_TOPO_SELF && cell->connection <= COLLCALC_TOPO_SYS);
            require((cell->connection == COLLCALC_TOPO_NVLINK) == (cell->bonds > 0));
            require(cell->bonds >= 0 && cell->bonds <= 18);
            if (i < topo->rows_parsed)
                require((cell->connection == COLLCALC_TOPO_SELF) == (i == j));
            double GBps = collcalc_topo_pair_GBps(topo, i, j);
            require(isfinite(GBps) && GBps >= 0 && GBps <= 1e4);
        }
    }
}

static void check_topo(const collcalc_topo *topo)
{
    require(topo->device_count >= 1 && topo->device_count <= COLLCALC_TOPO_DEVICES_MAX);
    require(topo->gpu_count >= 1 && topo->gpu_count + topo->nic_count == topo->device_count);
    require(topo->rows_parsed >= topo->gpu_count && topo->rows_parsed <= topo->device_count);
    require(topo->truncated == (topo->rows_parsed < topo->device_count));
    require(topo->header_line >= 1);
    require(topo->island_count >= 1 && topo->island_count <= topo->gpu_count);
    require(isfinite(topo->nvlink_per_link_GBps) && topo->nvlink_per_link_GBps > 0);
    require(topo->pcie_gen >= 3 && topo->pcie_gen <= 6);
    require_text(topo->generation_note, sizeof topo->generation_note);
    int members = 0;
    for (int k = 0; k < topo->island_count; k++) {
        const collcalc_topo_island *island = &topo->islands[k];
        require(island->gpu_count >= 1);
        require(k == 0 || topo->islands[k - 1].gpu_count >= island->gpu_count);
        require(island->min_bonds <= island->max_bonds);
        require(isfinite(island->per_gpu_GBps) && island->per_gpu_GBps >= 0);
        members += island->gpu_count;
    }
    require(members == topo->gpu_count);
    for (int i = 0; i < topo->device_count; i++)
        check_device(topo, i);
    check_cells(topo);
    check_findings(&topo->advice);
    require(has_code(&topo->advice, "topo-gpu-generation"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const gpus[] = {NULL, "sm90", "sm100", "a100", "unknown"};
    collcalc_topo_options options;
    collcalc_topo_options_init(&options);
    options.gpu = gpus[size % 5];
    collcalc_diag diag;
    diag.message[0] = '\0';
    collcalc_topo *topo = (collcalc_topo *)&diag;
    collcalc_status status = collcalc_topo_parse((const char *)data, size, &options, &topo, &diag);
    if (status != COLLCALC_OK) {
        require(status == COLLCALC_ERR_INVALID);
        require(topo == NULL);
        require_text(diag.message, sizeof diag.message);
        require_one_line(diag.message);
        return 0;
    }
    require(topo != NULL);
    check_topo(topo);
    collcalc_topo_free(topo);
    return 0;
}
