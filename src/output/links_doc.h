/* links' document: the link table, and the bandwidth cliff between
 * adjacent tiers along a path of links (HBM -> NVLink -> PCIe -> NIC). The
 * command (src/cli/cmd_links.c) reads the path and renders these. */
#ifndef COLLCALC_OUTPUT_LINKS_DOC_H
#define COLLCALC_OUTPUT_LINKS_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "collcalc/links.h"
#include "collcalc/platforms.h"
#include "record.h"

/* One stop on the path: a link, or a range of two (low..high). */
typedef struct {
    const collcalc_link *low;
    const collcalc_link *high;
    char label[2 * COLLCALC_NAME_MAX + 2];
} path_stop;

/* Every link of the table as a record, for basis. */
void links_doc_table(document *doc, const collcalc_link_table *links, collcalc_bw_basis basis);

/* The stops' ratios, the cliff (the largest drop) and the scale-up vs
 * scale-out summary. */
void links_doc_cliff(document *doc, const path_stop *stops, int count, collcalc_bw_basis basis);

/* --path: links by name, comma-separated, a stop of two as "low|high";
 * at most max stops, at least two. False with why ("unknown link ...",
 * "needs at least two links"). */
bool links_doc_parse_path(const collcalc_link_table *links, const char *text, path_stop *stops,
                          int max, int *out_count, char *why, size_t size);

/* The path of a platform's tiers from the GPU outwards (memory, intra,
 * host, inter; a missing tier is skipped), comma-separated into path. */
void links_doc_platform_path(const collcalc_platform *platform, char *path, size_t size);

#endif
