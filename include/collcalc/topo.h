/* The `nvidia-smi topo -m` (and `topo -mp`, and AMD's `rocm-smi --showtopo`)
 * reader: the GPU/NIC connection matrix as a machine prints it (text in), turned into devices, connection classes, the
 * bandwidth each pair implies, NVLink islands, nearest NICs, NUMA nodes and
 * placement advice (structs out). No I/O: the caller reads the file. */
#ifndef COLLCALC_TOPO_H
#define COLLCALC_TOPO_H

#include <stddef.h>

#include "collcalc/findings.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Limits: the text may be at most 1 MiB and name at most 256 devices
 * (GPUs + NICs); longer texts and bigger matrices are refused. */
#define COLLCALC_TOPO_TEXT_MAX_BYTES (1024u * 1024u)
#define COLLCALC_TOPO_DEVICES_MAX 256
#define COLLCALC_TOPO_NAME_MAX 32      /* "GPU0", "NIC3", "mlx5_0", legend "mlx5_bond_0" */
#define COLLCALC_TOPO_AFFINITY_MAX 128 /* CPU affinity list "0-55,112-167" */
#define COLLCALC_TOPO_NEAREST_MAX 8    /* nearest NICs kept per GPU */
#define COLLCALC_TOPO_NOTE_MAX 256

/* Connection classes, nearest first (the order NCCL_P2P_LEVEL and
 * NCCL_NET_GDR_LEVEL use; doc: the legend of nvidia-smi topo -m). */
typedef enum {
    COLLCALC_TOPO_SELF = 0, /* X */
    COLLCALC_TOPO_NVLINK,   /* NV#: a bonded set of # NVLinks */
    COLLCALC_TOPO_PIX,      /* at most one PCIe bridge (switch) */
    COLLCALC_TOPO_PXB,      /* several PCIe bridges, no host bridge */
    COLLCALC_TOPO_PHB,      /* through a PCIe host bridge (the CPU) */
    COLLCALC_TOPO_NODE,     /* between host bridges of one NUMA node */
    COLLCALC_TOPO_SYS       /* across the CPU interconnect (UPI/QPI/xGMI); old drivers: SOC */
} collcalc_topo_class;

typedef enum { COLLCALC_TOPO_GPU = 0, COLLCALC_TOPO_NIC } collcalc_topo_kind;

/* GPU generations the reader knows the NVLink and PCIe rates of. Not
 * collcalc_gpu_arch (collcalc/platforms.h), though close: that one is the SM
 * number NCCL's tuning tables key on (sm75 and sm86 apart, no Pascal), this
 * one the NVLink/PCIe rate class a topology implies (Pascal, one Ampere),
 * and the two print differently ("sm90" / "hopper"). */
typedef enum {
    COLLCALC_GPU_UNKNOWN = 0,
    COLLCALC_GPU_PASCAL,    /* sm60, P100: NVLink 1, 20 GB/s per link per direction, PCIe 3 */
    COLLCALC_GPU_VOLTA,     /* sm70, V100: NVLink 2, 25 GB/s, PCIe 3 */
    COLLCALC_GPU_AMPERE,    /* sm80, A100: NVLink 3, 25 GB/s, PCIe 4 */
    COLLCALC_GPU_ADA,       /* sm89, L40S/L4: no NVLink, PCIe 4 */
    COLLCALC_GPU_HOPPER,    /* sm90, H100/H200/H800/H20: NVLink 4, 25 GB/s, PCIe 5 */
    COLLCALC_GPU_BLACKWELL, /* sm100, B200/GB200: NVLink 5, 50 GB/s, PCIe 5 */
    COLLCALC_GPU_CDNA3,     /* gfx942, AMD MI300X/MI308X/MI325X: xGMI, 64 GB/s per link, PCIe 5 */
    COLLCALC_GPU_CDNA4      /* gfx950, AMD MI350X/MI355X: xGMI, 76.8 GB/s per link, PCIe 5 */
} collcalc_gpu_generation;

/* One cell of the matrix: row device to column device. */
typedef struct {
    collcalc_topo_class connection;
    int bonds; /* NVLinks bonded for COLLCALC_TOPO_NVLINK, else 0 */
    /* rocm-smi --showtopo only (0 elsewhere): the "Weight" and "Hops"
     * blocks' values for the pair */
    int weight;
    int hops;
} collcalc_topo_cell;

