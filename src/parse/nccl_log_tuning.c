/* NCCL's TUNING table and per-size choices set beside collcalc's model of
 * the same system (collcalc/nccl_log.h, collcalc_nccl_log_compare_tuning).
 * The table prints, per collective, algorithm and protocol, NCCL's latency
 * (us) and algorithm bandwidth (GB/s: busBw x ratio, what time = nBytes /
 * bandwidth uses); the model's candidates carry the same two figures
 * (collcalc_nccl_candidate.latency_us, alg_bw_GBps). */
#include "collcalc/nccl_log.h"

#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "text_lines.h"

/* names[i] for the name word spells (text_squeeze: "COLLNET_DIRECT" is
 * CollNetDirect); -1 when none. */
static int lookup(const char *word, const char *const *names, int count)
{
    char a[32], b[32];
    text_squeeze(a, sizeof a, word);
    for (int i = 0; i < count; i++) {
        text_squeeze(b, sizeof b, names[i]);
        if (strcmp(a, b) == 0)
            return i;
    }
    return -1;
}

/* NCCL's names, in its enum orders (the model's: collcalc/nccl_model.h). */
static const char *const FUNCS[] = {"Broadcast", "Reduce", "AllGather", "ReduceScatter",
                                    "AllReduce"};
static const char *const ALGOS[] = {"Tree", "Ring", "CollNetDirect", "CollNetChain",
                                    "NVLS", "NVLSTree", "PAT"};
static const char *const PROTOS[] = {"LL", "LL128", "Simple"};

static int func_of(const char *op)
{
    return lookup(op, FUNCS, (int)(sizeof FUNCS / sizeof FUNCS[0]));
}

static bool apart(double a, double b)
{
    if (a <= 0.0 || b <= 0.0)
        return (a > 0.0) != (b > 0.0);
    double r = a / b;
    return r > COLLCALC_NCCL_TUNING_APART || r < 1.0 / COLLCALC_NCCL_TUNING_APART;
}

/* The model's prediction of func at size (cached per function). */
typedef struct {
    bool have[COLLCALC_NCCL_NUM_FUNCS];
    collcalc_nccl_prediction at_large[COLLCALC_NCCL_NUM_FUNCS];
} model_cache;

static collcalc_status predict(const collcalc_nccl_system *system,
                               const collcalc_nccl_constants *constants,
                               const collcalc_nccl_options *options, int func, uint64_t bytes,
                               collcalc_nccl_prediction *out, collcalc_diag *diag)
{
    return collcalc_nccl_predict(system, constants, options, (collcalc_nccl_func)func, bytes, out,
                                 diag);
}

static void choice_text(char *out, size_t cap, const collcalc_nccl_candidate *c)
{
    if (c == NULL)
        snprintf(out, cap, "(nothing runs)");
    else
        snprintf(out, cap, "%s/%s", collcalc_nccl_algo_name(c->algo),
                 collcalc_nccl_proto_name(c->proto));
}

static collcalc_status compare_cells(const collcalc_nccl_log *log,
                                     const collcalc_nccl_system *system,
                                     const collcalc_nccl_constants *constants,
                                     const collcalc_nccl_options *options, model_cache *cache,
                                     collcalc_nccl_tuning_comparison *out, collcalc_diag *diag)
{
    for (int i = 0; i < log->tuning_cell_count; i++) {
        const collcalc_nccl_tuning_cell *cell = &log->tuning_cells[i];
        collcalc_nccl_tuning_pair *pair = &out->cells[out->cell_count++];
        text_copy(pair->op, sizeof pair->op, cell->op);
        text_copy(pair->algorithm, sizeof pair->algorithm, cell->algorithm);
        text_copy(pair->protocol, sizeof pair->protocol, cell->protocol);
        pair->nccl_latency_us = cell->latency_us;
        pair->nccl_bw_GBps = cell->bw_GBps;
        pair->line = cell->line;
        int func = func_of(cell->op);
        int algo = lookup(cell->algorithm, ALGOS, (int)(sizeof ALGOS / sizeof ALGOS[0]));
        int proto = lookup(cell->protocol, PROTOS, (int)(sizeof PROTOS / sizeof PROTOS[0]));
        if (func < 0 || algo < 0 || proto < 0)
            continue;
        pair->known = true;
        if (!cache->have[func]) {
            collcalc_status status = predict(system, constants, options, func, 1ull << 30,
                                             &cache->at_large[func], diag);
            if (status != COLLCALC_OK)
                return status;
            cache->have[func] = true;
        }
        const collcalc_nccl_candidate *c =
            &cache->at_large[func].candidates[algo * COLLCALC_NCCL_NUM_PROTOS + proto];
        pair->model_runs = c->unavailable == COLLCALC_NCCL_OK;
        pair->model_latency_us = pair->model_runs ? c->latency_us : 0.0;
        pair->model_bw_GBps = pair->model_runs ? c->alg_bw_GBps : 0.0;
        bool nccl_runs = cell->bw_GBps > 0.0;
        pair->differs = nccl_runs != pair->model_runs ||
                        (nccl_runs && (apart(pair->model_bw_GBps, cell->bw_GBps) ||
                                       apart(pair->model_latency_us, cell->latency_us)));
        if (pair->differs)
            out->cells_differ++;
    }
    return COLLCALC_OK;
}

