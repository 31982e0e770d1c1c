/* links' document: the link table and the bandwidth cliff between
 * adjacent tiers along a path (links_doc.h). */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include "links_doc.h"

#include <stdio.h>
#include <string.h>

#include "collcalc/units.h"
#include "helpers.h"
#include "report.h"
#include "tables_doc.h"

static double stop_bw(const path_stop *stop, collcalc_bw_basis basis, bool high)
{
    return collcalc_link_bandwidth_GBps(high ? stop->high : stop->low, basis);
}

/* Ratio range between two stops: (min, max) of from/to. */
static void stop_ratio(const path_stop *from, const path_stop *to, collcalc_bw_basis basis,
                       double *out_min, double *out_max)
{
    double a = stop_bw(from, basis, false);
    double b = stop_bw(from, basis, true);
    double c = stop_bw(to, basis, false), d = stop_bw(to, basis, true);
    double candidates[4] = {a / c, a / d, b / c, b / d};
    *out_min = *out_max = candidates[0];
    for (int i = 1; i < 4; i++) {
        if (candidates[i] < *out_min)
            *out_min = candidates[i];
        if (candidates[i] > *out_max)
            *out_max = candidates[i];
    }
}

static bool crosses_node_boundary(const path_stop *from, const path_stop *to)
{
    return from->low->tier <= COLLCALC_TIER_SCALE_UP && to->low->tier > COLLCALC_TIER_SCALE_UP;
}

/* The GPU-to-GPU cliff: the first scale-up stop against the first
 * scale-out stop, when the path has both. */
static bool find_cliff(const path_stop *stops, int count, int *out_up, int *out_out)
{
    *out_up = *out_out = -1;
    for (int i = 0; i < count; i++) {
        if (*out_up < 0 && stops[i].low->tier == COLLCALC_TIER_SCALE_UP)
            *out_up = i;
        if (*out_out < 0 && stops[i].low->tier == COLLCALC_TIER_SCALE_OUT)
            *out_out = i;
    }
    return *out_up >= 0 && *out_out >= 0;
}

static void format_ratio(char *buffer, size_t size, double low, double high)
{
    if (high / low < 1.005)
        snprintf(buffer, size, "%.3gx", low);
    else
        snprintf(buffer, size, "%.3g-%.3gx", low, high);
}

static void format_stop_bw(char *buffer, size_t size, const path_stop *stop, collcalc_bw_basis basis)
{
    char a[32], b[32];
    if (stop->low == stop->high)
        snprintf(buffer, size, "%s", collcalc_format_bandwidth_GBps(a, sizeof a, stop_bw(stop, basis, false)));
    else
        snprintf(buffer, size, "%s-%s", collcalc_format_bandwidth_GBps(a, sizeof a, stop_bw(stop, basis, false)),
                 collcalc_format_bandwidth_GBps(b, sizeof b, stop_bw(stop, basis, true)));
}


