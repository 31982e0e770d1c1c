/* collcalc compare: algorithms side by side across sizes with the sizes
 * where the fastest one changes (ring vs tree), or links / cluster
 * placements side by side with the ratio between them (NVLink vs
 * InfiniBand, TP inside an NVL72 rack vs across HGX nodes). */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "commands.h"
#include "output.h"
#include "setup.h"
#include "sizes.h"
#include "collcalc/units.h"

static const char HELP[] =
    "Usage: collcalc compare OP --gpus N --link A [--algo X --algo Y] [--size S | --sizes LIST]\n"
    "       collcalc compare OP --size S --gpus N --link A --link B [...]\n"
    "       collcalc compare OP --size S --placement SPEC --placement SPEC [...]\n"
    "\n"
    "Algorithms: the time of each algorithm at each size (default the seed text's\n"
    "64KB,1MB,100MB,1GB), the fastest marked, and the crossover sizes where the\n"
    "fastest algorithm changes, searched from 1 byte to 1 TiB. By default every\n"
    "algorithm but the centralized counter-example (name it to include it). Name two algorithms\n"
    "(--algo ring --algo tree) to get their crossover directly.\n"
    "\n"
    "Links or placements: the same collective on each link (--link repeated) or each\n"
    "cluster placement (--placement repeated), with the ratio of each to the first:\n"
    "total time, latency term and bandwidth term, and the phase that costs most.\n"
    "A placement is a comma-separated list of cluster settings:\n"
    "  platform=NAME, gpus-per-node=G, intra=LINK, inter=LINK, nics-per-node=K,\n"
    "  link=LINK, nodes=N, nvls, no-nvls, sharp, label=TEXT\n"
    "e.g. --placement label=nvl72,platform=gb200-nvl72\n"
    "     --placement label=2xhgx,platform=hgx-h100\n"
    "\n"
    "  --size S / --sizes LIST / -b -e -f   sizes (see 'collcalc sweep --help')\n"
    "  --link NAME (repeatable), --placement SPEC (repeatable), --algo NAME (repeatable)\n"
    "  --layers L, --per-layer K   totals per token/step as well\n"
    "  Other options as 'collcalc allreduce --help'; --format table|json|csv.\n"
    "\n"
    "Examples:\n"
    "  collcalc compare allreduce --gpus 32 --link nvlink5 --algo ring --algo tree --bw-basis headline\n"
    "  collcalc compare allreduce --size 100MB --gpus 8 --link nvlink5 --link ib-ndr --bw-basis headline --layers 80\n"
    "  collcalc compare allreduce --size 64MB --gpus 16 --placement platform=gb200-nvl72 --placement platform=hgx-b200\n";

enum { MAX_CONFIGS = 8, OPT_PLACEMENT = OPT_COMMAND_SPECIFIC };

static const cli_option COMPARE_OPTIONS[] = {
    {"minbytes", 'b', true, OPT_MIN_BYTES}, {"maxbytes", 'e', true, OPT_MAX_BYTES},
    {"stepfactor", 'f', true, OPT_STEP_FACTOR}, {"stepbytes", 'i', true, OPT_STEP_BYTES},
    {"sizes", 0, true, OPT_SIZES}, {"placement", 0, true, OPT_PLACEMENT},
    {"op", 0, true, OPT_OP}, {NULL, 0, false, 0},
};

/* One thing being compared: a cluster and its label. */
typedef struct {
    char label[64];
    collcalc_cluster cluster;
} config;

/* Index of the fastest algorithm among `algos` at `size` (the model's
 * rule, collcalc_fastest_index); -1 on failure. */
static int fastest_at(collcalc_query *query, const collcalc_algo *algos, int count, uint64_t size)
{
    query->size_bytes = size;
    collcalc_result results[COLLCALC_ALGO_COUNT];
    for (int i = 0; i < count; i++)
        if (collcalc_model_evaluate(query, algos[i], &results[i], NULL) != COLLCALC_OK)
            return -1;
    return (int)collcalc_fastest_index(results, (size_t)count);
}

