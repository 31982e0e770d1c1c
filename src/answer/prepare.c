/* A request resolved into a prepared question (collcalc/answer.h): which
 * cost model answers, the cluster (platform, counts, links, a topology
 * matrix), the alpha-beta rows or NCCL's system. Every rule of what a
 * question means lives here, once, for every command. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/answer.h"
#include "collcalc/fit.h"
#include "collcalc/topo.h"
#include "collcalc/topo_cluster.h"
#include "helpers.h"

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 5, 6)))
#endif
static collcalc_status fail(collcalc_diag *diag, collcalc_status status, const char **out_field,
                            const char *field, const char *format, ...)
{
    char text[COLLCALC_DIAG_MESSAGE_MAX];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    *out_field = field;
    if (field != NULL)
        return collcalc_diag_fail(diag, status, "%s: %s", field, text);
    return collcalc_diag_fail(diag, status, "%s", text);
}

/* The cluster-spec layer names its keys as "--gpus-per-node: ..."; the
 * request calls them by its fields. Rewrites such a message to start with
 * the field (and returns it); NULL when the message names none. */
static const char *field_of_spec_message(collcalc_diag *diag)
{
    static const struct {
        const char *key, *field;
    } KEYS[] = {
        {"gpus", "gpus"},           {"gpus-per-node", "gpus_per_node"},
        {"domain-size", "gpus_per_node"}, {"nodes", "nodes"},
        {"nics-per-node", "nics_per_node"}, {"nics", "nics_per_node"},
        {"nics-per-gpu", "nics_per_gpu"}, {"link", "link"},
        {"intra", "intra"},         {"inter", "inter"},
        {"platform", "platform"},   {"bw", "bw_GBps"},
        {"alpha", "alpha_us"},      {"bw-basis", "basis"},
        {"nvls", "nvls"},           {"no-nvls", "nvls"},
        {"sharp", "sharp"},         {"tree-efficiency", "tree_efficiency"},
    };
    const char *m = diag->message;
    if (strncmp(m, "--", 2) != 0)
        return NULL;
    size_t length = strcspn(m + 2, ":");
    if (m[2 + length] != ':')
        return NULL;
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++)
        if (strlen(KEYS[i].key) == length && strncmp(m + 2, KEYS[i].key, length) == 0) {
            char rest[COLLCALC_DIAG_MESSAGE_MAX];
            snprintf(rest, sizeof rest, "%s", m + 2 + length);
            snprintf(diag->message, sizeof diag->message, "%s%s", KEYS[i].field, rest);
            return KEYS[i].field;
        }
    return NULL;
}

void collcalc_request_init(collcalc_request *request)
{
    if (request == NULL)
        return;
    memset(request, 0, sizeof *request);
    request->version = COLLCALC_REQUEST_VERSION;
    collcalc_cluster_spec_init(&request->cluster);
}

collcalc_status collcalc_cost_model_parse(const char *text, collcalc_cost_model *out,
                                          collcalc_diag *diag)
{
    if (strcmp(text, "nccl") == 0)
        *out = COLLCALC_COST_MODEL_NCCL;
    else if (strcmp(text, "alpha-beta") == 0)
        *out = COLLCALC_COST_MODEL_ALPHA_BETA;
    else
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "unknown model '%.60s' (nccl or alpha-beta)", text);
    return COLLCALC_OK;
}

collcalc_status collcalc_nccl_launch_parse(const char *text, collcalc_nccl_launch *out,
                                           collcalc_diag *diag)
{
    if (strcmp(text, "process-per-gpu") == 0)
        *out = COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
    else if (strcmp(text, "single-process") == 0)
        *out = COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS;
    else
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "unknown launch mode '%.60s' (process-per-gpu or "
                                  "single-process)",
                                  text);
    return COLLCALC_OK;
}

