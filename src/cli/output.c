/* Table, JSON and CSV rendering of collective results, and --explain. */
#include "output.h"

#include <math.h>
#include <string.h>

#include "collcalc/units.h"

const char *basis_phrase(collcalc_bw_basis basis)
{
    return basis == COLLCALC_BW_HEADLINE
               ? "headline bandwidth (as vendors quote it: NVLink counts both directions)"
               : "per-direction bandwidth";
}

void json_add_number(cJSON *object, const char *name, double value)
{
    if (object == NULL)
        return;
    double rounded = round(value * 1e4) / 1e4;
    cJSON_AddNumberToObject(object, name, isfinite(rounded) ? rounded : 0.0);
}

void json_add_bytes(cJSON *object, const char *name, double bytes)
{
    if (object != NULL)
        cJSON_AddNumberToObject(object, name, isfinite(bytes) ? round(bytes) : 0.0);
}

int json_print_and_free(const cli_settings *settings, cJSON *doc)
{
    char *text = doc != NULL ? cJSON_PrintUnformatted(doc) : NULL;
    cJSON_Delete(doc);
    if (text == NULL)
        return data_error(settings, NULL, "out of memory");
    fputs(text, settings->out);
    fputc('\n', settings->out);
    cJSON_free(text);
    return 0;
}

void csv_field(FILE *out, const char *text, bool last)
{
    if (strpbrk(text, ",\"\n") != NULL) {
        fputc('"', out);
        for (const char *c = text; *c != '\0'; c++) {
            if (*c == '"')
                fputc('"', out);
            fputc(*c, out);
        }
        fputc('"', out);
    } else {
        fputs(text, out);
    }
    fputc(last ? '\n' : ',', out);
}

cJSON *json_query(const cli_settings *settings, const collcalc_query *query)
{
    const collcalc_cluster *cluster = &query->cluster;
    cJSON *object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "op", collcalc_op_name(query->op));
    json_add_bytes(object, "size_bytes", (double)query->size_bytes);
    cJSON_AddNumberToObject(object, "gpus", cluster->gpus);
    bool single = cluster->gpus_per_node >= cluster->gpus;
    if (single) {
        cJSON_AddStringToObject(object, "link", cluster->intra.name);
        json_add_number(object, "link_bw_GBps", cluster->intra.bw_GBps);
        json_add_number(object, "link_alpha_us", cluster->intra.alpha_us);
    } else {
        cJSON_AddNullToObject(object, "link");
        cJSON_AddNumberToObject(object, "gpus_per_node", cluster->gpus_per_node);
        cJSON_AddNumberToObject(object, "nodes", collcalc_cluster_nodes(cluster));
        cJSON_AddNumberToObject(object, "nics_per_node", cluster->nics_per_node);
        cJSON_AddStringToObject(object, "intra_link", cluster->intra.name);
        json_add_number(object, "intra_bw_GBps", cluster->intra.bw_GBps);
        json_add_number(object, "intra_alpha_us", cluster->intra.alpha_us);
        cJSON_AddStringToObject(object, "inter_link", cluster->inter.name);
        json_add_number(object, "inter_bw_GBps", cluster->inter.bw_GBps);
        json_add_number(object, "inter_alpha_us", cluster->inter.alpha_us);
    }
    cJSON_AddBoolToObject(object, "nvls", cluster->nvls_intra);
    cJSON_AddBoolToObject(object, "sharp", cluster->sharp_inter);
    cJSON_AddStringToObject(object, "bw_basis", collcalc_bw_basis_name(settings->basis));
    cJSON_AddNumberToObject(object, "layers", (double)settings->layers);
    cJSON_AddNumberToObject(object, "per_layer", (double)settings->per_layer);
    return object;
}

