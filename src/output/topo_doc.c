/* topo's document (topo_doc.h). */
#include "topo_doc.h"

#include <stdio.h>
#include <string.h>

#include "findings_doc.h"
#include "human.h"

static const record_column ISLAND_COLUMNS[] = {
    {"island", "island", FIELD_INT, COLUMN_BOTH, NULL},
    {"gpus", "GPUs", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"gpu_count", "count", FIELD_INT, COLUMN_MACHINE, NULL},
    {"min_bonds", "links", FIELD_INT, COLUMN_BOTH, NULL}, /* NVLink or xGMI: neutral titles */
    {"max_bonds", "max links", FIELD_INT, COLUMN_MACHINE, NULL},
    {"all_to_all", "all-to-all", FIELD_BOOL, COLUMN_BOTH, NULL},
    {"nvswitch", "NVSwitch", FIELD_BOOL, COLUMN_BOTH, NULL},
    {"per_gpu_GBps", "per GPU", FIELD_GBPS, COLUMN_BOTH, NULL},
};
static const record_schema ISLAND_SCHEMA = {"islands", 8, ISLAND_COLUMNS};

static const record_column DEVICE_COLUMNS[] = {
    {"name", "device", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"kind", "kind", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"legend_name", "NIC device", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"island", "island", FIELD_INT, COLUMN_BOTH, NULL},
    {"nvlink_GBps", "GPU fabric", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"numa_node", "NUMA", FIELD_INT, COLUMN_BOTH, NULL},
    {"cpu_affinity", "CPUs", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"nearest_nics", "nearest NIC", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"nearest_nic_class", "via", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"line", "line", FIELD_INT, COLUMN_MACHINE, NULL},
};
static const record_schema DEVICE_SCHEMA = {"gpus", 10, DEVICE_COLUMNS};
static const record_schema NIC_SCHEMA = {"nics", 10, DEVICE_COLUMNS};

static const record_column PAIR_COLUMNS[] = {
    {"from", "from", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"to", "to", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"connection", "connection", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"bonds", "links", FIELD_INT, COLUMN_MACHINE, NULL},
    {"bw_GBps", "bandwidth", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"weight", "weight", FIELD_INT, COLUMN_MACHINE, NULL}, /* rocm-smi only */
    {"hops", "hops", FIELD_INT, COLUMN_MACHINE, NULL},     /* rocm-smi only */
};
static const record_schema PAIR_SCHEMA = {"matrix", 7, PAIR_COLUMNS};


/* "GPU0-7" for a contiguous run, else "GPU0,2,4". */
static void island_gpus(const collcalc_topo *topo, int island, char *buffer, size_t size)
{
    int members[COLLCALC_TOPO_DEVICES_MAX], count = 0;
    for (int d = 0; d < topo->device_count; d++)
        if (topo->devices[d].kind == COLLCALC_TOPO_GPU && topo->devices[d].island == island)
            members[count++] = d;
    bool contiguous = count > 1 && members[count - 1] - members[0] == count - 1;
    if (contiguous) {
        snprintf(buffer, size, "%s-%s", topo->devices[members[0]].name,
                 topo->devices[members[count - 1]].name + 3);
        return;
    }
    size_t used = 0;
    buffer[0] = '\0';
    for (int i = 0; i < count && used < size; i++)
        used += (size_t)snprintf(buffer + used, size - used, "%s%s", i ? "," : "",
                                 i ? topo->devices[members[i]].name + 3
                                   : topo->devices[members[i]].name);
}

