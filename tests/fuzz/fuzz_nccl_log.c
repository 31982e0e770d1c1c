/* libFuzzer target for the NCCL_DEBUG log reader: any bytes, fed whole and
 * again split at an arbitrary point, leave the bounded state in bounds and
 * give sorted, valid findings, or the one "not an NCCL_DEBUG log" refusal. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int condition)
{
    if (!condition)
        abort();
}

static void require_text(const char *text, size_t cap)
{
    require(memchr(text, '\0', cap) != NULL);
}

static void require_lines(const long *lines, int count, int cap)
{
    require(count >= 0 && count <= cap);
    for (int k = 0; k < count; k++)
        require(lines[k] > 0);
}

static void check_facts(const collcalc_nccl_log *log)
{
    const collcalc_nccl_fact *facts[] = {
        &log->version,     &log->cuda_driver,  &log->net_plugin, &log->plugin_env,
        &log->network,     &log->ib_devices,   &log->ib_none,    &log->verbs_missing,
        &log->socket_if,   &log->bootstrap_if, &log->ofi_provider, &log->gdr_disabled,
        &log->gdr_enabled, &log->p2p_type};
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
        require_text(facts[i]->text, sizeof facts[i]->text);
        require(facts[i]->line >= 0 && facts[i]->line <= log->last_line);
    }
    require_text(log->plugin_fail_text, sizeof log->plugin_fail_text);
    require_text(log->first_other_warn, sizeof log->first_other_warn);
}

static void check_lists(const collcalc_nccl_log *log)
{
    require(log->host_count >= 0 && log->host_count <= COLLCALC_NCCL_HOSTS_MAX);
    for (int i = 0; i < log->host_count; i++) {
        require_text(log->hosts[i], sizeof log->hosts[i]);
        require(log->hosts[i][0] != '\0');
    }
    require(log->rank_count >= 0 && log->rank_count <= COLLCALC_NCCL_RANKS_MAX);
    for (int i = 0; i < log->rank_count; i++)
        require(log->ranks[i].host >= -1 && log->ranks[i].host < log->host_count);
    require(log->var_count >= 0 && log->var_count <= COLLCALC_NCCL_VARS_MAX);
    for (int i = 0; i < log->var_count; i++) {
        require_text(log->vars[i].name, sizeof log->vars[i].name);
        require_text(log->vars[i].value, sizeof log->vars[i].value);
    }
    require(log->graph_count >= 0 && log->graph_count <= COLLCALC_NCCL_GRAPHS_MAX);
    for (int i = 0; i < log->graph_count; i++) {
        const collcalc_nccl_log_graph *g = &log->graphs[i];
        require(isfinite(g->bw_intra_GBps) && isfinite(g->bw_inter_GBps));
        require_text(g->type_intra, sizeof g->type_intra);
        require_text(g->type_inter, sizeof g->type_inter);
    }
    require(log->choice_count >= 0 && log->choice_count <= COLLCALC_NCCL_CHOICES_MAX);
    for (int i = 0; i < log->choice_count; i++) {
        require(isfinite(log->choices[i].time_us));
        require_text(log->choices[i].op, sizeof log->choices[i].op);
    }
    for (int k = 0; k < COLLCALC_NCCL_HOP_KINDS; k++) {
        const collcalc_nccl_hops *hops = &log->hops[k];
        require(hops->count >= 0 && hops->gdr_count <= hops->count);
        require_text(hops->example, sizeof hops->example);
        require_lines(hops->lines, hops->line_count, COLLCALC_NCCL_EVIDENCE_MAX);
    }
    require_lines(log->plugin_fail_lines, log->plugin_fail_line_count, COLLCALC_NCCL_EVIDENCE_MAX);
    require_lines(log->other_warn_lines, log->other_warn_line_count, COLLCALC_NCCL_WARNS_MAX);
    require(log->other_warn_count <= log->warn_count && log->warn_count <= log->nccl_lines);
    require(log->nccl_lines <= log->lines);
    require(isfinite(log->bootstrap_s));
}

static int has_code(const collcalc_findings *findings, const char *code)
{
    for (size_t i = 0; i < findings->count; i++)
        if (strcmp(findings->items[i].code, code) == 0)
            return 1;
    return 0;
}

static void check_findings(const collcalc_findings *findings)
{
    require(findings->count >= 1 && findings->count <= COLLCALC_FINDINGS_MAX);
    for (size_t i = 0; i < findings->count; i++) {
        const collcalc_finding *f = &findings->items[i];
        require(f->severity >= COLLCALC_SEVERITY_INFO && f->severity <= COLLCALC_SEVERITY_ERROR);
        require(i == 0 || findings->items[i - 1].severity >= f->severity);
        require_text(f->code, sizeof f->code);
        require_text(f->message, sizeof f->message);
        require_text(f->next_step, sizeof f->next_step);
        require(f->code[0] != '\0' && f->message[0] != '\0');
        require(f->line_count >= 0 && f->line_count <= COLLCALC_FINDING_LINES_MAX);
        for (int k = 0; k < f->line_count; k++)
            require(f->lines[k] > 0 && (k == 0 || f->lines[k - 1] < f->lines[k]));
    }
    require(has_code(findings, "nccl-summary"));
}

static collcalc_nccl_log state;
static collcalc_findings found;

static void check(void)
{
    collcalc_diag diag;
    diag.message[0] = '\0';
    check_facts(&state);
    check_lists(&state);
    collcalc_status status = collcalc_nccl_log_finish(&state, &found, &diag);
    if (state.nccl_lines == 0) {
        require(status == COLLCALC_ERR_INVALID && found.count == 0);
        require(strstr(diag.message, "not an NCCL_DEBUG log") != NULL);
        return;
    }
    require(status == COLLCALC_OK);
    check_findings(&found);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    collcalc_nccl_log_init(&state);
    collcalc_nccl_log_feed_text(&state, (const char *)data, size);
    check();
    /* The same bytes in two pieces (a line may be split): still bounded. */
    size_t cut = size > 0 ? (size_t)data[0] * size / 256 : 0;
    collcalc_nccl_log_init(&state);
    collcalc_nccl_log_feed_text(&state, (const char *)data, cut);
    collcalc_nccl_log_feed_line(&state, (const char *)data + cut, size - cut, 0);
    check();
    return 0;
}