typedef struct {
    uint64_t size_bytes; /* first size where `to` is fastest */
    int from, to;        /* indexes into the algorithm list */
} crossover;

/* Scans 1 B .. 1 TiB at doubling sizes and bisects every change of the
 * fastest algorithm down to the byte. */
static int find_crossovers(collcalc_query *query, const collcalc_algo *algos, int count,
                           crossover *found, int capacity)
{
    int n = 0;
    uint64_t low = 1;
    int low_best = fastest_at(query, algos, count, low);
    for (int k = 1; k <= 40 && n < capacity; k++) {
        uint64_t high = 1ULL << k;
        int high_best = fastest_at(query, algos, count, high);
        if (high_best != low_best && low_best >= 0 && high_best >= 0) {
            uint64_t a = low, b = high;
            while (b - a > 1) {
                uint64_t mid = a + (b - a) / 2;
                if (fastest_at(query, algos, count, mid) == low_best)
                    a = mid;
                else
                    b = mid;
            }
            found[n++] = (crossover){b, low_best, fastest_at(query, algos, count, b)};
        }
        low = high;
        low_best = high_best;
    }
    return n;
}

static int compare_algorithms(cli_settings *settings, collcalc_query *query, const uint64_t *sizes,
                              int size_count)
{
    FILE *out = settings->out;
    collcalc_algo algos[COLLCALC_ALGO_COUNT];
    int algo_count = 0;
    if (settings->algo_count > 0) {
        for (int i = 0; i < settings->algo_count; i++) {
            const char *why = NULL;
            if (!collcalc_algo_applies(query->op, settings->algos[i], &query->cluster, &why))
                return usage_error(settings, "--algo", "%s %s: %s",
                                   collcalc_algo_name(settings->algos[i]),
                                   collcalc_op_name(query->op), why);
            algos[algo_count++] = settings->algos[i];
        }
    } else {
        /* Every contender; the centralized counter-example only on request. */
        for (int a = 0; a < COLLCALC_ALGO_COUNT; a++)
            if (a != COLLCALC_ALGO_CENTRALIZED &&
                collcalc_algo_applies(query->op, (collcalc_algo)a, &query->cluster, NULL))
                algos[algo_count++] = (collcalc_algo)a;
    }
    if (algo_count == 0)
        return usage_error(settings, "--algo", "no algorithm applies");

    cJSON *doc = NULL, *rows = NULL;
    if (settings->format == FORMAT_JSON) {
        doc = cJSON_CreateObject();
        query->size_bytes = sizes[0];
        cJSON *q = json_query(settings, query);
        cJSON_DeleteItemFromObject(q, "size_bytes");
        cJSON_AddItemToObject(doc, "query", q);
        cJSON_AddStringToObject(doc, "mode", "algorithms");
        rows = cJSON_AddArrayToObject(doc, "rows");
    } else if (settings->format == FORMAT_CSV) {
        fputs("size_bytes,algorithm,fastest,steps,bytes_sent_per_gpu,latency_us,bandwidth_us,"
              "time_us,algbw_GBps,busbw_GBps,dominant,time_vs_fastest\n",
              out);
    } else {
        char cluster[256];
        describe_cluster(&query->cluster, cluster, sizeof cluster);
        fprintf(out, "%s on %s; %s\n\n", collcalc_op_title(query->op), cluster,
                basis_phrase(settings->basis));
        fprintf(out, "%10s  %-19s %6s %10s %10s %10s %10s  %-9s %8s\n", "size", "algorithm",
                "steps", "sent/GPU", "latency", "bandwidth", "time", "dominant", "vs best");
    }
    for (int s = 0; s < size_count; s++) {
        collcalc_result results[COLLCALC_ALGO_COUNT];
        query->size_bytes = sizes[s];
        for (int i = 0; i < algo_count; i++) {
            collcalc_diag diag;
            if (collcalc_model_evaluate(query, algos[i], &results[i], &diag) != COLLCALC_OK) {
                cJSON_Delete(doc);
                return data_error(settings, NULL, "%s", diag.message);
            }
        }
        int best = (int)collcalc_fastest_index(results, (size_t)algo_count);
        for (int i = 0; i < algo_count; i++) {
            const collcalc_result *r = &results[i];
            double ratio = results[best].time_us > 0 ? r->time_us / results[best].time_us : 1.0;
            char size[32], sent[32], lat[32], bw[32], time[32];
            if (rows != NULL) {
                cJSON *row = json_result(settings, r, i == best);
                json_add_bytes(row, "size_bytes", (double)r->size_bytes);
                json_add_number(row, "time_vs_fastest", ratio);
                cJSON_AddItemToArray(rows, row);
            } else if (settings->format == FORMAT_CSV) {
                fprintf(out, "%llu,%s,%s,%ld,%.0f,%.4f,%.4f,%.4f,%.4f,%.4f,%s,%.4f\n",
                        (unsigned long long)r->size_bytes, collcalc_algo_name(r->algo),
                        i == best ? "true" : "false", r->steps, r->bytes_sent_per_gpu,
                        r->latency_us, r->bandwidth_us, r->time_us, r->algbw_GBps, r->busbw_GBps,
                        collcalc_dominant_name(r->dominant), ratio);
            } else {
                fprintf(out, "%10s  %-19s %6ld %10s %10s %10s %10s  %-9s %7.2fx%s\n",
                        i == 0 ? collcalc_format_bytes_si(size, sizeof size, (double)sizes[s]) : "",
                        collcalc_algo_name(r->algo), r->steps,
                        collcalc_format_bytes_si(sent, sizeof sent, r->bytes_sent_per_gpu),
                        collcalc_format_time_us(lat, sizeof lat, r->latency_us),
                        collcalc_format_time_us(bw, sizeof bw, r->bandwidth_us),
                        collcalc_format_time_us(time, sizeof time, r->time_us),
                        collcalc_dominant_name(r->dominant), ratio,
                        i == best && algo_count > 1 ? "  <- fastest" : "");
            }
        }
    }
    crossover found[64];
    int found_count = algo_count > 1 ? find_crossovers(query, algos, algo_count, found, 64) : 0;
    if (rows != NULL) {
        cJSON *list = cJSON_AddArrayToObject(doc, "crossovers");
        for (int i = 0; i < found_count; i++) {
            cJSON *item = cJSON_CreateObject();
            cJSON_AddStringToObject(item, "faster_below", collcalc_algo_name(algos[found[i].from]));
            cJSON_AddStringToObject(item, "faster_from", collcalc_algo_name(algos[found[i].to]));
            json_add_bytes(item, "size_bytes", (double)found[i].size_bytes);
            cJSON_AddItemToArray(list, item);
        }
        return json_print_and_free(settings, doc);
    }
    if (settings->format == FORMAT_CSV || algo_count < 2)
        return 0;
    fputs("\nCrossovers (1 B to 1 TiB):\n", out);
    if (found_count == 0) {
        query->size_bytes = 1;
        int only = fastest_at(query, algos, algo_count, 1);
        fprintf(out, "  none: %s is fastest at every size\n",
                only >= 0 ? collcalc_algo_name(algos[only]) : "no algorithm");
    }
    for (int i = 0; i < found_count; i++) {
        char human[32], exact[40];
        fprintf(out, "  %s is faster below %s (%s bytes), %s from there up\n",
                collcalc_algo_name(algos[found[i].from]),
                collcalc_format_bytes_iec(human, sizeof human, (double)found[i].size_bytes),
                collcalc_format_grouped_u64(exact, sizeof exact, found[i].size_bytes),
                collcalc_algo_name(algos[found[i].to]));
    }
    return 0;
}

