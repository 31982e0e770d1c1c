/* diagnose's document (diagnose_doc.h). */
#include "diagnose_doc.h"

#include <stdio.h>

#include "findings_doc.h"

static const record_column HOP_COLUMNS[] = {
    {"transport", "transport", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"hops", "hops", FIELD_INT, COLUMN_BOTH, NULL},
    {"gdr_hops", "GDR", FIELD_INT, COLUMN_BOTH, NULL},
    {"example", "as printed", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"first_line", "first line", FIELD_INT, COLUMN_BOTH, NULL},
};
static const record_schema HOP_SCHEMA = {"transports", 5, HOP_COLUMNS};

static void query_fact(document *doc, const char *key, const collcalc_nccl_fact *fact)
{
    if (fact->line > 0)
        doc_query_text(doc, key, fact->text);
    else
        doc_query_null(doc, key);
}

void diagnose_doc(document *doc, const collcalc_nccl_log *log, const collcalc_findings *findings,
                  const char *shown)
{
    doc_query_text(doc, "file", shown);
    doc_query_int(doc, "lines", log->lines);
    doc_query_int(doc, "nccl_lines", log->nccl_lines);
    query_fact(doc, "nccl_version", &log->version);
    query_fact(doc, "cuda_driver", &log->cuda_driver);
    query_fact(doc, "network", &log->network);
    query_fact(doc, "net_plugin", &log->net_plugin);
    doc_query_int(doc, "nranks", log->nranks);
    doc_query_int(doc, "nnodes", log->nnodes);
    doc_query_int(doc, "local_ranks", log->local_ranks);
    doc_query_int(doc, "hosts", log->host_total);
    doc_query_int(doc, "channels", log->coll_channels > 0 ? log->coll_channels : log->ring_channels);
    doc_query_int(doc, "nvls_channels", log->nvls_channels);
    if (log->all_direct_p2p >= 0)
        doc_query_bool(doc, "all_direct_p2p", log->all_direct_p2p == 1);
    else
        doc_query_null(doc, "all_direct_p2p");

    char layout[96] = "(nodes not in the log)";
    if (log->nnodes > 0)
        snprintf(layout, sizeof layout, "on %d node%s (%d per node)", log->nnodes,
                 log->nnodes == 1 ? "" : "s", log->local_ranks);
    doc_text(doc, "%s %s, %d rank%s %s, %s%ld host%s seen; %ld of %ld lines from NCCL",
             log->rccl ? "RCCL" : "NCCL",
             log->version.line > 0 ? log->version.text : "(version not in the log)", log->nranks,
             log->nranks == 1 ? "" : "s", layout, log->host_total_capped ? "more than " : "",
             log->host_total, log->host_total == 1 ? "" : "s", log->nccl_lines, log->lines);
    doc_text(doc, "network: %s; channels: %d collective, %d NVLS",
             log->network.line > 0 ? log->network.text : "(not in the log)",
             log->coll_channels > 0 ? log->coll_channels : log->ring_channels, log->nvls_channels);
    doc_text(doc, "%s", "");
    record_set *hops = doc_records(doc, &HOP_SCHEMA);
    for (int k = 0; k < COLLCALC_NCCL_HOP_KINDS; k++) {
        const collcalc_nccl_hops *h = &log->hops[k];
        if (h->count == 0)
            continue;
        record_begin(hops);
        record_text(hops, "transport", collcalc_nccl_hop_kind_name((collcalc_nccl_hop_kind)k));
        record_int(hops, "hops", h->count);
        record_int(hops, "gdr_hops", h->gdr_count);
        record_text(hops, "example", h->example);
        if (h->line_count > 0)
            record_int(hops, "first_line", h->lines[0]);
    }
    doc_text(doc, "%s", "");
    findings_add(doc, findings);
}
