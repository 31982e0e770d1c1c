/* The whole public API in one include: every header under include/collcalc/.
 * Programs may include this or only the module headers they use; nothing
 * else is needed (no cJSON, no private headers). tests/install/umbrella.cmake
 * fails when a public header is missing here. */
#ifndef COLLCALC_COLLCALC_H
#define COLLCALC_COLLCALC_H

/* Version, status codes and diagnostics, findings. */
#include "collcalc/version.h"
#include "collcalc/status.h"
#include "collcalc/findings.h"

/* Numbers with units: parsing and formatting sizes, times, bandwidths. */
#include "collcalc/units.h"

/* Data tables: links, platform presets, model shapes; building a cluster. */
#include "collcalc/links.h"
#include "collcalc/platforms.h"
#include "collcalc/models.h"
#include "collcalc/cluster_spec.h"

/* Cost models: alpha-beta and NCCL-faithful; nccl-tests' conventions. */
#include "collcalc/model.h"
#include "collcalc/nccl_model.h"
#include "collcalc/nccl_tests.h"

/* Readers for artefacts from real machines. */
#include "collcalc/nccl_tests_reader.h"
/* collcalc/nccl_log.h is left out while its collcalc_nccl_graph clashes with
 * the one in collcalc/nccl_model.h (tests/install/umbrella.cmake says so). */
#include "collcalc/topo.h"

/* Deployment planning. */
#include "collcalc/plan.h"

#endif
