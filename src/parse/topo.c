/* The `nvidia-smi topo -m` reader (include/collcalc/topo.h): finds the
 * header, reads one row per device, the affinity columns and the NIC legend,
 * then derives the GPU generation, NVLink islands, nearest NICs and advice.
 *
 * Figures used (data/links.json carries the same numbers with their sources):
 * NVLink per link per direction: NVLink 1 (P100) 20 GB/s, NVLink 2-4 (V100,
 * A100, H100/H200/H800) 25 GB/s, NVLink 5 (B200/GB200) 50 GB/s (NVIDIA data
 * sheets: 18 links x 50 GB/s bidirectional = 900 GB/s on H100, 1,800 GB/s on
 * B200). Bond counts as nvidia-smi prints them on NVIDIA's systems: NV18 on
 * HGX H100/H200 and B200, NV12 on DGX A100, NV8 on HGX H800, NV6 on DGX-2.
 * PCIe x16 per direction: Gen3 15.75, Gen4 31.5, Gen5 63, Gen6 121 GB/s
 * (128b/130b encoding; data/links.json pcie3..pcie6). AMD xGMI per link per
 * direction (data/links.json xgmi-mi300x, xgmi-mi355x): MI300X-class (CDNA3)
 * 7 links x 128 GB/s bidirectional = 64 GB/s, MI355X (CDNA4) 153.6 GB/s
 * bidirectional = 76.8 GB/s (AMD Instinct data sheets).
 *
 * `rocm-smi --showtopo` prints blocks headed "Weight between two GPUs",
 * "Hops between two GPUs", "Link Type between two GPUs" (XGMI or PCIE) and
 * "Numa Nodes" ("GPU[0] : (Topology) Numa Node: 0"); the reader takes each
 * block's GPU matrix into the same cells (see collcalc_topo.rocm_smi). */
#include "collcalc/topo.h"
#include "collcalc/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_lines.h"
#include "helpers.h"

#define LINE_MAX_BYTES 8192
#define WORDS_MAX (COLLCALC_TOPO_DEVICES_MAX + 16)

/* The affinity columns a header may name after the device columns. */
typedef enum { AFFINITY_CPU = 0, AFFINITY_NUMA, AFFINITY_GPU_NUMA } affinity_column;

typedef struct {
    collcalc_topo *topo;
    collcalc_diag *diag;
    affinity_column affinity[4];
    int affinity_count;
    long line_number;
    long last_line;    /* last line of the text */
    int short_row;     /* device index of a row that ended early, -1 when none */
    long short_row_line;
    int short_row_cells;
    int matrix_done;
    long second_header_line; /* a second matrix's header, not read */
    size_t second_header_offset;
    size_t line_offset;      /* byte offset of the line being read */
    int unterminated_last;   /* the line being read is the text's last, with no newline */
    /* rocm-smi --showtopo: the block being read and the rows each block held */
    int rocm_block;          /* ROCM_* */
    int rocm_rows[5];        /* rows read per block */
    long rocm_link_line;     /* the Link Type block's title line */
    unsigned char rocm_link_row[COLLCALC_TOPO_DEVICES_MAX]; /* GPU's Link Type row read */
} topo_reader;

enum { ROCM_NONE = 0, ROCM_WEIGHT, ROCM_HOPS, ROCM_LINK, ROCM_NUMA, ROCM_OTHER };

void collcalc_topo_options_init(collcalc_topo_options *options)
{
    options->version = COLLCALC_TOPO_OPTIONS_VERSION;
    options->gpu = NULL;
    options->first_line = 1;
}

const char *collcalc_topo_class_name(collcalc_topo_class connection)
{
    switch (connection) {
    case COLLCALC_TOPO_SELF: return "X";
    case COLLCALC_TOPO_NVLINK: return "NV";
    case COLLCALC_TOPO_PIX: return "PIX";
    case COLLCALC_TOPO_PXB: return "PXB";
    case COLLCALC_TOPO_PHB: return "PHB";
    case COLLCALC_TOPO_NODE: return "NODE";
    case COLLCALC_TOPO_SYS: return "SYS";
    }
    return "unknown";
}

const char *collcalc_gpu_generation_name(collcalc_gpu_generation generation)
{
    switch (generation) {
    case COLLCALC_GPU_UNKNOWN: return "unknown";
    case COLLCALC_GPU_PASCAL: return "pascal";
    case COLLCALC_GPU_VOLTA: return "volta";
    case COLLCALC_GPU_AMPERE: return "ampere";
    case COLLCALC_GPU_ADA: return "ada";
    case COLLCALC_GPU_HOPPER: return "hopper";
    case COLLCALC_GPU_BLACKWELL: return "blackwell";
    case COLLCALC_GPU_CDNA3: return "cdna3";
    case COLLCALC_GPU_CDNA4: return "cdna4";
    }
    return "unknown";
}

/* PCIe x16 per direction by generation (data/links.json pcie3..pcie6). */
static double pcie_x16_GBps(int pcie_gen)
{
    switch (pcie_gen) {
    case 3: return 15.75;
    case 4: return 31.5;
    case 5: return 63.0;
    case 6: return 121.0;
    default: return 31.5;
    }
}

double collcalc_topo_class_estimate_GBps(collcalc_topo_class connection, int pcie_gen)
{
    /* Assumed fractions of the x16 line rate a GPU-to-GPU copy reaches; not
     * measured here (p2pBandwidthLatencyTest or nvbandwidth on the machine
     * gives the real figure). Switch-local P2P gets close to the link; the
     * host bridge and the socket interconnect cost more. */
    double x16 = pcie_x16_GBps(pcie_gen);
    switch (connection) {
    case COLLCALC_TOPO_PIX: return x16 * 0.80;
    case COLLCALC_TOPO_PXB: return x16 * 0.75;
    case COLLCALC_TOPO_PHB: return x16 * 0.60;
    case COLLCALC_TOPO_NODE: return x16 * 0.55;
    case COLLCALC_TOPO_SYS: return x16 * 0.40;
    case COLLCALC_TOPO_SELF:
    case COLLCALC_TOPO_NVLINK: return 0.0;
    }
    return 0.0;
}

const char *collcalc_topo_fabric_name(const collcalc_topo *topo)
{
    return topo != NULL && topo->rocm_smi ? "xGMI" : "NVLink";
}

const char *collcalc_topo_cell_name(const collcalc_topo *topo, const collcalc_topo_cell *cell,
                                    char *buffer, size_t size)
{
    if (cell->connection == COLLCALC_TOPO_NVLINK && topo != NULL && topo->rocm_smi)
        snprintf(buffer, size, "XGMI");
    else if (cell->connection == COLLCALC_TOPO_NVLINK)
        snprintf(buffer, size, "NV%d", cell->bonds);
    else
        snprintf(buffer, size, "%s", collcalc_topo_class_name(cell->connection));
    return buffer;
}

double collcalc_topo_pair_GBps(const collcalc_topo *topo, int row, int column)
{
    if (topo == NULL || row < 0 || column < 0 || row >= topo->device_count ||
        column >= topo->device_count)
        return 0.0;
    const collcalc_topo_cell *cell = &topo->cells[row][column];
    if (cell->connection == COLLCALC_TOPO_NVLINK)
        return cell->bonds * topo->nvlink_per_link_GBps;
    return collcalc_topo_class_estimate_GBps(cell->connection, topo->pcie_gen);
}

void collcalc_topo_free(collcalc_topo *topo)
{
    collcalc_mem_free(topo);
}

/* ------------------------------------------------------------ GPU option */

typedef struct {
    const char *name;
    collcalc_gpu_generation generation;
} gpu_name;

static collcalc_status parse_gpu_option(const char *gpu, collcalc_gpu_generation *out,
                                        int *given, collcalc_diag *diag);

static const gpu_name gpu_names[] = {
    {"sm60", COLLCALC_GPU_PASCAL},   {"p100", COLLCALC_GPU_PASCAL},
    {"sm70", COLLCALC_GPU_VOLTA},    {"v100", COLLCALC_GPU_VOLTA},
    {"sm80", COLLCALC_GPU_AMPERE},   {"a100", COLLCALC_GPU_AMPERE},
    {"sm89", COLLCALC_GPU_ADA},      {"l40s", COLLCALC_GPU_ADA},
    {"l40", COLLCALC_GPU_ADA},       {"l4", COLLCALC_GPU_ADA},
    {"sm90", COLLCALC_GPU_HOPPER},   {"h100", COLLCALC_GPU_HOPPER},
    {"h200", COLLCALC_GPU_HOPPER},   {"h800", COLLCALC_GPU_HOPPER},
    {"h20", COLLCALC_GPU_HOPPER},    {"sm100", COLLCALC_GPU_BLACKWELL},
    {"b200", COLLCALC_GPU_BLACKWELL}, {"gb200", COLLCALC_GPU_BLACKWELL},
    {"gfx942", COLLCALC_GPU_CDNA3},  {"mi300x", COLLCALC_GPU_CDNA3},
    {"mi308x", COLLCALC_GPU_CDNA3},  {"mi325x", COLLCALC_GPU_CDNA3},
    {"gfx950", COLLCALC_GPU_CDNA4},  {"mi350x", COLLCALC_GPU_CDNA4},
    {"mi355x", COLLCALC_GPU_CDNA4},
};

collcalc_status collcalc_gpu_generation_parse(const char *gpu, collcalc_gpu_generation *out,
                                              collcalc_diag *diag)
{
    int given = 0;
    collcalc_gpu_generation generation = COLLCALC_GPU_UNKNOWN;
    collcalc_status status = parse_gpu_option(gpu, &generation, &given, diag);
    if (out != NULL)
        *out = generation;
    return status;
}

