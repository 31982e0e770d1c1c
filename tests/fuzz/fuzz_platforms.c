/* libFuzzer target for the platform preset loader: any bytes, checked against
 * the built-in link table, must either load into a table that keeps its
 * invariants or be refused with one clean line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/links.h"
#include "collcalc/cluster_spec.h"
#include "collcalc/platforms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stops the run loudly: libFuzzer and the replay driver both catch aborts. */
static void require(int condition)
{
    if (!condition)
        abort();
}

/* The built-in link table, loaded once: reloading it for every input would
 * spend the fuzzer's time on a document that never changes. Still reachable
 * at exit, so not a leak. */
static const collcalc_link_table *builtin_links(void)
{
    static collcalc_link_table *links;
    if (links == NULL) {
        collcalc_diag diag;
        require(collcalc_link_table_builtin(&links, &diag) == COLLCALC_OK);
    }
    return links;
}

static int is_platform_name(const char *name)
{
    const char *end = memchr(name, '\0', COLLCALC_NAME_MAX);
    if (end == NULL || end == name)
        return 0;
    for (const char *p = name; p < end; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-'))
            return 0;
    }
    return 1;
}

/* A link field names a link of one of the allowed tiers by its canonical
 * name; optional fields may be "". */
static const collcalc_link *check_link_field(const collcalc_link_table *links, const char *name,
                                             unsigned tier_mask, int optional)
{
    require(memchr(name, '\0', COLLCALC_NAME_MAX) != NULL);
    if (name[0] == '\0') {
        require(optional);
        return NULL;
    }
    const collcalc_link *link = collcalc_link_table_find(links, name);
    require(link != NULL);
    require(strcmp(link->name, name) == 0);
    require((tier_mask & (1u << (unsigned)link->tier)) != 0);
    return link;
}

static void check_platform(const collcalc_platform_table *table,
                           const collcalc_link_table *links, const collcalc_platform *p)
{
    require(is_platform_name(p->name));
    require(collcalc_platform_table_find(table, p->name) == p);
    for (size_t a = 0; a < COLLCALC_MAX_ALIASES; a++) {
        if (p->aliases[a][0] == '\0')
            continue;
        require(is_platform_name(p->aliases[a]));
        require(collcalc_platform_table_find(table, p->aliases[a]) == p);
    }
    require(memchr(p->gpu, '\0', COLLCALC_NAME_MAX) != NULL && p->gpu[0] != '\0');
    require(p->gpus_per_node >= 1 && p->gpus_per_node <= 100000);
    require(p->nics_per_node >= 1 && p->nics_per_node <= 100000);
    const collcalc_link *intra = check_link_field(
        links, p->intra_link, (1u << COLLCALC_TIER_SCALE_UP) | (1u << COLLCALC_TIER_HOST), 0);
    check_link_field(links, p->inter_link, 1u << COLLCALC_TIER_SCALE_OUT, 0);
    check_link_field(links, p->memory_link, 1u << COLLCALC_TIER_ON_PACKAGE, 1);
    check_link_field(links, p->host_link, 1u << COLLCALC_TIER_HOST, 1);
    if (p->nvls)
        require(intra->link_class == COLLCALC_LINK_CLASS_NVLINK);
    require(memchr(p->description, '\0', COLLCALC_TEXT_MAX) != NULL);
    require(memchr(p->topology_source, '\0', COLLCALC_TEXT_MAX) != NULL);
    require(memchr(p->nics_source, '\0', COLLCALC_TEXT_MAX) != NULL);
    require(memchr(p->nvls_source, '\0', COLLCALC_TEXT_MAX) != NULL);
    require(memchr(p->arch_source, '\0', COLLCALC_TEXT_MAX) != NULL);
    require(memchr(p->transport_source, '\0', COLLCALC_TEXT_MAX) != NULL);
    require(memchr(p->fabric_source, '\0', COLLCALC_TEXT_MAX) != NULL);
    /* The inputs of the NCCL-faithful model. */
    require(strcmp(collcalc_cpu_vendor_name(p->cpu_vendor), "unknown") != 0 ||
            p->cpu_vendor == COLLCALC_CPU_VENDOR_UNKNOWN);
    require(strcmp(collcalc_transport_name(p->transport), "unknown") != 0 ||
            p->transport == COLLCALC_TRANSPORT_UNKNOWN);
    require(strcmp(collcalc_gpu_arch_name(p->gpu_arch), "unknown") != 0 ||
            p->gpu_arch == COLLCALC_GPU_ARCH_UNKNOWN);
    require(p->nics_per_gpu >= 1 && p->nics_per_gpu <= 16);
    require(p->nvlink_links_per_gpu >= 0 && p->nvlink_links_per_gpu <= 64);
    if (p->nvls)
        require(p->nvswitch && (p->gpu_arch == COLLCALC_GPU_ARCH_UNKNOWN ||
                                p->gpu_arch >= COLLCALC_GPU_ARCH_SM90));
    if (p->nvswitch || p->nvlink_links_per_gpu > 0)
        require(intra->link_class == COLLCALC_LINK_CLASS_NVLINK);
}