/* The GPU-to-GPU grid for people: the connection words, as nvidia-smi. */
void topo_doc_grid(document *doc, const collcalc_topo *topo)
{
    char line[4096];
    size_t used = (size_t)snprintf(line, sizeof line, "%-6s", "");
    for (int c = 0; c < topo->device_count && used < sizeof line; c++)
        if (topo->devices[c].kind == COLLCALC_TOPO_GPU)
            used += (size_t)snprintf(line + used, sizeof line - used, " %5s",
                                     topo->devices[c].name);
    doc_text(doc, "%s", line);
    for (int r = 0; r < topo->device_count; r++) {
        if (topo->devices[r].kind != COLLCALC_TOPO_GPU)
            continue;
        used = (size_t)snprintf(line, sizeof line, "%-6s", topo->devices[r].name);
        for (int c = 0; c < topo->device_count && used < sizeof line; c++) {
            if (topo->devices[c].kind != COLLCALC_TOPO_GPU)
                continue;
            char cell[16];
            collcalc_topo_cell_name(topo, &topo->cells[r][c], cell, sizeof cell);
            used += (size_t)snprintf(line + used, sizeof line - used, " %5s", cell);
        }
        doc_text(doc, "%s", line);
    }
}

void topo_doc_summary_line(document *doc, const collcalc_topo *topo)
{
    char islands[512] = "";
    size_t used = 0;
    for (int i = 0; i < topo->island_count && used < sizeof islands; i++) {
        if (topo->islands[i].gpu_count < 2)
            continue;
        char gpus[256];
        island_gpus(topo, i, gpus, sizeof gpus);
        used += (size_t)snprintf(islands + used, sizeof islands - used, "%s{%s}",
                                 used > 0 ? ", " : "", gpus);
    }
    doc_text(doc, "%d GPU%s, %d NIC%s (%s, %s); %s islands: %s", topo->gpu_count,
             topo->gpu_count == 1 ? "" : "s", topo->nic_count, topo->nic_count == 1 ? "" : "s",
             topo->rocm_smi ? "rocm-smi --showtopo" : "nvidia-smi topo -m",
             collcalc_gpu_generation_name(topo->generation), collcalc_topo_fabric_name(topo),
             islands[0] != '\0' ? islands : "none");
}

