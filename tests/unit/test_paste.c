/* The paste reader (collcalc/paste.h): runs split where a new one starts,
 * compared with each other, NCCL lines and matrices picked out of the mix.
 * Fixtures are data under tests/fuzz/corpus/paste (also the fuzz corpus). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collcalc/paste.h"
#include "support.h"

static collcalc_status read_fixture(const char *name, collcalc_paste_result *out)
{
    char relative[256];
    snprintf(relative, sizeof relative, "tests/fuzz/corpus/paste/%s", name);
    size_t length = 0;
    char *text = test_read_file(test_source_path(relative), &length);
    assert_non_null(text);
    collcalc_diag diag;
    collcalc_status status = collcalc_paste_read_text(text, length, NULL, out, &diag);
    free(text);
    return status;
}

static const collcalc_finding *find(const collcalc_findings *f, const char *code)
{
    for (size_t i = 0; i < f->count; i++)
        if (strcmp(f->items[i].code, code) == 0)
            return &f->items[i];
    return NULL;
}

static void three_runs_then_slow(void **state)
{
    (void)state;
    collcalc_paste_result r;
    assert_int_equal(read_fixture("three_runs_then_8x_slower.txt", &r), COLLCALC_OK);
    assert_int_equal(r.run_count, 3);
    for (size_t i = 0; i < 3; i++) {
        assert_true(r.runs[i].read);
        assert_int_equal(r.runs[i].run.row_count, 6);
        assert_int_equal(r.runs[i].run.op, COLLCALC_OP_ALLREDUCE);
        assert_int_equal(r.runs[i].run.ranks, 16);
    }
    assert_int_equal(r.runs[1].split, COLLCALC_PASTE_SPLIT_COMMAND);
    assert_int_equal(r.runs[1].first_line, 34);
    assert_int_equal(r.runs[2].first_line, 67);
    const collcalc_finding *slow = find(&r.findings, "slow-run");
    assert_non_null(slow);
    if (slow == NULL)
        return;
    assert_non_null(strstr(slow->message, "run 3 (line 67) reaches 8.0x less busbw than run 2"));
    assert_int_equal(slow->severity, COLLCALC_SEVERITY_ERROR);
    assert_non_null(find(&r.findings, "slow-among"));
    collcalc_paste_result_free(&r);
}

/* issue 23 item 6: a second table with its own header is a second run */
static void appended_table_is_a_run(void **state)
{
    (void)state;
    collcalc_paste_result r;
    assert_int_equal(read_fixture("appended_second_table_5x_slower.txt", &r), COLLCALC_OK);
    assert_int_equal(r.run_count, 2);
    assert_int_equal(r.runs[1].split, COLLCALC_PASTE_SPLIT_HEADER);
    assert_int_equal(r.runs[0].run.row_count, 6);
    assert_int_equal(r.runs[1].run.row_count, 6);
    /* the second run has no banner of its own: its op is read from its columns */
    assert_int_equal(r.runs[1].run.op, COLLCALC_OP_ALLREDUCE);
    const collcalc_finding *slow = find(&r.findings, "slow-run");
    assert_non_null(slow);
    assert_non_null(strstr(slow->message, "5.0x less busbw"));
    collcalc_paste_result_free(&r);
}

/* -N repeats: sizes go back down under one header; op and ranks carry over */
static void repeats_split_at_size_reset(void **state)
{
    (void)state;
    collcalc_paste_result r;
    assert_int_equal(read_fixture("repeat_N3_size_resets.txt", &r), COLLCALC_OK);
    assert_int_equal(r.run_count, 3);
    assert_int_equal(r.runs[1].split, COLLCALC_PASTE_SPLIT_SIZE_RESET);
    assert_int_equal(r.runs[2].split, COLLCALC_PASTE_SPLIT_SIZE_RESET);
    assert_true(r.runs[1].carried);
    assert_int_equal(r.runs[2].run.ranks, 16);
    assert_int_equal(r.runs[2].run.ranks_source, COLLCALC_NCCL_TESTS_FROM_DEVICES);
    assert_int_equal(r.runs[2].run.op_source, COLLCALC_NCCL_TESTS_FROM_BANNER);
    assert_int_equal(r.runs[2].run.rows_mismatched, 0);
    assert_non_null(strstr(find(&r.findings, "slow-run")->message, "4.0x less busbw"));
    collcalc_paste_result_free(&r);
}

