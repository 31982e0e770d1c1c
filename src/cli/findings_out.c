/* The --strict failure of findings; bounded line reading (findings_out.h). */
#include "findings_out.h"

#include <stdlib.h>

#include "batch_input.h"

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

int read_lines(cli_context *ctx, const char *path, size_t max_line, line_fn fn, void *context)
{
    FILE *file = NULL;
    int code = cli_open_input(ctx, path, &file);
    if (code != 0)
        return code;
    const char *shown = cli_input_name(path);
    /* batch's reader (src/answer/batch_lines.h): the one line reader */
    batch_reader *reader = malloc(sizeof *reader);
    batch_file source = {file, false};
    if (reader == NULL || !batch_reader_init(reader, batch_file_read, &source)) {
        free(reader);
        cli_close_input(ctx, file);
        return cli_data_error(ctx, shown, "out of memory");
    }
    reader->runaway_bytes = READ_LINE_REFUSE_BYTES;
    for (;;) {
        char *text;
        size_t length;
        batch_line_status status = batch_read_line(reader, &text, &length);
        if (status == BATCH_LINE_TOO_LONG) { /* cut: its first bytes */
            text = reader->prefix;
            length = reader->prefix_length;
        }
        if (status == BATCH_LINE_OK || status == BATCH_LINE_TOO_LONG) {
            fn(context, text, length < max_line ? length : max_line, reader->line);
            continue;
        }
        if (status == BATCH_LINE_RUNAWAY)
            code = cli_data_error(ctx, shown,
                                  "line %ld: over %d MiB without a line break: not a text log",
                                  reader->line, READ_LINE_REFUSE_BYTES >> 20);
        else if (status == BATCH_LINE_READ_ERROR)
            code = cli_data_error(ctx, shown, "read error");
        break;
    }
    batch_reader_free(reader);
    free(reader);
    cli_close_input(ctx, file);
    return code;
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
