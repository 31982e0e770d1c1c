/* Platform presets: strict loading of data/platforms.json-style documents
 * into an immutable table, checked against a link table, and lookup by name
 * or alias.
 *
 * Schema (version 1; data/README.md has the full description):
 *
 *   { "schema_version": 1,
 *     "platforms": [                               1..COLLCALC_PLATFORMS_MAX entries
 *       { "name": "hgx-h100",                      [a-z0-9.-], 1..31 chars, unique
 *         "aliases": ["dgx-h100"],                 optional, 0..4 names, same rules
 *         "description": "...",                    optional, 1..255 bytes
 *         "gpu": "H100 SXM",                       free text, 1..31 bytes
 *         "gpus_per_node": 8,                      whole number, 1..100000
 *         "gpus_per_host": 4,                      optional, 1..gpus_per_node dividing it,
 *                                                  default gpus_per_node
 *         "intra_link": "nvlink4",                 a link of tier scale-up or host
 *         "inter_link": "ib-ndr",                  a link of tier scale-out
 *         "nics_per_node": 8,                      whole number, 1..100000
 *         "memory_link": "hbm3",                   optional, a link of tier on-package
 *         "host_link": "pcie5",                    optional, a link of tier host
 *         "nvls": true,                            needs an NVSwitch (nvswitch) on an NVLink
 *                                                  intra_link, and sm90+ when gpu_arch is known
 *         "sharp": false,
 *         "gpu_arch": "sm90",                      optional: unknown | sm70 .. sm120 | gfx942 | gfx950
 *         "cpu_vendor": "intel",                   optional: unknown | intel | amd | arm
 *         "transport": "ib",                       optional: unknown | ib | roce | efa | tcpx |
 *                                                  tcpxo | socket
 *         "nics_per_gpu": 1,                       optional, 1..16, default 1
 *         "p2p": true,                             optional, default true
 *         "nvswitch": true,                        optional, default = nvls; needs NVLink
 *         "nvlink_links_per_gpu": 18,              optional, 0..64, default 0
 *         "nccl_fit": {                            optional, written by collcalc fit
 *           "latency_inter_us": 12.5,              optional, 0..1000, default 0
 *           "bw_efficiency": 0.93,                 optional, 0.05..2, default 1
 *           "fabric_efficiency": 0.9,              optional, 0.05..1, default: not fitted
 *           "source": "..." },                     optional, 1..255 bytes
 *         "sources": {                             optional; each key optional, 1..255 bytes
 *           "topology": "...", "nics": "...", "nvls": "...",
 *           "arch": "...", "transport": "...", "fabric": "..." } } ] }
 *
 * Link names are looked up in the link table by name or alias, ignoring
 * case, and stored under the link's canonical name. memory_link and
 * host_link are optional because some boxes have no such entry in the link
 * table (an L40S's GDDR6 is not HBM). Platform names and aliases are unique
 * across the table, ignoring case. Unknown and duplicate keys are errors, so
 * a typo cannot silently fall back to nothing. */
#include "collcalc/platforms.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "collcalc/cluster_spec.h"
#include "json_check.h"
#include "names.h"
#include "table.h"

/* The only schema this code reads; a newer file must be refused, not
 * half-understood. */
#define PLATFORMS_SCHEMA_VERSION 1

/* GPUs or NICs per node beyond this are unit or typing mistakes; the
 * largest NVLink domain announced is 576 GPUs. */
#define PLATFORMS_COUNT_MAX 100000

struct collcalc_platform_table {
    size_t count;
    unsigned char origins[COLLCALC_PLATFORMS_MAX]; /* collcalc_entry_origin of each entry */
    collcalc_platform platforms[]; /* count entries, in file order */
};

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* Tier sets, as bit masks over collcalc_tier, for the link rules below. */
#define TIER_BIT(tier) (1u << (unsigned)(tier))

static const collcalc_json_key platform_keys[] = {
    {"name", true},
    {"aliases", false},
    {"description", false},
    {"gpu", true},
    {"gpus_per_node", true},
    {"gpus_per_host", false},
    {"intra_link", true},
    {"inter_link", true},
    {"nics_per_node", true},
    {"memory_link", false},
    {"host_link", false},
    {"nvls", true},
    {"sharp", true},
    {"gpu_arch", false},
    {"cpu_vendor", false},
    {"transport", false},
    {"nics_per_gpu", false},
    {"p2p", false},
    {"nvswitch", false},
    {"nvlink_links_per_gpu", false},
    {"sources", false},
    {"nccl_fit", false},
};

