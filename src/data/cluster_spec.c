/* Cluster set-up as library code: the option setter shared by the command
 * line and placements, and the rules that turn what the user said into the
 * model's cluster (include/collcalc/cluster_spec.h, data/README.md). */
#include "collcalc/cluster_spec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "collcalc/units.h"
#include "names.h"
#include "helpers.h"

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* Most NICs a node of a preset may have (data/README.md: nics_per_node). */
#define PRESET_NICS_MAX 100000LL

void collcalc_cluster_spec_init(collcalc_cluster_spec *spec)
{
    if (spec == NULL)
        return;
    memset(spec, 0, sizeof *spec);
    spec->version = COLLCALC_CLUSTER_SPEC_VERSION;
    spec->basis = COLLCALC_BW_PER_DIRECTION;
    spec->nvls = COLLCALC_SETTING_UNSET;
    spec->sharp = COLLCALC_SETTING_UNSET;
}

void collcalc_cluster_info_init(collcalc_cluster_info *info)
{
    if (info != NULL)
        memset(info, 0, sizeof *info);
}

/* ------------------------------------------------------------- options */

typedef enum {
    KEY_GPUS,
    KEY_GPUS_PER_NODE,
    KEY_NODES,
    KEY_NICS_PER_NODE,
    KEY_NICS_PER_GPU,
    KEY_LINK,
    KEY_INTRA,
    KEY_INTER,
    KEY_PLATFORM,
    KEY_BW,
    KEY_ALPHA,
    KEY_BW_BASIS,
    KEY_TREE_EFFICIENCY,
    KEY_NVLS,
    KEY_NO_NVLS,
    KEY_SHARP
} spec_key;

typedef struct {
    const char *name;
    spec_key key;
    bool takes_value;
} key_entry;

static const key_entry KEYS[] = {
    {"gpus", KEY_GPUS, true},
    {"gpus-per-node", KEY_GPUS_PER_NODE, true},
    {"domain-size", KEY_GPUS_PER_NODE, true},
    {"nodes", KEY_NODES, true},
    {"nics-per-node", KEY_NICS_PER_NODE, true},
    {"nics", KEY_NICS_PER_NODE, true},
    {"nics-per-gpu", KEY_NICS_PER_GPU, true},
    {"link", KEY_LINK, true},
    {"intra", KEY_INTRA, true},
    {"inter", KEY_INTER, true},
    {"platform", KEY_PLATFORM, true},
    {"bw", KEY_BW, true},
    {"alpha", KEY_ALPHA, true},
    {"bw-basis", KEY_BW_BASIS, true},
    {"tree-efficiency", KEY_TREE_EFFICIENCY, true},
    {"nvls", KEY_NVLS, false},
    {"no-nvls", KEY_NO_NVLS, false},
    {"sharp", KEY_SHARP, false},
};

static const key_entry *find_key(const char *name)
{
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < COUNT_OF(KEYS); i++)
        if (strcmp(KEYS[i].name, name) == 0)
            return &KEYS[i];
    return NULL;
}

bool collcalc_cluster_spec_has_key(const char *key, bool *out_takes_value)
{
    const key_entry *entry = find_key(key);
    if (entry != NULL && out_takes_value != NULL)
        *out_takes_value = entry->takes_value;
    return entry != NULL;
}

/* Writes "<prefix><name>: <message>" into diag and returns status. The
 * prefix is "--" on the command line and "--placement: " in a placement. */
static collcalc_status fail_option(collcalc_diag *diag, collcalc_status status,
                                   const char *prefix, const char *name, const char *message)
{
    return collcalc_diag_fail(diag, status, "%s%s: %s", prefix, name, message);
}

