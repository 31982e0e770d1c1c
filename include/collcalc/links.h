/* The bandwidth hierarchy: link entries (HBM, NVLink, PCIe, InfiniBand,
 * Ethernet) loaded from a JSON table such as data/links.json. */
#ifndef COLLCALC_LINKS_H
#define COLLCALC_LINKS_H

#include <stddef.h>

#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COLLCALC_NAME_MAX 32
#define COLLCALC_TEXT_MAX 256
#define COLLCALC_MAX_ALIASES 4

/* Where a link sits in the hierarchy, nearest the GPU first. */
typedef enum {
    COLLCALC_TIER_ON_PACKAGE = 0, /* HBM, die-to-die (NV-HBI) */
    COLLCALC_TIER_SCALE_UP,       /* NVLink / NVSwitch, xGMI */
    COLLCALC_TIER_HOST,           /* PCIe */
    COLLCALC_TIER_SCALE_OUT       /* InfiniBand, Ethernet/RoCE */
} collcalc_tier;

/* Hardware class as NCCL's latency tables see it. */
typedef enum {
    COLLCALC_LINK_CLASS_MEMORY = 0, /* HBM: not a GPU-to-GPU path */
    COLLCALC_LINK_CLASS_NVLINK,
    COLLCALC_LINK_CLASS_PCI,
    COLLCALC_LINK_CLASS_NET
} collcalc_link_class;

/* What the vendor's headline bandwidth figure counts. */
typedef enum {
    COLLCALC_HEADLINE_BOTH_DIRECTIONS = 0, /* NVLink "1,800 GB/s" = 900 each way */
    COLLCALC_HEADLINE_PER_DIRECTION,       /* NIC "400G" = 50 GB/s each way */
    COLLCALC_HEADLINE_SINGLE_FIGURE        /* HBM: one shared read+write number */
} collcalc_headline_counts;

/* Which bandwidth figure the model divides by. */
typedef enum {
    COLLCALC_BW_PER_DIRECTION = 0, /* the honest figure: a ring step sends and receives at once */
    COLLCALC_BW_HEADLINE           /* the vendor's quoted figure (the seed's worked examples) */
} collcalc_bw_basis;

/* One link. Every figure has a source string (where it comes from). */
typedef struct {
    char name[COLLCALC_NAME_MAX]; /* "nvlink5" */
    char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX]; /* optional other names, "" when unused */
    char description[COLLCALC_TEXT_MAX];
    collcalc_tier tier;
    collcalc_link_class link_class;
    double bw_per_direction_GBps; /* > 0 */
    double headline_GBps;         /* > 0 */
    collcalc_headline_counts headline_counts;
    double alpha_us; /* per-step latency, >= 0 */
    char bw_source[COLLCALC_TEXT_MAX];
    char headline_source[COLLCALC_TEXT_MAX];
    char alpha_source[COLLCALC_TEXT_MAX];
} collcalc_link;

/* An immutable, validated table of links. Opaque; free with
 * collcalc_link_table_free. */
typedef struct collcalc_link_table collcalc_link_table;

/* Parses and validates a link table from JSON text (not NUL-terminated;
 * json_length bytes). Strict: schema_version must be 1, unknown keys,
 * duplicate keys, duplicate link names/aliases, wrong types, non-finite or
 * out-of-range numbers are refused and diag names the JSON path
 * ("links[3].bw_per_direction_GBps: must be > 0"). On success *out_table is
 * a new table the caller owns. */
collcalc_status collcalc_link_table_parse(const char *json_text, size_t json_length,
                                          collcalc_link_table **out_table,
                                          collcalc_diag *diag);

/* The table built into the binary from data/links.json. Caller owns the result. */
collcalc_status collcalc_link_table_builtin(collcalc_link_table **out_table, collcalc_diag *diag);

/* The text of data/links.json as compiled in (NUL-terminated, static). */
const char *collcalc_builtin_links_json(void);

void collcalc_link_table_free(collcalc_link_table *table);

size_t collcalc_link_table_count(const collcalc_link_table *table);

/* Entry i (0-based, in file order); NULL when out of range. Borrowed. */
const collcalc_link *collcalc_link_table_at(const collcalc_link_table *table, size_t index);

/* Finds a link by name or alias, case-insensitively; NULL when absent.
 * Borrowed: valid while the table lives. */
const collcalc_link *collcalc_link_table_find(const collcalc_link_table *table, const char *name);

/* Bandwidth the model uses for this link under the given basis (GB/s). */
double collcalc_link_bandwidth_GBps(const collcalc_link *link, collcalc_bw_basis basis);

/* Stable lowercase names used in JSON files and output ("scale-up",
 * "nvlink", "both-directions", "per-direction", "headline"). */
const char *collcalc_tier_name(collcalc_tier tier);
const char *collcalc_link_class_name(collcalc_link_class link_class);
const char *collcalc_headline_counts_name(collcalc_headline_counts counts);
const char *collcalc_bw_basis_name(collcalc_bw_basis basis);

#ifdef __cplusplus
}
#endif

#endif