collcalc_status collcalc_op_algo_parse(collcalc_op op, const char *text, collcalc_algo *out,
                                       collcalc_diag *diag)
{
    collcalc_algo available[COLLCALC_ALGO_COUNT];
    size_t n = collcalc_algos_for_op(op, available, COLLCALC_ALGO_COUNT);
    bool known = collcalc_algo_from_name(text, out, NULL) == COLLCALC_OK;
    for (size_t k = 0; known && k < n; k++)
        if (available[k] == *out)
            return COLLCALC_OK;
    /* the names for the message only (batch checks millions of --algo) */
    const char *names[COLLCALC_ALGO_COUNT];
    char list[256] = "";
    size_t used = 0;
    for (size_t k = 0; k < n; k++) {
        names[k] = collcalc_algo_name(available[k]);
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "",
                                 names[k]);
    }
    char shown[COLLCALC_ECHO_BUFFER], hint[160];
    collcalc_echo(shown, sizeof shown, text);
    collcalc_suggest_text(hint, sizeof hint, text, names, n);
    return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "%s '%s'%s; %s has: %s",
                              known ? "not an algorithm of this operation:" : "unknown algorithm",
                              shown, hint, collcalc_op_title(op), list);
}

const char *collcalc_cost_model_name(collcalc_cost_model model)
{
    switch (model) {
    case COLLCALC_COST_MODEL_ALPHA_BETA: return "alpha-beta";
    case COLLCALC_COST_MODEL_NCCL: return "nccl";
    default: return "auto";
    }
}

/* The first field set that only the alpha-beta model has (an algorithm
 * name, an edited link, a topology): it asks for that model. NULL: none. */
static const char *textbook_field(const collcalc_request *r)
{
    const collcalc_cluster_spec *s = &r->cluster;
    if (r->algo_count > 0) return "algos";
    if (s->intra[0]) return "intra";
    if (s->inter[0]) return "inter";
    if (s->nics_per_node > 0) return "nics_per_node";
    if (s->nics_per_gpu > 0) return "nics_per_gpu";
    if (s->bw_set) return "bw_GBps";
    if (s->alpha_set) return "alpha_us";
    if (s->tree_efficiency > 0) return "tree_efficiency";
    if (r->topo_text != NULL) return "topo_text";
    if (s->nvls == COLLCALC_SETTING_ON) return "nvls";
    if (s->sharp == COLLCALC_SETTING_ON) return "sharp";
    if (s->link[0]) return "link";
    return NULL;
}

/* The first NCCL option set that the alpha-beta model has no term for:
 * the release's constants, CUDA graphs, symmetric memory, the fabric
 * efficiency beyond 2 nodes, NCCL's algorithm and protocol masks,
 * NCCL's own model without corrections. (no_p2p and launch mean
 * something to every model.) NULL: none. */
static const char *nccl_only_field(const collcalc_request *r)
{
    if (r->nccl_version != NULL) return "nccl_version";
    if (r->cuda_graph) return "cuda_graph";
    if (r->symmetric) return "symmetric";
    if (r->fabric_efficiency > 0) return "fabric_efficiency";
    if (r->nccl_algo != NULL) return "nccl_algo";
    if (r->nccl_proto != NULL) return "nccl_proto";
    if (r->faithful) return "faithful";
    return NULL;
}

static collcalc_status find_platform(collcalc_session *session, const char *name,
                                     const collcalc_platform **out, const char **out_field,
                                     collcalc_diag *diag)
{
    collcalc_status status = collcalc_session_platform(session, name, out, diag);
    if (status == COLLCALC_ERR_NOT_FOUND)
        return fail(diag, status, out_field, "platform", "%s", diag->message);
    *out_field = NULL;
    return status;
}

/* Which model answers (the rules of COLLCALC_COST_MODEL_AUTO), and the
 * refusals of a model for a field it cannot honour. */