/* Copies a name value, refusing what cannot be a name of any table. */
static collcalc_status set_name(char field[COLLCALC_NAME_MAX], const char *value,
                                const char *prefix, const char *name, collcalc_diag *diag)
{
    char shown[COLLCALC_ECHO_BUFFER];
    char message[COLLCALC_DIAG_MESSAGE_MAX];
    if (value == NULL || value[0] == '\0')
        return fail_option(diag, COLLCALC_ERR_INVALID, prefix, name, "missing name");
    size_t length = strlen(value);
    if (length >= COLLCALC_NAME_MAX) {
        snprintf(message, sizeof message, "'%s' is not a name: names have at most %d characters",
                 collcalc_echo(shown, sizeof shown, value), COLLCALC_NAME_MAX - 1);
        return fail_option(diag, COLLCALC_ERR_INVALID, prefix, name, message);
    }
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)value[i];
        if (c <= 0x20 || c >= 0x7F || c == ',' || c == '=') {
            snprintf(message, sizeof message,
                     "'%s' is not a name: names use letters, digits, '.' and '-'",
                     collcalc_echo(shown, sizeof shown, value));
            return fail_option(diag, COLLCALC_ERR_INVALID, prefix, name, message);
        }
    }
    memcpy(field, value, length + 1);
    return COLLCALC_OK;
}

static collcalc_status set_count(long *field, const char *value, long max_value,
                                 const char *prefix, const char *name, collcalc_diag *diag)
{
    collcalc_diag why;
    long parsed = 0;
    if (collcalc_count_parse(value, 1, max_value, &parsed, &why) != COLLCALC_OK)
        return fail_option(diag, COLLCALC_ERR_INVALID, prefix, name, why.message);
    *field = parsed;
    return COLLCALC_OK;
}

/* Whether the option behind entry was already given in spec. */
static bool already_given(const collcalc_cluster_spec *spec, spec_key key)
{
    switch (key) {
    case KEY_GPUS: return spec->gpus != 0;
    case KEY_GPUS_PER_NODE: return spec->gpus_per_node != 0;
    case KEY_NODES: return spec->nodes != 0;
    case KEY_NICS_PER_NODE: return spec->nics_per_node != 0;
    case KEY_NICS_PER_GPU: return spec->nics_per_gpu != 0;
    case KEY_LINK: return spec->link[0] != '\0';
    case KEY_INTRA: return spec->intra[0] != '\0';
    case KEY_INTER: return spec->inter[0] != '\0';
    case KEY_PLATFORM: return spec->platform[0] != '\0';
    case KEY_BW: return spec->bw_set;
    case KEY_ALPHA: return spec->alpha_set;
    case KEY_BW_BASIS: return spec->basis_set;
    case KEY_TREE_EFFICIENCY: return spec->tree_efficiency != 0.0;
    case KEY_NVLS: return spec->nvls == COLLCALC_SETTING_OFF;
    case KEY_NO_NVLS: return spec->nvls == COLLCALC_SETTING_ON;
    case KEY_SHARP: return false; /* a flag: saying it twice changes nothing */
    }
    return false;
}

