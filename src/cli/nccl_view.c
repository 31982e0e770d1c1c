/* The NCCL-faithful answer as records (nccl_view.h). */
#include "nccl_view.h"

#include <string.h>

#include "collcalc/units.h"
#include "human.h"
#include "inputs.h"
#include "report.h"

static const record_column NCCL_COLUMNS[] = {
    {"size_bytes", "size", FIELD_BYTES, COLUMN_BOTH, NULL}, /* hidden for one size */
    {"model", "model", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"algorithm", "algorithm", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"protocol", "protocol", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"channels", "channels", FIELD_INT, COLUMN_BOTH, NULL},
    {"selected", "selected", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"latency_us", "latency", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"bandwidth_us", "bandwidth", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"time_us", "time", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"algbw_GBps", "algbw", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"busbw_GBps", "busbw", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"nccl_time_us", "NCCL's time", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"available", "available", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"why", "why", FIELD_TEXT, COLUMN_BOTH, NULL},
};
const record_schema NCCL_SCHEMA = {"results", sizeof NCCL_COLUMNS / sizeof NCCL_COLUMNS[0],
                                   NCCL_COLUMNS};

int nccl_view_wanted(cli_context *ctx, const collcalc_cluster_spec *spec, collcalc_op op,
                     bool *out_nccl)
{
    collcalc_nccl_func func;
    bool tuned = collcalc_nccl_func_from_op(op, &func);
    const char *model = arg_value(&ctx->args, OPT_COST_MODEL);
    bool platform = spec->platform[0] != '\0';
    if (model != NULL && strcmp(model, "nccl") != 0 && strcmp(model, "alpha-beta") != 0)
        return cli_usage_error(ctx, "--cost-model", "unknown model '%.60s' (nccl or alpha-beta)",
                               model);
    /* By default a platform brings NCCL's tuner when the preset says which
     * GPU generation it has (a user's preset may not): NCCL's tables are
     * per generation. */
    bool knows_arch = false;
    if (platform) {
        const collcalc_platform_table *platforms;
        int code = cli_platforms(ctx, &platforms);
        if (code != 0)
            return code;
        const collcalc_platform *p = collcalc_platform_table_find(platforms, spec->platform);
        knows_arch = p != NULL && p->gpu_arch != COLLCALC_GPU_ARCH_UNKNOWN;
    }
    static const option_id ALPHA_BETA_ONLY[] = {OPT_ALGO, OPT_INTRA, OPT_INTER, OPT_NICS_PER_NODE,
                                                OPT_NICS_PER_GPU, OPT_BW, OPT_ALPHA,
                                                OPT_TREE_EFFICIENCY, OPT_TOPO, OPT_NVLS,
                                                OPT_SHARP, OPT_LINK};
    static const option_id NCCL_ONLY[] = {OPT_NCCL_VERSION, OPT_LAUNCH, OPT_CUDA_GRAPH,
                                          OPT_SYMMETRIC, OPT_FABRIC_EFFICIENCY, OPT_NCCL_ALGO,
                                          OPT_NCCL_PROTO, OPT_NO_P2P, OPT_FAITHFUL};
    /* An option only the alpha-beta model has (an --algo name, an edited
     * link) asks for that model, unless --cost-model says otherwise. */
    option_id textbook = OPT_NONE;
    for (size_t i = 0; i < sizeof ALPHA_BETA_ONLY / sizeof ALPHA_BETA_ONLY[0]; i++)
        if (textbook == OPT_NONE && arg_given(&ctx->args, ALPHA_BETA_ONLY[i]))
            textbook = ALPHA_BETA_ONLY[i];
    bool nccl = model != NULL ? strcmp(model, "nccl") == 0
                              : platform && tuned && knows_arch && textbook == OPT_NONE;
    if (nccl && !tuned)
        return cli_usage_error(ctx, "--cost-model",
                               "NCCL's tuner does not cost %s (it runs as point-to-point sends); "
                               "use --cost-model alpha-beta",
                               collcalc_op_title(op));
    if (nccl && !platform)
        return cli_usage_error(ctx, "--cost-model",
                               "the NCCL model needs a platform (--platform, see 'collcalc "
                               "platforms')");
    if (nccl && textbook != OPT_NONE)
        return cli_usage_error(ctx, cli_spelled(ctx, textbook),
                               "describes the alpha-beta model; the NCCL model takes the preset's "
                               "links (use --nccl-algo to force an algorithm)");
    if (!nccl && model == NULL && platform && tuned && knows_arch)
        cli_note(ctx, "the alpha-beta (textbook) model, since %s names its terms; --cost-model "
                      "nccl for NCCL's tuner",
                 cli_spelled(ctx, textbook));
    for (size_t i = 0; !nccl && i < sizeof NCCL_ONLY / sizeof NCCL_ONLY[0]; i++)
        if (arg_given(&ctx->args, NCCL_ONLY[i]))
            return cli_usage_error(ctx, cli_spelled(ctx, NCCL_ONLY[i]),
                                   "applies to the NCCL model (give --platform, or "
                                   "--cost-model nccl)");
    *out_nccl = nccl;
    return 0;
}

