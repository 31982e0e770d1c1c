/* Unit tests for collcalc_fit (src/nccl/fit.c), the platform "nccl_fit"
 * object (src/data/platforms.c) and its read-back in the platform -> system
 * mapping (src/data/nccl_system.c): the round trip on validation runs. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/fit.h"
#include "collcalc/nccl_tests_reader.h"

#define assert_near(a, b, tolerance)                                                       \
    do {                                                                                   \
        double a_ = (a), b_ = (b);                                                         \
        if (!(fabs(a_ - b_) <= (tolerance))) {                                             \
            print_error("%s = %.9g, expected %.9g\n", #a, a_, b_);                         \
            fail();                                                                        \
        }                                                                                  \
    } while (0)

typedef struct {
    collcalc_link_table *links;
    collcalc_platform_table *platforms;
    collcalc_nccl_constants_table *constants;
} tables;

static int setup_tables(void **state)
{
    tables *t = calloc(1, sizeof *t);
    collcalc_diag diag;
    if (t == NULL || collcalc_link_table_builtin(&t->links, &diag) != COLLCALC_OK ||
        collcalc_platform_table_builtin(t->links, &t->platforms, &diag) != COLLCALC_OK ||
        collcalc_nccl_constants_builtin(&t->constants, &diag) != COLLCALC_OK)
        return -1;
    *state = t;
    return 0;
}

static int teardown_tables(void **state)
{
    tables *t = *state;
    collcalc_nccl_constants_table_free(t->constants);
    collcalc_platform_table_free(t->platforms);
    collcalc_link_table_free(t->links);
    free(t);
    return 0;
}

/* A validation run read as collcalc check reads it. */
typedef struct {
    collcalc_nccl_tests_run run;
    collcalc_fit_row *rows;
    collcalc_fit_run fit;
} loaded;

static void load_run(const tables *t, const char *file, const collcalc_platform *platform,
                     int nodes, loaded *out)
{
    size_t length = 0;
    char *text = test_read_file(test_shared_path(file), &length);
    assert_non_null(text);
    collcalc_diag diag;
    memset(out, 0, sizeof *out);
    assert_int_equal(collcalc_nccl_tests_read_text(text, length, NULL, &out->run, &diag),
                     COLLCALC_OK);
    free(text);
    out->rows = calloc(out->run.row_count + 1, sizeof *out->rows);
    assert_non_null(out->rows);
    for (size_t i = 0; i < out->run.row_count; i++) {
        out->rows[i].size_bytes = out->run.rows[i].row.size_bytes;
        out->rows[i].time_us = out->run.rows[i].row.out_of_place.time_us;
        out->rows[i].busbw_GBps = out->run.rows[i].row.out_of_place.busbw_GBps;
    }
    collcalc_fit_run_init(&out->fit);
    out->fit.rows = out->rows;
    out->fit.row_count = out->run.row_count;
    out->fit.func = out->run.op == COLLCALC_OP_ALLGATHER ? COLLCALC_NCCL_ALLGATHER
                                                         : COLLCALC_NCCL_ALLREDUCE;
    collcalc_nccl_launch launch = out->run.launch == COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS
                                      ? COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS
                                      : COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
    assert_int_equal(collcalc_nccl_system_from_platform(platform, t->links, nodes,
                                                        out->run.ranks / nodes, launch,
                                                        &out->fit.system, &diag),
                     COLLCALC_OK);
    const collcalc_nccl_constants *newest = NULL;
    assert_int_equal(collcalc_nccl_constants_find(t->constants, NULL, &newest, &diag),
                     COLLCALC_OK);
    assert_int_equal(collcalc_nccl_constants_find(
                         t->constants, out->run.nccl_version[0] ? out->run.nccl_version : NULL,
                         &out->fit.constants, &diag),
                     COLLCALC_OK);
    out->fit.options.refined = newest;
}

static void free_run(loaded *l)
{
    free(l->rows);
    collcalc_nccl_tests_run_free(&l->run);
}

/* Fit, write the overlay, load it back, predict again: the residuals the
 * model gives with the fitted platform are the fit's "after" figures. */