static collcalc_status compare_choices(const collcalc_nccl_log *log,
                                       const collcalc_nccl_system *system,
                                       const collcalc_nccl_constants *constants,
                                       const collcalc_nccl_options *options,
                                       collcalc_nccl_tuning_comparison *out, collcalc_diag *diag)
{
    collcalc_nccl_prediction *prediction = collcalc_mem_calloc(1, sizeof *prediction);
    if (prediction == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");
    collcalc_status status = COLLCALC_OK;
    for (int i = 0; i < log->choice_count && status == COLLCALC_OK; i++) {
        const collcalc_nccl_choice *choice = &log->choices[i];
        collcalc_nccl_choice_pair *pair = &out->choices[out->choice_count++];
        text_copy(pair->op, sizeof pair->op, choice->op);
        pair->bytes = choice->bytes;
        pair->line = choice->line;
        snprintf(pair->nccl_choice, sizeof pair->nccl_choice, "%s/%s", choice->algorithm_name,
                 choice->protocol_name);
        int func = func_of(choice->op);
        if (func < 0 || choice->bytes <= 0 || choice->algorithm < 0 || choice->protocol < 0)
            continue;
        status = predict(system, constants, options, func, (uint64_t)choice->bytes, prediction,
                         diag);
        if (status != COLLCALC_OK)
            break;
        const collcalc_nccl_candidate *c = collcalc_nccl_selected(prediction);
        pair->known = true;
        choice_text(pair->model_choice, sizeof pair->model_choice, c);
        pair->same = c != NULL && (int)c->algo == choice->algorithm &&
                     (int)c->proto == choice->protocol;
        if (!pair->same)
            out->choices_differ++;
    }
    collcalc_mem_free(prediction);
    return status;
}


static void add_finding(const collcalc_nccl_tuning_comparison *cmp, collcalc_findings *findings)
{
    char text[COLLCALC_FINDING_TEXT_MAX] = "";
    int shown = 0;
    for (int i = 0; i < cmp->choice_count && shown < 4; i++) {
        const collcalc_nccl_choice_pair *p = &cmp->choices[i];
        if (!p->known || p->same)
            continue;
        char size[24];
        text_format_size(size, sizeof size, p->bytes);
        text_append(text, sizeof text, "%s%s %s: NCCL %s, model %s", shown ? "; " : "", p->op,
                    size, p->nccl_choice, p->model_choice);
        shown++;
    }
    int cells_shown = 0;
    for (int i = 0; i < cmp->cell_count && cells_shown < 3; i++) {
        const collcalc_nccl_tuning_pair *p = &cmp->cells[i];
        if (!p->known || !p->differs)
            continue;
        text_append(text, sizeof text, "%s%s %s/%s: NCCL %.1f us %.1f GB/s, model %.1f us %.1f GB/s",
                    shown + cells_shown ? "; " : "", p->op, p->algorithm, p->protocol,
                    p->nccl_latency_us, p->nccl_bw_GBps, p->model_latency_us, p->model_bw_GBps);
        cells_shown++;
    }
    int known_choices = 0, known_cells = 0;
    for (int i = 0; i < cmp->choice_count; i++)
        known_choices += cmp->choices[i].known;
    for (int i = 0; i < cmp->cell_count; i++)
        known_cells += cmp->cells[i].known;
    collcalc_finding *f;
    if (cmp->choices_differ == 0 && cmp->cells_differ == 0)
        f = collcalc_findings_add(findings, COLLCALC_SEVERITY_INFO, "nccl-tuning-vs-model", NULL,
                                  "NCCL's tuning agrees with collcalc's model of this system: "
                                  "%d of %d choices the same, %d table cells within %.0f%%.",
                                  known_choices, cmp->choice_count, known_cells,
                                  100.0 * (COLLCALC_NCCL_TUNING_APART - 1.0));
    else
        f = collcalc_findings_add(
            findings, COLLCALC_SEVERITY_INFO, "nccl-tuning-vs-model",
            "Check the platform given is the machine (GPU, NICs, transport); a choice NCCL makes "
            "that the model does not is where its tuning inputs differ (channels, bandwidths, "
            "NCCL_* variables).",
            "NCCL's tuning differs from collcalc's model of this system: %d of %d choices and %d of "
            "%d table cells (latency or bandwidth apart by more than %.0f%%): %s.",
            cmp->choices_differ, known_choices, cmp->cells_differ, known_cells,
            100.0 * (COLLCALC_NCCL_TUNING_APART - 1.0), text);
    for (int i = 0; i < cmp->choice_count && f != NULL; i++)
        if (cmp->choices[i].known && !cmp->choices[i].same)
            collcalc_finding_add_line(f, cmp->choices[i].line);
    for (int i = 0; i < cmp->cell_count && f != NULL; i++)
        if (cmp->cells[i].differs)
            collcalc_finding_add_line(f, cmp->cells[i].line);
}

collcalc_status collcalc_nccl_log_compare_tuning(const collcalc_nccl_log *log,
                                                 const collcalc_nccl_system *system,
                                                 const collcalc_nccl_constants *constants,
                                                 const collcalc_nccl_options *options,
                                                 collcalc_nccl_tuning_comparison *out,
                                                 collcalc_findings *findings, collcalc_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (log == NULL || system == NULL || constants == NULL || options == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no log or no system to compare");
    model_cache *cache = collcalc_mem_calloc(1, sizeof *cache);
    if (cache == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");
    collcalc_status status = compare_cells(log, system, constants, options, cache, out, diag);
    collcalc_mem_free(cache);
    if (status == COLLCALC_OK)
        status = compare_choices(log, system, constants, options, out, diag);
    if (status == COLLCALC_OK && findings != NULL && (out->cell_count > 0 || out->choice_count > 0))
        add_finding(out, findings);
    return status;
}
