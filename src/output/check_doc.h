/* check's documents, built from a read paste (collcalc/paste.h): each run
 * predicted with NCCL's model on the cluster the command resolved for it,
 * its rows measured against predicted, a verdict (and, when none can be
 * given, why and which option to give), how the runs compare, what the
 * NCCL_DEBUG lines say (NCCL's TUNING table beside collcalc's model when
 * the cluster is known) and the topology matrices found. The command
 * (src/cli/cmd_check.c) reads argv and the file, resolves the cluster of a
 * run through check_hooks.model and renders these. */
#ifndef COLLCALC_OUTPUT_CHECK_DOC_H
#define COLLCALC_OUTPUT_CHECK_DOC_H

#include <stdbool.h>

#include "collcalc/nccl_model.h"
#include "collcalc/nccl_tests_reader.h"
#include "collcalc/paste.h"
#include "collcalc/platforms.h"
#include "plot.h"
#include "record.h"

/* NCCL's model of the cluster one run was on; system NULL when it cannot
 * be predicted (platform or ranks unknown, op not costed). */
typedef struct {
    const collcalc_platform *platform; /* NULL: the cluster is not known */
    int nodes, gpus_per_node;
    const collcalc_nccl_system *system;
    const collcalc_nccl_constants *constants;
    const collcalc_nccl_options *options;
    double line_rate_GBps; /* collcalc_check_line_rate_GBps of its path */
    bool guessed;          /* platform guessed from the run's GPU, not given */
    const collcalc_platform_table *platforms; /* the table it came from (NULL: none) */
    char shape_problem[200]; /* why the run's nodes are not known ("": they are) */
} check_model;

/* What the document needs from the command: the model of a run (modelled:
 * the op is one collcalc costs; returns 0 or an exit code, and *out stays
 * valid until the next call) and a warning for stderr. */
typedef struct {
    void *context;
    /* on: a preset to model the run on instead of the one given or guessed
     * (NULL: the usual choice) */
    int (*model)(void *context, const collcalc_nccl_tests_run *run, bool modelled,
                 const collcalc_platform *on, check_model *out);
    void (*warn)(void *context, const char *message);
} check_hooks;

/* A data error of the document (diag holds it); exit codes of the hooks
 * are returned as they are (> 0). */
#define CHECK_DOC_DATA_ERROR (-1)

/* The report of a paste with several runs: the runs table, one line and
 * the findings per run, how they compare, the NCCL_DEBUG lines and the
 * matrices. *unhealthy: a run is not healthy or the runs differ. */
int check_doc_runs(document *doc, const char *shown, collcalc_paste_result *paste,
                   const check_hooks *hooks, bool *unhealthy, collcalc_diag *diag);

/* The report of one run (run_index into paste->runs), measured against
 * predicted row by row. with_chart: the busbw chart into *out_chart (the
 * caller's). *verdict: the verdict's name (static). */
int check_doc_single(document *doc, const char *shown, collcalc_paste_result *paste,
                     size_t run_index, const check_hooks *hooks, bool with_chart,
                     plot_chart **out_chart, bool *unhealthy, const char **verdict,
                     collcalc_diag *diag);

/* A paste without nccl-tests rows but with NCCL_DEBUG lines or matrices:
 * what those say. */
int check_doc_other(document *doc, const char *shown, collcalc_paste_result *paste,
                    const check_hooks *hooks, bool *unhealthy, collcalc_diag *diag);

#endif