/* One device (a row and a column of the matrix). */
typedef struct {
    collcalc_topo_kind kind;
    char name[COLLCALC_TOPO_NAME_MAX];        /* column name as printed: "GPU0", "NIC0", "mlx5_0" */
    char legend_name[COLLCALC_TOPO_NAME_MAX]; /* NIC Legend device ("mlx5_0"); "" when absent */
    long line;                                /* 1-based line of its row; 0 when the row is missing */
    /* GPUs only (NIC rows carry no affinity columns): */
    char cpu_affinity[COLLCALC_TOPO_AFFINITY_MAX]; /* as printed; "" when absent */
    int numa_node;   /* NUMA Affinity; -1 when N/A or absent */
    int gpu_numa_id; /* GPU NUMA ID (own NUMA node of the GPU memory); -1 when N/A */
    int island;      /* index into islands[], -1 for NICs */
    double nvlink_GBps; /* NVLink per direction of this GPU: bonds x per-link rate
                           on an NVSwitch island, else the sum over its peers */
    /* The NICs nearest this GPU (best class over all NICs): */
    collcalc_topo_class nearest_nic_class; /* meaningless when nearest_nic_count is 0 */
    int nearest_nic_count;                 /* NICs at that class (may exceed the kept list) */
    int nearest_nics[COLLCALC_TOPO_NEAREST_MAX]; /* device indexes, ascending */
} collcalc_topo_device;

/* GPUs joined by NVLink (a connected component over NV# edges); a GPU with
 * no NVLink is an island of one. */
typedef struct {
    int gpu_count;
    int first_gpu;   /* device index of its lowest GPU */
    int min_bonds;   /* over its NV# pairs; 0 for an island of one */
    int max_bonds;
    int all_to_all;  /* every pair joined directly by the same NV# */
    int switched;    /* all_to_all and the bonds cannot be point-to-point
                        (bonds x (gpu_count - 1) exceeds the GPU's link count,
                        18): an NVSwitch fabric */
    double per_gpu_GBps;  /* NVLink per direction per GPU, the smallest over its
                             GPUs (see collcalc_topo_device.nvlink_GBps) */
    long line;            /* row line of first_gpu */
} collcalc_topo_island;

/* What the caller may say about the machine. Fill with
 * collcalc_topo_options_init (or COLLCALC_TOPO_OPTIONS_INIT), then set
 * fields. */
#define COLLCALC_TOPO_OPTIONS_VERSION 1
typedef struct {
    unsigned version; /* COLLCALC_TOPO_OPTIONS_VERSION */
    /* GPU model or architecture: "sm60" "sm70" "sm80" "sm89" "sm90" "sm100",
     * "p100" "v100" "a100" "l40s" "h100" "h200" "h800" "h20" "b200" "gb200",
     * AMD's "gfx942" "mi300x" "mi308x" "mi325x" "gfx950" "mi350x" "mi355x",
     * or NULL / "" / "unknown" to infer it from the NV# bond counts. */
    const char *gpu;
    /* The line number of the text's first line (1; a matrix cut out of a
     * longer paste gives its line there), for the lines findings name. */
    long first_line;
} collcalc_topo_options;

/* The parsed matrix and everything derived from it. Owned by the caller,
 * free with collcalc_topo_free. Device indexes follow the header's column
 * order (every driver prints the GPUs first: GPU0 at 0, then the NICs). */
typedef struct {
    int device_count;
    int gpu_count;
    int nic_count;
    collcalc_topo_device devices[COLLCALC_TOPO_DEVICES_MAX];
    /* [row][column]. Rows a truncated excerpt lost (index >= rows_parsed) are
     * filled from the columns of the rows kept; between two lost rows: X. */
    collcalc_topo_cell cells[COLLCALC_TOPO_DEVICES_MAX][COLLCALC_TOPO_DEVICES_MAX];
    long header_line;
    int rows_parsed;  /* complete rows read; < device_count when truncated */
    int truncated;    /* the matrix stopped early (NIC rows missing): see findings */
    int has_nic_legend;
    /* 1 when read from AMD's `rocm-smi --showtopo`: the GPU links are xGMI.
     * An xGMI cell is stored as COLLCALC_TOPO_NVLINK with 1 bond per link, as
     * RCCL's topology search types xGMI paths as NVLink (PATH_NVL, RCCL
     * src/graph/topo.cc); a PCIE cell as PHB inside a NUMA node, SYS across.
     * collcalc_topo_cell_name prints "XGMI" for them. */
    int rocm_smi;

    collcalc_gpu_generation generation;
    int generation_inferred;  /* 1 when guessed from the bond counts */
    int generation_ambiguous; /* NV18: Hopper or Blackwell; Hopper assumed */
    double nvlink_per_link_GBps; /* per link per direction used for NV# */
    int pcie_gen;                /* PCIe generation assumed for PCIe classes */
    char generation_note[COLLCALC_TOPO_NOTE_MAX]; /* why this generation, one sentence */

    int island_count;
    collcalc_topo_island islands[COLLCALC_TOPO_DEVICES_MAX]; /* largest first, then lowest GPU */
    int nvlink_pairs; /* GPU pairs joined by NV# */

    collcalc_findings advice; /* sorted: warnings first */

    /* A second matrix after the first (finding topo-second-matrix): the byte
     * offset of its header line in the text and that line's number; 0 when
     * none. Parse text + next_matrix_offset to read it. */
    size_t next_matrix_offset;
    long next_matrix_line;
} collcalc_topo;