static collcalc_status parse_gpu_option(const char *gpu, collcalc_gpu_generation *out,
                                        int *given, collcalc_diag *diag)
{
    *out = COLLCALC_GPU_UNKNOWN;
    *given = 0;
    if (gpu == NULL || gpu[0] == '\0' || strcmp(gpu, "unknown") == 0)
        return COLLCALC_OK;
    for (size_t i = 0; i < sizeof gpu_names / sizeof gpu_names[0]; i++) {
        if (strcmp(gpu, gpu_names[i].name) == 0) {
            *out = gpu_names[i].generation;
            *given = 1;
            return COLLCALC_OK;
        }
    }
    return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                              "unknown GPU '%.40s': expected sm60, sm70, sm80, sm89, sm90, sm100, "
                              "a GPU (v100, a100, l40s, h100, h200, h800, h20, b200, gb200, "
                              "mi300x, mi355x), gfx942, gfx950 or unknown",
                              gpu);
}

/* ---------------------------------------------------------------- header */

/* Peels one device name (GPU<digits> or NIC<digits>) off *cursor; 0 when
 * the text does not start with one. */
static int peel_device_name(const char **cursor, char *name, size_t cap,
                            collcalc_topo_kind *kind)
{
    const char *p = *cursor;
    if (!text_starts_with(p, "GPU") && !text_starts_with(p, "NIC"))
        return 0;
    const char *digits = p + 3;
    long index = 0;
    if (!text_read_digits(&digits, &index))
        return 0;
    *kind = p[0] == 'G' ? COLLCALC_TOPO_GPU : COLLCALC_TOPO_NIC;
    text_copy_n(name, cap, p, (size_t)(digits - p));
    *cursor = digits;
    return 1;
}

/* Recognises an affinity column starting at words[at]; returns the words
 * it spans (0 when it is none). */
static int affinity_words(char *const *words, size_t count, size_t at, affinity_column *column)
{
    const char *w = words[at];
    const char *next = at + 1 < count ? words[at + 1] : "";
    const char *third = at + 2 < count ? words[at + 2] : "";
    if (strcmp(w, "CPU") == 0 && strcmp(next, "Affinity") == 0) {
        *column = AFFINITY_CPU;
        return 2;
    }
    if (strcmp(w, "NUMA") == 0 && strcmp(next, "Affinity") == 0) {
        *column = AFFINITY_NUMA;
        return 2;
    }
    if (strcmp(w, "GPU") == 0 && strcmp(next, "NUMA") == 0 && strcmp(third, "ID") == 0) {
        *column = AFFINITY_GPU_NUMA;
        return 3;
    }
    return 0;
}

static collcalc_status add_device(topo_reader *reader, const char *name, collcalc_topo_kind kind)
{
    collcalc_topo *topo = reader->topo;
    if (topo->device_count >= COLLCALC_TOPO_DEVICES_MAX)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: the header names more than %d devices",
                                  reader->line_number, COLLCALC_TOPO_DEVICES_MAX);
    for (int i = 0; i < topo->device_count; i++)
        if (strcmp(topo->devices[i].name, name) == 0)
            return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: the header names %s twice", reader->line_number,
                                      name);
    collcalc_topo_device *device = &topo->devices[topo->device_count++];
    device->kind = kind;
    text_copy(device->name, sizeof device->name, name);
    device->numa_node = -1;
    device->gpu_numa_id = -1;
    device->island = -1;
    if (kind == COLLCALC_TOPO_GPU)
        topo->gpu_count++;
    else
        topo->nic_count++;
    return COLLCALC_OK;
}

/* Adds the device columns of one header word ("GPU0", glued "GPU0GPU1",
 * an old-style NIC column "mlx5_0"). */
static collcalc_status add_header_word(topo_reader *reader, const char *word)
{
    const char *p = word;
    char name[COLLCALC_TOPO_NAME_MAX];
    collcalc_topo_kind kind;
    int peeled = 0;
    while (*p != '\0' && peel_device_name(&p, name, sizeof name, &kind)) {
        collcalc_status status = add_device(reader, name, kind);
        if (status != COLLCALC_OK)
            return status;
        peeled = 1;
    }
    if (*p == '\0')
        return COLLCALC_OK;
    if (peeled || reader->topo->device_count == 0)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: header column '%.40s' is not a device name",
                                  reader->line_number, word);
    /* Old drivers name NIC columns by device (mlx5_0). */
    if (strlen(word) >= COLLCALC_TOPO_NAME_MAX)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: header column '%.40s...' is too long for a device name",
                                  reader->line_number, word);
    return add_device(reader, word, COLLCALC_TOPO_NIC);
}

static collcalc_status parse_header(topo_reader *reader, char **words, size_t count)
{
    reader->topo->header_line = reader->line_number;
    for (size_t at = 0; at < count;) {
        affinity_column column;
        int span = affinity_words(words, count, at, &column);
        if (span > 0) {
            if (reader->affinity_count < 4)
                reader->affinity[reader->affinity_count++] = column;
            at += (size_t)span;
            continue;
        }
        if (reader->affinity_count > 0)
            return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: header column '%.40s' after the affinity columns",
                                      reader->line_number, words[at]);
        collcalc_status status = add_header_word(reader, words[at]);
        if (status != COLLCALC_OK)
            return status;
        at++;
    }
    if (reader->topo->gpu_count == 0)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: the header names no GPU column", reader->line_number);
    return COLLCALC_OK;
}

/* ----------------------------------------------------------------- cells */

/* Peels one connection word off *cursor into cell. Bond counts take at most
 * two digits, and one when two would exceed 18 (no GPU has more than 18
 * NVLinks), so "NV180-51" (a cell glued to an affinity list) reads NV18. */
static int peel_connection(const char **cursor, collcalc_topo_cell *cell)
{
    static const struct {
        const char *word;
        collcalc_topo_class connection;
    } words[] = {{"PIX", COLLCALC_TOPO_PIX},   {"PXB", COLLCALC_TOPO_PXB},
                 {"PHB", COLLCALC_TOPO_PHB},   {"NODE", COLLCALC_TOPO_NODE},
                 {"SYS", COLLCALC_TOPO_SYS},   {"SOC", COLLCALC_TOPO_SYS},
                 {"X", COLLCALC_TOPO_SELF}};
    const char *p = *cursor;
    if (p[0] == 'N' && p[1] == 'V' && p[2] >= '1' && p[2] <= '9') {
        int bonds = p[2] - '0';
        size_t used = 3;
        if (p[3] >= '0' && p[3] <= '9' && bonds * 10 + (p[3] - '0') <= 18) {
            bonds = bonds * 10 + (p[3] - '0');
            used = 4;
        }
        /* "NV999999999999": a bond count, not a cell glued to an affinity
         * list ("NV180-51" reads NV18 then "0-51") */
        size_t digits = 2;
        while (p[digits] >= '0' && p[digits] <= '9')
            digits++;
        if (digits - 2 > 2 && (p[digits] == '\0' || p[digits] == ' ' || p[digits] == '\t'))
            return 0;
        cell->connection = COLLCALC_TOPO_NVLINK;
        cell->bonds = bonds;
        *cursor = p + used;
        return 1;
    }
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i].word);
        if (!text_starts_with(p, words[i].word))
            continue; /* before reading past p: p may be shorter than the word */
        /* "XYZ" is no X: after a word comes a non-letter or another cell ("XNV18") */
        const char *after = p + n;
        int letter = (*after >= 'A' && *after <= 'Z') || (*after >= 'a' && *after <= 'z');
        int glued = text_starts_with(after, "NV") || text_starts_with(after, "PIX") ||
                    text_starts_with(after, "PXB") || text_starts_with(after, "PHB") ||
                    text_starts_with(after, "NODE") || text_starts_with(after, "SYS") ||
                    text_starts_with(after, "SOC") || (after[0] == 'X' && !(after[1] >= 'A' &&
                                                                            after[1] <= 'Z'));
        if (!letter || glued) {
            cell->connection = words[i].connection;
            cell->bonds = 0;
            *cursor = p + strlen(words[i].word);
            return 1;
        }
    }
    return 0;
}

static int find_device(const collcalc_topo *topo, const char *name)
{
    for (int i = 0; i < topo->device_count; i++)
        if (strcmp(topo->devices[i].name, name) == 0)
            return i;
    return -1;
}

static int parse_small_number(const char *text)
{
    long value = 0;
    const char *p = text;
    if (!text_read_digits(&p, &value) || value > 4095)
        return -1;
    return (int)value;
}

static collcalc_status store_affinity(topo_reader *reader, int row, int slot, const char *value)
{
    collcalc_topo_device *device = &reader->topo->devices[row];
    if (slot >= reader->affinity_count)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: row %s has more cells than the header's %d columns "
                                  "(extra '%.40s')",
                                  reader->line_number, device->name,
                                  reader->topo->device_count + reader->affinity_count, value);
    switch (reader->affinity[slot]) {
    case AFFINITY_CPU:
        text_copy(device->cpu_affinity, sizeof device->cpu_affinity, value);
        break;
    case AFFINITY_NUMA: device->numa_node = parse_small_number(value); break;
    case AFFINITY_GPU_NUMA: device->gpu_numa_id = parse_small_number(value); break;
    }
    return COLLCALC_OK;
}

static collcalc_status bad_cell(topo_reader *reader, int row, int column, const char *text)
{
    const collcalc_topo *topo = reader->topo;
    char word[24];
    size_t n = strcspn(text, " \t");
    text_copy_n(word, sizeof word, text, n);
    if (text[0] == 'N' && text[1] == 'V' && text[2] >= '0' && text[2] <= '9')
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: '%s' in row %s, column %s is not an NVLink count "
                                  "(NV1 to NV18)",
                                  reader->line_number, word, topo->devices[row].name,
                                  topo->devices[column].name);
    if ((text[0] >= '0' && text[0] <= '9') || text_starts_with(text, "N/A"))
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: row %s has %d cells, the header has %d device "
                                  "columns ('%s' where %s's cell was expected)",
                                  reader->line_number, topo->devices[row].name, column,
                                  topo->device_count, word, topo->devices[column].name);
    return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                              "line %ld: unknown connection word '%s' in row %s, column %s "
                              "(expected X, NV#, PIX, PXB, PHB, NODE or SYS)",
                              reader->line_number, word, topo->devices[row].name,
                              topo->devices[column].name);
}

