/* The paths a KV transfer can take (collcalc/answer.h): the NICs read from
 * a topology matrix (Mooncake's "4 NICs slower than 1" case is a GPU whose
 * far NICs are reached across the CPU, doc/published.md) and the host link
 * without GPUDirect RDMA. */
#include "collcalc/answer.h"

#include "collcalc/topo.h"

collcalc_status collcalc_kv_topo_nics(const collcalc_topo *topo, collcalc_kv_query *q,
                                      collcalc_diag *diag)
{
    q->near_nics = q->far_nics = 0;
    q->far_nic_GBps = 0;
    /* The file's content, not the option: a data error naming the file. */
    if (topo->nic_count == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "lists no NICs: kv --topo needs the prefill node's matrix with "
                                  "its NICs (NIC0, NIC1, ... in nvidia-smi topo -m)");
    for (int d = 0; d < topo->device_count; d++) {
        if (topo->devices[d].kind != COLLCALC_TOPO_NIC)
            continue;
        collcalc_topo_class c = topo->cells[0][d].connection;
        if (c == COLLCALC_TOPO_PIX || c == COLLCALC_TOPO_PXB) {
            q->near_nics++;
        } else {
            double rate = collcalc_topo_pair_GBps(topo, 0, d);
            q->far_nics++;
            if (q->far_nic_GBps == 0 || rate < q->far_nic_GBps)
                q->far_nic_GBps = rate;
        }
    }
    if (q->near_nics == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "GPU0 has no NIC at PCIe distance (PIX or PXB)");
    /* The matrix is a prefill node: its NICs are the node's, the near ones
     * a GPU's own (what NCCL binds). */
    q->nics_per_node = topo->nic_count;
    q->nics_per_gpu = q->near_nics;
    return COLLCALC_OK;
}

collcalc_status collcalc_kv_topo_text(const char *text, size_t length, collcalc_kv_query *q,
                                      collcalc_diag *diag)
{
    collcalc_topo *topo = NULL;
    collcalc_status status = collcalc_topo_parse(text, length, NULL, &topo, diag);
    if (status == COLLCALC_OK)
        status = collcalc_kv_topo_nics(topo, q, diag);
    collcalc_topo_free(topo);
    return status;
}

collcalc_status collcalc_kv_host_link(const collcalc_platform *platform,
                                      const collcalc_link_table *links, collcalc_kv_query *q,
                                      collcalc_diag *diag)
{
    const collcalc_link *host = collcalc_link_table_find(links, platform->host_link);
    if (host == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "platform: the platform '%.40s' names no host link", platform->name);
    collcalc_link_params_from_link(host, COLLCALC_BW_PER_DIRECTION, &q->host);
    q->gpus_per_host = platform->gpus_per_host; /* the CPU and NICs kernel TCP uses */
    return COLLCALC_OK;
}
