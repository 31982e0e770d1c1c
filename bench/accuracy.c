/* Accuracy report of the NCCL model against real nccl-tests runs.
 *
 *   nccl_accuracy VALIDATION_DIR
 *
 * For every perf file in the table below (the validation folder's sweeps),
 * reads the run with the nccl-tests reader, predicts every row with NCCL's
 * own model ("nccl": the faithful port, no corrections) and with collcalc's
 * corrected model ("collcalc"), and prints per file the median |error| of
 * busbw over sizes >= 1 MiB and of time over sizes <= 64 KiB, then the
 * medians over files. The system of each file comes from its header; what
 * the header does not say is an assumption, listed in the table and printed.
 * Out-of-place columns are compared (the first row of a sweep is often a
 * warm-up outlier; medians absorb it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/links.h"
#include "collcalc/nccl_model.h"
#include "collcalc/nccl_tests_reader.h"
#include "collcalc/platforms.h"

typedef struct {
    const char *file;
    collcalc_nccl_func func;
    const char *platform; /* preset in data/platforms.json, or NULL: pcie_box() */
    int gpus_per_node, nodes;
    collcalc_nccl_launch launch;
    bool symmetric, cuda_graph;
    const char *nccl_version; /* NULL: not stated, newest */
    const char *nccl_algo;    /* NCCL_ALGO of the run, or NULL */
    const char *assumptions;
} run_spec;

#define PPG COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU
#define SP COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS
#define AR COLLCALC_NCCL_ALLREDUCE
#define AG COLLCALC_NCCL_ALLGATHER

/* From each file's header: op, GPUs, nodes, launch (nThread/nGpus), NCCL
 * version; the platform is the preset matching the hardware line (its CPU,
 * NICs and transport come from data/platforms.json). */
static const run_spec runs[] = {
    {"nccl_allreduce_h100_8gpu_1node_nvls_issue290.txt", AR, "hgx-h100", 8, 1, SP, false, false,
     NULL, NULL, "NCCL version not stated (newest)"},
    {"nccl_allreduce_h100_2node_16gpu_ndr400_xe9680_nccl2.26_issue309.txt", AR, "hgx-h100", 8, 2,
     PPG, false, false, "2.26.2", NULL, "no CollNet/SHARP"},
    {"nccl_allreduce_h100_2node_16gpu_ib400_ring_minctas24_qps2_issue309.txt", AR, "hgx-h100", 8,
     2, PPG, false, false, "2.26", "ring",
     "NCCL 2.26 era assumed; NCCL_MIN_CTAS=24, QPS 2 not modelled"},
    {"nccl_allreduce_a100_8gpu_nvlink3_stas00.txt", AR, "dgx-a100", 8, 1, SP, false, false, NULL,
     NULL, "NCCL version not stated (newest)"},
    {"nccl_allreduce_b200_8gpu_nvlink5_nccl2.27.txt", AR, "hgx-b200", 8, 1, PPG, true, true,
     "2.27", NULL, "-R 2 -G 100 -g 1 per the thread (unconfirmed)"},
    {"nccl_allreduce_gb200_nvl72_1rack_72gpu_mnnvl_nccl2.26_coreweave.txt", AR, "gb200-nvl72", 72,
     1, PPG, false, false, "2.26.2", NULL, "one NVLink domain = one NCCL node (MNNVL)"},
    {"nccl_allreduce_2080ti_2gpu_pcie_nop2p_autodl.txt", AR, NULL, 2, 1, SP, false, false, NULL,
     NULL, "no preset: sm75, PCIe Gen3, no P2P; CPU Intel assumed; NCCL not stated (newest)"},
    {"nccl_allgather_2080ti_2gpu_pcie_nop2p_autodl.txt", AG, NULL, 2, 1, SP, false, false, NULL,
     NULL, "no preset: sm75, PCIe Gen3, no P2P; CPU Intel assumed; NCCL not stated (newest)"},
    {"nccl_allreduce_a100_2node_16gpu_efa400_p4de_awsome.txt", AR, "aws-p4de", 8, 2, PPG, false,
     false, "2.21", NULL, "NCCL 2.18-2.21 era (April 2024) assumed"},
    {"nccl_allgather_h100_2node_16gpu_tcpxo_8x200g_gcp_a3mega_clustertoolkit.txt", AG,
     "gcp-a3-mega", 8, 2, PPG, false, false, "2.23", NULL,
     "NCCL 2.21-2.23 era assumed (TCPXO plugin 1.0.15)"},
};

#define RUN_COUNT (sizeof runs / sizeof runs[0])
#define MAX_ROWS 256

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, size_t count)
{
    if (count == 0)
        return NAN;
    qsort(values, count, sizeof values[0], compare_doubles);
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

static char *read_file(const char *path, size_t *out_length)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL)
        return NULL;
    size_t capacity = 1 << 16, length = 0;
    char *data = malloc(capacity);
    while (data != NULL) {
        size_t got = fread(data + length, 1, capacity - length, file);
        length += got;
        if (got == 0)
            break;
        if (length == capacity) {
            char *bigger = realloc(data, capacity * 2);
            if (bigger == NULL) {
                free(data);
                data = NULL;
                break;
            }
            data = bigger;
            capacity *= 2;
        }
    }
    fclose(file);
    *out_length = length;
    return data;
}