static collcalc_status check_cell(topo_reader *reader, int row, int column)
{
    const collcalc_topo *topo = reader->topo;
    int self = topo->cells[row][column].connection == COLLCALC_TOPO_SELF;
    if (self == (row == column))
        return COLLCALC_OK;
    return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                              "line %ld: row %s, column %s is %s: X belongs on the diagonal only",
                              reader->line_number, topo->devices[row].name,
                              topo->devices[column].name,
                              self ? "X" : collcalc_topo_class_name(topo->cells[row][column].connection));
}

/* Reads the cells and affinity values of one row (words after its name).
 * Returns the number of cells read through *cells. */
static collcalc_status parse_row_cells(topo_reader *reader, int row, char **words, size_t count,
                                       int *cells)
{
    collcalc_topo *topo = reader->topo;
    int column = 0, slot = 0;
    for (size_t w = 0; w < count; w++) {
        const char *p = words[w];
        while (*p != '\0' && column < topo->device_count) {
            if (!peel_connection(&p, &topo->cells[row][column])) {
                /* a paste cut inside its last word ("SY"): the row ends there */
                if (reader->unterminated_last && w + 1 == count) {
                    *cells = column;
                    return COLLCALC_OK;
                }
                return bad_cell(reader, row, column, p);
            }
            collcalc_status status = check_cell(reader, row, column);
            if (status != COLLCALC_OK)
                return status;
            column++;
        }
        if (*p == '\0')
            continue;
        collcalc_status status = store_affinity(reader, row, slot++, p);
        if (status != COLLCALC_OK)
            return status;
    }
    *cells = column;
    return COLLCALC_OK;
}

static collcalc_status parse_row(topo_reader *reader, int row, char **words, size_t count)
{
    collcalc_topo *topo = reader->topo;
    if (reader->short_row >= 0)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: row %s has %d cells, the header has %d device columns",
                                  reader->short_row_line, topo->devices[reader->short_row].name,
                                  reader->short_row_cells, topo->device_count);
    if (row != topo->rows_parsed)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: row %s where row %s was expected (rows follow the "
                                  "header's column order)",
                                  reader->line_number, topo->devices[row].name,
                                  topo->devices[topo->rows_parsed].name);
    int cells = 0;
    collcalc_status status = parse_row_cells(reader, row, words + 1, count - 1, &cells);
    if (status != COLLCALC_OK)
        return status;
    topo->devices[row].line = reader->line_number;
    if (cells < topo->device_count) {
        reader->short_row = row;
        reader->short_row_line = reader->line_number;
        reader->short_row_cells = cells;
        return COLLCALC_OK;
    }
    topo->rows_parsed++;
    return COLLCALC_OK;
}

/* "NIC0: mlx5_0" in the NIC Legend block. */
static void parse_legend_line(topo_reader *reader, char **words, size_t count)
{
    if (count < 2)
        return;
    size_t n = strlen(words[0]);
    if (n < 2 || words[0][n - 1] != ':')
        return;
    words[0][n - 1] = '\0';
    int device = find_device(reader->topo, words[0]);
    if (device < 0 || reader->topo->devices[device].kind != COLLCALC_TOPO_NIC)
        return;
    text_copy(reader->topo->devices[device].legend_name,
              sizeof reader->topo->devices[device].legend_name, words[1]);
    reader->topo->has_nic_legend = 1;
}

/* A header line starts with GPU0 (maybe glued to GPU1) and its second word
 * is a column name, not a connection word as in the GPU0 row. */
static int is_header(char *const *words, size_t count)
{
    if (count == 0 || !text_starts_with(words[0], "GPU0"))
        return 0;
    if (words[0][4] != '\0')
        return words[0][4] == 'G' || words[0][4] == 'N';
    if (count == 1)
        return 1;
    collcalc_topo_cell cell;
    const char *p = words[1];
    return !peel_connection(&p, &cell);
}

static collcalc_status read_matrix_line(topo_reader *reader, char **words, size_t count)
{
    collcalc_topo *topo = reader->topo;
    if (count == 0)
        return COLLCALC_OK; /* pasted copies may double-space the rows */
    int row = find_device(topo, words[0]);
    if (row < 0) {
        reader->matrix_done = 1;
        parse_legend_line(reader, words, count);
        return COLLCALC_OK;
    }
    return parse_row(reader, row, words, count);
}

/* ------------------------------------------------------ rocm-smi blocks */

/* A block title of rocm-smi --showtopo ("==== Weight between two GPUs ===="):
 * switches the reader to that block; 1 when the line was a title. */
static int rocm_title(topo_reader *reader, const char *clean)
{
    collcalc_topo *topo = reader->topo;
    if (text_starts_with(clean, "GPU"))
        return 0; /* a row or a NUMA line, never a title */
    if (strstr(clean, "between two GPUs") != NULL && (topo->header_line == 0 || topo->rocm_smi)) {
        topo->rocm_smi = 1;
        if (strstr(clean, "Weight") != NULL)
            reader->rocm_block = ROCM_WEIGHT;
        else if (strstr(clean, "Hops") != NULL)
            reader->rocm_block = ROCM_HOPS;
        else if (strstr(clean, "Link Type") != NULL) {
            reader->rocm_block = ROCM_LINK;
            reader->rocm_link_line = reader->line_number;
        } else
            reader->rocm_block = ROCM_OTHER;
        return 1;
    }
    if (!topo->rocm_smi)
        return 0;
    if (strstr(clean, "Numa Nodes") != NULL) {
        reader->rocm_block = ROCM_NUMA;
        return 1;
    }
    if (text_starts_with(clean, "====")) {
        reader->rocm_block = ROCM_OTHER;
        return 1;
    }
    return 0;
}

/* "GPU[4]          : (Topology) Numa Node: 1" */
static void rocm_numa_line(topo_reader *reader, const char *clean)
{
    const char *p = clean + 4;
    long index = 0;
    const char *node = strstr(clean, "Numa Node:");
    if (node == NULL || !text_read_digits(&p, &index) || *p != ']')
        return;
    char name[COLLCALC_TOPO_NAME_MAX];
    snprintf(name, sizeof name, "GPU%ld", index);
    int device = find_device(reader->topo, name);
    node += strlen("Numa Node:");
    while (*node == ' ')
        node++;
    if (device >= 0)
        reader->topo->devices[device].numa_node = parse_small_number(node);
}

/* The GPU names heading a block: the first block's make the devices, the
 * others must name as many. */
static collcalc_status rocm_header(topo_reader *reader, char **words, size_t count)
{
    collcalc_topo *topo = reader->topo;
    if (topo->header_line != 0) {
        if ((int)count != topo->gpu_count)
            return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: this block names %zu GPUs, the first block %d",
                                      reader->line_number, count, topo->gpu_count);
        return COLLCALC_OK;
    }
    topo->header_line = reader->line_number;
    for (size_t w = 0; w < count; w++) {
        const char *p = words[w];
        char name[COLLCALC_TOPO_NAME_MAX];
        collcalc_topo_kind kind;
        if (!peel_device_name(&p, name, sizeof name, &kind) || *p != '\0' ||
            kind != COLLCALC_TOPO_GPU)
            return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: header column '%.40s' is not a GPU name",
                                      reader->line_number, words[w]);
        collcalc_status status = add_device(reader, name, kind);
        if (status != COLLCALC_OK)
            return status;
    }
    return COLLCALC_OK;
}

/* One cell of a Weight, Hops or Link Type row. */
static collcalc_status rocm_cell(topo_reader *reader, int row, int column, const char *word)
{
    collcalc_topo_cell *cell = &reader->topo->cells[row][column];
    const char *rowname = reader->topo->devices[row].name;
    const char *colname = reader->topo->devices[column].name;
    if (reader->rocm_block != ROCM_LINK) {
        int value = parse_small_number(word);
        const char *p = word;
        long digits = 0;
        if (value < 0 || !text_read_digits(&p, &digits) || *p != '\0')
            return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: '%.20s' in row %s, column %s is not a %s (0 to "
                                      "4095)",
                                      reader->line_number, word, rowname, colname,
                                      reader->rocm_block == ROCM_WEIGHT ? "weight" : "hop count");
        if (reader->rocm_block == ROCM_WEIGHT)
            cell->weight = value;
        else
            cell->hops = value;
        return COLLCALC_OK;
    }
    int self = strcmp(word, "0") == 0 || strcmp(word, "X") == 0;
    if (self != (row == column))
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: row %s, column %s is '%.20s': %s", reader->line_number,
                                  rowname, colname, word,
                                  self ? "0 belongs on the diagonal only"
                                       : "a GPU's link to itself is 0");
    if (self) {
        cell->connection = COLLCALC_TOPO_SELF;
        cell->bonds = 0;
    } else if (strcmp(word, "XGMI") == 0) {
        cell->connection = COLLCALC_TOPO_NVLINK; /* one xGMI link: see collcalc_topo.rocm_smi */
        cell->bonds = 1;
    } else if (strcmp(word, "PCIE") == 0) {
        cell->connection = COLLCALC_TOPO_PHB; /* SYS across NUMA nodes: rocm_finish */
        cell->bonds = 0;
    } else {
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: unknown link type '%.20s' in row %s, column %s "
                                  "(expected XGMI, PCIE or 0)",
                                  reader->line_number, word, rowname, colname);
    }
    return COLLCALC_OK;
}

