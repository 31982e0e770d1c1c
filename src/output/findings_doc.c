/* Findings for people and scripts (findings_doc.h). */
#include "findings_doc.h"

#include <stdio.h>

static const record_column FINDING_COLUMNS[] = {
    {"severity", "severity", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"code", "code", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"message", "finding", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"next_step", "next step", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"lines", "lines", FIELD_TEXT, COLUMN_MACHINE, NULL},
};
static const record_schema FINDING_SCHEMA = {"findings", 5, FINDING_COLUMNS};

static void line_list(char *buffer, size_t size, const collcalc_finding *finding)
{
    size_t used = 0;
    buffer[0] = '\0';
    for (int i = 0; i < finding->line_count && used < size; i++)
        used += (size_t)snprintf(buffer + used, size - used, "%s%ld", i ? " " : "",
                                 finding->lines[i]);
}

const record_schema *findings_schema(void)
{
    return &FINDING_SCHEMA;
}

/* The findings as records of set (NULL: none) and, for people, as lines. */
static void findings_into(document *doc, record_set *set, const collcalc_findings *findings,
                          bool text)
{
    for (size_t i = 0; i < findings->count; i++) {
        const collcalc_finding *f = &findings->items[i];
        char lines[128];
        line_list(lines, sizeof lines, f);
        if (set != NULL) {
            record_begin(set);
            record_text(set, "severity", collcalc_severity_name(f->severity));
            record_text(set, "code", f->code);
            record_text(set, "message", f->message);
            record_text(set, "next_step", f->next_step);
            record_text(set, "lines", lines);
        }
        if (!text)
            continue;
        if (lines[0] != '\0')
            doc_text(doc, "%-8s%s (line%s %s)", collcalc_severity_name(f->severity), f->message,
                     f->line_count > 1 ? "s" : "", lines);
        else
            doc_text(doc, "%-8s%s", collcalc_severity_name(f->severity), f->message);
        if (f->next_step[0] != '\0')
            doc_text(doc, "        next: %s", f->next_step);
    }
    if (findings->dropped > 0 && text)
        doc_note(doc, "%zu more findings did not fit", findings->dropped);
}

void findings_add(document *doc, const collcalc_findings *findings)
{
    record_set *set = doc_records(doc, &FINDING_SCHEMA);
    records_machine_only(set);
    findings_into(doc, set, findings, true);
}

void findings_records(record_set *set, const collcalc_findings *findings)
{
    findings_into(NULL, set, findings, false);
}

void findings_text(document *doc, const collcalc_findings *findings)
{
    findings_into(doc, NULL, findings, true);
}