cJSON *json_result(const cli_settings *settings, const collcalc_result *r, bool fastest)
{
    double repeat = (double)settings->layers * (double)settings->per_layer;
    cJSON *object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "algorithm", collcalc_algo_name(r->algo));
    cJSON_AddBoolToObject(object, "fastest", fastest);
    cJSON_AddBoolToObject(object, "in_nccl", collcalc_algo_in_nccl(r->op, r->algo));
    cJSON_AddNumberToObject(object, "nodes", r->nodes);
    cJSON_AddNumberToObject(object, "steps", (double)r->steps);
    json_add_bytes(object, "bytes_sent_per_gpu", r->bytes_sent_per_gpu);
    json_add_bytes(object, "bytes_received_per_gpu", r->bytes_received_per_gpu);
    cJSON_AddBoolToObject(object, "others_differ", r->others_differ);
    json_add_bytes(object, "bytes_sent_other_gpu", r->bytes_sent_other_gpu);
    json_add_bytes(object, "bytes_received_other_gpu", r->bytes_received_other_gpu);
    json_add_number(object, "latency_us", r->latency_us);
    json_add_number(object, "bandwidth_us", r->bandwidth_us);
    json_add_number(object, "time_us", r->time_us);
    json_add_number(object, "algbw_GBps", r->algbw_GBps);
    json_add_number(object, "busbw_factor", r->busbw_factor);
    json_add_number(object, "busbw_GBps", r->busbw_GBps);
    cJSON_AddStringToObject(object, "dominant", collcalc_dominant_name(r->dominant));
    json_add_number(object, "total_latency_us", r->latency_us * repeat);
    json_add_number(object, "total_bandwidth_us", r->bandwidth_us * repeat);
    json_add_number(object, "total_time_us", r->time_us * repeat);
    cJSON_AddStringToObject(object, "note", r->note);
    cJSON *phases = cJSON_AddArrayToObject(object, "phases");
    for (int i = 0; i < r->phase_count; i++) {
        const collcalc_phase *ph = &r->phases[i];
        cJSON *phase = cJSON_CreateObject();
        cJSON_AddStringToObject(phase, "label", ph->label);
        cJSON_AddStringToObject(phase, "link", ph->link);
        cJSON_AddStringToObject(phase, "scope", collcalc_scope_name(ph->scope));
        cJSON_AddNumberToObject(phase, "stage", ph->stage);
        cJSON_AddNumberToObject(phase, "steps", (double)ph->steps);
        json_add_number(phase, "alpha_us", ph->alpha_us);
        json_add_bytes(phase, "bytes_sent", ph->bytes_sent);
        json_add_bytes(phase, "bytes_received", ph->bytes_received);
        json_add_number(phase, "bw_GBps", ph->bw_GBps);
        json_add_number(phase, "efficiency", ph->efficiency);
        json_add_number(phase, "latency_us", ph->latency_us);
        json_add_number(phase, "bandwidth_us", ph->bandwidth_us);
        json_add_number(phase, "time_us", ph->time_us);
        cJSON_AddStringToObject(phase, "note", ph->note);
        cJSON_AddItemToArray(phases, phase);
    }
    return object;
}

static const char *const CSV_COLUMNS =
    "op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,"
    "bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,"
    "layers,total_time_us,phases";

static void csv_result(FILE *out, const cli_settings *settings, const collcalc_result *r,
                       bool fastest)
{
    double repeat = (double)settings->layers * (double)settings->per_layer;
    fprintf(out, "%s,%s,%s,%d,%d,%llu,%s,%ld,%.0f,%.0f,%.4f,%.4f,%.4f,%.4f,%.4f,%s,%ld,%.4f,",
            collcalc_op_name(r->op), collcalc_algo_name(r->algo), fastest ? "true" : "false",
            r->gpus, r->nodes, (unsigned long long)r->size_bytes,
            collcalc_bw_basis_name(settings->basis), r->steps, r->bytes_sent_per_gpu,
            r->bytes_received_per_gpu, r->latency_us, r->bandwidth_us, r->time_us, r->algbw_GBps,
            r->busbw_GBps, collcalc_dominant_name(r->dominant), settings->layers * settings->per_layer,
            r->time_us * repeat);
    char phases[1024] = "";
    size_t used = 0;
    for (int i = 0; i < r->phase_count && used < sizeof phases; i++)
        used += (size_t)snprintf(phases + used, sizeof phases - used, "%s%s x%ld on %s",
                                 i ? "; " : "", r->phases[i].label, r->phases[i].steps,
                                 r->phases[i].link);
    csv_field(out, phases, true);
}