/* A line inside a rocm-smi block. */
static collcalc_status read_rocm_line(topo_reader *reader, char *clean)
{
    collcalc_topo *topo = reader->topo;
    if (text_starts_with(clean, "GPU[")) {
        rocm_numa_line(reader, clean);
        return COLLCALC_OK;
    }
    int block = reader->rocm_block;
    if (block != ROCM_WEIGHT && block != ROCM_HOPS && block != ROCM_LINK)
        return COLLCALC_OK;
    char *words[WORDS_MAX];
    size_t count = text_split_words(clean, words, WORDS_MAX);
    if (count > WORDS_MAX)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: %zu columns, more than %d devices fit",
                                  reader->line_number, count, COLLCALC_TOPO_DEVICES_MAX);
    if (count == 0 || !text_starts_with(words[0], "GPU"))
        return COLLCALC_OK;
    if (count == 1 || text_starts_with(words[1], "GPU"))
        return rocm_header(reader, words, count);
    int row = find_device(topo, words[0]);
    if (row < 0)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  topo->header_line == 0
                                      ? "line %ld: row %.40s before the block's GPU names"
                                      : "line %ld: row %.40s is not among the block's GPUs",
                                  reader->line_number, words[0]);
    if ((int)count - 1 != topo->gpu_count)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: row %s has %zu cells, the block names %d GPUs",
                                  reader->line_number, words[0], count - 1, topo->gpu_count);
    for (int c = 0; c < topo->gpu_count; c++) {
        collcalc_status status = rocm_cell(reader, row, c, words[c + 1]);
        if (status != COLLCALC_OK)
            return status;
    }
    reader->rocm_rows[block]++;
    if (block == ROCM_LINK) {
        topo->devices[row].line = reader->line_number;
        reader->rocm_link_row[row] = 1;
    }
    return COLLCALC_OK;
}

/* After the last line of a rocm-smi text: every GPU's Link Type row read;
 * PCIE pairs across NUMA nodes are SYS. */
static collcalc_status rocm_finish(topo_reader *reader)
{
    collcalc_topo *topo = reader->topo;
    if (topo->header_line == 0)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "rocm-smi --showtopo text without a GPU matrix ('GPU0 GPU1 ...' "
                                  "under a 'between two GPUs' title) in %ld lines",
                                  reader->last_line);
    if (reader->rocm_link_line == 0)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "rocm-smi --showtopo text without its 'Link Type between two "
                                  "GPUs' block: which pairs are xGMI is not known");
    for (int g = 0; g < topo->gpu_count; g++)
        if (!reader->rocm_link_row[g])
            return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: the 'Link Type between two GPUs' block has no row "
                                      "%s (%d rows for %d GPUs)",
                                      reader->rocm_link_line, topo->devices[g].name,
                                      reader->rocm_rows[ROCM_LINK], topo->gpu_count);
    for (int i = 0; i < topo->gpu_count; i++)
        for (int j = 0; j < topo->gpu_count; j++) {
            int a = topo->devices[i].numa_node, b = topo->devices[j].numa_node;
            if (topo->cells[i][j].connection == COLLCALC_TOPO_PHB && a >= 0 && b >= 0 && a != b)
                topo->cells[i][j].connection = COLLCALC_TOPO_SYS;
        }
    topo->rows_parsed = topo->device_count;
    int far = 0, first = -1, second = -1;
    for (int i = 0; i < topo->gpu_count; i++)
        for (int j = i + 1; j < topo->gpu_count; j++)
            if (topo->cells[i][j].connection == COLLCALC_TOPO_NVLINK && topo->cells[i][j].hops > 1 &&
                far++ == 0) {
                first = i;
                second = j;
            }
    if (far > 0) {
        collcalc_finding *finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-xgmi-hops",
            "Keep the busiest pairs (TP) on one-hop xGMI links.",
            "%d xGMI GPU pair%s take more than one hop (e.g. %s-%s, %d hops): their traffic passes "
            "through another GPU's links.",
            far, far == 1 ? "" : "s", topo->devices[first].name, topo->devices[second].name,
            topo->cells[first][second].hops);
        collcalc_finding_add_line(finding, topo->devices[first].line);
    }
    return COLLCALC_OK;
}

static collcalc_status read_line(topo_reader *reader, char *clean)
{
    if (rocm_title(reader, clean))
        return COLLCALC_OK;
    if (reader->topo->rocm_smi)
        return read_rocm_line(reader, clean);
    char *words[WORDS_MAX];
    size_t count = text_split_words(clean, words, WORDS_MAX);
    if (count > WORDS_MAX)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: %zu columns, more than %d devices fit", reader->line_number,
                                  count, COLLCALC_TOPO_DEVICES_MAX);
    if (reader->topo->header_line == 0) {
        if (is_header(words, count))
            return parse_header(reader, words, count);
        if (count >= 2 && strcmp(words[0], "GPU0") == 0)
            return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: row GPU0 before any header line (expected "
                                      "'GPU0 GPU1 ... CPU Affinity' first)",
                                      reader->line_number);
        return COLLCALC_OK;
    }
    if (reader->matrix_done || reader->topo->rows_parsed >= reader->topo->device_count) {
        if (is_header(words, count) && reader->second_header_line == 0) {
            reader->second_header_line = reader->line_number;
            reader->second_header_offset = reader->line_offset;
        }
        parse_legend_line(reader, words, count);
        return COLLCALC_OK;
    }
    return read_matrix_line(reader, words, count);
}

static collcalc_status check_text(const char *text, size_t length, collcalc_diag *diag)
{
    if (length > COLLCALC_TOPO_TEXT_MAX_BYTES)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%zu bytes is more than a topo matrix (at most %u bytes)", length,
                                  COLLCALC_TOPO_TEXT_MAX_BYTES);
    long line = 1;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n')
            line++;
        else if (text_is_binary_byte(c))
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "line %ld: binary data (byte 0x%02x), not nvidia-smi topo -m "
                                      "text",
                                      line, c);
    }
    return COLLCALC_OK;
}

static collcalc_status read_lines(topo_reader *reader, const char *text, size_t length)
{
    char clean[LINE_MAX_BYTES];
    size_t offset = 0;
    text_line line;
    while (text_next_line(text, length, &offset, &line)) {
        reader->line_number++;
        reader->line_offset = (size_t)(line.start - text);
        reader->unterminated_last = offset >= length && (line.length == 0 || offset == 0 ||
                                                         text[offset - 1] != '\n');
        int cut = 0;
        text_clean(line.start, line.length, clean, sizeof clean, &cut);
        if (cut)
            return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: longer than %d bytes, not a topo matrix row",
                                      reader->line_number, LINE_MAX_BYTES);
        collcalc_status status = read_line(reader, clean);
        if (status != COLLCALC_OK)
            return status;
    }
    reader->last_line = reader->line_number;
    return COLLCALC_OK;
}

/* Cells of the rows the excerpt lost, from the columns of the rows it kept
 * (the matrix is symmetric); cells between two lost rows stay X. */
static void fill_missing_rows(collcalc_topo *topo)
{
    for (int i = topo->rows_parsed; i < topo->device_count; i++)
        for (int j = 0; j < topo->rows_parsed; j++)
            topo->cells[i][j] = topo->cells[j][i];
}

/* After the last line: the GPU rows must all be there; missing NIC rows are
 * a truncated excerpt (a warning). */
static collcalc_status check_rows(topo_reader *reader)
{
    collcalc_topo *topo = reader->topo;
    if (topo->header_line == 0)
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "not an nvidia-smi topo -m matrix: no header line ('GPU0 GPU1 ... "
                                  "CPU Affinity') in %ld lines",
                                  reader->last_line);
    if (topo->rows_parsed >= topo->device_count)
        return COLLCALC_OK;
    /* The last GPU row cut after its GPU cells, or missing whole while every
     * other GPU row holds its column: the GPU pairs are all known (the
     * matrix is symmetric). Its NIC distances past the cut are not. */
    int lenient_row = -1, known_cells = 0;
    if (reader->short_row >= 0 && reader->short_row == topo->rows_parsed &&
        reader->short_row == topo->gpu_count - 1 && reader->short_row_cells >= topo->gpu_count) {
        lenient_row = reader->short_row;
        known_cells = reader->short_row_cells;
    } else if (reader->short_row < 0 && topo->rows_parsed == topo->gpu_count - 1 &&
               topo->rows_parsed >= 2) {
        lenient_row = topo->rows_parsed;
        for (int j = 0; j < lenient_row; j++)
            topo->cells[lenient_row][j] = topo->cells[j][lenient_row];
        topo->cells[lenient_row][lenient_row].connection = COLLCALC_TOPO_SELF;
        topo->cells[lenient_row][lenient_row].bonds = 0;
        known_cells = topo->gpu_count;
    }
    if (lenient_row >= 0) {
        for (int j = known_cells; j < topo->device_count; j++) {
            topo->cells[lenient_row][j].connection = COLLCALC_TOPO_SYS; /* unknown: the farthest */
            topo->cells[lenient_row][j].bonds = 0;
        }
        long at = reader->short_row >= 0 ? reader->short_row_line : reader->last_line;
        int nic_unknown = topo->device_count - known_cells;
        collcalc_finding *finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_WARNING, "topo-last-gpu-row",
            "Paste the whole output of nvidia-smi topo -m to see every GPU's NIC distances.",
            "Row %s is %s (line %ld): its GPU pairs are known from the other rows (the matrix is "
            "symmetric)%s.",
            topo->devices[lenient_row].name, reader->short_row >= 0 ? "cut short" : "missing", at,
            nic_unknown > 0 ? "; its distances to the NICs are not in the excerpt and are taken "
                              "as SYS (the farthest)"
                            : "");
        collcalc_finding_add_line(finding, at);
        topo->rows_parsed = lenient_row + 1;
        reader->short_row = -1;
        if (topo->rows_parsed >= topo->device_count)
            return COLLCALC_OK;
    }
    const char *missing = topo->devices[topo->rows_parsed].name;
    if (topo->rows_parsed < topo->gpu_count) {
        if (reader->short_row >= 0)
            return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                      "line %ld: matrix truncated in row %s (%d of %d cells)",
                                      reader->short_row_line, missing, reader->short_row_cells,
                                      topo->device_count);
        return collcalc_diag_fail(reader->diag, COLLCALC_ERR_INVALID,
                                  "line %ld: matrix truncated: row %s is missing (%d of %d rows "
                                  "after the header at line %ld)",
                                  reader->last_line, missing, topo->rows_parsed, topo->device_count,
                                  topo->header_line);
    }
    topo->truncated = 1;
    fill_missing_rows(topo);
    long at = reader->short_row >= 0 ? reader->short_row_line : reader->last_line;
    collcalc_finding *finding = collcalc_findings_add(
        &topo->advice, COLLCALC_SEVERITY_WARNING, "topo-truncated",
        "Paste the whole output of nvidia-smi topo -m (with its NIC Legend) to see NIC-to-NIC paths.",
        "Matrix truncated at row %s (line %ld): %d of %d rows present; all %d GPU rows are complete, "
        "so GPU pairs and GPU-to-NIC paths are kept, rows %s..%s are missing.",
        missing, at, topo->rows_parsed, topo->device_count, topo->gpu_count, missing,
        topo->devices[topo->device_count - 1].name);
    collcalc_finding_add_line(finding, at);
    return COLLCALC_OK;
}

