/* collcalc sweep: one collective over a range of sizes, one row per size,
 * optionally in nccl-tests' own layout so runs compare line by line. */
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_tests.h"
#include "collcalc/units.h"
#include "commands.h"
#include "human.h"
#include "report.h"
#include "sizes.h"

static const record_column SWEEP_COLUMNS[] = {
    {"size_bytes", "size (B)", FIELD_INT, COLUMN_BOTH, NULL},
    {"size", "size", FIELD_BYTES_IEC, COLUMN_TABLE, NULL},
    {"count", "count", FIELD_INT, COLUMN_MACHINE, NULL},
    {"type", "type", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"redop", "redop", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"root", "root", FIELD_INT, COLUMN_MACHINE, NULL},
    RESULT_COLUMNS,
};
static const record_schema SWEEP_SCHEMA = {"results", sizeof SWEEP_COLUMNS / sizeof SWEEP_COLUMNS[0],
                                           SWEEP_COLUMNS};

/* The operation: the first word after the command, or --op. */
static int sweep_op(cli_context *ctx, collcalc_op *out)
{
    const char *word = arg_value(&ctx->args, OPT_OP);
    if (ctx->args.positional_count > (word == NULL ? 1 : 0))
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'",
                               ctx->args.positionals[ctx->args.positional_count - 1]);
    if (word == NULL && ctx->args.positional_count == 1)
        word = ctx->args.positionals[0];
    if (word == NULL)
        return cli_usage_error(ctx, NULL, "missing the operation, e.g. 'collcalc %s allreduce'",
                               ctx->name);
    collcalc_diag diag;
    if (collcalc_op_from_name(word, out, &diag) != COLLCALC_OK)
        return cli_usage_error(ctx, NULL, "%s", diag.message);
    return 0;
}

static void nccl_tests_header(document *doc, const collcalc_query *query, collcalc_bw_basis basis,
                              const char *algo_text, uint64_t first, uint64_t last)
{
    char cluster[256], line[COLLCALC_NCCL_TESTS_LINE_MAX];
    report_describe_cluster(&query->cluster, cluster, sizeof cluster);
    doc_text(doc, "# collcalc prediction of %s: %s, %s; algorithm %s",
             collcalc_nccl_tests_binary_name(query->op), cluster, collcalc_bw_basis_name(basis),
             algo_text);
    doc_text(doc, "# nThread 1 nGpus 1 minBytes %llu maxBytes %llu (one process per GPU; "
                  "predicted, not measured)",
             (unsigned long long)first, (unsigned long long)last);
    doc_text(doc, "#");
    for (int i = 0; i < 3; i++)
        doc_text(doc, "%s",
                 collcalc_nccl_tests_format_header_line(line, sizeof line,
                                                        COLLCALC_NCCL_TESTS_STYLE_CURRENT, i,
                                                        false));
}

/* Which algorithm each size uses: the ones named, or the fastest NCCL
 * runs, e.g. "the fastest NCCL runs at each size: ring 8 B..1 MiB, nvls 2
 * MiB..1 GiB". */
static int describe_choice(cli_context *ctx, collcalc_query *query, const collcalc_algo *algos,
                           int algo_count, const uint64_t *sizes, int size_count, char *text,
                           size_t size)
{
    size_t used = 0;
    if (algo_count > 0) {
        used += (size_t)snprintf(text, size, "%s", "as named:");
        for (int k = 0; k < algo_count && used < size; k++)
            used += (size_t)snprintf(text + used, size - used, " %s",
                                     collcalc_algo_name(algos[k]));
        return 0;
    }
    used += (size_t)snprintf(text, size, "%s", "the fastest NCCL runs at each size:");
    int run_start = 0;
    collcalc_algo run_algo = COLLCALC_ALGO_COUNT;
    for (int i = 0; i <= size_count; i++) {
        collcalc_algo algo = COLLCALC_ALGO_COUNT;
        if (i < size_count) {
            collcalc_result results[COLLCALC_ALGO_COUNT];
            size_t count = 0, fastest = 0;
            query->size_bytes = sizes[i];
            int code = report_evaluate(ctx, query, algos, 0, results, &count, &fastest);
            if (code != 0)
                return code;
            size_t choice = report_fastest_in_nccl(results, count);
            algo = results[choice < count ? choice : fastest].algo;
        }
        if (i > 0 && (algo != run_algo || i == size_count) && used < size) {
            char from[32], to[32];
            collcalc_format_bytes_iec(from, sizeof from, (double)sizes[run_start]);
            collcalc_format_bytes_iec(to, sizeof to, (double)sizes[i - 1]);
            used += (size_t)snprintf(text + used, size - used, "%s %s %s..%s",
                                     run_start > 0 ? "," : "", collcalc_algo_name(run_algo), from,
                                     to);
        }
        if (i == 0 || algo != run_algo) {
            run_start = i;
            run_algo = algo;
        }
    }
    return 0;
}