static collcalc_status choose_model(collcalc_session *session, const collcalc_request *r,
                                    collcalc_cost_model *out, collcalc_prepare_notes *notes,
                                    const char **out_field, collcalc_diag *diag)
{
    collcalc_nccl_func func;
    bool tuned = collcalc_nccl_func_from_op(r->op, &func);
    bool platform = r->cluster.platform[0] != '\0';
    /* By default a platform brings NCCL's tuner when the preset says which
     * GPU generation it has (a user's preset may not): NCCL's tables are
     * per generation. */
    bool knows_arch = false;
    if (platform) {
        const collcalc_platform_table *platforms;
        collcalc_status status = collcalc_session_platforms(session, &platforms, diag);
        if (status != COLLCALC_OK) {
            *out_field = NULL;
            return status;
        }
        const collcalc_platform *p = collcalc_platform_table_find(platforms, r->cluster.platform);
        knows_arch = p != NULL && p->gpu_arch != COLLCALC_GPU_ARCH_UNKNOWN;
    }
    const char *textbook = textbook_field(r);
    bool nccl = r->cost_model != COLLCALC_COST_MODEL_AUTO
                    ? r->cost_model == COLLCALC_COST_MODEL_NCCL
                    : platform && tuned && knows_arch && textbook == NULL;
    if (nccl && !tuned)
        return fail(diag, COLLCALC_ERR_UNSUPPORTED, out_field, "cost_model",
                    "NCCL's tuner does not cost %s (it runs as point-to-point sends); use the "
                    "alpha-beta model",
                    collcalc_op_title(r->op));
    if (nccl && !platform)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "cost_model",
                    "the NCCL model needs a platform (see 'collcalc platforms')");
    if (nccl && textbook != NULL)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, textbook,
                    "describes the alpha-beta model; the NCCL model takes the preset's links "
                    "(nccl_algo forces an algorithm)");
    if (!nccl && r->cost_model == COLLCALC_COST_MODEL_AUTO && platform && tuned && knows_arch &&
        notes != NULL)
        notes->textbook_field = textbook;
    const char *only = nccl ? NULL : nccl_only_field(r);
    if (only != NULL)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, only,
                    "applies to the NCCL model (give a platform, or the nccl cost model)");
    *out = nccl ? COLLCALC_COST_MODEL_NCCL : COLLCALC_COST_MODEL_ALPHA_BETA;
    return COLLCALC_OK;
}

/* The per-step latency of the table's first link of a class (the NVLink
 * and PCIe figures a topology's paths take). */
static double class_alpha_us(const collcalc_link_table *links, collcalc_link_class link_class)
{
    for (size_t i = 0; i < collcalc_link_table_count(links); i++) {
        const collcalc_link *link = collcalc_link_table_at(links, i);
        if (link->link_class == link_class)
            return link->alpha_us;
    }
    return 0.0;
}

/* The topology matrix: the box's own intra-node path. Without another
 * cluster field it is a one-node question over its GPUs; with one it
 * replaces the intra link (and the GPUs per node) of that cluster. */
static collcalc_status apply_topo(const collcalc_request *r, const collcalc_link_table *links,
                                  collcalc_cluster *cluster, bool resolved,
                                  const char **out_field, collcalc_diag *diag)
{
    const char *shown = r->topo_name != NULL ? r->topo_name : "topology";
    collcalc_topo *topo = NULL;
    collcalc_diag inner;
    collcalc_status status = collcalc_topo_parse(r->topo_text, r->topo_length, NULL, &topo, &inner);
    collcalc_link_params intra;
    if (status == COLLCALC_OK)
        status = collcalc_topo_intra_link(topo, class_alpha_us(links, COLLCALC_LINK_CLASS_NVLINK),
                                          class_alpha_us(links, COLLCALC_LINK_CLASS_PCI), &intra,
                                          &inner);
    int gpus = topo != NULL ? topo->gpu_count : 0;
    collcalc_topo_free(topo);
    if (status != COLLCALC_OK) {
        *out_field = NULL;
        return collcalc_diag_fail(diag, status, "%s: %s", shown, inner.message);
    }
    const collcalc_cluster_spec *spec = &r->cluster;
    if (!resolved) {
        long p = spec->gpus > 0 ? spec->gpus : gpus;
        if (p > gpus)
            return fail(diag, COLLCALC_ERR_INVALID, out_field, "gpus",
                        "%ld GPUs, but %s shows %d in the box", p, shown, gpus);
        collcalc_cluster_single_link((int)p, &intra, cluster);
        cluster->nvls_intra = intra.nvlink && spec->nvls == COLLCALC_SETTING_ON;
    } else {
        cluster->intra = intra;
        if (spec->gpus_per_node == 0)
            cluster->gpus_per_node = gpus;
        if (!intra.nvlink)
            cluster->nvls_intra = false;
    }
    return COLLCALC_OK;
}

/* Without CUDA P2P the GPUs of a node exchange through host memory: every
 * byte crosses the host link twice (out of one GPU into host memory, then
 * into the other), so the intra path runs at half the host link's rate and
 * pays its step latency twice. The alpha-beta model's form of what NCCL's
 * SHM transport does (the NCCL model's own correction is
 * COLLCALC_NCCL_FIX_SHM). */