/* -------------------------------------------------------------- analysis */

static int is_gpu(const collcalc_topo *topo, int i)
{
    return topo->devices[i].kind == COLLCALC_TOPO_GPU;
}

/* Writes a set of device indexes (ascending) as "GPU0-GPU3" runs or a list. */
static void format_set(const collcalc_topo *topo, const int *set, int n, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && set[j + 1] == set[j] + 1)
            j++;
        const char *sep = i == 0 ? "" : ", ";
        if (j - i >= 2) {
            text_append(buf, cap, "%s%s-%s", sep, topo->devices[set[i]].name, topo->devices[set[j]].name);
            i = j + 1;
        } else {
            text_append(buf, cap, "%s%s", sep, topo->devices[set[i]].name);
            i++;
        }
    }
}

static const char *nic_label(const collcalc_topo *topo, int nic, char *buf, size_t cap)
{
    const collcalc_topo_device *d = &topo->devices[nic];
    if (d->legend_name[0] != '\0')
        snprintf(buf, cap, "%s (%s)", d->name, d->legend_name);
    else
        snprintf(buf, cap, "%s", d->name);
    return buf;
}

static void add_evidence_rows(collcalc_finding *finding, const collcalc_topo *topo, const int *set,
                              int n)
{
    for (int i = 0; i < n; i++)
        collcalc_finding_add_line(finding, topo->devices[set[i]].line);
}

static int max_gpu_bonds(const collcalc_topo *topo)
{
    int best = 0;
    for (int i = 0; i < topo->device_count; i++)
        for (int j = 0; j < topo->device_count; j++)
            if (is_gpu(topo, i) && is_gpu(topo, j) &&
                topo->cells[i][j].connection == COLLCALC_TOPO_NVLINK && topo->cells[i][j].bonds > best)
                best = topo->cells[i][j].bonds;
    return best;
}

static double link_rate_GBps(collcalc_gpu_generation generation)
{
    switch (generation) {
    case COLLCALC_GPU_PASCAL: return 20.0;
    case COLLCALC_GPU_BLACKWELL: return 50.0;
    case COLLCALC_GPU_CDNA3: return 64.0; /* xGMI: data/links.json xgmi-mi300x */
    case COLLCALC_GPU_CDNA4: return 76.8; /* xGMI: data/links.json xgmi-mi355x */
    default: return 25.0;
    }
}

static int pcie_generation(collcalc_gpu_generation generation)
{
    switch (generation) {
    case COLLCALC_GPU_PASCAL:
    case COLLCALC_GPU_VOLTA: return 3;
    case COLLCALC_GPU_HOPPER:
    case COLLCALC_GPU_BLACKWELL:
    case COLLCALC_GPU_CDNA3: /* MI300X/MI355X data sheets: PCIe Gen5 x16 host interface */
    case COLLCALC_GPU_CDNA4: return 5;
    default: return 4;
    }
}

/* Infers the generation from the largest NV# between GPUs (the bond counts
 * NVIDIA's systems print: see the file comment). */
static void infer_generation(collcalc_topo *topo, int bonds)
{
    char *note = topo->generation_note;
    size_t cap = sizeof topo->generation_note;
    topo->generation_inferred = 1;
    if (bonds == 18) {
        topo->generation = COLLCALC_GPU_HOPPER;
        topo->generation_ambiguous = 1;
        snprintf(note, cap,
                 "NV18 is Hopper (H100/H200/H20, NVLink 4, 25 GB/s per link per direction) or "
                 "Blackwell (B200/GB200, NVLink 5, 50 GB/s): ambiguous, Hopper assumed (450 GB/s per "
                 "GPU); give the GPU (sm100) for Blackwell's 900 GB/s.");
    } else if (bonds == 12) {
        topo->generation = COLLCALC_GPU_AMPERE;
        snprintf(note, cap, "NV12 is A100 (NVLink 3: 12 links x 25 GB/s per direction).");
    } else if (bonds == 8) {
        topo->generation = COLLCALC_GPU_HOPPER;
        snprintf(note, cap, "NV8 is H800 (8 NVLink 4 links x 25 GB/s per direction).");
    } else if (bonds == 6) {
        topo->generation = COLLCALC_GPU_VOLTA;
        snprintf(note, cap, "NV6 is V100 on DGX-2's NVSwitch (6 NVLink 2 links x 25 GB/s per "
                            "direction).");
    } else if (bonds > 0) {
        topo->generation = COLLCALC_GPU_UNKNOWN;
        snprintf(note, cap,
                 "NV%d: a bridge or direct links; GPU not identified, so NVLink 3's 25 GB/s per link "
                 "per direction is assumed (give the GPU to change it).",
                 bonds);
    } else {
        topo->generation = COLLCALC_GPU_UNKNOWN;
        snprintf(note, cap, "No NVLink; GPU not identified, so PCIe Gen4 is assumed for the PCIe "
                            "estimates (give the GPU to change it).");
    }
}

static void set_generation(collcalc_topo *topo, collcalc_gpu_generation given, int was_given)
{
    if (was_given) {
        topo->generation = given;
        snprintf(topo->generation_note, sizeof topo->generation_note,
                 "GPU generation given: %s (%.4g GB/s per %s per direction, PCIe Gen%d).",
                 collcalc_gpu_generation_name(given), link_rate_GBps(given),
                 topo->rocm_smi ? "xGMI link" : "NVLink", pcie_generation(given));
    } else if (topo->rocm_smi) {
        /* rocm-smi names no GPU model in --showtopo */
        topo->generation = COLLCALC_GPU_CDNA3;
        topo->generation_inferred = 1;
        topo->generation_ambiguous = 1;
        snprintf(topo->generation_note, sizeof topo->generation_note,
                 "rocm-smi --showtopo names no GPU: MI300X-class (CDNA3, xGMI 64 GB/s per link "
                 "per direction) assumed; give the GPU (mi355x) for CDNA4's 76.8 GB/s.");
    } else {
        infer_generation(topo, max_gpu_bonds(topo));
    }
    topo->nvlink_per_link_GBps = link_rate_GBps(topo->generation);
    topo->pcie_gen = pcie_generation(topo->generation);
}

static int find_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* Members of the island whose lowest device is root, ascending. */
static int island_members(const int *parent_root, int device_count, int root, int *members)
{
    int n = 0;
    for (int i = 0; i < device_count; i++)
        if (parent_root[i] == root)
            members[n++] = i;
    return n;
}

static void measure_island(collcalc_topo *topo, collcalc_topo_island *island, const int *members,
                           int n)
{
    island->gpu_count = n;
    island->first_gpu = members[0];
    island->line = topo->devices[members[0]].line;
    island->min_bonds = 0;
    island->max_bonds = 0;
    int pairs = 0, nv_pairs = 0;
    for (int a = 0; a < n; a++) {
        for (int b = a + 1; b < n; b++) {
            const collcalc_topo_cell *cell = &topo->cells[members[a]][members[b]];
            pairs++;
            if (cell->connection != COLLCALC_TOPO_NVLINK)
                continue;
            nv_pairs++;
            if (island->min_bonds == 0 || cell->bonds < island->min_bonds)
                island->min_bonds = cell->bonds;
            if (cell->bonds > island->max_bonds)
                island->max_bonds = cell->bonds;
        }
    }
    island->all_to_all = n >= 2 && nv_pairs == pairs && island->min_bonds == island->max_bonds;
    island->switched = island->all_to_all && n >= 3 && island->max_bonds * (n - 1) > 18;
}

static void measure_gpu_bandwidth(collcalc_topo *topo, collcalc_topo_island *island,
                                  const int *members, int n)
{
    island->per_gpu_GBps = 0.0;
    for (int a = 0; a < n; a++) {
        double sum = 0.0;
        if (island->switched) {
            sum = island->max_bonds * topo->nvlink_per_link_GBps;
        } else {
            for (int b = 0; b < n; b++)
                if (topo->cells[members[a]][members[b]].connection == COLLCALC_TOPO_NVLINK)
                    sum += topo->cells[members[a]][members[b]].bonds * topo->nvlink_per_link_GBps;
        }
        topo->devices[members[a]].nvlink_GBps = sum;
        if (a == 0 || sum < island->per_gpu_GBps)
            island->per_gpu_GBps = sum;
    }
}