static const record_column LINK_COLUMNS[] = {
    {"name", "link", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"aliases", "aliases", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"tier", "tier", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"class", "class", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"bw_per_direction_GBps", "per-dir", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"headline_GBps", "headline", FIELD_GBPS, COLUMN_BOTH, NULL},
    {"headline_counts", "headline counts", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"bw_GBps", "bandwidth used", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"alpha_us", "alpha", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"p2p_efficiency", "p2p efficiency", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"description", "description", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"bw_source", "bandwidth source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"headline_source", "headline source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"alpha_source", "alpha source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"p2p_efficiency_source", "p2p efficiency source", FIELD_TEXT, COLUMN_MACHINE, NULL},
};
static const record_schema LINK_SCHEMA = {"links", sizeof LINK_COLUMNS / sizeof LINK_COLUMNS[0],
                                          LINK_COLUMNS};

static const record_column CLIFF_COLUMNS[] = {
    {"from", "from", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"from_bw", "bandwidth", FIELD_TEXT, COLUMN_TABLE | COLUMN_LEFT, NULL},
    {"to", "to", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"to_bw", "bandwidth", FIELD_TEXT, COLUMN_TABLE | COLUMN_LEFT, NULL},
    {"from_min_GBps", "from min", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"from_max_GBps", "from max", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"to_min_GBps", "to min", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"to_max_GBps", "to max", FIELD_GBPS, COLUMN_MACHINE, NULL},
    {"ratio", "ratio", FIELD_TEXT, COLUMN_TABLE, NULL},
    {"ratio_min", "ratio min", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"ratio_max", "ratio max", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"node_boundary", "node boundary", FIELD_BOOL, COLUMN_MACHINE, NULL},
};
static const record_schema CLIFF_SCHEMA = {"cliff", sizeof CLIFF_COLUMNS / sizeof CLIFF_COLUMNS[0],
                                           CLIFF_COLUMNS};

static const record_column SUMMARY_COLUMNS[] = {
    {"scale_up", "scale-up", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"scale_out", "scale-out", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"ratio_headline", "headline", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"ratio_per_direction", "per direction", FIELD_NUMBER, COLUMN_MACHINE, NULL},
};
static const record_schema SUMMARY_SCHEMA = {"scale_up_vs_scale_out", 4, SUMMARY_COLUMNS};

void links_doc_table(document *doc, const collcalc_link_table *links, collcalc_bw_basis basis)
{
    record_set *set = doc_records(doc, &LINK_SCHEMA);
    for (size_t i = 0; i < collcalc_link_table_count(links); i++) {
        const collcalc_link *link = collcalc_link_table_at(links, i);
        char aliases[DOC_ALIASES_TEXT];
        doc_aliases_text(aliases, link->aliases);
        record_begin(set);
        record_text(set, "name", link->name);
        record_text(set, "aliases", aliases);
        record_text(set, "tier", collcalc_tier_name(link->tier));
        record_text(set, "class", collcalc_link_class_name(link->link_class));
        record_number(set, "bw_per_direction_GBps", link->bw_per_direction_GBps);
        record_number(set, "headline_GBps", link->headline_GBps);
        record_text(set, "headline_counts", collcalc_headline_counts_name(link->headline_counts));
        record_number(set, "bw_GBps", collcalc_link_bandwidth_GBps(link, basis));
        if (link->link_class != COLLCALC_LINK_CLASS_MEMORY)
            record_number(set, "alpha_us", link->alpha_us);
        if (link->p2p_efficiency > 0.0)
            record_number(set, "p2p_efficiency", link->p2p_efficiency);
        record_text(set, "description", link->description);
        record_text(set, "bw_source", link->bw_source);
        record_text(set, "headline_source", link->headline_source);
        record_text(set, "alpha_source", link->alpha_source);
        record_text(set, "p2p_efficiency_source", link->p2p_efficiency_source);
    }
}

void links_doc_cliff(document *doc, const path_stop *stops, int count, collcalc_bw_basis basis)
{
    doc_text(doc, "Bandwidth cliff, %s:", report_basis_phrase(basis));
    record_set *set = doc_records(doc, &CLIFF_SCHEMA);
    for (int i = 0; i + 1 < count; i++) {
        double low, high;
        char ratio[48], from_bw[64], to_bw[64];
        stop_ratio(&stops[i], &stops[i + 1], basis, &low, &high);
        format_ratio(ratio, sizeof ratio, low, high);
        format_stop_bw(from_bw, sizeof from_bw, &stops[i], basis);
        format_stop_bw(to_bw, sizeof to_bw, &stops[i + 1], basis);
        record_begin(set);
        record_text(set, "from", stops[i].label);
        record_text(set, "from_bw", from_bw);
        record_text(set, "to", stops[i + 1].label);
        record_text(set, "to_bw", to_bw);
        record_number(set, "from_min_GBps", stop_bw(&stops[i], basis, false));
        record_number(set, "from_max_GBps", stop_bw(&stops[i], basis, true));
        record_number(set, "to_min_GBps", stop_bw(&stops[i + 1], basis, false));
        record_number(set, "to_max_GBps", stop_bw(&stops[i + 1], basis, true));
        record_text(set, "ratio", ratio);
        record_number(set, "ratio_min", low);
        record_number(set, "ratio_max", high);
        bool boundary = crosses_node_boundary(&stops[i], &stops[i + 1]);
        record_bool(set, "node_boundary", boundary);
        if (boundary)
            records_mark(set, record_count(set) - 1, "<- node boundary");
    }
    int up, down;
    if (!find_cliff(stops, count, &up, &down))
        return;
    double head_low, head_high, dir_low, dir_high;
    stop_ratio(&stops[up], &stops[down], COLLCALC_BW_HEADLINE, &head_low, &head_high);
    stop_ratio(&stops[up], &stops[down], COLLCALC_BW_PER_DIRECTION, &dir_low, &dir_high);
    char head[48], dir[48];
    format_ratio(head, sizeof head, head_low, head_high);
    format_ratio(dir, sizeof dir, dir_low, dir_high);
    doc_text(doc, "%s", "");
    doc_text(doc,
             "GPU to GPU, inside the node (%s) vs across nodes (%s): %s headline, %s per direction",
             stops[up].label, stops[down].label, head, dir);
    record_set *summary = doc_records(doc, &SUMMARY_SCHEMA);
    record_begin(summary);
    record_text(summary, "scale_up", stops[up].label);
    record_text(summary, "scale_out", stops[down].label);
    record_number(summary, "ratio_headline", head_low);
    record_number(summary, "ratio_per_direction", dir_low);
}


bool links_doc_parse_path(const collcalc_link_table *links, const char *text, path_stop *stops,
                          int max, int *out_count, char *why, size_t size)
{
    char buffer[512];
    if (strlen(text) >= sizeof buffer) {
        snprintf(why, size, "too long");
        return false;
    }
    strcpy(buffer, text);
    int count = 0;
    char *save = NULL;
    for (char *item = strtok_r(buffer, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save)) {
        if (count >= max) {
            snprintf(why, size, "at most %d stops", max);
            return false;
        }
        char *bar = strchr(item, '|');
        if (bar != NULL)
            *bar = '\0';
        const char *names[2] = {item, bar != NULL ? bar + 1 : item};
        const collcalc_link *found[2];
        for (int k = 0; k < 2; k++) {
            found[k] = collcalc_link_table_find(links, names[k]);
            if (found[k] == NULL) {
                char shown[COLLCALC_ECHO_BUFFER];
                collcalc_echo(shown, sizeof shown, names[k]);
                snprintf(why, size, "unknown link '%s' (see 'collcalc links')", shown);
                return false;
            }
        }
        path_stop *stop = &stops[count++];
        stop->low = found[0];
        stop->high = found[1];
        if (bar != NULL)
            snprintf(stop->label, sizeof stop->label, "%s|%s", found[0]->name, found[1]->name);
        else
            snprintf(stop->label, sizeof stop->label, "%s", found[0]->name);
    }
    if (count < 2) {
        snprintf(why, size, "needs at least two links");
        return false;
    }
    *out_count = count;
    return true;
}

void links_doc_platform_path(const collcalc_platform *platform, char *path, size_t size)
{
    const char *tiers[] = {platform->memory_link, platform->intra_link, platform->host_link,
                           platform->inter_link};
    size_t used = 0;
    path[0] = '\0';
    for (size_t i = 0; i < 4; i++)
        if (tiers[i][0] != '\0' && used < size)
            used += (size_t)snprintf(path + used, size - used, "%s%s", used > 0 ? "," : "",
                                     tiers[i]);
}
