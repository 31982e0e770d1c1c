/* nccl-tests' conventions (include/collcalc/nccl_tests.h): names, printed
 * sizes and counts, factors, number formatting, and whole lines reproduced
 * byte for byte from rows of the validation files. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "support.h"

#include "collcalc/nccl_tests.h"

#define assert_close(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static void binary_names(void **state)
{
    (void)state;
    static const char *const expected[COLLCALC_OP_COUNT] = {
        "all_reduce_perf", "all_gather_perf", "reduce_scatter_perf", "alltoall_perf",
        "broadcast_perf",  "reduce_perf",     "sendrecv_perf"};
    for (int op = 0; op < COLLCALC_OP_COUNT; op++) {
        assert_string_equal(collcalc_nccl_tests_binary_name((collcalc_op)op), expected[op]);
        collcalc_op back = COLLCALC_OP_COUNT;
        assert_int_equal(collcalc_nccl_tests_op_from_binary(expected[op], &back, NULL), COLLCALC_OK);
        assert_int_equal(back, op);
    }
    assert_string_equal(collcalc_nccl_tests_binary_name(COLLCALC_OP_COUNT), "unknown");

    collcalc_op op = COLLCALC_OP_COUNT;
    assert_int_equal(collcalc_nccl_tests_op_from_binary("all_reduce_perf_mpi", &op, NULL), COLLCALC_OK);
    assert_int_equal(op, COLLCALC_OP_ALLREDUCE);
    assert_int_equal(collcalc_nccl_tests_op_from_binary("./build/alltoall_perf", &op, NULL), COLLCALC_OK);
    assert_int_equal(op, COLLCALC_OP_ALLTOALL);
    assert_int_equal(collcalc_nccl_tests_op_from_binary("/opt/nccl-tests/build/reduce_scatter_perf_mpi",
                                                        &op, NULL),
                     COLLCALC_OK);
    assert_int_equal(op, COLLCALC_OP_REDUCESCATTER);

    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_tests_op_from_binary("gather_perf", &op, &diag),
                     COLLCALC_ERR_NOT_FOUND);
    assert_non_null(strstr(diag.message, "'gather_perf' is not an nccl-tests binary"));
    assert_int_equal(collcalc_nccl_tests_op_from_binary("all_reduce", &op, NULL), COLLCALC_ERR_NOT_FOUND);
    assert_int_equal(collcalc_nccl_tests_op_from_binary("_mpi", &op, NULL), COLLCALC_ERR_NOT_FOUND);
    assert_int_equal(collcalc_nccl_tests_op_from_binary("All_Reduce_Perf", &op, NULL),
                     COLLCALC_ERR_NOT_FOUND);
    assert_int_equal(collcalc_nccl_tests_op_from_binary(NULL, &op, NULL), COLLCALC_ERR_INVALID);
}

static void type_sizes(void **state)
{
    (void)state;
    assert_int_equal(collcalc_nccl_tests_type_bytes("float"), 4);
    assert_int_equal(collcalc_nccl_tests_type_bytes("half"), 2);
    assert_int_equal(collcalc_nccl_tests_type_bytes("bfloat16"), 2);
    assert_int_equal(collcalc_nccl_tests_type_bytes("double"), 8);
    assert_int_equal(collcalc_nccl_tests_type_bytes("int8"), 1);
    assert_int_equal(collcalc_nccl_tests_type_bytes("uint64"), 8);
    assert_int_equal(collcalc_nccl_tests_type_bytes("f8e5m2"), 1);
    assert_int_equal(collcalc_nccl_tests_type_bytes("float128"), 0);
    assert_int_equal(collcalc_nccl_tests_type_bytes(""), 0);
    assert_int_equal(collcalc_nccl_tests_type_bytes(NULL), 0);
}

static void busbw_factors(void **state)
{
    (void)state;
    assert_true(collcalc_busbw_factor(COLLCALC_OP_ALLREDUCE, 8) == 1.75);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_ALLREDUCE, 16) == 1.875);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_ALLREDUCE, 2) == 1.0);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_ALLREDUCE, 1) == 0.0);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_ALLREDUCE, 0) == 0.0);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_ALLGATHER, 16) == 0.9375);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_REDUCESCATTER, 4) == 0.75);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_ALLTOALL, 2) == 0.5);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_ALLTOALL, 1) == 0.0);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_ALLGATHER, -3) == 0.0);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_BROADCAST, 8) == 1.0);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_REDUCE, 1) == 1.0);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_SENDRECV, 0) == 1.0);
    assert_true(collcalc_busbw_factor(COLLCALC_OP_COUNT, 8) == 1.0);
    assert_close(collcalc_busbw_factor(COLLCALC_OP_ALLREDUCE, 72), 142.0 / 72.0, 1e-15);
}

static void printed_sizes(void **state)
{
    (void)state;
    collcalc_nccl_tests_sizes s;
    /* all-reduce: the whole buffer, whole elements */
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_ALLREDUCE, 1048576, 4, 16, &s, NULL),
                     COLLCALC_OK);
    assert_int_equal(s.count, 262144);
    assert_int_equal(s.size_bytes, 1048576);
    assert_int_equal(s.algbw_bytes, 1048576);
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_BROADCAST, 10, 4, 8, &s, NULL),
                     COLLCALC_OK);
    assert_int_equal(s.count, 2);
    assert_int_equal(s.size_bytes, 8);
    /* all-gather on 16 ranks (the TCPXO file): 128 B prints 0/0, 256 B 256/4 */
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_ALLGATHER, 128, 4, 16, &s, NULL),
                     COLLCALC_OK);
    assert_int_equal(s.count, 0);
    assert_int_equal(s.size_bytes, 0);
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_ALLGATHER, 256, 4, 16, &s, NULL),
                     COLLCALC_OK);
    assert_int_equal(s.count, 4);
    assert_int_equal(s.size_bytes, 256);
    assert_int_equal(s.algbw_bytes, 256);
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_ALLGATHER, 8589934592ULL, 4, 16, &s,
                                                   NULL),
                     COLLCALC_OK);
    assert_int_equal(s.count, 134217728);
    /* 2 ranks (the 2080 Ti file): 8 and 16 B print 0, 32 B prints 32 / 4 */
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_ALLGATHER, 16, 4, 2, &s, NULL),
                     COLLCALC_OK);
    assert_int_equal(s.size_bytes, 0);
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_ALLGATHER, 32, 4, 2, &s, NULL),
                     COLLCALC_OK);
    assert_int_equal(s.count, 4);
    assert_int_equal(s.size_bytes, 32);
    /* the per-rank chunk rounds down to 16 bytes: 100 B of int8 over 3 ranks */
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_ALLTOALL, 100, 1, 3, &s, NULL),
                     COLLCALC_OK);
    assert_int_equal(s.count, 32);
    assert_int_equal(s.size_bytes, 96);
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_REDUCESCATTER, 1000, 8, 3, &s, NULL),
                     COLLCALC_OK);
    assert_int_equal(s.count, 40); /* 125 elements / 3 = 41, cut to a multiple of 2 */
    assert_int_equal(s.size_bytes, 960);
    /* refusals */
    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_ALLREDUCE, 8, 0, 8, &s, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "element size"));
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_ALLREDUCE, 8, 4, 0, &s, &diag),
                     COLLCALC_ERR_INVALID);
    assert_int_equal(collcalc_nccl_tests_sizes_for(COLLCALC_OP_COUNT, 8, 4, 8, &s, &diag),
                     COLLCALC_ERR_INVALID);
}

