/* Findings (advice, diagnoses, rule checks) as records and lines for people,
 * the same for every document that has them. */
#ifndef COLLCALC_OUTPUT_FINDINGS_DOC_H
#define COLLCALC_OUTPUT_FINDINGS_DOC_H

#include "collcalc/findings.h"
#include "record.h"

/* Adds the "findings" list (severity, code, message, next_step, lines) and,
 * for people, one block per finding, most severe first. */
void findings_add(document *doc, const collcalc_findings *findings);

/* The findings list's schema, for a nested list (a run's findings). */
const record_schema *findings_schema(void);

/* The findings as rows of set only (a nested list: no lines for people). */
void findings_records(record_set *set, const collcalc_findings *findings);

/* The findings as lines for people only (their records go elsewhere). */
void findings_text(document *doc, const collcalc_findings *findings);

#endif
