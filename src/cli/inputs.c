/* Inputs several commands share (inputs.h). */
#include "inputs.h"

#include <string.h>

#include "findings_out.h"
#include "messages.h"
#include "helpers.h"

int cli_platform_named(cli_context *ctx, const char *name, const collcalc_platform **out)
{
    collcalc_session *session = NULL;
    int code = cli_session(ctx, &session);
    if (code != 0)
        return code;
    collcalc_diag diag;
    collcalc_status status = collcalc_session_platform(session, name, out, &diag);
    if (status == COLLCALC_ERR_NOT_FOUND)
        return cli_usage_error(ctx, "--platform", "%s", diag.message);
    if (status != COLLCALC_OK)
        return cli_data_error(ctx, "built-in data/platforms.json", "%s", diag.message);
    return 0;
}

const char *input_shown(const char *path)
{
    return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

typedef struct {
    collcalc_nccl_tests_reader *reader;
    int code;
    collcalc_diag diag;
    long failed_line;
} feed_state;

static void feed(void *context, const char *line, size_t length, long number)
{
    feed_state *state = context;
    if (state->code != 0)
        return;
    if (collcalc_nccl_tests_reader_feed_line(state->reader, line, length, number, &state->diag) !=
        COLLCALC_OK) {
        state->code = EXIT_DATA;
        state->failed_line = number;
    }
}

/* The reader options --op and --gpus give. */
static int reader_options(cli_context *ctx, collcalc_nccl_tests_reader_options *options)
{
    collcalc_nccl_tests_reader_options_init(options);
    const char *op = arg_value(&ctx->args, OPT_OP);
    collcalc_diag diag;
    if (op != NULL) {
        if (collcalc_op_from_name(op, &options->op, &diag) != COLLCALC_OK)
            return cli_usage_error(ctx, "--op", "%s", diag.message);
        options->has_op = true;
    }
    long ranks = 0;
    int code = cli_count(ctx, OPT_GPUS, 1, 1L << 20, &ranks);
    options->ranks = (int)ranks;
    return code;
}

typedef struct {
    collcalc_paste *paste;
    int code;
    collcalc_diag diag;
    long failed_line;
} paste_state;

static void feed_paste(void *context, const char *line, size_t length, long number)
{
    paste_state *state = context;
    if (state->code != 0)
        return;
    if (collcalc_paste_feed_line(state->paste, line, length, number, &state->diag) !=
        COLLCALC_OK) {
        state->code = EXIT_DATA;
        state->failed_line = number;
    }
}

int read_paste(cli_context *ctx, const char *path, collcalc_paste_result *result)
{
    collcalc_nccl_tests_reader_options options;
    int code = reader_options(ctx, &options);
    if (code != 0)
        return code;
    collcalc_diag diag;
    paste_state state = {NULL, 0, {{0}}, 0};
    if (collcalc_paste_create(&options, &state.paste, &diag) != COLLCALC_OK)
        return cli_data_error(ctx, NULL, "%s", diag.message);
    code = read_lines(ctx, path, COLLCALC_PASTE_LINE_BYTES, feed_paste, &state);
    if (code == 0 && state.code != 0)
        code = cli_data_error(ctx, input_shown(path), "line %ld: %s", state.failed_line,
                              state.diag.message);
    if (code == 0 && collcalc_paste_finish(state.paste, result, &diag) != COLLCALC_OK)
        code = cli_data_error(ctx, input_shown(path), "%s", diag.message);
    collcalc_paste_free(state.paste);
    return code;
}

int read_nccl_tests_run(cli_context *ctx, const char *path, collcalc_nccl_tests_run *run)
{
    collcalc_nccl_tests_reader_options options;
    collcalc_nccl_tests_reader_options_init(&options);
    const char *op = arg_value(&ctx->args, OPT_OP);
    collcalc_diag diag;
    if (op != NULL) {
        if (collcalc_op_from_name(op, &options.op, &diag) != COLLCALC_OK)
            return cli_usage_error(ctx, "--op", "%s", diag.message);
        options.has_op = true;
    }
    long ranks = 0;
    int code = cli_count(ctx, OPT_GPUS, 1, 1L << 20, &ranks);
    if (code != 0)
        return code;
    options.ranks = (int)ranks;
    feed_state state = {NULL, 0, {{0}}, 0};
    if (collcalc_nccl_tests_reader_create(&options, &state.reader, &diag) != COLLCALC_OK)
        return cli_data_error(ctx, NULL, "%s", diag.message);
    code = read_lines(ctx, path, COLLCALC_NCCL_TESTS_LINE_BYTES, feed, &state);
    if (code == 0 && state.code != 0)
        code = cli_data_error(ctx, input_shown(path), "line %ld: %s", state.failed_line,
                              state.diag.message);
    if (code == 0 && collcalc_nccl_tests_reader_finish(state.reader, run, &diag) != COLLCALC_OK)
        code = cli_data_error(ctx, input_shown(path), "%s", diag.message);
    collcalc_nccl_tests_reader_free(state.reader);
    return code;
}
