/* compare's documents, built from prepared questions (collcalc/answer.h):
 * the algorithms of one cluster side by side, NCCL's candidates and switch
 * points, and the sides of a comparison. The command (src/cli/cmd_compare.c)
 * reads argv into requests and renders these. */
#ifndef COLLCALC_OUTPUT_COMPARE_DOC_H
#define COLLCALC_OUTPUT_COMPARE_DOC_H

#include <stdbool.h>
#include <stdint.h>

#include "collcalc/answer.h"
#include "collcalc/cluster_spec.h"
#include "plot.h"
#include "record.h"

enum { COMPARE_SIDES_MAX = 8 };

/* One side of a comparison: its label and its prepared question. */
typedef struct {
    char label[COLLCALC_PLACEMENT_LABEL_MAX];
    collcalc_prepared prepared;
} compare_side;

/* The alpha-beta algorithms of prepared (those named, else every one that
 * may be fastest) at each size, their crossovers 1 B .. 1 TiB; with_chart:
 * their curves into *out_chart (the caller's). COLLCALC_ERR_UNSUPPORTED
 * when no algorithm applies. */
collcalc_status compare_doc_algorithms(document *doc, const collcalc_prepared *prepared,
                                       const uint64_t *sizes, int size_count, bool with_chart,
                                       plot_chart **out_chart, collcalc_diag *diag);

/* NCCL's candidates at each size and its choice by size (1 B .. 1 TiB). */
collcalc_status compare_doc_nccl(document *doc, const collcalc_prepared *prepared,
                                 const uint64_t *sizes, int size_count, bool with_chart,
                                 plot_chart **out_chart, collcalc_diag *diag);

/* The sides at each size, each answered as the single command answers it
 * (collcalc_evaluate's headline), with their ratios to the first. answer
 * is scratch space. A failure names the field (*out_field "algos"), or ""
 * for a refusal of NCCL's model, or NULL for the data's. */
collcalc_status compare_doc_sides(document *doc, const collcalc_request *request,
                                  const compare_side *sides, int side_count,
                                  const uint64_t *sizes, int size_count, collcalc_answer *answer,
                                  const char **out_field, collcalc_diag *diag);

#endif