static void round_trip(const tables *t, const char *file, const char *platform_name, int nodes,
                       collcalc_fit_result *result, double *busbw_after, double *time_after)
{
    const collcalc_platform *platform = collcalc_platform_table_find(t->platforms, platform_name);
    assert_non_null(platform);
    loaded l;
    load_run(t, file, platform, nodes, &l);
    collcalc_diag diag;
    collcalc_status status = collcalc_fit(&l.fit, 1, result, &diag);
    if (status != COLLCALC_OK)
        print_error("%s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);

    char name[COLLCALC_NAME_MAX];
    snprintf(name, sizeof name, "%s-fitted", platform_name);
    collcalc_platform_nccl_fit values = result->values;
    snprintf(values.source, sizeof values.source, "collcalc fit of %s", file);
    char *json = NULL;
    assert_int_equal(collcalc_fit_platform_json(platform, name, &values, &json, &diag),
                     COLLCALC_OK);
    collcalc_platform_table *overlay = NULL, *merged = NULL;
    status = collcalc_platform_table_parse(json, strlen(json), t->links, &overlay, &diag);
    if (status != COLLCALC_OK)
        print_error("%s\n%s\n", diag.message, json);
    assert_int_equal(status, COLLCALC_OK);
    collcalc_fit_text_free(json);
    assert_int_equal(collcalc_platform_table_overlay(t->platforms, overlay, &merged, &diag),
                     COLLCALC_OK);
    const collcalc_platform *fitted = collcalc_platform_table_find(merged, name);
    assert_non_null(fitted);
    assert_true(fitted->nccl_fit.present);
    assert_near(fitted->nccl_fit.bw_efficiency, result->values.bw_efficiency, 1e-12);
    assert_near(fitted->nccl_fit.latency_inter_us, result->values.latency_inter_us, 1e-12);

    /* The fitted platform's system predicts with the fit applied. */
    collcalc_fit_run again = l.fit;
    assert_int_equal(collcalc_nccl_system_from_platform(fitted, t->links, nodes,
                                                        l.run.ranks / nodes, l.fit.system.launch,
                                                        &again.system, &diag),
                     COLLCALC_OK);
    double large[4096], small[4096];
    size_t nl = 0, ns = 0;
    for (size_t i = 0; i < l.fit.row_count; i++) {
        const collcalc_fit_row *row = &l.rows[i];
        if (row->size_bytes == 0 || !(row->time_us > 0.0))
            continue;
        collcalc_nccl_prediction p;
        assert_int_equal(collcalc_nccl_predict(&again.system, again.constants, &again.options,
                                               again.func, row->size_bytes, &p, &diag),
                         COLLCALC_OK);
        const collcalc_nccl_candidate *c = collcalc_nccl_selected(&p);
        assert_non_null(c);
        if (row->size_bytes >= COLLCALC_FIT_LARGE_BYTES && row->busbw_GBps > 0.0)
            large[nl++] = fabs(c->busbw_GBps - row->busbw_GBps) / row->busbw_GBps;
        if (row->size_bytes <= COLLCALC_FIT_SMALL_BYTES)
            small[ns++] = fabs(c->time_us - row->time_us) / row->time_us;
    }
    /* Medians by selection sort (few rows). */
    for (size_t i = 0; i < nl; i++)
        for (size_t j = i + 1; j < nl; j++)
            if (large[j] < large[i]) {
                double x = large[i];
                large[i] = large[j];
                large[j] = x;
            }
    for (size_t i = 0; i < ns; i++)
        for (size_t j = i + 1; j < ns; j++)
            if (small[j] < small[i]) {
                double x = small[i];
                small[i] = small[j];
                small[j] = x;
            }
    *busbw_after = nl == 0 ? 0.0 : nl % 2 ? large[nl / 2] : 0.5 * (large[nl / 2 - 1] + large[nl / 2]);
    *time_after = ns == 0 ? 0.0 : ns % 2 ? small[ns / 2] : 0.5 * (small[ns / 2 - 1] + small[ns / 2]);
    assert_int_equal(nl, result->total.large_rows);
    assert_int_equal(ns, result->total.small_rows);
    assert_near(*busbw_after, result->total.busbw_error_after, 1e-12);
    assert_near(*time_after, result->total.time_error_after, 1e-12);
    collcalc_platform_table_free(merged);
    collcalc_platform_table_free(overlay);
    free_run(&l);
}

static void print_result(const char *label, const collcalc_fit_result *r)
{
    fprintf(stderr, "%s: lat %s %.10g  bw %s %.10g  fabric %s %.10g\n", label,
            r->params[0].fitted ? "fit" : "-", r->params[0].value,
            r->params[1].fitted ? "fit" : "-", r->params[1].value,
            r->params[2].fitted ? "fit" : "-", r->params[2].value);
    fprintf(stderr, "  busbw %.10g -> %.10g (%zu)  time %.10g -> %.10g (%zu)  rms %.10g -> %.10g\n",
            r->total.busbw_error_before, r->total.busbw_error_after, r->total.large_rows,
            r->total.time_error_before, r->total.time_error_after, r->total.small_rows,
            r->total.log_rms_before, r->total.log_rms_after);
}

static void test_round_trip_efa(void **state)
{
    collcalc_fit_result r;
    double busbw = 0, time = 0;
    round_trip(*state, "validation/nccl_allreduce_a100_2node_16gpu_efa400_p4de_awsome.txt",
               "aws-p4de", 2, &r, &busbw, &time);
    print_result("efa", &r);
}

static void test_round_trip_tcpxo(void **state)
{
    collcalc_fit_result r;
    double busbw = 0, time = 0;
    round_trip(*state,
               "validation/nccl_allgather_h100_2node_16gpu_tcpxo_8x200g_gcp_a3mega_clustertoolkit.txt",
               "gcp-a3-mega", 2, &r, &busbw, &time);
    print_result("tcpxo", &r);
}

static void test_round_trip_nvlink(void **state)
{
    collcalc_fit_result r;
    double busbw = 0, time = 0;
    round_trip(*state, "validation/nccl_allreduce_a100_8gpu_nvlink3_stas00.txt", "dgx-a100", 1,
               &r, &busbw, &time);
    print_result("nvlink", &r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip_efa, setup_tables, teardown_tables),
        cmocka_unit_test_setup_teardown(test_round_trip_tcpxo, setup_tables, teardown_tables),
        cmocka_unit_test_setup_teardown(test_round_trip_nvlink, setup_tables, teardown_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
