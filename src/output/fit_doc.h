/* fit's report, built from the fit (collcalc/fit.h): the parameters with
 * their ranges, the residuals of each run before and after, and where the
 * platform file went. The command (src/cli/cmd_fit.c) reads the runs,
 * fits, writes the file and renders this. */
#ifndef COLLCALC_OUTPUT_FIT_DOC_H
#define COLLCALC_OUTPUT_FIT_DOC_H

#include <stddef.h>

#include "collcalc/fit.h"
#include "collcalc/platforms.h"
#include "record.h"

/* What the report says of one run besides its residuals. */
typedef struct {
    const char *file; /* as messages name it ("<stdin>") */
    collcalc_op op;
    int nodes, gpus_per_node;
    const char *nccl_constants; /* the NCCL release it was predicted with */
} fit_doc_run;

/* The report of r, a fit of platform to count runs (run_of[0..count)),
 * written as platform name into output. */
void fit_doc(document *doc, const collcalc_fit_result *r, const collcalc_platform *platform,
             const char *name, const char *output, const fit_doc_run *run_of, size_t count);

#endif
