/* Files a command writes (output_target.h). */
#include "output_target.h"

#include <string.h>

#include "messages.h"

/* The inputs of the command: its operands and every FILE option but the
 * outputs, at most max of them. */
static size_t command_inputs(const cli_context *ctx, const char **inputs, size_t max)
{
    size_t n = 0;
    for (int i = 0; i < ctx->args.positional_count && n < max; i++)
        inputs[n++] = arg_positional(&ctx->args, i);
    for (int id = OPT_NONE + 1; id < OPT_COUNT; id++) {
        const option_def *def = option_def_of((option_id)id);
        if (id == OPT_OUTPUT || id == OPT_SVG || def->value_name == NULL ||
            strcmp(def->value_name, "FILE") != 0)
            continue;
        for (int k = 0; k < ctx->args.count[id] && n < max; k++)
            inputs[n++] = ctx->args.values[id][k];
    }
    return n;
}

int output_target_open(cli_context *ctx, option_id option, const char *path, output_file *f)
{
    enum { INPUTS_MAX = 64 };
    const char *inputs[INPUTS_MAX];
    size_t count = command_inputs(ctx, inputs, INPUTS_MAX), which = 0;
    int error_number = 0;
    output_file_status status = output_file_open(f, path, ctx->out, ctx->in, inputs, count,
                                                 &which, &error_number);
    if (status == OUTPUT_FILE_IS_INPUT) {
        char shown[80], input[80];
        message_cut(shown, sizeof shown, path, strlen(path));
        message_cut(input, sizeof input, inputs[which], strlen(inputs[which]));
        return cli_usage_error(ctx, cli_spelled(ctx, option),
                               "'%s' is the input %s: writing it would replace what is read; "
                               "give another file",
                               shown, strcmp(input, "-") == 0 ? "<stdin>" : input);
    }
    if (status == OUTPUT_FILE_ERROR)
        return cli_data_error(ctx, path, "cannot write: %s", strerror(error_number));
    if (f->is_stdout)
        ctx->report_dropped = true;
    return 0;
}

int output_target_commit(cli_context *ctx, const char *path, const char *what, output_file *f)
{
    bool kept = f->existed && f->temp != NULL; /* a regular file, replaced only when complete */
    int error_number = 0;
    if (output_file_commit(f, &error_number))
        return 0;
    if (f->is_stdout || strcmp(path, "-") == 0)
        return cli_data_error(ctx, "<stdout>", "cannot write %s: %s", what,
                              strerror(error_number));
    return cli_data_error(ctx, path, "cannot write %s: %s%s", what, strerror(error_number),
                          kept ? " (the file is as it was)" : "");
}
