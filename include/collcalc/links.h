/* The bandwidth hierarchy: link entries (HBM, NVLink, PCIe, InfiniBand,
 * Ethernet) loaded from a JSON table such as data/links.json. */
#ifndef COLLCALC_LINKS_H
#define COLLCALC_LINKS_H

#include <stddef.h>

#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Buffer sizes, including the NUL: names and aliases hold at most 31
 * characters, descriptions and sources at most 255 bytes. */
#define COLLCALC_NAME_MAX 32
#define COLLCALC_TEXT_MAX 256
/* Most aliases one link may have. */
#define COLLCALC_MAX_ALIASES 4
/* Most links one table may hold. */
#define COLLCALC_LINKS_MAX 256

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

/* One link. Every figure has a source string (where it comes from); the
 * built-in table fills all three, a user's table may leave them "". */
typedef struct {
    char name[COLLCALC_NAME_MAX]; /* "nvlink5" */
    char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX]; /* optional other names, "" when unused */
    char description[COLLCALC_TEXT_MAX]; /* one line; "" when not given */
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
 * json_length bytes; schema in data/README.md). Strict: schema_version must
 * be 1, unknown keys, duplicate keys, duplicate link names/aliases, wrong
 * types, non-finite or out-of-range numbers are refused and diag names the
 * JSON path ("links[3].bw_per_direction_GBps: must be > 0 (got 0)"); syntax
 * errors give the place ("line 3, column 14: not valid JSON: ..."). Returns
 * COLLCALC_ERR_INVALID for a bad document, COLLCALC_ERR_NOMEM when memory
 * runs out. On success *out_table is a new table the caller owns (free with
 * collcalc_link_table_free); on failure *out_table is NULL. */
collcalc_status collcalc_link_table_parse(const char *json_text, size_t json_length,
                                          collcalc_link_table **out_table,
                                          collcalc_diag *diag);

/* The table built into the binary from data/links.json, checked by the same
 * loader as users' files (messages name "built-in data/links.json"). Caller
 * owns the result (free with collcalc_link_table_free). */
collcalc_status collcalc_link_table_builtin(collcalc_link_table **out_table, collcalc_diag *diag);

/* The text of data/links.json as compiled in (NUL-terminated, static). */
const char *collcalc_builtin_links_json(void);

/* Frees a table and every entry it lent out. NULL is a no-op. */
void collcalc_link_table_free(collcalc_link_table *table);

/* Number of links (at least 1 in a loaded table; 0 for NULL). */
size_t collcalc_link_table_count(const collcalc_link_table *table);

/* Entry i (0-based, in file order); NULL when out of range. Borrowed. */
const collcalc_link *collcalc_link_table_at(const collcalc_link_table *table, size_t index);

/* Finds a link by name or alias, case-insensitively; NULL when absent.
 * Borrowed: valid while the table lives. */
const collcalc_link *collcalc_link_table_find(const collcalc_link_table *table, const char *name);

/* Bandwidth the model uses for this link under the given basis (GB/s):
 * bw_per_direction_GBps or headline_GBps. NaN for a NULL link or unknown
 * basis, so a misuse shows up in the model's finiteness checks. */
double collcalc_link_bandwidth_GBps(const collcalc_link *link, collcalc_bw_basis basis);

/* Stable lowercase names used in JSON files and output. Static strings,
 * never NULL; "unknown" for a value outside the enum. */

/* "on-package", "scale-up", "host", "scale-out". */
const char *collcalc_tier_name(collcalc_tier tier);
/* "memory", "nvlink", "pci", "net". */
const char *collcalc_link_class_name(collcalc_link_class link_class);
/* "both-directions", "per-direction", "single-figure". */
const char *collcalc_headline_counts_name(collcalc_headline_counts counts);
/* "per-direction", "headline". */
const char *collcalc_bw_basis_name(collcalc_bw_basis basis);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