static const collcalc_json_key nccl_fit_keys[] = {
    {"latency_inter_us", false},
    {"bw_efficiency", false},
    {"fabric_efficiency", false},
    {"source", false},
};

static const collcalc_json_key source_keys[] = {
    {"topology", false},
    {"nics", false},
    {"nvls", false},
    {"arch", false},
    {"transport", false},
    {"fabric", false},
};

/* Words of the typed keys, in enum order (index = enum value, except
 * gpu_arch whose values are SM numbers). */
static const char *const arch_words[] = {"unknown", "sm70",  "sm75",  "sm80",   "sm86",  "sm89",
                                         "sm90",    "sm100", "sm103", "sm120", "gfx942", "gfx950"};
static const collcalc_gpu_arch arch_values[] = {
    COLLCALC_GPU_ARCH_UNKNOWN, COLLCALC_GPU_ARCH_SM70,   COLLCALC_GPU_ARCH_SM75,
    COLLCALC_GPU_ARCH_SM80,    COLLCALC_GPU_ARCH_SM86,   COLLCALC_GPU_ARCH_SM89,
    COLLCALC_GPU_ARCH_SM90,    COLLCALC_GPU_ARCH_SM100,  COLLCALC_GPU_ARCH_SM103,
    COLLCALC_GPU_ARCH_SM120,   COLLCALC_GPU_ARCH_GFX942, COLLCALC_GPU_ARCH_GFX950};
static const char *const cpu_words[] = {"unknown", "intel", "amd", "arm"};
static const char *const transport_words[] = {"unknown", "ib",   "roce",  "efa",
                                              "tcpx",    "tcpxo", "socket"};

/* NICs one GPU can drive at once: 4 on AWS p5 (32 x 100G for 8 GPUs). */
#define PLATFORMS_NICS_PER_GPU_MAX 16
/* NVLink links per GPU: 18 on Hopper and Blackwell. */
#define PLATFORMS_NVLINK_LINKS_MAX 64

/* Where a platform keeps its names, for the shared name rules (data/names.h). */
static const collcalc_names_layout platform_names = {
    sizeof(collcalc_platform), offsetof(collcalc_platform, name),
    offsetof(collcalc_platform, aliases), "platforms"};

/* Where each link field may point: the tiers allowed, and how a message
 * says so. */
typedef struct {
    const char *key;
    unsigned tier_mask;   /* TIER_BIT()s */
    const char *allowed;  /* "scale-up or host" */
    bool between_gpus;    /* carries GPU-to-GPU or NIC traffic: no memory tier */
} link_rule;

static const link_rule intra_rule = {
    "intra_link", TIER_BIT(COLLCALC_TIER_SCALE_UP) | TIER_BIT(COLLCALC_TIER_HOST),
    "scale-up or host", true};
static const link_rule inter_rule = {"inter_link", TIER_BIT(COLLCALC_TIER_SCALE_OUT),
                                     "scale-out", true};
static const link_rule memory_rule = {"memory_link", TIER_BIT(COLLCALC_TIER_ON_PACKAGE),
                                      "on-package", false};
static const link_rule host_rule = {"host_link", TIER_BIT(COLLCALC_TIER_HOST), "host", false};

/* Reads the link named by object[rule->key], which must exist in links and
 * sit in one of the rule's tiers (a memory_link that names NVLink is a
 * mistake the model would otherwise use silently). Stores the canonical
 * name in out and the link in *out_link. */
