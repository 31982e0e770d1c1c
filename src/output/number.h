/* Numbers for the machine formats: the shortest decimal text that reads
 * back to the same double ("0.0003125", "175000000", "1e-300"; non-finite
 * values print as "null"), as format_number_exact (record.h) documents. */
#ifndef COLLCALC_OUTPUT_NUMBER_H
#define COLLCALC_OUTPUT_NUMBER_H

#include <stdbool.h>
#include <stddef.h>

/* Room that always holds a number's text and its NUL. */
#define NUMBER_TEXT_MAX 40

/* Writes the text (NUL-terminated, at most size bytes) and returns its
 * length. Integer arithmetic for the usual magnitudes; the reference loop
 * otherwise. */
size_t number_format(char *buffer, size_t size, double value);

/* The decimal text of value at out (no NUL) and its length: the one
 * integer printer of the machine formats. out needs room for 20 bytes:
 * bytes after the text may be written too. */
size_t number_format_integer(char *out, long long value);

/* The reference: "%.*g" for the smallest precision 1..17 that strtod()
 * reads back (integers below 2^53 as "%.0f"). Slow; the tests compare. */
size_t number_format_reference(char *buffer, size_t size, double value);

#endif
