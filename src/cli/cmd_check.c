/* collcalc check: reads nccl-tests output, predicts every row with the
 * NCCL-faithful model on the cluster the run describes (or the options
 * say), prints measured against predicted, and gives a verdict. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_tests_reader.h"
#include "collcalc/units.h"
#include "commands.h"
#include "findings_out.h"
#include "human.h"
#include "nccl_setup.h"

/* Verdict thresholds (doc/MODEL.md, "check: verdicts"): a run is below
 * expectation when its large messages reach less than 80 % of the
 * prediction (the model's own median error on healthy runs is under 10 %,
 * so 20 % is two to four times it); above the line rate when it beats
 * both the prediction by 15 % and the line rate of its path without an
 * in-network algorithm to explain it. */
#define BELOW_RATIO 0.80
#define ABOVE_RATIO 1.15
#define LARGE_BYTES 1048576u
#define SMALL_BYTES 65536u

static const record_column ROW_COLUMNS[] = {
    {"size_bytes", "size", FIELD_BYTES_IEC, COLUMN_BOTH, NULL},
    {"line", "line", FIELD_INT, COLUMN_MACHINE, NULL},
    {"type", "type", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"measured_time_us", "time", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"predicted_time_us", "predicted", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"time_error", "error", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"measured_algbw_GBps", "algbw", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"predicted_algbw_GBps", "predicted algbw", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"measured_busbw_GBps", "busbw", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"predicted_busbw_GBps", "predicted", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"busbw_error", "error", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"error", "error", FIELD_TEXT, COLUMN_TABLE, NULL},
    {"algorithm", "NCCL algo", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"protocol", "proto", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"channels", "channels", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nccl_time_us", "NCCL model time", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"nccl_busbw_GBps", "NCCL model busbw", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"row_check", "row", FIELD_TEXT, COLUMN_BOTH, NULL},
};
static const record_schema ROW_SCHEMA = {"rows", sizeof ROW_COLUMNS / sizeof ROW_COLUMNS[0],
                                         ROW_COLUMNS};

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

static int read_run(cli_context *ctx, const char *path, collcalc_nccl_tests_run *run)
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
    const char *shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
    if (code == 0 && state.code != 0)
        code = cli_data_error(ctx, shown, "line %ld: %s", state.failed_line, state.diag.message);
    if (code == 0 && collcalc_nccl_tests_reader_finish(state.reader, run, &diag) != COLLCALC_OK)
        code = cli_data_error(ctx, shown, "%s", diag.message);
    collcalc_nccl_tests_reader_free(state.reader);
    return code;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, size_t count)
{
    if (count == 0)
        return 0.0;
    qsort(values, count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

/* Which cluster the run was on: the options, else the run's own words. */
static int find_platform(cli_context *ctx, const collcalc_nccl_tests_run *run,
                         const collcalc_platform **out, int *nodes, int *gpus_per_node)
{
    const collcalc_platform_table *platforms;
    int code = cli_platforms(ctx, &platforms);
    if (code != 0)
        return code;
    const char *name = arg_value(&ctx->args, OPT_PLATFORM);
    *out = NULL;
    if (name != NULL) {
        *out = collcalc_platform_table_find(platforms, name);
        if (*out == NULL) {
            const char *names[COLLCALC_PLATFORMS_MAX];
            size_t n = collcalc_platform_table_count(platforms);
            for (size_t i = 0; i < n; i++)
                names[i] = collcalc_platform_table_at(platforms, i)->name;
            char shown[COLLCALC_ECHO_BUFFER], hint[160];
            collcalc_echo(shown, sizeof shown, name);
            collcalc_suggest_text(hint, sizeof hint, name, names, n);
            return cli_usage_error(ctx, "--platform",
                                   "unknown platform '%s'%s (see 'collcalc platforms')", shown,
                                   hint);
        }
    }
    long given_nodes = 0;
    if ((code = cli_count(ctx, OPT_NODES, 1, 1L << 20, &given_nodes)) != 0)
        return code;
    int ranks = run->ranks;
    if (*out == NULL)
        *out = collcalc_platform_guess(platforms, run->gpu_model, run->ranks_per_host);
    if (*out == NULL || ranks <= 0)
        return 0;
    long n = given_nodes > 0 ? given_nodes
             : run->hosts > 0 ? run->hosts
                              : (ranks + (*out)->gpus_per_node - 1) / (*out)->gpus_per_node;
    if (ranks % n != 0)
        return cli_usage_error(ctx, "--nodes", "%d ranks do not split evenly over %ld nodes", ranks,
                               n);
    *nodes = (int)n;
    *gpus_per_node = (int)(ranks / n);
    if (*gpus_per_node > (*out)->gpus_per_node)
        return cli_usage_error(ctx, "--nodes",
                               "%d GPUs per node do not fit %s's %d-GPU NVLink domain (give "
                               "--nodes)",
                               *gpus_per_node, (*out)->name, (*out)->gpus_per_node);
    return 0;
}

/* The line rate of the run's path: what one GPU's busbw cannot beat without
 * reduction in the network. */
static double line_rate_GBps(cli_context *ctx, const nccl_setup *setup)
{
    const collcalc_link_table *links;
    if (cli_links(ctx, &links) != 0)
        return 0.0;
    const collcalc_link *intra = collcalc_link_table_find(links, setup->platform->intra_link);
    const collcalc_link *inter = collcalc_link_table_find(links, setup->platform->inter_link);
    double rate = intra != NULL ? intra->bw_per_direction_GBps : 0.0;
    if (setup->nodes > 1 && inter != NULL) {
        int nics = setup->platform->nics_per_node;
        int drivable = setup->gpus_per_node * (setup->platform->nics_per_gpu > 0
                                                   ? setup->platform->nics_per_gpu
                                                   : 1);
        double net = (nics < drivable ? nics : drivable) * inter->bw_per_direction_GBps;
        rate = setup->gpus_per_node > 1 && rate < net ? rate : net;
    }
    return rate;
}

static bool in_network(collcalc_nccl_algo algo)
{
    return algo == COLLCALC_NCCL_NVLS || algo == COLLCALC_NCCL_NVLS_TREE ||
           algo == COLLCALC_NCCL_COLLNET_DIRECT || algo == COLLCALC_NCCL_COLLNET_CHAIN;
}

typedef struct {
    double ratio_large[4096];
    double busbw_error[4096];
    double time_error[4096];
    size_t large, small;
    uint64_t below_min, below_max; /* sizes where measured < BELOW_RATIO x predicted */
    size_t below_count;
    double worst_ratio;
    bool above_line;
    uint64_t above_size;
    double above_busbw;
} tally;

static const char *verdict_of(const tally *t, bool predicted, double *median_ratio)
{
    double copy[4096];
    memcpy(copy, t->ratio_large, t->large * sizeof copy[0]);
    *median_ratio = median(copy, t->large);
    if (!predicted || (t->large == 0 && t->small == 0))
        return "unknown";
    if (t->above_line)
        return "above-line-rate";
    if (t->large > 0 && *median_ratio < BELOW_RATIO)
        return "below-expectation";
    return "healthy";
}

int cmd_check(cli_context *ctx)
{
    const char *path;
    int code = input_operand(ctx, &path);
    collcalc_nccl_tests_run run;
    memset(&run, 0, sizeof run);
    if (code == 0)
        code = read_run(ctx, path, &run);
    if (code != 0)
        return code;
    const collcalc_platform *platform = NULL;
    int nodes = 1, gpus_per_node = 1;
    code = find_platform(ctx, &run, &platform, &nodes, &gpus_per_node);
    nccl_setup *setup = malloc(sizeof *setup);
    tally *t = calloc(1, sizeof *t);
    collcalc_nccl_func func = COLLCALC_NCCL_ALLREDUCE;
    bool modelled = run.op_source != COLLCALC_NCCL_TESTS_FROM_NONE && nccl_func_of(run.op, &func);
    bool predicted = code == 0 && platform != NULL && run.ranks > 0 && modelled;
    if (code == 0 && (setup == NULL || t == NULL))
        code = cli_data_error(ctx, NULL, "out of memory");
    collcalc_nccl_launch launch = run.launch == COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS
                                      ? COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS
                                      : COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
    if (code == 0 && predicted)
        code = nccl_setup_build(ctx, platform, nodes, gpus_per_node,
                                run.nccl_version[0] ? run.nccl_version : NULL, launch, setup);
    if (code == 0 && run.graph > 0 && predicted)
        setup->system.cuda_graph = true;
    if (code != 0) {
        free(setup);
        free(t);
        collcalc_nccl_tests_run_free(&run);
        return code;
    }

    const char *shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
    document *doc = doc_new(ctx->name);
    doc_query_text(doc, "file", shown);
    doc_query_text(doc, "op", run.op_source != COLLCALC_NCCL_TESTS_FROM_NONE
                                  ? collcalc_op_name(run.op)
                                  : NULL);
    doc_query_text(doc, "op_from", collcalc_nccl_tests_source_name(run.op_source));
    doc_query_int(doc, "ranks", run.ranks);
    doc_query_text(doc, "ranks_from", collcalc_nccl_tests_source_name(run.ranks_source));
    doc_query_text(doc, "launch", collcalc_nccl_tests_launch_name(run.launch));
    doc_query_text(doc, "gpu_model", run.gpu_model[0] ? run.gpu_model : NULL);
    doc_query_text(doc, "nccl_version", run.nccl_version[0] ? run.nccl_version : NULL);
    doc_query_text(doc, "platform", platform != NULL ? platform->name : NULL);
    doc_query_int(doc, "nodes", predicted ? nodes : 0);
    doc_query_int(doc, "gpus_per_node", predicted ? gpus_per_node : 0);
    doc_query_text(doc, "nccl_constants", predicted ? setup->constants->version : NULL);
    doc_query_bool(doc, "corrections", predicted && setup->options.corrections != 0);

    char sizes[80], a[32], b[32];
    doc_text(doc, "%s: %s%s on %d rank%s (%s launch)%s%s; %zu rows", shown,
             run.op_source != COLLCALC_NCCL_TESTS_FROM_NONE ? collcalc_op_title(run.op) : "op unknown",
             run.abbreviated ? " (abbreviated table)" : "", run.ranks, run.ranks == 1 ? "" : "s",
             collcalc_nccl_tests_launch_name(run.launch), run.gpu_model[0] ? ", " : "",
             run.gpu_model, run.row_count);
    if (predicted)
        doc_text(doc, "predicted for %s, %d node%s x %d GPUs, NCCL %s tuner%s%s", platform->name,
                 nodes, nodes == 1 ? "" : "s", gpus_per_node, setup->constants->version,
                 setup->options.corrections ? " with collcalc's corrections" : " (faithful)",
                 run.nccl_version[0] ? "" : " (the run does not say its NCCL version)");
    doc_text(doc, "%s", "");
    record_set *set = doc_records(doc, &ROW_SCHEMA);
    double line_rate = predicted ? line_rate_GBps(ctx, setup) : 0.0;
    t->worst_ratio = 1e300;
    for (size_t i = 0; i < run.row_count; i++) {
        const collcalc_nccl_tests_read_row *r = &run.rows[i];
        const collcalc_nccl_tests_measurement *m = &r->row.out_of_place;
        record_begin(set);
        record_int(set, "size_bytes", (long long)r->row.size_bytes);
        record_int(set, "line", r->line);
        record_text(set, "type", r->has_type ? r->row.type : NULL);
        record_number(set, "measured_time_us", m->time_us);
        record_number(set, "measured_algbw_GBps", m->algbw_GBps);
        record_number(set, "measured_busbw_GBps", m->busbw_GBps);
        bool mismatch = r->out_of_place.algbw == COLLCALC_NCCL_TESTS_CHECK_MISMATCH ||
                        r->out_of_place.busbw == COLLCALC_NCCL_TESTS_CHECK_MISMATCH;
        record_text(set, "row_check", mismatch ? "mismatch" : r->zero_time ? "zero-time" : "ok");
        if (!predicted || r->row.size_bytes == 0 || !(m->time_us > 0.0))
            continue;
        collcalc_nccl_prediction prediction;
        collcalc_diag diag;
        if (collcalc_nccl_predict(&setup->system, setup->constants, &setup->options, func,
                                  r->row.size_bytes, &prediction, &diag) != COLLCALC_OK) {
            doc_free(doc);
            free(setup);
            free(t);
            collcalc_nccl_tests_run_free(&run);
            return cli_usage_error(ctx, NULL, "%s", diag.message);
        }
        const collcalc_nccl_candidate *c = collcalc_nccl_selected(&prediction);
        if (c == NULL)
            continue;
        double busbw_error = m->busbw_GBps > 0 ? (c->busbw_GBps - m->busbw_GBps) / m->busbw_GBps : 0;
        double time_error = (c->time_us - m->time_us) / m->time_us;
        record_number(set, "predicted_time_us", c->time_us);
        record_number(set, "predicted_algbw_GBps", c->algbw_GBps);
        record_number(set, "predicted_busbw_GBps", c->busbw_GBps);
        record_number(set, "time_error", time_error);
        record_number(set, "busbw_error", busbw_error);
        record_text(set, "algorithm", collcalc_nccl_algo_name(c->algo));
        record_text(set, "protocol", collcalc_nccl_proto_name(c->proto));
        record_int(set, "channels", c->channels_run);
        record_number(set, "nccl_time_us", c->nccl_time_us);
        record_number(set, "nccl_busbw_GBps",
                      c->nccl_time_us > 0 ? (double)r->row.size_bytes / (c->nccl_time_us * 1e3) *
                                                prediction.busbw_factor
                                          : 0.0);
        bool large = r->row.size_bytes >= LARGE_BYTES;
        record_textf(set, "error", "%+.0f%% %s", 100.0 * (large ? busbw_error : time_error),
                     large ? "busbw" : "time");
        if (large && t->large < 4096 && c->busbw_GBps > 0) {
            double ratio = m->busbw_GBps / c->busbw_GBps;
            t->busbw_error[t->large] = fabs(busbw_error);
            t->ratio_large[t->large++] = ratio;
            if (ratio < BELOW_RATIO) {
                if (t->below_count++ == 0)
                    t->below_min = r->row.size_bytes;
                t->below_max = r->row.size_bytes;
                if (ratio < t->worst_ratio)
                    t->worst_ratio = ratio;
            }
            if (!in_network(c->algo) && line_rate > 0 && m->busbw_GBps > line_rate * 1.02 &&
                ratio > ABOVE_RATIO && !t->above_line) {
                t->above_line = true;
                t->above_size = r->row.size_bytes;
                t->above_busbw = m->busbw_GBps;
            }
        }
        if (r->row.size_bytes <= SMALL_BYTES && t->small < 4096)
            t->time_error[t->small++] = fabs(time_error);
    }
    double median_ratio = 1.0;
    const char *verdict = verdict_of(t, predicted, &median_ratio);
    double median_busbw = median(t->busbw_error, t->large);
    double median_time = median(t->time_error, t->small);
    doc_query_text(doc, "verdict", verdict);
    if (t->large > 0)
        doc_query_number(doc, "median_busbw_error", FIELD_NUMBER, median_busbw);
    if (t->small > 0)
        doc_query_number(doc, "median_time_error", FIELD_NUMBER, median_time);
    if (t->large > 0)
        doc_query_number(doc, "median_measured_over_predicted", FIELD_NUMBER, median_ratio);

    collcalc_findings *findings = &run.findings;
    if (strcmp(verdict, "unknown") == 0) {
        collcalc_findings_add(findings, COLLCALC_SEVERITY_INFO, "verdict-unknown",
                              !modelled ? "give --op (all-reduce, all-gather, reduce-scatter, "
                                          "broadcast or reduce: the collectives NCCL's tuner costs)"
                              : platform == NULL ? "give --platform (see 'collcalc platforms') "
                                                   "and --nodes"
                                                 : "give --gpus (the rank count)",
                              "not enough to judge: %s",
                              !modelled ? "the op is not one NCCL's tuner costs, or unknown"
                              : platform == NULL ? "the cluster is not known"
                                                 : "the rank count is not known");
    } else if (strcmp(verdict, "below-expectation") == 0) {
        collcalc_format_bytes_iec(a, sizeof a, (double)t->below_min);
        collcalc_format_bytes_iec(b, sizeof b, (double)t->below_max);
        snprintf(sizes, sizeof sizes, "%s..%s", a, b);
        collcalc_findings_add(
            findings, COLLCALC_SEVERITY_ERROR, "below-expectation",
            nodes > 1 ? "check every NIC is used (NCCL_IB_HCA, 'collcalc diagnose' on an "
                        "NCCL_DEBUG=INFO log), GPUDirect RDMA (NCCL_NET_GDR_LEVEL), the transport "
                        "(NET/IB, not NET/Socket) and the channel count (NCCL_MIN_NCHANNELS)"
                      : "check P2P and NVLink are used (NCCL_P2P_DISABLE, NCCL_P2P_LEVEL, 'collcalc "
                        "topo'), NVLS (NCCL_NVLS_ENABLE) and the channel count",
            "below expectation: large messages reach %.0f%% of the predicted busbw (median; "
            "%s at worst %.0f%%)",
            100.0 * median_ratio, sizes, 100.0 * t->worst_ratio);
    } else if (strcmp(verdict, "above-line-rate") == 0) {
        collcalc_format_bytes_iec(a, sizeof a, (double)t->above_size);
        human_bandwidth_GBps(b, sizeof b, t->above_busbw);
        collcalc_findings_add(findings, COLLCALC_SEVERITY_WARNING, "above-line-rate",
                              "check whether the fabric reduces in the switches (NVLS, SHARP), the "
                              "rank count the busbw factor used, and the cluster options",
                              "above the line rate: %s at %s reaches %s busbw, more than the %.0f "
                              "GB/s the path carries without in-network reduction",
                              shown, a, b, line_rate);
    } else {
        collcalc_findings_add(findings, COLLCALC_SEVERITY_INFO, "healthy", NULL,
                              "healthy: large messages reach %.0f%% of the predicted busbw "
                              "(median); median error %.1f%% busbw at >= 1 MiB, %.1f%% time at "
                              "<= 64 KiB",
                              100.0 * median_ratio, 100.0 * median_busbw, 100.0 * median_time);
    }
    collcalc_findings_sort(findings);
    doc_text(doc, "%s", "");
    doc_text(doc, "verdict: %s", verdict);
    if (t->large > 0)
        doc_text(doc, "median |error| of busbw over %zu rows >= 1 MiB: %.1f%%", t->large,
                 100.0 * median_busbw);
    if (t->small > 0)
        doc_text(doc, "median |error| of time over %zu rows <= 64 KiB: %.1f%%", t->small,
                 100.0 * median_time);
    doc_text(doc, "%s", "");
    findings_add(doc, findings);
    bool unhealthy = strcmp(verdict, "healthy") != 0;
    free(setup);
    free(t);
    collcalc_nccl_tests_run_free(&run);
    code = cli_emit(ctx, doc);
    return code == 0 && unhealthy && arg_given(&ctx->args, OPT_STRICT) ? EXIT_VIOLATION : code;
}