int nccl_view_setup(cli_context *ctx, const collcalc_cluster_spec *spec,
                    const collcalc_cluster *cluster, nccl_setup *out)
{
    const collcalc_platform *platform;
    int code = cli_platform_named(ctx, spec->platform, &platform);
    if (code != 0)
        return code;
    int nodes = collcalc_cluster_nodes(cluster);
    int g = cluster->gpus_per_node < cluster->gpus ? cluster->gpus_per_node : cluster->gpus;
    if (cluster->gpus != nodes * g)
        return cli_usage_error(ctx, "--gpus",
                               "NCCL's model needs every node full (%d GPUs on %d nodes of %d); "
                               "give --nodes, or --cost-model alpha-beta for a partial node",
                               cluster->gpus, nodes, g);
    return nccl_setup_build(ctx, platform, nodes, g, NULL, COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU,
                            out);
}

void nccl_view_record_figures(record_set *set, const collcalc_nccl_candidate *candidate)
{
    record_int(set, "channels", candidate->channels_run);
    record_number(set, "latency_us", candidate->latency_pred_us);
    record_number(set, "bandwidth_us", candidate->bandwidth_pred_us);
    record_number(set, "time_us", candidate->time_us);
    record_number(set, "algbw_GBps", candidate->algbw_GBps);
    record_number(set, "busbw_GBps", candidate->busbw_GBps);
    record_number(set, "nccl_time_us", candidate->nccl_time_us);
}

void nccl_view_rows(record_set *set, const collcalc_nccl_prediction *prediction,
                    uint64_t size_bytes, bool all_candidates)
{
    const collcalc_nccl_candidate *chosen = collcalc_nccl_selected(prediction);
    for (size_t i = 0; i < prediction->candidate_count; i++) {
        const collcalc_nccl_candidate *c = &prediction->candidates[i];
        bool available = c->unavailable == COLLCALC_NCCL_OK;
        if (!available && !all_candidates)
            continue;
        record_begin(set);
        record_int(set, "size_bytes", (long long)size_bytes);
        record_text(set, "model", "nccl");
        record_text(set, "algorithm", collcalc_nccl_algo_name(c->algo));
        record_text(set, "protocol", collcalc_nccl_proto_name(c->proto));
        record_bool(set, "selected", c->selected);
        record_bool(set, "available", available);
        if (!available) {
            record_text(set, "why", collcalc_nccl_unavailable_text(c->unavailable));
            continue;
        }
        nccl_view_record_figures(set, c);
        if (c->selected) {
            record_text(set, "why", "NCCL's tuner picks it (least time in its model)");
            records_mark(set, record_count(set) - 1, "<- NCCL's choice");
        } else if (chosen != NULL) {
            char a[32], b[32];
            human_time_us(a, sizeof a, c->nccl_time_us);
            human_time_us(b, sizeof b, chosen->nccl_time_us);
            record_textf(set, "why", "%s > %s in NCCL's model", a, b);
        }
    }
}

void nccl_view_header(document *doc, const collcalc_query *query, const nccl_setup *setup,
                      const collcalc_nccl_prediction *prediction)
{
    char size_si[32], size_exact[40], cluster[256];
    report_describe_cluster(&query->cluster, cluster, sizeof cluster);
    human_bytes(size_si, sizeof size_si, (double)query->size_bytes);
    collcalc_format_grouped_u64(size_exact, sizeof size_exact, query->size_bytes);
    doc_text(doc, "%s of %s (%s bytes) on %s", collcalc_op_title(query->op), size_si, size_exact,
             cluster);
    doc_text(doc, "NCCL %s tuner on %s (%s, %s launch%s%s)%s", setup->constants->version,
             setup->platform->name, collcalc_nccl_transport_name(setup->system.transport),
             setup->launch == COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS ? "single-process"
                                                                 : "process-per-gpu",
             setup->system.cuda_graph ? ", CUDA graphs" : "",
             setup->system.symmetric ? ", symmetric memory" : "",
             setup->options.corrections ? "; times with collcalc's corrections"
                                        : "; NCCL's own model, no corrections");
    const collcalc_nccl_candidate *c = collcalc_nccl_selected(prediction);
    if (c == NULL) {
        doc_text(doc, "nothing to move");
        return;
    }
    char t[32], alg[32], bus[32];
    human_time_us(t, sizeof t, c->time_us);
    human_bandwidth_GBps(alg, sizeof alg, c->algbw_GBps);
    human_bandwidth_GBps(bus, sizeof bus, c->busbw_GBps);
    doc_text(doc, "NCCL's choice: %s/%s on %d channel%s: nccl-tests would print time %s, algbw "
                  "%s, busbw %s",
             collcalc_nccl_algo_name(c->algo), collcalc_nccl_proto_name(c->proto), c->channels_run,
             c->channels_run == 1 ? "" : "s", t, alg, bus);
}