static void redop_and_root(void **state)
{
    (void)state;
    assert_string_equal(collcalc_nccl_tests_redop(COLLCALC_OP_ALLREDUCE), "sum");
    assert_string_equal(collcalc_nccl_tests_redop(COLLCALC_OP_REDUCESCATTER), "sum");
    assert_string_equal(collcalc_nccl_tests_redop(COLLCALC_OP_REDUCE), "sum");
    assert_string_equal(collcalc_nccl_tests_redop(COLLCALC_OP_SENDRECV), "sum");
    assert_string_equal(collcalc_nccl_tests_redop(COLLCALC_OP_ALLGATHER), "none");
    assert_string_equal(collcalc_nccl_tests_redop(COLLCALC_OP_ALLTOALL), "none");
    assert_string_equal(collcalc_nccl_tests_redop(COLLCALC_OP_BROADCAST), "none");
    assert_int_equal(collcalc_nccl_tests_root(COLLCALC_OP_BROADCAST, 0), 0);
    assert_int_equal(collcalc_nccl_tests_root(COLLCALC_OP_REDUCE, 3), 3);
    assert_int_equal(collcalc_nccl_tests_root(COLLCALC_OP_ALLREDUCE, 3), -1);
    assert_int_equal(collcalc_nccl_tests_root(COLLCALC_OP_SENDRECV, 0), -1);
    assert_true(collcalc_nccl_tests_count_is_per_rank(COLLCALC_OP_ALLGATHER));
    assert_true(collcalc_nccl_tests_count_is_per_rank(COLLCALC_OP_ALLTOALL));
    assert_false(collcalc_nccl_tests_count_is_per_rank(COLLCALC_OP_BROADCAST));
}

