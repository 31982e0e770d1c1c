/* plan's documents (plan_doc.h). */
#include "plan_doc.h"

#include <stdio.h>
#include <string.h>

#include "findings_doc.h"
#include "human.h"

static const record_column ITEM_COLUMNS[] = {
    {"kind", "collective", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"group_size", "group", FIELD_INT, COLUMN_BOTH, NULL},
    {"nodes", "nodes", FIELD_INT, COLUMN_BOTH, NULL},
    {"crosses_node", "crosses node", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"link", "link", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"algorithm", "algorithm", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"count_per_layer", "per layer", FIELD_NUMBER, COLUMN_BOTH, NULL},
    {"count_per_step", "per step", FIELD_INT, COLUMN_BOTH, NULL},
    {"message_bytes", "message", FIELD_BYTES, COLUMN_BOTH, NULL},
    {"latency_us_each", "latency", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"bandwidth_us_each", "bandwidth", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"time_us_each", "each", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"total_us", "per step", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"hidden_fraction", "hidden", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"exposed_us", "exposed", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"dominant", "dominant", FIELD_TEXT, COLUMN_BOTH, NULL},
};
static const record_schema ITEM_SCHEMA = {"collectives",
                                          sizeof ITEM_COLUMNS / sizeof ITEM_COLUMNS[0],
                                          ITEM_COLUMNS};

/* The plan in one record, for scripts: CSV carries it (the document's first
 * machine list), its collectives nested; JSON has it beside the query. */
