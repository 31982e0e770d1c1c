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

static int parse_path(cli_context *ctx, const collcalc_link_table *links, const char *text,
                      path_stop *stops, int *out_count)
{
    char buffer[512];
    if (strlen(text) >= sizeof buffer)
        return cli_usage_error(ctx, "--path", "too long");
    strcpy(buffer, text);
    int count = 0;
    char *save = NULL;
    for (char *item = strtok_r(buffer, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save)) {
        if (count >= MAX_PATH)
            return cli_usage_error(ctx, "--path", "at most %d stops", MAX_PATH);
        char *bar = strchr(item, '|');
        if (bar != NULL)
            *bar = '\0';
        const char *names[2] = {item, bar != NULL ? bar + 1 : item};
        const collcalc_link *found[2];
        for (int k = 0; k < 2; k++) {
            found[k] = collcalc_link_table_find(links, names[k]);
            if (found[k] == NULL) {
                char shown[COLLCALC_ECHO_BUFFER];
                collcalc_echo(shown, sizeof shown, names[k]);
                return cli_usage_error(ctx, "--path", "unknown link '%s' (see 'collcalc links')",
                                       shown);
            }
        }
        path_stop *stop = &stops[count++];
        stop->low = found[0];
        stop->high = found[1];
        if (bar != NULL)
            snprintf(stop->label, sizeof stop->label, "%s|%s", found[0]->name, found[1]->name);
        else
            snprintf(stop->label, sizeof stop->label, "%s", found[0]->name);
    }
    if (count < 2)
        return cli_usage_error(ctx, "--path", "needs at least two links");
    *out_count = count;
    return 0;
}

/* The path of a platform's tiers from the GPU outwards (a missing tier is
 * skipped). */
static int platform_path(cli_context *ctx, const char *name, char *path, size_t size)
{
    const collcalc_platform *platform;
    int code = cli_platform_named(ctx, name, &platform);
    if (code != 0)
        return code;
    const char *tiers[] = {platform->memory_link, platform->intra_link, platform->host_link,
                           platform->inter_link};
    size_t used = 0;
    path[0] = '\0';
    for (size_t i = 0; i < 4; i++)
        if (tiers[i][0] != '\0' && used < size)
            used += (size_t)snprintf(path + used, size - used, "%s%s", used > 0 ? "," : "",
                                     tiers[i]);
    return 0;
}

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
    if (code == 0 && platform != NULL) {
        code = platform_path(ctx, platform, from_platform, sizeof from_platform);
        path_text = from_platform;
    }
    bool whole_table = path_text == NULL;
    if (path_text == NULL)
        path_text = DEFAULT_PATH;
    path_stop stops[MAX_PATH];
    int count = 0;
    if (code == 0)
        code = parse_path(ctx, links, path_text, stops, &count);
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
