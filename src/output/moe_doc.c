/* moe's document (moe_doc.h). */
#include "moe_doc.h"

#include "findings_doc.h"
#include "human.h"

static const record_column MOE_COLUMNS[] = {
    {"ep", "EP", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nodes", "nodes", FIELD_INT, COLUMN_MACHINE, NULL},
    {"gpus_per_node", "GPUs/node", FIELD_INT, COLUMN_MACHINE, NULL},
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

    char a[32], b[32], c[32], d[32];
    doc_text(doc, "%s MoE layer, EP %d over %d node%s x %d GPUs, %llu tokens per rank, %s mode",
             q->model->name, r->ep, r->nodes, r->nodes == 1 ? "" : "s", r->gpus_per_node,
             (unsigned long long)q->tokens, collcalc_moe_mode_name(q->mode));
    doc_text(doc, "bytes per selected (token, expert): dispatch %llu (%s), combine %llu (%s)",
             (unsigned long long)r->dispatch_bytes_per_selection,
             collcalc_dtype_name(q->dispatch_dtype),
             (unsigned long long)r->combine_bytes_per_selection,
             collcalc_dtype_name(q->combine_dtype));
    doc_text(doc, "selections stay on the GPU %.1f%%, cross NVLink %.1f%%, cross the network %.1f%%",
             100.0 * r->share_local, 100.0 * r->share_nvlink, 100.0 * r->share_network);
    human_bytes(a, sizeof a, r->dispatch_bytes_per_gpu);
    human_time_us(b, sizeof b, r->dispatch_us);
    human_bytes(c, sizeof c, r->combine_bytes_per_gpu);
    human_time_us(d, sizeof d, r->combine_us);
    doc_text(doc, "dispatch %s per GPU in %s; combine %s in %s (busiest GPU, imbalance %.3g from %s)",
             a, b, c, d, r->imbalance, r->imbalance_from);
    if (q->redundant_experts > 0)
        doc_text(doc, "%d slots for %d experts: expert weight memory +%.1f%%; max/mean load %.3g "
                      "static -> %.3g rebalanced",
                 r->slots, q->model->routed_experts, 100.0 * r->expert_memory_increase,
                 r->imbalance_static, r->imbalance_rebalanced);
    human_bytes(a, sizeof a, r->a2a_bytes_per_token);
    human_bytes(b, sizeof b, r->allreduce_bytes_per_gpu);
    doc_text(doc, "all-to-all keeps %.3g GPUs busy per token (%s moved); scattering the experts and "
                  "all-reducing would involve all %d GPUs (%s per GPU)",
             r->a2a_gpus_busy_per_token, a, r->allreduce_gpus, b);
    if (r->nodes > 1)
        doc_text(doc, "DeepEP would print %.1f / %.1f GB/s \"RDMA\" (dispatch / combine: bytes "
                      "counted per destination node, its own included, %.2f nodes per token); "
                      "the NIC share carries %.1f / %.1f GB/s (%.2f remote nodes)",
                 r->logical_dispatch_GBps, r->logical_combine_GBps, r->nodes_touched_per_token,
                 r->wire_dispatch_GBps, r->wire_combine_GBps, r->remote_nodes_per_token);
    else
        doc_text(doc, "DeepEP would print %.1f / %.1f GB/s NVLink (dispatch / combine: bytes "
                      "received from the other GPUs)",
                 r->logical_dispatch_GBps, r->logical_combine_GBps);
    collcalc_moe_edge edge;
    collcalc_diag edge_diag;
    if (collcalc_moe_domain_edge(q, &edge, &edge_diag) == COLLCALC_OK && edge.inside >= 2 &&
        edge.outside > 0) {
        human_time_us(a, sizeof a, edge.inside_dispatch_us + edge.inside_combine_us);
        human_time_us(b, sizeof b, edge.outside_dispatch_us + edge.outside_combine_us);
        doc_text(doc, "leaving the NVLink domain (%d GPUs): EP %d dispatch + combine %s, EP %d %s "
                      "(%.0f %% of selections on the network, %.2gx the time)",
                 edge.domain_gpus, edge.inside, a, edge.outside, b,
                 100.0 * edge.outside_share_network,
                 (edge.outside_dispatch_us + edge.outside_combine_us) /
                     (edge.inside_dispatch_us + edge.inside_combine_us));
    }
    record_set *set = doc_records(doc, &MOE_SCHEMA);
    records_machine_only(set);
    record_begin(set);
    record_int(set, "ep", r->ep);
    record_int(set, "nodes", r->nodes);
    record_int(set, "gpus_per_node", r->gpus_per_node);
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
    if (r->split_batch > 1 || q->expert_compute_us > 0) {
        doc_text(doc, "%s", "");
        human_time_us(a, sizeof a, r->serial_us);
        human_time_us(b, sizeof b, r->timeline_us);
        human_time_us(c, sizeof c, r->hidden_us);
        doc_text(doc, "timeline (split %d): %s end to end vs %s serial; %s hidden", r->split_batch,
                 b, a, c);
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
    if (r->findings.count > 0) {
        doc_text(doc, "%s", "");
        findings_add(doc, &r->findings);
    }
    return doc;
}