/* Applies one placement spec on top of the command's settings. */
static int parse_placement(cli_settings *base, const char *spec, config *out_config)
{
    cli_settings local = *base;
    local.link_count = 0;
    local.gpus_per_node = 0;
    local.intra_name = local.inter_name = NULL;
    local.nics_per_node = 0;
    local.nvls = local.sharp = local.no_nvls = false;
    local.platform_name = NULL;
    local.platform = NULL;
    char buffer[512];
    if (strlen(spec) >= sizeof buffer)
        return usage_error(base, "--placement", "too long");
    strcpy(buffer, spec);
    out_config->label[0] = '\0';
    char *save = NULL;
    int code = 0;
    static const struct {
        const char *key;
        int id;
    } KEYS[] = {{"gpus-per-node", OPT_GPUS_PER_NODE}, {"domain-size", OPT_GPUS_PER_NODE},
                {"intra", OPT_INTRA}, {"inter", OPT_INTER}, {"nics-per-node", OPT_NICS},
                {"nics", OPT_NICS}, {"link", OPT_LINK}, {"nodes", OPT_NODES},
                {"platform", OPT_PLATFORM}};
    for (char *item = strtok_r(buffer, ",", &save); item != NULL && code == 0;
         item = strtok_r(NULL, ",", &save)) {
        char *equals = strchr(item, '=');
        if (equals == NULL) {
            if (strcmp(item, "nvls") == 0)
                local.nvls = true;
            else if (strcmp(item, "sharp") == 0)
                local.sharp = true;
            else if (strcmp(item, "no-nvls") == 0)
                local.no_nvls = true;
            else
                code = usage_error(base, "--placement", "'%.40s' is not KEY=VALUE", item);
            continue;
        }
        *equals = '\0';
        const char *value = equals + 1;
        if (strcmp(item, "label") == 0) {
            snprintf(out_config->label, sizeof out_config->label, "%s", value);
            continue;
        }
        int id = -1;
        for (size_t k = 0; k < sizeof KEYS / sizeof KEYS[0]; k++)
            if (strcmp(item, KEYS[k].key) == 0)
                id = KEYS[k].id;
        if (id < 0)
            code = usage_error(base, "--placement",
                               "unknown key '%.40s' (platform, gpus-per-node, intra, inter, "
                               "nics-per-node, link, nodes, nvls, no-nvls, sharp, label)",
                               item);
        else if (settings_apply(&local, id, "--placement", value) != 0)
            code = 2;
    }
    if (code == 0)
        code = settings_build_cluster(&local, 0, &out_config->cluster);
    if (code == 0 && out_config->label[0] == '\0')
        snprintf(out_config->label, sizeof out_config->label, "%.63s", spec);
    return code;
}

