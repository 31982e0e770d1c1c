/* The nccl-tests output reader (include/collcalc/nccl_tests_reader.h): every
 * perf file of the validation set, the textbook excerpt, and the edge cases
 * real logs have (tests/fuzz/corpus/nccl_tests/edge_*.txt). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "collcalc/nccl_tests_reader.h"

#define assert_close(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static collcalc_status read_path(const char *path, const collcalc_nccl_tests_reader_options *options,
                                 collcalc_nccl_tests_run *run, collcalc_diag *diag)
{
    size_t length = 0;
    char *text = test_read_file(path, &length);
    assert_non_null(text);
    collcalc_status status = collcalc_nccl_tests_read_text(text, length, options, run, diag);
    free(text);
    return status;
}

static collcalc_status read_edge(const char *name, collcalc_nccl_tests_run *run, collcalc_diag *diag)
{
    char relative[256];
    snprintf(relative, sizeof relative, "tests/fuzz/corpus/nccl_tests/%s", name);
    return read_path(test_source_path(relative), NULL, run, diag);
}

static collcalc_status read_string(const char *text, collcalc_nccl_tests_run *run, collcalc_diag *diag)
{
    return collcalc_nccl_tests_read_text(text, strlen(text), NULL, run, diag);
}

static bool has_finding(const collcalc_nccl_tests_run *run, const char *code)
{
    for (size_t i = 0; i < run->findings.count; i++)
        if (strcmp(run->findings.items[i].code, code) == 0)
            return true;
    return false;
}

static const collcalc_finding *finding(const collcalc_nccl_tests_run *run, const char *code)
{
    for (size_t i = 0; i < run->findings.count; i++)
        if (strcmp(run->findings.items[i].code, code) == 0)
            return &run->findings.items[i];
    fail_msg("no finding %s", code);
    return NULL;
}

/* What each validation perf file must read as. */
typedef struct {
    const char *file;
    size_t rows;
    collcalc_op op;
    int ranks;
    collcalc_nccl_tests_source ranks_source;
    collcalc_nccl_tests_launch launch;
    const char *gpu_model;
    const char *nccl_version;
    int hosts;
    uint64_t first_size;
    double first_time_us;
    uint64_t last_size;
    double last_busbw_GBps;
    bool in_place;
    bool abbreviated;
    double avg_busbw; /* footer; 0 when absent */
} expected_file;

static const expected_file FILES[] = {
    {"nccl_allgather_2080ti_2gpu_pcie_nop2p_autodl.txt", 28, COLLCALC_OP_ALLGATHER, 2,
     COLLCALC_NCCL_TESTS_FROM_COLUMNS, COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS,
     "NVIDIA GeForce RTX 2080 Ti", "", 1, 0, 0.33, 1073741824, 3.79, true, false, 1.6651},
    {"nccl_allgather_h100_2node_16gpu_tcpxo_8x200g_gcp_a3mega_clustertoolkit.txt", 31,
     COLLCALC_OP_ALLGATHER, 16, COLLCALC_NCCL_TESTS_FROM_COLUMNS, COLLCALC_NCCL_TESTS_LAUNCH_UNKNOWN,
     "", "", 0, 0, 0.30, 8589934592ULL, 188.73, true, false, 53.8932},
    {"nccl_allreduce_2080ti_2gpu_pcie_nop2p_autodl.txt", 28, COLLCALC_OP_ALLREDUCE, 2,
     COLLCALC_NCCL_TESTS_FROM_DEVICES, COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS,
     "NVIDIA GeForce RTX 2080 Ti", "", 1, 8, 12.25, 1073741824, 4.00, true, false, 2.05774},
    {"nccl_allreduce_a100_2node_16gpu_efa400_p4de_awsome.txt", 29, COLLCALC_OP_ALLREDUCE, 16,
     COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO, COLLCALC_NCCL_TESTS_LAUNCH_UNKNOWN, "", "", 0, 8, 164.3,
     2147483648ULL, 78.33, true, false, 0},
    {"nccl_allreduce_a100_8gpu_nvlink3_stas00.txt", 20, COLLCALC_OP_ALLREDUCE, 8,
     COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO, COLLCALC_NCCL_TESTS_LAUNCH_UNKNOWN, "", "", 0, 32768,
     43.83, 17179869184ULL, 234.89, false, true, 0},
    {"nccl_allreduce_b200_8gpu_nvlink5_nccl2.27.txt", 31, COLLCALC_OP_ALLREDUCE, 8,
     COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO, COLLCALC_NCCL_TESTS_LAUNCH_UNKNOWN, "", "", 0, 8, 12.44,
     8589934592ULL, 816.04, true, false, 0},
    {"nccl_allreduce_gb200_nvl72_1rack_72gpu_mnnvl_nccl2.26_coreweave.txt", 5,
     COLLCALC_OP_ALLREDUCE, 72, COLLCALC_NCCL_TESTS_FROM_DEVICES, COLLCALC_NCCL_TESTS_LAUNCH_UNKNOWN,
     "NVIDIA Graphics Device", "", 0, 536870912, 1806.7, 8589934592ULL, 834.57, true, false,
     745.53},
    {"nccl_allreduce_h100_2node_16gpu_ib400_ring_minctas24_qps2_issue309.txt", 14,
     COLLCALC_OP_ALLREDUCE, 16, COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO,
     COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU, "", "", 0, 1048576, 156.9, 8589934592ULL, 392.69,
     true, false, 248.186},
    {"nccl_allreduce_h100_2node_16gpu_ndr400_xe9680_nccl2.26_issue309.txt", 32,
     COLLCALC_OP_ALLREDUCE, 16, COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO,
     COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU, "", "2.26.2+cuda12.8", 0, 8, 68.52,
     17179869184ULL, 469.21, true, false, 139.56},
    {"nccl_allreduce_h100_8gpu_1node_nvls_issue290.txt", 6, COLLCALC_OP_ALLREDUCE, 8,
     COLLCALC_NCCL_TESTS_FROM_DEVICES, COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS,
     "NVIDIA H100 80GB HBM3", "", 1, 134217728, 613.3, 4294967296ULL, 473.60, true, false,
     439.369},
};