/* The setter behind collcalc_cluster_spec_set and the placement parser. */
static collcalc_status set_key(collcalc_cluster_spec *spec, const char *key, const char *value,
                               const char *prefix, collcalc_diag *diag)
{
    char shown[COLLCALC_ECHO_BUFFER];
    char message[COLLCALC_DIAG_MESSAGE_MAX];
    const key_entry *entry = find_key(key);
    if (entry == NULL) {
        const char *names[COUNT_OF(KEYS)];
        for (size_t i = 0; i < COUNT_OF(KEYS); i++)
            names[i] = KEYS[i].name;
        char hint[160];
        collcalc_suggest_text(hint, sizeof hint, key, names, COUNT_OF(KEYS));
        if (strcmp(prefix, "--") == 0)
            return collcalc_diag_fail(diag, COLLCALC_ERR_NOT_FOUND, "unknown option '--%s'%s",
                                      collcalc_echo(shown, sizeof shown, key), hint);
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOT_FOUND, "%sunknown key '%s'%s", prefix,
                                  collcalc_echo(shown, sizeof shown, key), hint);
    }
    const char *name = entry->name;
    if (entry->takes_value && value == NULL)
        return fail_option(diag, COLLCALC_ERR_INVALID, prefix, name, "missing value");
    if (!entry->takes_value && value != NULL) {
        snprintf(message, sizeof message, "takes no value (got '%s')",
                 collcalc_echo(shown, sizeof shown, value));
        return fail_option(diag, COLLCALC_ERR_INVALID, prefix, name, message);
    }
    if (already_given(spec, entry->key)) {
        if (entry->key == KEY_NVLS || entry->key == KEY_NO_NVLS)
            return fail_option(diag, COLLCALC_ERR_INVALID, prefix, name,
                               "nvls and no-nvls contradict each other");
        return fail_option(diag, COLLCALC_ERR_INVALID, prefix, name,
                           "given twice; give it once");
    }

    collcalc_cluster_spec next = *spec;
    collcalc_status status = COLLCALC_OK;
    collcalc_diag why;
    switch (entry->key) {
    case KEY_GPUS:
        status = set_count(&next.gpus, value, COLLCALC_SPEC_GPUS_MAX, prefix, name, diag);
        break;
    case KEY_GPUS_PER_NODE:
        status = set_count(&next.gpus_per_node, value, COLLCALC_SPEC_GPUS_MAX, prefix, name,
                           diag);
        break;
    case KEY_NODES:
        status = set_count(&next.nodes, value, COLLCALC_SPEC_GPUS_MAX, prefix, name, diag);
        break;
    case KEY_NICS_PER_NODE:
        status = set_count(&next.nics_per_node, value, COLLCALC_SPEC_NICS_PER_NODE_MAX, prefix,
                           name, diag);
        break;
    case KEY_NICS_PER_GPU:
        status = set_count(&next.nics_per_gpu, value, COLLCALC_SPEC_NICS_PER_GPU_MAX, prefix,
                           name, diag);
        break;
    case KEY_LINK: status = set_name(next.link, value, prefix, name, diag); break;
    case KEY_INTRA: status = set_name(next.intra, value, prefix, name, diag); break;
    case KEY_INTER: status = set_name(next.inter, value, prefix, name, diag); break;
    case KEY_PLATFORM: status = set_name(next.platform, value, prefix, name, diag); break;
    case KEY_BW:
        if (collcalc_parse_bandwidth_GBps(value, &next.bw_GBps, &why) != COLLCALC_OK ||
            collcalc_link_check_bandwidth_GBps(next.bw_GBps, &why) != COLLCALC_OK)
            status = fail_option(diag, COLLCALC_ERR_INVALID, prefix, name, why.message);
        next.bw_set = true;
        break;
    case KEY_ALPHA:
        if (collcalc_time_us_parse(value, &next.alpha_us, &why) != COLLCALC_OK ||
            collcalc_link_check_alpha_us(next.alpha_us, &why) != COLLCALC_OK)
            status = fail_option(diag, COLLCALC_ERR_INVALID, prefix, name, why.message);
        next.alpha_set = true;
        break;
    case KEY_BW_BASIS:
        if (strcmp(value, "per-direction") == 0) {
            next.basis = COLLCALC_BW_PER_DIRECTION;
        } else if (strcmp(value, "headline") == 0) {
            next.basis = COLLCALC_BW_HEADLINE;
        } else {
            snprintf(message, sizeof message, "unknown basis '%s' (per-direction or headline)",
                     collcalc_echo(shown, sizeof shown, value));
            status = fail_option(diag, COLLCALC_ERR_INVALID, prefix, name, message);
        }
        next.basis_set = true;
        break;
    case KEY_TREE_EFFICIENCY:
        if (collcalc_number_parse(value, 0.01, 1.0, &next.tree_efficiency, &why) != COLLCALC_OK)
            status = fail_option(diag, COLLCALC_ERR_INVALID, prefix, name, why.message);
        break;
    case KEY_NVLS: next.nvls = COLLCALC_SETTING_ON; break;
    case KEY_NO_NVLS: next.nvls = COLLCALC_SETTING_OFF; break;
    case KEY_SHARP: next.sharp = COLLCALC_SETTING_ON; break;
    }
    if (status == COLLCALC_OK)
        *spec = next;
    return status;
}

