/* argv -> request, and the library's answer said in flags (request.h). */
#include "request.h"

#include <stdlib.h>
#include <string.h>

#include "messages.h"
#include "helpers.h"

/* Cluster options, spelled as the library's spec keys. */
static const option_id CLUSTER_OPTIONS[] = {
    OPT_GPUS,      OPT_GPUS_PER_NODE, OPT_NODES,        OPT_NICS_PER_NODE, OPT_NICS_PER_GPU,
    OPT_LINK,      OPT_INTRA,         OPT_INTER,        OPT_PLATFORM,      OPT_BW,
    OPT_ALPHA,     OPT_BW_BASIS,      OPT_TREE_EFFICIENCY, OPT_NVLS,       OPT_NO_NVLS,
    OPT_SHARP,
};

/* The request's fields and the options that set them. */
static const struct {
    const char *field;
    option_id id;
} FIELD_OPTIONS[] = {
    {"gpus", OPT_GPUS},
    {"gpus_per_node", OPT_GPUS_PER_NODE},
    {"nodes", OPT_NODES},
    {"nics_per_node", OPT_NICS_PER_NODE},
    {"nics_per_gpu", OPT_NICS_PER_GPU},
    {"link", OPT_LINK},
    {"intra", OPT_INTRA},
    {"inter", OPT_INTER},
    {"platform", OPT_PLATFORM},
    {"bw_GBps", OPT_BW},
    {"alpha_us", OPT_ALPHA},
    {"basis", OPT_BW_BASIS},
    {"nvls", OPT_NVLS},
    {"sharp", OPT_SHARP},
    {"tree_efficiency", OPT_TREE_EFFICIENCY},
    {"topo_text", OPT_TOPO},
    {"cost_model", OPT_COST_MODEL},
    {"algos", OPT_ALGO},
    {"layers", OPT_LAYERS},
    {"per_layer", OPT_PER_LAYER},
    {"nccl_version", OPT_NCCL_VERSION},
    {"launch", OPT_LAUNCH},
    {"cuda_graph", OPT_CUDA_GRAPH},
    {"harness", OPT_HARNESS},
    {"symmetric", OPT_SYMMETRIC},
    {"no_p2p", OPT_NO_P2P},
    {"faithful", OPT_FAITHFUL},
    {"fabric_efficiency", OPT_FABRIC_EFFICIENCY},
    {"nccl_algo", OPT_NCCL_ALGO},
    {"nccl_proto", OPT_NCCL_PROTO},
};

/* The option of a field ("--gpus-per-node", or as the user spelled it);
 * NULL for a field no option sets. */
static const char *field_flag(cli_context *ctx, const char *field)
{
    if (strcmp(field, "size_bytes") == 0) { /* whichever option gave the sizes */
        static const option_id SIZE_OPTIONS[] = {OPT_SIZE, OPT_SIZES, OPT_MAX_BYTES,
                                                 OPT_MIN_BYTES};
        for (size_t i = 0; i < sizeof SIZE_OPTIONS / sizeof SIZE_OPTIONS[0]; i++)
            if (arg_given(&ctx->args, SIZE_OPTIONS[i]))
                return cli_spelled(ctx, SIZE_OPTIONS[i]);
        return cli_spelled(ctx, OPT_SIZE);
    }
    for (size_t i = 0; i < sizeof FIELD_OPTIONS / sizeof FIELD_OPTIONS[0]; i++) {
        if (strcmp(FIELD_OPTIONS[i].field, field) != 0)
            continue;
        option_id id = FIELD_OPTIONS[i].id;
        if (id == OPT_NVLS && arg_given(&ctx->args, OPT_NO_NVLS) && !arg_given(&ctx->args, OPT_NVLS))
            id = OPT_NO_NVLS;
        return cli_spelled(ctx, id);
    }
    return NULL;
}

/* A library message "field: text" said as "--flag: text" into buffer. */
static const char *flag_message(cli_context *ctx, const char *message, char *buffer, size_t size)
{
    size_t length = strcspn(message, ":");
    char field[40];
    if (message[length] != ':' || length >= sizeof field)
        return message;
    memcpy(field, message, length);
    field[length] = '\0';
    const char *flag = field_flag(ctx, field);
    if (flag == NULL)
        return message;
    snprintf(buffer, size, "%s%s", flag, message + length);
    return buffer;
}

