/* The link table: strict loading of data/links.json-style documents into an
 * immutable table, lookup by name or alias, and the enum names.
 *
 * Schema (version 1; data/README.md has the full description):
 *
 *   { "schema_version": 1,
 *     "links": [                                   1..COLLCALC_LINKS_MAX entries
 *       { "name": "nvlink5",                       [a-z0-9.-], 1..31 chars, unique
 *         "aliases": ["nvl5"],                     optional, 0..4 names, same rules
 *         "description": "...",                    optional, 1..255 bytes
 *         "tier": "scale-up",                      on-package | scale-up | host | scale-out
 *         "class": "nvlink",                       memory | nvlink | pci | net
 *         "bw_per_direction_GBps": 900,            0.001..100000 (physical bounds)
 *         "headline_GBps": 1800,                   0.001..100000
 *         "headline_counts": "both-directions",    both-directions | per-direction | single-figure
 *         "alpha_us": 2.0,                         per-step latency: 0 or 1e-6..1e6
 *         "sources": {                             optional; each key optional, 1..255 bytes
 *           "bw_per_direction_GBps": "...", "headline_GBps": "...", "alpha_us": "..." } } ] }
 *
 * Names and aliases are unique across the whole table, ignoring case.
 * Unknown and duplicate keys are errors, so a typo cannot silently fall back
 * to nothing. */
#include "collcalc/links.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "json_check.h"
#include "links_builtin.h"
#include "names.h"
#include "table.h"

/* The only schema this code reads; a newer file must be refused, not
 * half-understood. */
#define LINKS_SCHEMA_VERSION 1

/* struct collcalc_link_table is in links_builtin.h (the generated built-in
 * table defines one). */

/* Word tables: index i is enum value i, so the loader maps words to enums
 * and the name functions map back through the same arrays. */
static const char *const tier_words[] = {"on-package", "scale-up", "host", "scale-out"};
static const char *const class_words[] = {"memory", "nvlink", "pci", "net"};
static const char *const headline_words[] = {"both-directions", "per-direction",
                                             "single-figure"};
static const char *const basis_words[] = {"per-direction", "headline"};

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

static const collcalc_json_key link_keys[] = {
    {"name", true},
    {"aliases", false},
    {"description", false},
    {"tier", true},
    {"class", true},
    {"bw_per_direction_GBps", true},
    {"headline_GBps", true},
    {"headline_counts", true},
    {"alpha_us", true},
    {"p2p_efficiency", false},
    {"sources", false},
};

static const collcalc_json_key source_keys[] = {
    {"bw_per_direction_GBps", false},
    {"headline_GBps", false},
    {"alpha_us", false},
    {"p2p_efficiency", false},
};

/* Where a link keeps its names, for the shared name rules (data/names.h). */
static const collcalc_names_layout link_names = {
    sizeof(collcalc_link), offsetof(collcalc_link, name), offsetof(collcalc_link, aliases),
    "links"};

static collcalc_status load_sources(collcalc_json_ctx *ctx, const cJSON *object,
                                    collcalc_link *link)
{
    char *const targets[] = {link->bw_source, link->headline_source, link->alpha_source,
                             link->p2p_efficiency_source};
    return collcalc_json_get_string_fields(ctx, object, "sources", source_keys, targets,
                                           COUNT_OF(source_keys), COLLCALC_TEXT_MAX);
}

/* Reads object[key], a finite number, and checks it with the bound shared
 * with the command line's overrides; a failure names the JSON path. */
static collcalc_status load_figure(collcalc_json_ctx *ctx, const cJSON *object, const char *key,
                                   collcalc_status (*check)(double, collcalc_diag *),
                                   double *out)
{
    double value = 0.0;
    collcalc_status status =
        collcalc_json_get_number(ctx, object, key, -HUGE_VAL, HUGE_VAL, 0u, &value);
    if (status != COLLCALC_OK)
        return status;
    collcalc_diag why;
    if (check(value, &why) != COLLCALC_OK) {
        collcalc_json_path_push_key(&ctx->path, key);
        status = collcalc_json_fail(ctx, "%s", why.message);
        collcalc_json_path_pop(&ctx->path);
        return status;
    }
    *out = value;
    return COLLCALC_OK;
}

/* A measured point-to-point efficiency: a fraction of the line rate. */
static collcalc_status check_p2p_efficiency(double value, collcalc_diag *diag)
{
    if (isfinite(value) && value >= 0.05 && value <= 1.0)
        return COLLCALC_OK;
    return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                              "must be a fraction of the line rate, 0.05..1 (got %g)", value);
}

