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

void message_suggest(char *buffer, size_t size, const char *typed, const char *const *names,
                     size_t count, const char *prefix)
{
    buffer[0] = '\0';
    const char *nearest[COLLCALC_SUGGEST_MAX];
    size_t found = collcalc_suggest(typed, names, count, nearest, COLLCALC_SUGGEST_MAX);
    if (found == 0)
        return;
    size_t used = (size_t)snprintf(buffer, size, " (did you mean ");
    for (size_t i = 0; i < found && used < size; i++)
        used += (size_t)snprintf(buffer + used, size - used, "%s%s%s",
                                 i == 0 ? "" : i + 1 == found ? " or " : ", ", prefix, nearest[i]);
    if (used < size)
        snprintf(buffer + used, size - used, "?)");
}
