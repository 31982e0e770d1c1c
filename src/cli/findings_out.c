/* The --strict failure of findings; bounded line reading (findings_out.h). */
#include "findings_out.h"

#include <stdlib.h>

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
