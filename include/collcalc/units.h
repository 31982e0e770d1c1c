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

/* Parses a message size into bytes.
 *   "100MB" = 100,000,000 (SI: kB/KB, MB, GB, TB, PB)
 *   "100MiB" = 104,857,600 (IEC: KiB, MiB, GiB, TiB, PiB)
 *   "1G", "8K", "8k" = binary, as nccl-tests' -b/-e (K, M, G, T, either case)
 *   "4096", "4096B" = bytes.
 * A fraction is allowed with a suffix when the result is a whole number of
 * bytes ("1.5GiB"). Rejected: empty text, signs, spaces, hex, nan/inf,
 * trailing junk ("8Mx"), bits ("100Mb", "1Gbit"), fractions of a byte,
 * overflow past UINT64_MAX. */
collcalc_status collcalc_parse_size_bytes(const char *text, uint64_t *out_bytes,
                                          collcalc_diag *diag);

/* Parses a duration into microseconds. A unit is required: "ns", "us", "µs",
 * "ms", "s" ("1.5us", "2 us" is rejected: no spaces). Must be finite, >= 0. */
collcalc_status collcalc_parse_time_us(const char *text, double *out_us, collcalc_diag *diag);

/* Parses a bandwidth into GB/s (10^9 bytes per second). A unit is required:
 * "MB/s", "GB/s", "TB/s", "GBps", bits "Mb/s", "Gb/s", "Gbps", "Tb/s" (÷ 8).
 * Must be finite and > 0. */
collcalc_status collcalc_parse_bandwidth_GBps(const char *text, double *out_GBps,
                                              collcalc_diag *diag);

/* Parses a plain decimal integer in [min_value, max_value] ("8"; no sign,
 * no suffix, no junk). */
collcalc_status collcalc_parse_count(const char *text, long min_value, long max_value,
                                     long *out_value, collcalc_diag *diag);

/* Parses a plain finite decimal number in [min_value, max_value] ("0.92",
 * "1e3"; no nan/inf, no junk). */
collcalc_status collcalc_parse_number(const char *text, double min_value, double max_value,
                                      double *out_value, collcalc_diag *diag);

/* Formatting. Each writes a NUL-terminated string into buffer (truncated to
 * buffer_size) and returns buffer, so calls can be used inline in printf.
 * Non-finite inputs print as "n/a" (callers check before printing; this is a
 * last guard, never a value). */

/* Human size with SI units and 3 significant digits: "175 MB", "1.4 GB",
 * "64 kB", "512 B". */
char *collcalc_format_bytes_si(char *buffer, size_t buffer_size, double bytes);

/* Human size with binary units as nccl-tests sizes are usually named:
 * "256 KiB", "1 GiB", "100 B". Exact when a whole multiple, else 3 digits. */
char *collcalc_format_bytes_iec(char *buffer, size_t buffer_size, double bytes);

/* Human duration from microseconds, 3 significant digits: "97.2 us",
 * "3.50 ms", "280 ms", "1.20 s", "750 ns". */
char *collcalc_format_time_us(char *buffer, size_t buffer_size, double time_us);

/* Bandwidth in GB/s with 3 significant digits or whole numbers above 1000:
 * "900 GB/s", "12.5 GB/s", "1,800 GB/s". */
char *collcalc_format_bandwidth_GBps(char *buffer, size_t buffer_size, double GBps);

/* Whole number with thousands separators: 175000000 -> "175,000,000". */
char *collcalc_format_grouped_u64(char *buffer, size_t buffer_size, uint64_t value);

#ifdef __cplusplus
}
#endif

#endif