static void check_file(const expected_file *e, const collcalc_nccl_tests_run *run)
{
    assert_int_equal(run->row_count, e->rows);
    assert_int_equal(run->rows_skipped, 0);
    assert_int_equal(run->rows_mismatched, 0);
    assert_int_equal(run->rows_dropped, 0);
    assert_true(run->op_source != COLLCALC_NCCL_TESTS_FROM_NONE);
    assert_int_equal(run->op, e->op);
    assert_int_equal(run->ranks, e->ranks);
    assert_int_equal(run->ranks_source, e->ranks_source);
    assert_int_equal(run->launch, e->launch);
    assert_string_equal(run->gpu_model, e->gpu_model);
    assert_string_equal(run->nccl_version, e->nccl_version);
    assert_int_equal(run->hosts, e->hosts);
    assert_int_equal(run->has_in_place, e->in_place);
    assert_int_equal(run->abbreviated, e->abbreviated);
    assert_close(run->busbw_factor, collcalc_busbw_factor(e->op, e->ranks), 1e-12);
    const collcalc_nccl_tests_read_row *first = &run->rows[0], *last = &run->rows[run->row_count - 1];
    assert_int_equal(first->row.size_bytes, e->first_size);
    assert_close(first->row.out_of_place.time_us, e->first_time_us, 1e-9);
    assert_int_equal(last->row.size_bytes, e->last_size);
    assert_close(last->row.out_of_place.busbw_GBps, e->last_busbw_GBps, 1e-9);
    assert_int_equal(last->row.in_place.present, e->in_place);
    for (size_t i = 0; i < run->row_count; i++) {
        const collcalc_nccl_tests_read_row *r = &run->rows[i];
        if (r->row.out_of_place.time_us > 0) {
            assert_int_equal(r->out_of_place.algbw, COLLCALC_NCCL_TESTS_CHECK_OK);
            assert_int_equal(r->out_of_place.busbw, COLLCALC_NCCL_TESTS_CHECK_OK);
        }
        if (i > 0)
            assert_true(r->line > run->rows[i - 1].line);
    }
    assert_int_equal(run->has_avg_busbw, e->avg_busbw > 0);
    if (e->avg_busbw > 0) {
        assert_close(run->avg_busbw_GBps, e->avg_busbw, 1e-9);
        /* the footer is the mean over every printed measurement */
        assert_close(run->avg_busbw_rows_GBps, e->avg_busbw, 0.006);
        assert_false(has_finding(run, "avg-busbw-mismatch"));
    }
    assert_int_equal(collcalc_findings_worst(&run->findings), COLLCALC_SEVERITY_INFO);
}

static void validation_files(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        char relative[256];
        snprintf(relative, sizeof relative, "validation/%s", FILES[i].file);
        collcalc_nccl_tests_run run;
        collcalc_diag diag;
        diag.message[0] = '\0';
        collcalc_status status = read_path(test_shared_path(relative), NULL, &run, &diag);
        if (status != COLLCALC_OK)
            fail_msg("%s: %s", FILES[i].file, diag.message);
        check_file(&FILES[i], &run);
        collcalc_nccl_tests_run_free(&run);
    }
}

/* Each file fed line by line with CRLF endings and the reader counting the
 * lines reads exactly as the whole text does. */
