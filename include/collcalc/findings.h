/* Findings: what a reader, checker or planner concluded, each with a
 * severity, a stable code, the evidence (input line numbers) and a next step.
 * Shared by topo advice, diagnose, check verdicts and plan rule checks. */
#ifndef COLLCALC_FINDINGS_H
#define COLLCALC_FINDINGS_H

#include <stddef.h>

#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Most severe last, so sorting by value puts errors first when reversed. */
typedef enum {
    COLLCALC_SEVERITY_INFO = 0,
    COLLCALC_SEVERITY_WARNING,
    COLLCALC_SEVERITY_ERROR
} collcalc_severity;

#define COLLCALC_FINDING_CODE_MAX 40
#define COLLCALC_FINDING_TEXT_MAX 320
#define COLLCALC_FINDING_LINES_MAX 8
#define COLLCALC_FINDINGS_MAX 48

typedef struct {
    collcalc_severity severity;
    char code[COLLCALC_FINDING_CODE_MAX];      /* stable id, e.g. "net-socket-fallback" */
    char message[COLLCALC_FINDING_TEXT_MAX];   /* what was found, one sentence */
    char next_step[COLLCALC_FINDING_TEXT_MAX]; /* what to check or set; "" when none */
    int line_count;                            /* evidence lines kept (<= LINES_MAX) */
    long lines[COLLCALC_FINDING_LINES_MAX];    /* 1-based input line numbers, ascending */
} collcalc_finding;

/* A bounded list of findings. Fill with collcalc_findings_init first. */
typedef struct {
    size_t count;   /* items[0..count) are valid */
    size_t dropped; /* findings that did not fit */
    collcalc_finding items[COLLCALC_FINDINGS_MAX];
} collcalc_findings;

/* Empties the list. */
void collcalc_findings_init(collcalc_findings *findings);

/* Appends a finding (printf-style message; next_step may be NULL) and
 * returns it so evidence lines can be added, or NULL when the list is full
 * (dropped is counted). Texts are cut to fit. */
collcalc_finding *collcalc_findings_add(collcalc_findings *findings, collcalc_severity severity,
                                        const char *code, const char *next_step,
                                        const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Adds an evidence line number (kept sorted, duplicates ignored; past
 * LINES_MAX the latest lines are not kept). NULL-safe. */
void collcalc_finding_add_line(collcalc_finding *finding, long line);

/* The finding with this code, or NULL. */
collcalc_finding *collcalc_findings_find(collcalc_findings *findings, const char *code);

/* Stable order for people and scripts: errors first, then warnings, then
 * info; within a severity, the order they were added. */
void collcalc_findings_sort(collcalc_findings *findings);

/* Highest severity present; COLLCALC_SEVERITY_INFO when empty. */
collcalc_severity collcalc_findings_worst(const collcalc_findings *findings);

/* "info", "warning", "error". Static, never NULL. */
const char *collcalc_severity_name(collcalc_severity severity);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
