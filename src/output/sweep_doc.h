/* sweep's document, built from a prepared question (collcalc/answer.h):
 * a row per size, as nccl-tests would print it. The command
 * (src/cli/cmd_sweep.c) reads argv into the request and renders this. */
#ifndef COLLCALC_OUTPUT_SWEEP_DOC_H
#define COLLCALC_OUTPUT_SWEEP_DOC_H

#include <stdbool.h>
#include <stdint.h>

#include "collcalc/answer.h"
#include "plot.h"
#include "record.h"

/* The rows of prepared at each size (moved as nccl-tests moves it), the
 * header lines for people (nccl-tests' own with nccl_style), and with
 * with_chart the busbw curve into *out_chart (the caller's). On failure
 * *out_nccl_refused says whether the question's shape was refused (a
 * usage error) rather than the data. */
collcalc_status sweep_doc(document *doc, const collcalc_prepared *prepared, const uint64_t *sizes,
                          int size_count, bool nccl_style, bool with_chart,
                          plot_chart **out_chart, bool *out_nccl_refused, collcalc_diag *diag);

#endif