int cmd_sweep(cli_context *ctx)
{
    collcalc_query query;
    collcalc_query_init(&query);
    int code = sweep_op(ctx, &query.op);
    const char *style = arg_value(&ctx->args, OPT_STYLE);
    bool nccl_style = false;
    if (code == 0 && style != NULL) {
        nccl_style = strcmp(style, "nccl-tests") == 0;
        if (!nccl_style && strcmp(style, "table") != 0)
            code = cli_usage_error(ctx, "--style", "unknown style '%.60s' (table or nccl-tests)",
                                   style);
        else if (nccl_style && ctx->format != FORMAT_TABLE)
            code = cli_usage_error(ctx, "--style",
                                   "nccl-tests is a layout for people; --format json/csv "
                                   "already carry its count, type, redop and root columns");
    }
    uint64_t sizes[MAX_SWEEP_SIZES];
    int size_count = 0;
    if (code == 0)
        code = sizes_expand(ctx, NULL, 8, 1ULL << 30, sizes, &size_count);
    collcalc_cluster_spec spec;
    collcalc_cluster_spec_init(&spec);
    if (code == 0)
        code = report_spec_from_args(ctx, &spec);
    collcalc_algo algos[COLLCALC_ALGO_COUNT];
    int algo_count = 0;
    if (code == 0)
        code = report_algos(ctx, query.op, algos, &algo_count);
    if (code == 0)
        code = report_resolve(ctx, &spec, &query.cluster, NULL);
    if (code != 0)
        return code;
    query.tree_efficiency = spec.tree_efficiency;

    document *doc = doc_new(ctx->name);
    report_query(doc, &query, spec.basis, 1, 1, false);
    record_set *set = nccl_style ? doc_records(doc, &SWEEP_SCHEMA) : NULL;
    if (nccl_style && algo_count > 1) {
        doc_free(doc);
        return cli_usage_error(ctx, "--algo", "the nccl-tests layout shows one algorithm");
    }
    collcalc_nccl_tests_row *rows = calloc((size_t)size_count, sizeof *rows);
    if (rows == NULL) {
        doc_free(doc);
        return cli_data_error(ctx, NULL, "out of memory");
    }
    char algo_text[512];
    code = describe_choice(ctx, &query, algos, algo_count, sizes, size_count, algo_text,
                           sizeof algo_text);
    if (code == 0 && nccl_style) {
        nccl_tests_header(doc, &query, spec.basis, algo_text, sizes[0], sizes[size_count - 1]);
        records_machine_only(set);
    } else if (code == 0) {
        char cluster[256];
        report_describe_cluster(&query.cluster, cluster, sizeof cluster);
        doc_text(doc, "%s sweep on %s; %s", collcalc_op_title(query.op), cluster,
                 report_basis_phrase(spec.basis));
        doc_text(doc, "algorithm: %s", algo_text);
        set = doc_records(doc, &SWEEP_SCHEMA);
    }
    for (int i = 0; i < size_count && code == 0; i++) {
        collcalc_nccl_tests_row *row = &rows[i];
        collcalc_diag diag;
        if (collcalc_nccl_tests_row_for(query.op, sizes[i], query.cluster.gpus, 0, "float", row,
                                        &diag) != COLLCALC_OK) {
            code = cli_usage_error(ctx, NULL, "%s", diag.message);
            break;
        }
        /* Predict what nccl-tests measures: the size it actually moves. */
        query.size_bytes = row->size_bytes;
        collcalc_result results[COLLCALC_ALGO_COUNT];
        size_t count = 0, fastest = 0;
        code = report_evaluate(ctx, &query, algos, algo_count, results, &count, &fastest);
        if (code != 0)
            break;
        size_t choice = report_fastest_in_nccl(results, count);
        if (choice >= count)
            choice = fastest;
        size_t first = algo_count > 0 ? 0 : choice, last = algo_count > 0 ? count : choice + 1;
        for (size_t k = first; k < last; k++) {
            const collcalc_result *r = &results[k];
            report_result_row(set, &query, r, spec.basis, 1, 1, k == fastest);
            record_int(set, "size", (long long)row->size_bytes);
            record_int(set, "count", (long long)row->count);
            record_text(set, "type", row->type);
            record_text(set, "redop", row->redop);
            record_int(set, "root", row->root);
        }
        row->out_of_place = collcalc_nccl_tests_measure(query.op, query.cluster.gpus,
                                                        row->size_bytes, results[first].time_us,
                                                        COLLCALC_NCCL_TESTS_WRONG_NA);
        row->in_place = row->out_of_place;
        if (nccl_style) {
            char line[COLLCALC_NCCL_TESTS_LINE_MAX];
            doc_text(doc, "%s",
                     collcalc_nccl_tests_format_row(line, sizeof line,
                                                    COLLCALC_NCCL_TESTS_STYLE_CURRENT, row));
        }
    }
    if (code == 0 && nccl_style) {
        char line[COLLCALC_NCCL_TESTS_LINE_MAX];
        doc_text(doc, "%s", collcalc_nccl_tests_format_footer_errors(line, sizeof line, 0));
        doc_text(doc, "%s",
                 collcalc_nccl_tests_format_footer_avg_busbw(
                     line, sizeof line, collcalc_nccl_tests_average_busbw(rows, (size_t)size_count)));
        doc_text(doc, "#");
    }
    free(rows);
    if (code != 0) {
        doc_free(doc);
        return code;
    }
    return cli_emit(ctx, doc);
}
