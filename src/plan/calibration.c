/* Calibration constants of the planners, each with its public source
 * (doc/MODEL.md §19.2 and §20.2 list them); [derived] marks arithmetic on
 * published figures, [estimate] a figure no published measurement pins
 * down.
 *
 * KV transfer engines (the Mooncake README and its EFA transport doc):
 *   Mooncake TE moves 40 GiB at 87 GB/s over 4 x 200G RoCE and 190 GB/s over
 *   8 x 400G (kvcache-ai/Mooncake README). Per NIC that is 21.75 and 23.75 GB/s: the 200G NICs run
 *   at 0.87 of line, the 400G NICs reach 23.75 GB/s per NIC. Three
 *   published 400G per-NIC figures disagree: 23.75 (that README, RoCE),
 *   37.75 (302 GB/s on 8 x 400G EFA, p6-b200, Mooncake EFA doc) and 42
 *   (one 400G NIC, GPU memory, kvcache-ai/Mooncake issue 813): the
 *   per-NIC cap is their median, 37.75 GB/s (the README's 2024 figure then
 *   reads 59 % high). So: efficiency 0.87, per-NIC cap 37.75. The EFA block sweep on
 *   16 x 200G (64 KB 97.11 GB/s .. 2 MB 366.87 GB/s, Mooncake EFA doc) sets the
 *   per-block issue cost: 64 KB at 97.11/16 = 6.07 GB/s per NIC is
 *   65,536 B / 6.07 GB/s = 10.8 us per block per NIC, of which 65,536 B /
 *   21.75 GB/s = 3.0 us is the wire: 7.8 us per block, paid in series with
 *   the wire (one request's blocks; doc/MODEL.md section 19.2). The sweep's
 *   larger blocks then read 12-35 % low: it keeps many requests in flight.
 *   TCP: 87 / 2.4 = 36 GB/s on 4 x 200G (0.36 of line) and 190 / 4.6 =
 *   41 GB/s on 8 x 400G (Mooncake README): CPU-bound, so efficiency 0.36 with a 41 GB/s
 *   per-node cap [derived].
 *   NIXL (UCX): nixlbench 42.6 GB/s on one 400G RoCE NIC = 0.85 (ai-dynamo/nixl PR 1647);
 *   one NIC per GPU unless UCX_NET_DEVICES lists more (openucx/ucx issue 11259).
 *   NCCL send/recv: 0.90 of line [estimate, NCCL p2p over NDR]; one call per
 *   block, each paying NCCL's Simple-protocol launch, baseLat 8.4 us
 *   (NCCL src/graph/tuning.cc); setup = baseLat 8.4 + hwLat NET 14 us = 22.4 us.
 *   Setup costs of NIXL / Mooncake / TCP (metadata exchange and completion
 *   notice per request) are [estimate]s: 50, 50, 100 us.
 *   Without GPUDirect RDMA (staging_chunk_bytes): NCCL's proxy stages
 *   through host buffers step by step, NCCL_BUFFSIZE 4 MiB over NCCL_STEPS
 *   8 = 512 KiB chunks pipelined with the network (NVIDIA/nccl docs, env
 *   NCCL_BUFFSIZE and NCCL_NET_GDR_LEVEL; src/include/device.h); UCX (NIXL)
 *   pipelines GPU memory through host fragments, UCX_RNDV_FRAG_SIZE host
 *   512 KiB (openucx/ucx, rndv pipeline protocol). Mooncake's RDMA transport
 *   moves GPU memory only with GPUDirect (kvcache-ai/Mooncake issue 708,
 *   zero-copy; vllm-project/vllm issue 54536: no automatic host staging),
 *   so the connector copies the KV to host memory first: 0, not pipelined.
 *   Kernel TCP always copies: Mooncake's tcp_transport.cpp copies each
 *   64 KiB buffer out of GPU memory, then writes it to the socket, whose
 *   kernel buffer lets the NIC send while the next one is copied: 64 KiB
 *   chunks, pipelined.
 *
 * DeepEP (the normal-kernel table of its README; docs/legacy.md for the
 * low-latency kernels) on H800 (NVLink 200 GB/s per direction in
 * data/links.json, ~160 achievable) with one CX7 400G (50 GB/s) per GPU:
 *   normal, NVLink: intranode EP8 153/158 GB/s; the model's NVLink bytes
 *   (selections x 7/8 x 7,408 B at 4,096 tokens) over 0.78 x 200 = 156 GB/s
 *   give 153.8 GB/s logical [derived].
 *   normal, RDMA: internode EP32/EP64 58/51 GB/s logical; with node-limited
 *   routing (4 of 8 groups) the physical RDMA share is 2.36/3.14 and
 *   3.5/4 of it, i.e. 43.6 and 44.6 GB/s per NIC = 0.88 of 50 [derived].
 *   EP16 (43 GB/s printed on 2 nodes) carries half that on the wire (the
 *   print counts the token's own node: DeepEP issue 51, printed = N/(N-1) x
 *   the NIC on 2 nodes): 21.5 GB/s to the one remote peer, where 3 and 7
 *   peers (EP32, EP64) fill the NIC. So a wire cap of 21.5 GB/s per remote
 *   peer node [derived]; an independent run agrees: H200 + CX7, 2 nodes,
 *   38.2-44.4 GB/s printed (DeepEP issue 493), i.e. 19-22 on the wire.
 *   normal base 20 us (layout + notify step) [estimate].
 *   low-latency: published 128-token latencies EP8 77/114 .. EP256
 *   194/360 us (DeepEP docs/legacy.md). Subtracting the byte terms at 0.92 x 50 GB/s
 *   RDMA and 0.78 x 200 GB/s NVLink leaves a flat ~33 us for dispatch and
 *   33 us + 0.1 us per peer for combine [derived]: a 15 us base (kernel
 *   launch, completion-flag round trips) plus 0.018 us per selection sent
 *   (GPU-initiated RDMA issue: 1,024 selections -> 18 us), and for combine
 *   0.1 us per peer whose flag it waits on. The model reproduces the 12
 *   published latencies within 7 % (tests/unit/test_moe.c pins them). */