static int compare_islands(const void *a, const void *b)
{
    const collcalc_topo_island *x = a, *y = b;
    if (x->gpu_count != y->gpu_count)
        return y->gpu_count - x->gpu_count;
    return x->first_gpu - y->first_gpu;
}

static void build_islands(collcalc_topo *topo)
{
    int parent[COLLCALC_TOPO_DEVICES_MAX], members[COLLCALC_TOPO_DEVICES_MAX];
    for (int i = 0; i < topo->device_count; i++)
        parent[i] = i;
    for (int i = 0; i < topo->device_count; i++)
        for (int j = i + 1; j < topo->device_count; j++)
            if (is_gpu(topo, i) && is_gpu(topo, j) &&
                topo->cells[i][j].connection == COLLCALC_TOPO_NVLINK) {
                topo->nvlink_pairs++;
                parent[find_root(parent, j)] = find_root(parent, i);
            }
    int root_of[COLLCALC_TOPO_DEVICES_MAX];
    for (int i = 0; i < topo->device_count; i++)
        root_of[i] = is_gpu(topo, i) ? find_root(parent, i) : -1;
    topo->island_count = 0;
    for (int i = 0; i < topo->device_count; i++) {
        if (root_of[i] < 0 || find_root(parent, i) != i)
            continue;
        int n = island_members(root_of, topo->device_count, i, members);
        collcalc_topo_island *island = &topo->islands[topo->island_count++];
        measure_island(topo, island, members, n);
        measure_gpu_bandwidth(topo, island, members, n);
    }
    qsort(topo->islands, (size_t)topo->island_count, sizeof topo->islands[0], compare_islands);
    for (int k = 0; k < topo->island_count; k++) {
        int n = island_members(root_of, topo->device_count,
                               root_of[topo->islands[k].first_gpu], members);
        for (int m = 0; m < n; m++)
            topo->devices[members[m]].island = k;
    }
}

static void find_nearest_nics(collcalc_topo *topo)
{
    for (int g = 0; g < topo->device_count; g++) {
        collcalc_topo_device *gpu = &topo->devices[g];
        if (!is_gpu(topo, g))
            continue;
        gpu->nearest_nic_count = 0;
        for (int n = 0; n < topo->device_count; n++) {
            if (is_gpu(topo, n))
                continue;
            collcalc_topo_class c = topo->cells[g][n].connection;
            if (gpu->nearest_nic_count > 0 && c > gpu->nearest_nic_class)
                continue;
            if (gpu->nearest_nic_count == 0 || c < gpu->nearest_nic_class) {
                gpu->nearest_nic_class = c;
                gpu->nearest_nic_count = 0;
            }
            if (gpu->nearest_nic_count < COLLCALC_TOPO_NEAREST_MAX)
                gpu->nearest_nics[gpu->nearest_nic_count] = n;
            gpu->nearest_nic_count++;
        }
    }
}

/* ---------------------------------------------------------------- advice */

static void advise_generation(collcalc_topo *topo)
{
    collcalc_finding *finding = collcalc_findings_add(
        &topo->advice, COLLCALC_SEVERITY_INFO, "topo-gpu-generation",
        !topo->generation_inferred ? NULL
        : topo->rocm_smi ? "Give the GPU (mi300x, mi355x, gfx942, gfx950) when the guess is wrong."
                         : "Give the GPU (sm80, sm90, sm100, or a name such as h100) when the "
                           "guess is wrong.",
        "%s", topo->generation_note);
    collcalc_finding_add_line(finding, topo->header_line);
}

static void advise_island(collcalc_topo *topo, const collcalc_topo_island *island)
{
    int members[COLLCALC_TOPO_DEVICES_MAX], n = 0;
    char set[160];
    int index = (int)(island - topo->islands);
    for (int i = 0; i < topo->device_count; i++)
        if (topo->devices[i].island == index)
            members[n++] = i;
    format_set(topo, members, n, set, sizeof set);
    collcalc_finding *finding;
    if (topo->rocm_smi && island->all_to_all && island->max_bonds == 1)
        finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-nvlink-island",
            "RCCL spreads its rings over different links (channels); all-to-all uses every link "
            "at once.",
            "xGMI full mesh of %d GPUs (%s): one xGMI link between every pair, %.4g GB/s per "
            "direction per pair, %.4g GB/s per GPU to its %d peer%s together; one ring crosses "
            "one link per GPU and direction.",
            n, set, topo->nvlink_per_link_GBps, island->per_gpu_GBps, n - 1, n == 2 ? "" : "s");
    else if (island->switched)
        finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-nvlink-island", NULL,
            "NVLink island of %d GPUs (%s): NV%d between every pair, an NVSwitch fabric: %.0f GB/s "
            "per direction per GPU (%d links x %.0f GB/s).",
            n, set, island->max_bonds, island->per_gpu_GBps, island->max_bonds,
            topo->nvlink_per_link_GBps);
    else if (island->all_to_all)
        finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-nvlink-island", NULL,
            "NVLink island of %d GPUs (%s): NV%d between every pair, direct links: %.0f GB/s per "
            "direction per pair (%d links x %.0f GB/s).",
            n, set, island->max_bonds, island->max_bonds * topo->nvlink_per_link_GBps,
            island->max_bonds, topo->nvlink_per_link_GBps);
    else
        finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-nvlink-island", NULL,
            "NVLink island of %d GPUs (%s), not all-to-all: pairs show NV%d to NV%d or no NVLink, "
            "so collectives inside it run at the slowest hop (at least %.0f GB/s NVLink per "
            "direction per GPU).",
            n, set, island->min_bonds, island->max_bonds, island->per_gpu_GBps);
    add_evidence_rows(finding, topo, members, n);
}

/* Connected components over GPU pairs whose class is at most `worst`
 * (NVLink counted as nearer than every PCIe class). component[i] is the
 * lowest GPU of i's component, -1 for NICs. Returns the component count. */
static int gpu_components(const collcalc_topo *topo, collcalc_topo_class worst, int *component)
{
    int parent[COLLCALC_TOPO_DEVICES_MAX];
    for (int i = 0; i < topo->device_count; i++)
        parent[i] = i;
    for (int i = 0; i < topo->device_count; i++)
        for (int j = i + 1; j < topo->device_count; j++)
            if (is_gpu(topo, i) && is_gpu(topo, j) && topo->cells[i][j].connection <= worst)
                parent[find_root(parent, j)] = find_root(parent, i);
    int count = 0;
    for (int i = 0; i < topo->device_count; i++) {
        component[i] = is_gpu(topo, i) ? find_root(parent, i) : -1;
        if (component[i] == i)
            count++;
    }
    return count;
}

/* Writes the components as "{GPU0, GPU1}, {GPU2, GPU3}" (pairs as
 * "(GPU0, GPU1)"); returns the size of the largest. */
static int format_components(const collcalc_topo *topo, const int *component, char *buf,
                             size_t cap)
{
    int members[COLLCALC_TOPO_DEVICES_MAX], largest = 0;
    char set[160];
    buf[0] = '\0';
    for (int root = 0; root < topo->device_count; root++) {
        if (component[root] != root)
            continue;
        int n = island_members(component, topo->device_count, root, members);
        if (n > largest)
            largest = n;
        format_set(topo, members, n, set, sizeof set);
        text_append(buf, cap, "%s%s%s%s", buf[0] != '\0' ? ", " : "", n == 2 ? "(" : "{", set,
               n == 2 ? ")" : "}");
    }
    return largest;
}

static collcalc_topo_class best_gpu_class(const collcalc_topo *topo)
{
    collcalc_topo_class best = COLLCALC_TOPO_SYS;
    for (int i = 0; i < topo->device_count; i++)
        for (int j = i + 1; j < topo->device_count; j++)
            if (is_gpu(topo, i) && is_gpu(topo, j) && topo->cells[i][j].connection < best)
                best = topo->cells[i][j].connection;
    return best;
}

static void advise_tp_nvlink(collcalc_topo *topo)
{
    int largest = topo->islands[0].gpu_count, members[COLLCALC_TOPO_DEVICES_MAX];
    char groups[COLLCALC_FINDING_TEXT_MAX], set[160];
    groups[0] = '\0';
    int count = 0;
    for (int k = 0; k < topo->island_count && topo->islands[k].gpu_count == largest; k++) {
        int n = 0;
        for (int i = 0; i < topo->device_count; i++)
            if (topo->devices[i].island == k)
                members[n++] = i;
        format_set(topo, members, n, set, sizeof set);
        text_append(groups, sizeof groups, "%s{%s}", count > 0 ? ", " : "", set);
        count++;
    }
    collcalc_finding *finding = collcalc_findings_add(
        &topo->advice, COLLCALC_SEVERITY_INFO, "topo-tp-groups",
        count > 1 ? "A TP group spanning islands runs at the PCIe path between them." : NULL,
        "Suggested TP groups: %s (TP up to %d stays inside one %s island, %.0f GB/s per "
        "direction per GPU).",
        groups, largest, collcalc_topo_fabric_name(topo), topo->islands[0].per_gpu_GBps);
    collcalc_finding_add_line(finding, topo->islands[0].line);
}