collcalc_status collcalc_cluster_spec_set(collcalc_cluster_spec *spec, const char *key,
                                          const char *value, collcalc_diag *diag)
{
    if (spec == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no cluster spec to set");
    return set_key(spec, key, value, "--", diag);
}

void collcalc_cluster_spec_overlay(collcalc_cluster_spec *base,
                                   const collcalc_cluster_spec *overlay)
{
    if (base == NULL || overlay == NULL)
        return;
    if (overlay->gpus != 0)
        base->gpus = overlay->gpus;
    if (overlay->gpus_per_node != 0)
        base->gpus_per_node = overlay->gpus_per_node;
    if (overlay->nodes != 0)
        base->nodes = overlay->nodes;
    if (overlay->nics_per_node != 0)
        base->nics_per_node = overlay->nics_per_node;
    if (overlay->nics_per_gpu != 0)
        base->nics_per_gpu = overlay->nics_per_gpu;
    if (overlay->link[0] != '\0')
        memcpy(base->link, overlay->link, sizeof base->link);
    if (overlay->intra[0] != '\0')
        memcpy(base->intra, overlay->intra, sizeof base->intra);
    if (overlay->inter[0] != '\0')
        memcpy(base->inter, overlay->inter, sizeof base->inter);
    if (overlay->platform[0] != '\0')
        memcpy(base->platform, overlay->platform, sizeof base->platform);
    if (overlay->bw_set) {
        base->bw_set = true;
        base->bw_GBps = overlay->bw_GBps;
    }
    if (overlay->alpha_set) {
        base->alpha_set = true;
        base->alpha_us = overlay->alpha_us;
    }
    if (overlay->basis_set) {
        base->basis_set = true;
        base->basis = overlay->basis;
    }
    if (overlay->nvls != COLLCALC_SETTING_UNSET)
        base->nvls = overlay->nvls;
    if (overlay->sharp != COLLCALC_SETTING_UNSET)
        base->sharp = overlay->sharp;
    if (overlay->tree_efficiency != 0.0)
        base->tree_efficiency = overlay->tree_efficiency;
}

/* --------------------------------------------------------------- rules */

collcalc_status collcalc_fabric_check(const collcalc_link *intra, bool nvls, bool nvswitch,
                                      collcalc_gpu_arch gpu_arch, const char **out_key,
                                      collcalc_diag *diag)
{
    const char *key = NULL;
    collcalc_status status = COLLCALC_OK;
    bool nvlink = intra != NULL && intra->link_class == COLLCALC_LINK_CLASS_NVLINK;
    const char *name = intra != NULL ? intra->name : "(none)";
    const char *class_name =
        intra != NULL ? collcalc_link_class_name(intra->link_class) : "unknown";
    if (nvls && !nvlink) {
        key = "nvls";
        status = collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                    "NVLS (in-switch reduction) needs an NVSwitch fabric; '%s' "
                                    "is class %s, not NVLink",
                                    name, class_name);
    } else if (nvswitch && !nvlink) {
        key = "nvswitch";
        status = collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                    "an NVSwitch fabric needs an NVLink intra link ('%s' is "
                                    "class %s)",
                                    name, class_name);
    } else if (nvls && !nvswitch) {
        key = "nvls";
        status = collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                    "NVLS (in-switch reduction) needs an NVSwitch fabric; '%s' "
                                    "here joins GPUs without an NVSwitch",
                                    name);
    } else if (nvls && gpu_arch != COLLCALC_GPU_ARCH_UNKNOWN && gpu_arch < COLLCALC_GPU_ARCH_SM90) {
        key = "nvls";
        status = collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                    "NVLS needs a Hopper (sm90) or newer GPU; this one is %s",
                                    collcalc_gpu_arch_name(gpu_arch));
    }
    if (out_key != NULL)
        *out_key = key;
    return status;
}

/* Looks up a link for option, refusing unknown names and memory tiers. */
static collcalc_status find_link(const collcalc_link_table *links, const char *option,
                                 const char *name, const collcalc_link **out,
                                 collcalc_diag *diag)
{
    const collcalc_link *link = NULL;
    collcalc_status status = collcalc_link_table_lookup(links, option, name, &link, diag);
    if (status != COLLCALC_OK)
        return status;
    collcalc_diag why;
    if (collcalc_link_check_between_gpus(link, &why) != COLLCALC_OK)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "%s: %s", option, why.message);
    *out = link;
    return COLLCALC_OK;
}

/* The model's figures of a table link under a basis: the one conversion
 * (collcalc_link_params_from_link, src/data/link_params.c). */
static void params_of(const collcalc_link *link, collcalc_bw_basis basis,
                      collcalc_link_params *out)
{
    collcalc_link_params_from_link(link, basis, out);
}