static collcalc_status load_link_ref(collcalc_json_ctx *ctx, const cJSON *object,
                                     const link_rule *rule, const collcalc_link_table *links,
                                     char out[COLLCALC_NAME_MAX], const collcalc_link **out_link)
{
    const cJSON *item = collcalc_json_enter(ctx, object, rule->key);
    const char *text = NULL;
    collcalc_status status = collcalc_json_as_string(ctx, item, COLLCALC_NAME_MAX - 1, &text);
    if (status == COLLCALC_OK)
        status = collcalc_names_check_chars(ctx, text, true);
    const collcalc_link *link = NULL;
    if (status == COLLCALC_OK) {
        link = collcalc_link_table_find(links, text);
        if (link == NULL)
            status = collcalc_json_fail(ctx, "unknown link '%s'", text);
    }
    /* The command line's rule for --link/--intra/--inter, by the same code. */
    collcalc_diag why;
    if (status == COLLCALC_OK && rule->between_gpus &&
        collcalc_link_check_between_gpus(link, &why) != COLLCALC_OK)
        status = collcalc_json_fail(ctx, "%s", why.message);
    if (status == COLLCALC_OK && (rule->tier_mask & TIER_BIT(link->tier)) == 0)
        status = collcalc_json_fail(ctx, "'%s' has tier %s; %s needs tier %s", text,
                                    collcalc_tier_name(link->tier), rule->key, rule->allowed);
    if (status == COLLCALC_OK) {
        memcpy(out, link->name, strlen(link->name) + 1);
        if (out_link != NULL)
            *out_link = link;
    }
    collcalc_json_leave(ctx);
    return status;
}

/* Reads a count of GPUs or NICs into an int. */
static collcalc_status load_count(collcalc_json_ctx *ctx, const cJSON *object, const char *key,
                                  int *out)
{
    int64_t value = 0;
    collcalc_status status =
        collcalc_json_get_integer(ctx, object, key, 1, PLATFORMS_COUNT_MAX, &value);
    if (status == COLLCALC_OK)
        *out = (int)value;
    return status;
}

static collcalc_status load_sources(collcalc_json_ctx *ctx, const cJSON *object,
                                    collcalc_platform *platform)
{
    char *const targets[] = {platform->topology_source, platform->nics_source,
                             platform->nvls_source,     platform->arch_source,
                             platform->transport_source, platform->fabric_source};
    return collcalc_json_get_string_fields(ctx, object, "sources", source_keys, targets,
                                           COUNT_OF(source_keys), COLLCALC_TEXT_MAX);
}

/* Reads the optional inputs of the NCCL-faithful model, with their
 * defaults (include/collcalc/platforms.h). */
static collcalc_status load_model_inputs(collcalc_json_ctx *ctx, const cJSON *object,
                                         collcalc_platform *platform)
{
    collcalc_status status = COLLCALC_OK;
    size_t index = 0;
    platform->gpu_arch = COLLCALC_GPU_ARCH_UNKNOWN;
    if (collcalc_json_has(object, "gpu_arch")) {
        status = collcalc_json_get_enum(ctx, object, "gpu_arch", arch_words,
                                        COUNT_OF(arch_words), &index);
        if (status != COLLCALC_OK)
            return status;
        platform->gpu_arch = arch_values[index];
    }
    platform->cpu_vendor = COLLCALC_CPU_VENDOR_UNKNOWN;
    if (collcalc_json_has(object, "cpu_vendor")) {
        status = collcalc_json_get_enum(ctx, object, "cpu_vendor", cpu_words,
                                        COUNT_OF(cpu_words), &index);
        if (status != COLLCALC_OK)
            return status;
        platform->cpu_vendor = (collcalc_cpu_vendor)index;
    }
    platform->transport = COLLCALC_TRANSPORT_UNKNOWN;
    if (collcalc_json_has(object, "transport")) {
        status = collcalc_json_get_enum(ctx, object, "transport", transport_words,
                                        COUNT_OF(transport_words), &index);
        if (status != COLLCALC_OK)
            return status;
        platform->transport = (collcalc_transport)index;
    }
    int64_t value = 1;
    if (collcalc_json_has(object, "nics_per_gpu")) {
        status = collcalc_json_get_integer(ctx, object, "nics_per_gpu", 1,
                                           PLATFORMS_NICS_PER_GPU_MAX, &value);
        if (status != COLLCALC_OK)
            return status;
    }
    platform->nics_per_gpu = (int)value;
    platform->p2p = true;
    if (collcalc_json_has(object, "p2p")) {
        status = collcalc_json_get_bool(ctx, object, "p2p", &platform->p2p);
        if (status != COLLCALC_OK)
            return status;
    }
    platform->nvswitch = platform->nvls;
    if (collcalc_json_has(object, "nvswitch")) {
        status = collcalc_json_get_bool(ctx, object, "nvswitch", &platform->nvswitch);
        if (status != COLLCALC_OK)
            return status;
    }
    value = 0;
    if (collcalc_json_has(object, "nvlink_links_per_gpu")) {
        status = collcalc_json_get_integer(ctx, object, "nvlink_links_per_gpu", 0,
                                           PLATFORMS_NVLINK_LINKS_MAX, &value);
        if (status != COLLCALC_OK)
            return status;
    }
    platform->nvlink_links_per_gpu = (int)value;
    return COLLCALC_OK;
}

