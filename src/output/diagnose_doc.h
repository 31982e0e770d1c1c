/* diagnose's document, built from a read NCCL_DEBUG log (collcalc/nccl_log.h):
 * version, ranks, nodes, network, channels, the transport of every hop and
 * the findings. The command (src/cli/cmd_diagnose.c) reads the file and
 * renders this. */
#ifndef COLLCALC_OUTPUT_DIAGNOSE_DOC_H
#define COLLCALC_OUTPUT_DIAGNOSE_DOC_H

#include "collcalc/nccl_log.h"
#include "record.h"

/* The whole report of diagnose for the log read from `shown`. */
void diagnose_doc(document *doc, const collcalc_nccl_log *log, const collcalc_findings *findings,
                  const char *shown);

#endif