static const record_column SUMMARY_COLUMNS[] = {
    {"model", "model", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"phase", "phase", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"tokens", "tokens", FIELD_INT, COLUMN_MACHINE, NULL},
    {"tp", "TP", FIELD_INT, COLUMN_MACHINE, NULL},
    {"cp", "CP", FIELD_INT, COLUMN_MACHINE, NULL},
    {"ep", "EP", FIELD_INT, COLUMN_MACHINE, NULL},
    {"pp", "PP", FIELD_INT, COLUMN_MACHINE, NULL},
    {"dp", "DP", FIELD_INT, COLUMN_MACHINE, NULL},
    {"gpus", "GPUs", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nodes", "nodes", FIELD_INT, COLUMN_MACHINE, NULL},
    {"context", "context", FIELD_INT, COLUMN_MACHINE, NULL},
    {"sequences", "sequences", FIELD_INT, COLUMN_MACHINE, NULL},
    {"chunks", "chunks", FIELD_INT, COLUMN_MACHINE, NULL},
    {"prompts", "prompts", FIELD_INT, COLUMN_MACHINE, NULL},
    {"weight_bytes_per_gpu", "weights", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"kv_bytes_per_gpu", "KV cache", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"activation_bytes_per_gpu", "activations", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"buffer_bytes_per_gpu", "buffers", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"optimizer_bytes_per_gpu", "optimizer", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"memory_bytes_per_gpu", "memory/GPU", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"memory_capacity_bytes", "usable", FIELD_BYTES, COLUMN_MACHINE, NULL},
    {"memory_checked", "checked", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"fits", "fits", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"max_tokens", "most tokens", FIELD_INT, COLUMN_MACHINE, NULL},
    {"max_context", "most context", FIELD_INT, COLUMN_MACHINE, NULL},
    {"compute_modeled", "compute modeled", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"flops_type", "FLOP type", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"compute_us", "compute", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"compute_flops_us", "FLOP-bound", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"compute_memory_us", "memory-bound", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"bubble_us", "bubble", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"comm_us", "communication", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"exposed_us", "exposed", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"step_us", "step", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"batches_in_flight", "batches in flight", FIELD_INT, COLUMN_MACHINE, NULL},
    {"stage_us", "stage", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"token_latency_us", "per token", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"ttft_us", "TTFT", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"tokens_per_s_per_gpu", "tok/s/GPU", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"comm_share", "comm share", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"verdict", "verdict", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"errors", "errors", FIELD_INT, COLUMN_MACHINE, NULL},
    {"warnings", "warnings", FIELD_INT, COLUMN_MACHINE, NULL},
    {"collectives", "collectives", FIELD_RECORDS, COLUMN_MACHINE, &ITEM_SCHEMA},
};
static const record_schema SUMMARY_SCHEMA = {
    "plan", sizeof SUMMARY_COLUMNS / sizeof SUMMARY_COLUMNS[0], SUMMARY_COLUMNS};

static const record_column CANDIDATE_COLUMNS[] = {
    {"rank", "rank", FIELD_INT, COLUMN_BOTH, NULL},
    {"tp", "TP", FIELD_INT, COLUMN_BOTH, NULL},
    {"cp", "CP", FIELD_INT, COLUMN_BOTH, NULL},
    {"ep", "EP", FIELD_INT, COLUMN_BOTH, NULL},
    {"pp", "PP", FIELD_INT, COLUMN_BOTH, NULL},
    {"dp", "DP", FIELD_INT, COLUMN_BOTH, NULL},
    {"fits", "fits", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"memory_bytes_per_gpu", "memory/GPU", FIELD_BYTES, COLUMN_BOTH, NULL},
    {"step_us", "step", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"chunks", "chunks", FIELD_INT, COLUMN_BOTH, NULL},      /* prefill only */
    {"ttft_us", "TTFT", FIELD_TIME_US, COLUMN_BOTH, NULL},   /* prefill only */
    {"tokens_per_s_per_gpu", "tok/s/GPU", FIELD_NUMBER, COLUMN_BOTH, NULL},
    {"budget", "budget", FIELD_TEXT, COLUMN_BOTH, NULL}, /* within, OVER; absent without one */
    {"peak_tokens", "peak tokens", FIELD_INT, COLUMN_BOTH, NULL},
    {"peak_step_us", "peak step", FIELD_TIME_US, COLUMN_MACHINE, NULL},
    {"peak_tokens_per_s_per_gpu", "peak tok/s/GPU", FIELD_NUMBER, COLUMN_BOTH, NULL},
    {"comm_share", "comm share", FIELD_NUMBER, COLUMN_MACHINE, NULL},
    {"comm_us", "comm/step", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"exposed_us", "exposed", FIELD_TIME_US, COLUMN_BOTH, NULL},
    {"dominant", "dominant", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"errors", "errors", FIELD_INT, COLUMN_BOTH, NULL},
    {"warnings", "warnings", FIELD_INT, COLUMN_BOTH, NULL},
    {"violations", "violations", FIELD_TEXT, COLUMN_BOTH, NULL},
};
static const record_schema CANDIDATE_SCHEMA = {
    "plans", sizeof CANDIDATE_COLUMNS / sizeof CANDIDATE_COLUMNS[0], CANDIDATE_COLUMNS};

/* The collectives into set (the document's list or the summary's nested one). */
static void fill_items(record_set *set, const collcalc_plan_result *r)
{
    for (size_t i = 0; i < r->item_count; i++) {
        const collcalc_plan_item *it = &r->items[i];
        record_begin(set);
        record_text(set, "kind", collcalc_comm_kind_name(it->kind));
        record_int(set, "group_size", it->group_size);
        record_int(set, "nodes", it->nodes);
        record_bool(set, "crosses_node", it->crosses_node);
        record_text(set, "link", it->link);
        record_text(set, "algorithm", it->algo);
        record_number(set, "count_per_layer", it->count_per_layer);
        record_int(set, "count_per_step", it->count_per_step);
        record_number(set, "message_bytes", (double)it->message_bytes);
        record_number(set, "latency_us_each", it->latency_us_each);
        record_number(set, "bandwidth_us_each", it->bandwidth_us_each);
        record_number(set, "time_us_each", it->time_us_each);
        record_number(set, "total_us", it->total_us);
        record_number(set, "hidden_fraction", it->hidden_fraction);
        record_number(set, "exposed_us", it->exposed_us);
        record_text(set, "dominant", collcalc_dominant_name(it->dominant));
        if (it->crosses_node)
            records_mark(set, record_count(set) - 1, "<- crosses the node boundary");
    }
}

static void add_summary(document *doc, const collcalc_plan_query *q, const collcalc_plan_result *r,
                        const char *verdict)
{
    record_set *set = doc_records(doc, &SUMMARY_SCHEMA);
    records_machine_only(set);
    record_begin(set);
    record_text(set, "model", q->model->name);
    record_text(set, "phase", collcalc_workload_name(q->workload));
    record_int(set, "tokens", (long long)q->tokens);
    const int degrees[] = {q->tp, q->cp, q->ep, q->pp, q->dp};
    const char *const names[] = {"tp", "cp", "ep", "pp", "dp"};
    for (size_t i = 0; i < 5; i++)
        record_int(set, names[i], degrees[i]);
    record_int(set, "gpus", r->gpus);
    record_int(set, "nodes", r->nodes);
    record_int(set, "context", (long long)r->context);
    record_int(set, "sequences", (long long)r->sequences);
    record_int(set, "chunks", (long long)r->chunks);
    record_int(set, "prompts", (long long)r->prompts);
    record_number(set, "weight_bytes_per_gpu", r->weight_bytes_per_gpu);
    record_number(set, "kv_bytes_per_gpu", r->kv_bytes_per_gpu);
    record_number(set, "activation_bytes_per_gpu", r->activation_bytes_per_gpu);
    record_number(set, "buffer_bytes_per_gpu", r->buffer_bytes_per_gpu);
    record_number(set, "optimizer_bytes_per_gpu", r->optimizer_bytes_per_gpu);
    record_number(set, "memory_bytes_per_gpu", r->memory_bytes_per_gpu);
    record_bool(set, "memory_checked", r->memory_checked);
    if (r->memory_checked) {
        record_number(set, "memory_capacity_bytes", r->memory_capacity_bytes);
        record_int(set, "max_tokens", (long long)r->max_tokens);
        record_int(set, "max_context", (long long)r->max_context);
    }
    record_bool(set, "fits", r->fits);
    record_bool(set, "compute_modeled", r->compute_modeled);
    if (r->compute_modeled) {
        record_text(set, "flops_type", collcalc_gpu_flops_type_name(r->flops_type));
        record_number(set, "compute_us", r->compute_us);
        record_number(set, "compute_flops_us", r->compute_flops_us);
        record_number(set, "compute_memory_us", r->compute_memory_us);
        record_number(set, "bubble_us", r->bubble_us);
        record_number(set, "step_us", r->step_us);
        record_int(set, "batches_in_flight", r->batches_in_flight);
        record_number(set, "stage_us", r->stage_us);
        record_number(set, "token_latency_us", r->token_latency_us);
        if (q->workload == COLLCALC_WORKLOAD_PREFILL)
            record_number(set, "ttft_us", r->token_latency_us);
        record_number(set, "tokens_per_s_per_gpu", r->tokens_per_s_per_gpu);
        record_number(set, "comm_share", r->comm_share);
    }
    record_number(set, "comm_us", r->comm_us);
    record_number(set, "exposed_us", r->exposed_us);
    record_text(set, "verdict", verdict);
    int errors = 0, warnings = 0;
    for (size_t i = 0; i < r->findings.count; i++) {
        errors += r->findings.items[i].severity == COLLCALC_SEVERITY_ERROR;
        warnings += r->findings.items[i].severity == COLLCALC_SEVERITY_WARNING;
    }
    record_int(set, "errors", errors);
    record_int(set, "warnings", warnings);
    record_set *items = record_nested(set, &ITEM_SCHEMA);
    fill_items(items, r);
    record_set_records(set, "collectives", items);
}

/* The weights' format as held: given bytes, --weight-dtype or the model's
 * native one; the experts' when a MoE model's differ (else ""). */
static const char *weight_format_label(const collcalc_plan_query *q)
{
    return q->weight_bytes > 0        ? "given"
           : q->weight_format_given   ? collcalc_weight_format_name(q->weight_format)
                                      : collcalc_weight_format_name(q->model->weight_format);
}

static const char *expert_format_label(const collcalc_plan_query *q, char *buf, size_t size)
{
    const collcalc_model_shape *m = q->model;
    buf[0] = '\0';
    if (!q->weight_format_given && q->weight_bytes == 0 &&
        m->expert_weight_format != m->weight_format && collcalc_model_is_moe(m))
        snprintf(buf, size, ", experts %s", collcalc_weight_format_name(m->expert_weight_format));
    return buf;
}

/* The memory per GPU, what it is made of, and what fits. */
static void plan_memory_text(document *doc, const collcalc_plan_query *q,
                             const collcalc_plan_result *r, const char *gpu_name)
{
    char total[32], weights[32], kv[32], act[32], buf[32], cap[32], opt[64] = "";
    human_bytes(total, sizeof total, r->memory_bytes_per_gpu);
    human_bytes(weights, sizeof weights, r->weight_bytes_per_gpu);
    human_bytes(kv, sizeof kv, r->kv_bytes_per_gpu);
    human_bytes(act, sizeof act, r->activation_bytes_per_gpu);
    human_bytes(buf, sizeof buf, r->buffer_bytes_per_gpu);
    human_bytes(cap, sizeof cap, r->memory_capacity_bytes);
    if (r->optimizer_bytes_per_gpu > 0) {
        char o[32];
        human_bytes(o, sizeof o, r->optimizer_bytes_per_gpu);
        snprintf(opt, sizeof opt, ", gradients + Adam %s", o);
    }
    const char *wf = weight_format_label(q);
    char experts[48];
    expert_format_label(q, experts, sizeof experts);
    char context[160] = "";
    uint64_t slice = (r->tokens_per_replica + (uint64_t)q->ep - 1) / (uint64_t)q->ep;
    const char *per = q->ep > 1 ? "EP rank" : "replica";
    char flight[48] = "";
    if (q->workload == COLLCALC_WORKLOAD_PREFILL && r->prompts != r->sequences)
        snprintf(flight, sizeof flight, ", %llu in flight", (unsigned long long)r->prompts);
    if (q->workload == COLLCALC_WORKLOAD_PREFILL && r->chunks > 1)
        snprintf(context, sizeof context, ", 1 prompt of %llu tokens per %s%s, %llu of it per "
                 "step: %llu chunks", (unsigned long long)r->context, per, flight,
                 (unsigned long long)slice, (unsigned long long)r->chunks);
    else if (q->workload == COLLCALC_WORKLOAD_PREFILL)
        snprintf(context, sizeof context, ", %llu prompt%s of %llu tokens per %s%s",
                 (unsigned long long)r->sequences, r->sequences == 1 ? "" : "s",
                 (unsigned long long)r->context, per, flight);
    else if (q->workload == COLLCALC_WORKLOAD_TRAIN)
        snprintf(context, sizeof context, ", none in training; sequences of %llu tokens",
                 (unsigned long long)r->context);
    else if (r->context > 0)
        snprintf(context, sizeof context, " at %llu context%s", (unsigned long long)r->context,
                 q->pp > 1 ? ", the pp batches in flight" : "");
    doc_text(doc, "memory per GPU %s: weights %s (%s%s%s), KV cache %s (%s%s), activations %s, "
                  "buffers %s%s", total, weights, wf, experts,
             q->weight_format_given || q->weight_bytes > 0 ? "" : ", native", kv,
             collcalc_dtype_name(q->kv_dtype_given ? q->kv_dtype : q->dtype), context, act, buf,
             opt);
    if (!r->memory_checked) {
        if (gpu_name != NULL)
            doc_text(doc, "memory not checked: the GPU table has no '%s' (give --gpu-memory)",
                     gpu_name);
        else
            doc_text(doc, "%s", "memory not checked: no --platform or --gpu-memory");
        return;
    }
    double memory_GB = q->gpu_memory_GB > 0 ? q->gpu_memory_GB : q->gpu->memory_GB;
    char from[64];
    if (q->gpu_memory_GB > 0)
        snprintf(from, sizeof from, "%.0f GB given", memory_GB);
    else
        snprintf(from, sizeof from, "%.0f GB %s", memory_GB, q->gpu->name);
    doc_text(doc, "%s: %s usable of %s (90 %%)", r->fits ? "fits" : "DOES NOT FIT", cap, from);
    if (r->max_tokens == 0) {
        doc_text(doc, "%s", q->workload == COLLCALC_WORKLOAD_TRAIN
                                ? "nothing fits: shard the weights further"
                                : "nothing fits at this context: shard the weights further");
        return;
    }
    char line[160];
    int n = snprintf(line, sizeof line, "largest that fits: %llu tokens per step",
                     (unsigned long long)r->max_tokens);
    if (r->context > 0 && n > 0 && (size_t)n < sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n,
                      q->workload == COLLCALC_WORKLOAD_TRAIN ? " of %llu-token sequences"
                                                             : " at %llu context",
                      (unsigned long long)r->context);
    if (r->max_context > 0 && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "; context %llu at %llu tokens",
                 (unsigned long long)r->max_context, (unsigned long long)q->tokens);
    doc_text(doc, "%s", line);
}

/* The step time from the roofline and the communication. */
static void plan_step_text(document *doc, const collcalc_plan_query *q,
                           const collcalc_plan_result *r)
{
    if (!r->compute_modeled) {
        doc_text(doc, "%s", "step time not modeled: no GPU figures (give --platform)");
        return;
    }
    char step[32], compute[32], flops[32], memory[32], bubble[32], comm[32];
    human_time_us(step, sizeof step, r->step_us);
    human_time_us(compute, sizeof compute, r->compute_us);
    human_time_us(flops, sizeof flops, r->compute_flops_us);
    human_time_us(memory, sizeof memory, r->compute_memory_us);
    human_time_us(bubble, sizeof bubble, r->bubble_us);
    human_time_us(comm, sizeof comm, r->exposed_comm_us);
    double eff = q->compute_efficiency > 0 ? q->compute_efficiency : 1.0;
    doc_text(doc, "step %s = compute %s (FLOP-bound %s, memory-bound %s; %s at %.0f TFLOP/s, "
                  "%.0f GB/s, x %.2g) + pipeline bubble %s + exposed communication %s",
             step, compute, flops, memory, collcalc_gpu_flops_type_name(r->flops_type),
             collcalc_gpu_tflops(q->gpu, r->flops_type, NULL), q->gpu->memory_GBps, eff, bubble,
             comm);
    char latency[32], rate[32], chunks[96] = "";
    human_time_us(latency, sizeof latency, r->token_latency_us);
    human_number(rate, sizeof rate, r->tokens_per_s_per_gpu);
    if (q->workload == COLLCALC_WORKLOAD_PREFILL)
        snprintf(chunks, sizeof chunks, " (%llu chunk%s x the step)",
                 (unsigned long long)r->chunks, r->chunks == 1 ? "" : "s");
    if (r->batches_in_flight > 1) {
        char stage[32];
        human_time_us(stage, sizeof stage, r->stage_us);
        doc_text(doc, "pipeline: %d batches in flight, one every %s (a stage's time: tokens/s); "
                      "each crosses all %d stages (the step above: latency)",
                 r->batches_in_flight, stage, q->pp);
    }
    doc_text(doc, "%s %s%s, %s tokens/s per GPU, communication %.0f %% of the step",
             q->workload == COLLCALC_WORKLOAD_DECODE    ? "time per output token"
             : q->workload == COLLCALC_WORKLOAD_PREFILL ? "time to first token"
                                                        : "time per step",
             latency, chunks, rate, 100.0 * r->comm_share);
}

document *plan_doc(const char *command, const collcalc_plan_query *q,
                   const collcalc_plan_result *r, const char *gpu_name)
{
    document *doc = doc_new(command);
    doc_query_text(doc, "model", q->model->name);
    doc_query_text(doc, "phase", collcalc_workload_name(q->workload));
    doc_query_int(doc, "tokens", (long long)q->tokens);
    doc_query_text(doc, "dtype", collcalc_dtype_name(q->dtype));
    doc_query_int(doc, "tp", q->tp);
    doc_query_int(doc, "pp", q->pp);
    doc_query_int(doc, "ep", q->ep);
    doc_query_int(doc, "dp", q->dp);
    doc_query_int(doc, "cp", q->cp);
    doc_query_bool(doc, "sp", q->sp);
    doc_query_text(doc, "rank_order", r->rank_order);
    doc_query_int(doc, "gpus", r->gpus);
    doc_query_int(doc, "gpus_per_node", q->cluster.gpus_per_node);
    doc_query_int(doc, "nodes", r->nodes);
    doc_query_text(doc, "intra_link", q->cluster.intra.name);
    doc_query_text(doc, "inter_link", q->cluster.inter.name);
    doc_query_number(doc, "overlap", FIELD_NUMBER, q->overlap_tp);
    doc_query_number(doc, "sm_slowdown", FIELD_NUMBER, q->sm_slowdown);
    doc_query_number(doc, "comm_us", FIELD_TIME_US, r->comm_us);
    doc_query_number(doc, "exposed_us", FIELD_TIME_US, r->exposed_us);
    doc_query_number(doc, "floor_us", FIELD_TIME_US, r->floor_us);
    doc_query_number(doc, "latency_us", FIELD_TIME_US, r->latency_us);
    doc_query_number(doc, "bandwidth_us", FIELD_TIME_US, r->bandwidth_us);
    doc_query_text(doc, "dominant", collcalc_dominant_name(r->dominant));
    doc_query_text(doc, "cost_model", q->costing.fn != NULL ? "nccl" : "alpha-beta");
    doc_query_number(doc, "cross_node_fixed_us", FIELD_TIME_US, r->cross_node_fixed_us);
    collcalc_severity worst = collcalc_findings_worst(&r->findings);
    doc_query_text(doc, "weight_dtype", q->weight_format_given
                                            ? collcalc_weight_format_name(q->weight_format)
                                            : collcalc_weight_format_name(q->model->weight_format));
    doc_query_text(doc, "kv_dtype", collcalc_dtype_name(q->kv_dtype_given ? q->kv_dtype : q->dtype));
    doc_query_int(doc, "context", (long long)r->context);
    doc_query_int(doc, "chunks", (long long)r->chunks);
    doc_query_int(doc, "prompts", (long long)r->prompts);
    doc_query_text(doc, "gpu", q->gpu != NULL ? q->gpu->name : "");
    doc_query_number(doc, "memory_bytes_per_gpu", FIELD_BYTES, r->memory_bytes_per_gpu);
    doc_query_number(doc, "weight_bytes_per_gpu", FIELD_BYTES, r->weight_bytes_per_gpu);
    doc_query_number(doc, "kv_bytes_per_gpu", FIELD_BYTES, r->kv_bytes_per_gpu);
    doc_query_number(doc, "activation_bytes_per_gpu", FIELD_BYTES, r->activation_bytes_per_gpu);
    doc_query_number(doc, "buffer_bytes_per_gpu", FIELD_BYTES, r->buffer_bytes_per_gpu);
    doc_query_number(doc, "memory_capacity_bytes", FIELD_BYTES, r->memory_capacity_bytes);
    doc_query_bool(doc, "memory_checked", r->memory_checked);
    doc_query_bool(doc, "fits", r->fits);
    doc_query_int(doc, "max_tokens", (long long)r->max_tokens);
    doc_query_int(doc, "max_context", (long long)r->max_context);
    doc_query_bool(doc, "compute_modeled", r->compute_modeled);
    doc_query_number(doc, "compute_us", FIELD_TIME_US, r->compute_us);
    doc_query_number(doc, "compute_flops_us", FIELD_TIME_US, r->compute_flops_us);
    doc_query_number(doc, "compute_memory_us", FIELD_TIME_US, r->compute_memory_us);
    doc_query_number(doc, "bubble_us", FIELD_TIME_US, r->bubble_us);
    doc_query_number(doc, "step_us", FIELD_TIME_US, r->step_us);
    doc_query_int(doc, "batches_in_flight", r->batches_in_flight);
    doc_query_number(doc, "stage_us", FIELD_TIME_US, r->stage_us);
    doc_query_number(doc, "token_latency_us", FIELD_TIME_US, r->token_latency_us);
    if (q->workload == COLLCALC_WORKLOAD_PREFILL)
        doc_query_number(doc, "ttft_us", FIELD_TIME_US, r->token_latency_us);
    doc_query_number(doc, "tokens_per_s_per_gpu", FIELD_NUMBER, r->tokens_per_s_per_gpu);
    doc_query_number(doc, "comm_share", FIELD_NUMBER, r->comm_share);
    doc_query_text(doc, "verdict", worst == COLLCALC_SEVERITY_ERROR     ? "violation"
                                   : worst == COLLCALC_SEVERITY_WARNING ? "warning"
                                                                        : "ok");

    add_summary(doc, q, r, worst == COLLCALC_SEVERITY_ERROR     ? "violation"
                           : worst == COLLCALC_SEVERITY_WARNING ? "warning"
                                                                : "ok");
    char a[32], b[32], c[32], dtypes[128], experts[48];
    expert_format_label(q, experts, sizeof experts);
    collcalc_dtype kv = q->kv_dtype_given ? q->kv_dtype : q->dtype;
    if (kv == q->dtype)
        snprintf(dtypes, sizeof dtypes, "weights %s%s, activations/KV %s", weight_format_label(q),
                 experts, collcalc_dtype_name(q->dtype));
    else
        snprintf(dtypes, sizeof dtypes, "weights %s%s, activations %s, KV %s",
                 weight_format_label(q), experts, collcalc_dtype_name(q->dtype),
                 collcalc_dtype_name(kv));
    doc_text(doc, "%s %s, %llu tokens per step, %s: TP %d x CP %d x EP %d x PP %d x DP %d = %d GPU%s "
                  "on %d node%s of %d (rank order %s)",
             q->model->name, collcalc_workload_name(q->workload), (unsigned long long)q->tokens,
             dtypes, q->tp, q->cp, q->ep, q->pp, q->dp, r->gpus,
             r->gpus == 1 ? "" : "s", r->nodes,
             r->nodes == 1 ? "" : "s", q->cluster.gpus_per_node, r->rank_order);
    const char *nccl = r->amd ? "NCCL's (RCCL's)" : "NCCL's";
    if (q->costing.fn != NULL)
        doc_text(doc, "collectives costed with %s tuner on the platform, one process per GPU "
                      "(--launch process-per-gpu; all-to-all and send/recv: its point-to-point "
                      "model)", nccl);
    else
        doc_text(doc, "collectives costed with the alpha-beta model (fastest algorithm %s runs)",
                 r->amd ? "NCCL (RCCL)" : "NCCL");
    doc_text(doc, "%s", "");
    fill_items(doc_records(doc, &ITEM_SCHEMA), r);
    human_time_us(a, sizeof a, r->comm_us);
    human_time_us(b, sizeof b, r->exposed_us);
    human_time_us(c, sizeof c, r->latency_us);
    doc_text(doc, "%s", "");
    doc_text(doc, "communication per step %s, exposed %s (overlap %.0f%%, SM slowdown %.3g); fixed "
                  "(latency) part %s: %s-bound",
             a, b, 100.0 * q->overlap_tp, q->sm_slowdown, c,
             r->dominant == COLLCALC_DOMINANT_LATENCY ? "latency" : "bandwidth");
    if (r->cross_node_fixed_us > 0) {
        human_time_us(a, sizeof a, r->cross_node_fixed_us);
        doc_text(doc, "a group crosses the node boundary: each of its collectives costs at least %s",
                 a);
    }
    plan_memory_text(doc, q, r, gpu_name);
    plan_step_text(doc, q, r);
    doc_text(doc, "verdict: %s", worst == COLLCALC_SEVERITY_ERROR     ? "violation"
                                 : worst == COLLCALC_SEVERITY_WARNING ? "ok, with warnings"
                                                                      : "ok");
    if (r->findings.count > 0)
        doc_text(doc, "%s", "");
    findings_add(doc, &r->findings);
    return doc;
}

document *plan_search_doc(const char *command, const collcalc_plan_query *q,
                          const collcalc_plan_candidate *found, size_t count, size_t total)
{
    document *doc = doc_new(command);
    doc_query_text(doc, "model", q->model->name);
    doc_query_text(doc, "phase", collcalc_workload_name(q->workload));
    doc_query_int(doc, "tokens", (long long)q->tokens);
    doc_query_int(doc, "gpus", q->cluster.gpus);
    doc_query_int(doc, "gpus_per_node", q->cluster.gpus_per_node);
    doc_query_int(doc, "cp", q->cp);
    doc_query_int(doc, "plans_costed", (long long)total);
    doc_query_text(doc, "goal", collcalc_plan_goal_name(q->goal));
    doc_query_number(doc, "latency_budget_us", FIELD_TIME_US, q->latency_budget_us);
    bool compute = q->gpu != NULL;
    char kept[64] = "";
    const int given[] = {q->tp, q->cp, q->ep, q->pp, q->dp};
    for (int d = 0; d < (int)COLLCALC_DIM_COUNT; d++)
        if (d != COLLCALC_DIM_CP ? (q->search_fixed & (1u << d)) != 0 : q->cp > 1) {
            size_t used = strlen(kept);
            snprintf(kept + used, sizeof kept - used, "%s%s %d", used > 0 ? ", " : " with ",
                     collcalc_dim_name((collcalc_dim)d), given[d]);
        }
    doc_text(doc, "%s %s, %llu tokens per step on %d GPUs (%d per node): %zu factorization%s%s "
                  "costed, best %zu: plans that fit in memory first, then without an "
                  "error-level violation%s, then by %s",
             q->model->name, collcalc_workload_name(q->workload), (unsigned long long)q->tokens,
             q->cluster.gpus, q->cluster.gpus_per_node, total, total == 1 ? "" : "s", kept, count,
             q->latency_budget_us > 0 ? ", within the latency budget" : "",
             !compute ? "exposed communication per step (no GPU figures: compute not modeled)"
             : q->goal == COLLCALC_GOAL_THROUGHPUT
                 ? (q->latency_budget_us > 0 ? "peak tokens/s per GPU (at the most tokens per step "
                                               "that fit and meet the budget)"
                                             : "peak tokens/s per GPU (at the most tokens per step "
                                               "that fit)")
             : q->workload == COLLCALC_WORKLOAD_PREFILL
                 ? "time to first token (chunks x step: each replica prefills its own prompt)"
                 : "step time (time per output token)");
    doc_text(doc, "%s", "");
    record_set *set = doc_records(doc, &CANDIDATE_SCHEMA);
    bool prefill = q->workload == COLLCALC_WORKLOAD_PREFILL;
    bool cp = false; /* the CP column when a plan has CP > 1 */
    for (size_t i = 0; i < count; i++)
        cp = cp || found[i].cp > 1;
    if (!cp)
        records_hide_column(set, "cp");
    if (!prefill) {
        records_hide_column(set, "chunks");
        records_hide_column(set, "ttft_us");
    }
    for (size_t i = 0; i < count; i++) {
        const collcalc_plan_candidate *c = &found[i];
        char codes[4 * COLLCALC_FINDING_CODE_MAX + 8] = "";
        size_t used = 0;
        for (int k = 0; k < c->code_count && used < sizeof codes; k++)
            used += (size_t)snprintf(codes + used, sizeof codes - used, "%s%s", k ? " " : "",
                                     c->codes[k]);
        record_begin(set);
        record_int(set, "rank", (long long)i + 1);
        record_int(set, "tp", c->tp);
        if (cp)
            record_int(set, "cp", c->cp);
        record_int(set, "ep", c->ep);
        record_int(set, "pp", c->pp);
        record_int(set, "dp", c->dp);
        if (prefill)
            record_int(set, "chunks", (long long)c->chunks);
        record_text(set, "fits", !c->memory_checked ? "unchecked" : c->fits ? "yes" : "no");
        record_number(set, "memory_bytes_per_gpu", c->memory_bytes_per_gpu);
        if (c->compute_modeled) {
            record_number(set, "step_us", c->step_us);
            if (prefill)
                record_number(set, "ttft_us", c->token_latency_us);
            record_number(set, "tokens_per_s_per_gpu", c->tokens_per_s_per_gpu);
            record_int(set, "peak_tokens", (long long)c->peak_tokens);
            record_number(set, "peak_step_us", c->peak_step_us);
            record_number(set, "peak_tokens_per_s_per_gpu", c->peak_tokens_per_s_per_gpu);
            record_number(set, "comm_share", c->comm_share);
        }
        if (q->latency_budget_us > 0)
            record_text(set, "budget", c->within_budget ? "within" : "OVER");
        record_number(set, "comm_us", c->comm_us);
        record_number(set, "exposed_us", c->exposed_us);
        record_text(set, "dominant", collcalc_dominant_name(c->dominant));
        record_int(set, "errors", c->errors);
        record_int(set, "warnings", c->warnings);
        record_text(set, "violations", codes);
    }
    return doc;
}

bool plan_search_violation(const collcalc_plan_candidate *found, size_t count, char *why,
                           size_t size)
{
    if (count == 0) {
        snprintf(why, size, "%s", "no plan was costed");
        return true;
    }
    const collcalc_plan_candidate *c = &found[0];
    char what[32];
    if (!c->fits) {
        human_bytes(what, sizeof what, c->memory_bytes_per_gpu);
        snprintf(why, size, "no plan fits in memory: the best, TP %d x EP %d x PP %d x DP %d, "
                            "needs %s per GPU", c->tp, c->ep, c->pp, c->dp, what);
    } else if (c->errors > 0) {
        snprintf(why, size, "every plan that fits has an error-level finding: the best, TP %d x "
                            "EP %d x PP %d x DP %d, has %s", c->tp, c->ep, c->pp, c->dp,
                 c->codes[0]);
    } else if (!c->within_budget) {
        human_time_us(what, sizeof what, c->token_latency_us);
        snprintf(why, size, "no plan meets the latency budget: the best, TP %d x EP %d x PP %d x "
                            "DP %d, takes %s", c->tp, c->ep, c->pp, c->dp, what);
    } else {
        return false;
    }
    return true;
}