static void fit_to_width(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, 5250.2, 7), "5250.20");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, 10820.2, 7), "10820.2");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, 123456.7, 7), "123457");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, 1234567.0, 7), "1234567");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, 12345678.9, 7), "1.2e+07");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, 0.30, 7), "0.30");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, 0.188, 6), "0.19");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, 1234.56, 6), "1234.6");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, 999999.4, 6), "999999");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, 1234567.0, 6), "1e+06");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, NAN, 6), "n/a");
    assert_string_equal(collcalc_nccl_tests_number_format(b, sizeof b, INFINITY, 7), "n/a");
    char small[4];
    assert_string_equal(collcalc_nccl_tests_number_format(small, sizeof small, 5250.2, 7), "525");
    /* legacy thresholds, as most published logs print */
    assert_string_equal(collcalc_nccl_tests_time_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_LEGACY, 99.45),
                        "99.45");
    assert_string_equal(collcalc_nccl_tests_time_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_LEGACY, 181.1),
                        "181.1");
    assert_string_equal(collcalc_nccl_tests_time_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_LEGACY, 9919.0),
                        "9919.0");
    assert_string_equal(collcalc_nccl_tests_time_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_LEGACY, 10390.0),
                        "10390");
    assert_string_equal(collcalc_nccl_tests_time_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT, 1510.98),
                        "1510.98");
    assert_string_equal(
        collcalc_nccl_tests_bandwidth_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_LEGACY, 1234.567),
        "1234.57");
    assert_string_equal(
        collcalc_nccl_tests_bandwidth_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT, 1234.567),
        "1234.6");
}

/* Builds a row from the op, requested size, ranks and the two times, the way
 * a prediction would, and formats it. */
static const char *predicted_row(char *buffer, size_t size, collcalc_nccl_tests_style style,
                                 collcalc_op op, uint64_t bytes, int ranks, double time_oop,
                                 double time_ip)
{
    collcalc_nccl_tests_row row;
    assert_int_equal(collcalc_nccl_tests_row_for(op, bytes, ranks, 0, "float", &row, NULL), COLLCALC_OK);
    row.out_of_place = collcalc_nccl_tests_measure(op, ranks, row.size_bytes, time_oop, 0);
    row.in_place = collcalc_nccl_tests_measure(op, ranks, row.size_bytes, time_ip, 0);
    return collcalc_nccl_tests_row_format(buffer, size, style, &row);
}

