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

/* One preset. Link fields name entries of the link table the platform table
 * was validated against. Every figure has a source string. */
typedef struct {
    char name[COLLCALC_NAME_MAX];                          /* "hgx-h100" */
    char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX]; /* "" when unused */
    char description[COLLCALC_TEXT_MAX];
    char gpu[COLLCALC_NAME_MAX];        /* "H100 SXM" */
    int gpus_per_node;                  /* GPUs in one NVLink domain, 1..100000 */
    char intra_link[COLLCALC_NAME_MAX]; /* link between GPUs inside the node */
    char inter_link[COLLCALC_NAME_MAX]; /* scale-out NIC type */
    int nics_per_node;                  /* scale-out NICs per node, 1..100000 */
    char memory_link[COLLCALC_NAME_MAX]; /* HBM: the first tier of the hierarchy */
    char host_link[COLLCALC_NAME_MAX];   /* CPU-GPU path (PCIe), for the cliff table */
    bool nvls;  /* the NVSwitch reduces in the switch (NVLink SHARP) */
    bool sharp; /* the scale-out fabric reduces in the switches (IB SHARP) */
    char topology_source[COLLCALC_TEXT_MAX]; /* gpus_per_node and links */
    char nics_source[COLLCALC_TEXT_MAX];
    char nvls_source[COLLCALC_TEXT_MAX];
} collcalc_platform;

typedef struct collcalc_platform_table collcalc_platform_table;

/* Parses and validates a platform table (same strictness as the link
 * table: schema_version 1, unknown/duplicate keys, types, ranges, unique
 * names and aliases). Every link name must exist in `links`; diag names the
 * JSON path ("platforms[2].intra_link: unknown link 'nvlink9'"). On success
 * the caller owns *out_table. */
collcalc_status collcalc_platform_table_parse(const char *json_text, size_t json_length,
                                              const collcalc_link_table *links,
                                              collcalc_platform_table **out_table,
                                              collcalc_diag *diag);

/* The table compiled in from data/platforms.json, checked against `links`. */
collcalc_status collcalc_platform_table_builtin(const collcalc_link_table *links,
                                                collcalc_platform_table **out_table,
                                                collcalc_diag *diag);

/* The text of data/platforms.json as compiled in (NUL-terminated, static). */
const char *collcalc_builtin_platforms_json(void);

void collcalc_platform_table_free(collcalc_platform_table *table);
size_t collcalc_platform_table_count(const collcalc_platform_table *table);
const collcalc_platform *collcalc_platform_table_at(const collcalc_platform_table *table,
                                                    size_t index);
/* By name or alias, case-insensitively; NULL when absent. Borrowed. */
const collcalc_platform *collcalc_platform_table_find(const collcalc_platform_table *table,
                                                      const char *name);

#ifdef __cplusplus
}
#endif

#endif
