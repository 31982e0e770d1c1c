/* Common options, link loading, cluster building and error lines. */
#include "setup.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/units.h"

/* The link table's own limits (data/README.md), so --bw/--alpha accept
 * exactly what a --links file could say. */
static const double MAX_LINK_GBPS = 1e6;
static const double MAX_ALPHA_US = 1e6;

const cli_option COMMON_OPTIONS[] = {
    {"help", 'h', false, OPT_HELP},
    {"size", 's', true, OPT_SIZE},
    {"gpus", 'n', true, OPT_GPUS},
    {"link", 'l', true, OPT_LINK},
    {"links", 0, true, OPT_LINKS_FILE},
    {"bw", 0, true, OPT_BW},
    {"alpha", 0, true, OPT_ALPHA},
    {"bw-basis", 0, true, OPT_BW_BASIS},
    {"format", 0, true, OPT_FORMAT},
    {"explain", 0, false, OPT_EXPLAIN},
    {"algo", 'a', true, OPT_ALGO},
    {"layers", 0, true, OPT_LAYERS},
    {"per-layer", 0, true, OPT_PER_LAYER},
    {"gpus-per-node", 0, true, OPT_GPUS_PER_NODE},
    {"domain-size", 0, true, OPT_GPUS_PER_NODE},
    {"intra", 0, true, OPT_INTRA},
    {"inter", 0, true, OPT_INTER},
    {"nics-per-node", 0, true, OPT_NICS},
    {"nodes", 0, true, OPT_NODES},
    {"nvls", 0, false, OPT_NVLS},
    {"sharp", 0, false, OPT_SHARP},
    {"tree-efficiency", 0, true, OPT_TREE_EFFICIENCY},
    {"platform", 'p', true, OPT_PLATFORM},
    {"platforms", 0, true, OPT_PLATFORMS_FILE},
    {"no-nvls", 0, false, OPT_NO_NVLS},
    {NULL, 0, false, 0},
};

void settings_init(cli_settings *settings, const char *command, FILE *out, FILE *err)
{
    memset(settings, 0, sizeof *settings);
    settings->command = command;
    settings->out = out;
    settings->err = err;
    settings->basis = COLLCALC_BW_PER_DIRECTION;
    settings->format = FORMAT_TABLE;
    settings->layers = 1;
    settings->per_layer = 1;
}

void settings_free(cli_settings *settings)
{
    collcalc_platform_table_free(settings->platforms);
    settings->platforms = NULL;
    settings->platform = NULL;
    collcalc_link_table_free(settings->links);
    settings->links = NULL;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 0)))
