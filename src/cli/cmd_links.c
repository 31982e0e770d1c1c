/* collcalc links: the link table, and the bandwidth cliff between adjacent
 * tiers along a path (by default the seed text's HBM -> NVLink -> PCIe ->
 * InfiniBand -> Ethernet). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "commands.h"
#include "output.h"
#include "setup.h"
#include "collcalc/units.h"

static const char HELP[] =
    "Usage: collcalc links [--bw-basis per-direction|headline] [--path A,B,...] [--links FILE]\n"
    "\n"
    "Lists every link in the table (built in, or --links FILE): tier, bandwidth per\n"
    "direction and as vendors quote it (the headline figure, and what it counts),\n"
    "per-step latency alpha, and where each figure comes from (--format json).\n"
    "Then walks a path from the GPU outwards and prints the ratio between adjacent\n"
    "tiers: the bandwidth cliff. A path element 'a|b' is a range (HBM 3,350-8,000).\n"
    "\n"
    "  --path LIST        only the cliff along these links (default hbm3|hbm3e-b200,nvlink5,pcie5,ib-ndr,eth100)\n"
    "  --platform NAME    only the cliff along a platform's tiers: HBM, NVLink,\n"
    "                     PCIe, NIC (see 'collcalc platforms')\n"
    "  --bw-basis B       per-direction (default) or headline (the seed text's figures)\n"
    "  --links FILE       a JSON link table instead of the built-in one\n"
    "  --platforms FILE   a JSON platform table for --platform\n"
    "  --format F         table (default), json or csv\n"
    "  -h, --help         this text\n"
    "\n"
    "Example:\n"
    "  collcalc links --bw-basis headline\n";

static const char DEFAULT_PATH[] = "hbm3|hbm3e-b200,nvlink5,pcie5,ib-ndr,eth100";

enum { MAX_PATH = 12 };

/* One stop on the path: a link, or a range of two. */
typedef struct {
    const collcalc_link *low;
    const collcalc_link *high;
    char label[2 * COLLCALC_NAME_MAX + 2];
} path_stop;

static const cli_option OPTIONS[] = {
    {"help", 'h', false, OPT_HELP},
    {"bw-basis", 0, true, OPT_BW_BASIS},
    {"links", 0, true, OPT_LINKS_FILE},
    {"format", 0, true, OPT_FORMAT},
    {"path", 0, true, OPT_PATH},
    {"platform", 'p', true, OPT_PLATFORM},
    {"platforms", 0, true, OPT_PLATFORMS_FILE},
    {NULL, 0, false, 0},
};