/* Reads the optional "nccl_fit" object (collcalc fit's values; the ranges
 * are include/collcalc/platforms.h's). */
static collcalc_status load_nccl_fit(collcalc_json_ctx *ctx, const cJSON *object,
                                     collcalc_platform *platform)
{
    collcalc_platform_nccl_fit *fit = &platform->nccl_fit;
    memset(fit, 0, sizeof *fit);
    fit->bw_efficiency = 1.0;
    if (!collcalc_json_has(object, "nccl_fit"))
        return COLLCALC_OK;
    const cJSON *item = collcalc_json_enter(ctx, object, "nccl_fit");
    collcalc_status status =
        collcalc_json_check_object(ctx, item, nccl_fit_keys, COUNT_OF(nccl_fit_keys));
    if (status == COLLCALC_OK && collcalc_json_has(item, "latency_inter_us"))
        status = collcalc_json_get_number(ctx, item, "latency_inter_us", 0.0, 1000.0, 0,
                                          &fit->latency_inter_us);
    if (status == COLLCALC_OK && collcalc_json_has(item, "bw_efficiency"))
        status = collcalc_json_get_number(ctx, item, "bw_efficiency", 0.05, 2.0, 0,
                                          &fit->bw_efficiency);
    if (status == COLLCALC_OK && collcalc_json_has(item, "fabric_efficiency"))
        status = collcalc_json_get_number(ctx, item, "fabric_efficiency", 0.05, 1.0, 0,
                                          &fit->fabric_efficiency);
    if (status == COLLCALC_OK && collcalc_json_has(item, "source"))
        status = collcalc_json_get_string_copy(ctx, item, "source", fit->source,
                                               sizeof fit->source);
    collcalc_json_leave(ctx);
    fit->present = status == COLLCALC_OK;
    return status;
}

