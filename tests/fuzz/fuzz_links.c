/* libFuzzer target for the link table loader: any bytes must either load
 * into a table that keeps its invariants (physical bounds included) or be
 * refused with one clean line; a loaded table overlaid on the built-in one
 * keeps the invariants too. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/links.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed invariant aborts, which fails the fuzzer run and the replay test alike. */
static void require(int condition)
{
    if (!condition)
        abort();
}

static int is_link_name(const char *name)
{
    const char *end = memchr(name, '\0', COLLCALC_NAME_MAX);
    if (end == NULL || end == name)
        return 0;
    size_t length = (size_t)(end - name);
    for (size_t i = 0; i < length; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-'))
            return 0;
    }
    return 1;
}

static void check_line(const char *message)
{
    require(message[0] != '\0');
    for (const char *p = message; *p != '\0'; p++)
        require((unsigned char)*p >= 0x20); /* one printable line */
}

static void check_link(const collcalc_link_table *table, const collcalc_link *link)
{
    require(is_link_name(link->name));
    require(collcalc_link_table_find(table, link->name) == link);
    for (size_t a = 0; a < COLLCALC_MAX_ALIASES; a++) {
        if (link->aliases[a][0] == '\0')
            continue;
        require(is_link_name(link->aliases[a]));
        require(collcalc_link_table_find(table, link->aliases[a]) == link);
    }
    static const collcalc_bw_basis bases[] = {COLLCALC_BW_PER_DIRECTION, COLLCALC_BW_HEADLINE};
    for (size_t b = 0; b < 2; b++) {
        double bw = collcalc_link_bandwidth_GBps(link, bases[b]);
        require(isfinite(bw) && bw >= COLLCALC_LINK_BW_MIN_GBPS && bw <= COLLCALC_LINK_BW_MAX_GBPS);
    }
    require(link->alpha_us == 0 ||
            (link->alpha_us >= COLLCALC_LINK_ALPHA_MIN_US && link->alpha_us <= COLLCALC_LINK_ALPHA_MAX_US));
    require(strcmp(collcalc_tier_name(link->tier), "unknown") != 0);
    require(strcmp(collcalc_link_class_name(link->link_class), "unknown") != 0);
    require(strcmp(collcalc_headline_counts_name(link->headline_counts), "unknown") != 0);
    require(memchr(link->description, '\0', COLLCALC_TEXT_MAX) != NULL);
    require(memchr(link->bw_source, '\0', COLLCALC_TEXT_MAX) != NULL);
    require(memchr(link->headline_source, '\0', COLLCALC_TEXT_MAX) != NULL);
    require(memchr(link->alpha_source, '\0', COLLCALC_TEXT_MAX) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    collcalc_diag diag;
    diag.message[0] = '\0';
    collcalc_link_table *table = NULL;
    collcalc_status status = collcalc_link_table_parse((const char *)data, size, &table, &diag);
    if (status != COLLCALC_OK) {
        /* Nothing fails to allocate here, so a refusal is always bad data
         * (NOMEM would mean the syntax check let through what cJSON refuses). */
        require(status == COLLCALC_ERR_INVALID);
        require(table == NULL);
        check_line(diag.message);
        return 0;
    }
    size_t count = collcalc_link_table_count(table);
    require(count >= 1 && count <= COLLCALC_LINKS_MAX);
    for (size_t i = 0; i < count; i++) {
        const collcalc_link *link = collcalc_link_table_at(table, i);
        require(link != NULL);
        check_link(table, link);
    }
    require(collcalc_link_table_at(table, count) == NULL);

    /* On top of the built-in table: every entry of the file is found as
     * itself, every built-in one not replaced survives. */
    collcalc_link_table *builtin = NULL, *merged = NULL;
    require(collcalc_link_table_builtin(&builtin, &diag) == COLLCALC_OK);
    status = collcalc_link_table_overlay(builtin, table, &merged, &diag);
    if (status != COLLCALC_OK) {
        require(status == COLLCALC_ERR_INVALID && merged == NULL);
        check_line(diag.message);
    } else {
        size_t merged_count = collcalc_link_table_count(merged);
        require(merged_count >= collcalc_link_table_count(builtin));
        require(merged_count <= collcalc_link_table_count(builtin) + count);
        size_t replaced = 0;
        for (size_t i = 0; i < merged_count; i++) {
            const collcalc_link *link = collcalc_link_table_at(merged, i);
            check_link(merged, link);
            replaced += collcalc_link_table_origin(merged, i) == COLLCALC_ENTRY_REPLACED;
        }
        require(replaced == collcalc_link_table_replaced_count(merged));
        require(merged_count + replaced == collcalc_link_table_count(builtin) + count);
        for (size_t i = 0; i < count; i++) {
            const collcalc_link *mine = collcalc_link_table_at(table, i);
            const collcalc_link *found = collcalc_link_table_find(merged, mine->name);
            require(found != NULL && found->bw_per_direction_GBps == mine->bw_per_direction_GBps);
        }
        collcalc_link_table_free(merged);
    }
    collcalc_link_table_free(builtin);
    collcalc_link_table_free(table);
    return 0;
}