static int parse_path(cli_settings *settings, const char *text, path_stop *stops, int *out_count)
{
    char buffer[512];
    if (strlen(text) >= sizeof buffer)
        return usage_error(settings, "--path", "too long");
    strcpy(buffer, text);
    int count = 0;
    char *save = NULL;
    for (char *item = strtok_r(buffer, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save)) {
        if (count >= MAX_PATH)
            return usage_error(settings, "--path", "at most %d stops", MAX_PATH);
        char *bar = strchr(item, '|');
        if (bar != NULL)
            *bar = '\0';
        const char *names[2] = {item, bar != NULL ? bar + 1 : item};
        const collcalc_link *found[2];
        for (int k = 0; k < 2; k++) {
            found[k] = collcalc_link_table_find(settings->links, names[k]);
            if (found[k] == NULL)
                return usage_error(settings, "--path", "unknown link '%.40s' (see 'collcalc links')",
                                   names[k]);
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
        return usage_error(settings, "--path", "needs at least two links");
    *out_count = count;
    return 0;
}

static double stop_bw(const path_stop *stop, collcalc_bw_basis basis, bool high)
{
    return collcalc_link_bandwidth_GBps(high ? stop->high : stop->low, basis);
}

/* Ratio range between two stops: (min, max) of from/to. */
static void stop_ratio(const path_stop *from, const path_stop *to, collcalc_bw_basis basis,
                       double *out_min, double *out_max)
{
    double a = stop_bw(from, basis, false);
    double b = stop_bw(from, basis, true);
    double c = stop_bw(to, basis, false), d = stop_bw(to, basis, true);
    double candidates[4] = {a / c, a / d, b / c, b / d};
    *out_min = *out_max = candidates[0];
    for (int i = 1; i < 4; i++) {
        if (candidates[i] < *out_min)
            *out_min = candidates[i];
        if (candidates[i] > *out_max)
            *out_max = candidates[i];
    }
}

static bool crosses_node_boundary(const path_stop *from, const path_stop *to)
{
    return from->low->tier <= COLLCALC_TIER_SCALE_UP && to->low->tier > COLLCALC_TIER_SCALE_UP;
}

/* The GPU-to-GPU cliff: the first scale-up stop against the first
 * scale-out stop, when the path has both. */
static bool find_cliff(const path_stop *stops, int count, int *out_up, int *out_out)
{
    *out_up = *out_out = -1;
    for (int i = 0; i < count; i++) {
        if (*out_up < 0 && stops[i].low->tier == COLLCALC_TIER_SCALE_UP)
            *out_up = i;
        if (*out_out < 0 && stops[i].low->tier == COLLCALC_TIER_SCALE_OUT)
            *out_out = i;
    }
    return *out_up >= 0 && *out_out >= 0;
}

static void format_ratio(char *buffer, size_t size, double low, double high)
{
    if (high / low < 1.005)
        snprintf(buffer, size, "%.3gx", low);
    else
        snprintf(buffer, size, "%.3g-%.3gx", low, high);
}

static void format_stop_bw(char *buffer, size_t size, const path_stop *stop, collcalc_bw_basis basis)
{
    char a[32], b[32];
    if (stop->low == stop->high)
        snprintf(buffer, size, "%s", collcalc_format_bandwidth_GBps(a, sizeof a, stop_bw(stop, basis, false)));
    else
        snprintf(buffer, size, "%s-%s", collcalc_format_bandwidth_GBps(a, sizeof a, stop_bw(stop, basis, false)),
                 collcalc_format_bandwidth_GBps(b, sizeof b, stop_bw(stop, basis, true)));
}

static void print_link_table(const cli_settings *settings)
{
    FILE *out = settings->out;
    fprintf(out, "%-15s %-10s %-7s %12s %12s  %-16s %8s  %s\n", "link", "tier", "class",
            "per-dir", "headline", "headline counts", "alpha", "description");
    for (size_t i = 0; i < collcalc_link_table_count(settings->links); i++) {
        const collcalc_link *link = collcalc_link_table_at(settings->links, i);
        char per_dir[32], headline[32], alpha[32];
        fprintf(out, "%-15s %-10s %-7s %12s %12s  %-16s %8s  %s\n", link->name,
                collcalc_tier_name(link->tier), collcalc_link_class_name(link->link_class),
                collcalc_format_bandwidth_GBps(per_dir, sizeof per_dir, link->bw_per_direction_GBps),
                collcalc_format_bandwidth_GBps(headline, sizeof headline, link->headline_GBps),
                collcalc_headline_counts_name(link->headline_counts),
                link->link_class == COLLCALC_LINK_CLASS_MEMORY
                    ? "-"
                    : collcalc_format_time_us(alpha, sizeof alpha, link->alpha_us),
                link->description);
    }
    fputc('\n', out);
}

static void print_cliff(const cli_settings *settings, const path_stop *stops, int count)
{
    FILE *out = settings->out;
    fprintf(out, "Bandwidth cliff, %s:\n", basis_phrase(settings->basis));
    for (int i = 0; i + 1 < count; i++) {
        double low, high;
        char ratio[48], from_bw[64], to_bw[64];
        stop_ratio(&stops[i], &stops[i + 1], settings->basis, &low, &high);
        format_ratio(ratio, sizeof ratio, low, high);
        format_stop_bw(from_bw, sizeof from_bw, &stops[i], settings->basis);
        format_stop_bw(to_bw, sizeof to_bw, &stops[i + 1], settings->basis);
        fprintf(out, "  %-17s %-18s -> %-10s %-12s %10s%s\n", stops[i].label, from_bw,
                stops[i + 1].label, to_bw, ratio,
                crosses_node_boundary(&stops[i], &stops[i + 1]) ? "  <- node boundary" : "");
    }
    int up, down;
    if (find_cliff(stops, count, &up, &down)) {
        double head_low, head_high, dir_low, dir_high;
        stop_ratio(&stops[up], &stops[down], COLLCALC_BW_HEADLINE, &head_low, &head_high);
        stop_ratio(&stops[up], &stops[down], COLLCALC_BW_PER_DIRECTION, &dir_low, &dir_high);
        char head[48], dir[48];
        format_ratio(head, sizeof head, head_low, head_high);
        format_ratio(dir, sizeof dir, dir_low, dir_high);
        fprintf(out, "\nGPU to GPU, inside the node (%s) vs across nodes (%s): %s headline, %s per "
                     "direction\n",
                stops[up].label, stops[down].label, head, dir);
    }
}

static int print_json(const cli_settings *settings, const path_stop *stops, int count)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "bw_basis", collcalc_bw_basis_name(settings->basis));
    cJSON *links = cJSON_AddArrayToObject(doc, "links");
    for (size_t i = 0; i < collcalc_link_table_count(settings->links); i++) {
        const collcalc_link *link = collcalc_link_table_at(settings->links, i);
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "name", link->name);
        cJSON *aliases = cJSON_AddArrayToObject(item, "aliases");
        for (int k = 0; k < COLLCALC_MAX_ALIASES; k++)
            if (link->aliases[k][0] != '\0')
                cJSON_AddItemToArray(aliases, cJSON_CreateString(link->aliases[k]));
        cJSON_AddStringToObject(item, "description", link->description);
        cJSON_AddStringToObject(item, "tier", collcalc_tier_name(link->tier));
        cJSON_AddStringToObject(item, "class", collcalc_link_class_name(link->link_class));
        json_add_number(item, "bw_per_direction_GBps", link->bw_per_direction_GBps);
        json_add_number(item, "headline_GBps", link->headline_GBps);
        cJSON_AddStringToObject(item, "headline_counts",
                                collcalc_headline_counts_name(link->headline_counts));
        json_add_number(item, "bw_GBps", collcalc_link_bandwidth_GBps(link, settings->basis));
        json_add_number(item, "alpha_us", link->alpha_us);
        cJSON *sources = cJSON_AddObjectToObject(item, "sources");
        cJSON_AddStringToObject(sources, "bw_per_direction_GBps", link->bw_source);
        cJSON_AddStringToObject(sources, "headline_GBps", link->headline_source);
        cJSON_AddStringToObject(sources, "alpha_us", link->alpha_source);
        cJSON_AddItemToArray(links, item);
    }
    cJSON *cliff = cJSON_AddArrayToObject(doc, "cliff");
    for (int i = 0; i + 1 < count; i++) {
        double low, high;
        stop_ratio(&stops[i], &stops[i + 1], settings->basis, &low, &high);
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "from", stops[i].label);
        cJSON_AddStringToObject(item, "to", stops[i + 1].label);
        json_add_number(item, "ratio_min", low);
        json_add_number(item, "ratio_max", high);
        cJSON_AddBoolToObject(item, "node_boundary", crosses_node_boundary(&stops[i], &stops[i + 1]));
        cJSON_AddItemToArray(cliff, item);
    }
    int up, down;
    if (find_cliff(stops, count, &up, &down)) {
        double low, high;
        cJSON *item = cJSON_AddObjectToObject(doc, "scale_up_vs_scale_out");
        cJSON_AddStringToObject(item, "scale_up", stops[up].label);
        cJSON_AddStringToObject(item, "scale_out", stops[down].label);
        stop_ratio(&stops[up], &stops[down], COLLCALC_BW_HEADLINE, &low, &high);
        json_add_number(item, "ratio_headline", low);
        stop_ratio(&stops[up], &stops[down], COLLCALC_BW_PER_DIRECTION, &low, &high);
        json_add_number(item, "ratio_per_direction", low);
    }
    return json_print_and_free(settings, doc);
}