/* Loads one entry of "platforms" (the path already ends in [i]). */
static collcalc_status load_platform(collcalc_json_ctx *ctx, const cJSON *object,
                                     const collcalc_link_table *links,
                                     collcalc_platform *platform)
{
    collcalc_status status = collcalc_json_check_object(ctx, object, platform_keys,
                                                        COUNT_OF(platform_keys));
    if (status != COLLCALC_OK)
        return status;

    status = collcalc_names_load(ctx, object, platform->name, platform->aliases);
    if (status != COLLCALC_OK)
        return status;
    if (collcalc_json_has(object, "description")) {
        status = collcalc_json_get_string_copy(ctx, object, "description",
                                               platform->description,
                                               sizeof platform->description);
        if (status != COLLCALC_OK)
            return status;
    }
    status = collcalc_json_get_string_copy(ctx, object, "gpu", platform->gpu,
                                           sizeof platform->gpu);
    if (status != COLLCALC_OK)
        return status;
    status = load_count(ctx, object, "gpus_per_node", &platform->gpus_per_node);
    if (status != COLLCALC_OK)
        return status;
    /* One host (OS, CPUs, host memory, its NICs) may hold part of a
     * multi-node NVLink domain: a GB200 NVL72 compute tray holds 4 GPUs. */
    platform->gpus_per_host = platform->gpus_per_node;
    if (collcalc_json_has(object, "gpus_per_host")) {
        status = load_count(ctx, object, "gpus_per_host", &platform->gpus_per_host);
        if (status == COLLCALC_OK && (platform->gpus_per_host > platform->gpus_per_node ||
                                      platform->gpus_per_node % platform->gpus_per_host != 0)) {
            collcalc_json_path_push_key(&ctx->path, "gpus_per_host");
            status = collcalc_json_fail(ctx, "%d does not divide gpus_per_node %d",
                                        platform->gpus_per_host, platform->gpus_per_node);
            collcalc_json_path_pop(&ctx->path);
        }
        if (status != COLLCALC_OK)
            return status;
    }

    /* PCIe counts as an intra-node link: boxes without NVLink (L40S) move
     * GPU-to-GPU traffic over it. */
    const collcalc_link *intra = NULL;
    status = load_link_ref(ctx, object, &intra_rule, links, platform->intra_link, &intra);
    if (status != COLLCALC_OK)
        return status;
    status = load_link_ref(ctx, object, &inter_rule, links, platform->inter_link, NULL);
    if (status != COLLCALC_OK)
        return status;
    status = load_count(ctx, object, "nics_per_node", &platform->nics_per_node);
    if (status != COLLCALC_OK)
        return status;
    if (collcalc_json_has(object, "memory_link")) {
        status = load_link_ref(ctx, object, &memory_rule, links, platform->memory_link, NULL);
        if (status != COLLCALC_OK)
            return status;
    }
    if (collcalc_json_has(object, "host_link")) {
        status = load_link_ref(ctx, object, &host_rule, links, platform->host_link, NULL);
        if (status != COLLCALC_OK)
            return status;
    }

    status = collcalc_json_get_bool(ctx, object, "nvls", &platform->nvls);
    if (status != COLLCALC_OK)
        return status;
    status = collcalc_json_get_bool(ctx, object, "sharp", &platform->sharp);
    if (status != COLLCALC_OK)
        return status;
    status = load_model_inputs(ctx, object, platform);
    if (status != COLLCALC_OK)
        return status;

    /* The same rules the command line's cluster builder applies
     * (collcalc_fabric_check, src/data/cluster_spec.c). */
    const char *rule_key = NULL;
    collcalc_diag rule_diag;
    status = collcalc_fabric_check(intra, platform->nvls, platform->nvswitch,
                                   platform->gpu_arch, &rule_key, &rule_diag);
    if (status != COLLCALC_OK) {
        collcalc_json_path_push_key(&ctx->path, rule_key);
        status = collcalc_json_fail(ctx, "%s", rule_diag.message);
        collcalc_json_path_pop(&ctx->path);
        return status;
    }
    if (platform->nvlink_links_per_gpu > 0 && intra->link_class != COLLCALC_LINK_CLASS_NVLINK) {
        collcalc_json_path_push_key(&ctx->path, "nvlink_links_per_gpu");
        status = collcalc_json_fail(ctx, "%d needs an NVLink intra_link ('%s' is class %s)",
                                    platform->nvlink_links_per_gpu, intra->name,
                                    collcalc_link_class_name(intra->link_class));
        collcalc_json_path_pop(&ctx->path);
        return status;
    }

    status = load_nccl_fit(ctx, object, platform);
    if (status != COLLCALC_OK)
        return status;
    if (collcalc_json_has(object, "sources"))
        return load_sources(ctx, object, platform);
    return COLLCALC_OK;
}

static collcalc_status load_platform_entry(collcalc_json_ctx *ctx, const cJSON *element,
                                           void *entry, const void *context)
{
    return load_platform(ctx, element, context, entry);
}

COLLCALC_TABLE_CHECK(collcalc_platform_table, origins, COLLCALC_PLATFORMS_MAX);
static const collcalc_table_layout platform_table =
    COLLCALC_TABLE_LAYOUT(collcalc_platform_table, origins, platforms, COLLCALC_PLATFORMS_MAX,
                          platform_names, "platform");

/* Parses text as a platform table; origin names the document in messages. */
static collcalc_status parse_table(const char *json_text, size_t json_length, const char *origin,
                                   const collcalc_link_table *links,
                                   collcalc_platform_table **out_table, collcalc_diag *diag)
{
    if (out_table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "no place for the platform table");
    *out_table = NULL;
    if (links == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "no link table to check the platforms against");
    void *table = NULL;
    collcalc_status status =
        collcalc_table_parse(&platform_table, PLATFORMS_SCHEMA_VERSION, json_text, json_length,
                             origin, load_platform_entry, links, &table, diag);
    *out_table = table;
    return status;
}

