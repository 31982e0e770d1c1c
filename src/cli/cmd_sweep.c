/* collcalc sweep: one collective over a range of sizes, one row per size,
 * optionally in nccl-tests' own column layout so runs compare line by line. */
#include <string.h>

#include "commands.h"
#include "output.h"
#include "setup.h"
#include "sizes.h"
#include "collcalc/units.h"

static const char HELP[] =
    "Usage: collcalc sweep OP -b MIN -e MAX [-f FACTOR | -i STEP] --gpus N --link NAME [options]\n"
    "\n"
    "Predicts a whole nccl-tests run: for every size from MIN to MAX (multiplied by\n"
    "FACTOR, default 2, or stepped by STEP bytes) the time, algbw and busbw of the\n"
    "fastest algorithm (or of --algo). OP is allreduce, allgather, reducescatter,\n"
    "alltoall, broadcast, reduce or sendrecv (also --op). Sizes have nccl-tests'\n"
    "meaning and its suffixes: -b 8 -e 1G is 8 bytes to 2^30 bytes.\n"
    "\n"
    "  -b, --minbytes SIZE    first size (default 8)\n"
    "  -e, --maxbytes SIZE    last size (default 1G)\n"
    "  -f, --stepfactor F     multiply by F each row (default 2)\n"
    "  -i, --stepbytes SIZE   add SIZE each row instead\n"
    "      --sizes LIST       explicit sizes: 64KB,1MB,100MB or a range 8..1G\n"
    "      --style S          table (default) or nccl-tests (its header and columns;\n"
    "                         float elements, in-place columns repeat out-of-place)\n"
    "  -a, --algo NAME        cost only this algorithm (repeatable); default: fastest\n"
    "\n"
    "Cluster, link and output options are those of 'collcalc allreduce --help'\n"
    "(--gpus, --link, --bw-basis, --gpus-per-node, --intra, --inter, --nics-per-node,\n"
    "--format table|json|csv).\n"
    "\n"
    "Example:\n"
    "  collcalc sweep allreduce -b 8 -e 1G -f 2 --gpus 8 --link nvlink4 --style nccl-tests\n";

static const cli_option SWEEP_OPTIONS[] = {
    {"minbytes", 'b', true, OPT_MIN_BYTES}, {"maxbytes", 'e', true, OPT_MAX_BYTES},
    {"stepfactor", 'f', true, OPT_STEP_FACTOR}, {"stepbytes", 'i', true, OPT_STEP_BYTES},
    {"sizes", 0, true, OPT_SIZES}, {"style", 0, true, OPT_STYLE}, {"op", 0, true, OPT_OP},
    {NULL, 0, false, 0},
};

/* What the sweep's own options say. */
typedef struct {
    size_request sizes;
    const char *op_name;
    bool nccl_style;
} sweep_request;

static int apply_sweep_option(cli_settings *settings, void *context, int id, const char *option,
                              const char *value)
{
    sweep_request *request = context;
    if (id == ARGS_POSITIONAL || id == OPT_OP) {
        if (request->op_name != NULL)
            return usage_error(settings, NULL, "unexpected argument '%.40s'", value);
        request->op_name = value;
        return 0;
    }
    if (id == OPT_STYLE) {
        if (strcmp(value, "nccl-tests") == 0)
            request->nccl_style = true;
        else if (strcmp(value, "table") != 0)
            return usage_error(settings, option, "unknown style '%.40s' (table or nccl-tests)", value);
        return 0;
    }
    return sizes_apply(settings, &request->sizes, id, option, value);
}

static void print_help(FILE *out, const cli_settings *settings)
{
    (void)settings;
    fputs(HELP, out);
}

/* nccl-tests prints numbers to fit a column: %.2f, else %.1f, else %.0f. */
static void fit(char *buffer, size_t size, double value, int width)
{
    int precision = 2;
    for (; precision >= 0; precision--) {
        int length = snprintf(buffer, size, "%.*f", precision, value);
        if (length <= width)
            return;
    }
    snprintf(buffer, size, "%.*e", width > 6 ? 1 : 0, value);
}

