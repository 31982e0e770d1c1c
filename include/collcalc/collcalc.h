/* The whole public API in one include: every header under include/collcalc/.
 * Programs may include this or only the module headers they use; nothing
 * else is needed (no cJSON, no private headers). tests/install/umbrella.cmake
 * fails when a public header is missing here. */
#ifndef COLLCALC_COLLCALC_H
#define COLLCALC_COLLCALC_H

/* Version, status codes and diagnostics, findings, allocation hooks. */
#include "collcalc/version.h"
#include "collcalc/status.h"
#include "collcalc/findings.h"
#include "collcalc/alloc.h"

/* Numbers with units: parsing and formatting sizes, times, bandwidths. */
#include "collcalc/units.h"

/* Data tables: links, platform presets, model shapes; building a cluster. */
#include "collcalc/links.h"
#include "collcalc/platforms.h"
#include "collcalc/models.h"
#include "collcalc/gpus.h"
#include "collcalc/cluster_spec.h"

/* Cost models: alpha-beta and NCCL-faithful; nccl-tests' conventions. */
#include "collcalc/model.h"
#include "collcalc/nccl_model.h"
#include "collcalc/nccl_tests.h"
#include "collcalc/fit.h"
#include "collcalc/nccl_check.h"

/* Readers for artefacts from real machines. */
#include "collcalc/nccl_tests_reader.h"
#include "collcalc/nccl_log.h"
#include "collcalc/paste.h"
#include "collcalc/topo.h"
#include "collcalc/topo_cluster.h"

/* Deployment planning. */
#include "collcalc/plan.h"
#include "collcalc/answer.h"

/* A command line's answer as text, for other languages (bindings/python). */
#include "collcalc/ask.h"

#endif