static void add_warning(collcalc_cluster_info *info, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void add_warning(collcalc_cluster_info *info, const char *format, ...)
{
    if (info == NULL || info->warning_count >= COLLCALC_CLUSTER_WARNINGS_MAX)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(info->warnings[info->warning_count], COLLCALC_WARNING_TEXT_MAX, format, args);
    va_end(args);
    info->warning_count++;
}

/* NVLS on a single link or a cluster's intra link: the fabric rule, named
 * as the option that asked for it. */
static collcalc_status check_nvls(const collcalc_link *intra, bool nvswitch,
                                  collcalc_gpu_arch arch, collcalc_diag *diag)
{
    collcalc_diag why;
    if (collcalc_fabric_check(intra, true, nvswitch, arch, NULL, &why) == COLLCALC_OK)
        return COLLCALC_OK;
    return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "--nvls: %s", why.message);
}

static collcalc_status resolve_single(const collcalc_cluster_spec *spec,
                                      const collcalc_link_table *links,
                                      collcalc_cluster *cluster, collcalc_cluster_info *info,
                                      collcalc_diag *diag)
{
    if (spec->gpus == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--gpus: missing: how many GPUs take part");
    if (spec->nics_per_gpu != 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--nics-per-gpu: a single --link has no NICs; describe a "
                                  "cluster (--gpus-per-node, --inter or --platform)");
    collcalc_link_params params;
    const collcalc_link *link = NULL;
    if (spec->link[0] != '\0') {
        collcalc_status status = find_link(links, "--link", spec->link, &link, diag);
        if (status != COLLCALC_OK)
            return status;
        params_of(link, spec->basis, &params);
    } else if (spec->bw_set) {
        memset(&params, 0, sizeof params);
        snprintf(params.name, sizeof params.name, "custom");
    } else {
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--link: missing: name a link (see 'collcalc links'), or give "
                                  "--bw");
    }
    if (spec->bw_set)
        params.bw_GBps = spec->bw_GBps;
    if (spec->alpha_set)
        params.alpha_us = spec->alpha_us;
    bool nvls = spec->nvls == COLLCALC_SETTING_ON;
    if (nvls) {
        if (link == NULL)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--nvls: NVLS (in-switch reduction) needs an NVSwitch "
                                      "fabric; name an NVLink link with --link");
        collcalc_status status = check_nvls(link, true, COLLCALC_GPU_ARCH_UNKNOWN, diag);
        if (status != COLLCALC_OK)
            return status;
    }
    /* As collcalc_cluster_single_link: every hop on the one link. */
    memset(cluster, 0, sizeof *cluster);
    cluster->gpus = (int)spec->gpus;
    cluster->gpus_per_node = (int)spec->gpus;
    cluster->nics_per_node = 1;
    cluster->intra = params;
    cluster->inter = params;
    cluster->nvls_intra = nvls;
    cluster->sharp_inter = false;
    cluster->nics_per_gpu = 1;
    if (info != NULL) {
        info->single_link = true;
        info->nodes = 1;
        info->gpus_in_last_node = (int)spec->gpus;
        info->nics_per_gpu = 1;
    }
    return COLLCALC_OK;
}