static void rows_reproduced(void **state)
{
    (void)state;
    char b[COLLCALC_NCCL_TESTS_LINE_MAX];
    /* nccl_allreduce_h100_2node_16gpu_ib400_ring_minctas24_qps2_issue309.txt, last row */
    assert_string_equal(predicted_row(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_LEGACY, COLLCALC_OP_ALLREDUCE,
                                      8589934592ULL, 16, 41015, 41056),
                        "  8589934592    2147483648     float     sum      -1    41015  209.43  392.69"
                        "      0    41056  209.22  392.30      0");
    /* nccl_allgather_2080ti_2gpu_pcie_nop2p_autodl.txt, 64 MiB row */
    assert_string_equal(predicted_row(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_LEGACY, COLLCALC_OP_ALLGATHER,
                                      67108864, 2, 10390, 9919.0),
                        "    67108864       8388608     float    none      -1    10390    6.46    3.23"
                        "      0   9919.0    6.77    3.38      0");
    /* nccl_allgather_h100_2node_16gpu_tcpxo_...: nccl-tests 2.19-style rows */
    assert_string_equal(predicted_row(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT, COLLCALC_OP_ALLGATHER,
                                      33554432, 16, 290.54, 284.11),
                        "    33554432        524288     float    none      -1   290.54  115.49  108.27"
                        "       0   284.11  118.10  110.72       0");
    assert_string_equal(predicted_row(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT, COLLCALC_OP_ALLGATHER,
                                      256, 16, 86.95, 88.21),
                        "         256             4     float    none      -1    86.95    0.00    0.00"
                        "       0    88.21    0.00    0.00       0");
    /* requested 128 B on 16 ranks: nccl-tests' five 0-byte rows */
    assert_string_equal(predicted_row(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT, COLLCALC_OP_ALLGATHER,
                                      128, 16, 0.30, 0.26),
                        "           0             0     float    none      -1     0.30    0.00    0.00"
                        "       0     0.26    0.00    0.00       0");

    /* N/A, an absent in-place group, a root */
    collcalc_nccl_tests_row row;
    assert_int_equal(collcalc_nccl_tests_row_for(COLLCALC_OP_BROADCAST, 1024, 8, 0, NULL, &row, NULL),
                     COLLCALC_OK);
    row.out_of_place = collcalc_nccl_tests_measure(COLLCALC_OP_BROADCAST, 8, row.size_bytes, 5.45,
                                                   COLLCALC_NCCL_TESTS_WRONG_NA);
    assert_string_equal(collcalc_nccl_tests_row_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT, &row),
                        "        1024           256     float    none       0     5.45    0.19    0.19"
                        "     N/A");
    collcalc_diag diag;
    assert_int_equal(collcalc_nccl_tests_row_for(COLLCALC_OP_BROADCAST, 1024, 8, 0, "complex", &row, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "unknown nccl-tests data type 'complex'"));
}

static void measurements(void **state)
{
    (void)state;
    /* README.md's sample: 1024 B / 5.45 us on 8 GPUs = 0.188 GB/s, busbw x 1.75 */
    collcalc_nccl_tests_measurement m = collcalc_nccl_tests_measure(COLLCALC_OP_ALLREDUCE, 8, 1024, 5.45, 0);
    assert_true(m.present);
    assert_close(m.algbw_GBps, 1024.0 / 5.45 / 1e3, 1e-12);
    assert_close(m.busbw_GBps, m.algbw_GBps * 1.75, 1e-12);
    m = collcalc_nccl_tests_measure(COLLCALC_OP_ALLREDUCE, 8, 1024, 0.0, 0);
    assert_true(m.algbw_GBps == 0.0 && m.busbw_GBps == 0.0);
    m = collcalc_nccl_tests_measure(COLLCALC_OP_ALLREDUCE, 8, 1024, NAN, 0);
    assert_true(m.time_us == 0.0 && m.algbw_GBps == 0.0);
    m = collcalc_nccl_tests_measure(COLLCALC_OP_ALLREDUCE, 8, UINT64_MAX, 1e-300, 0);
    assert_true(isfinite(m.algbw_GBps) && isfinite(m.busbw_GBps));
}

