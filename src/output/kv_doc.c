/* kv's document (kv_doc.h). */
#include "kv_doc.h"

#include "findings_doc.h"
#include "human.h"

static const record_column KV_COLUMNS[] = {
    {"kv_bytes_per_token", "per token", FIELD_INT, COLUMN_BOTH, NULL},
    {"kv_bytes_total", "total (unique)", FIELD_INT, COLUMN_BOTH, NULL},
    {"kv_bytes_per_shard", "per shard", FIELD_INT, COLUMN_BOTH, NULL},
    {"kv_bytes_transferred", "shipped", FIELD_INT, COLUMN_BOTH, NULL},
    {"replication", "replicas", FIELD_INT, COLUMN_BOTH, NULL},
    {"kv_heads_per_shard", "KV heads/shard", FIELD_INT, COLUMN_MACHINE, NULL},
    {"window_layers", "window layers", FIELD_INT, COLUMN_MACHINE, NULL},
    {"path", "path", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"senders", "senders", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nodes", "nodes", FIELD_INT, COLUMN_MACHINE, NULL},
    {"per_host", "nodes are hosts", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"node_nics", "NICs per node", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nics_per_sender", "NICs per sender", FIELD_INT, COLUMN_MACHINE, NULL},
    {"near_nics", "near NICs", FIELD_INT, COLUMN_MACHINE, NULL},
    {"far_nics", "far NICs", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nics_used", "NICs", FIELD_INT, COLUMN_MACHINE, NULL},
    {"bytes_per_nic", "per NIC", FIELD_INT, COLUMN_MACHINE, NULL},
    {"block_bytes", "block", FIELD_INT, COLUMN_MACHINE, NULL},
    {"blocks_per_nic", "blocks per NIC", FIELD_INT, COLUMN_MACHINE, NULL},
    {"line_per_nic_GBps", "line per NIC", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"line_GBps", "line rate", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"rate_per_nic_GBps", "rate per NIC", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"receivers", "receivers", FIELD_INT, COLUMN_MACHINE, NULL},
    {"bytes_per_receiver", "per receiver", FIELD_INT, COLUMN_MACHINE, NULL},
    {"receive_us", "receive", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"staged", "through host memory", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"staging_us", "staging", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"staging_exposed_us", "staging exposed", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"bandwidth_us", "bandwidth", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"block_overhead_us", "block overhead", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"setup_us", "setup", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"transfer_us", "transfer", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"effective_GBps", "effective", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"backend", "backend", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"backend_efficiency", "efficiency", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"backend_source", "backend source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"fits_budget", "fits budget", FIELD_BOOL, COLUMN_MACHINE, NULL},
};
static const record_schema KV_SCHEMA = {"results", sizeof KV_COLUMNS / sizeof KV_COLUMNS[0],
                                        KV_COLUMNS};

document *kv_doc(const char *command, const collcalc_kv_query *q, const collcalc_kv_result *r)
{
    document *doc = doc_new(command);
    doc_query_text(doc, "model", q->model->name);
    doc_query_int(doc, "tokens", (long long)q->tokens);
    doc_query_text(doc, "dtype", collcalc_dtype_name(q->dtype));
    doc_query_int(doc, "tp", q->tp);
    doc_query_int(doc, "pp", q->pp);
    doc_query_bool(doc, "dedup", q->dedup);
    doc_query_int(doc, "decode_tp", q->decode_tp > 0 ? q->decode_tp : q->tp);
    if (q->with_transfer) {
        /* The link the KV goes over: the NVLink port or the NIC. */
        const collcalc_link_params *link = q->same_domain ? &q->intra : &q->nic;
        doc_query_text(doc, "kv_path", q->same_domain ? "nvlink" : "network");
        doc_query_text(doc, "link", link->name);
        doc_query_number(doc, "link_bw_GBps", FIELD_GBPS, link->bw_GBps);
        doc_query_int(doc, "nics_per_node", q->nics_per_node);
        doc_query_bool(doc, "no_gdr", q->no_gdr);
        doc_query_text(doc, "backend", collcalc_kv_backend_name(q->backend));
        if (q->budget_us > 0)
            doc_query_number(doc, "budget_us", FIELD_TIME_US, q->budget_us);
    }
    char a[32], b[32], c[32], d[32];
    human_bytes(a, sizeof a, (double)r->kv_bytes_per_token);
    doc_text(doc, "%s, %s KV cache: %llu bytes (%s) per token (%s%s)", q->model->name,
             collcalc_dtype_name(q->dtype), (unsigned long long)r->kv_bytes_per_token, a,
             collcalc_attention_name(q->model->attention),
             q->model->sliding_window_layers > 0 ? ", sliding-window layers capped" : "");
    human_bytes(a, sizeof a, (double)r->kv_bytes_total);
    human_bytes(b, sizeof b, (double)r->kv_bytes_per_shard);
    human_bytes(c, sizeof c, (double)r->kv_bytes_transferred);
    doc_text(doc, "%llu tokens: %llu bytes (%s) unique; %s per shard on TP %d x PP %d; %s shipped%s",
             (unsigned long long)q->tokens, (unsigned long long)r->kv_bytes_total, a, b, q->tp, q->pp,
             c, r->replication > 1 ? (q->dedup ? " (replicas deduplicated)" : " (replicas included)")
                                   : "");
    record_set *set = doc_records(doc, &KV_SCHEMA);
    records_machine_only(set);
    record_begin(set);
    record_int(set, "kv_bytes_per_token", (long long)r->kv_bytes_per_token);
    record_int(set, "kv_bytes_total", (long long)r->kv_bytes_total);
    record_int(set, "kv_bytes_per_shard", (long long)r->kv_bytes_per_shard);
    record_int(set, "kv_bytes_transferred", (long long)r->kv_bytes_transferred);
    record_int(set, "replication", r->replication);
    record_int(set, "kv_heads_per_shard", r->kv_heads_per_shard);
    record_int(set, "window_layers", r->window_layers);
    if (q->with_transfer) {
        record_text(set, "path", q->same_domain ? "nvlink" : "network");
        record_int(set, "senders", r->senders);
        record_int(set, "nodes", r->nodes);
        record_bool(set, "per_host", r->per_host);
        record_int(set, "node_nics", r->node_nics);
        record_int(set, "nics_per_sender", r->nics_per_sender);
        record_int(set, "near_nics", q->near_nics);
        record_int(set, "far_nics", q->far_nic_GBps > 0 ? q->far_nics : 0);
        record_int(set, "nics_used", r->nics_used);
        record_int(set, "bytes_per_nic", (long long)r->bytes_per_nic);
        record_int(set, "block_bytes", (long long)r->block_bytes);
        record_int(set, "blocks_per_nic", (long long)r->blocks_per_nic);
        record_number(set, "line_per_nic_GBps", r->nics_used > 0 ? r->line_GBps / r->nics_used : 0);
        record_number(set, "line_GBps", r->line_GBps);
        record_number(set, "rate_per_nic_GBps", r->rate_per_nic_GBps);
        record_int(set, "receivers", r->receivers);
        record_int(set, "bytes_per_receiver", (long long)r->bytes_per_receiver);
        record_number(set, "receive_us", r->receive_us);
        record_bool(set, "staged", r->staged);
        record_number(set, "staging_us", r->staging_us);
        record_number(set, "staging_exposed_us", r->staging_exposed_us);
        record_number(set, "bandwidth_us", r->bandwidth_us);
        record_number(set, "block_overhead_us", r->block_overhead_us);
        record_number(set, "setup_us", r->setup_us);
        record_number(set, "transfer_us", r->transfer_us);
        record_number(set, "effective_GBps", r->effective_GBps);
        record_text(set, "backend", collcalc_kv_backend_name(q->backend));
        record_number(set, "backend_efficiency", r->backend_params.efficiency);
        record_text(set, "backend_source", r->backend_params.source);
        if (r->has_budget)
            record_bool(set, "fits_budget", r->fits_budget);
        human_time_us(a, sizeof a, r->transfer_us);
        human_bandwidth_GBps(b, sizeof b, r->effective_GBps);
        human_bytes(c, sizeof c, (double)r->bytes_per_nic);
        human_bandwidth_GBps(d, sizeof d, r->rate_per_nic_GBps);
        doc_text(doc, "%s", "");
        if (q->same_domain)
            doc_text(doc, "transfer over NVLink (%s): prefill and decode share the NVLink domain, "
                          "each of the %d prefill GPUs on its own port (%s backend): %s per GPU "
                          "at %s; %s in all, effective %s", q->intra.name, r->senders,
                     collcalc_kv_backend_name(q->backend), c, d, a, b);
        else
            doc_text(doc, "transfer over %d x %s (%s backend): %s per NIC at %s; %s in all, "
                          "effective %s",
                     r->nics_used, q->nic.name, collcalc_kv_backend_name(q->backend), c, d, a, b);
        if (!q->same_domain) {
            const collcalc_kv_backend_params *bp = &r->backend_params;
            /* More senders than NICs on a node: they share them. */
            int node_nics = r->nodes > 0 ? r->nics_used / r->nodes : r->nics_used;
            int node_senders = r->nodes > 0 ? (r->senders + r->nodes - 1) / r->nodes : r->senders;
            /* Bound backends: per NIC, the GPUs bound to it (3/3/2 of 8 on 3
             * NICs: "2-3"); kernel TCP: any GPU's bytes on any NIC. */
            char sharing[64] = "";
            long bound = (long)node_senders * r->nics_per_sender;
            if (node_nics > 0 && bound > node_nics && bp->host_staged)
                snprintf(sharing, sizeof sharing, " (%d GPUs share the %d NICs)", node_senders,
                         node_nics);
            else if (node_nics > 0 && bound > node_nics && bound % node_nics != 0)
                snprintf(sharing, sizeof sharing, " (%ld-%ld GPUs share each NIC)",
                         bound / node_nics, bound / node_nics + 1);
            else if (node_nics > 0 && bound > node_nics)
                snprintf(sharing, sizeof sharing, " (%ld GPUs share each NIC)", bound / node_nics);
            char how[160];
            int far = q->far_nic_GBps > 0 ? q->far_nics : 0;
            if (bp->multi_nic && q->near_nics > 0 && far > 0)
                snprintf(how, sizeof how, "striped at equal shares over %d NIC%s at PCIe distance "
                         "of the GPU and %d beyond it (--topo): every share runs at the "
                         "farthest's rate", q->near_nics, q->near_nics == 1 ? "" : "s", far);
            else if (bp->multi_nic && q->near_nics > 0)
                snprintf(how, sizeof how, "striped over the NIC%s at PCIe distance of the GPU "
                         "(--topo)", q->near_nics == 1 ? "" : "s");
            else
                snprintf(how, sizeof how, "%s",
                         r->per_host     ? "through host memory any NIC of the host serves, "
                                           "the host's CPU caps the total"
                         : bp->host_staged ? "through host memory any NIC of the node serves, "
                                             "the node's CPU caps the total"
                         : bp->multi_nic ? "striped over the GPU's nearest NICs (its rail; "
                                           "--topo tells more)"
                         : bp->one_nic   ? "one NIC per GPU (UCX picks one device)"
                                         : "the GPU's own NIC(s), as NCCL binds them");
            char hosts[96] = "";
            if (r->per_host)
                snprintf(hosts, sizeof hosts, " (hosts of %d GPUs in the %d-GPU NVLink domain)",
                         q->gpus_per_host, q->gpus_per_node);
            doc_text(doc, "  %d sender%s on %d %s%s of %d NIC%s%s, %d NIC%s each%s: %s",
                     r->senders, r->senders == 1 ? "" : "s", r->nodes,
                     r->per_host ? "host" : "node", r->nodes == 1 ? "" : "s", r->node_nics,
                     r->node_nics == 1 ? "" : "s", hosts, r->nics_per_sender,
                     r->nics_per_sender == 1 ? "" : "s", sharing, how);
        }
        if (r->receivers != r->senders) {
            human_bytes(c, sizeof c, (double)r->bytes_per_receiver);
            human_time_us(d, sizeof d, r->receive_us);
            doc_text(doc, "  re-sharding TP %d -> TP %d: %d decode GPU%s %s, %s on the "
                          "busiest receiver", q->tp, q->decode_tp, r->receivers,
                     r->receivers == 1 ? " pulls" : "s each pull", c, d);
        }
        const char *why = r->backend_params.host_staged ? "kernel TCP" : "no GPUDirect RDMA";
        if (r->staged) {
            human_time_us(c, sizeof c, r->staging_us);
            human_time_us(d, sizeof d, r->staging_exposed_us);
            if (r->backend_params.staging_chunk_bytes > 0) {
                doc_text(doc, "  through host memory (%s): the copies over %s (%s, out and in) "
                              "run in %.0f KiB chunks pipelined with the wire: %s, %s added", why,
                         q->host.name, c, r->backend_params.staging_chunk_bytes / 1024,
                         r->staging_hidden ? "hidden behind it but for the pipeline fill"
                                           : "longer than the wire",
                         d);
            } else {
                doc_text(doc, "  through host memory (%s): the copies over %s come before and "
                              "after the wire (%s backend: copy, then send): %s added", why,
                         q->host.name, collcalc_kv_backend_name(q->backend), d);
            }
        } else if (r->backend_params.host_staged && !q->same_domain) {
            doc_text(doc, "  through host memory (%s): the GPU's copies are not counted (no "
                          "--platform names the host link)", why);
        }
        /* The terms of transfer_us, each once: the wire alone, then the
         * copies' exposed part (the line above says where it comes from). */
        char e[32], f[32], g[48];
        human_time_us(a, sizeof a, r->setup_us);
        human_time_us(b, sizeof b, r->block_overhead_us);
        human_time_us(c, sizeof c, r->backend_params.per_block_us);
        human_time_us(d, sizeof d, r->bandwidth_us);
        human_time_us(e, sizeof e, r->staging_exposed_us);
        human_time_us(f, sizeof f, r->transfer_us);
        snprintf(g, sizeof g, " + staging %s", e);
        doc_text(doc, "  setup %s + blocks %s (%llu x %s) + bandwidth %s%s = %s; %s-bound", a, b,
                 (unsigned long long)r->blocks_per_nic, c, d, r->staged ? g : "", f,
                 r->dominant == COLLCALC_DOMINANT_LATENCY ? "per-block cost" : "bandwidth");
    }
    if (r->findings.count > 0)
        doc_text(doc, "%s", "");
    findings_add(doc, &r->findings); /* none: an empty list for scripts */
    return doc;
}
