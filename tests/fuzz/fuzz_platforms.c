/* libFuzzer target for the platform preset loader: any bytes, checked against
 * the built-in link table, must either load into a table that keeps its
 * invariants or be refused with one clean line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/links.h"
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
    }
    require(collcalc_platform_table_at(table, count) == NULL);
    collcalc_platform_table_free(table);
    return 0;
}