void explain_result(FILE *out, const collcalc_result *r)
{
    char a[32], b[32], c[32], d[32], e[32];
    fprintf(out, "\n%s %s:\n", collcalc_algo_name(r->algo), collcalc_op_title(r->op));
    for (int i = 0; i < r->phase_count; i++) {
        const collcalc_phase *ph = &r->phases[i];
        bool concurrent = (i > 0 && r->phases[i - 1].stage == ph->stage);
        fprintf(out, "  %d. %s on %s%s\n", i + 1, ph->label, ph->link,
                concurrent ? " (at the same time as the previous phase; the slower counts)" : "");
        fprintf(out, "     latency:   %ld step%s x %g us = %s\n", ph->steps, ph->steps == 1 ? "" : "s",
                ph->alpha_us, collcalc_format_time_us(a, sizeof a, ph->latency_us));
        fprintf(out, "     bandwidth: max(%s out, %s in) / %s = %s\n",
                collcalc_format_bytes_si(b, sizeof b, ph->bytes_sent),
                collcalc_format_bytes_si(c, sizeof c, ph->bytes_received),
                collcalc_format_bandwidth_GBps(d, sizeof d, ph->bw_GBps),
                collcalc_format_time_us(e, sizeof e, ph->bandwidth_us));
        if (ph->note[0] != '\0')
            fprintf(out, "     (%s)\n", ph->note);
    }
    if (r->phase_count == 0)
        fprintf(out, "  no phases: nothing to move\n");
    double share = r->time_us > 0 ? 100.0 * (r->dominant == COLLCALC_DOMINANT_LATENCY
                                                 ? r->latency_us
                                                 : r->bandwidth_us) / r->time_us
                                  : 0.0;
    fprintf(out, "  total: latency %s + bandwidth %s = %s", collcalc_format_time_us(a, sizeof a, r->latency_us),
            collcalc_format_time_us(b, sizeof b, r->bandwidth_us),
            collcalc_format_time_us(c, sizeof c, r->time_us));
    if (r->dominant != COLLCALC_DOMINANT_NONE)
        fprintf(out, " (%s dominates, %.0f%%)", collcalc_dominant_name(r->dominant), share);
    fputc('\n', out);
    if (r->time_us > 0)
        fprintf(out, "  algbw = %s / %s = %s; busbw = algbw x %.4g = %s\n",
                collcalc_format_bytes_si(a, sizeof a, (double)r->size_bytes),
                collcalc_format_time_us(b, sizeof b, r->time_us),
                collcalc_format_bandwidth_GBps(c, sizeof c, r->algbw_GBps), r->busbw_factor,
                collcalc_format_bandwidth_GBps(d, sizeof d, r->busbw_GBps));
    if (r->note[0] != '\0')
        fprintf(out, "  note: %s\n", r->note);
}

static void table_header(FILE *out, const cli_settings *settings, const collcalc_query *query)
{
    char size_si[32], size_exact[40], cluster[256];
    describe_cluster(&query->cluster, cluster, sizeof cluster);
    fprintf(out, "%s of %s (%s bytes) on %s\n", collcalc_op_title(query->op),
            collcalc_format_bytes_si(size_si, sizeof size_si, (double)query->size_bytes),
            collcalc_format_grouped_u64(size_exact, sizeof size_exact, query->size_bytes), cluster);
    const collcalc_cluster *c = &query->cluster;
    bool single = c->gpus_per_node >= c->gpus;
    char bw[32], bw2[32];
    if (single || collcalc_cluster_nodes(c) == 1)
        fprintf(out, "link %s: %s, alpha %g us per step; %s\n", c->intra.name,
                collcalc_format_bandwidth_GBps(bw, sizeof bw, c->intra.bw_GBps), c->intra.alpha_us,
                basis_phrase(settings->basis));
    else
        fprintf(out, "intra %s: %s, alpha %g us; inter %s: %s per NIC, alpha %g us; %s\n",
                c->intra.name, collcalc_format_bandwidth_GBps(bw, sizeof bw, c->intra.bw_GBps),
                c->intra.alpha_us, c->inter.name,
                collcalc_format_bandwidth_GBps(bw2, sizeof bw2, c->inter.bw_GBps),
                c->inter.alpha_us, basis_phrase(settings->basis));
}

/* Index of the fastest result among the algorithms NCCL runs, or count
 * when there is none. */
static size_t fastest_in_nccl(const collcalc_result *results, size_t count)
{
    size_t best = count;
    for (size_t i = 0; i < count; i++)
        if (collcalc_algo_in_nccl(results[i].op, results[i].algo) &&
            (best == count || results[i].time_us < results[best].time_us))
            best = i;
    return best;
}

