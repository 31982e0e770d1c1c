/* topo's document, built from a parsed matrix (collcalc/topo.h): the GPU
 * grid, the NVLink (or xGMI) islands, each GPU's NUMA node and nearest
 * NICs, every pair as a record, and the advice. The command
 * (src/cli/cmd_topo.c) reads the file and renders this; check renders the
 * matrices it finds in a paste with topo_doc_grid. */
#ifndef COLLCALC_OUTPUT_TOPO_DOC_H
#define COLLCALC_OUTPUT_TOPO_DOC_H

#include "collcalc/topo.h"
#include "record.h"

/* The whole report of topo for the matrix read from `shown`. */
void topo_doc(document *doc, const collcalc_topo *topo, const char *shown);

/* The GPU-to-GPU grid for people only: the connection words as the tool
 * printed them ("NV18", "PIX", "XGMI"). */
void topo_doc_grid(document *doc, const collcalc_topo *topo);

/* One line for people: "8 GPUs, 4 NICs; NVLink islands {GPU0-7} (NV18)". */
void topo_doc_summary_line(document *doc, const collcalc_topo *topo);

#endif
