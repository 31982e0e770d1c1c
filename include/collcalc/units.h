/* Parsing and formatting of sizes, times, bandwidths and counts: the only
 * place in collcalc that turns text into numbers or numbers into text. */
#ifndef COLLCALC_UNITS_H
#define COLLCALC_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* One number grammar for every quantity (sizes, times, bandwidths, counts,
 * plain numbers): decimal digits with at most one '.', a digit on each side
 * of it; no exponents anywhere ("1e6", "1e3ns", "1e-300GB/s" and "1e3" are
 * all refused: write the digits or use a unit), no signs (except where a
 * plain number's range allows a negative), no hex, nan, inf, spaces or digit
 * separators. Every echo of the input in a message is cut at
 * COLLCALC_ECHO_MAX bytes (status.h), with "...". */

/* Parses a message size into bytes. Units are case-sensitive:
 *   "100MB" = 100,000,000 (SI: kB/KB, MB, GB, TB, PB)
 *   "100MiB" = 104,857,600 (IEC: KiB, MiB, GiB, TiB, PiB)
 *   "1G", "8K", "8k", "1P" = binary, as nccl-tests' -b/-e (K, M, G, T, P, either case)
 *   "4096", "4096B" = bytes; "0" is accepted (callers check ranges).
 * A fraction needs a unit and at least one digit on each side of the '.';
 * it is allowed when the result is a whole number of bytes ("1.5GiB",
 * "1.1KB"; "0.3K" and "1.5" are refused), computed exactly with integers.
 * Rejected: empty text, signs, spaces, hex, nan/inf, exponents ("1e6"),
 * trailing junk ("8Mx", "8MBs"), bits (a lowercase final b: "100Mb",
 * "100mb", "8b", "1Gbit"), bandwidth units ("8GB/s"), fractions of a byte,
 * more than 19 significant digits after the '.', sizes past INT64_MAX
 * (9223372036854775807 bytes, 8 EiB: results print sizes as signed 64-bit
 * integers, in JSON and CSV).
 * On failure diag says "invalid size '<text>': <why>". */
collcalc_status collcalc_size_bytes_parse(const char *text, uint64_t *out_bytes,
                                          collcalc_diag *diag);

/* Parses a duration into microseconds. A unit is required: "ns", "us", "µs"
 * (U+00B5 or U+03BC), "ms", "s" ("1.5us", "1000ns"; "2 us" is rejected: no
 * spaces), except for zero, which needs none ("0", "0.0"). A digit is
 * required on each side of a '.'. Rejected: exponents ("1e3ns"), signs,
 * nan/inf, hex, junk, and values too large to be finite. Result >= 0.
 * On failure diag says "invalid time '<text>': <why>". */
collcalc_status collcalc_time_us_parse(const char *text, double *out_us, collcalc_diag *diag);

/* Parses a bandwidth into GB/s (10^9 bytes per second). A unit is required:
 * bytes "MB/s", "GB/s", "TB/s", "MBps", "GBps", "TBps"; bits "Mb/s", "Gb/s",
 * "Tb/s", "Mbps", "Gbps", "Tbps" (÷ 8). "400G" is refused as ambiguous.
 * Same number grammar as times (no exponents). Must be finite and > 0.
 * On failure diag says "invalid bandwidth '<text>': <why>". */
collcalc_status collcalc_parse_bandwidth_GBps(const char *text, double *out_GBps,
                                              collcalc_diag *diag);

/* Parses a plain decimal integer in [min_value, max_value] ("8"; no sign,
 * no suffix, no exponent, no junk). Messages: "'1x' is not a whole number",
 * "'0' is out of range: must be between 1 and 1000000" (also for "-1" when
 * min >= 0). */
collcalc_status collcalc_count_parse(const char *text, long min_value, long max_value,
                                     long *out_value, collcalc_diag *diag);

/* Parses a plain finite decimal number in [min_value, max_value] ("0.92",
 * "1000", "-2" when the range allows it; a digit is required on each side of
 * a '.'; no exponents, nan/inf, hex, spaces or junk). -0 is returned as 0. */
collcalc_status collcalc_number_parse(const char *text, double min_value, double max_value,
                                      double *out_value, collcalc_diag *diag);

/* Formatting. Each writes a NUL-terminated string into buffer (truncated to
 * buffer_size; nothing is written when buffer_size is 0) and returns buffer,
 * so calls can be used inline in printf. With 32 bytes the result is never
 * truncated. Non-finite inputs print as "n/a" (callers check before
 * printing; this is a last guard, never a value).
 *
 * "3 significant digits" everywhere means: in the chosen unit, values from
 * 100 print with no decimals, from 10 with one, from 1 with two, below 1
 * with as many as give 3 significant digits ("175 MB", "97.2 us", "3.50 ms",
 * "0.188 GB/s"). Trailing zeros are kept: they state the precision. The
 * unit is the largest one the value reaches; when rounding reaches 1000 the
 * next unit is used ("999.7 MB" -> "1.00 GB"). Zero prints as "0 <base
 * unit>", negatives get a '-'. Below 0.001 of the smallest unit, or from
 * 10^15 of the largest, scientific notation is used ("1.23e-05 GB/s"). */

/* Human size with SI units (B, kB, MB, GB, TB, PB, EB), 3 significant
 * digits: "175 MB", "1.40 GB", "64.0 kB"; whole byte counts below 1 kB
 * print as integers: "512 B". */
char *collcalc_bytes_format_si(char *buffer, size_t buffer_size, double bytes);

/* Human size with binary units as nccl-tests sizes are usually named
 * (B, KiB, ..., EiB): "256 KiB", "1 GiB", "100 B", "1000 KiB". Exact when a
 * whole multiple of the unit the value reaches, else 3 significant digits
 * ("1.50 KiB"). */
char *collcalc_bytes_format_iec(char *buffer, size_t buffer_size, double bytes);

/* Human duration from microseconds, 3 significant digits, ASCII units: below
 * 1 us in ns ("750 ns"), below 1000 us in us ("97.2 us"), below 10^6 us in
 * ms ("3.50 ms", "280 ms"), else s ("1.20 s"). */
char *collcalc_time_us_format(char *buffer, size_t buffer_size, double time_us);

/* Bandwidth in GB/s: from 1000 (after rounding) a whole number with
 * thousands separators ("1,800 GB/s"), else 3 significant digits
 * ("900 GB/s", "12.5 GB/s", "50.0 GB/s", "0.188 GB/s"). */
char *collcalc_format_bandwidth_GBps(char *buffer, size_t buffer_size, double GBps);

/* Whole number with thousands separators: 175000000 -> "175,000,000". */
char *collcalc_u64_format_grouped(char *buffer, size_t buffer_size, uint64_t value);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
