/* nccl-tests' conventions in one place: binary names per op, the size and
 * count columns it prints, the bytes algbw divides by, the busbw factors, the
 * redop/root columns, its number formatting, header, data-row and footer
 * lines. Pure functions over values; the rules are nccl-tests 2.19.6's
 * (README.md, "Conventions", for the meaning of S and busbw). */
#ifndef COLLCALC_NCCL_TESTS_H
#define COLLCALC_NCCL_TESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/model.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Which nccl-tests printing rules to follow.
 *   CURRENT (nccl-tests 2.19.6): time and bandwidths go through the
 *     fit-to-width routine (collcalc_nccl_tests_number_format, widths 7 and
 *     6); #wrong is "%6g"; the header's #wrong label is "%6s" after two spaces.
 *   LEGACY (the releases most published logs come from): time is "%.2f"
 *     below 100 us, "%.1f" below 10,000 us, "%.0f" from there; bandwidths are
 *     "%6.2f"; #wrong is "%5g" and its header label " %6s". */
typedef enum {
    COLLCALC_NCCL_TESTS_STYLE_CURRENT = 0,
    COLLCALC_NCCL_TESTS_STYLE_LEGACY
} collcalc_nccl_tests_style;

/* Longest type or redop name kept, including the NUL ("bfloat16", "mulsum"). */
#define COLLCALC_NCCL_TESTS_NAME_MAX 16

/* #wrong printed as "N/A" (nccl-tests -c 0). */
#define COLLCALC_NCCL_TESTS_WRONG_NA (-1L)

/* ---- names ------------------------------------------------------------ */

/* The nccl-tests binary for op: "all_reduce_perf", "all_gather_perf",
 * "reduce_scatter_perf", "alltoall_perf", "broadcast_perf", "reduce_perf",
 * "sendrecv_perf". Static; "unknown" for an out-of-range op. */
const char *collcalc_nccl_tests_binary_name(collcalc_op op);

/* The op a binary name runs. Accepts a bare name or a path
 * ("./build/all_reduce_perf"), with or without the "_mpi" suffix of MPI
 * builds ("all_reduce_perf_mpi"); exact, case-sensitive. COLLCALC_ERR_NOT_FOUND
 * for other names (gather_perf, hypercube_perf, ... are not modelled). */
collcalc_status collcalc_nccl_tests_op_from_binary(const char *name, collcalc_op *out_op,
                                                   collcalc_diag *diag);

/* Element size in bytes of an nccl-tests data type name ("int8" 1, "uint8"
 * 1, "half" 2, "bfloat16" 2, "f8e4m3" 1, "f8e5m2" 1, "int32" 4, "uint32" 4,
 * "float" 4, "int64" 8, "uint64" 8, "double" 8; also "int" 4, "fp16" 2 and
 * the other aliases -d accepts); 0 for a name it does not know. */
int collcalc_nccl_tests_type_bytes(const char *type_name);

/* ---- sizes, counts, factors --------------------------------------------- */

/* nccl-tests' busbw factor: collcalc_busbw_factor, declared in
 * collcalc/model.h (included above). */

/* True when nccl-tests prints (and passes to NCCL) a per-rank count for op:
 * all-gather, reduce-scatter, all-to-all. */
bool collcalc_nccl_tests_count_is_per_rank(collcalc_op op);

/* What nccl-tests prints for a requested size S (its -b/-e bytes). */
typedef struct {
    uint64_t count;       /* the count column: elements per NCCL call (per rank for AG/RS/alltoall) */
    uint64_t size_bytes;  /* the size column; can be below the requested size */
    uint64_t algbw_bytes; /* bytes algbw divides by (equal to size_bytes for every op here) */
} collcalc_nccl_tests_sizes;

/* The size and count columns for op, a requested size, an element size and
 * ranks (GetCollByteCount's rule): count = floor(S / element_bytes) elements;
 * for all-gather, reduce-scatter and all-to-all each rank's share
 * floor(count / ranks) is rounded down to a multiple of 16 bytes (of
 * max(1, 16 / element_bytes) elements), the count column is that per-rank
 * share and the size column share x element_bytes x ranks. So 100 B of float
 * over 16 ranks prints size 0, count 0; 256 B prints 256 and 4. Errors
 * (COLLCALC_ERR_INVALID): element_bytes outside 1..16, ranks < 1, an
 * out-of-range op. */
collcalc_status collcalc_nccl_tests_sizes_for(collcalc_op op, uint64_t requested_bytes,
                                              int element_bytes, int ranks,
                                              collcalc_nccl_tests_sizes *out_sizes,
                                              collcalc_diag *diag);

/* The redop column nccl-tests prints with its default -o sum: "sum" for
 * all-reduce, reduce-scatter, reduce and sendrecv, "none" for all-gather,
 * all-to-all and broadcast. Static, never NULL. */
const char *collcalc_nccl_tests_redop(collcalc_op op);

/* The root column: root for broadcast and reduce (nccl-tests' default -r 0
 * prints 0), -1 for every other op. */
long collcalc_nccl_tests_root(collcalc_op op, long root);

/* ---- rows ------------------------------------------------------------- */

/* One measured (or predicted) out-of-place or in-place group of columns. */
typedef struct {
    bool present;      /* false: the file has no such columns (e.g. no in-place) */
    double time_us;    /* time (or cputime with -C) in microseconds */
    double algbw_GBps; /* GB = 10^9 bytes */
    double busbw_GBps;
    long wrong;        /* #wrong elements; COLLCALC_NCCL_TESTS_WRONG_NA for "N/A" */
} collcalc_nccl_tests_measurement;