static int table_results(const cli_settings *settings, const collcalc_query *query,
                         const collcalc_result *results, size_t count, size_t fastest)
{
    size_t nccl_best = fastest_in_nccl(results, count);
    FILE *out = settings->out;
    table_header(out, settings, query);
    fprintf(out, "\n%-19s %4s %6s %10s %10s %10s %10s %10s %11s %11s  %s\n", "algorithm", "nccl",
            "steps", "sent/GPU", "recv/GPU", "latency", "bandwidth", "time", "algbw", "busbw",
            "dominant");
    for (size_t i = 0; i < count; i++) {
        const collcalc_result *r = &results[i];
        char sent[32], recv[32], lat[32], bwt[32], time[32], alg[32], bus[32];
        fprintf(out, "%-19s %4s %6ld %10s %10s %10s %10s %10s %11s %11s  %s%s\n",
                collcalc_algo_name(r->algo), collcalc_algo_in_nccl(r->op, r->algo) ? "yes" : "-",
                r->steps,
                collcalc_format_bytes_si(sent, sizeof sent, r->bytes_sent_per_gpu),
                collcalc_format_bytes_si(recv, sizeof recv, r->bytes_received_per_gpu),
                collcalc_format_time_us(lat, sizeof lat, r->latency_us),
                collcalc_format_time_us(bwt, sizeof bwt, r->bandwidth_us),
                collcalc_format_time_us(time, sizeof time, r->time_us),
                collcalc_format_bandwidth_GBps(alg, sizeof alg, r->algbw_GBps),
                collcalc_format_bandwidth_GBps(bus, sizeof bus, r->busbw_GBps),
                collcalc_dominant_name(r->dominant),
                count < 2         ? ""
                : i == fastest    ? "  <- fastest"
                : i == nccl_best  ? "  <- fastest NCCL runs"
                                  : "");
    }
    for (size_t i = 0; i < count; i++) {
        const collcalc_result *r = &results[i];
        if (!r->others_differ)
            continue;
        char sent[32], recv[32], total[32], other[32], busy_in[32], busy_out[32];
        fprintf(out,
                "%s: the busiest GPU moves %s (%s in + %s out); every other GPU moves %s (%s in + "
                "%s out)\n",
                collcalc_algo_name(r->algo),
                collcalc_format_bytes_si(total, sizeof total,
                                         r->bytes_sent_per_gpu + r->bytes_received_per_gpu),
                collcalc_format_bytes_si(busy_in, sizeof busy_in, r->bytes_received_per_gpu),
                collcalc_format_bytes_si(busy_out, sizeof busy_out, r->bytes_sent_per_gpu),
                collcalc_format_bytes_si(other, sizeof other,
                                         r->bytes_sent_other_gpu + r->bytes_received_other_gpu),
                collcalc_format_bytes_si(recv, sizeof recv, r->bytes_received_other_gpu),
                collcalc_format_bytes_si(sent, sizeof sent, r->bytes_sent_other_gpu));
    }
    long repeat = settings->layers * settings->per_layer;
    if (repeat > 1) {
        fprintf(out, "\nx %ld (%ld layer%s x %ld per layer):\n", repeat, settings->layers,
                settings->layers == 1 ? "" : "s", settings->per_layer);
        for (size_t i = 0; i < count; i++) {
            const collcalc_result *r = &results[i];
            char lat[32], bwt[32], time[32];
            fprintf(out, "%-19s latency %s + bandwidth %s = %s\n", collcalc_algo_name(r->algo),
                    collcalc_format_time_us(lat, sizeof lat, r->latency_us * (double)repeat),
                    collcalc_format_time_us(bwt, sizeof bwt, r->bandwidth_us * (double)repeat),
                    collcalc_format_time_us(time, sizeof time, r->time_us * (double)repeat));
        }
    }
    if (settings->explain)
        for (size_t i = 0; i < count; i++)
            explain_result(out, &results[i]);
    else
        for (size_t i = 0; i < count; i++)
            if (results[i].note[0] != '\0' && count == 1)
                fprintf(out, "note: %s\n", results[i].note);
    return 0;
}

int output_results(const cli_settings *settings, const collcalc_query *query,
                   const collcalc_result *results, size_t count, size_t fastest)
{
    switch (settings->format) {
    case FORMAT_TABLE:
        return table_results(settings, query, results, count, fastest);
    case FORMAT_CSV:
        fprintf(settings->out, "%s\n", CSV_COLUMNS);
        for (size_t i = 0; i < count; i++)
            csv_result(settings->out, settings, &results[i], i == fastest);
        return 0;
    case FORMAT_JSON: {
        cJSON *doc = cJSON_CreateObject();
        cJSON_AddItemToObject(doc, "query", json_query(settings, query));
        cJSON *array = cJSON_AddArrayToObject(doc, "results");
        for (size_t i = 0; i < count; i++)
            cJSON_AddItemToArray(array, json_result(settings, &results[i], i == fastest));
        return json_print_and_free(settings, doc);
    }
    }
    return 0;
}