#endif
static void vreport(const cli_settings *settings, const char *where, const char *suffix,
                    const char *format, va_list args)
{
    char message[768];
    vsnprintf(message, sizeof message, format, args);
    /* One line, whatever the message held. */
    for (char *c = message; *c != '\0'; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    if (where != NULL && where[0] != '\0')
        fprintf(settings->err, "collcalc %s: %s: %s%s\n", settings->command, where, message, suffix);
    else
        fprintf(settings->err, "collcalc %s: %s%s\n", settings->command, message, suffix);
}

int usage_error(const cli_settings *settings, const char *option, const char *format, ...)
{
    char suffix[96];
    snprintf(suffix, sizeof suffix, " (see 'collcalc %s --help')", settings->command);
    va_list args;
    va_start(args, format);
    vreport(settings, option, suffix, format, args);
    va_end(args);
    return 2;
}

int data_error(const cli_settings *settings, const char *where, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vreport(settings, where, "", format, args);
    va_end(args);
    return 1;
}

static int parse_count_option(const cli_settings *settings, const char *option, const char *value,
                              long min_value, long max_value, long *out)
{
    collcalc_diag diag;
    if (collcalc_parse_count(value, min_value, max_value, out, &diag) != COLLCALC_OK)
        return usage_error(settings, option, "%s", diag.message);
    return 0;
}

int settings_apply(cli_settings *settings, int id, const char *option_text, const char *value)
{
    collcalc_diag diag;
    const char *option = option_text;
    switch (id) {
    case OPT_SIZE:
        if (collcalc_parse_size_bytes(value, &settings->size_bytes, &diag) != COLLCALC_OK)
            return usage_error(settings, option, "%s", diag.message);
        settings->size_set = true;
        return 0;
    case OPT_GPUS:
        settings->gpus_set = true;
        return parse_count_option(settings, option, value, 1, 1L << 20, &settings->gpus);
    case OPT_LINK:
        if (settings->link_count >= MAX_LINK_CHOICES)
            return usage_error(settings, option, "at most %d links", MAX_LINK_CHOICES);
        settings->link_names[settings->link_count++] = value;
        return 0;
    case OPT_LINKS_FILE:
        settings->links_file = value;
        return 0;
    case OPT_BW:
        if (collcalc_parse_bandwidth_GBps(value, &settings->bw_GBps, &diag) != COLLCALC_OK)
            return usage_error(settings, option, "%s", diag.message);
        if (settings->bw_GBps > MAX_LINK_GBPS)
            return usage_error(settings, option, "'%.40s' is more than %g GB/s", value, MAX_LINK_GBPS);
        settings->bw_set = true;
        return 0;
    case OPT_ALPHA:
        if (collcalc_parse_time_us(value, &settings->alpha_us, &diag) != COLLCALC_OK)
            return usage_error(settings, option, "%s", diag.message);
        if (settings->alpha_us > MAX_ALPHA_US)
            return usage_error(settings, option, "'%.40s' is more than %g us", value, MAX_ALPHA_US);
        settings->alpha_set = true;
        return 0;
    case OPT_BW_BASIS:
        if (strcmp(value, "per-direction") == 0)
            settings->basis = COLLCALC_BW_PER_DIRECTION;
        else if (strcmp(value, "headline") == 0)
            settings->basis = COLLCALC_BW_HEADLINE;
        else
            return usage_error(settings, option, "unknown basis '%.40s' (per-direction or headline)",
                               value);
        return 0;
    case OPT_FORMAT:
        if (strcmp(value, "table") == 0)
            settings->format = FORMAT_TABLE;
        else if (strcmp(value, "json") == 0)
            settings->format = FORMAT_JSON;
        else if (strcmp(value, "csv") == 0)
            settings->format = FORMAT_CSV;
        else
            return usage_error(settings, option, "unknown format '%.40s' (table, json or csv)", value);
        return 0;
    case OPT_EXPLAIN:
        settings->explain = true;
        return 0;
    case OPT_ALGO: {
        if (strcmp(value, "all") == 0) {
            settings->algo_count = 0;
            return 0;
        }
        collcalc_algo algo;
        if (collcalc_algo_from_name(value, &algo, &diag) != COLLCALC_OK)
            return usage_error(settings, option, "%s", diag.message);
        for (int i = 0; i < settings->algo_count; i++)
            if (settings->algos[i] == algo)
                return 0;
        if (settings->algo_count >= MAX_ALGO_CHOICES)
            return usage_error(settings, option, "too many algorithms");
        settings->algos[settings->algo_count++] = algo;
        return 0;
    }
    case OPT_LAYERS:
        return parse_count_option(settings, option, value, 1, 1000000, &settings->layers);
    case OPT_PER_LAYER:
        return parse_count_option(settings, option, value, 1, 1000, &settings->per_layer);
    case OPT_GPUS_PER_NODE:
        return parse_count_option(settings, option, value, 1, 1L << 20, &settings->gpus_per_node);
    case OPT_INTRA:
        settings->intra_name = value;
        return 0;
    case OPT_INTER:
        settings->inter_name = value;
        return 0;
    case OPT_NICS:
        return parse_count_option(settings, option, value, 1, 1024, &settings->nics_per_node);
    case OPT_NODES:
        return parse_count_option(settings, option, value, 1, 1L << 20, &settings->nodes);
    case OPT_NVLS:
        settings->nvls = true;
        return 0;
    case OPT_SHARP:
        settings->sharp = true;
        return 0;
    case OPT_NO_NVLS:
        settings->no_nvls = true;
        return 0;
    case OPT_PLATFORM:
        settings->platform_name = value;
        return 0;
    case OPT_PLATFORMS_FILE:
        settings->platforms_file = value;
        return 0;
    case OPT_TREE_EFFICIENCY: {
        double efficiency;
        if (collcalc_parse_number(value, 0.01, 1.0, &efficiency, &diag) != COLLCALC_OK)
            return usage_error(settings, option, "%s", diag.message);
        settings->tree_efficiency = efficiency;
        return 0;
    }
    default:
        return -1;
    }
}

int settings_parse(cli_settings *settings, const cli_option *options, int argc, char **argv,
                   help_fn help, extra_option_fn extra, void *context, bool *out_help)
{
    *out_help = false;
    arg_cursor cursor;
    args_init(&cursor, argc, argv, 1);
    const char *value;
    int id;
    while ((id = args_next(&cursor, options, &value)) != ARGS_END) {
        if (id == ARGS_ERROR)
            return usage_error(settings, NULL, "%s", cursor.error);
        if (id == OPT_HELP) {
            help(settings->out, settings);
            *out_help = true;
            return 0;
        }
        int code = extra != NULL ? extra(settings, context, id, cursor.option_text, value) : -1;
        if (code < 0 && id != ARGS_POSITIONAL)
            code = settings_apply(settings, id, cursor.option_text, value);
        if (code < 0)
            code = usage_error(settings, NULL, "unexpected argument '%.40s'",
                               value != NULL ? value : cursor.option_text);
        if (code != 0)
            return code;
    }
    return 0;
}

void options_join(const cli_option *extra, cli_option *out, size_t capacity)
{
    size_t n = 0;
    for (const cli_option *o = COMMON_OPTIONS; o->name != NULL && n + 1 < capacity; o++)
        out[n++] = *o;
    for (const cli_option *o = extra; o->name != NULL && n + 1 < capacity; o++)
        out[n++] = *o;
    out[n] = (cli_option){NULL, 0, false, 0};
}

int settings_evaluate(const cli_settings *settings, const collcalc_query *query,
                      collcalc_result *results, size_t *out_count, size_t *out_fastest)
{
    collcalc_diag diag;
    collcalc_status status = COLLCALC_OK;
    size_t count = 0, fastest = 0;
    if (settings->algo_count == 0) {
        status = collcalc_model_evaluate_all(query, results, COLLCALC_ALGO_COUNT, &count, &fastest,
                                             &diag);
    } else {
        for (int i = 0; i < settings->algo_count && status == COLLCALC_OK; i++) {
            status = collcalc_model_evaluate(query, settings->algos[i], &results[count], &diag);
            if (status == COLLCALC_OK)
                count++;
        }
        fastest = collcalc_fastest_index(results, count);
    }
    if (status == COLLCALC_ERR_UNSUPPORTED)
        return usage_error(settings, "--algo", "%s", diag.message);
    if (status != COLLCALC_OK)
        return data_error(settings, NULL, "%s", diag.message);
    if (count == 0)
        return usage_error(settings, "--algo", "no algorithm applies");
    *out_count = count;
    *out_fastest = fastest;
    return 0;
}

int read_whole_file(const cli_settings *settings, const char *path, char **out_text,
                    size_t *out_length)
{
    enum { MAX_FILE_BYTES = 64 << 20 };
    FILE *file = fopen(path, "rb");
    if (file == NULL)
        return data_error(settings, path, "cannot open: %s", strerror(errno));
    size_t capacity = 1 << 14, length = 0, got;
    char *text = malloc(capacity + 1);
    while (text != NULL && (got = fread(text + length, 1, capacity - length, file)) > 0) {
        length += got;
        if (length == capacity) {
            if (capacity >= MAX_FILE_BYTES) {
                free(text);
                fclose(file);
                return data_error(settings, path, "file larger than 64 MiB");
            }
            capacity *= 2;
            char *bigger = realloc(text, capacity + 1);
            if (bigger == NULL)
                free(text);
            text = bigger;
        }
    }
    bool failed = ferror(file) != 0;
    fclose(file);
    if (text == NULL)
        return data_error(settings, path, "out of memory");
    if (failed) {
        free(text);
        return data_error(settings, path, "read error");
    }
    text[length] = '\0';
    *out_text = text;
    *out_length = length;
    return 0;
}

int settings_load_links(cli_settings *settings)
{
    collcalc_diag diag;
    collcalc_status status;
    if (settings->links != NULL)
        return 0;
    if (settings->links_file == NULL) {
        status = collcalc_link_table_builtin(&settings->links, &diag);
        if (status != COLLCALC_OK)
            return data_error(settings, "builtin link table", "%s", diag.message);
        return 0;
    }
    char *text;
    size_t length;
    int code = read_whole_file(settings, settings->links_file, &text, &length);
    if (code != 0)
        return code;
    status = collcalc_link_table_parse(text, length, &settings->links, &diag);
    free(text);
    if (status != COLLCALC_OK)
        return data_error(settings, settings->links_file, "%s", diag.message);
    return 0;
}

int settings_load_platforms(cli_settings *settings)
{
    collcalc_diag diag;
    collcalc_status status;
    if (settings->platforms != NULL)
        return 0;
    int code = settings_load_links(settings);
    if (code != 0)
        return code;
    if (settings->platforms_file == NULL) {
        status = collcalc_platform_table_builtin(settings->links, &settings->platforms, &diag);
        if (status != COLLCALC_OK)
            return data_error(settings, "builtin platform table", "%s", diag.message);
        return 0;
    }
    char *text;
    size_t length;
    code = read_whole_file(settings, settings->platforms_file, &text, &length);
    if (code != 0)
        return code;
    status = collcalc_platform_table_parse(text, length, settings->links, &settings->platforms, &diag);
    free(text);
    if (status != COLLCALC_OK)
        return data_error(settings, settings->platforms_file, "%s", diag.message);
    return 0;
}

/* Fills every cluster setting the user did not give from the --platform
 * preset: explicit options always win. */
static int apply_platform(cli_settings *settings)
{
    int code = settings_load_platforms(settings);
    if (code != 0)
        return code;
    const collcalc_platform *platform =
        collcalc_platform_table_find(settings->platforms, settings->platform_name);
    if (platform == NULL) {
        char known[1024] = "";
        size_t used = 0;
        for (size_t i = 0; i < collcalc_platform_table_count(settings->platforms) && used < sizeof known; i++)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                     collcalc_platform_table_at(settings->platforms, i)->name);
        return usage_error(settings, "--platform", "unknown platform '%.40s' (known: %s)",
                           settings->platform_name, known);
    }
    settings->platform = platform;
    if (settings->gpus_per_node <= 0)
        settings->gpus_per_node = platform->gpus_per_node;
    if (settings->intra_name == NULL && settings->link_count == 0)
        settings->intra_name = platform->intra_link;
    if (settings->inter_name == NULL)
        settings->inter_name = platform->inter_link;
    if (settings->nics_per_node <= 0)
        settings->nics_per_node = platform->nics_per_node;
    if (platform->nvls && !settings->no_nvls)
        settings->nvls = true;
    if (platform->sharp)
        settings->sharp = true;
    return 0;
}