/* The phase that costs most, for the "why" line. */
static const collcalc_phase *costliest_phase(const collcalc_result *r)
{
    const collcalc_phase *worst = NULL;
    for (int i = 0; i < r->phase_count; i++)
        if (worst == NULL || r->phases[i].time_us > worst->time_us)
            worst = &r->phases[i];
    return worst;
}

static double safe_ratio(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

static int compare_configs(cli_settings *settings, collcalc_query *query, const config *configs,
                           int config_count, const uint64_t *sizes, int size_count)
{
    FILE *out = settings->out;
    double repeat = (double)settings->layers * (double)settings->per_layer;
    cJSON *doc = NULL, *rows = NULL;
    if (settings->format == FORMAT_JSON) {
        doc = cJSON_CreateObject();
        cJSON_AddStringToObject(doc, "mode", "configurations");
        cJSON_AddStringToObject(doc, "op", collcalc_op_name(query->op));
        cJSON_AddStringToObject(doc, "bw_basis", collcalc_bw_basis_name(settings->basis));
        rows = cJSON_AddArrayToObject(doc, "rows");
    } else if (settings->format == FORMAT_CSV) {
        fputs("size_bytes,configuration,algorithm,steps,latency_us,bandwidth_us,time_us,"
              "algbw_GBps,busbw_GBps,time_ratio,bandwidth_ratio,total_time_us\n",
              out);
    } else {
        fprintf(out, "%s, %s\n", collcalc_op_title(query->op), basis_phrase(settings->basis));
    }
    for (int s = 0; s < size_count; s++) {
        collcalc_result results[MAX_CONFIGS];
        for (int c = 0; c < config_count; c++) {
            collcalc_query q = *query;
            q.cluster = configs[c].cluster;
            q.size_bytes = sizes[s];
            collcalc_result all[COLLCALC_ALGO_COUNT];
            size_t count = 0, fastest = 0;
            int code = settings_evaluate(settings, &q, all, &count, &fastest);
            if (code != 0) {
                cJSON_Delete(doc);
                return code;
            }
            results[c] = all[fastest];
        }
        if (settings->format == FORMAT_TABLE) {
            char size[32];
            fprintf(out, "\n%s (%llu bytes):\n", collcalc_format_bytes_si(size, sizeof size, (double)sizes[s]),
                    (unsigned long long)sizes[s]);
            fprintf(out, "  %-24s %-19s %10s %10s %10s %11s %8s%s\n", "configuration", "algorithm",
                    "latency", "bandwidth", "time", "busbw", "vs first", repeat > 1 ? "  total" : "");
        }
        for (int c = 0; c < config_count; c++) {
            const collcalc_result *r = &results[c];
            double ratio = safe_ratio(r->time_us, results[0].time_us);
            double bw_ratio = safe_ratio(r->bandwidth_us, results[0].bandwidth_us);
            char lat[32], bw[32], time[32], bus[32], total[32];
            if (rows != NULL) {
                cJSON *row = json_result(settings, r, false);
                cJSON_DeleteItemFromObject(row, "fastest");
                cJSON_AddStringToObject(row, "configuration", configs[c].label);
                json_add_bytes(row, "size_bytes", (double)sizes[s]);
                json_add_number(row, "time_ratio", ratio);
                json_add_number(row, "bandwidth_ratio", bw_ratio);
                collcalc_query q = *query;
                q.cluster = configs[c].cluster;
                q.size_bytes = sizes[s];
                cJSON_AddItemToObject(row, "cluster", json_query(settings, &q));
                cJSON_AddItemToArray(rows, row);
            } else if (settings->format == FORMAT_CSV) {
                fprintf(out, "%llu,", (unsigned long long)sizes[s]);
                csv_field(out, configs[c].label, false);
                fprintf(out, "%s,%ld,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n",
                        collcalc_algo_name(r->algo), r->steps, r->latency_us, r->bandwidth_us,
                        r->time_us, r->algbw_GBps, r->busbw_GBps, ratio, bw_ratio,
                        r->time_us * repeat);
            } else {
                fprintf(out, "  %-24s %-19s %10s %10s %10s %11s %7.2fx", configs[c].label,
                        collcalc_algo_name(r->algo),
                        collcalc_format_time_us(lat, sizeof lat, r->latency_us),
                        collcalc_format_time_us(bw, sizeof bw, r->bandwidth_us),
                        collcalc_format_time_us(time, sizeof time, r->time_us),
                        collcalc_format_bandwidth_GBps(bus, sizeof bus, r->busbw_GBps), ratio);
                if (repeat > 1)
                    fprintf(out, "  %s", collcalc_format_time_us(total, sizeof total, r->time_us * repeat));
                fputc('\n', out);
            }
        }
        if (settings->format != FORMAT_TABLE)
            continue;
        for (int c = 1; c < config_count; c++) {
            const collcalc_result *r = &results[c], *first = &results[0];
            const collcalc_phase *worst = costliest_phase(r);
            char a[32], b[32];
            fprintf(out, "  %s vs %s: %.3gx the time (bandwidth term %s vs %s, %.3gx)", configs[c].label,
                    configs[0].label, safe_ratio(r->time_us, first->time_us),
                    collcalc_format_time_us(a, sizeof a, r->bandwidth_us),
                    collcalc_format_time_us(b, sizeof b, first->bandwidth_us),
                    safe_ratio(r->bandwidth_us, first->bandwidth_us));
            if (worst != NULL)
                fprintf(out, "; costliest phase: %s on %s", worst->label, worst->link);
            fputc('\n', out);
            if (repeat > 1) {
                char c1[32], c2[32], d1[32], d2[32];
                fprintf(out, "  x %.0f: bandwidth terms %s vs %s; totals %s vs %s\n", repeat,
                        collcalc_format_time_us(c1, sizeof c1, first->bandwidth_us * repeat),
                        collcalc_format_time_us(c2, sizeof c2, r->bandwidth_us * repeat),
                        collcalc_format_time_us(d1, sizeof d1, first->time_us * repeat),
                        collcalc_format_time_us(d2, sizeof d2, r->time_us * repeat));
            }
        }
    }
    if (rows != NULL)
        return json_print_and_free(settings, doc);
    return 0;
}

/* What compare's own options say. */
typedef struct {
    size_request sizes;
    const char *op_name;
    const char *placements[MAX_CONFIGS];
    int placement_count;
} compare_request;

static int apply_compare_option(cli_settings *settings, void *context, int id, const char *option,
                                const char *value)
{
    compare_request *request = context;
    if (id == ARGS_POSITIONAL || id == OPT_OP) {
        if (request->op_name != NULL)
            return usage_error(settings, NULL, "unexpected argument '%.40s'", value);
        request->op_name = value;
        return 0;
    }
    if (id == OPT_PLACEMENT) {
        if (request->placement_count >= MAX_CONFIGS)
            return usage_error(settings, option, "at most %d placements", MAX_CONFIGS);
        request->placements[request->placement_count++] = value;
        return 0;
    }
    if (id == OPT_SIZE) {
        /* One --size is a one-element size list. */
        request->sizes.list_text = value;
        return settings_apply(settings, id, option, value) != 0 ? 2 : 0;
    }
    return sizes_apply(settings, &request->sizes, id, option, value);
}

static void print_help(FILE *out, const cli_settings *settings)
{
    (void)settings;
    fputs(HELP, out);
}

int cmd_compare(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    (void)in;
    cli_settings settings;
    settings_init(&settings, command, out, err);
    compare_request request;
    memset(&request, 0, sizeof request);
    cli_option options[64];
    options_join(COMPARE_OPTIONS, options, 64);
    bool help = false;
    int code = settings_parse(&settings, options, argc, argv, print_help, apply_compare_option,
                              &request, &help);
    if (help)
        return finish_output(&settings, code);
    const char *op_name = request.op_name;
    const char **placements = request.placements;
    int placement_count = request.placement_count;
    collcalc_query query;
    memset(&query, 0, sizeof query);
    query.tree_efficiency = settings.tree_efficiency;
    collcalc_diag diag;
    if (code == 0 && op_name == NULL)
        code = usage_error(&settings, NULL, "missing the operation, e.g. 'collcalc compare allreduce'");
    if (code == 0 && collcalc_op_from_name(op_name, &query.op, &diag) != COLLCALC_OK)
        code = usage_error(&settings, NULL, "%s", diag.message);
    if (code == 0)
        code = settings_load_links(&settings);

    uint64_t sizes[MAX_SWEEP_SIZES];
    int size_count = 0;
    if (code == 0 && request.sizes.list_text == NULL && !request.sizes.min_set && !request.sizes.max_set)
        request.sizes.list_text = "64KB,1MB,100MB,1GB";
    if (code == 0)
        code = sizes_expand(&settings, &request.sizes, 8, 1UL << 30, sizes, &size_count);

    config configs[MAX_CONFIGS];
    int config_count = 0;
    if (code == 0 && placement_count > 0) {
        /* Placements share the command's tables; load them once here. */
        code = settings_load_platforms(&settings);
        if (code == 0 && settings.link_count > 1)
            code = usage_error(&settings, "--placement", "compare links or placements, not both");
        for (int i = 0; i < placement_count && code == 0; i++)
            code = parse_placement(&settings, placements[i], &configs[config_count++]);
    } else if (code == 0 && settings.link_count > 1) {
        for (int i = 0; i < settings.link_count && code == 0; i++) {
            code = settings_build_cluster(&settings, i, &configs[config_count].cluster);
            snprintf(configs[config_count].label, sizeof configs[config_count].label, "%s",
                     settings.link_names[i]);
            config_count++;
        }
    } else if (code == 0) {
        code = settings_build_cluster(&settings, 0, &query.cluster);
    }
    if (code == 0 && config_count > 0)
        code = compare_configs(&settings, &query, configs, config_count, sizes, size_count);
    else if (code == 0)
        code = compare_algorithms(&settings, &query, sizes, size_count);
    code = finish_output(&settings, code);
    settings_free(&settings);
    return code;
}