collcalc_status collcalc_cluster_resolve(const collcalc_cluster_spec *spec,
                                         const collcalc_link_table *links,
                                         const collcalc_platform_table *platforms,
                                         collcalc_cluster *out_cluster,
                                         collcalc_cluster_info *info, collcalc_diag *diag)
{
    collcalc_cluster_info local_info;
    if (info == NULL)
        info = &local_info;
    collcalc_cluster_info_init(info);
    if (spec == NULL || links == NULL || out_cluster == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "no spec, link table or place for the cluster");
    collcalc_cluster cluster;
    memset(&cluster, 0, sizeof cluster);

    /* The preset. */
    const collcalc_platform *platform = NULL;
    if (spec->platform[0] != '\0') {
        collcalc_status status =
            collcalc_platform_table_lookup(platforms, "--platform", spec->platform, &platform, diag);
        if (status != COLLCALC_OK)
            return status;
        info->platform = platform;
    }

    bool cluster_given = platform != NULL || spec->gpus_per_node != 0 || spec->intra[0] != '\0' ||
                         spec->inter[0] != '\0' || spec->nodes != 0 || spec->nics_per_node != 0;
    if (!cluster_given) {
        collcalc_status status = resolve_single(spec, links, &cluster, info, diag);
        if (status == COLLCALC_OK)
            *out_cluster = cluster;
        return status;
    }
    if (spec->bw_set || spec->alpha_set)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s: --bw and --alpha describe a single --link; for a cluster "
                                  "pass a --links table with your figures",
                                  spec->bw_set ? "--bw" : "--alpha");

    /* GPUs per node and the node count. */
    long gpus = spec->gpus, nodes = spec->nodes, g = spec->gpus_per_node;
    if (g == 0 && gpus != 0 && nodes != 0) {
        if (gpus % nodes != 0)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--nodes: %ld GPUs do not divide into %ld nodes; give a "
                                      "multiple of %ld, or --gpus-per-node for a partial last "
                                      "node",
                                      gpus, nodes, nodes);
        g = gpus / nodes;
        if (platform != NULL && g > platform->gpus_per_node)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--nodes: %ld GPUs in %ld node%s is %ld per node, more than "
                                      "the %d of one %s NVLink domain",
                                      gpus, nodes, nodes == 1 ? "" : "s", g,
                                      platform->gpus_per_node, platform->name);
    }
    if (g == 0 && platform != NULL) {
        g = platform->gpus_per_node;
        info->preset_gpus_per_node = true;
    }
    if (g == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--gpus-per-node: missing: a cluster needs the GPUs per node "
                                  "(NVLink domain size)");
    if (nodes != 0) {
        if (nodes > COLLCALC_SPEC_GPUS_MAX / g)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "--nodes: more than %ld GPUs",
                                      COLLCALC_SPEC_GPUS_MAX);
        long total = nodes * g;
        if (gpus != 0 && gpus != total)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--nodes: %ld nodes x %ld GPUs per node = %ld GPUs, but "
                                      "--gpus says %ld",
                                      nodes, g, total, gpus);
        gpus = total;
    } else if (gpus == 0) {
        if (platform == NULL)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--gpus: missing: give --gpus or --nodes");
        gpus = g; /* --platform alone: one node */
        info->preset_gpus = true;
    }
    if (gpus > COLLCALC_SPEC_GPUS_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "--nodes: more than %ld GPUs",
                                  COLLCALC_SPEC_GPUS_MAX);
    nodes = (gpus + g - 1) / g;

    /* Links: explicit names win over the preset's. */
    const char *intra_option = "--intra", *intra_name = spec->intra;
    if (intra_name[0] == '\0' && spec->link[0] != '\0') {
        intra_name = spec->link;
        intra_option = "--link";
    }
    if (intra_name[0] == '\0' && platform != NULL) {
        intra_name = platform->intra_link;
        info->preset_intra = true;
    }
    const char *inter_name = spec->inter;
    if (inter_name[0] == '\0' && platform != NULL) {
        inter_name = platform->inter_link;
        info->preset_inter = true;
    }
    if (intra_name[0] == '\0' && g > 1 && gpus > 1)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--intra: missing: the link between GPUs inside a node");
    if (inter_name[0] == '\0' && nodes > 1)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--inter: missing: the link between nodes (NIC type)");
    /* One GPU needs no link, but the cluster still names one (as --gpus 1
     * alone does): its figures must be real ones. */
    if (intra_name[0] == '\0' && inter_name[0] == '\0')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--intra: missing: name the link between GPUs (--intra, --link "
                                  "or --platform)");
    const collcalc_link *intra = NULL, *inter = NULL;
    collcalc_status status = COLLCALC_OK;
    if (intra_name[0] != '\0')
        status = find_link(links, intra_option, intra_name, &intra, diag);
    if (status == COLLCALC_OK && inter_name[0] != '\0')
        status = find_link(links, "--inter", inter_name, &inter, diag);
    if (status != COLLCALC_OK)
        return status;

    /* NICs. */
    long nics_per_gpu = spec->nics_per_gpu;
    if (nics_per_gpu == 0 && platform != NULL) {
        nics_per_gpu = platform->nics_per_gpu > 0 ? platform->nics_per_gpu : 1;
        info->preset_nics_per_gpu = true;
    }
    if (nics_per_gpu == 0)
        nics_per_gpu = 1;
    long nics = spec->nics_per_node;
    if (nics == 0 && platform != NULL) {
        nics = platform->nics_per_node;
        info->preset_nics_per_node = true;
        if (g != platform->gpus_per_node) {
            /* Keep the preset's NICs per GPU: a half rack has half the NICs. */
            long long scaled = ((long long)platform->nics_per_node * g +
                                platform->gpus_per_node - 1) /
                               platform->gpus_per_node;
            if (scaled > PRESET_NICS_MAX)
                scaled = PRESET_NICS_MAX;
            nics = scaled < 1 ? 1 : (long)scaled;
            info->nics_scaled = true;
        }
    }
    if (nics == 0) {
        /* One NIC per GPU (times nics_per_gpu), at most what --nics-per-node
         * could say. A preset's count is its own (up to 100000). */
        nics = g * nics_per_gpu;
        if (nics > COLLCALC_SPEC_NICS_PER_NODE_MAX)
            nics = COLLCALC_SPEC_NICS_PER_NODE_MAX;
    }

    /* In-network reduction. The preset's NVLS belongs to its own intra
     * fabric: with another --intra/--link it is not carried over. */
    bool own_intra = platform != NULL && intra != NULL &&
                     strcmp(intra->name, platform->intra_link) == 0;
    bool nvls = false;
    if (spec->nvls == COLLCALC_SETTING_ON) {
        nvls = true;
    } else if (spec->nvls == COLLCALC_SETTING_UNSET && own_intra && platform->nvls) {
        nvls = true;
        info->preset_nvls = true;
    }
    if (nvls && !info->preset_nvls) {
        if (intra == NULL)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--nvls: NVLS needs GPUs on an NVSwitch inside a node");
        bool nvswitch = own_intra ? platform->nvswitch
                                  : intra->link_class == COLLCALC_LINK_CLASS_NVLINK;
        collcalc_gpu_arch arch = platform != NULL ? platform->gpu_arch : COLLCALC_GPU_ARCH_UNKNOWN;
        status = check_nvls(intra, nvswitch, arch, diag);
        if (status != COLLCALC_OK)
            return status;
    }
    bool sharp = spec->sharp == COLLCALC_SETTING_ON;
    if (spec->sharp == COLLCALC_SETTING_UNSET && platform != NULL && platform->sharp) {
        sharp = true;
        info->preset_sharp = true;
    }

    cluster.gpus = (int)gpus;
    cluster.gpus_per_node = (int)g;
    cluster.nics_per_node = (int)nics;
    cluster.nics_per_gpu = (int)nics_per_gpu;
    if (intra != NULL)
        params_of(intra, spec->basis, &cluster.intra);
    if (inter != NULL)
        params_of(inter, spec->basis, &cluster.inter);
    /* A side that is never used still gets valid figures, so validation holds. */
    if (intra == NULL)
        cluster.intra = cluster.inter;
    if (inter == NULL)
        cluster.inter = cluster.intra;
    cluster.nvls_intra = nvls;
    cluster.sharp_inter = sharp;

    info->nodes = (int)nodes;
    info->gpus_in_last_node = (int)(gpus - (nodes - 1) * g);
    info->nics_per_gpu = (int)nics_per_gpu;
    if (intra != NULL && inter != NULL && g > 1 && nodes > 1 &&
        cluster.intra.bw_GBps < cluster.inter.bw_GBps) {
        char a[32], b[32];
        add_warning(info,
                    "%s: the intra-node link %s (%s) is slower than the inter-node link %s (%s)",
                    info->preset_intra ? "--platform" : intra_option, cluster.intra.name,
                    collcalc_format_bandwidth_GBps(a, sizeof a, cluster.intra.bw_GBps),
                    cluster.inter.name,
                    collcalc_format_bandwidth_GBps(b, sizeof b, cluster.inter.bw_GBps));
    }
    *out_cluster = cluster;
    return COLLCALC_OK;
}