static void advise_tp_pcie(collcalc_topo *topo)
{
    int component[COLLCALC_TOPO_DEVICES_MAX];
    char groups[COLLCALC_FINDING_TEXT_MAX];
    collcalc_topo_class best = best_gpu_class(topo);
    int count = gpu_components(topo, best, component);
    int largest = format_components(topo, component, groups, sizeof groups);
    double GBps = collcalc_topo_class_estimate_GBps(best, topo->pcie_gen);
    collcalc_finding *finding;
    if (count == 1)
        finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-tp-groups",
            "Keep TP small on this box (its GPUs talk over PCIe); prefer PP or DP across GPUs.",
            "No GPU pair is closer than another (every pair %s): TP groups can be any GPUs, at about "
            "%.1f GB/s per direction over PCIe Gen%d.",
            collcalc_topo_class_name(best), GBps, topo->pcie_gen);
    else
        finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-tp-groups",
            "Map each TP group onto one of these sets; keep larger TP off this box's PCIe.",
            "Best GPU pairs are %s (%s): use them as TP=%d groups: %s (about %.1f GB/s per direction "
            "over PCIe Gen%d).",
            best == COLLCALC_TOPO_PIX ? "behind one PCIe switch" : "the nearest over PCIe",
            collcalc_topo_class_name(best), largest, groups, GBps, topo->pcie_gen);
    for (int i = 0; i < topo->device_count && finding != NULL; i++)
        if (is_gpu(topo, i))
            collcalc_finding_add_line(finding, topo->devices[i].line);
}

static void advise_ep(collcalc_topo *topo)
{
    int component[COLLCALC_TOPO_DEVICES_MAX];
    char groups[COLLCALC_FINDING_TEXT_MAX];
    collcalc_finding *finding;
    if (topo->nvlink_pairs > 0 && topo->islands[0].all_to_all) {
        gpu_components(topo, COLLCALC_TOPO_NVLINK, component);
        format_components(topo, component, groups, sizeof groups);
        finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-ep-groups", NULL,
            "EP groups: %s (all-to-all over %s: every pair %s%d, so dispatch and combine run at "
            "up to %.0f GB/s per direction per GPU).",
            groups, collcalc_topo_fabric_name(topo), topo->rocm_smi ? "xGMI x" : "NV",
            topo->islands[0].max_bonds, topo->islands[0].per_gpu_GBps);
        collcalc_finding_add_line(finding, topo->islands[0].line);
        return;
    }
    int count = gpu_components(topo, COLLCALC_TOPO_NODE, component);
    format_components(topo, component, groups, sizeof groups);
    if (count == 1)
        finding = collcalc_findings_add(&topo->advice, COLLCALC_SEVERITY_INFO, "topo-ep-groups", NULL,
                              "EP groups may span all %d GPUs: no pair crosses the CPU interconnect "
                              "(SYS).",
                              topo->gpu_count);
    else
        finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-ep-groups", NULL,
            "EP groups within one CPU socket: %s (no SYS pair inside); an all-to-all spanning them "
            "crosses the CPU interconnect at about %.1f GB/s per direction.",
            groups, collcalc_topo_class_estimate_GBps(COLLCALC_TOPO_SYS, topo->pcie_gen));
    collcalc_finding_add_line(finding, topo->header_line);
}

static void advise_avoid_sys(collcalc_topo *topo)
{
    int pairs = 0, first_a = -1, first_b = -1;
    for (int i = 0; i < topo->device_count; i++)
        for (int j = i + 1; j < topo->device_count; j++)
            if (is_gpu(topo, i) && is_gpu(topo, j) &&
                topo->cells[i][j].connection == COLLCALC_TOPO_SYS) {
                if (pairs++ == 0) {
                    first_a = i;
                    first_b = j;
                }
            }
    if (pairs == 0)
        return;
    int component[COLLCALC_TOPO_DEVICES_MAX];
    char groups[COLLCALC_FINDING_TEXT_MAX];
    gpu_components(topo, COLLCALC_TOPO_NODE, component);
    format_components(topo, component, groups, sizeof groups);
    collcalc_finding *finding = collcalc_findings_add(
        &topo->advice, COLLCALC_SEVERITY_INFO, "topo-avoid-sys",
        "Keep TP and EP groups inside one of the sets; only DP or PP traffic should cross.",
        "Pairs to avoid: %d GPU pairs are SYS (e.g. %s-%s), crossing the CPU interconnect at about "
        "%.1f GB/s per direction; the sets without a SYS pair are %s.",
        pairs, topo->devices[first_a].name, topo->devices[first_b].name,
        collcalc_topo_class_estimate_GBps(COLLCALC_TOPO_SYS, topo->pcie_gen), groups);
    collcalc_finding_add_line(finding, topo->devices[first_a].line);
}

/* What a PCIe class means for a GPU pair, for people. */
static const char *class_path(collcalc_topo_class connection)
{
    switch (connection) {
    case COLLCALC_TOPO_PIX: return "behind one PCIe switch";
    case COLLCALC_TOPO_PXB: return "across PCIe switches";
    case COLLCALC_TOPO_PHB: return "through the CPU's host bridge";
    case COLLCALC_TOPO_NODE: return "between host bridges of one NUMA node";
    case COLLCALC_TOPO_SYS: return "across the CPU interconnect";
    case COLLCALC_TOPO_SELF:
    case COLLCALC_TOPO_NVLINK: break;
    }
    return "";
}

static void advise_no_nvlink(collcalc_topo *topo)
{
    int counts[COLLCALC_TOPO_SYS + 1] = {0}, pairs = 0;
    for (int i = 0; i < topo->device_count; i++)
        for (int j = i + 1; j < topo->device_count; j++)
            if (is_gpu(topo, i) && is_gpu(topo, j)) {
                counts[topo->cells[i][j].connection]++;
                pairs++;
            }
    char mix[160] = "";
    collcalc_topo_class best = COLLCALC_TOPO_SYS, worst = COLLCALC_TOPO_PIX;
    for (int c = COLLCALC_TOPO_PIX; c <= COLLCALC_TOPO_SYS; c++) {
        if (counts[c] == 0)
            continue;
        text_append(mix, sizeof mix, "%s%d %s", mix[0] != '\0' ? ", " : "", counts[c],
               collcalc_topo_class_name((collcalc_topo_class)c));
        if ((collcalc_topo_class)c < best)
            best = (collcalc_topo_class)c;
        worst = (collcalc_topo_class)c;
    }
    const char *next = "Measure with nvbandwidth or p2pBandwidthLatencyTest; if NCCL logs show 'via "
                       "SHM', PCIe P2P is off (IOMMU/ACS, VM): check NCCL_P2P_LEVEL and "
                       "NCCL_P2P_DISABLE.";
    double x16 = pcie_x16_GBps(topo->pcie_gen);
    collcalc_finding *finding;
    if (best == worst)
        finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-no-nvlink", next,
            "No NVLink at all: P2P over PCIe, every one of the %d GPU pairs %s (%s); expect about "
            "%.1f GB/s per direction between GPUs on PCIe Gen%d (x16 line rate %.2f GB/s).",
            pairs, collcalc_topo_class_name(best), class_path(best),
            collcalc_topo_class_estimate_GBps(best, topo->pcie_gen), topo->pcie_gen, x16);
    else
        finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_INFO, "topo-no-nvlink", next,
            "No NVLink at all: P2P over PCIe (%s pairs); expect about %.1f GB/s per direction %s "
            "(%s), down to %.1f GB/s %s (%s), on PCIe Gen%d (x16 line rate %.2f GB/s).",
            mix, collcalc_topo_class_estimate_GBps(best, topo->pcie_gen), class_path(best),
            collcalc_topo_class_name(best), collcalc_topo_class_estimate_GBps(worst, topo->pcie_gen),
            class_path(worst), collcalc_topo_class_name(worst), topo->pcie_gen, x16);
    collcalc_finding_add_line(finding, topo->header_line);
}

/* Bonds never exceed 18 (peel_connection reads at most that). */
#define BONDS_MAX 18

/* Per GPU: how many of its NVLink pairs show each bond count, and the count
 * most of them show (ties: the larger). One pass over the matrix: O(n^2). */
typedef struct {
    int at[BONDS_MAX + 1];
    int common, at_common;
} bond_census;

static void count_bonds(const collcalc_topo *topo, int gpu, bond_census *census)
{
    memset(census, 0, sizeof *census);
    for (int k = 0; k < topo->device_count; k++) {
        const collcalc_topo_cell *cell = &topo->cells[gpu][k];
        if (is_gpu(topo, k) && cell->connection == COLLCALC_TOPO_NVLINK && cell->bonds >= 0 &&
            cell->bonds <= BONDS_MAX)
            census->at[cell->bonds]++;
    }
    for (int b = 0; b <= BONDS_MAX; b++)
        if (census->at[b] > 0 && census->at[b] >= census->at_common) {
            census->common = b;
            census->at_common = census->at[b];
        }
}

/* A pair below what most of an endpoint's pairs show (by a clear majority,
 * so the designed NV1/NV2 mix of a DGX-1 hybrid cube mesh is not flagged). */
static int odd_pair(const collcalc_topo *topo, const bond_census *census, int i, int j,
                    int *expected, int *by)
{
    int bonds = topo->cells[i][j].bonds;
    if (bonds < 0 || bonds > BONDS_MAX)
        return 0;
    int ends[2] = {i, j};
    for (int e = 0; e < 2; e++) {
        const bond_census *c = &census[ends[e]];
        if (bonds < c->common && c->at_common >= 2 * c->at[bonds]) {
            *expected = c->common;
            *by = ends[e];
            return 1;
        }
    }
    return 0;
}

