/* moe's document (moe_doc.h). */
#include "moe_doc.h"

#include "findings_doc.h"
#include "human.h"

static const record_column MOE_COLUMNS[] = {
    {"ep", "EP", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nodes", "nodes", FIELD_INT, COLUMN_MACHINE, NULL},
    {"gpus_per_node", "GPUs/node", FIELD_INT, COLUMN_MACHINE, NULL},
    {"gpus_in_last_node", "GPUs on the last node", FIELD_INT, COLUMN_MACHINE, NULL},
    {"busiest_node_gpus", "GPUs on the busiest GPU's node", FIELD_INT, COLUMN_MACHINE, NULL},
    {"fabric", "fabric", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"mode", "mode", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"slots", "slots", FIELD_INT, COLUMN_MACHINE, NULL},
    {"slots_per_gpu", "slots/GPU", FIELD_INT, COLUMN_MACHINE, NULL},
    {"expert_memory_increase", "expert memory +", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"dispatch_bytes_per_selection", "dispatch B/sel", FIELD_INT, COLUMN_MACHINE, NULL},
    {"combine_bytes_per_selection", "combine B/sel", FIELD_INT, COLUMN_MACHINE, NULL},
    {"selections_per_gpu", "selections/GPU", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"share_local", "local", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"share_nvlink", "NVLink", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"share_network", "network", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"share_network_full", "network (full node)", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"share_network_last", "network (last node)", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"nodes_touched_per_token", "nodes/token", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"remote_nodes_per_token", "remote nodes/token", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"bytes_local", "local bytes", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"bytes_nvlink", "NVLink bytes", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"bytes_network", "network bytes", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"dispatch_bytes_per_gpu", "dispatch bytes", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"combine_bytes_per_gpu", "combine bytes", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"dispatch_us", "dispatch", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"dispatch_latency_us", "dispatch latency", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"dispatch_bandwidth_us", "dispatch bandwidth", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"combine_us", "combine", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"combine_latency_us", "combine latency", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"combine_bandwidth_us", "combine bandwidth", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"imbalance", "imbalance", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"imbalance_static", "imbalance (static)", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"imbalance_rebalanced", "imbalance (rebalanced)", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"imbalance_from", "imbalance from", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"a2a_gpus_busy_per_token", "a2a GPUs/token", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"a2a_bytes_per_token", "a2a bytes/token", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"allreduce_gpus", "all-reduce GPUs", FIELD_INT, COLUMN_MACHINE, NULL},
    {"allreduce_bytes_per_gpu", "all-reduce bytes", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"allreduce_us", "all-reduce", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"serial_us", "serial", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"timeline_us", "timeline", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"hidden_us", "hidden", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"deepep_counts", "DeepEP counts", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"deepep_dispatch_GBps", "DeepEP dispatch", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"deepep_combine_GBps", "DeepEP combine", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"nic_dispatch_GBps", "NIC dispatch", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"nic_combine_GBps", "NIC combine", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"domain_gpus", "domain GPUs", FIELD_INT, COLUMN_MACHINE, NULL},
    {"domain_inside_ep", "EP inside", FIELD_INT, COLUMN_MACHINE, NULL},
    {"domain_inside_us", "inside", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"domain_inside_share_network", "inside network", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"domain_outside_ep", "EP beyond", FIELD_INT, COLUMN_MACHINE, NULL},
    {"domain_outside_us", "beyond", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"domain_outside_share_network", "beyond network", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"domain_outside_over_inside", "beyond / inside", FIELD_RATIO, COLUMN_MACHINE, NULL},
};
static const record_schema MOE_SCHEMA = {"results", sizeof MOE_COLUMNS / sizeof MOE_COLUMNS[0],
                                         MOE_COLUMNS};

static const record_column EVENT_COLUMNS[] = {
    {"label", "step", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"half", "half", FIELD_INT, COLUMN_MACHINE, NULL},
    {"communication", "comm", FIELD_BOOL, COLUMN_BOTH, NULL},
    {"start_us", "start", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"end_us", "end", FIELD_TIME_US, COLUMN_BOTH, NULL},
};
static const record_schema EVENT_SCHEMA = {"timeline", 5, EVENT_COLUMNS};

/* "1 node x 8 GPUs", "4 nodes x 8 GPUs", "2 nodes (24 + 8 GPUs)",
 * "3 nodes (2 x 8 + 4 GPUs)". */
static const char *layout_text(char *buffer, size_t size, int nodes, int g, int last)
{
    if (last == g || nodes < 2)
        snprintf(buffer, size, "%d node%s x %d GPU%s", nodes, nodes == 1 ? "" : "s", g,
                 g == 1 ? "" : "s");
    else if (nodes == 2)
        snprintf(buffer, size, "2 nodes (%d + %d GPUs)", g, last);
    else
        snprintf(buffer, size, "%d nodes (%d x %d + %d GPUs)", nodes, nodes - 1, g, last);
    return buffer;
}

/* DeepEP runs on NVIDIA GPUs with NVLink between a node's GPUs (its README's
 * requirements); on AMD and on PCIe-only nodes the same accounting is named
 * as such (ROCm's EP library is MORI-EP, github.com/ROCm/mori; doc/MODEL.md
 * §20.5). */
static bool pcie_only(const collcalc_moe_query *q, const collcalc_moe_result *r)
{
    return !r->amd && !q->cluster.intra.nvlink;
}

static const char *printer(const collcalc_moe_query *q, const collcalc_moe_result *r)
{
    if (r->amd)
        return "DeepEP's accounting (DeepEP runs on NVIDIA GPUs; ROCm's EP library is MORI-EP) "
               "would print";
    if (pcie_only(q, r))
        return "DeepEP's accounting (DeepEP's README requires NVLink between a node's GPUs) "
               "would print";
    return r->deepep_refuses && r->nodes > 1
               ? "DeepEP's accounting (DeepEP cannot run this EP size) would print"
               : "DeepEP would print";
}

document *moe_doc(const char *command, const collcalc_moe_query *q, const collcalc_moe_result *r)
{
    document *doc = doc_new(command);
    doc_query_text(doc, "model", q->model->name);
    doc_query_int(doc, "ep", q->ep);
    doc_query_int(doc, "tokens", (long long)q->tokens);
    doc_query_text(doc, "mode", collcalc_moe_mode_name(q->mode));
    doc_query_text(doc, "dispatch_dtype", collcalc_dtype_name(q->dispatch_dtype));
    doc_query_text(doc, "combine_dtype", collcalc_dtype_name(q->combine_dtype));
    doc_query_int(doc, "gpus_per_node", q->cluster.gpus_per_node);
    doc_query_text(doc, "intra_link", q->cluster.intra.name);
    doc_query_text(doc, "inter_link", q->cluster.inter.name);
    doc_query_int(doc, "redundant_experts", q->redundant_experts);
    doc_query_int(doc, "split_batch", q->split_batch);

    char a[48], b[32], c[32], d[32];
    doc_text(doc, "%s MoE layer, EP %d over %s, %llu token%s per rank, %s mode", q->model->name,
             r->ep, layout_text(a, sizeof a, r->nodes, r->gpus_per_node, r->gpus_in_last_node),
             (unsigned long long)q->tokens, q->tokens == 1 ? "" : "s",
             collcalc_moe_mode_name(q->mode));
    doc_text(doc, "bytes per selected (token, expert): dispatch %llu (%s), combine %llu (%s)",
             (unsigned long long)r->dispatch_bytes_per_selection,
             collcalc_dtype_name(q->dispatch_dtype),
             (unsigned long long)r->combine_bytes_per_selection,
             collcalc_dtype_name(q->combine_dtype));
    char note[400];
    if (r->gpus_in_last_node < r->gpus_per_node && r->busiest_node_gpus < r->gpus_per_node)
        snprintf(note, sizeof note, " (a GPU of the %d-GPU node; %.1f%% on the full nodes)",
                 r->gpus_in_last_node, 100.0 * r->share_network_full);
    else if (r->gpus_in_last_node < r->gpus_per_node)
        snprintf(note, sizeof note, " (a GPU of a full node; %.1f%% on the %d-GPU node)",
                 100.0 * r->share_network_last, r->gpus_in_last_node);
    else
        note[0] = '\0';
    doc_text(doc, "selections stay on the GPU %.1f%%, cross %s %.1f%%, cross the network %.1f%%%s",
             100.0 * r->share_local, r->fabric, 100.0 * r->share_nvlink,
             100.0 * r->share_network, note);
    human_bytes(a, sizeof a, r->dispatch_bytes_per_gpu);
    human_time_us(b, sizeof b, r->dispatch_us);
    human_bytes(c, sizeof c, r->combine_bytes_per_gpu);
    human_time_us(d, sizeof d, r->combine_us);
    char ratio[32];
    human_ratio(ratio, sizeof ratio, r->imbalance);
    doc_text(doc, "dispatch %s received per GPU in %s; combine %s sent in %s (busiest GPU, "
                  "imbalance %s from %s)",
             a, b, c, d, ratio, r->imbalance_from);
    if (q->redundant_experts > 0) {
        human_ratio(a, sizeof a, r->imbalance_static);
        human_ratio(b, sizeof b, r->imbalance_rebalanced);
        doc_text(doc, "%d slots for %d experts: expert weight memory +%.1f%%; max/mean load %s "
                      "static -> %s rebalanced",
                 r->slots, q->model->routed_experts, 100.0 * r->expert_memory_increase, a, b);
    }
    human_bytes(a, sizeof a, r->a2a_bytes_per_token);
    human_bytes(b, sizeof b, r->allreduce_bytes_per_gpu);
    doc_text(doc, "all-to-all keeps %.3g GPUs busy per token (%s moved); scattering the experts "
                  "and all-reducing would involve all %d GPUs (%s per GPU)",
             r->a2a_gpus_busy_per_token, a, r->allreduce_gpus, b); /* at most top-k: no e */
    /* With a hot GPU the two figures belong to different ranks: DeepEP's
     * counts each rank's own tokens (the same on every rank, over the time
     * the hottest GPU sets), the NIC share is the hottest GPU's. Label both. */
    bool hot = r->imbalance > 1.0 + 1e-9;
    const char *rank = hot ? "every rank's own tokens over the hottest GPU's time, " : "";
    const char *nic = hot ? "the hottest GPU's NIC share" : "the NIC share";
    if (q->mode == COLLCALC_MOE_LOW_LATENCY && r->nodes > 1)
        doc_text(doc, "%s %.1f / %.1f GB/s (dispatch / combine: %sbytes counted per selection, "
                      "its own GPU's and node's included); %s carries %.1f / %.1f "
                      "GB/s (%.1f%% of the selections)",
                 printer(q, r), r->logical_dispatch_GBps, r->logical_combine_GBps, rank, nic,
                 r->wire_dispatch_GBps, r->wire_combine_GBps, 100.0 * r->share_network);
    else if (q->mode == COLLCALC_MOE_LOW_LATENCY)
        doc_text(doc, "%s %.1f / %.1f GB/s (dispatch / combine: bytes counted per selection, "
                      "its own GPU's included)",
                 printer(q, r), r->logical_dispatch_GBps, r->logical_combine_GBps);
    else if (r->nodes > 1)
        doc_text(doc, "%s %.1f / %.1f GB/s \"RDMA\" (dispatch / combine: %sbytes counted per "
                      "destination node, its own included, %.2f nodes per token); %s "
                      "carries %.1f / %.1f GB/s (%.2f remote nodes)",
                 printer(q, r), r->logical_dispatch_GBps, r->logical_combine_GBps, rank,
                 r->nodes_touched_per_token, nic, r->wire_dispatch_GBps, r->wire_combine_GBps,
                 r->remote_nodes_per_token);
    else
        doc_text(doc, "%s %.1f / %.1f GB/s %s (dispatch / combine: bytes received from the other "
                      "GPUs)",
                 printer(q, r), r->logical_dispatch_GBps, r->logical_combine_GBps, r->fabric);
    collcalc_moe_edge edge;
    collcalc_diag edge_diag;
    bool has_edge = collcalc_moe_domain_edge(q, &edge, &edge_diag) == COLLCALC_OK &&
                    edge.inside >= 2 && edge.outside > 0;
    double inside_us = edge.inside_dispatch_us + edge.inside_combine_us;
    double outside_us = edge.outside_dispatch_us + edge.outside_combine_us;
    if (has_edge) {
        human_time_us(a, sizeof a, inside_us);
        human_time_us(b, sizeof b, outside_us);
        human_ratio(c, sizeof c, outside_us / inside_us);
        char layout[48] = "";
        if (edge.outside_gpus_in_last_node < edge.domain_gpus)
            snprintf(layout, sizeof layout, " (%d + %d GPUs)", edge.domain_gpus,
                     edge.outside_gpus_in_last_node);
        char domain[48];
        if (pcie_only(q, r))
            snprintf(domain, sizeof domain, "the node (%d GPUs on %s)", edge.domain_gpus,
                     r->fabric);
        else
            snprintf(domain, sizeof domain, "the %s domain (%d GPUs)", r->fabric,
                     edge.domain_gpus);
        doc_text(doc, "leaving %s: EP %d dispatch + combine %s, EP %d%s %s "
                      "(%.0f %% of the busiest GPU's selections on the network, %s the time)",
                 domain, edge.inside, a, edge.outside,
                 edge.outside_nodes == 2 ? layout : "", b, 100.0 * edge.outside_share_network, c);
    }
    record_set *set = doc_records(doc, &MOE_SCHEMA);
    records_machine_only(set);
    record_begin(set);
    record_int(set, "ep", r->ep);
    record_int(set, "nodes", r->nodes);
    record_int(set, "gpus_per_node", r->gpus_per_node);
    record_int(set, "gpus_in_last_node", r->gpus_in_last_node);
    record_int(set, "busiest_node_gpus", r->busiest_node_gpus);
    record_text(set, "fabric", r->fabric);
    record_text(set, "mode", collcalc_moe_mode_name(q->mode));
    record_int(set, "slots", r->slots);
    record_int(set, "slots_per_gpu", r->slots_per_gpu);
    record_number(set, "expert_memory_increase", r->expert_memory_increase);
    record_int(set, "dispatch_bytes_per_selection", (long long)r->dispatch_bytes_per_selection);
    record_int(set, "combine_bytes_per_selection", (long long)r->combine_bytes_per_selection);
    record_number(set, "selections_per_gpu", r->selections_per_gpu);
    record_number(set, "share_local", r->share_local);
    record_number(set, "share_nvlink", r->share_nvlink);
    record_number(set, "share_network", r->share_network);
    record_number(set, "share_network_full", r->share_network_full);
    record_number(set, "share_network_last", r->share_network_last);
    record_number(set, "nodes_touched_per_token", r->nodes_touched_per_token);
    record_number(set, "remote_nodes_per_token", r->remote_nodes_per_token);
    record_number(set, "bytes_local", r->bytes_local);
    record_number(set, "bytes_nvlink", r->bytes_nvlink);
    record_number(set, "bytes_network", r->bytes_network);
    record_number(set, "dispatch_bytes_per_gpu", r->dispatch_bytes_per_gpu);
    record_number(set, "combine_bytes_per_gpu", r->combine_bytes_per_gpu);
    record_number(set, "dispatch_us", r->dispatch_us);
    record_number(set, "dispatch_latency_us", r->dispatch_latency_us);
    record_number(set, "dispatch_bandwidth_us", r->dispatch_bandwidth_us);
    record_number(set, "combine_us", r->combine_us);
    record_number(set, "combine_latency_us", r->combine_latency_us);
    record_number(set, "combine_bandwidth_us", r->combine_bandwidth_us);
    record_number(set, "imbalance", r->imbalance);
    record_number(set, "imbalance_static", r->imbalance_static);
    record_number(set, "imbalance_rebalanced", r->imbalance_rebalanced);
    record_text(set, "imbalance_from", r->imbalance_from);
    record_number(set, "a2a_gpus_busy_per_token", r->a2a_gpus_busy_per_token);
    record_number(set, "a2a_bytes_per_token", r->a2a_bytes_per_token);
    record_int(set, "allreduce_gpus", r->allreduce_gpus);
    record_number(set, "allreduce_bytes_per_gpu", r->allreduce_bytes_per_gpu);
    record_number(set, "allreduce_us", r->allreduce_us);
    record_number(set, "serial_us", r->serial_us);
    record_number(set, "timeline_us", r->timeline_us);
    record_number(set, "hidden_us", r->hidden_us);
    record_text(set, "deepep_counts", q->mode == COLLCALC_MOE_LOW_LATENCY ? "selections"
                                      : r->nodes > 1                      ? "rdma"
                                                                          : "scale-up");
    record_number(set, "deepep_dispatch_GBps", r->logical_dispatch_GBps);
    record_number(set, "deepep_combine_GBps", r->logical_combine_GBps);
    if (r->nodes > 1) {
        record_number(set, "nic_dispatch_GBps", r->wire_dispatch_GBps);
        record_number(set, "nic_combine_GBps", r->wire_combine_GBps);
    }
    if (has_edge) {
        record_int(set, "domain_gpus", edge.domain_gpus);
        record_int(set, "domain_inside_ep", edge.inside);
        record_number(set, "domain_inside_us", inside_us);
        record_number(set, "domain_inside_share_network", edge.inside_share_network);
        record_int(set, "domain_outside_ep", edge.outside);
        record_number(set, "domain_outside_us", outside_us);
        record_number(set, "domain_outside_share_network", edge.outside_share_network);
        record_number(set, "domain_outside_over_inside", outside_us / inside_us);
    }
    if (r->split_batch > 1 || q->expert_compute_us > 0) {
        doc_text(doc, "%s", "");
        human_time_us(a, sizeof a, r->serial_us);
        human_time_us(b, sizeof b, r->timeline_us);
        if (r->timeline_us > r->serial_us) {
            human_time_us(c, sizeof c, r->timeline_us - r->serial_us);
            doc_text(doc, "timeline (split %d): %s end to end vs %s serial; %s slower (%s)",
                     r->split_batch, b, a, c,
                     q->expert_compute_us > 0
                         ? "the split's fixed costs exceed the compute it overlaps"
                         : "two-batch overlap hides communication only behind expert compute: "
                           "give --expert-time");
        } else {
            human_time_us(c, sizeof c, r->hidden_us);
            doc_text(doc, "timeline (split %d): %s end to end vs %s serial; %s hidden",
                     r->split_batch, b, a, c);
        }
    }
    record_set *events = doc_records(doc, &EVENT_SCHEMA);
    if (r->split_batch <= 1 && q->expert_compute_us <= 0)
        records_machine_only(events);
    for (size_t i = 0; i < r->event_count; i++) {
        record_begin(events);
        record_text(events, "label", r->events[i].label);
        record_int(events, "half", r->events[i].half);
        record_bool(events, "communication", r->events[i].communication);
        record_number(events, "start_us", r->events[i].start_us);
        record_number(events, "end_us", r->events[i].end_us);
    }
    if (r->findings.count > 0)
        doc_text(doc, "%s", "");
    findings_add(doc, &r->findings); /* none: an empty list for scripts */
    return doc;
}
