/* libFuzzer target for the nccl-tests output reader: any bytes, fed whole
 * and again line by line into a reader with a small row cap, must either be
 * refused with one printable line or read into a run whose invariants hold
 * (finite numbers, bounded rows, enums in range, ascending line numbers). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_tests_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A failed invariant aborts, which fails the fuzzer run and the replay test alike. */
static void require(int condition)
{
    if (!condition)
        abort();
}

/* NUL-terminated within its array, and no control bytes (it is shown to people). */
static void require_text(const char *text, size_t size)
{
    require(memchr(text, '\0', size) != NULL);
    for (const char *p = text; *p != '\0'; p++)
        require((unsigned char)*p >= 0x20 && *p != 0x7f);
}

static void require_line(const char *message)
{
    require(message[0] != '\0');
    require(memchr(message, '\0', COLLCALC_DIAG_MESSAGE_MAX) != NULL);
    for (const char *p = message; *p != '\0'; p++)
        require((unsigned char)*p >= 0x20 && *p != 0x7f);
}

static void check_measurement(const collcalc_nccl_tests_measurement *m,
                              const collcalc_nccl_tests_row_checks *c)
{
    require(isfinite(m->time_us) && m->time_us >= 0);
    require(isfinite(m->algbw_GBps) && m->algbw_GBps >= 0);
    require(isfinite(m->busbw_GBps) && m->busbw_GBps >= 0);
    require(m->wrong >= COLLCALC_NCCL_TESTS_WRONG_NA);
    require(c->algbw <= COLLCALC_NCCL_TESTS_CHECK_MISMATCH);
    require(c->busbw <= COLLCALC_NCCL_TESTS_CHECK_MISMATCH);
    require(isfinite(c->expected_algbw_GBps) && isfinite(c->expected_busbw_GBps));
    if (!m->present)
        require(c->algbw == COLLCALC_NCCL_TESTS_CHECK_SKIPPED &&
                c->busbw == COLLCALC_NCCL_TESTS_CHECK_SKIPPED);
}

static void check_run(const collcalc_nccl_tests_run *run, size_t max_rows, long lines)
{
    require(run->row_count <= max_rows);
    require(run->row_count == 0 || run->rows != NULL);
    require(run->row_count + run->rows_dropped >= 1);
    require(run->lines == lines);
    require((unsigned)run->op < COLLCALC_OP_COUNT);
    require(run->op_source <= COLLCALC_NCCL_TESTS_FROM_HEADING);
    require(run->ranks_source <= COLLCALC_NCCL_TESTS_FROM_HEADING);
    require(run->ranks >= 0 && (run->ranks == 0) == (run->ranks_source == COLLCALC_NCCL_TESTS_FROM_NONE));
    require(run->hosts >= 0 && run->ranks_per_host >= 0);
    require(run->launch <= COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS);
    require(run->busbw_factor == -1.0 || (run->busbw_factor >= 0.0 && run->busbw_factor < 2.0));
    require(isfinite(run->avg_busbw_GBps) && isfinite(run->avg_busbw_rows_GBps));
    require_text(run->gpu_model, sizeof run->gpu_model);
    require_text(run->nccl_version, sizeof run->nccl_version);
    require_text(run->nccl_tests_version, sizeof run->nccl_tests_version);
    require(run->type_count <= COLLCALC_NCCL_TESTS_TYPES_MAX);
    require(run->redop_count <= COLLCALC_NCCL_TESTS_TYPES_MAX);
    for (size_t i = 0; i < run->type_count; i++)
        require_text(run->types[i], COLLCALC_NCCL_TESTS_NAME_MAX);
    require(run->rows_mismatched <= run->row_count);
    require(run->findings.count <= COLLCALC_FINDINGS_MAX);
    for (size_t i = 0; i < run->findings.count; i++) {
        const collcalc_finding *f = &run->findings.items[i];
        require(f->severity <= COLLCALC_SEVERITY_ERROR);
        require(f->code[0] != '\0');
        require_text(f->message, sizeof f->message);
        require_text(f->next_step, sizeof f->next_step);
        require(f->line_count >= 0 && f->line_count <= COLLCALC_FINDING_LINES_MAX);
    }
    for (size_t i = 0; i < run->row_count; i++) {
        const collcalc_nccl_tests_read_row *row = &run->rows[i];
        require(row->line >= 1 && row->line <= lines);
        if (i > 0)
            require(row->line > run->rows[i - 1].line);
        require(row->table >= 0 && row->table < run->tables);
        require_text(row->row.type, sizeof row->row.type);
        require_text(row->row.redop, sizeof row->row.redop);
        require(row->row.out_of_place.present || row->row.in_place.present);
        check_measurement(&row->row.out_of_place, &row->out_of_place);
        check_measurement(&row->row.in_place, &row->in_place);
    }
}

static long count_lines(const uint8_t *data, size_t size)
{
    long lines = 0;
    size_t at = 0;
    while (at < size) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        lines++;
        if (nl == NULL)
            break;
        at = (size_t)(nl - data) + 1;
    }
    return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long lines = count_lines(data, size);

    /* whole text, default options */
    collcalc_nccl_tests_run run;
    collcalc_diag diag;
    diag.message[0] = '\0';
    collcalc_status status = collcalc_nccl_tests_read_text((const char *)data, size, NULL, &run, &diag);
    if (status != COLLCALC_OK) {
        /* Nothing fails to allocate here: a refusal is always bad data. */
        require(status == COLLCALC_ERR_INVALID);
        require(run.rows == NULL && run.row_count == 0);
        require_line(diag.message);
    } else {
        check_run(&run, COLLCALC_NCCL_TESTS_ROWS_DEFAULT, lines);
    }
    size_t whole_rows = run.row_count + run.rows_dropped;
    collcalc_status whole_status = status;
    collcalc_nccl_tests_run_free(&run);

    /* line by line, the reader counting, a small cap and the caller's hints */
    collcalc_nccl_tests_reader_options options;
    collcalc_nccl_tests_reader_options_init(&options);
    options.max_rows = 3;
    options.has_op = size > 0 && (data[0] & 1);
    options.op = (collcalc_op)(size > 0 ? data[0] % COLLCALC_OP_COUNT : 0);
    options.ranks = size > 1 ? data[1] % 5 : 0;
    collcalc_nccl_tests_reader *reader = NULL;
    require(collcalc_nccl_tests_reader_create(&options, &reader, &diag) == COLLCALC_OK);
    size_t at = 0;
    while (at < size) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t end = nl != NULL ? (size_t)(nl - data) : size;
        require(collcalc_nccl_tests_reader_feed_line(reader, (const char *)data + at, end - at, 0,
                                                     &diag) == COLLCALC_OK);
        at = end + 1;
    }
    status = collcalc_nccl_tests_reader_finish(reader, &run, &diag);
    collcalc_nccl_tests_reader_free(reader);
    /* Hints never change which lines are rows. */
    require(status == whole_status);
    if (status == COLLCALC_OK) {
        check_run(&run, 3, lines);
        require(run.row_count + run.rows_dropped == whole_rows);
    } else {
        require_line(diag.message);
    }
    collcalc_nccl_tests_run_free(&run);
    return 0;
}
