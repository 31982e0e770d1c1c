/* Verdicts on nccl-tests runs (include/collcalc/nccl_check.h): the line
 * rate of a path, the medians, and each verdict at its threshold. */
#include "support.h"

#include <math.h>
#include <string.h>

#include "collcalc/nccl_check.h"

static collcalc_check check;

static collcalc_nccl_candidate candidate(double busbw_GBps, double time_us, collcalc_nccl_algo algo)
{
    collcalc_nccl_candidate c;
    memset(&c, 0, sizeof c);
    c.busbw_GBps = busbw_GBps;
    c.time_us = time_us;
    c.algo = algo;
    return c;
}

static void test_line_rate(void **state)
{
    (void)state;
    collcalc_platform platform;
    memset(&platform, 0, sizeof platform);
    platform.nics_per_node = 8;
    platform.nics_per_gpu = 1;
    collcalc_link nvlink, ib;
    memset(&nvlink, 0, sizeof nvlink);
    memset(&ib, 0, sizeof ib);
    nvlink.bw_per_direction_GBps = 450.0;
    ib.bw_per_direction_GBps = 50.0;
    /* One node: NVLink. */
    assert_true(collcalc_check_line_rate_GBps(&platform, &nvlink, &ib, 1, 8) == 450.0);
    /* Two nodes of 8: 8 NICs x 50 = 400 < 450. */
    assert_true(collcalc_check_line_rate_GBps(&platform, &nvlink, &ib, 2, 8) == 400.0);
    /* Four GPUs per node drive only four NICs: 200. */
    assert_true(collcalc_check_line_rate_GBps(&platform, &nvlink, &ib, 2, 4) == 200.0);
    /* One GPU per node: its NIC alone. */
    assert_true(collcalc_check_line_rate_GBps(&platform, &nvlink, &ib, 4, 1) == 50.0);
    assert_true(collcalc_check_line_rate_GBps(&platform, NULL, NULL, 1, 8) == 0.0);
    assert_true(collcalc_check_line_rate_GBps(NULL, &nvlink, &ib, 1, 8) == 0.0);
}

static void test_healthy_medians(void **state)
{
    (void)state;
    collcalc_check_init(&check, 450.0);
    collcalc_nccl_candidate c = candidate(400.0, 10.0, COLLCALC_NCCL_RING);
    /* Large rows measured at 360, 400, 440: errors 11.1 %, 0 %, 9.1 %. */
    collcalc_check_add(&check, 1u << 20, 100.0, 360.0, &c);
    collcalc_check_add(&check, 1u << 24, 100.0, 400.0, &c);
    collcalc_check_add(&check, 1u << 28, 100.0, 440.0, &c);
    /* Small rows: predicted 10 us, measured 8 and 12.5 us: 25 % and 20 %. */
    collcalc_check_add(&check, 1024, 8.0, 0.1, &c);
    collcalc_check_add(&check, 65536, 12.5, 1.0, &c);
    /* Ignored: zero size, zero time, no candidate. */
    collcalc_check_add(&check, 0, 5.0, 1.0, &c);
    collcalc_check_add(&check, 4096, 0.0, 1.0, &c);
    collcalc_check_add(&check, 4096, 5.0, 1.0, NULL);
    assert_int_equal(check.large_count, 3);
    assert_int_equal(check.small_count, 2);
    collcalc_check_summary summary;
    collcalc_check_finish(&check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_HEALTHY);
    assert_true(summary.median_ratio == 1.0);
    assert_true(fabs(summary.median_busbw_error - 40.0 / 440.0) < 1e-12);
    assert_true(fabs(summary.median_time_error - 0.225) < 1e-12);
    assert_string_equal(collcalc_verdict_name(summary.verdict), "healthy");
}

static void test_below_expectation(void **state)
{
    (void)state;
    collcalc_check_init(&check, 0.0);
    collcalc_nccl_candidate c = candidate(100.0, 10.0, COLLCALC_NCCL_RING);
    collcalc_check_add(&check, 1u << 20, 100.0, 81.0, &c); /* 0.81: not below */
    collcalc_check_add(&check, 1u << 22, 100.0, 79.0, &c); /* 0.79 */
    collcalc_check_add(&check, 1u << 24, 100.0, 50.0, &c); /* 0.50, the worst */
    collcalc_check_summary summary;
    collcalc_check_finish(&check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_BELOW_EXPECTATION);
    assert_true(summary.median_ratio == 0.79);
    assert_int_equal(check.below_count, 2);
    assert_int_equal(check.below_min_bytes, 1u << 22);
    assert_int_equal(check.below_max_bytes, 1u << 24);
    assert_true(check.worst_ratio == 0.5);

    /* At exactly 80 % the run is still healthy. */
    collcalc_check_init(&check, 0.0);
    collcalc_check_add(&check, 1u << 20, 100.0, 80.0, &c);
    collcalc_check_finish(&check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_HEALTHY);
}

static void test_above_line_rate(void **state)
{
    (void)state;
    collcalc_nccl_candidate ring = candidate(300.0, 10.0, COLLCALC_NCCL_RING);
    collcalc_check_summary summary;
    /* 460 > 450 x 1.02 and 460 / 300 > 1.15: above the line rate. */
    collcalc_check_init(&check, 450.0);
    collcalc_check_add(&check, 1u << 20, 100.0, 300.0, &ring);
    collcalc_check_add(&check, 1u << 30, 100.0, 460.0, &ring);
    collcalc_check_finish(&check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_ABOVE_LINE_RATE);
    assert_int_equal(check.above_bytes, 1u << 30);
    assert_true(check.above_busbw_GBps == 460.0);
    /* 458 is within the 2 % slack. */
    collcalc_check_init(&check, 450.0);
    collcalc_check_add(&check, 1u << 30, 100.0, 458.0, &ring);
    collcalc_check_finish(&check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_HEALTHY);
    /* NVLS reduces in the switch: beating the line rate is expected. */
    collcalc_nccl_candidate nvls = candidate(300.0, 10.0, COLLCALC_NCCL_NVLS);
    collcalc_check_init(&check, 450.0);
    collcalc_check_add(&check, 1u << 30, 100.0, 600.0, &nvls);
    collcalc_check_finish(&check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_HEALTHY);
    /* Unknown line rate: never above it. */
    collcalc_check_init(&check, 0.0);
    collcalc_check_add(&check, 1u << 30, 100.0, 600.0, &ring);
    collcalc_check_finish(&check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_HEALTHY);
}

static void test_unknown_and_cap(void **state)
{
    (void)state;
    collcalc_check_summary summary;
    collcalc_check_init(&check, 100.0);
    collcalc_check_finish(&check, &summary);
    assert_int_equal(summary.verdict, COLLCALC_VERDICT_UNKNOWN);
    assert_string_equal(collcalc_verdict_name(summary.verdict), "unknown");
    assert_string_equal(collcalc_verdict_name((collcalc_verdict)99), "unknown");
    collcalc_nccl_candidate c = candidate(100.0, 10.0, COLLCALC_NCCL_RING);
    for (int i = 0; i < COLLCALC_CHECK_ROWS_MAX + 10; i++)
        collcalc_check_add(&check, 1u << 20, 100.0, 100.0, &c);
    assert_int_equal(check.large_count, COLLCALC_CHECK_ROWS_MAX);
    assert_int_equal(check.rows_over_cap, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_rate),          cmocka_unit_test(test_healthy_medians),
        cmocka_unit_test(test_below_expectation),  cmocka_unit_test(test_above_line_rate),
        cmocka_unit_test(test_unknown_and_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