static void advise_odd_bonds(collcalc_topo *topo)
{
    bond_census census[COLLCALC_TOPO_DEVICES_MAX]; /* about 22 kB */
    for (int i = 0; i < topo->device_count; i++)
        if (is_gpu(topo, i))
            count_bonds(topo, i, &census[i]);
    int reported = 0;
    for (int i = 0; i < topo->device_count; i++) {
        for (int j = i + 1; j < topo->device_count; j++) {
            int expected = 0, by = 0;
            if (!is_gpu(topo, i) || !is_gpu(topo, j) ||
                topo->cells[i][j].connection != COLLCALC_TOPO_NVLINK ||
                !odd_pair(topo, census, i, j, &expected, &by))
                continue;
            if (reported++ >= 8)
                continue;
            collcalc_finding *finding = collcalc_findings_add(
                &topo->advice, COLLCALC_SEVERITY_WARNING, "topo-odd-bond",
                "Check the bridge or baseboard links: nvidia-smi nvlink --status on both GPUs; "
                "reseat the bridge or report a down link.",
                "%s-%s shows NV%d where %s's other NVLink pairs show NV%d: a bridge that is not "
                "seated or a link that is down (%.0f instead of %.0f GB/s per direction).",
                topo->devices[i].name, topo->devices[j].name, topo->cells[i][j].bonds,
                topo->devices[by].name, expected,
                topo->cells[i][j].bonds * topo->nvlink_per_link_GBps,
                expected * topo->nvlink_per_link_GBps);
            collcalc_finding_add_line(finding, topo->devices[i].line);
            collcalc_finding_add_line(finding, topo->devices[j].line);
        }
    }
}

static void advise_nics(collcalc_topo *topo)
{
    char map[COLLCALC_FINDING_TEXT_MAX] = "", far[COLLCALC_FINDING_TEXT_MAX] = "", label[64];
    int far_count = 0;
    collcalc_finding *far_finding = NULL;
    for (int g = 0; g < topo->device_count; g++) {
        const collcalc_topo_device *gpu = &topo->devices[g];
        if (!is_gpu(topo, g) || gpu->nearest_nic_count == 0)
            continue;
        text_append(map, sizeof map, "%s%s->%s", map[0] != '\0' ? ", " : "", gpu->name,
               nic_label(topo, gpu->nearest_nics[0], label, sizeof label));
        if (gpu->nearest_nic_count > 1)
            text_append(map, sizeof map, "+%d", gpu->nearest_nic_count - 1);
        if (gpu->nearest_nic_class >= COLLCALC_TOPO_NODE) {
            text_append(far, sizeof far, "%s%s (%s %s)", far_count > 0 ? ", " : "", gpu->name,
                   collcalc_topo_class_name(gpu->nearest_nic_class), label);
            far_count++;
        }
    }
    if (map[0] == '\0')
        return;
    collcalc_finding *finding = collcalc_findings_add(
        &topo->advice, COLLCALC_SEVERITY_INFO, "topo-nearest-nics", NULL,
        "Nearest NIC per GPU (best class; +N more at the same class): %s.", map);
    collcalc_finding_add_line(finding, topo->header_line);
    if (far_count == 0)
        return;
    int nvlink = 0;
    for (int i = 0; i < topo->device_count && !nvlink; i++)
        for (int j = 0; j < topo->device_count && !nvlink; j++)
            nvlink = is_gpu(topo, i) && is_gpu(topo, j) &&
                     topo->cells[i][j].connection == COLLCALC_TOPO_NVLINK;
    far_finding = collcalc_findings_add(
        &topo->advice, COLLCALC_SEVERITY_WARNING, "topo-nic-far",
        nvlink ? "Keep PXN on (NCCL_PXN_DISABLE unset, NCCL 2.12+): these GPUs then send through "
                 "an NVLink peer's PIX NIC; check NCCL_IB_HCA lists the NICs in use and "
                 "NCCL_NET_GDR_LEVEL (GDR is used only up to that distance)."
               : "Check NCCL_NET_GDR_LEVEL (GDR is used only up to that distance) and NCCL_IB_HCA; "
                 "a NIC behind the GPU's own PCIe switch (PIX/PXB) is what GPUDirect RDMA needs.",
        "%d GPU%s reach their nearest NIC only across NODE/SYS: %s; GPUDirect RDMA will be slow or "
        "off for them.",
        far_count, far_count > 1 ? "s" : "", far);
    for (int g = 0; g < topo->device_count; g++)
        if (is_gpu(topo, g) && topo->devices[g].nearest_nic_count > 0 &&
            topo->devices[g].nearest_nic_class >= COLLCALC_TOPO_NODE)
            collcalc_finding_add_line(far_finding, topo->devices[g].line);
}

static void advise_numa(collcalc_topo *topo)
{
    int nodes[COLLCALC_TOPO_DEVICES_MAX], node_count = 0;
    for (int g = 0; g < topo->device_count; g++) {
        int node = topo->devices[g].numa_node;
        if (!is_gpu(topo, g) || node < 0)
            continue;
        int seen = 0;
        for (int k = 0; k < node_count; k++)
            seen |= nodes[k] == node;
        if (!seen)
            nodes[node_count++] = node;
    }
    if (node_count < 2)
        return;
    char text[COLLCALC_FINDING_TEXT_MAX] = "", set[160];
    for (int k = 0; k < node_count; k++) {
        int members[COLLCALC_TOPO_DEVICES_MAX], n = 0;
        for (int g = 0; g < topo->device_count; g++)
            if (is_gpu(topo, g) && topo->devices[g].numa_node == nodes[k])
                members[n++] = g;
        format_set(topo, members, n, set, sizeof set);
        const char *cpus = topo->devices[members[0]].cpu_affinity;
        text_append(text, sizeof text, "%sNUMA %d: %s%s%s%s", k > 0 ? "; " : "", nodes[k], set,
                    cpus[0] != '\0' ? " (CPUs " : "", cpus, cpus[0] != '\0' ? ")" : "");
    }
    collcalc_finding *finding = collcalc_findings_add(
        &topo->advice, COLLCALC_SEVERITY_INFO, "topo-numa",
        "Bind each rank's threads and host buffers to its GPU's NUMA node (numactl --cpunodebind, "
        "or the launcher's CPU binding).",
        "GPUs on %d NUMA nodes: %s.", node_count, text);
    collcalc_finding_add_line(finding, topo->header_line);
}

static void advise_asymmetry(collcalc_topo *topo)
{
    for (int i = 0; i < topo->rows_parsed; i++)
        for (int j = i + 1; j < topo->rows_parsed; j++) {
            const collcalc_topo_cell *a = &topo->cells[i][j], *b = &topo->cells[j][i];
            if (a->connection == b->connection && a->bonds == b->bonds)
                continue;
            collcalc_finding *finding = collcalc_findings_add(
                &topo->advice, COLLCALC_SEVERITY_WARNING, "topo-asymmetric",
                "Paste the matrix again from the machine; the row values were used.",
                "The matrix is not symmetric: row %s says %s%.0d to %s, row %s says %s%.0d.",
                topo->devices[i].name, collcalc_topo_class_name(a->connection), a->bonds,
                topo->devices[j].name, topo->devices[j].name,
                collcalc_topo_class_name(b->connection), b->bonds);
            collcalc_finding_add_line(finding, topo->devices[i].line);
            collcalc_finding_add_line(finding, topo->devices[j].line);
            return;
        }
}

static void advise(collcalc_topo *topo)
{
    advise_generation(topo);
    advise_asymmetry(topo);
    if (topo->nvlink_pairs > 0) {
        for (int k = 0; k < topo->island_count && k < 8; k++)
            if (topo->islands[k].gpu_count >= 2)
                advise_island(topo, &topo->islands[k]);
        advise_tp_nvlink(topo);
        advise_odd_bonds(topo);
    } else if (topo->gpu_count >= 2) {
        advise_no_nvlink(topo);
        advise_tp_pcie(topo);
    }
    if (topo->gpu_count >= 2) {
        advise_ep(topo);
        advise_avoid_sys(topo);
    }
    advise_nics(topo);
    advise_numa(topo);
    collcalc_findings_sort(&topo->advice);
}

static void topo_analyse(collcalc_topo *topo, collcalc_gpu_generation given, int was_given)
{
    set_generation(topo, given, was_given);
    build_islands(topo);
    find_nearest_nics(topo);
    advise(topo);
}

collcalc_status collcalc_topo_parse(const char *text, size_t length,
                                    const collcalc_topo_options *options, collcalc_topo **out,
                                    collcalc_diag *diag)
{
    *out = NULL;
    if (text == NULL && length > 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no text given");
    collcalc_gpu_generation generation;
    int given = 0;
    collcalc_status status =
        parse_gpu_option(options != NULL ? options->gpu : NULL, &generation, &given, diag);
    if (status != COLLCALC_OK)
        return status;
    status = check_text(text, length, diag);
    if (status != COLLCALC_OK)
        return status;
    collcalc_topo *topo = collcalc_mem_calloc(1, sizeof *topo);
    if (topo == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory for the topo matrix");
    collcalc_findings_init(&topo->advice);
    topo_reader reader;
    memset(&reader, 0, sizeof reader);
    reader.topo = topo;
    reader.diag = diag;
    reader.short_row = -1;
    if (options != NULL && options->first_line > 1)
        reader.line_number = options->first_line - 1;
    status = length > 0 ? read_lines(&reader, text, length) : COLLCALC_OK;
    if (status == COLLCALC_OK)
        status = topo->rocm_smi ? rocm_finish(&reader) : check_rows(&reader);
    if (status != COLLCALC_OK) {
        collcalc_mem_free(topo);
        return status;
    }
    if (reader.second_header_line > 0) {
        collcalc_finding *finding = collcalc_findings_add(
            &topo->advice, COLLCALC_SEVERITY_WARNING, "topo-second-matrix",
            "Give each matrix to collcalc topo on its own (one file per machine), or the whole "
            "file to collcalc check, which reads every matrix of a paste.",
            "A second matrix starts at line %ld; only the first (header at line %ld) was read.",
            reader.second_header_line, topo->header_line);
        collcalc_finding_add_line(finding, reader.second_header_line);
        topo->next_matrix_offset = reader.second_header_offset;
        topo->next_matrix_line = reader.second_header_line;
    }
    topo_analyse(topo, generation, given);
    *out = topo;
    return COLLCALC_OK;
}