/* Loads one entry of "links" (the path already ends in [i]). */
static collcalc_status load_link(collcalc_json_ctx *ctx, const cJSON *object,
                                 collcalc_link *link)
{
    collcalc_status status = collcalc_json_check_object(ctx, object, link_keys,
                                                        COUNT_OF(link_keys));
    if (status != COLLCALC_OK)
        return status;

    status = collcalc_names_load(ctx, object, link->name, link->aliases);
    if (status != COLLCALC_OK)
        return status;
    if (collcalc_json_has(object, "description")) {
        status = collcalc_json_get_string_copy(ctx, object, "description", link->description,
                                               sizeof link->description);
        if (status != COLLCALC_OK)
            return status;
    }

    size_t word = 0;
    status = collcalc_json_get_enum(ctx, object, "tier", tier_words, COUNT_OF(tier_words), &word);
    if (status != COLLCALC_OK)
        return status;
    link->tier = (collcalc_tier)word;
    status =
        collcalc_json_get_enum(ctx, object, "class", class_words, COUNT_OF(class_words), &word);
    if (status != COLLCALC_OK)
        return status;
    link->link_class = (collcalc_link_class)word;

    status = load_figure(ctx, object, "bw_per_direction_GBps", collcalc_link_check_bandwidth_GBps,
                         &link->bw_per_direction_GBps);
    if (status != COLLCALC_OK)
        return status;
    status = load_figure(ctx, object, "headline_GBps", collcalc_link_check_bandwidth_GBps,
                         &link->headline_GBps);
    if (status != COLLCALC_OK)
        return status;
    status = collcalc_json_get_enum(ctx, object, "headline_counts", headline_words,
                                    COUNT_OF(headline_words), &word);
    if (status != COLLCALC_OK)
        return status;
    link->headline_counts = (collcalc_headline_counts)word;
    status = load_figure(ctx, object, "alpha_us", collcalc_link_check_alpha_us, &link->alpha_us);
    if (status != COLLCALC_OK)
        return status;
    if (collcalc_json_has(object, "p2p_efficiency")) {
        status = load_figure(ctx, object, "p2p_efficiency", check_p2p_efficiency,
                             &link->p2p_efficiency);
        if (status != COLLCALC_OK)
            return status;
    }

    if (collcalc_json_has(object, "sources"))
        return load_sources(ctx, object, link);
    return COLLCALC_OK;
}

static collcalc_status load_link_entry(collcalc_json_ctx *ctx, const cJSON *element, void *entry,
                                       const void *context)
{
    (void)context;
    return load_link(ctx, element, entry);
}

COLLCALC_TABLE_CHECK(collcalc_link_table, origins, COLLCALC_LINKS_MAX);
static const collcalc_table_layout link_table = COLLCALC_TABLE_LAYOUT(
    collcalc_link_table, origins, links, COLLCALC_LINKS_MAX, link_names, "link");

