/* Numbers for people: every quantity on a unit ladder with 3 significant
 * digits ("175 MB", "97.2 us", "571 kB/s"), never e-notation inside the
 * ladder's range, so table columns stay readable at every magnitude. */
#ifndef COLLCALC_OUTPUT_HUMAN_H
#define COLLCALC_OUTPUT_HUMAN_H

#include <stddef.h>

/* Bytes: below 1 kB whole bytes ("8 B", a fraction rounds); then kB, MB,
 * GB, TB, PB, EB (SI, as GB/s). */
void human_bytes(char *buffer, size_t size, double bytes);
/* Microseconds on ps, ns, us, ms, s; from 1,000 s whole seconds grouped. */
void human_time_us(char *buffer, size_t size, double time_us);
/* GB/s on B/s, kB/s, MB/s, GB/s; from 1,000 GB/s whole GB/s grouped. */
void human_bandwidth_GBps(char *buffer, size_t size, double GBps);
/* "1.00x", "6.18x", "29.5x", "112x", "1,234x" (3 significant digits; below
 * 0.01 too). */
void human_ratio(char *buffer, size_t size, double ratio);
/* Four significant digits ("0.8333", "1.75", "1e-06" only off the scale);
 * from 10,000 to 1e15 a whole number with grouped digits ("13,333"). */
void human_number(char *buffer, size_t size, double value);
/* Thousands grouped: 1048576 -> "1,048,576". */
void human_integer(char *buffer, size_t size, long long value);

#endif
