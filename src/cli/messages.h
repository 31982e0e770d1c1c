/* One-line diagnostics for the CLI: echoed values cut to a bounded length,
 * and "did you mean" suggestions. */
#ifndef COLLCALC_CLI_MESSAGES_H
#define COLLCALC_CLI_MESSAGES_H

#include <stddef.h>

/* Copies the echo of text[0..length) into buffer (collcalc_echo_n: about 60 bytes, then "...") so
 * an echoed value never makes a line unbounded. */
void message_cut(char *buffer, size_t size, const char *text, size_t length);

/* " (did you mean --size?)": collcalc_suggest_text(_prefixed), helpers.h. */

#endif