/* ---------------------------------------------------------- placements */

void collcalc_placement_init(collcalc_placement *placement)
{
    if (placement == NULL)
        return;
    memset(placement, 0, sizeof *placement);
    placement->version = COLLCALC_PLACEMENT_VERSION;
    collcalc_cluster_spec_init(&placement->spec);
}

/* Copies at most size - 1 bytes of text, not splitting a UTF-8 character. */
static void copy_cut(char *out, size_t size, const char *text)
{
    size_t length = strlen(text);
    if (length >= size) {
        length = size - 1;
        while (length > 0 && ((unsigned char)text[length] & 0xC0u) == 0x80u)
            length--;
    }
    memcpy(out, text, length);
    out[length] = '\0';
}

static collcalc_status placement_item(collcalc_placement *out, char *item, size_t index,
                                      collcalc_diag *diag)
{
    char shown[COLLCALC_ECHO_BUFFER];
    if (item[0] == '\0')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--placement: item %zu is empty (items are separated by one "
                                  "',')",
                                  index);
    char *equals = strchr(item, '=');
    const char *value = NULL;
    if (equals != NULL) {
        *equals = '\0';
        value = equals + 1;
    }
    const char *key = item;
    if (strcmp(key, "label") == 0) {
        if (value == NULL || value[0] == '\0')
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--placement: label: missing text (label=TEXT)");
        if (out->label_given)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--placement: label: given twice; give it once");
        for (const unsigned char *c = (const unsigned char *)value; *c != '\0'; c++)
            if (*c < 0x20 || *c == 0x7F)
                return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                          "--placement: label: '%s' holds a control character",
                                          collcalc_echo(shown, sizeof shown, value));
        if (strlen(value) >= COLLCALC_PLACEMENT_LABEL_MAX)
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                      "--placement: label: '%s' is longer than %d bytes",
                                      collcalc_echo(shown, sizeof shown, value),
                                      COLLCALC_PLACEMENT_LABEL_MAX - 1);
        copy_cut(out->label, sizeof out->label, value);
        out->label_given = true;
        return COLLCALC_OK;
    }
    bool takes_value = false;
    if (!collcalc_cluster_spec_has_key(key, &takes_value)) {
        const char *names[COUNT_OF(KEYS) + 1];
        for (size_t i = 0; i < COUNT_OF(KEYS); i++)
            names[i] = KEYS[i].name;
        names[COUNT_OF(KEYS)] = "label";
        char hint[160];
        collcalc_suggest_text(hint, sizeof hint, key, names, COUNT_OF(names));
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--placement: unknown key '%s'%s; keys: label, platform, gpus, "
                                  "gpus-per-node, nodes, nics-per-node, nics-per-gpu, link, "
                                  "intra, inter, bw, alpha, bw-basis, tree-efficiency, nvls, "
                                  "no-nvls, sharp",
                                  collcalc_echo(shown, sizeof shown, key), hint);
    }
    if (takes_value && value == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--placement: '%s' is not KEY=VALUE (%s needs a value)",
                                  collcalc_echo(shown, sizeof shown, key), key);
    collcalc_status status = set_key(&out->spec, key, value, "--placement: ", diag);
    /* An unknown key was handled above: anything else is a bad value. */
    return status == COLLCALC_ERR_NOT_FOUND ? COLLCALC_ERR_INVALID : status;
}

