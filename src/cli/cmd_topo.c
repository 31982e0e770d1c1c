/* collcalc topo: reads `nvidia-smi topo -m` and says which GPUs share fast
 * paths, which NIC sits next to each GPU, and how to place TP/EP groups. */
#include <stdlib.h>
#include <string.h>

#include "collcalc/topo.h"
#include "commands.h"
#include "findings_out.h"
#include "topo_doc.h"

/* The file, refused past the reader's 1 MiB limit without reading more. */
static int read_matrix_text(cli_context *ctx, const char *path, char **out_text, size_t *out_length)
{
    FILE *file = NULL;
    int code = cli_open_input(ctx, path, &file);
    if (code != 0)
        return code;
    const char *shown = cli_input_name(path);
    size_t cap = COLLCALC_TOPO_TEXT_MAX_BYTES;
    char *text = malloc(cap + 2);
    if (text == NULL) {
        cli_close_input(ctx, file);
        return cli_data_error(ctx, shown, "out of memory");
    }
    size_t length = fread(text, 1, cap + 1, file);
    bool failed = ferror(file) != 0;
    cli_close_input(ctx, file);
    if (failed || length > cap) {
        free(text);
        return failed ? cli_data_error(ctx, shown, "read error")
                      : cli_data_error(ctx, shown,
                                       "more than %u bytes: not an nvidia-smi topo -m matrix "
                                       "(stopped reading there)",
                                       COLLCALC_TOPO_TEXT_MAX_BYTES);
    }
    text[length] = '\0';
    *out_text = text;
    *out_length = length;
    return 0;
}

int cmd_topo(cli_context *ctx)
{
    const char *path;
    int code = input_operand(ctx, &path);
    char *text = NULL;
    size_t length = 0;
    collcalc_diag gpu_diag;
    if (code == 0 && collcalc_gpu_generation_parse(arg_value(&ctx->args, OPT_GPU), NULL,
                                                   &gpu_diag) != COLLCALC_OK)
        return cli_usage_error(ctx, "--gpu", "%s", gpu_diag.message);
    if (code == 0)
        code = read_matrix_text(ctx, path, &text, &length);
    if (code != 0)
        return code;
    collcalc_topo_options options;
    collcalc_topo_options_init(&options);
    options.gpu = arg_value(&ctx->args, OPT_GPU);
    collcalc_topo *topo = NULL;
    collcalc_diag diag;
    collcalc_status status = collcalc_topo_parse(text, length, &options, &topo, &diag);
    free(text);
    const char *shown = cli_input_name(path);
    if (status == COLLCALC_ERR_INVALID && options.gpu != NULL && strstr(diag.message, "--gpu") != NULL)
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    if (status != COLLCALC_OK)
        return cli_data_error(ctx, shown, "%s", diag.message);

    document *doc = doc_new(ctx->name);
    topo_doc(doc, topo, shown);
    bool strict_failed = arg_given(&ctx->args, OPT_STRICT) &&
                         collcalc_findings_worst(&topo->advice) == COLLCALC_SEVERITY_ERROR;
    code = cli_emit(ctx, doc);
    if (code == 0 && strict_failed)
        code = findings_strict_failure(ctx, &topo->advice);
    collcalc_topo_free(topo);
    return code;
}
