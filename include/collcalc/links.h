/* The bandwidth hierarchy: link entries (HBM, NVLink, PCIe, InfiniBand,
 * Ethernet) loaded from a JSON table such as data/links.json. */
#ifndef COLLCALC_LINKS_H
#define COLLCALC_LINKS_H

#include <stddef.h>

#include "collcalc/model.h"
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
    COLLCALC_BW_HEADLINE           /* the vendor's quoted figure (the textbook examples) */
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
    double p2p_efficiency; /* optional: measured fraction of bw_per_direction_GBps that
                              point-to-point traffic reaches (0.05..1); 0 = not stated */
    char bw_source[COLLCALC_TEXT_MAX];
    char headline_source[COLLCALC_TEXT_MAX];
    char alpha_source[COLLCALC_TEXT_MAX];
    char p2p_efficiency_source[COLLCALC_TEXT_MAX];
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

/* The table built into the binary from data/links.json: checked at build
 * time by the same loader as users' files and compiled in as a static,
 * read-only table, which this hands out without parsing, copying or
 * allocating (the one failure left is a NULL out_table). Free it with
 * collcalc_link_table_free like any table (which leaves this one). */
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
/* The same, or COLLCALC_ERR_NOT_FOUND with "FIELD: unknown link 'name' (did
 * you mean ...?); known: ..." (field NULL: without "FIELD: "): the lookup
 * whose message every command gives. */
collcalc_status collcalc_link_table_lookup(const collcalc_link_table *table, const char *field,
                                const char *name, const collcalc_link **out, collcalc_diag *diag);

/* Bandwidth the model uses for this link under the given basis (GB/s):
 * bw_per_direction_GBps or headline_GBps. NaN for a NULL link or unknown
 * basis, so a misuse shows up in the model's finiteness checks. */
double collcalc_link_bandwidth_GBps(const collcalc_link *link, collcalc_bw_basis basis);

/* The model's figures for a table entry under a basis: name, bandwidth
 * (collcalc_link_bandwidth_GBps), alpha, and nvlink = (link_class is
 * COLLCALC_LINK_CLASS_NVLINK). A NULL link gives collcalc_link_params_init's
 * values. Implemented in src/data/link_params.c. */
void collcalc_link_params_from_link(const collcalc_link *link, collcalc_bw_basis basis,
                                    collcalc_link_params *out_params);

/* Physical bounds on link figures, shared by the link table loader and the
 * --bw/--alpha overrides (data/README.md, "Physical bounds"). Bandwidths
 * from 1 MB/s (slower than any link collcalc models: 10 Mb Ethernet is
 * 1.25 MB/s) to 100 TB/s (ten times the fastest figure in the table,
 * NV-HBI's 10 TB/s headline); latencies 0, or from 1 ps to 1 s per step. */
#define COLLCALC_LINK_BW_MIN_GBPS 0.001
#define COLLCALC_LINK_BW_MAX_GBPS 100000.0
#define COLLCALC_LINK_ALPHA_MIN_US 1e-6 /* smallest non-zero latency */
#define COLLCALC_LINK_ALPHA_MAX_US 1e6

/* Checks a bandwidth (GB/s) against the bounds: finite and within
 * [COLLCALC_LINK_BW_MIN_GBPS, COLLCALC_LINK_BW_MAX_GBPS]. diag gets
 * "must be between 0.001 and 100000 GB/s (got 5e-324)", no prefix. */
collcalc_status collcalc_link_check_bandwidth_GBps(double GBps, collcalc_diag *diag);

/* Checks a per-step latency (us): 0, or finite within
 * [COLLCALC_LINK_ALPHA_MIN_US, COLLCALC_LINK_ALPHA_MAX_US]. */
collcalc_status collcalc_link_check_alpha_us(double alpha_us, collcalc_diag *diag);

/* Refuses a link that cannot carry traffic between GPUs or NICs: a memory
 * tier (HBM, NV-HBI: tier on-package or class memory). diag:
 * "'hbm3' is a memory tier (on-package), not a link between GPUs", no
 * prefix. NULL link is COLLCALC_ERR_INVALID. */
collcalc_status collcalc_link_check_between_gpus(const collcalc_link *link, collcalc_diag *diag);

/* Overlay tables (a user's --links file on top of the built-in table). */

/* Where an entry of a table came from. */
typedef enum {
    COLLCALC_ENTRY_BASE = 0, /* the base table (the built-in one), unchanged */
    COLLCALC_ENTRY_ADDED,    /* the overlay, with a name the base did not have */
    COLLCALC_ENTRY_REPLACED  /* the overlay, replacing the base entry of that name */
} collcalc_entry_origin;

/* As collcalc_link_table_parse, with origin naming the document in every
 * message ("my-links.json: links[2].alpha_us: ...", "<stdin>: line 3,
 * ..."); origin may be NULL. */
collcalc_status collcalc_link_table_parse_named(const char *json_text, size_t json_length,
                                                const char *origin,
                                                collcalc_link_table **out_table,
                                                collcalc_diag *diag);

/* A new table: base's entries in base order, each replaced in place by the
 * overlay entry of the same name (ignoring case; the overlay's aliases
 * replace the base entry's), then overlay's other entries in file order.
 * Refused (COLLCALC_ERR_INVALID) when an overlay name or alias equals an
 * alias or name of a different base entry, or the result would hold more
 * than COLLCALC_LINKS_MAX links. Both inputs are borrowed; the caller owns
 * *out_table (free with collcalc_link_table_free), NULL on failure. */
collcalc_status collcalc_link_table_overlay(const collcalc_link_table *base,
                                            const collcalc_link_table *overlay,
                                            collcalc_link_table **out_table,
                                            collcalc_diag *diag);

/* Where entry index came from; COLLCALC_ENTRY_BASE for a parsed table or an
 * index out of range. */
collcalc_entry_origin collcalc_link_table_origin(const collcalc_link_table *table, size_t index);

/* Number of entries with origin COLLCALC_ENTRY_REPLACED (0 for NULL). */
size_t collcalc_link_table_replaced_count(const collcalc_link_table *table);

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
