/* libFuzzer target for the paste reader (collcalc/paste.h): any bytes, fed
 * whole and again line by line with a caller's op, must either be refused
 * with one printable line or read into runs whose invariants hold (line
 * spans in order, bounded counts, finite figures, printable labels), and
 * both feeds must find the same runs. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/paste.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int condition)
{
    if (!condition)
        abort();
}

static void require_text(const char *text, size_t size)
{
    require(memchr(text, '\0', size) != NULL);
    for (const char *p = text; *p != '\0'; p++)
        require((unsigned char)*p >= 0x20 && *p != 0x7f);
}

static void check_result(const collcalc_paste_result *r, long lines)
{
    require(r->lines == lines);
    require(r->run_count <= COLLCALC_PASTE_RUNS_MAX);
    require(r->run_count == 0 || r->runs != NULL);
    require(r->log != NULL);
    require(r->topo_length <= (size_t)COLLCALC_PASTE_TOPO_BYTES);
    require((r->topo_text == NULL) == (r->topo_length == 0) || r->topo_text != NULL);
    if (r->topo_length > 0)
        require(r->topo_text[r->topo_length] == '\0');
    long previous = 0;
    for (size_t i = 0; i < r->run_count; i++) {
        const collcalc_paste_run *run = &r->runs[i];
        require(run->first_line >= previous);
        require(run->last_line >= run->first_line && run->last_line <= lines);
        previous = run->first_line;
        require(run->split <= COLLCALC_PASTE_SPLIT_AFTER_FOOTER);
        require_text(run->label, sizeof run->label);
        require(isfinite(run->peak_busbw_GBps) && run->peak_busbw_GBps >= 0);
        require(isfinite(run->busbw_at_max_GBps) && run->busbw_at_max_GBps >= 0);
        if (!run->read) {
            require(run->run.rows == NULL);
            require(run->error[0] != '\0');
            require_text(run->error, sizeof run->error);
            continue;
        }
        require(run->rows_wrong <= run->run.row_count);
        require(run->run.op_source <= COLLCALC_NCCL_TESTS_FROM_HEADING);
        require(run->run.ranks >= 0);
        for (size_t k = 0; k < run->run.row_count; k++) {
            long line = run->run.rows[k].line;
            require(line >= run->first_line && line <= run->last_line);
        }
    }
    require(r->findings.count <= COLLCALC_FINDINGS_MAX);
    for (size_t i = 0; i < r->findings.count; i++) {
        require_text(r->findings.items[i].message, COLLCALC_FINDING_TEXT_MAX);
        require_text(r->findings.items[i].next_step, COLLCALC_FINDING_TEXT_MAX);
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
    collcalc_paste_result whole;
    collcalc_diag diag;
    diag.message[0] = '\0';
    collcalc_status status = collcalc_paste_read_text((const char *)data, size, NULL, &whole,
                                                      &diag);
    if (status != COLLCALC_OK) {
        require(status == COLLCALC_ERR_INVALID);
        require(diag.message[0] != '\0');
        require_text(diag.message, sizeof diag.message);
    } else {
        check_result(&whole, lines);
    }

    /* line by line, numbered by the reader, with a caller's op */
    collcalc_nccl_tests_reader_options options;
    collcalc_nccl_tests_reader_options_init(&options);
    options.has_op = size > 0 && (data[0] & 1);
    options.op = (collcalc_op)(size > 0 ? data[0] % COLLCALC_OP_COUNT : 0);
    options.max_rows = 4;
    collcalc_paste *paste = NULL;
    require(collcalc_paste_create(&options, &paste, &diag) == COLLCALC_OK);
    size_t at = 0;
    while (at < size) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t end = nl != NULL ? (size_t)(nl - data) : size;
        require(collcalc_paste_feed_line(paste, (const char *)data + at, end - at, 0, &diag) ==
                COLLCALC_OK);
        at = end + 1;
    }
    collcalc_paste_result lined;
    collcalc_status second = collcalc_paste_finish(paste, &lined, &diag);
    collcalc_paste_free(paste);
    require(second == status);
    if (second == COLLCALC_OK) {
        check_result(&lined, lines);
        require(lined.run_count == whole.run_count);
        for (size_t i = 0; i < lined.run_count; i++)
            require(lined.runs[i].first_line == whole.runs[i].first_line);
        require(lined.topo_length == whole.topo_length);
        require(lined.log->nccl_lines == whole.log->nccl_lines);
    }
    collcalc_paste_result_free(&lined);
    collcalc_paste_result_free(&whole);
    return 0;
}
