/* collcalc platforms: the platform presets (GPUs per node or NVLink domain,
 * links, NICs, NVLS) that --platform fills in. */
#include "commands.h"
#include "output.h"
#include "setup.h"

static const char HELP[] =
    "Usage: collcalc platforms [--platforms FILE] [--format table|json|csv]\n"
    "\n"
    "Lists the platform presets: GPUs per node (NVLink domain), the link between\n"
    "GPUs inside it, the scale-out NIC and how many per node, and whether the\n"
    "NVSwitch reduces in the switch (NVLS). Use one with --platform NAME on any\n"
    "collective command; options you give explicitly override the preset.\n"
    "--format json adds the source of every figure.\n"
    "\n"
    "  --platforms FILE   a JSON platform table instead of the built-in one\n"
    "  --links FILE       the link table the platforms refer to\n"
    "  --format F         table (default), json or csv\n"
    "  -h, --help         this text\n"
    "\n"
    "Example:\n"
    "  collcalc allreduce --size 1GB --platform hgx-h100 --nodes 2\n";

static const cli_option OPTIONS[] = {
    {"help", 'h', false, OPT_HELP},
    {"platforms", 0, true, OPT_PLATFORMS_FILE},
    {"links", 0, true, OPT_LINKS_FILE},
    {"format", 0, true, OPT_FORMAT},
    {NULL, 0, false, 0},
};

static int print_json(const cli_settings *settings)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *list = cJSON_AddArrayToObject(doc, "platforms");
    for (size_t i = 0; i < collcalc_platform_table_count(settings->platforms); i++) {
        const collcalc_platform *p = collcalc_platform_table_at(settings->platforms, i);
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "name", p->name);
        cJSON *aliases = cJSON_AddArrayToObject(item, "aliases");
        for (int k = 0; k < COLLCALC_MAX_ALIASES; k++)
            if (p->aliases[k][0] != '\0')
                cJSON_AddItemToArray(aliases, cJSON_CreateString(p->aliases[k]));
        cJSON_AddStringToObject(item, "description", p->description);
        cJSON_AddStringToObject(item, "gpu", p->gpu);
        cJSON_AddNumberToObject(item, "gpus_per_node", p->gpus_per_node);
        cJSON_AddStringToObject(item, "intra_link", p->intra_link);
        cJSON_AddStringToObject(item, "inter_link", p->inter_link);
        cJSON_AddNumberToObject(item, "nics_per_node", p->nics_per_node);
        cJSON_AddStringToObject(item, "memory_link", p->memory_link);
        cJSON_AddStringToObject(item, "host_link", p->host_link);
        cJSON_AddBoolToObject(item, "nvls", p->nvls);
        cJSON_AddBoolToObject(item, "sharp", p->sharp);
        cJSON *sources = cJSON_AddObjectToObject(item, "sources");
        cJSON_AddStringToObject(sources, "topology", p->topology_source);
        cJSON_AddStringToObject(sources, "nics", p->nics_source);
        cJSON_AddStringToObject(sources, "nvls", p->nvls_source);
        cJSON_AddItemToArray(list, item);
    }
    return json_print_and_free(settings, doc);
}

static void print_help(FILE *out, const cli_settings *settings)
{
    (void)settings;
    fputs(HELP, out);
}

int cmd_platforms(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    (void)in;
    cli_settings settings;
    settings_init(&settings, command, out, err);
    bool help = false;
    int code = settings_parse(&settings, OPTIONS, argc, argv, print_help, NULL, NULL, &help);
    if (help)
        return finish_output(&settings, code);
    if (code == 0)
        code = settings_load_platforms(&settings);
    if (code == 0 && settings.format == FORMAT_JSON) {
        code = print_json(&settings);
    } else if (code == 0 && settings.format == FORMAT_CSV) {
        fputs("name,gpu,gpus_per_node,intra_link,inter_link,nics_per_node,nvls,sharp,description\n", out);
        for (size_t i = 0; i < collcalc_platform_table_count(settings.platforms); i++) {
            const collcalc_platform *p = collcalc_platform_table_at(settings.platforms, i);
            fprintf(out, "%s,", p->name);
            csv_field(out, p->gpu, false);
            fprintf(out, "%d,%s,%s,%d,%s,%s,", p->gpus_per_node, p->intra_link, p->inter_link,
                    p->nics_per_node, p->nvls ? "true" : "false", p->sharp ? "true" : "false");
            csv_field(out, p->description, true);
        }
    } else if (code == 0) {
        fprintf(out, "%-24s %-10s %9s %-15s %-16s %-5s  %s\n", "platform", "gpu", "gpus/node",
                "intra", "nics per node", "nvls", "description");
        for (size_t i = 0; i < collcalc_platform_table_count(settings.platforms); i++) {
            const collcalc_platform *p = collcalc_platform_table_at(settings.platforms, i);
            char nics[48];
            snprintf(nics, sizeof nics, "%d x %s", p->nics_per_node, p->inter_link);
            fprintf(out, "%-24s %-10s %9d %-15s %-16s %-5s  %s\n", p->name, p->gpu,
                    p->gpus_per_node, p->intra_link, nics, p->nvls ? "yes" : "no", p->description);
        }
    }
    code = finish_output(&settings, code);
    settings_free(&settings);
    return code;
}