typedef struct {
    double busbw[2]; /* median |error| at >= 1 MiB: [0] nccl, [1] collcalc */
    double time[2];  /* median |error| at <= 64 KiB */
    int busbw_rows, time_rows;
} file_result;

/* The 2x RTX 2080 Ti box, which has no preset: Turing (sm75), PCIe Gen3
 * x16 under one switch, CUDA P2P unavailable (the files' headers). */
static void pcie_box(const run_spec *spec, collcalc_nccl_hardware *hw)
{
    collcalc_nccl_hardware_init(hw);
    hw->sm = 75;
    hw->cpu = COLLCALC_NCCL_CPU_INTEL;
    hw->gpus_per_node = spec->gpus_per_node;
    hw->nodes = spec->nodes;
    hw->nvlink_links_per_gpu = 0;
    hw->nvswitch = false;
    hw->nvls = false;
    hw->p2p = false;
    hw->pci_bw_GBps = 12.0;
    hw->nics_per_node = 1;
    hw->nic_GBps = 12.5;
    hw->launch = spec->launch;
}

static int evaluate(const char *dir, const run_spec *spec,
                    const collcalc_nccl_constants_table *table, const collcalc_link_table *links,
                    const collcalc_platform_table *platforms, file_result *result)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, spec->file);
    size_t length = 0;
    char *text = read_file(path, &length);
    if (text == NULL) {
        fprintf(stderr, "nccl_accuracy: cannot read %s\n", path);
        return 1;
    }
    collcalc_diag diag;
    collcalc_nccl_tests_run run;
    collcalc_nccl_tests_reader_options reader_options;
    memset(&reader_options, 0, sizeof reader_options);
    reader_options.ranks = spec->gpus_per_node * spec->nodes;
    collcalc_status status =
        collcalc_nccl_tests_read_text(text, length, &reader_options, &run, &diag);
    free(text);
    if (status != COLLCALC_OK) {
        fprintf(stderr, "nccl_accuracy: %s: %s\n", spec->file, diag.message);
        return 1;
    }

    collcalc_nccl_hardware hw;
    if (spec->platform == NULL) {
        pcie_box(spec, &hw);
    } else {
        const collcalc_platform *platform = collcalc_platform_table_find(platforms, spec->platform);
        if (platform == NULL ||
            collcalc_nccl_hardware_from_platform(platform, links, spec->nodes,
                                                 spec->gpus_per_node, spec->launch, &hw,
                                                 &diag) != COLLCALC_OK) {
            fprintf(stderr, "nccl_accuracy: %s: platform %s: %s\n", spec->file, spec->platform,
                    platform == NULL ? "not found" : diag.message);
            collcalc_nccl_tests_run_free(&run);
            return 1;
        }
    }
    collcalc_nccl_system system;
    const collcalc_nccl_constants *constants = NULL, *newest = NULL;
    if (collcalc_nccl_system_derive(&hw, &system, &diag) != COLLCALC_OK ||
        collcalc_nccl_constants_find(table, spec->nccl_version, &constants, &diag) != COLLCALC_OK ||
        collcalc_nccl_constants_find(table, NULL, &newest, &diag) != COLLCALC_OK) {
        fprintf(stderr, "nccl_accuracy: %s: %s\n", spec->file, diag.message);
        collcalc_nccl_tests_run_free(&run);
        return 1;
    }
    system.symmetric = spec->symmetric;
    system.cuda_graph = spec->cuda_graph;

    collcalc_nccl_options options[2];
    for (int m = 0; m < 2; m++) {
        collcalc_nccl_options_init(&options[m]);
        if (spec->nccl_algo != NULL)
            collcalc_nccl_parse_algo_env(spec->nccl_algo, options[m].algo_mask, NULL);
    }
    options[0].corrections = 0;
    options[1].refined = newest;

    double bus_err[2][MAX_ROWS], time_err[2][MAX_ROWS];
    int nb = 0, nt = 0;
    printf("\n%s\n  %s; NCCL %s constants; %d ranks = %d x %d; ring %d ch x %.1f GB/s; %s\n",
           spec->file, spec->platform != NULL ? spec->platform : "hand-made system",
           constants->version, system.nranks, spec->nodes, spec->gpus_per_node,
           system.graphs[COLLCALC_NCCL_RING].nchannels,
           system.graphs[COLLCALC_NCCL_RING].bw_intra_GBps, spec->assumptions);
    printf("  %12s %10s %10s %10s | %10s %10s %10s | %s\n", "size", "time", "nccl", "collcalc",
           "busbw", "nccl", "collcalc", "choice (nccl; collcalc if different)");
    for (size_t i = 0; i < run.row_count; i++) {
        const collcalc_nccl_tests_read_row *r = &run.rows[i];
        const collcalc_nccl_tests_measurement *m = &r->row.out_of_place;
        uint64_t size = r->row.size_bytes;
        if (!m->present || !(m->time_us > 0.0) || size == 0)
            continue;
        collcalc_nccl_prediction p[2];
        bool ok = true;
        for (int k = 0; k < 2; k++)
            ok = ok && collcalc_nccl_predict(&system, constants, &options[k], spec->func, size,
                                             &p[k], &diag) == COLLCALC_OK;
        if (!ok) {
            fprintf(stderr, "nccl_accuracy: %s: %s\n", spec->file, diag.message);
            continue;
        }
        const collcalc_nccl_candidate *c0 = collcalc_nccl_selected(&p[0]);
        const collcalc_nccl_candidate *c1 = collcalc_nccl_selected(&p[1]);
        bool same = c0->algo == c1->algo && c0->proto == c1->proto;
        printf("  %12llu %10.2f %10.2f %10.2f | %10.2f %10.2f %10.2f | %s/%s%s%s%s%s\n",
               (unsigned long long)size, m->time_us, c0->time_us, c1->time_us, m->busbw_GBps,
               c0->busbw_GBps, c1->busbw_GBps, collcalc_nccl_algo_name(c0->algo),
               collcalc_nccl_proto_name(c0->proto), same ? "" : "; ",
               same ? "" : collcalc_nccl_algo_name(c1->algo), same ? "" : "/",
               same ? "" : collcalc_nccl_proto_name(c1->proto));
        if (size >= 1048576 && m->busbw_GBps > 0.0 && nb < MAX_ROWS) {
            bus_err[0][nb] = fabs(c0->busbw_GBps - m->busbw_GBps) / m->busbw_GBps;
            bus_err[1][nb] = fabs(c1->busbw_GBps - m->busbw_GBps) / m->busbw_GBps;
            nb++;
        }
        if (size <= 65536 && nt < MAX_ROWS) {
            time_err[0][nt] = fabs(c0->time_us - m->time_us) / m->time_us;
            time_err[1][nt] = fabs(c1->time_us - m->time_us) / m->time_us;
            nt++;
        }
    }
    for (int k = 0; k < 2; k++) {
        result->busbw[k] = median(bus_err[k], (size_t)nb);
        result->time[k] = median(time_err[k], (size_t)nt);
    }
    result->busbw_rows = nb;
    result->time_rows = nt;
    collcalc_nccl_tests_run_free(&run);
    return 0;
}

