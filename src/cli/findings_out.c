/* Findings for people and scripts; bounded line reading (findings_out.h). */
#include "findings_out.h"

#include <stdlib.h>

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

int findings_strict_failure(cli_context *ctx, const collcalc_findings *findings)
{
    char codes[160] = "";
    size_t errors = 0, used = 0;
    for (size_t i = 0; i < findings->count; i++) {
        if (findings->items[i].severity != COLLCALC_SEVERITY_ERROR)
            continue;
        if (errors++ < 3 && used < sizeof codes)
            used += (size_t)snprintf(codes + used, sizeof codes - used, "%s%s", used ? ", " : "",
                                     findings->items[i].code);
    }
    return cli_strict_failure(ctx, "%zu error finding%s (%s%s)", errors, errors == 1 ? "" : "s",
                              codes, errors > 3 ? ", ..." : "");
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

int read_lines(cli_context *ctx, const char *path, size_t max_line, line_fn fn, void *context)
{
    FILE *file = NULL;
    int code = cli_open_input(ctx, path, &file);
    if (code != 0)
        return code;
    const char *shown = cli_input_name(path);
    char *line = malloc(max_line + 2);
    if (line == NULL) {
        cli_close_input(ctx, file);
        return cli_data_error(ctx, shown, "out of memory");
    }
    long number = 0;
    size_t length = 0, seen = 0;
    int c;
    while ((c = getc(file)) != EOF) {
        if (c == '\n') {
            fn(context, line, length, ++number);
            length = 0;
            seen = 0;
            continue;
        }
        if (length < max_line) /* past it the line is cut: the rest is dropped */
            line[length++] = (char)c;
        /* A line with no end (/dev/zero, a binary file) is refused, not read forever. */
        if (++seen > READ_LINE_REFUSE_BYTES) {
            free(line);
            cli_close_input(ctx, file);
            return cli_data_error(ctx, shown,
                                  "line %ld: over %d MiB without a line break: not a text log",
                                  number + 1, READ_LINE_REFUSE_BYTES >> 20);
        }
    }
    if (length > 0)
        fn(context, line, length, ++number);
    bool failed = ferror(file) != 0;
    free(line);
    cli_close_input(ctx, file);
    if (failed)
        return cli_data_error(ctx, shown, "read error");
    return 0;
}

int input_operand(cli_context *ctx, const char **out_path)
{
    if (ctx->args.positional_count == 0)
        return cli_usage_error(ctx, NULL, "missing the input: a FILE, or '-' for standard input");
    if (ctx->args.positional_count > 1)
        return cli_usage_error(ctx, NULL, "one input at a time (got '%.60s' too)",
                               ctx->args.positionals[1]);
    *out_path = ctx->args.positionals[0];
    return 0;
}