static void validation_files_streamed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        char relative[256];
        snprintf(relative, sizeof relative, "validation/%s", FILES[i].file);
        size_t length = 0;
        char *text = test_read_file(test_shared_path(relative), &length);
        assert_non_null(text);
        collcalc_nccl_tests_reader *reader = NULL;
        assert_int_equal(collcalc_nccl_tests_reader_create(NULL, &reader, NULL), COLLCALC_OK);
        char line[4096];
        size_t at = 0;
        while (at < length) {
            const char *nl = memchr(text + at, '\n', length - at);
            size_t end = nl != NULL ? (size_t)(nl - text) : length;
            size_t n = end - at < sizeof line - 3 ? end - at : sizeof line - 3;
            memcpy(line, text + at, n);
            line[n] = '\r';
            line[n + 1] = '\n';
            assert_int_equal(collcalc_nccl_tests_reader_feed_line(reader, line, n + 2, 0, NULL),
                             COLLCALC_OK);
            at = end + 1;
        }
        collcalc_nccl_tests_run run;
        assert_int_equal(collcalc_nccl_tests_reader_finish(reader, &run, NULL), COLLCALC_OK);
        collcalc_nccl_tests_reader_free(reader);
        check_file(&FILES[i], &run);
        collcalc_nccl_tests_run_free(&run);
        free(text);
    }
}

static void more_validation_facts(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    /* nGpus 8 in one process, 8 device lines on one host */
    assert_int_equal(read_path(test_shared_path("validation/nccl_allreduce_h100_8gpu_1node_nvls_issue290.txt"),
                               NULL, &run, NULL),
                     COLLCALC_OK);
    assert_int_equal(run.gpus_per_thread, 8);
    assert_int_equal(run.threads_per_process, 1);
    assert_int_equal(run.device_lines, 8);
    assert_int_equal(run.ranks_per_host, 8);
    assert_int_equal(run.min_bytes, 134217728);
    assert_int_equal(run.max_bytes, 4294967296LL);
    assert_int_equal(run.iters, 2);
    assert_int_equal(run.warmup_iters, 5);
    assert_int_equal(run.agg_iters, 1);
    assert_int_equal(run.graph, 0);
    assert_int_equal(run.type_count, 1);
    assert_string_equal(run.types[0], "float");
    assert_string_equal(run.redops[0], "sum");
    assert_int_equal(run.out_of_bounds, 0);
    assert_int_equal(run.op_source, COLLCALC_NCCL_TESTS_FROM_COMMAND);
    assert_string_equal(collcalc_nccl_tests_launch_name(run.launch), "single-process");
    collcalc_nccl_tests_run_free(&run);

    /* the A100 excerpt: digit separators ("1048_576"), no count column */
    assert_int_equal(read_path(test_shared_path("validation/nccl_allreduce_a100_8gpu_nvlink3_stas00.txt"),
                               NULL, &run, NULL),
                     COLLCALC_OK);
    assert_int_equal(run.rows[5].row.size_bytes, 1048576);
    assert_false(run.rows[5].has_count);
    assert_false(run.rows[5].has_type);
    assert_string_equal(run.nccl_version, ""); /* "NCCL version not stated" is no version */
    collcalc_nccl_tests_run_free(&run);

    /* the 2-node all-gather: 16 ranks from count vs size (256 B, count 4) */
    assert_int_equal(read_path(test_shared_path("validation/nccl_allgather_h100_2node_16gpu_tcpxo_8x200g_gcp_a3mega_clustertoolkit.txt"),
                               NULL, &run, NULL),
                     COLLCALC_OK);
    assert_int_equal(run.rows[5].row.size_bytes, 256);
    assert_int_equal(run.rows[5].row.count, 4);
    /* the five 0-byte rows cannot be checked for algbw beyond 0.00 */
    assert_int_equal(run.rows[0].out_of_place.algbw, COLLCALC_NCCL_TESTS_CHECK_OK);
    collcalc_nccl_tests_run_free(&run);
}

static void textbook_excerpt(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    collcalc_diag diag;
    assert_int_equal(read_path(test_shared_path("seed/000_04356289b52dc9a8.txt"), NULL, &run, &diag),
                     COLLCALC_OK);
    assert_int_equal(run.row_count, 3);
    assert_true(run.abbreviated);
    assert_int_equal(run.op, COLLCALC_OP_ALLREDUCE);
    assert_int_equal(run.op_source, COLLCALC_NCCL_TESTS_FROM_COMMAND);
    assert_int_equal(run.op_line, 175);
    assert_int_equal(run.ranks, 8);
    assert_int_equal(run.ranks_source, COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO);
    assert_int_equal(run.rows_skipped, 0);
    /* 1048576 B / 58.2 us = 18.02 GB/s and 16777216 B / 238.4 us = 70.37
     * (70.38 printed: the time's own rounding allows it); both pass */
    for (int i = 0; i < 2; i++) {
        assert_int_equal(run.rows[i].out_of_place.algbw, COLLCALC_NCCL_TESTS_CHECK_OK);
        assert_int_equal(run.rows[i].out_of_place.busbw, COLLCALC_NCCL_TESTS_CHECK_OK);
        assert_int_equal(run.rows[i].in_place.algbw, COLLCALC_NCCL_TESTS_CHECK_SKIPPED);
    }
    /* 268435456 B / 3021.7 us is 88.8 GB/s, not the 121.36 printed; its
     * busbw is 121.36 x 1.75 as printed */
    const collcalc_nccl_tests_read_row *third = &run.rows[2];
    assert_int_equal(third->line, 179);
    assert_int_equal(third->out_of_place.algbw, COLLCALC_NCCL_TESTS_CHECK_MISMATCH);
    assert_close(third->out_of_place.expected_algbw_GBps, 88.836, 0.001);
    assert_int_equal(third->out_of_place.busbw, COLLCALC_NCCL_TESTS_CHECK_OK);
    assert_int_equal(run.rows_mismatched, 1);
    const collcalc_finding *f = finding(&run, "row-mismatch");
    assert_int_equal(f->severity, COLLCALC_SEVERITY_WARNING);
    assert_int_equal(f->line_count, 1);
    assert_int_equal(f->lines[0], 179);
    assert_non_null(strstr(f->message, "algbw 121.36 GB/s, but size / time = 88.84 GB/s"));
    collcalc_nccl_tests_run_free(&run);
}