static collcalc_status through_host(const collcalc_link_table *links, collcalc_bw_basis basis,
                                    const collcalc_platform *platform, collcalc_cluster *cluster,
                                    const char **out_field, collcalc_diag *diag)
{
    const char *host = platform != NULL && platform->host_link[0] ? platform->host_link : NULL;
    const collcalc_link *link = host != NULL ? collcalc_link_table_find(links, host) : NULL;
    if (link == NULL)
        return fail(diag, COLLCALC_ERR_UNSUPPORTED, out_field, "no_p2p",
                    "needs a platform that names its host link (the path through host memory)");
    collcalc_link_params host_path;
    collcalc_link_params_from_link(link, basis, &host_path);
    size_t length = strlen(link->name);
    if (length > sizeof host_path.name - 5)
        length = sizeof host_path.name - 5;
    memcpy(host_path.name + length, "-shm", 5);
    host_path.bw_GBps /= 2.0;
    host_path.alpha_us *= 2.0;
    host_path.nvlink = false;
    cluster->intra = host_path;
    cluster->nvls_intra = false;
    return COLLCALC_OK;
}

/* The cluster of the request (collcalc_cluster_resolve, the topology). */
collcalc_status collcalc_request_cluster(collcalc_session *session, const collcalc_request *r,
                                         collcalc_cluster *out, collcalc_cluster_info *info,
                                         collcalc_prepare_notes *notes, const char **out_field,
                                         collcalc_diag *diag)
{
    const char *ignored;
    if (out_field == NULL)
        out_field = &ignored;
    *out_field = NULL;
    collcalc_cluster_info local;
    if (info == NULL)
        info = &local;
    collcalc_cluster_info_init(info);
    const collcalc_link_table *links;
    const collcalc_platform_table *platforms = NULL;
    collcalc_status status = collcalc_session_links(session, &links, diag);
    const collcalc_cluster_spec *spec = &r->cluster;
    if (status == COLLCALC_OK && spec->platform[0] != '\0')
        status = collcalc_session_platforms(session, &platforms, diag);
    if (status != COLLCALC_OK) {
        *out_field = NULL;
        return status;
    }
    bool topo = r->topo_text != NULL;
    bool other_cluster = spec->link[0] || spec->intra[0] || spec->platform[0] || spec->inter[0] ||
                         spec->gpus_per_node > 0 || spec->bw_set;
    if (topo && !other_cluster) {
        info->single_link = true;
        return apply_topo(r, links, out, false, out_field, diag);
    }
    collcalc_cluster_spec with_intra = *spec;
    if (topo && !spec->link[0] && !spec->intra[0] && !spec->platform[0]) {
        /* The topology gives the intra link; any NVLink entry stands in
         * for it while the rest of the cluster resolves. */
        for (size_t i = 0; i < collcalc_link_table_count(links); i++)
            if (collcalc_link_table_at(links, i)->link_class == COLLCALC_LINK_CLASS_NVLINK) {
                snprintf(with_intra.intra, sizeof with_intra.intra, "%s",
                         collcalc_link_table_at(links, i)->name);
                break;
            }
        spec = &with_intra;
    }
    status = collcalc_cluster_resolve(spec, links, platforms, out, info, diag);
    if (status != COLLCALC_OK) {
        *out_field = field_of_spec_message(diag);
        if (*out_field == NULL)
            *out_field = spec->platform[0] ? "platform" : "link";
        return status;
    }
    for (size_t i = 0; notes != NULL && i < info->warning_count; i++)
        if (notes->warning_count < COLLCALC_PREPARE_NOTES_MAX) {
            collcalc_diag w;
            snprintf(w.message, sizeof w.message, "%s", info->warnings[i]);
            field_of_spec_message(&w);
            char *to = notes->warnings[notes->warning_count++];
            size_t length = strlen(w.message);
            if (length > COLLCALC_WARNING_TEXT_MAX - 1)
                length = COLLCALC_WARNING_TEXT_MAX - 1;
            memcpy(to, w.message, length);
            to[length] = '\0';
        }
    return topo ? apply_topo(r, links, out, true, out_field, diag) : COLLCALC_OK;
}

/* NCCL's system for nodes x gpus_per_node GPUs of platform with the
 * request's NCCL fields (collcalc_prepare_nccl). */