collcalc_status collcalc_placement_parse(const char *text, collcalc_placement *out,
                                         collcalc_diag *diag)
{
    if (out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "--placement: no place for it");
    collcalc_placement_init(out);
    if (text == NULL || text[0] == '\0')
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--placement: empty; expected e.g. "
                                  "label=nvl72,platform=gb200-nvl72");
    size_t length = strlen(text);
    if (length > COLLCALC_PLACEMENT_TEXT_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "--placement: longer than %d bytes",
                                  COLLCALC_PLACEMENT_TEXT_MAX);
    char buffer[COLLCALC_PLACEMENT_TEXT_MAX + 1];
    memcpy(buffer, text, length + 1);
    collcalc_placement parsed;
    collcalc_placement_init(&parsed);
    char *item = buffer;
    size_t index = 1;
    for (;;) {
        char *comma = strchr(item, ',');
        if (comma != NULL)
            *comma = '\0';
        collcalc_status status = placement_item(&parsed, item, index, diag);
        if (status != COLLCALC_OK)
            return status;
        if (comma == NULL)
            break;
        item = comma + 1;
        index++;
    }
    if (!parsed.label_given)
        copy_cut(parsed.label, sizeof parsed.label, text);
    *out = parsed;
    return COLLCALC_OK;
}