/* Looks a link up and lists the known names when it is not there. */
static int lookup_link(cli_settings *settings, const char *option, const char *name,
                       collcalc_link_params *out)
{
    const collcalc_link *link = collcalc_link_table_find(settings->links, name);
    if (link == NULL) {
        char known[1024] = "";
        size_t used = 0;
        for (size_t i = 0; i < collcalc_link_table_count(settings->links) && used < sizeof known; i++)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                     collcalc_link_table_at(settings->links, i)->name);
        return usage_error(settings, option, "unknown link '%.40s' (known: %s)", name, known);
    }
    collcalc_link_params_from_link(link, settings->basis, out);
    return 0;
}

int settings_build_cluster(cli_settings *settings, int link_index, collcalc_cluster *out_cluster)
{
    memset(out_cluster, 0, sizeof *out_cluster);
    if (settings->platforms_file != NULL) {
        /* A table the user named is read (and refused if broken) even when
         * no --platform picks from it: nothing given is silently ignored. */
        int code = settings_load_platforms(settings);
        if (code != 0)
            return code;
    }
    if (settings->platform_name != NULL && settings->platform == NULL) {
        int code = apply_platform(settings);
        if (code != 0)
            return code;
    }
    bool hierarchical = settings->gpus_per_node > 0 || settings->intra_name != NULL ||
                        settings->inter_name != NULL || settings->nodes > 0 ||
                        settings->nics_per_node > 0;
    long gpus = settings->gpus;
    if (!hierarchical) {
        if (!settings->gpus_set)
            return usage_error(settings, "--gpus", "missing: how many GPUs take part");
        collcalc_link_params link;
        if (settings->link_count > 0) {
            int code = lookup_link(settings, "--link", settings->link_names[link_index], &link);
            if (code != 0)
                return code;
        } else if (settings->bw_set) {
            memset(&link, 0, sizeof link);
            snprintf(link.name, sizeof link.name, "custom");
        } else {
            return usage_error(settings, "--link",
                               "missing: name a link (see 'collcalc links'), or give --bw");
        }
        if (settings->bw_set)
            link.bw_GBps = settings->bw_GBps;
        if (settings->alpha_set)
            link.alpha_us = settings->alpha_us;
        collcalc_cluster_single_link((int)gpus, &link, out_cluster);
        out_cluster->nvls_intra = settings->nvls;
        return 0;
    }

    if (settings->bw_set || settings->alpha_set)
        return usage_error(settings, "--bw",
                           "--bw and --alpha describe a single --link; for a cluster pass a "
                           "--links table with your figures");
    if (settings->gpus_per_node <= 0)
        return usage_error(settings, "--gpus-per-node",
                           "missing: a cluster needs the GPUs per node (NVLink domain size)");
    long g = settings->gpus_per_node;
    if (settings->nodes > 0) {
        long total = settings->nodes * g;
        if (settings->gpus_set && gpus != total)
            return usage_error(settings, "--nodes",
                               "%ld nodes x %ld GPUs per node = %ld GPUs, but --gpus says %ld",
                               settings->nodes, g, total, gpus);
        gpus = total;
    } else if (!settings->gpus_set) {
        return usage_error(settings, "--gpus", "missing: give --gpus or --nodes");
    }
    if (gpus > (1L << 20))
        return usage_error(settings, "--nodes", "more than %ld GPUs", 1L << 20);

    const char *intra_name = settings->intra_name;
    if (intra_name == NULL && settings->link_count > 0)
        intra_name = settings->link_names[link_index];
    long nodes = (gpus + g - 1) / g;
    if (intra_name == NULL && g > 1 && gpus > 1)
        return usage_error(settings, "--intra", "missing: the link between GPUs inside a node");
    if (settings->inter_name == NULL && nodes > 1)
        return usage_error(settings, "--inter", "missing: the link between nodes (NIC type)");

    out_cluster->gpus = (int)gpus;
    out_cluster->gpus_per_node = (int)g;
    out_cluster->nics_per_node = settings->nics_per_node > 0 ? (int)settings->nics_per_node : (int)g;
    if (out_cluster->nics_per_node > 1024)
        out_cluster->nics_per_node = 1024;
    int code = 0;
    if (intra_name != NULL)
        code = lookup_link(settings, "--intra", intra_name, &out_cluster->intra);
    if (code == 0 && settings->inter_name != NULL)
        code = lookup_link(settings, "--inter", settings->inter_name, &out_cluster->inter);
    if (code != 0)
        return code;
    /* A side that is never used still gets valid figures, so validation holds. */
    if (intra_name == NULL)
        out_cluster->intra = out_cluster->inter;
    if (settings->inter_name == NULL)
        out_cluster->inter = out_cluster->intra;
    out_cluster->nvls_intra = settings->nvls && !settings->no_nvls;
    out_cluster->sharp_inter = settings->sharp;
    if (intra_name != NULL && settings->inter_name != NULL &&
        out_cluster->intra.bw_GBps < out_cluster->inter.bw_GBps)
        fprintf(settings->err,
                "collcalc %s: warning: the intra-node link %s (%g GB/s) is slower than the "
                "inter-node link %s (%g GB/s)\n",
                settings->command, out_cluster->intra.name, out_cluster->intra.bw_GBps,
                out_cluster->inter.name, out_cluster->inter.bw_GBps);
    return 0;
}