static collcalc_status nccl_system(collcalc_session *session, const collcalc_request *r,
                                   const collcalc_platform *platform, int nodes, int g,
                                   collcalc_prepared *p, const char **out_field,
                                   collcalc_diag *diag)
{
    const collcalc_nccl_constants_table *table;
    collcalc_status status = collcalc_session_nccl_constants(session, &table, diag);
    if (status != COLLCALC_OK) {
        *out_field = NULL;
        return status;
    }
    collcalc_diag inner;
    if (collcalc_nccl_constants_find(table, r->nccl_version, &p->constants, &inner) !=
        COLLCALC_OK) {
        if (r->nccl_version != NULL)
            return fail(diag, COLLCALC_ERR_NOT_FOUND, out_field, "nccl_version", "%s",
                        inner.message);
        *out_field = NULL;
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "NCCL's newest release: %s",
                                  inner.message);
    }
    const collcalc_nccl_constants *newest = NULL;
    collcalc_nccl_constants_find(table, NULL, &newest, NULL);
    p->launch = r->launch_set ? r->launch
                              : collcalc_nccl_launch_default(nodes, platform->gpus_per_node);
    const collcalc_link_table *links;
    if ((status = collcalc_session_links(session, &links, diag)) != COLLCALC_OK) {
        *out_field = NULL;
        return status;
    }
    collcalc_nccl_hardware hardware;
    if (collcalc_nccl_hardware_from_platform(platform, links, nodes, g, p->launch, &hardware,
                                             &inner) != COLLCALC_OK)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "platform", "%s: %s", platform->name,
                    inner.message);
    if (r->no_p2p)
        hardware.p2p = false;
    /* An in-switch reduction turned off is off for NCCL too (NCCL_NVLS_ENABLE=0). */
    if (r->cluster.nvls == COLLCALC_SETTING_OFF)
        hardware.nvls = false;
    if (collcalc_nccl_system_derive(&hardware, &p->system, &inner) != COLLCALC_OK)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "platform", "%s: %s", platform->name,
                    inner.message);
    /* A platform calibrated by 'collcalc fit' carries its fitted values. */
    if (collcalc_nccl_system_apply_fit(&platform->nccl_fit, &p->system, &inner) != COLLCALC_OK)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "platform", "%s: %s", platform->name,
                    inner.message);
    p->system.cuda_graph = r->cuda_graph;
    p->system.harness = r->harness;
    p->system.symmetric = r->symmetric;
    if (r->fabric_efficiency > 0) {
        if (!(r->fabric_efficiency >= 0.05 && r->fabric_efficiency <= 1.0))
            return fail(diag, COLLCALC_ERR_INVALID, out_field, "fabric_efficiency",
                        "must be between 0.05 and 1");
        p->system.fabric_efficiency = r->fabric_efficiency;
    }
    collcalc_nccl_options_init(&p->options);
    p->options.refined = newest;
    if (r->faithful)
        p->options.corrections = 0;
    if (r->nccl_algo != NULL &&
        collcalc_nccl_algo_env_parse(r->nccl_algo, p->options.algo_mask, &inner) != COLLCALC_OK)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "nccl_algo", "%s", inner.message);
    if (r->nccl_proto != NULL &&
        collcalc_nccl_proto_env_parse(r->nccl_proto, p->options.proto_mask, &inner) !=
            COLLCALC_OK)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "nccl_proto", "%s", inner.message);
    p->platform = platform;
    p->model = COLLCALC_COST_MODEL_NCCL;
    collcalc_nccl_func_from_op(r->op, &p->func);
    return COLLCALC_OK;
}

collcalc_status collcalc_prepare_nccl(collcalc_session *session, const collcalc_request *r,
                                      const collcalc_platform *platform, int nodes,
                                      int gpus_per_node, collcalc_prepared *out,
                                      const char **out_field, collcalc_diag *diag)
{
    const char *ignored;
    if (out_field == NULL)
        out_field = &ignored;
    *out_field = NULL;
    memset(out, 0, sizeof *out);
    collcalc_query_init(&out->query);
    out->query.op = r->op;
    out->layers = out->per_layer = 1;
    if (r->launch_set && (unsigned)r->launch > COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "launch", "not a launch mode");
    return nccl_system(session, r, platform, nodes, gpus_per_node, out, out_field, diag);
}