static void header_and_footer(void **state)
{
    (void)state;
    char b[COLLCALC_NCCL_TESTS_LINE_MAX];
    /* nccl_allreduce_gb200_nvl72_..._coreweave.txt keeps the trailing blanks */
    assert_string_equal(collcalc_nccl_tests_header_line_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_LEGACY, 0,
                                                               false),
                        "#                                                              out-of-place"
                        "                       in-place          ");
    assert_string_equal(collcalc_nccl_tests_header_line_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_LEGACY, 1,
                                                               false),
                        "#       size         count      type   redop    root     time   algbw   busbw"
                        " #wrong     time   algbw   busbw #wrong");
    assert_string_equal(collcalc_nccl_tests_header_line_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_LEGACY, 2,
                                                               false),
                        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)"
                        "            (us)  (GB/s)  (GB/s)       ");
    assert_string_equal(collcalc_nccl_tests_header_line_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT,
                                                               1, false),
                        "#       size         count      type   redop    root     time   algbw   busbw"
                        "  #wrong     time   algbw   busbw  #wrong");
    assert_string_equal(collcalc_nccl_tests_header_line_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT,
                                                               2, false),
                        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)"
                        "             (us)  (GB/s)  (GB/s)        ");
    assert_string_equal(collcalc_nccl_tests_header_line_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT,
                                                               1, true),
                        "#       size         count      type   redop    root  cputime   algbw   busbw"
                        "  #wrong  cputime   algbw   busbw  #wrong");
    assert_string_equal(collcalc_nccl_tests_header_line_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT,
                                                               3, false),
                        "");
    assert_string_equal(collcalc_nccl_tests_footer_errors_format(b, sizeof b, 0),
                        "# Out of bounds values : 0 OK");
    assert_string_equal(collcalc_nccl_tests_footer_errors_format(b, sizeof b, 12),
                        "# Out of bounds values : 12 FAILED");
    assert_string_equal(collcalc_nccl_tests_footer_avg_busbw_format(b, sizeof b, 745.53),
                        "# Avg bus bandwidth    : 745.53 ");
    assert_string_equal(collcalc_nccl_tests_footer_avg_busbw_format(b, sizeof b, NAN),
                        "# Avg bus bandwidth    : 0 ");
    assert_string_equal(collcalc_nccl_tests_banner_format(b, sizeof b, COLLCALC_OP_ALLGATHER, false),
                        "# Collective test starting: all_gather_perf");
    assert_string_equal(collcalc_nccl_tests_banner_format(b, sizeof b, COLLCALC_OP_SENDRECV, true),
                        "# Collective test concluded: sendrecv_perf");
}

static void average_over_every_measurement(void **state)
{
    (void)state;
    /* The GB200 file's five rows: out-of-place and in-place busbw average to
     * the 745.53 its footer prints. */
    static const double busbw[5][2] = {{586.06, 576.74}, {681.17, 724.06}, {757.78, 773.62},
                                       {839.16, 835.32}, {834.57, 846.82}};
    collcalc_nccl_tests_row rows[5];
    for (int i = 0; i < 5; i++) {
        collcalc_nccl_tests_row_init(&rows[i]);
        rows[i].out_of_place.present = rows[i].in_place.present = true;
        rows[i].out_of_place.busbw_GBps = busbw[i][0];
        rows[i].in_place.busbw_GBps = busbw[i][1];
    }
    double avg = collcalc_nccl_tests_average_busbw(rows, 5);
    char b[64];
    assert_string_equal(collcalc_nccl_tests_footer_avg_busbw_format(b, sizeof b, avg),
                        "# Avg bus bandwidth    : 745.53 ");
    rows[4].in_place.present = false; /* absent columns do not count */
    assert_close(collcalc_nccl_tests_average_busbw(rows, 5), (avg * 10 - 846.82) / 9, 1e-9);
    assert_true(collcalc_nccl_tests_average_busbw(rows, 0) == 0.0);
    assert_true(collcalc_nccl_tests_average_busbw(NULL, 3) == 0.0);
}

static void row_init_defaults(void **state)
{
    (void)state;
    collcalc_nccl_tests_row row;
    memset(&row, 0x5a, sizeof row);
    collcalc_nccl_tests_row_init(&row);
    assert_string_equal(row.type, "float");
    assert_string_equal(row.redop, "none");
    assert_int_equal(row.root, -1);
    assert_false(row.out_of_place.present);
    assert_false(row.in_place.present);
    char b[COLLCALC_NCCL_TESTS_LINE_MAX];
    assert_string_equal(collcalc_nccl_tests_row_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT, &row),
                        "           0             0     float    none      -1");
    /* unterminated names in a caller's row are not read past */
    memset(row.type, 'x', sizeof row.type);
    collcalc_nccl_tests_row_format(b, sizeof b, COLLCALC_NCCL_TESTS_STYLE_CURRENT, &row);
    assert_non_null(strstr(b, "xxxxxxxxxxxxxxx "));
    assert_null(collcalc_nccl_tests_row_format(NULL, 10, COLLCALC_NCCL_TESTS_STYLE_CURRENT, &row));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(binary_names),     cmocka_unit_test(type_sizes),
        cmocka_unit_test(busbw_factors),    cmocka_unit_test(printed_sizes),
        cmocka_unit_test(redop_and_root),   cmocka_unit_test(fit_to_width),
        cmocka_unit_test(rows_reproduced),  cmocka_unit_test(measurements),
        cmocka_unit_test(header_and_footer), cmocka_unit_test(average_over_every_measurement),
        cmocka_unit_test(row_init_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
