/* Platform presets: what a node (or NVLink domain) of a known system looks
 * like — GPUs per node, the links inside and between nodes, NICs per node,
 * in-switch reduction — loaded from a JSON table such as data/platforms.json. */
#ifndef COLLCALC_PLATFORMS_H
#define COLLCALC_PLATFORMS_H

#include <stdbool.h>
#include <stddef.h>

#include "collcalc/links.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Most platforms one table may hold. */
#define COLLCALC_PLATFORMS_MAX 256

/* One preset. Link fields hold the canonical names (not aliases) of entries
 * of the link table the platform table was validated against; memory_link
 * and host_link are "" when the file leaves them out (e.g. a GDDR card whose
 * memory is not in the link table). The built-in table gives every figure a
 * source string; a user's table may leave sources "". */
typedef struct {
    char name[COLLCALC_NAME_MAX];                          /* "hgx-h100" */
    char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX]; /* "" when unused */
    char description[COLLCALC_TEXT_MAX]; /* one line; "" when not given */
    char gpu[COLLCALC_NAME_MAX];        /* "H100 SXM": free text, 1..31 bytes */
    int gpus_per_node;                  /* GPUs in one NVLink domain, 1..100000 */
    char intra_link[COLLCALC_NAME_MAX]; /* GPU-GPU inside the node: scale-up or host tier */
    char inter_link[COLLCALC_NAME_MAX]; /* scale-out NIC type: scale-out tier */
    int nics_per_node;                  /* scale-out NICs per node, 1..100000 */
    char memory_link[COLLCALC_NAME_MAX]; /* HBM (on-package tier); "" when not given */
    char host_link[COLLCALC_NAME_MAX];   /* CPU-GPU path (host tier, PCIe), for the cliff
                                            table; "" when not given */
    bool nvls;  /* the NVSwitch reduces in the switch (NVLink SHARP); needs an NVLink
                   intra_link */
    bool sharp; /* the scale-out fabric reduces in the switches (IB SHARP) */
    char topology_source[COLLCALC_TEXT_MAX]; /* gpus_per_node and links */
    char nics_source[COLLCALC_TEXT_MAX];
    char nvls_source[COLLCALC_TEXT_MAX];
} collcalc_platform;

typedef struct collcalc_platform_table collcalc_platform_table;

/* Parses and validates a platform table from JSON text (json_length bytes,
 * not NUL-terminated; schema in data/README.md), with the same strictness as
 * the link table: schema_version 1, unknown/duplicate keys, types, ranges,
 * unique names and aliases. Every link name must exist in `links` (by name or
 * alias, any case) and sit in the right tier; diag names the JSON path
 * ("platforms[2].intra_link: unknown link 'nvlink9'"). `links` is borrowed
 * only during the call. Returns COLLCALC_ERR_INVALID for a bad document (or
 * NULL links/out_table), COLLCALC_ERR_NOMEM when memory runs out. On success
 * the caller owns *out_table (free with collcalc_platform_table_free); on
 * failure *out_table is NULL. */
collcalc_status collcalc_platform_table_parse(const char *json_text, size_t json_length,
                                              const collcalc_link_table *links,
                                              collcalc_platform_table **out_table,
                                              collcalc_diag *diag);

/* The table compiled in from data/platforms.json, checked against `links`
 * by the same loader (messages name "built-in data/platforms.json"). Caller
 * owns the result (free with collcalc_platform_table_free). */
collcalc_status collcalc_platform_table_builtin(const collcalc_link_table *links,
                                                collcalc_platform_table **out_table,
                                                collcalc_diag *diag);

/* The text of data/platforms.json as compiled in (NUL-terminated, static). */
const char *collcalc_builtin_platforms_json(void);

/* Frees a table and every entry it lent out. NULL is a no-op. */
void collcalc_platform_table_free(collcalc_platform_table *table);

/* Number of platforms (at least 1 in a loaded table; 0 for NULL). */
size_t collcalc_platform_table_count(const collcalc_platform_table *table);

/* Entry i (0-based, in file order); NULL when out of range. Borrowed. */
const collcalc_platform *collcalc_platform_table_at(const collcalc_platform_table *table,
                                                    size_t index);
/* By name or alias, case-insensitively; NULL when absent. Borrowed. */
const collcalc_platform *collcalc_platform_table_find(const collcalc_platform_table *table,
                                                      const char *name);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