static void print_csv(const cli_settings *settings)
{
    FILE *out = settings->out;
    fputs("name,tier,class,bw_per_direction_GBps,headline_GBps,headline_counts,alpha_us,"
          "description\n",
          out);
    for (size_t i = 0; i < collcalc_link_table_count(settings->links); i++) {
        const collcalc_link *link = collcalc_link_table_at(settings->links, i);
        fprintf(out, "%s,%s,%s,%.10g,%.10g,%s,%.10g,", link->name, collcalc_tier_name(link->tier),
                collcalc_link_class_name(link->link_class), link->bw_per_direction_GBps,
                link->headline_GBps, collcalc_headline_counts_name(link->headline_counts),
                link->alpha_us);
        csv_field(out, link->description, true);
    }
}

/* What links' own options say. */
typedef struct {
    const char *path_text;
} links_request;

static int apply_links_option(cli_settings *settings, void *context, int id, const char *option,
                              const char *value)
{
    (void)settings;
    (void)option;
    links_request *request = context;
    if (id != OPT_PATH)
        return -1;
    request->path_text = value;
    return 0;
}

static void print_help(FILE *out, const cli_settings *settings)
{
    (void)settings;
    fputs(HELP, out);
}

int cmd_links(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    (void)in;
    cli_settings settings;
    settings_init(&settings, command, out, err);
    links_request request = {DEFAULT_PATH};
    bool help = false;
    int code = settings_parse(&settings, OPTIONS, argc, argv, print_help, apply_links_option,
                              &request, &help);
    if (help)
        return finish_output(&settings, code);
    const char *path_text = request.path_text;
    if (code == 0)
        code = settings_load_links(&settings);
    char platform_path[4 * COLLCALC_NAME_MAX + 8];
    if (code == 0 && settings.platforms_file != NULL)
        code = settings_load_platforms(&settings);
    if (code == 0 && settings.platform_name != NULL) {
        code = settings_load_platforms(&settings);
        const collcalc_platform *platform =
            code == 0 ? collcalc_platform_table_find(settings.platforms, settings.platform_name) : NULL;
        if (code == 0 && platform == NULL)
            code = usage_error(&settings, "--platform",
                               "unknown platform '%.40s' (see 'collcalc platforms')",
                               settings.platform_name);
        if (code == 0 && platform != NULL) {
            /* The platform's tiers from the GPU outwards; a missing tier is skipped. */
            const char *tiers[] = {platform->memory_link, platform->intra_link, platform->host_link,
                                   platform->inter_link};
            size_t used = 0;
            platform_path[0] = '\0';
            for (size_t i = 0; i < 4; i++)
                if (tiers[i][0] != '\0')
                    used += (size_t)snprintf(platform_path + used, sizeof platform_path - used,
                                             "%s%s", used > 0 ? "," : "", tiers[i]);
            path_text = platform_path;
        }
    }
    path_stop stops[MAX_PATH];
    int count = 0;
    if (code == 0) {
        code = parse_path(&settings, path_text, stops, &count);
    }
    if (code == 0) {
        if (settings.format == FORMAT_JSON)
            code = print_json(&settings, stops, count);
        else if (settings.format == FORMAT_CSV)
            print_csv(&settings);
        else
        {
            if (path_text == DEFAULT_PATH)
                print_link_table(&settings);
            print_cliff(&settings, stops, count);
        }
    }
    code = finish_output(&settings, code);
    settings_free(&settings);
    return code;
}
