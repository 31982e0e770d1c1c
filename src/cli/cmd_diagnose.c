/* collcalc diagnose: reads an NCCL_DEBUG=INFO log and says what NCCL chose,
 * over which transport, and what went wrong, with the lines that show it. */
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_log.h"
#include "commands.h"
#include "diagnose_doc.h"
#include "findings_out.h"

static void feed(void *context, const char *line, size_t length, long number)
{
    collcalc_nccl_log_feed_line(context, line, length, number);
}

int cmd_diagnose(cli_context *ctx)
{
    const char *path;
    int code = input_operand(ctx, &path);
    if (code != 0)
        return code;
    collcalc_nccl_log *log = malloc(sizeof *log);
    if (log == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    collcalc_nccl_log_init(log);
    code = read_lines(ctx, path, COLLCALC_NCCL_LINE_BYTES, feed, log);
    collcalc_findings *findings = malloc(sizeof *findings);
    collcalc_diag diag;
    const char *shown = cli_input_name(path);
    if (code == 0 && findings == NULL)
        code = cli_data_error(ctx, NULL, "out of memory");
    if (code == 0 && collcalc_nccl_log_finish(log, findings, &diag) != COLLCALC_OK)
        code = cli_data_error(ctx, shown, "%s", diag.message);
    if (code != 0) {
        free(findings);
        free(log);
        return code;
    }
    document *doc = doc_new(ctx->name);
    diagnose_doc(doc, log, findings, shown);
    bool strict_failed = arg_given(&ctx->args, OPT_STRICT) &&
                         collcalc_findings_worst(findings) == COLLCALC_SEVERITY_ERROR;
    code = cli_emit(ctx, doc);
    if (code == 0 && strict_failed)
        code = findings_strict_failure(ctx, findings);
    free(findings);
    free(log);
    return code;
}