/* Parses text as a link table; origin names the document in messages. */
static collcalc_status parse_table(const char *json_text, size_t json_length, const char *origin,
                                   collcalc_link_table **out_table, collcalc_diag *diag)
{
    if (out_table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the link table");
    *out_table = NULL;
    void *table = NULL;
    collcalc_status status = collcalc_table_parse(&link_table, LINKS_SCHEMA_VERSION, json_text,
                                                  json_length, origin, load_link_entry, NULL,
                                                  &table, diag);
    *out_table = table;
    return status;
}

collcalc_status collcalc_link_table_parse(const char *json_text, size_t json_length,
                                          collcalc_link_table **out_table,
                                          collcalc_diag *diag)
{
    return parse_table(json_text, json_length, NULL, out_table, diag);
}

collcalc_status collcalc_link_table_parse_named(const char *json_text, size_t json_length,
                                                const char *origin,
                                                collcalc_link_table **out_table,
                                                collcalc_diag *diag)
{
    return parse_table(json_text, json_length, origin, out_table, diag);
}

/* collcalc_link_table_builtin is in links_builtin.c: it hands out the table
 * cmake/gen_links.c compiles with this loader, so the generator links this
 * file without it. */

void collcalc_link_table_free(collcalc_link_table *table)
{
    if (table != NULL && table->compiled)
        return; /* the built-in table is static */
    collcalc_table_free(table);
}

size_t collcalc_link_table_count(const collcalc_link_table *table)
{
    return collcalc_table_count(table);
}

const collcalc_link *collcalc_link_table_at(const collcalc_link_table *table, size_t index)
{
    return collcalc_table_at(&link_table, table, index);
}

const collcalc_link *collcalc_link_table_find(const collcalc_link_table *table, const char *name)
{
    return collcalc_table_find(&link_table, table, name);
}

collcalc_status collcalc_link_table_lookup(const collcalc_link_table *table, const char *field,
                                const char *name, const collcalc_link **out, collcalc_diag *diag)
{
    const void *found = NULL;
    collcalc_status status = collcalc_table_lookup(&link_table, table, field, name, &found, diag);
    *out = found;
    return status;
}

double collcalc_link_bandwidth_GBps(const collcalc_link *link, collcalc_bw_basis basis)
{
    if (link == NULL)
        return NAN;
    switch (basis) {
    case COLLCALC_BW_PER_DIRECTION: return link->bw_per_direction_GBps;
    case COLLCALC_BW_HEADLINE: return link->headline_GBps;
    }
    return NAN;
}

const char *collcalc_tier_name(collcalc_tier tier)
{
    return collcalc_names_word(tier_words, COUNT_OF(tier_words), (int)tier);
}

const char *collcalc_link_class_name(collcalc_link_class link_class)
{
    return collcalc_names_word(class_words, COUNT_OF(class_words), (int)link_class);
}

const char *collcalc_headline_counts_name(collcalc_headline_counts counts)
{
    return collcalc_names_word(headline_words, COUNT_OF(headline_words), (int)counts);
}

const char *collcalc_bw_basis_name(collcalc_bw_basis basis)
{
    return collcalc_names_word(basis_words, COUNT_OF(basis_words), (int)basis);
}

/* ------------------------------------------------------------ bounds */

/* A figure for a message: whole numbers as integers, others shortest. */
static void figure_text(char *out, size_t size, double value)
{
    if (isfinite(value) && value == floor(value) && fabs(value) < 1e15) {
        snprintf(out, size, "%.0f", value);
        return;
    }
    snprintf(out, size, "%.17g", value);
    for (int precision = 1; precision <= 17; precision++) {
        char attempt[40];
        snprintf(attempt, sizeof attempt, "%.*g", precision, value);
        if (strtod(attempt, NULL) == value) {
            snprintf(out, size, "%s", attempt);
            return;
        }
    }
}

collcalc_status collcalc_link_check_bandwidth_GBps(double GBps, collcalc_diag *diag)
{
    if (isfinite(GBps) && GBps >= COLLCALC_LINK_BW_MIN_GBPS && GBps <= COLLCALC_LINK_BW_MAX_GBPS)
        return COLLCALC_OK;
    char got[40];
    figure_text(got, sizeof got, GBps);
    return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                              "must be between 0.001 and 100000 GB/s (got %s): outside the "
                              "physical bounds of data/README.md",
                              got);
}

collcalc_status collcalc_link_check_alpha_us(double alpha_us, collcalc_diag *diag)
{
    if (alpha_us == 0.0 || (isfinite(alpha_us) && alpha_us >= COLLCALC_LINK_ALPHA_MIN_US &&
                            alpha_us <= COLLCALC_LINK_ALPHA_MAX_US))
        return COLLCALC_OK;
    char got[40];
    figure_text(got, sizeof got, alpha_us);
    return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                              "must be 0 or between 0.000001 and 1000000 us (got %s): outside "
                              "the physical bounds of data/README.md",
                              got);
}

collcalc_status collcalc_link_check_between_gpus(const collcalc_link *link, collcalc_diag *diag)
{
    if (link == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no link");
    if (link->tier == COLLCALC_TIER_ON_PACKAGE || link->link_class == COLLCALC_LINK_CLASS_MEMORY)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "'%s' is a memory tier (%s), not a link between GPUs",
                                  link->name, collcalc_tier_name(link->tier));
    return COLLCALC_OK;
}

/* ----------------------------------------------------------- overlays */

collcalc_status collcalc_link_table_overlay(const collcalc_link_table *base,
                                            const collcalc_link_table *overlay,
                                            collcalc_link_table **out_table,
                                            collcalc_diag *diag)
{
    /* Through a void * rather than a pointer cast; a NULL out_table stays
     * NULL so the helper refuses it. */
    void *table = NULL;
    collcalc_status status = collcalc_table_overlay(&link_table, base, overlay,
                                                    out_table != NULL ? &table : NULL, diag);
    if (out_table != NULL)
        *out_table = table;
    return status;
}

collcalc_entry_origin collcalc_link_table_origin(const collcalc_link_table *table, size_t index)
{
    return collcalc_table_origin(&link_table, table, index);
}

size_t collcalc_link_table_replaced_count(const collcalc_link_table *table)
{
    return collcalc_table_replaced_count(&link_table, table);
}