static void print_percent(double value)
{
    if (isnan(value))
        printf(" %9s", "-");
    else
        printf(" %8.1f%%", 100.0 * value);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: nccl_accuracy VALIDATION_DIR\n");
        return 2;
    }
    collcalc_nccl_constants_table *table = NULL;
    collcalc_diag diag;
    if (collcalc_nccl_constants_builtin(&table, &diag) != COLLCALC_OK) {
        fprintf(stderr, "nccl_accuracy: %s\n", diag.message);
        return 1;
    }
    collcalc_link_table *links = NULL;
    collcalc_platform_table *platforms = NULL;
    if (collcalc_link_table_builtin(&links, &diag) != COLLCALC_OK ||
        collcalc_platform_table_builtin(links, &platforms, &diag) != COLLCALC_OK) {
        fprintf(stderr, "nccl_accuracy: %s\n", diag.message);
        collcalc_link_table_free(links);
        collcalc_nccl_constants_table_free(table);
        return 1;
    }
    file_result results[RUN_COUNT];
    int failures = 0;
    for (size_t i = 0; i < RUN_COUNT; i++)
        failures += evaluate(argv[1], &runs[i], table, links, platforms, &results[i]);
    collcalc_platform_table_free(platforms);
    collcalc_link_table_free(links);
    collcalc_nccl_constants_table_free(table);
    if (failures != 0)
        return 1;

    printf("\nmedian |error|            busbw >= 1 MiB        time <= 64 KiB\n");
    printf("%-44s %9s %9s %9s %9s\n", "file", "nccl", "collcalc", "nccl", "collcalc");
    double medians[4][RUN_COUNT];
    size_t counts[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < RUN_COUNT; i++) {
        char name[45];
        snprintf(name, sizeof name, "%s", runs[i].file + strlen("nccl_"));
        printf("%-44s", name);
        double values[4] = {results[i].busbw[0], results[i].busbw[1], results[i].time[0],
                            results[i].time[1]};
        for (int k = 0; k < 4; k++) {
            print_percent(values[k]);
            if (!isnan(values[k]))
                medians[k][counts[k]++] = values[k];
        }
        printf("\n");
    }
    printf("%-44s", "median over files");
    for (int k = 0; k < 4; k++)
        print_percent(median(medians[k], counts[k]));
    printf("\n");
    return 0;
}