int request_error(cli_context *ctx, collcalc_status status, const char *field,
                  const collcalc_diag *diag)
{
    if (field == NULL || status == COLLCALC_ERR_NOMEM)
        return cli_data_error(ctx, NULL, "%s", diag->message);
    const char *text = diag->message;
    size_t length = strlen(field);
    if (strncmp(text, field, length) == 0 && text[length] == ':')
        text += length + (text[length + 1] == ' ' ? 2 : 1);
    const char *flag = field_flag(ctx, field);
    return cli_usage_error(ctx, flag, "%s", text);
}

int request_spec_from_args(cli_context *ctx, collcalc_cluster_spec *spec)
{
    for (size_t i = 0; i < sizeof CLUSTER_OPTIONS / sizeof CLUSTER_OPTIONS[0]; i++) {
        option_id id = CLUSTER_OPTIONS[i];
        if (!arg_given(&ctx->args, id))
            continue;
        const option_def *def = option_def_of(id);
        collcalc_diag diag;
        const char *value = def->value_name != NULL ? arg_value(&ctx->args, id) : NULL;
        if (collcalc_cluster_spec_set(spec, def->name, value, &diag) != COLLCALC_OK)
            return cli_usage_error(ctx, NULL, "%s", diag.message);
    }
    if (arg_given(&ctx->args, OPT_NVLS) && arg_given(&ctx->args, OPT_NO_NVLS))
        return cli_usage_error(ctx, "--no-nvls", "give --nvls or --no-nvls, not both");
    return 0;
}

int request_algos(cli_context *ctx, collcalc_op op, collcalc_algo *algos, size_t *count)
{
    *count = 0;
    for (int i = 0; i < ctx->args.count[OPT_ALGO]; i++) {
        const char *value = ctx->args.values[OPT_ALGO][i];
        if (strcmp(value, "all") == 0) {
            *count = 0;
            return 0;
        }
        collcalc_algo algo;
        collcalc_diag diag;
        if (collcalc_op_algo_parse(op, value, &algo, &diag) != COLLCALC_OK)
            return cli_usage_error(ctx, "--algo", "%s", diag.message);
        bool seen = false;
        for (size_t k = 0; k < *count; k++)
            seen = seen || algos[k] == algo;
        if (!seen)
            algos[(*count)++] = algo;
    }
    return 0;
}

