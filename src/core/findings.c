/* Bounded lists of findings (include/collcalc/findings.h). */
#include "collcalc/findings.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void collcalc_findings_init(collcalc_findings *findings)
{
    findings->count = 0;
    findings->dropped = 0;
}

collcalc_finding *collcalc_findings_add(collcalc_findings *findings, collcalc_severity severity,
                                        const char *code, const char *next_step,
                                        const char *format, ...)
{
    if (findings->count >= COLLCALC_FINDINGS_MAX) {
        findings->dropped++;
        return NULL;
    }
    collcalc_finding *finding = &findings->items[findings->count++];
    memset(finding, 0, sizeof *finding);
    finding->severity = severity;
    snprintf(finding->code, sizeof finding->code, "%s", code != NULL ? code : "");
    snprintf(finding->next_step, sizeof finding->next_step, "%s",
             next_step != NULL ? next_step : "");
    va_list args;
    va_start(args, format);
    vsnprintf(finding->message, sizeof finding->message, format, args);
    va_end(args);
    return finding;
}

void collcalc_finding_add_line(collcalc_finding *finding, long line)
{
    if (finding == NULL || line <= 0)
        return;
    int at = 0;
    while (at < finding->line_count && finding->lines[at] < line)
        at++;
    if (at < finding->line_count && finding->lines[at] == line)
        return;
    if (finding->line_count >= COLLCALC_FINDING_LINES_MAX)
        return;
    memmove(&finding->lines[at + 1], &finding->lines[at],
            (size_t)(finding->line_count - at) * sizeof finding->lines[0]);
    finding->lines[at] = line;
    finding->line_count++;
}

collcalc_finding *collcalc_findings_find(collcalc_findings *findings, const char *code)
{
    for (size_t i = 0; i < findings->count; i++)
        if (strcmp(findings->items[i].code, code) == 0)
            return &findings->items[i];
    return NULL;
}

void collcalc_findings_sort(collcalc_findings *findings)
{
    /* Insertion sort: stable, and lists are short. */
    for (size_t i = 1; i < findings->count; i++) {
        collcalc_finding item = findings->items[i];
        size_t j = i;
        while (j > 0 && findings->items[j - 1].severity < item.severity) {
            findings->items[j] = findings->items[j - 1];
            j--;
        }
        findings->items[j] = item;
    }
}

collcalc_severity collcalc_findings_worst(const collcalc_findings *findings)
{
    collcalc_severity worst = COLLCALC_SEVERITY_INFO;
    for (size_t i = 0; i < findings->count; i++)
        if (findings->items[i].severity > worst)
            worst = findings->items[i].severity;
    return worst;
}

const char *collcalc_severity_name(collcalc_severity severity)
{
    switch (severity) {
    case COLLCALC_SEVERITY_INFO: return "info";
    case COLLCALC_SEVERITY_WARNING: return "warning";
    case COLLCALC_SEVERITY_ERROR: return "error";
    }
    return "unknown";
}