/* One data row of an nccl-tests table. */
typedef struct {
    uint64_t size_bytes;                       /* size column (B) */
    uint64_t count;                            /* count column (elements) */
    char type[COLLCALC_NCCL_TESTS_NAME_MAX];   /* "float" */
    char redop[COLLCALC_NCCL_TESTS_NAME_MAX];  /* "sum", "none", ... */
    long root;                                 /* -1 when the op has none */
    collcalc_nccl_tests_measurement out_of_place;
    collcalc_nccl_tests_measurement in_place;
} collcalc_nccl_tests_row;

/* Empty row: size and count 0, type "float", redop "none", root -1, both
 * measurements absent (time and bandwidths 0, wrong 0). */
void collcalc_nccl_tests_row_init(collcalc_nccl_tests_row *row);

/* The row nccl-tests would print for op at a requested size on ranks GPUs
 * with element type type_name ("float"; NULL means "float"): size, count,
 * type, redop and root columns per the rules above; measurements absent.
 * Errors as collcalc_nccl_tests_sizes_for, and COLLCALC_ERR_INVALID for an
 * unknown type name. */
collcalc_status collcalc_nccl_tests_row_for(collcalc_op op, uint64_t requested_bytes, int ranks,
                                            long root, const char *type_name,
                                            collcalc_nccl_tests_row *out_row,
                                            collcalc_diag *diag);

/* A measurement from a time: algbw = algbw_bytes / time (GB/s, 10^9) and
 * busbw = algbw x collcalc_busbw_factor(op, ranks); present is true, wrong
 * is `wrong`. A time that is not finite and > 0 gives algbw and busbw 0
 * (never inf or nan). */
collcalc_nccl_tests_measurement collcalc_nccl_tests_measure(collcalc_op op, int ranks,
                                                            uint64_t algbw_bytes,
                                                            double time_us, long wrong);

/* ---- text ------------------------------------------------------------- */

/* nccl-tests' fit-to-width number (CURRENT style): "%.2f" when that is at
 * most width characters, else "%.1f", else "%.0f", else exponent form
 * ("%.1e" for width >= 7, "%.0e" below). Non-finite values print "n/a".
 * Writes into buffer (NUL-terminated, truncated to buffer_size; nothing when
 * it is 0) and returns buffer; 32 bytes always suffice. */
char *collcalc_nccl_tests_number_format(char *buffer, size_t buffer_size, double value,
                                        int width);

/* The time column's text (without padding) in a style: CURRENT is
 * format_number(width 7), LEGACY the fixed thresholds above. */
char *collcalc_nccl_tests_time_format(char *buffer, size_t buffer_size,
                                      collcalc_nccl_tests_style style, double time_us);

/* A bandwidth column's text (without padding): CURRENT format_number(width 6),
 * LEGACY "%.2f". */
char *collcalc_nccl_tests_bandwidth_format(char *buffer, size_t buffer_size,
                                           collcalc_nccl_tests_style style, double GBps);

/* Longest line the formatters below write, including the NUL. */
#define COLLCALC_NCCL_TESTS_LINE_MAX 256

/* One of the three table header lines (index 0: "out-of-place / in-place"
 * labels; 1: column names; 2: units), without a newline, exactly as
 * nccl-tests prints them (including trailing blanks); cputime names the time
 * columns "cputime" (-C 1). Writes into buffer and returns it; an index
 * outside 0..2 writes "". */
char *collcalc_nccl_tests_header_line_format(char *buffer, size_t buffer_size,
                                             collcalc_nccl_tests_style style, int index,
                                             bool cputime);

/* One data row without a newline: "%12li  %12li  %8s  %6s  %6s" (size,
 * count, type, redop, root), then for out-of-place and in-place
 * "  %7s  %6s  %6s  %6g" (time, algbw, busbw, #wrong; LEGACY "%5g"; "N/A"
 * for COLLCALC_NCCL_TESTS_WRONG_NA). An absent measurement's columns are
 * left out. Writes into buffer (COLLCALC_NCCL_TESTS_LINE_MAX is enough) and
 * returns it. */
char *collcalc_nccl_tests_row_format(char *buffer, size_t buffer_size,
                                     collcalc_nccl_tests_style style,
                                     const collcalc_nccl_tests_row *row);

/* "# Out of bounds values : N OK" (N == 0) or "... : N FAILED". */
char *collcalc_nccl_tests_footer_errors_format(char *buffer, size_t buffer_size, long errors);

/* "# Avg bus bandwidth    : %g " (with nccl-tests' trailing blank). The
 * average is over every printed measurement: each size, out-of-place and
 * in-place, every type/op/root (collcalc_nccl_tests_average_busbw). */
char *collcalc_nccl_tests_footer_avg_busbw_format(char *buffer, size_t buffer_size,
                                                  double avg_busbw_GBps);

/* Arithmetic mean of busbw over every present measurement of rows[0..count);
 * 0 when there is none. */
double collcalc_nccl_tests_average_busbw(const collcalc_nccl_tests_row *rows, size_t count);

/* "# Collective test starting: all_reduce_perf" / "... concluded: ..." for op. */
char *collcalc_nccl_tests_banner_format(char *buffer, size_t buffer_size, collcalc_op op,
                                        bool concluded);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