void describe_cluster(const collcalc_cluster *cluster, char *buffer, size_t size)
{
    int nodes = collcalc_cluster_nodes(cluster);
    if (cluster->gpus_per_node >= cluster->gpus) {
        snprintf(buffer, size, "%d GPU%s over %s", cluster->gpus, cluster->gpus == 1 ? "" : "s",
                 cluster->intra.name);
        return;
    }
    int last = cluster->gpus - (nodes - 1) * cluster->gpus_per_node;
    char partial[64] = "";
    if (last != cluster->gpus_per_node)
        snprintf(partial, sizeof partial, ", last node holds %d", last);
    if (cluster->gpus_per_node == 1)
        snprintf(buffer, size, "%d GPUs, one per node, %d x %s NIC%s per node", cluster->gpus,
                 cluster->nics_per_node, cluster->inter.name,
                 cluster->nics_per_node == 1 ? "" : "s");
    else
        snprintf(buffer, size, "%d GPUs = %d nodes x %d (%s inside, %d x %s NIC%s per node%s)",
                 cluster->gpus, nodes, cluster->gpus_per_node, cluster->intra.name,
                 cluster->nics_per_node, cluster->inter.name,
                 cluster->nics_per_node == 1 ? "" : "s", partial);
}

int finish_output(const cli_settings *settings, int code)
{
    if (fflush(settings->out) != 0 || ferror(settings->out)) {
        fprintf(settings->err, "collcalc %s: error writing output\n", settings->command);
        return code == 0 ? 1 : code;
    }
    return code;
}
