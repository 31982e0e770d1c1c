/* A topo matrix as the intra link of a collective (topo_cluster.h). */
#include "collcalc/topo_cluster.h"

#include <stdio.h>

collcalc_status collcalc_topo_intra_link(const collcalc_topo *topo, double nvlink_alpha_us,
                                         double pcie_alpha_us, collcalc_link_params *out,
                                         collcalc_diag *diag)
{
    collcalc_link_params_init(out);
    if (topo == NULL || topo->gpu_count < 2)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "the topology has fewer than 2 GPUs: no GPU-to-GPU path");
    if (topo->island_count >= 1 && topo->islands[0].gpu_count == topo->gpu_count &&
        topo->islands[0].switched) {
        out->bw_GBps = topo->islands[0].per_gpu_GBps;
        out->alpha_us = nvlink_alpha_us;
        out->nvlink = true;
        snprintf(out->name, sizeof out->name, "topo:nv%d", topo->islands[0].min_bonds);
        return COLLCALC_OK;
    }
    /* The slowest GPU pair decides: a collective over every GPU crosses it. */
    int slow_row = -1, slow_column = -1;
    double slowest = 0.0;
    for (int r = 0; r < topo->device_count; r++)
        for (int c = r + 1; c < topo->device_count; c++) {
            if (topo->devices[r].kind != COLLCALC_TOPO_GPU ||
                topo->devices[c].kind != COLLCALC_TOPO_GPU)
                continue;
            double bw = collcalc_topo_pair_GBps(topo, r, c);
            if (slow_row < 0 || bw < slowest) {
                slowest = bw;
                slow_row = r;
                slow_column = c;
            }
        }
    if (slow_row < 0 || !(slowest > 0.0))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "no GPU pair of the topology has a usable bandwidth");
    const collcalc_topo_cell *cell = &topo->cells[slow_row][slow_column];
    bool nvlink = cell->connection == COLLCALC_TOPO_NVLINK;
    out->bw_GBps = slowest;
    out->alpha_us = nvlink ? nvlink_alpha_us : pcie_alpha_us;
    out->nvlink = false;
    if (nvlink)
        snprintf(out->name, sizeof out->name, "topo:nv%d", cell->bonds);
    else
        snprintf(out->name, sizeof out->name, "topo:pcie");
    return COLLCALC_OK;
}