static void mpi_tagged_crlf(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    assert_int_equal(read_edge("edge_mpi_tagged_crlf_2hosts.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.row_count, 3);
    assert_int_equal(run.op, COLLCALC_OP_ALLREDUCE);
    assert_int_equal(run.op_source, COLLCALC_NCCL_TESTS_FROM_BANNER);
    assert_int_equal(run.op_line, 2);
    assert_int_equal(run.ranks, 4);
    assert_int_equal(run.ranks_source, COLLCALC_NCCL_TESTS_FROM_DEVICES);
    assert_int_equal(run.hosts, 2);
    assert_int_equal(run.ranks_per_host, 2);
    assert_int_equal(run.launch, COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU);
    assert_string_equal(run.gpu_model, "NVIDIA H100 80GB HBM3");
    assert_string_equal(run.nccl_version, "2.21.5+cuda12.4");
    assert_string_equal(run.nccl_tests_version, "2.19.6");
    assert_int_equal(run.rows_mismatched, 0);
    assert_int_equal(run.rows[0].row.count, 262144);
    assert_close(run.rows[2].row.in_place.time_us, 100.77, 1e-9);
    assert_true(run.has_avg_busbw);
    assert_int_equal(run.findings.count, 0);
    collcalc_nccl_tests_run_free(&run);
}

static void cputime_timestamp_na(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    assert_int_equal(read_edge("edge_cputime_timestamp_na.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.row_count, 3);
    assert_true(run.cputime);
    assert_true(run.timestamp);
    assert_true(run.wrong_na);
    assert_int_equal(run.rows[1].row.out_of_place.wrong, COLLCALC_NCCL_TESTS_WRONG_NA);
    assert_int_equal(run.rows[1].row.size_bytes, 131072);
    assert_close(run.rows[1].row.out_of_place.time_us, 38.77, 1e-9);
    assert_int_equal(run.launch, COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS);
    assert_int_equal(run.op, COLLCALC_OP_ALLREDUCE);
    assert_int_equal(run.ranks, 8);
    assert_int_equal(run.rows_mismatched, 0);
    collcalc_nccl_tests_run_free(&run);
}

static void multitype_tables(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    assert_int_equal(read_edge("edge_multitype_multiop.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.row_count, 18);
    assert_int_equal(run.type_count, 3);
    assert_string_equal(run.types[1], "half");
    assert_string_equal(run.types[2], "double");
    assert_int_equal(run.redop_count, 2);
    assert_string_equal(run.redops[1], "prod");
    /* each row keeps its own type and redop */
    assert_string_equal(run.rows[7].row.type, "half");
    assert_string_equal(run.rows[7].row.redop, "sum");
    assert_int_equal(run.rows[7].row.count, 1024); /* 2048 B of half */
    assert_string_equal(run.rows[17].row.type, "double");
    assert_string_equal(run.rows[17].row.redop, "prod");
    assert_false(has_finding(&run, "size-order")); /* a new type starts a new sweep */
    collcalc_nccl_tests_run_free(&run);

    /* with the ranks given, busbw is checked on every row */
    collcalc_nccl_tests_reader_options options;
    collcalc_nccl_tests_reader_options_init(&options);
    options.ranks = 4;
    assert_int_equal(read_path(test_source_path("tests/fuzz/corpus/nccl_tests/edge_multitype_multiop.txt"),
                               &options, &run, NULL),
                     COLLCALC_OK);
    assert_int_equal(run.ranks_source, COLLCALC_NCCL_TESTS_FROM_CALLER);
    assert_close(run.busbw_factor, 1.5, 1e-12);
    for (size_t i = 0; i < run.row_count; i++)
        assert_int_equal(run.rows[i].in_place.busbw, COLLCALC_NCCL_TESTS_CHECK_OK);
    collcalc_nccl_tests_run_free(&run);
}

static void truncated_last_row(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    assert_int_equal(read_edge("edge_truncated_last_row.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.row_count, 2);
    assert_int_equal(run.rows_skipped, 1);
    assert_int_equal(run.op, COLLCALC_OP_REDUCESCATTER);
    assert_int_equal(run.ranks, 8);
    assert_int_equal(run.ranks_source, COLLCALC_NCCL_TESTS_FROM_COLUMNS);
    const collcalc_finding *f = finding(&run, "rows-skipped");
    assert_int_equal(f->severity, COLLCALC_SEVERITY_WARNING);
    assert_int_equal(f->line_count, 1);
    assert_int_equal(f->lines[0], 7);
    /* The line is in f->lines (renderers show it), not repeated in the text. */
    assert_non_null(strstr(f->message, "cut short: 8 of the table's 13 fields"));
    assert_null(strstr(f->message, "(line"));
    collcalc_nccl_tests_run_free(&run);
}

static void refused_inputs(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    collcalc_diag diag;
    assert_int_equal(read_edge("edge_garbage.txt", &run, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "line 2: not an nccl-tests table row"));
    assert_int_equal(run.row_count, 0);
    assert_null(run.rows);
    collcalc_nccl_tests_run_free(&run);

    assert_int_equal(read_edge("edge_missing_busbw_column.txt", &run, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "line 1: the table header has no busbw column"));

    assert_int_equal(read_path(test_shared_path("validation/nccl_debug_a100_p4d_1node_4gpu_p2p_cumem_nvlink_gnosia93.txt"),
                               NULL, &run, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "not nccl-tests output: no table in 85 lines (expected"));

    assert_int_equal(read_string("", &run, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "no table in 0 lines"));
    assert_int_equal(read_string("#       size         count      type   redop    root     time   algbw   busbw #wrong\n# end\n",
                                 &run, &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "line 1: a table header, but no data rows follow it");
    assert_int_equal(read_string("# size count type redop root time algbw busbw #wrong\n"
                                 "1024 256 float sum -1 5.45 0.19 x 0\n",
                                 &run, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "line 2: no table row could be read ('x' is not a valid value for field 8"));
    /* bytes from the input are echoed without control characters */
    assert_int_equal(read_edge("edge_control_bytes.txt", &run, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "line 2: no table row could be read ('0.19?\?[31m' is "
                                         "not a valid value for field 7; 1 such line)"));
    for (const char *p = diag.message; *p != '\0'; p++)
        assert_true((unsigned char)*p >= 0x20);
    /* nan/inf and negative values are not numbers here */
    assert_int_equal(read_string("size time algbw busbw\n1024 inf 0.19 0.33\n1024 -5 0.19 0.33\n",
                                 &run, &diag),
                     COLLCALC_ERR_INVALID);
}

static void zero_time_and_order(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    assert_int_equal(read_edge("edge_zero_time_size_order.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.row_count, 3);
    assert_int_equal(run.op, COLLCALC_OP_BROADCAST);
    assert_true(run.rows[1].zero_time);
    assert_int_equal(run.rows[1].out_of_place.algbw, COLLCALC_NCCL_TESTS_CHECK_SKIPPED);
    assert_int_equal(run.rows[0].row.root, 0);
    assert_close(run.busbw_factor, 1.0, 0);
    assert_int_equal(finding(&run, "zero-time")->lines[0], 6);
    assert_int_equal(finding(&run, "size-order")->lines[0], 7);
    for (size_t i = 0; i < run.row_count; i++) {
        assert_true(isfinite(run.rows[i].out_of_place.expected_algbw_GBps));
        assert_true(isfinite(run.rows[i].in_place.expected_busbw_GBps));
    }
    collcalc_nccl_tests_run_free(&run);
}

static void mixed_ops(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    assert_int_equal(read_edge("edge_mixed_ops.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.row_count, 1);
    assert_int_equal(run.op, COLLCALC_OP_ALLREDUCE);
    const collcalc_finding *f = finding(&run, "mixed-ops");
    assert_int_equal(f->lines[0], 6);
    assert_non_null(strstr(f->message, "all_gather_perf"));
    assert_non_null(strstr(f->message, "1 row was not read"));
    collcalc_nccl_tests_run_free(&run);
}

static void unmodelled_binaries(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    collcalc_diag diag;
    /* gather_perf prints AG-like columns with a root: not read as an all-gather */
    const char *gather =
        "# Collective test starting: gather_perf\n"
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
        "     1048576         65536     float    none       0    40.00   26.21   19.66      0    40.00   26.21   19.66      0\n";
    assert_int_equal(read_string(gather, &run, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "line 1: a gather_perf run, an op collcalc does not model"));
    /* after a modelled test, its rows are left out like any second op */
    const char *after =
        "# Collective test starting: all_reduce_perf\n"
        "# size time algbw busbw\n1048576 58.2 18.02 31.53\n"
        "# Collective test starting: hypercube_perf\n"
        "# size time algbw busbw\n1048576 58.2 18.02 31.53\n";
    assert_int_equal(read_string(after, &run, &diag), COLLCALC_OK);
    assert_int_equal(run.row_count, 1);
    assert_int_equal(run.op, COLLCALC_OP_ALLREDUCE);
    assert_non_null(strstr(finding(&run, "mixed-ops")->message, "hypercube_perf"));
    collcalc_nccl_tests_run_free(&run);
    /* rows only under a second modelled test */
    const char *second =
        "# Collective test starting: all_reduce_perf\n"
        "# Collective test starting: broadcast_perf\n"
        "# size time algbw busbw\n1048576 58.2 18.02 18.02\n";
    assert_int_equal(read_string(second, &run, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "line 2: the only rows belong to a second test (broadcast_perf) "
                                      "after all_reduce_perf; give one test per input");
}

static void op_from_columns(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    assert_int_equal(read_edge("edge_columns_reduce_scatter.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.op, COLLCALC_OP_REDUCESCATTER);
    assert_int_equal(run.op_source, COLLCALC_NCCL_TESTS_FROM_COLUMNS);
    assert_int_equal(run.ranks, 8);
    assert_int_equal(run.rows_mismatched, 0);
    collcalc_nccl_tests_run_free(&run);

    assert_int_equal(read_edge("edge_columns_broadcast.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.op, COLLCALC_OP_BROADCAST);
    assert_int_equal(run.ranks, 0);
    assert_false(has_finding(&run, "ranks-unknown")); /* broadcast's factor needs no ranks */
    assert_int_equal(run.rows[2].in_place.busbw, COLLCALC_NCCL_TESTS_CHECK_OK);
    collcalc_nccl_tests_run_free(&run);

    /* all-gather and all-to-all print the same columns: ranks and factor
     * known, the op is the caller's to give */
    assert_int_equal(read_edge("edge_columns_gather_or_alltoall.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.op_source, COLLCALC_NCCL_TESTS_FROM_NONE);
    assert_int_equal(run.ranks, 32);
    assert_close(run.busbw_factor, 31.0 / 32.0, 1e-12);
    assert_non_null(strstr(finding(&run, "op-unknown")->message, "all_gather_perf or alltoall_perf"));
    assert_int_equal(run.rows[1].out_of_place.busbw, COLLCALC_NCCL_TESTS_CHECK_OK);
    collcalc_nccl_tests_run_free(&run);

    /* a reduction, no root, busbw = algbw: all-reduce on 2 ranks or
     * sendrecv, the same busbw either way: read as all-reduce, said guessed */
    assert_int_equal(read_edge("edge_columns_sendrecv_or_ar2.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.op_source, COLLCALC_NCCL_TESTS_FROM_COLUMNS);
    assert_int_equal(run.op, COLLCALC_OP_ALLREDUCE);
    assert_true(run.op_guessed);
    assert_int_equal(run.ranks, 2);
    assert_close(run.busbw_factor, 1.0, 0);
    assert_false(has_finding(&run, "op-unknown"));
    collcalc_nccl_tests_run_free(&run);

    /* the caller decides */
    collcalc_nccl_tests_reader_options options;
    collcalc_nccl_tests_reader_options_init(&options);
    options.has_op = true;
    options.op = COLLCALC_OP_SENDRECV;
    assert_int_equal(read_path(test_source_path("tests/fuzz/corpus/nccl_tests/edge_columns_sendrecv_or_ar2.txt"),
                               &options, &run, NULL),
                     COLLCALC_OK);
    assert_int_equal(run.op, COLLCALC_OP_SENDRECV);
    assert_int_equal(run.op_source, COLLCALC_NCCL_TESTS_FROM_CALLER);
    assert_int_equal(run.findings.count, 0);
    collcalc_nccl_tests_run_free(&run);

    /* a caller contradicting the file is obeyed and warned */
    options.op = COLLCALC_OP_ALLGATHER;
    options.ranks = 4;
    assert_int_equal(read_path(test_shared_path("validation/nccl_allreduce_h100_8gpu_1node_nvls_issue290.txt"),
                               &options, &run, NULL),
                     COLLCALC_OK);
    assert_int_equal(run.op, COLLCALC_OP_ALLGATHER);
    assert_int_equal(run.ranks, 4);
    assert_true(has_finding(&run, "op-override"));
    assert_true(has_finding(&run, "ranks-override"));
    assert_int_equal(run.rows_mismatched, 6); /* 0.75 is not the file's 1.75 */
    collcalc_nccl_tests_run_free(&run);
}

static void footer_checks(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    assert_int_equal(read_edge("edge_avg_mismatch_oob.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.out_of_bounds, 3);
    assert_close(run.avg_busbw_GBps, 99.5, 0);
    const collcalc_finding *f = finding(&run, "avg-busbw-mismatch");
    assert_int_equal(f->lines[0], 8);
    assert_true(has_finding(&run, "out-of-bounds"));
    collcalc_nccl_tests_run_free(&run);

    assert_int_equal(read_edge("edge_abbreviated_separators.txt", &run, NULL), COLLCALC_OK);
    assert_int_equal(run.op, COLLCALC_OP_ALLGATHER);
    assert_int_equal(run.ranks, 4);
    assert_int_equal(run.rows[1].row.size_bytes, 2097152);
    assert_int_equal(run.rows_mismatched, 0);
    collcalc_nccl_tests_run_free(&run);
}

static void prefixes_and_noise(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    const char *text =
        "rank0: # Collective test starting: alltoall_perf\n"
        "node7: #  Rank  0 Group  0 Pid   1000 on      node7 device  0 [0x18] NVIDIA H200\n"
        "node7:1000:1000 [0] NCCL INFO comm 0x55 rank 0 nranks 4 - Init COMPLETE\n"
        "  [1,0]<stdout>:#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
        "0:      1048576         65536     float    none      -1    40.00   26.21   19.66      0    40.00   26.21   19.66      0\r\n"
        "\t  2097152        131072     float    none      -1    70.00   29.96   22.47      0    70.00   29.96   22.47      0\n";
    assert_int_equal(read_string(text, &run, NULL), COLLCALC_OK);
    assert_int_equal(run.row_count, 2);
    assert_int_equal(run.op, COLLCALC_OP_ALLTOALL);
    /* the count column says 4 ranks, the (trimmed) device list 1 */
    assert_int_equal(run.ranks, 4);
    assert_int_equal(run.ranks_source, COLLCALC_NCCL_TESTS_FROM_COLUMNS);
    assert_string_equal(run.gpu_model, "NVIDIA H200");
    assert_non_null(strstr(finding(&run, "ranks-disagree")->message,
                           "the count column says 4 ranks but the device lines say 1"));
    assert_int_equal(run.rows_mismatched, 0);
    collcalc_nccl_tests_run_free(&run);
}

/* Counts re-typed by hand (a vendor page): the count column gives 1 rank on
 * one row and 8 on the next, so it is not evidence; the busbw/algbw ratio
 * (7/8) gives the 8 ranks of 2 hosts x 4 GPUs. */
static void counts_that_disagree_are_not_used(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    const char *text =
        "# Collective test starting: alltoall_perf\n"
        "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
        "8589934592  2147483648  float   none    -1  11426   751.78  657.81  0   11418   752.324 658.30  N/A\n"
        "17179869184 536870912   float   none    -1  22698   756.88  662.27  0   22741   755.47  661.03  N/A\n";
    assert_int_equal(read_string(text, &run, NULL), COLLCALC_OK);
    assert_int_equal(run.row_count, 2);
    assert_int_equal(run.op, COLLCALC_OP_ALLTOALL);
    assert_int_equal(run.ranks, 8);
    assert_int_equal(run.ranks_source, COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO);
    assert_string_equal(finding(&run, "counts-disagree")->message,
                        "the count column gives 1 ranks on line 3 but 8 on line 4: not used for "
                        "the rank count");
    collcalc_nccl_tests_run_free(&run);
}

static void launch_from_device_pids(void **state)
{
    (void)state;
    collcalc_nccl_tests_run run;
    const char *one_process =
        "#  Rank  0 Group  0 Pid   1000 on         h1 device  0 [0x18] NVIDIA A100-SXM4-80GB\n"
        "#  Rank  1 Group  0 Pid   1000 on         h1 device  1 [0x19] NVIDIA A100-SXM4-80GB\n"
        "# size time algbw busbw\n1048576 58.2 18.02 18.02\n";
    assert_int_equal(read_string(one_process, &run, NULL), COLLCALC_OK);
    assert_int_equal(run.launch, COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS);
    assert_int_equal(run.ranks, 2);
    assert_int_equal(run.hosts, 1);
    assert_string_equal(run.gpu_model, "NVIDIA A100-SXM4-80GB");
    collcalc_nccl_tests_run_free(&run);
    const char *two_processes =
        "#  Rank  0 Group  0 Pid   1000 on         h1 device  0 [0x18] NVIDIA A100-SXM4-80GB\n"
        "#  Rank  1 Group  0 Pid   1000 on         h2 device  0 [0x18] NVIDIA A100-SXM4-40GB\n"
        "# size time algbw busbw\n1048576 58.2 18.02 18.02\n";
    assert_int_equal(read_string(two_processes, &run, NULL), COLLCALC_OK);
    assert_int_equal(run.launch, COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU);
    assert_int_equal(run.hosts, 2);
    assert_int_equal(run.ranks_per_host, 1);
    assert_int_equal(finding(&run, "gpu-models-differ")->lines[0], 2);
    collcalc_nccl_tests_run_free(&run);
}

static void bounded_rows(void **state)
{
    (void)state;
    collcalc_nccl_tests_reader_options options;
    collcalc_nccl_tests_reader_options_init(&options);
    options.max_rows = 100;
    collcalc_nccl_tests_reader *reader = NULL;
    assert_int_equal(collcalc_nccl_tests_reader_create(&options, &reader, NULL), COLLCALC_OK);
    const char *header = "# size count type redop root time algbw busbw #wrong time algbw busbw #wrong";
    assert_int_equal(collcalc_nccl_tests_reader_feed_line(reader, header, strlen(header), 1, NULL),
                     COLLCALC_OK);
    const char *row = "     1048576        262144     float     sum      -1    156.9    6.68   12.53      0    154.1    6.81   12.76      0";
    for (long i = 0; i < 20000; i++)
        assert_int_equal(collcalc_nccl_tests_reader_feed_line(reader, row, strlen(row), i + 2, NULL),
                         COLLCALC_OK);
    collcalc_nccl_tests_run run;
    assert_int_equal(collcalc_nccl_tests_reader_finish(reader, &run, NULL), COLLCALC_OK);
    assert_int_equal(run.row_count, 100);
    assert_int_equal(run.rows_dropped, 19900);
    assert_int_equal(run.lines, 20001);
    assert_int_equal(run.ranks, 16);
    assert_true(has_finding(&run, "rows-dropped"));
    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_tests_reader_feed_line(reader, row, strlen(row), 0, &diag),
                     COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_nccl_tests_reader_finish(reader, &run, &diag), COLLCALC_ERR_INVALID);
    collcalc_nccl_tests_reader_free(reader);
    collcalc_nccl_tests_run_free(&run);
    collcalc_nccl_tests_run_free(&run); /* twice is harmless */

    options.max_rows = COLLCALC_NCCL_TESTS_ROWS_LIMIT + 1;
    assert_int_equal(collcalc_nccl_tests_reader_create(&options, &reader, &diag), COLLCALC_ERR_INVALID);
    assert_null(reader);
    collcalc_nccl_tests_reader_free(NULL);
    collcalc_nccl_tests_run_free(NULL);
}

static void long_and_odd_lines(void **state)
{
    (void)state;
    /* a 1 MiB line, NUL bytes, lines without text */
    size_t big = 1u << 20;
    char *text = malloc(big + 256);
    assert_non_null(text);
    memset(text, '7', big);
    strcpy(text + big, "\n# size time algbw busbw\n1048576 58.2 18.02 31.53\n\n");
    size_t length = strlen(text);
    collcalc_nccl_tests_run run;
    assert_int_equal(collcalc_nccl_tests_read_text(text, length, NULL, &run, NULL), COLLCALC_OK);
    assert_int_equal(run.row_count, 1);
    assert_int_equal(run.rows[0].line, 3);
    collcalc_nccl_tests_run_free(&run);
    free(text);

    static const char with_nul[] = "size time algbw busbw\n1024 5.45 0.19\0 0.33\n2048 5.45 0.38 0.66\n";
    assert_int_equal(collcalc_nccl_tests_read_text(with_nul, sizeof with_nul - 1, NULL, &run, NULL),
                     COLLCALC_OK);
    assert_int_equal(run.row_count, 1);
    assert_int_equal(run.rows_skipped, 1);
    collcalc_nccl_tests_run_free(&run);
}

static void names(void **state)
{
    (void)state;
    assert_string_equal(collcalc_nccl_tests_source_name(COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO), "busbw-ratio");
    assert_string_equal(collcalc_nccl_tests_source_name(COLLCALC_NCCL_TESTS_FROM_DEVICES), "device-lines");
    assert_string_equal(collcalc_nccl_tests_launch_name(COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU),
                        "process-per-gpu");
    assert_string_equal(collcalc_nccl_tests_check_name(COLLCALC_NCCL_TESTS_CHECK_MISMATCH), "mismatch");
    assert_string_equal(collcalc_nccl_tests_check_name(COLLCALC_NCCL_TESTS_CHECK_SKIPPED), "skipped");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(validation_files),  cmocka_unit_test(validation_files_streamed),
        cmocka_unit_test(more_validation_facts), cmocka_unit_test(textbook_excerpt),
        cmocka_unit_test(mpi_tagged_crlf),   cmocka_unit_test(cputime_timestamp_na),
        cmocka_unit_test(multitype_tables),  cmocka_unit_test(truncated_last_row),
        cmocka_unit_test(refused_inputs),    cmocka_unit_test(zero_time_and_order),
        cmocka_unit_test(mixed_ops),         cmocka_unit_test(unmodelled_binaries),
        cmocka_unit_test(op_from_columns),
        cmocka_unit_test(footer_checks),     cmocka_unit_test(prefixes_and_noise),
        cmocka_unit_test(counts_that_disagree_are_not_used),
        cmocka_unit_test(launch_from_device_pids),
        cmocka_unit_test(bounded_rows),      cmocka_unit_test(long_and_odd_lines),
        cmocka_unit_test(names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