#include "plan_internal.h"

#include <string.h>

static const char *const backend_words[] = {"nccl", "nixl", "mooncake", "tcp"};

static const collcalc_kv_backend_params backend_table[] = {
    {0.90, 0.0, 0.0, 8.4, 22.4, false, false, false, 524288.0,
     "efficiency 0.90 [estimate]; per-block and setup from NCCL Simple baseLat 8.4 us + NET "
     "hwLat 14 us (NVIDIA/nccl src/graph/tuning.cc); the GPU's own NIC(s), as NCCL binds them"},
    {0.85, 0.0, 0.0, 5.0, 50.0, false, false, true, 524288.0,
     "nixlbench 42.6 GB/s on 400G RoCE = 0.85 (ai-dynamo/nixl PR 1647); per-block 5 us and "
     "setup 50 us [estimate]; one NIC per GPU (openucx/ucx issue 11259)"},
    {0.87, 37.75, 0.0, 7.8, 50.0, true, false, false, 0.0,
     "87 GB/s on 4x200G = 0.87 (Mooncake README); per-NIC cap 37.75 GB/s, the median of three "
     "published 400G figures (23.75 README, 37.75 EFA doc p6-b200, 42 Mooncake issue 813); "
     "7.8 us per block: the EFA 64 KB point's 10.8 us per block per NIC less its 3.0 us on "
     "the wire (Mooncake EFA benchmark doc); setup 50 us "
     "[estimate]; striped over the NICs at PCIe distance of each GPU"},
    {0.36, 0.0, 41.0, 20.0, 100.0, false, true, false, 65536.0,
     "87/2.4 = 36 GB/s on 4x200G = 0.36, 190/4.6 = 41 GB/s per node on 8x400G (Mooncake "
     "README); "
     "per-block 20 us and setup 100 us [estimate]; through host memory: any NIC of the node, "
     "CPU-bound per node"},
};

const char *collcalc_kv_backend_name(collcalc_kv_backend backend)
{
    return plan_word_name(backend_words, PLAN_COUNT_OF(backend_words), (int)backend);
}

collcalc_status collcalc_kv_backend_from_name(const char *name, collcalc_kv_backend *out_backend,
                                              collcalc_diag *diag)
{
    size_t i = 0;
    collcalc_status status =
        plan_word_parse(backend_words, PLAN_COUNT_OF(backend_words), name, "KV backend",
                        "nccl, nixl, mooncake or tcp", out_backend != NULL ? &i : NULL, diag);
    if (status == COLLCALC_OK)
        *out_backend = (collcalc_kv_backend)i;
    return status;
}

collcalc_status collcalc_kv_backend_defaults(collcalc_kv_backend backend,
                                             collcalc_kv_backend_params *out_params,
                                             collcalc_diag *diag)
{
    int value = (int)backend;
    if (out_params == NULL || value < 0 || (size_t)value >= PLAN_COUNT_OF(backend_table))
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown KV backend %d", value);
    *out_params = backend_table[value];
    return COLLCALC_OK;
}

void collcalc_moe_calibration_init(collcalc_moe_calibration *calibration)
{
    if (calibration == NULL)
        return;
    calibration->normal_nvlink_efficiency = 0.78;
    calibration->normal_rdma_efficiency = 0.88;
    calibration->normal_base_us = 20.0;
    calibration->normal_rdma_peer_GBps = 21.5;
    calibration->ll_nvlink_efficiency = 0.78;
    calibration->ll_rdma_efficiency = 0.92;
    calibration->ll_base_us = 15.0;
    calibration->ll_per_message_us = 0.018;
    calibration->ll_combine_per_peer_us = 0.1;
    calibration->nvl_efficiency = 0.75;
    calibration->nvl_dispatch_floor_us = 17.7;
    calibration->nvl_combine_floor_us = 30.7;
    calibration->nvl_dispatch_start_us = 13.5;
    calibration->nvl_combine_start_us = 16.5;
}
