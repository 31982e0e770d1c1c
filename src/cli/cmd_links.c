/* collcalc links: the link table, and the bandwidth cliff between adjacent
 * tiers along a path (by default the textbook example's HBM -> NVLink ->
 * PCIe -> InfiniBand -> Ethernet). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "collcalc/status.h"
#include "collcalc/units.h"
#include "commands.h"
#include "inputs.h"
#include "links_doc.h"
#include "helpers.h"

static const char DEFAULT_PATH[] = "hbm3|hbm3e-b200,nvlink5,pcie5,ib-ndr,eth100";

enum { MAX_PATH = 12 };

int cmd_links(cli_context *ctx)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    collcalc_bw_basis basis;
    int code = cli_basis(ctx, &basis);
    const collcalc_link_table *links = NULL;
    if (code == 0)
        code = cli_links(ctx, &links);
    const char *path_text = arg_value(&ctx->args, OPT_PATH);
    const char *platform = arg_value(&ctx->args, OPT_PLATFORM);
    char from_platform[4 * COLLCALC_NAME_MAX + 8];
    if (code == 0 && path_text != NULL && platform != NULL)
        code = cli_usage_error(ctx, "--path", "give --path or --platform, not both");
    const collcalc_platform_table *platforms;
    if (code == 0 && (arg_given(&ctx->args, OPT_PLATFORMS_FILE) ||
                      arg_given(&ctx->args, OPT_PLATFORMS_ONLY)))
        code = cli_platforms(ctx, &platforms);
    const collcalc_platform *preset = NULL;
    if (code == 0 && platform != NULL && (code = cli_platform_named(ctx, platform, &preset)) == 0) {
        links_doc_platform_path(preset, from_platform, sizeof from_platform);
        path_text = from_platform;
    }
    bool whole_table = path_text == NULL;
    if (path_text == NULL)
        path_text = DEFAULT_PATH;
    path_stop stops[MAX_PATH];
    int count = 0;
    char why[160];
    if (code == 0 && !links_doc_parse_path(links, path_text, stops, MAX_PATH, &count, why,
                                           sizeof why))
        code = cli_usage_error(ctx, "--path", "%s", why);
    if (code != 0)
        return code;
    document *doc = doc_new(ctx->name);
    doc_query_text(doc, "bw_basis", collcalc_bw_basis_name(basis));
    doc_query_text(doc, "path", path_text);
    if (platform != NULL)
        doc_query_text(doc, "platform", platform);
    if (whole_table) {
        links_doc_table(doc, links, basis);
        doc_text(doc, "%s", "");
    }
    links_doc_cliff(doc, stops, count, basis);
    return cli_emit(ctx, doc);
}