/* issue 23 item 1: #wrong above 0 is an error, with or without the trailer */
static void wrong_rows_are_errors(void **state)
{
    (void)state;
    collcalc_paste_result r;
    assert_int_equal(read_fixture("wrong_rows_no_trailer.txt", &r), COLLCALC_OK);
    assert_int_equal(r.run_count, 1);
    assert_int_equal(r.runs[0].rows_wrong, 1);
    assert_int_equal(r.runs[0].run.rows_wrong, 1);
    const collcalc_finding *wrong = find(&r.runs[0].run.findings, "wrong-results");
    assert_non_null(wrong);
    assert_int_equal(wrong->severity, COLLCALC_SEVERITY_ERROR);
    assert_non_null(strstr(wrong->message, "no 'Out of bounds' line"));
    assert_int_equal(wrong->lines[0], 28);
    collcalc_paste_result_free(&r);

    assert_int_equal(read_fixture("wrong_rows_out_of_bounds.txt", &r), COLLCALC_OK);
    const collcalc_finding *oob = find(&r.runs[0].run.findings, "out-of-bounds");
    assert_non_null(oob);
    assert_int_equal(oob->severity, COLLCALC_SEVERITY_ERROR);
    assert_non_null(strstr(oob->message, "32 out-of-bounds"));
    assert_int_equal(r.runs[0].run.out_of_bounds, 32);
    collcalc_paste_result_free(&r);
}

/* a node-pair sweep: the slow pair named by its heading */
static void slow_pair_of_a_sweep(void **state)
{
    (void)state;
    collcalc_paste_result r;
    assert_int_equal(read_fixture("node_pair_sweep_one_slow.txt", &r), COLLCALC_OK);
    assert_int_equal(r.run_count, 6);
    assert_string_equal(r.runs[0].label, "pair gpu01 gpu02");
    assert_string_equal(r.runs[4].label, "pair gpu02 gpu04");
    assert_int_equal(r.runs[4].run.op, COLLCALC_OP_SENDRECV);
    const collcalc_finding *among = find(&r.findings, "slow-among");
    assert_non_null(among);
    assert_non_null(strstr(among->message, "'pair gpu02 gpu04'"));
    assert_non_null(strstr(among->message, "8.0x below the median"));
    /* the pair after it is back to speed: no news */
    assert_null(find(&r.findings, "faster-run"));
    collcalc_paste_result_free(&r);
}

/* prefixes, timestamps, colours, NCCL lines and a matrix in one paste */
static void mixed_paste(void **state)
{
    (void)state;
    collcalc_paste_result r;
    assert_int_equal(read_fixture("mixed_prefixes_log_topo.txt", &r), COLLCALC_OK);
    assert_int_equal(r.run_count, 1);
    assert_int_equal(r.runs[0].run.row_count, 3);
    assert_int_equal(r.runs[0].run.op, COLLCALC_OP_ALLREDUCE);
    assert_int_equal(r.runs[0].run.op_source, COLLCALC_NCCL_TESTS_FROM_LOG);
    assert_false(r.runs[0].run.op_guessed);
    assert_int_equal(r.runs[0].run.ranks, 2);
    assert_true(r.has_log);
    assert_string_equal(r.log->version.text, "2.21.5+cuda12.4");
    assert_int_equal(r.topo_lines, 3);
    assert_non_null(strstr(r.topo_text, "GPU0\tX \tNV18"));
    collcalc_paste_result_free(&r);
}

/* headings name the op when no command does (vendor READMEs) */
static void heading_names_the_op(void **state)
{
    (void)state;
    collcalc_paste_result r;
    assert_int_equal(read_fixture("headings_name_the_op.txt", &r), COLLCALC_OK);
    assert_int_equal(r.run_count, 2);
    assert_int_equal(r.runs[0].run.op, COLLCALC_OP_ALLREDUCE);
    assert_int_equal(r.runs[1].run.op, COLLCALC_OP_ALLTOALL);
    assert_int_equal(r.runs[1].run.op_source, COLLCALC_NCCL_TESTS_FROM_HEADING);
    assert_string_equal(r.runs[1].label, "NCCL All to All Scale Performance 32 Hosts 2 Racks");
    collcalc_paste_result_free(&r);
}

static void timestamps(void **state)
{
    (void)state;
    const char *t1 = "2024-05-01T12:00:00.123Z NCCL INFO";
    assert_int_equal(collcalc_paste_timestamp_length(t1, strlen(t1)), 25);
    const char *t2 = "[2024-05-01 12:00:00,5] x";
    assert_int_equal(collcalc_paste_timestamp_length(t2, strlen(t2)), 24);
    const char *t3 = "12:00:01 x";
    assert_int_equal(collcalc_paste_timestamp_length(t3, strlen(t3)), 9);
    const char *t4 = "1048576 262144 float";
    assert_int_equal(collcalc_paste_timestamp_length(t4, strlen(t4)), 0);
    assert_int_equal(collcalc_paste_timestamp_length("", 0), 0);
}

static void nothing_to_read(void **state)
{
    (void)state;
    collcalc_paste_result r;
    collcalc_diag diag;
    const char *text = "hello\nworld\n";
    assert_int_equal(collcalc_paste_read_text(text, strlen(text), NULL, &r, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "nothing to read"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(three_runs_then_slow),   cmocka_unit_test(appended_table_is_a_run),
        cmocka_unit_test(repeats_split_at_size_reset), cmocka_unit_test(wrong_rows_are_errors),
        cmocka_unit_test(slow_pair_of_a_sweep),   cmocka_unit_test(mixed_paste),
        cmocka_unit_test(heading_names_the_op),   cmocka_unit_test(timestamps),
        cmocka_unit_test(nothing_to_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