collcalc_status collcalc_platform_table_parse(const char *json_text, size_t json_length,
                                              const collcalc_link_table *links,
                                              collcalc_platform_table **out_table,
                                              collcalc_diag *diag)
{
    return parse_table(json_text, json_length, NULL, links, out_table, diag);
}

collcalc_status collcalc_platform_table_parse_named(const char *json_text, size_t json_length,
                                                    const char *origin,
                                                    const collcalc_link_table *links,
                                                    collcalc_platform_table **out_table,
                                                    collcalc_diag *diag)
{
    return parse_table(json_text, json_length, origin, links, out_table, diag);
}

collcalc_status collcalc_platform_table_overlay(const collcalc_platform_table *base,
                                                const collcalc_platform_table *overlay,
                                                collcalc_platform_table **out_table,
                                                collcalc_diag *diag)
{
    /* As collcalc_link_table_overlay: through a void *, NULL kept NULL. */
    void *table = NULL;
    collcalc_status status =
        collcalc_table_overlay(&platform_table, base, overlay,
                               out_table != NULL ? &table : NULL, diag);
    if (out_table != NULL)
        *out_table = table;
    return status;
}

collcalc_entry_origin collcalc_platform_table_origin(const collcalc_platform_table *table,
                                                    size_t index)
{
    return collcalc_table_origin(&platform_table, table, index);
}

size_t collcalc_platform_table_replaced_count(const collcalc_platform_table *table)
{
    return collcalc_table_replaced_count(&platform_table, table);
}

collcalc_status collcalc_platform_table_builtin(const collcalc_link_table *links,
                                                collcalc_platform_table **out_table,
                                                collcalc_diag *diag)
{
    const char *json = collcalc_builtin_platforms_json();
    return parse_table(json, strlen(json), "built-in data/platforms.json", links, out_table,
                       diag);
}

void collcalc_platform_table_free(collcalc_platform_table *table)
{
    collcalc_table_free(table);
}

size_t collcalc_platform_table_count(const collcalc_platform_table *table)
{
    return collcalc_table_count(table);
}

const collcalc_platform *collcalc_platform_table_at(const collcalc_platform_table *table,
                                                    size_t index)
{
    return collcalc_table_at(&platform_table, table, index);
}

const char *collcalc_gpu_arch_name(collcalc_gpu_arch arch)
{
    for (size_t i = 0; i < COUNT_OF(arch_values); i++)
        if (arch_values[i] == arch)
            return arch_words[i];
    return "unknown";
}

bool collcalc_gpu_arch_is_amd(collcalc_gpu_arch arch)
{
    return arch == COLLCALC_GPU_ARCH_GFX942 || arch == COLLCALC_GPU_ARCH_GFX950;
}

int collcalc_gpu_arch_nccl_sm(collcalc_gpu_arch arch)
{
    switch (arch) {
    case COLLCALC_GPU_ARCH_GFX942: return 90;
    case COLLCALC_GPU_ARCH_GFX950: return 100;
    case COLLCALC_GPU_ARCH_UNKNOWN: return 0;
    default: break;
    }
    for (size_t i = 0; i < COUNT_OF(arch_values); i++)
        if (arch_values[i] == arch)
            return (int)arch;
    return 0;
}

const char *collcalc_cpu_vendor_name(collcalc_cpu_vendor vendor)
{
    return collcalc_names_word(cpu_words, COUNT_OF(cpu_words), (int)vendor);
}

const char *collcalc_transport_name(collcalc_transport transport)
{
    return collcalc_names_word(transport_words, COUNT_OF(transport_words), (int)transport);
}

const collcalc_platform *collcalc_platform_table_find(const collcalc_platform_table *table,
                                                      const char *name)
{
    return collcalc_table_find(&platform_table, table, name);
}

collcalc_status collcalc_platform_table_lookup(const collcalc_platform_table *table, const char *field,
                                const char *name, const collcalc_platform **out, collcalc_diag *diag)
{
    const void *found = NULL;
    collcalc_status status = collcalc_table_lookup(&platform_table, table, field, name, &found, diag);
    *out = found;
    return status;
}
