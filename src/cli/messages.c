/* Bounded echoes and suggestions for CLI messages (messages.h), on top of
 * the library's collcalc_echo and collcalc_suggest. */
#include "messages.h"

#include <stdio.h>

#include "collcalc/status.h"
#include "helpers.h"

void message_cut(char *buffer, size_t size, const char *text, size_t length)
{
    collcalc_echo_n(buffer, size, text, length);
}