/* --cost-model, --launch and the numbers of NCCL's options. */
int request_nccl_from_args(cli_context *ctx, collcalc_request *r)
{
    const char *model = arg_value(&ctx->args, OPT_COST_MODEL);
    collcalc_diag diag;
    if (model != NULL && collcalc_cost_model_parse(model, &r->cost_model, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, "--cost-model", "%s", diag.message);
    const char *launch = arg_value(&ctx->args, OPT_LAUNCH);
    if (launch != NULL)
        r->launch_set = true;
    if (launch != NULL && collcalc_nccl_launch_parse(launch, &r->launch, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, "--launch", "%s", diag.message);
    r->nccl_version = arg_value(&ctx->args, OPT_NCCL_VERSION);
    r->cuda_graph = arg_given(&ctx->args, OPT_CUDA_GRAPH);
    const char *harness = arg_value(&ctx->args, OPT_HARNESS);
    if (harness != NULL && collcalc_nccl_harness_parse(harness, &r->harness) != COLLCALC_OK)
        return cli_usage_error(ctx, "--harness", "unknown harness '%.60s' (nccl-tests or torch)",
                               harness);
    r->symmetric = arg_given(&ctx->args, OPT_SYMMETRIC);
    r->no_p2p = arg_given(&ctx->args, OPT_NO_P2P);
    r->faithful = arg_given(&ctx->args, OPT_FAITHFUL);
    r->nccl_algo = arg_value(&ctx->args, OPT_NCCL_ALGO);
    r->nccl_proto = arg_value(&ctx->args, OPT_NCCL_PROTO);
    return cli_number(ctx, OPT_FABRIC_EFFICIENCY, 0.05, 1.0, &r->fabric_efficiency);
}

int request_from_args(cli_context *ctx, collcalc_op op, bool with_cluster, cli_request *out)
{
    memset(out, 0, sizeof *out);
    collcalc_request *r = &out->request;
    collcalc_request_init(r);
    r->op = op;
    int code = with_cluster ? request_spec_from_args(ctx, &r->cluster) : 0;
    if (code == 0)
        code = request_algos(ctx, op, r->algos, &r->algo_count);
    r->layers = r->per_layer = 1;
    if (code == 0)
        code = cli_count(ctx, OPT_LAYERS, 1, 1000000, &r->layers);
    if (code == 0)
        code = cli_count(ctx, OPT_PER_LAYER, 1, 1000, &r->per_layer);
    if (code == 0)
        code = request_nccl_from_args(ctx, r);
    if (code == 0 && with_cluster && arg_given(&ctx->args, OPT_TOPO)) {
        const char *path = arg_value(&ctx->args, OPT_TOPO);
        size_t length = 0;
        code = cli_read_input(ctx, path, &out->topo_text, &length);
        r->topo_text = out->topo_text;
        r->topo_length = length;
        r->topo_name = cli_input_name(path);
    }
    return code;
}

void request_free(cli_request *request)
{
    free(request->topo_text);
    request->topo_text = NULL;
}

int request_prepare(cli_context *ctx, const collcalc_request *request, collcalc_prepared *out)
{
    collcalc_session *session = NULL;
    int code = cli_session(ctx, &session);
    if (code != 0)
        return code;
    collcalc_prepare_notes notes;
    const char *field = NULL;
    collcalc_diag diag;
    collcalc_status status = collcalc_prepare(session, request, out, &notes, &field, &diag);
    if (status != COLLCALC_OK)
        return request_error(ctx, status, field, &diag);
    char buffer[COLLCALC_WARNING_TEXT_MAX + 64];
    for (size_t i = 0; i < notes.warning_count; i++)
        cli_warn(ctx, "%s", flag_message(ctx, notes.warnings[i], buffer, sizeof buffer));
    if (notes.textbook_field != NULL)
        cli_note(ctx, "the alpha-beta (textbook) model, since %s names its terms; --cost-model "
                      "nccl for NCCL's tuner",
                 field_flag(ctx, notes.textbook_field));
    return 0;
}

int request_evaluate(cli_context *ctx, const collcalc_prepared *prepared, uint64_t size_bytes,
                     collcalc_answer *out)
{
    collcalc_diag diag;
    collcalc_status status = collcalc_evaluate(prepared, size_bytes, out, &diag);
    if (status == COLLCALC_OK)
        return 0;
    return request_model_error(ctx, status, prepared->model == COLLCALC_COST_MODEL_NCCL, &diag);
}

int request_model_error(cli_context *ctx, collcalc_status status, bool usage,
                        const collcalc_diag *diag)
{
    if (strncmp(diag->message, "size_bytes:", 11) == 0)
        return request_error(ctx, status, "size_bytes", diag);
    return usage ? cli_usage_error(ctx, NULL, "%s", diag->message)
                 : cli_data_error(ctx, NULL, "%s", diag->message);
}

int request_cluster(cli_context *ctx, const collcalc_cluster_spec *spec, collcalc_cluster *out,
                    collcalc_cluster_info *info)
{
    cli_request request;
    memset(&request, 0, sizeof request);
    collcalc_request_init(&request.request);
    request.request.cluster = *spec;
    int code = 0;
    if (arg_given(&ctx->args, OPT_TOPO)) {
        const char *path = arg_value(&ctx->args, OPT_TOPO);
        size_t length = 0;
        code = cli_read_input(ctx, path, &request.topo_text, &length);
        request.request.topo_text = request.topo_text;
        request.request.topo_length = length;
        request.request.topo_name = cli_input_name(path);
    }
    collcalc_session *session = NULL;
    if (code == 0)
        code = cli_session(ctx, &session);
    if (code == 0) {
        collcalc_prepare_notes notes;
        memset(&notes, 0, sizeof notes);
        const char *field = NULL;
        collcalc_diag diag;
        collcalc_status status = collcalc_request_cluster(session, &request.request, out, info,
                                                          &notes, &field, &diag);
        if (status != COLLCALC_OK)
            code = request_error(ctx, status, field, &diag);
        char buffer[COLLCALC_WARNING_TEXT_MAX + 64];
        for (size_t i = 0; code == 0 && i < notes.warning_count; i++)
            cli_warn(ctx, "%s", flag_message(ctx, notes.warnings[i], buffer, sizeof buffer));
    }
    request_free(&request);
    return code;
}
