/* A parsed `nvidia-smi topo -m` as the intra-node link of a collective
 * query: what the GPUs of that box see when they all take part. */
#ifndef COLLCALC_TOPO_CLUSTER_H
#define COLLCALC_TOPO_CLUSTER_H

#include "collcalc/model.h"
#include "collcalc/status.h"
#include "collcalc/topo.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Fills *out with the path a collective over every GPU of the topo runs
 * at (doc/MODEL.md §18, "A topology as the intra link"): one NVSwitch island
 * holding all GPUs gives the island's per-GPU NVLink bandwidth and the
 * NVLink latency; anything else (several islands, direct NVLink bonds,
 * PCIe) gives the slowest GPU pair's bandwidth, since a ring or tree over
 * all GPUs crosses it, with the NVLink latency when that pair is NVLink and
 * the PCIe latency otherwise. nvlink is set only for the single NVSwitch
 * island (the one case NVLS can run on). The latencies are the caller's
 * (from its link table). name: "topo:nv18", "topo:nv4", "topo:pcie".
 * COLLCALC_ERR_INVALID for a topo without GPU pairs (fewer than 2 GPUs). */
collcalc_status collcalc_topo_intra_link(const collcalc_topo *topo, double nvlink_alpha_us,
                                         double pcie_alpha_us, collcalc_link_params *out,
                                         collcalc_diag *diag);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
