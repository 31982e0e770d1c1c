/* fit's report (fit_doc.h). */
#include "fit_doc.h"

#include <stdio.h>

static const record_column PARAM_COLUMNS[] = {
    {"parameter", "parameter", FIELD_TEXT, COLUMN_BOTH | COLUMN_LEFT, NULL},
    {"fitted", "fitted", FIELD_BOOL, COLUMN_BOTH, NULL},
    {"value", "value", FIELD_NUMBER, COLUMN_BOTH, NULL},
    {"unit", "unit", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"min", "min", FIELD_NUMBER, COLUMN_BOTH, NULL},
    {"max", "max", FIELD_NUMBER, COLUMN_BOTH, NULL},
    {"at_bound", "at bound", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"meaning", "meaning", FIELD_TEXT, COLUMN_BOTH | COLUMN_LEFT, NULL},
    {"not_fitted_because", "not fitted because", FIELD_TEXT, COLUMN_MACHINE, NULL},
};
static const record_schema PARAM_SCHEMA = {
    "parameters", sizeof PARAM_COLUMNS / sizeof PARAM_COLUMNS[0], PARAM_COLUMNS};

static const record_column RUN_COLUMNS[] = {
    {"file", "file", FIELD_TEXT, COLUMN_BOTH | COLUMN_LEFT, NULL},
    {"op", "op", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"nodes", "nodes", FIELD_INT, COLUMN_BOTH, NULL},
    {"gpus_per_node", "GPUs/node", FIELD_INT, COLUMN_BOTH, NULL},
    {"nccl_constants", "NCCL", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"large_rows", "rows >= 1 MiB", FIELD_INT, COLUMN_BOTH, NULL},
    {"busbw_error_before", "busbw error before", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"busbw_error_after", "busbw error after", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"busbw_error", "median |busbw error|", FIELD_TEXT, COLUMN_TABLE, NULL},
    {"small_rows", "rows <= 64 KiB", FIELD_INT, COLUMN_BOTH, NULL},
    {"time_error_before", "time error before", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"time_error_after", "time error after", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"time_error", "median |time error|", FIELD_TEXT, COLUMN_TABLE, NULL},
};
static const record_schema RUN_SCHEMA = {"runs", sizeof RUN_COLUMNS / sizeof RUN_COLUMNS[0],
                                         RUN_COLUMNS};

static void percent_pair(char *buffer, size_t size, size_t rows, double before, double after)
{
    if (rows == 0)
        snprintf(buffer, size, "-");
    else
        snprintf(buffer, size, "%.1f%% -> %.1f%%", 100.0 * before, 100.0 * after);
}

void fit_doc(document *doc, const collcalc_fit_result *r, const collcalc_platform *platform,
             const char *name, const char *output, const fit_doc_run *run_of, size_t count)
{
    doc_query_text(doc, "platform", platform->name);
    doc_query_text(doc, "fitted_platform", name);
    doc_query_text(doc, "output", output);
    doc_text(doc, "fit of %s's NCCL model to %zu run%s (NCCL's tuner with collcalc's "
                  "corrections)",
             platform->name, count, count == 1 ? "" : "s");
    doc_text(doc, "%s", "");
    record_set *params = doc_records(doc, &PARAM_SCHEMA);
    for (int k = 0; k < COLLCALC_FIT_PARAMS; k++) {
        const collcalc_fit_parameter *p = &r->params[k];
        record_begin(params);
        record_text(params, "parameter", p->name);
        record_bool(params, "fitted", p->fitted);
        if (p->fitted)
            record_number(params, "value", p->value);
        record_text(params, "unit", p->unit);
        record_number(params, "min", p->min_value);
        record_number(params, "max", p->max_value);
        record_bool(params, "at_bound", p->fitted && p->at_bound);
        record_text(params, "meaning", p->meaning);
        record_text(params, "not_fitted_because", p->fitted ? NULL : p->why_not);
    }
    doc_text(doc, "%s", "");
    record_set *runs = doc_records(doc, &RUN_SCHEMA);
    char text[64];
    for (size_t i = 0; i <= count; i++) {
        bool total = i == count;
        if (total && count == 1)
            break;
        const collcalc_fit_residuals *res = total ? &r->total : &r->runs[i];
        record_begin(runs);
        record_text(runs, "file",
                    total ? "all runs" : run_of[i].file);
        if (!total) {
            record_text(runs, "op", collcalc_op_name(run_of[i].op));
            record_int(runs, "nodes", run_of[i].nodes);
            record_int(runs, "gpus_per_node", run_of[i].gpus_per_node);
            record_text(runs, "nccl_constants", run_of[i].nccl_constants);
        }
        record_int(runs, "large_rows", (long long)res->large_rows);
        record_int(runs, "small_rows", (long long)res->small_rows);
        if (res->large_rows > 0) {
            record_number(runs, "busbw_error_before", res->busbw_error_before);
            record_number(runs, "busbw_error_after", res->busbw_error_after);
        }
        if (res->small_rows > 0) {
            record_number(runs, "time_error_before", res->time_error_before);
            record_number(runs, "time_error_after", res->time_error_after);
        }
        percent_pair(text, sizeof text, res->large_rows, res->busbw_error_before,
                     res->busbw_error_after);
        record_text(runs, "busbw_error", text);
        percent_pair(text, sizeof text, res->small_rows, res->time_error_before,
                     res->time_error_after);
        record_text(runs, "time_error", text);
    }
    doc_text(doc, "%s", "");
    for (int k = 0; k < COLLCALC_FIT_PARAMS; k++)
        if (!r->params[k].fitted)
            doc_text(doc, "%s not fitted: %s", r->params[k].name, r->params[k].why_not);
    doc_text(doc, "wrote %s: platform '%s' (use it with --platforms %s --platform %s)", output,
             name, output, name);
}