static bool count_is_per_rank(collcalc_op op)
{
    return op == COLLCALC_OP_ALLGATHER || op == COLLCALC_OP_REDUCESCATTER ||
           op == COLLCALC_OP_ALLTOALL;
}

static void print_nccl_header(const cli_settings *settings, const collcalc_query *query,
                              uint64_t first, uint64_t last)
{
    FILE *out = settings->out;
    char cluster[256];
    describe_cluster(&query->cluster, cluster, sizeof cluster);
    fprintf(out, "# collcalc prediction of %s_perf: %s, %s\n",
            query->op == COLLCALC_OP_ALLREDUCE       ? "all_reduce"
            : query->op == COLLCALC_OP_ALLGATHER     ? "all_gather"
            : query->op == COLLCALC_OP_REDUCESCATTER ? "reduce_scatter"
            : query->op == COLLCALC_OP_ALLTOALL      ? "alltoall"
            : query->op == COLLCALC_OP_BROADCAST     ? "broadcast"
            : query->op == COLLCALC_OP_REDUCE        ? "reduce"
                                                     : "sendrecv",
            cluster, collcalc_bw_basis_name(settings->basis));
    fprintf(out, "# nThread 1 nGpus %d minBytes %llu maxBytes %llu (predicted, not measured)\n",
            query->cluster.gpus, (unsigned long long)first, (unsigned long long)last);
    fputs("#\n", out);
    /* nccl-tests' own three header lines (src/util.cu), so tools that parse
     * its output read ours. */
    fputs("#                                                              out-of-place                       in-place\n"
          "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
          "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n",
          out);
}

static void print_nccl_row(FILE *out, const collcalc_query *query, const collcalc_result *r)
{
    uint64_t count = r->size_bytes / 4;
    if (count_is_per_rank(query->op))
        count /= (uint64_t)query->cluster.gpus;
    const char *redop = (query->op == COLLCALC_OP_ALLREDUCE || query->op == COLLCALC_OP_REDUCESCATTER ||
                         query->op == COLLCALC_OP_REDUCE || query->op == COLLCALC_OP_SENDRECV)
                            ? "sum"
                            : "none";
    const char *root = (query->op == COLLCALC_OP_BROADCAST || query->op == COLLCALC_OP_REDUCE) ? "0" : "-1";
    char time[32], alg[32], bus[32];
    fit(time, sizeof time, r->time_us, 7);
    fit(alg, sizeof alg, r->algbw_GBps, 6);
    fit(bus, sizeof bus, r->busbw_GBps, 6);
    fprintf(out, "%12llu  %12llu  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s\n",
            (unsigned long long)r->size_bytes, (unsigned long long)count, "float", redop, root, time,
            alg, bus, "N/A", time, alg, bus, "N/A");
}