void topo_doc(document *doc, const collcalc_topo *topo, const char *shown)
{
    doc_query_text(doc, "file", shown);
    doc_query_int(doc, "gpus", topo->gpu_count);
    doc_query_int(doc, "nics", topo->nic_count);
    doc_query_text(doc, "generation", collcalc_gpu_generation_name(topo->generation));
    doc_query_bool(doc, "generation_inferred", topo->generation_inferred != 0);
    doc_query_number(doc, "nvlink_per_link_GBps", FIELD_GBPS, topo->nvlink_per_link_GBps);
    doc_query_int(doc, "pcie_gen", topo->pcie_gen);
    doc_query_bool(doc, "truncated", topo->truncated != 0);
    doc_query_text(doc, "source", topo->rocm_smi ? "rocm-smi --showtopo" : "nvidia-smi topo -m");
    doc_query_text(doc, "gpu_link", collcalc_topo_fabric_name(topo));
    char per_link[32];
    human_bandwidth_GBps(per_link, sizeof per_link, topo->nvlink_per_link_GBps);
    char link_rates[96];
    if (topo->nvlink_pairs > 0)
        snprintf(link_rates, sizeof link_rates, "%s per %s per direction, PCIe Gen%d",
                 per_link, topo->rocm_smi ? "xGMI link" : "NVLink", topo->pcie_gen);
    else
        snprintf(link_rates, sizeof link_rates, "no NVLink, PCIe Gen%d", topo->pcie_gen);
    doc_text(doc, "%d GPU%s, %d NIC%s; GPU generation %s (%s): %s", topo->gpu_count,
             topo->gpu_count == 1 ? "" : "s", topo->nic_count, topo->nic_count == 1 ? "" : "s",
             collcalc_gpu_generation_name(topo->generation), link_rates, topo->generation_note);
    doc_text(doc, "%s", "");
    topo_doc_grid(doc, topo);
    doc_text(doc, "%s", "");
    if (topo->nvlink_pairs > 0)
        doc_text(doc, "%s islands:", collcalc_topo_fabric_name(topo));
    else
        doc_text(doc, "No NVLink: every GPU is an island of one.");
    record_set *islands = doc_records(doc, &ISLAND_SCHEMA);
    if (topo->nvlink_pairs == 0)
        records_machine_only(islands);
    for (int i = 0; i < topo->island_count; i++) {
        const collcalc_topo_island *island = &topo->islands[i];
        char gpus[512];
        island_gpus(topo, i, gpus, sizeof gpus);
        record_begin(islands);
        record_int(islands, "island", i);
        record_text(islands, "gpus", gpus);
        record_int(islands, "gpu_count", island->gpu_count);
        record_int(islands, "min_bonds", island->min_bonds);
        record_int(islands, "max_bonds", island->max_bonds);
        record_bool(islands, "all_to_all", island->all_to_all != 0);
        record_bool(islands, "nvswitch", island->switched != 0);
        record_number(islands, "per_gpu_GBps", island->per_gpu_GBps);
    }
    doc_text(doc, "%s", "");
    record_set *devices = doc_records(doc, &DEVICE_SCHEMA);
    for (int d = 0; d < topo->device_count; d++) {
        const collcalc_topo_device *dev = &topo->devices[d];
        if (dev->kind != COLLCALC_TOPO_GPU)
            continue;
        record_begin(devices);
        record_text(devices, "name", dev->name);
        record_text(devices, "kind", "gpu");
        record_int(devices, "line", dev->line);
        record_int(devices, "island", dev->island);
        record_number(devices, "nvlink_GBps", dev->nvlink_GBps);
        if (dev->numa_node >= 0)
            record_int(devices, "numa_node", dev->numa_node);
        record_text(devices, "cpu_affinity", dev->cpu_affinity);
        char nics[256] = "";
        size_t used = 0;
        int kept = dev->nearest_nic_count < COLLCALC_TOPO_NEAREST_MAX ? dev->nearest_nic_count
                                                                      : COLLCALC_TOPO_NEAREST_MAX;
        for (int k = 0; k < kept && used < sizeof nics; k++) {
            const collcalc_topo_device *nic = &topo->devices[dev->nearest_nics[k]];
            used += (size_t)snprintf(nics + used, sizeof nics - used, "%s%s%s%s%s", k ? "," : "",
                                     nic->name, nic->legend_name[0] ? " (" : "", nic->legend_name,
                                     nic->legend_name[0] ? ")" : "");
        }
        if (dev->nearest_nic_count > 0) {
            record_text(devices, "nearest_nics", nics);
            record_text(devices, "nearest_nic_class",
                        collcalc_topo_class_name(dev->nearest_nic_class));
        }
    }
    record_set *nic_set = doc_records(doc, &NIC_SCHEMA);
    records_machine_only(nic_set);
    for (int d = 0; d < topo->device_count; d++) {
        const collcalc_topo_device *dev = &topo->devices[d];
        if (dev->kind != COLLCALC_TOPO_NIC)
            continue;
        record_begin(nic_set);
        record_text(nic_set, "name", dev->name);
        record_text(nic_set, "kind", "nic");
        record_text(nic_set, "legend_name", dev->legend_name);
        record_int(nic_set, "line", dev->line);
    }
    record_set *pairs = doc_records(doc, &PAIR_SCHEMA);
    records_machine_only(pairs);
    for (int r = 0; r < topo->device_count; r++)
        for (int c = 0; c < topo->device_count; c++) {
            if (r == c)
                continue;
            char cell[16];
            collcalc_topo_cell_name(topo, &topo->cells[r][c], cell, sizeof cell);
            record_begin(pairs);
            record_text(pairs, "from", topo->devices[r].name);
            record_text(pairs, "to", topo->devices[c].name);
            record_text(pairs, "connection", cell);
            record_int(pairs, "bonds", topo->cells[r][c].bonds);
            record_number(pairs, "bw_GBps", collcalc_topo_pair_GBps(topo, r, c));
            if (topo->rocm_smi && topo->cells[r][c].weight > 0)
                record_int(pairs, "weight", topo->cells[r][c].weight);
            if (topo->rocm_smi && topo->cells[r][c].hops > 0)
                record_int(pairs, "hops", topo->cells[r][c].hops);
        }
    doc_text(doc, "%s", "");
    doc_text(doc, "Advice:");
    findings_add(doc, &topo->advice);
}
