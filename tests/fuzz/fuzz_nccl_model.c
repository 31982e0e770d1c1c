/* libFuzzer target for the NCCL-faithful model (src/nccl): the bytes describe
 * hardware (SM, CPU, GPUs per node, nodes, NVLink links, NVSwitch/NVLS, P2P,
 * PCIe, NICs, transport, launch), derived into a system as the platform
 * presets are (collcalc_nccl_system_derive), plus an NCCL release of the
 * built-in constants, masks, corrections, a function and a size. Every
 * prediction is either refused with one printable line or gives finite,
 * non-negative figures with exactly one selected candidate whenever any can
 * run (the available one NCCL's own time ranks first), and the same call
 * gives the same answer twice. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int condition)
{
    if (!condition)
        abort();
}

static void require_one_line(const collcalc_diag *diag)
{
    require(memchr(diag->message, '\0', sizeof diag->message) != NULL);
    require(diag->message[0] != '\0');
    for (const char *p = diag->message; *p != '\0'; p++)
        require((unsigned char)*p >= 0x20);
}

typedef struct {
    const uint8_t *data;
    size_t size, pos;
} bytes;

static unsigned take(bytes *b)
{
    return b->pos < b->size ? b->data[b->pos++] : 0u;
}

static const int sms[] = {70, 75, 80, 86, 89, 90, 100};

static bool finite_nonneg(double x)
{
    return isfinite(x) && x >= 0;
}

static collcalc_nccl_constants_table *constants;
static collcalc_nccl_prediction prediction, again;

static void check_prediction(const collcalc_nccl_system *system, const collcalc_nccl_prediction *p,
                             uint64_t size_bytes)
{
    require(p->size_bytes == size_bytes);
    bool p2p = p->func == COLLCALC_NCCL_ALLTOALL || p->func == COLLCALC_NCCL_SENDRECV;
    require(p->candidate_count == (p2p ? COLLCALC_NCCL_MAX_CANDIDATES
                                       : COLLCALC_NCCL_MAX_CANDIDATES - 1));
    require(finite_nonneg(p->busbw_factor));
    int selected = 0, runnable = 0;
    for (size_t i = 0; i < p->candidate_count; i++) {
        const collcalc_nccl_candidate *c = &p->candidates[i];
        if (i + 1 < COLLCALC_NCCL_MAX_CANDIDATES) {
            require((size_t)c->algo == i / COLLCALC_NCCL_NUM_PROTOS); /* algo-major */
            require((size_t)c->proto == i % COLLCALC_NCCL_NUM_PROTOS);
            require(!p2p || c->unavailable == COLLCALC_NCCL_NOT_FOR_FUNC);
        } else {
            require(c->algo == COLLCALC_NCCL_P2P && c->proto == COLLCALC_NCCL_SIMPLE);
        }
        require(finite_nonneg(c->bus_bw_GBps) && finite_nonneg(c->alg_bw_GBps));
        require(finite_nonneg(c->latency_us) && finite_nonneg(c->nccl_time_us));
        require(finite_nonneg(c->latency_pred_us) && finite_nonneg(c->bandwidth_pred_us));
        require(finite_nonneg(c->time_us));
        require(finite_nonneg(c->algbw_GBps) && finite_nonneg(c->busbw_GBps));
        require(c->channels >= 0 && c->channels_run >= 0);
        if (c->unavailable == COLLCALC_NCCL_OK)
            runnable++;
        if (c->selected) {
            selected++;
            require(c->unavailable == COLLCALC_NCCL_OK);
            require((size_t)p->selected == i);
        }
    }
    require(selected <= 1);
    if (system->nranks == 1) {
        require(p->selected == -1 && selected == 0); /* a single rank moves nothing */
        return;
    }
    require(runnable > 0); /* else the call was UNSUPPORTED */
    require(selected == 1 && p->selected >= 0 &&
            (size_t)p->selected < COLLCALC_NCCL_MAX_CANDIDATES);
    const collcalc_nccl_candidate *best = collcalc_nccl_selected(p);
    require(best == &p->candidates[p->selected]);
    /* NCCL's tuner: the minimum of its own time, ties to the lower index. */
    for (size_t i = 0; i < p->candidate_count; i++) {
        const collcalc_nccl_candidate *c = &p->candidates[i];
        if (c->unavailable != COLLCALC_NCCL_OK)
            continue;
        require(best->nccl_time_us <= c->nccl_time_us);
        if (i < (size_t)p->selected)
            require(c->nccl_time_us > best->nccl_time_us);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    collcalc_diag diag;
    if (constants == NULL && collcalc_nccl_constants_builtin(&constants, &diag) != COLLCALC_OK)
        abort();
    bytes b = {data, size, 0};

    collcalc_nccl_hardware hw;
    collcalc_nccl_hardware_init(&hw);
    unsigned sm = take(&b);
    hw.sm = sm < 250 ? sms[sm % (sizeof sms / sizeof sms[0])] : (int)sm; /* a few unknown SMs */
    hw.cpu = (collcalc_nccl_cpu)(take(&b) % 5);
    unsigned gpn = take(&b);
    hw.gpus_per_node = gpn < 250 ? 1 + (int)(gpn % 72) : (int)gpn - 252; /* -2 .. 3 */
    unsigned nodes = take(&b);
    hw.nodes = nodes < 240 ? 1 + (int)(nodes % 64) : (1 << (nodes - 240)); /* up to 32,768 */
    hw.nvlink_links_per_gpu = (int)(take(&b) % 20);
    unsigned flags = take(&b);
    hw.nvswitch = flags & 1u;
    hw.nvls = flags & 2u;
    hw.p2p = flags & 4u;
    static const double pci[] = {12, 24, 48, 0, 6};
    hw.pci_bw_GBps = pci[(flags >> 3) % 5];
    hw.nics_per_node = (int)(take(&b) % 17);
    unsigned nic = take(&b);
    hw.nic_GBps = nic < 250 ? 1.0 + nic : (nic == 250 ? 0.0 : -1.0);
    hw.transport = (collcalc_nccl_transport)(take(&b) % COLLCALC_NCCL_NUM_TRANSPORTS);
    hw.launch = (collcalc_nccl_launch)(take(&b) & 1u);

    collcalc_nccl_system system;
    diag.message[0] = '\0';
    if (collcalc_nccl_system_derive(&hw, &system, &diag) != COLLCALC_OK) {
        require_one_line(&diag);
        return 0;
    }
    unsigned extra = take(&b);
    system.cuda_graph = extra & 1u;
    system.symmetric = extra & 2u;
    system.pat_enable = extra & 4u;
    system.collnet_support = extra & 8u;

    size_t versions = collcalc_nccl_constants_count(constants);
    require(versions >= 1);
    const collcalc_nccl_constants *c = collcalc_nccl_constants_at(constants, take(&b) % versions);
    require(c != NULL);

    collcalc_nccl_options options;
    collcalc_nccl_options_init(&options);
    unsigned forcing = take(&b);
    if (forcing & 1u) /* NCCL_ALGO / NCCL_PROTO masks, possibly empty */
        for (int f = 0; f < COLLCALC_NCCL_NUM_FUNCS; f++) {
            options.algo_mask[f] = take(&b) & 0x7fu;
            options.proto_mask[f] = take(&b) & 0x7u;
        }
    if (forcing & 2u)
        options.corrections = take(&b) & COLLCALC_NCCL_FIX_ALL;
    if (forcing & 4u)
        options.refined = collcalc_nccl_constants_at(constants, versions - 1);

    collcalc_nccl_func func = (collcalc_nccl_func)(take(&b) % COLLCALC_NCCL_NUM_ALL_FUNCS);
    unsigned shift = take(&b);
    uint64_t size_bytes = shift < 200 ? (((uint64_t)1 << (shift % 41)) + take(&b)) : shift - 200u;

    diag.message[0] = '\0';
    collcalc_status status =
        collcalc_nccl_predict(&system, c, &options, func, size_bytes, &prediction, &diag);
    if (status != COLLCALC_OK) {
        require(status == COLLCALC_ERR_INVALID || status == COLLCALC_ERR_UNSUPPORTED);
        require_one_line(&diag);
        return 0;
    }
    require(prediction.func == func);
    check_prediction(&system, &prediction, size_bytes);
    if (size_bytes == 0)
        for (size_t i = 0; i < prediction.candidate_count; i++)
            require(prediction.candidates[i].time_us == 0); /* NCCL returns at once */

    /* Deterministic: the same call, the same answer. */
    require(collcalc_nccl_predict(&system, c, &options, func, size_bytes, &again, &diag) ==
            COLLCALC_OK);
    require(again.selected == prediction.selected);
    if (prediction.selected >= 0)
        require(again.candidates[again.selected].time_us ==
                prediction.candidates[prediction.selected].time_us);
    return 0;
}