int cmd_sweep(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    (void)in;
    cli_settings settings;
    settings_init(&settings, command, out, err);
    sweep_request request;
    memset(&request, 0, sizeof request);
    cli_option options[64];
    options_join(SWEEP_OPTIONS, options, 64);
    bool help = false;
    int code = settings_parse(&settings, options, argc, argv, print_help, apply_sweep_option,
                              &request, &help);
    if (help)
        return finish_output(&settings, code);
    const char *op_name = request.op_name;
    bool nccl_style = request.nccl_style;
    collcalc_query query;
    memset(&query, 0, sizeof query);
    collcalc_diag diag;
    if (code == 0 && op_name == NULL)
        code = usage_error(&settings, NULL, "missing the operation, e.g. 'collcalc sweep allreduce'");
    if (code == 0 && collcalc_op_from_name(op_name, &query.op, &diag) != COLLCALC_OK)
        code = usage_error(&settings, NULL, "%s", diag.message);
    if (code == 0 && settings.link_count > 1)
        code = usage_error(&settings, "--link", "one link per sweep; 'collcalc compare' puts links side by side");
    if (code == 0)
        code = settings_load_links(&settings);
    if (code == 0)
        code = settings_build_cluster(&settings, 0, &query.cluster);
    query.tree_efficiency = settings.tree_efficiency;

    uint64_t sizes[MAX_SWEEP_SIZES];
    int size_count = 0;
    if (code == 0)
        code = sizes_expand(&settings, &request.sizes, 8, 1UL << 30, sizes, &size_count);

    cJSON *doc = NULL, *rows = NULL;
    if (code == 0 && settings.format == FORMAT_JSON) {
        doc = cJSON_CreateObject();
        query.size_bytes = sizes[0];
        cJSON *q = json_query(&settings, &query);
        cJSON_DeleteItemFromObject(q, "size_bytes");
        cJSON_AddItemToObject(doc, "query", q);
        rows = cJSON_AddArrayToObject(doc, "results");
    } else if (code == 0 && settings.format == FORMAT_CSV) {
        fputs("size_bytes,algorithm,steps,bytes_sent_per_gpu,latency_us,bandwidth_us,time_us,"
              "algbw_GBps,busbw_GBps,dominant\n",
              out);
    } else if (code == 0 && nccl_style) {
        print_nccl_header(&settings, &query, sizes[0], sizes[size_count - 1]);
    } else if (code == 0) {
        char cluster[256];
        describe_cluster(&query.cluster, cluster, sizeof cluster);
        fprintf(out, "%s sweep on %s; %s\n", collcalc_op_title(query.op), cluster,
                basis_phrase(settings.basis));
        fprintf(out, "%14s %10s %-19s %6s %10s %10s %11s %11s  %s\n", "size (B)", "size",
                "algorithm", "steps", "latency", "time", "algbw", "busbw", "dominant");
    }
    double busbw_sum = 0.0;
    for (int i = 0; i < size_count && code == 0; i++) {
        query.size_bytes = sizes[i];
        collcalc_result results[COLLCALC_ALGO_COUNT];
        size_t count = 0, fastest = 0;
        code = settings_evaluate(&settings, &query, results, &count, &fastest);
        if (code != 0)
            break;
        const collcalc_result *r = &results[fastest];
        busbw_sum += r->busbw_GBps;
        char human[32], lat[32], time[32], alg[32], bus[32];
        if (rows != NULL) {
            cJSON *row = json_result(&settings, r, true);
            json_add_bytes(row, "size_bytes", (double)r->size_bytes);
            cJSON_AddItemToArray(rows, row);
        } else if (settings.format == FORMAT_CSV) {
            fprintf(out, "%llu,%s,%ld,%.0f,%.4f,%.4f,%.4f,%.4f,%.4f,%s\n",
                    (unsigned long long)r->size_bytes, collcalc_algo_name(r->algo), r->steps,
                    r->bytes_sent_per_gpu, r->latency_us, r->bandwidth_us, r->time_us,
                    r->algbw_GBps, r->busbw_GBps, collcalc_dominant_name(r->dominant));
        } else if (nccl_style) {
            print_nccl_row(out, &query, r);
        } else {
            fprintf(out, "%14llu %10s %-19s %6ld %10s %10s %11s %11s  %s\n",
                    (unsigned long long)r->size_bytes,
                    collcalc_format_bytes_iec(human, sizeof human, (double)r->size_bytes),
                    collcalc_algo_name(r->algo), r->steps,
                    collcalc_format_time_us(lat, sizeof lat, r->latency_us),
                    collcalc_format_time_us(time, sizeof time, r->time_us),
                    collcalc_format_bandwidth_GBps(alg, sizeof alg, r->algbw_GBps),
                    collcalc_format_bandwidth_GBps(bus, sizeof bus, r->busbw_GBps),
                    collcalc_dominant_name(r->dominant));
        }
    }
    if (code == 0 && rows != NULL)
        code = json_print_and_free(&settings, doc);
    else
        cJSON_Delete(doc);
    if (code == 0 && nccl_style && settings.format == FORMAT_TABLE) {
        fputs("# Out of bounds values : 0 OK\n", out);
        fprintf(out, "# Avg bus bandwidth    : %g \n", size_count > 0 ? busbw_sum / size_count : 0.0);
        fputs("#\n", out);
    }
    code = finish_output(&settings, code);
    settings_free(&settings);
    return code;
}