/* NCCL's system for the resolved cluster of the request's platform. */
static collcalc_status nccl_setup(collcalc_session *session, const collcalc_request *r,
                                  collcalc_prepared *p, const char **out_field,
                                  collcalc_diag *diag)
{
    const collcalc_platform *platform;
    collcalc_status status = find_platform(session, r->cluster.platform, &platform, out_field,
                                           diag);
    if (status != COLLCALC_OK)
        return status;
    const collcalc_cluster *cluster = &p->query.cluster;
    int nodes = collcalc_cluster_nodes(cluster);
    int g = cluster->gpus_per_node < cluster->gpus ? cluster->gpus_per_node : cluster->gpus;
    if (cluster->gpus != nodes * g)
        return fail(diag, COLLCALC_ERR_UNSUPPORTED, out_field, "gpus",
                    "NCCL's model needs every node full (%d GPUs on %d nodes of %d); give the "
                    "node count, or the alpha-beta model for a partial node",
                    cluster->gpus, nodes, g);
    return nccl_system(session, r, platform, nodes, g, p, out_field, diag);
}

collcalc_status collcalc_prepare(collcalc_session *session, const collcalc_request *r,
                                 collcalc_prepared *p, collcalc_prepare_notes *notes,
                                 const char **out_field, collcalc_diag *diag)
{
    const char *ignored;
    if (out_field == NULL)
        out_field = &ignored;
    *out_field = NULL;
    if (notes != NULL)
        memset(notes, 0, sizeof *notes);
    memset(p, 0, sizeof *p);
    if (r == NULL || r->version != COLLCALC_REQUEST_VERSION)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "version",
                    "this library reads requests of version %d", COLLCALC_REQUEST_VERSION);
    if ((unsigned)r->op >= COLLCALC_OP_COUNT)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "op", "not an operation");
    if (r->layers < 0 || r->layers > 1000000)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "layers",
                    "'%ld' is out of range: must be between 1 and 1000000", r->layers);
    if (r->per_layer < 0 || r->per_layer > 1000)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "per_layer",
                    "'%ld' is out of range: must be between 1 and 1000", r->per_layer);
    if (r->algo_count > COLLCALC_ALGO_COUNT)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "algos", "more than %d algorithms",
                    COLLCALC_ALGO_COUNT);
    if (r->launch_set && (unsigned)r->launch > COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS)
        return fail(diag, COLLCALC_ERR_INVALID, out_field, "launch", "not a launch mode");
    collcalc_query_init(&p->query);
    p->query.op = r->op;
    p->query.tree_efficiency = r->cluster.tree_efficiency;
    p->basis = r->cluster.basis;
    p->layers = r->layers > 0 ? r->layers : 1;
    p->per_layer = r->per_layer > 0 ? r->per_layer : 1;
    memcpy(p->algos, r->algos, r->algo_count * sizeof r->algos[0]);
    p->algo_count = r->algo_count;
    collcalc_status status = choose_model(session, r, &p->model, notes, out_field, diag);
    collcalc_cluster_info info;
    if (status == COLLCALC_OK)
        status = collcalc_request_cluster(session, r, &p->query.cluster, &info, notes, out_field,
                                          diag);
    if (status != COLLCALC_OK)
        return status;
    p->platform = info.platform;
    if (p->model == COLLCALC_COST_MODEL_NCCL)
        return nccl_setup(session, r, p, out_field, diag);
    if (r->no_p2p) {
        const collcalc_link_table *links;
        if ((status = collcalc_session_links(session, &links, diag)) != COLLCALC_OK)
            return status;
        if ((status = through_host(links, p->basis, p->platform, &p->query.cluster, out_field, diag)) !=
            COLLCALC_OK)
            return status;
    }
    collcalc_diag inner;
    status = collcalc_model_rows(&p->query, p->algos, p->algo_count, p->rows, COLLCALC_ALGO_COUNT,
                                 &p->row_count, &inner);
    if (status == COLLCALC_ERR_UNSUPPORTED)
        return fail(diag, status, out_field, "algos", "%s", inner.message);
    if (status != COLLCALC_OK) {
        *out_field = NULL;
        return collcalc_diag_fail(diag, status, "%s", inner.message);
    }
    if (p->row_count == 0)
        return fail(diag, COLLCALC_ERR_UNSUPPORTED, out_field, "algos", "no algorithm applies");
    p->launch = r->launch_set ? r->launch : COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
    return COLLCALC_OK;
}