/* The loader and the resolver apply the same rules: every platform the
 * loader accepts resolves, alone (one node) and across two nodes. */
static void check_resolves(const collcalc_platform_table *table,
                           const collcalc_link_table *links, const collcalc_platform *p)
{
    collcalc_cluster_spec spec;
    collcalc_cluster_spec_init(&spec);
    memcpy(spec.platform, p->name, sizeof spec.platform);
    collcalc_cluster cluster;
    collcalc_cluster_info info;
    collcalc_diag diag;
    require(collcalc_cluster_resolve(&spec, links, table, &cluster, &info, &diag) ==
            COLLCALC_OK);
    require(cluster.gpus == p->gpus_per_node && info.nodes == 1);
    require(cluster.nvls_intra == p->nvls);
    spec.nodes = 2;
    require(collcalc_cluster_resolve(&spec, links, table, &cluster, &info, &diag) ==
            COLLCALC_OK);
    require(cluster.nics_per_node == p->nics_per_node);
    require(info.warning_count <= COLLCALC_CLUSTER_WARNINGS_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const collcalc_link_table *links = builtin_links();
    collcalc_diag diag;
    diag.message[0] = '\0';
    collcalc_platform_table *table = NULL;
    collcalc_status status =
        collcalc_platform_table_parse((const char *)data, size, links, &table, &diag);
    if (status != COLLCALC_OK) {
        /* Nothing fails to allocate here, so a refusal is always bad data. */
        require(status == COLLCALC_ERR_INVALID);
        require(table == NULL);
        require(diag.message[0] != '\0');
        for (const char *p = diag.message; *p != '\0'; p++)
            require((unsigned char)*p >= 0x20); /* one printable line */
        return 0;
    }
    size_t count = collcalc_platform_table_count(table);
    require(count >= 1 && count <= COLLCALC_PLATFORMS_MAX);
    for (size_t i = 0; i < count; i++) {
        const collcalc_platform *p = collcalc_platform_table_at(table, i);
        require(p != NULL);
        check_platform(table, links, p);
        check_resolves(table, links, p);
    }
    require(collcalc_platform_table_at(table, count) == NULL);

    /* On top of the built-in presets. */
    collcalc_platform_table *builtin = NULL, *merged = NULL;
    require(collcalc_platform_table_builtin(links, &builtin, &diag) == COLLCALC_OK);
    status = collcalc_platform_table_overlay(builtin, table, &merged, &diag);
    if (status == COLLCALC_OK) {
        size_t merged_count = collcalc_platform_table_count(merged);
        for (size_t i = 0; i < merged_count; i++)
            check_platform(merged, links, collcalc_platform_table_at(merged, i));
        require(merged_count + collcalc_platform_table_replaced_count(merged) ==
                collcalc_platform_table_count(builtin) + count);
        collcalc_platform_table_free(merged);
    } else {
        require(status == COLLCALC_ERR_INVALID && merged == NULL && diag.message[0] != '\0');
    }
    collcalc_platform_table_free(builtin);
    collcalc_platform_table_free(table);
    return 0;
}