/* Default options: generation inferred. */
#define COLLCALC_TOPO_OPTIONS_INIT {.version = COLLCALC_TOPO_OPTIONS_VERSION, .first_line = 1}
void collcalc_topo_options_init(collcalc_topo_options *options);

/* The generation --gpu names ("sm90", "h100", "unknown", ...): COLLCALC_ERR_INVALID
 * with a one-line diagnostic for a name it does not know (callers check it
 * before reading a file, so the error names the option). */
collcalc_status collcalc_gpu_generation_parse(const char *gpu, collcalc_gpu_generation *out,
                                              collcalc_diag *diag);

/* Parses `nvidia-smi topo -m` or `topo -mp` output, or `rocm-smi
 * --showtopo` output (its Weight, Hops, Link Type and Numa Nodes blocks;
 * the Link Type block is required) (text of length bytes, need not be
 * NUL-terminated; options may be NULL). On success *out is a new topo the
 * caller frees with collcalc_topo_free. Tolerated: a leading command line or
 * prompt, tabs or spaces, ANSI escapes, CRLF, legend blocks, old drivers
 * (SOC, NIC columns named mlx5_0, only CPU Affinity), NIC rows without
 * affinity, cells glued together ("NV18NV18", "SYS0-23"), and a matrix cut
 * inside the NIC rows (a warning finding names the missing row), the last GPU
 * row cut after its GPU cells (a warning), a second matrix after the first
 * (a warning; only the first is read). Refused with
 * ERR_INVALID and a diagnostic naming the line: no matrix header, unknown
 * connection words (word, row, column), a GPU row missing or cut, rows out
 * of order, extra cells, binary bytes, more than 1 MiB or 256 devices, an
 * unknown options->gpu. ERR_NOMEM when the allocation fails. */
collcalc_status collcalc_topo_parse(const char *text, size_t length,
                                    const collcalc_topo_options *options, collcalc_topo **out,
                                    collcalc_diag *diag);

/* Frees a topo (NULL-safe). */
void collcalc_topo_free(collcalc_topo *topo);

/* Bandwidth per direction the connection between two devices implies, GB/s:
 * NV# x per-link rate; PCIe classes an estimate from the assumed PCIe
 * generation (see collcalc_topo_class_estimate_GBps); 0 for X or bad indexes. */
double collcalc_topo_pair_GBps(const collcalc_topo *topo, int row, int column);

/* Estimated GPU-to-GPU P2P bandwidth per direction over a PCIe class on a
 * PCIe generation (3..6), GB/s: x16 rate x an assumed efficiency (PIX 0.80,
 * PXB 0.75, PHB 0.60, NODE 0.55, SYS 0.40). 0 for X and NVLink. */
double collcalc_topo_class_estimate_GBps(collcalc_topo_class connection, int pcie_gen);

/* The cell as the tool printed it: "X", "NV18", "PIX", ..., or "XGMI" for
 * an xGMI link of a rocm-smi matrix. Writes into buffer (size >= 16 is
 * enough) and returns it. */
const char *collcalc_topo_cell_name(const collcalc_topo *topo, const collcalc_topo_cell *cell,
                                    char *buffer, size_t size);

/* "NVLink", or "xGMI" for a rocm-smi matrix. Static, never NULL. */
const char *collcalc_topo_fabric_name(const collcalc_topo *topo);

/* "X", "NV", "PIX", "PXB", "PHB", "NODE", "SYS". Static, never NULL. */
const char *collcalc_topo_class_name(collcalc_topo_class connection);

/* "unknown", "pascal", "volta", "ampere", "ada", "hopper", "blackwell",
 * "cdna3", "cdna4". */
const char *collcalc_gpu_generation_name(collcalc_gpu_generation generation);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
