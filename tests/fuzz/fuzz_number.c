/* libFuzzer target for the machine formats' number printer
 * (src/output/number.c): the fast shortest-double text must be exactly the
 * reference loop's ("%.*g" at the smallest precision that reads back), and
 * the integer printer exactly printf's. The input is read three ways: its
 * first eight bytes as a double's bits and as a long long, and its text
 * (up to 40 bytes) through strtod, so corpus entries can be written as
 * decimals ("887.5958518518518") or as raw doubles. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_as_reference(double value)
{
    char fast[NUMBER_TEXT_MAX + 8], slow[64];
    memset(fast, 'Z', sizeof fast);
    size_t length = number_format(fast, NUMBER_TEXT_MAX, value);
    number_format_reference(slow, sizeof slow, value);
    if (length >= NUMBER_TEXT_MAX || fast[length] != '\0' || strcmp(fast, slow) != 0)
        abort();
    for (size_t i = NUMBER_TEXT_MAX; i < sizeof fast; i++)
        if (fast[i] != 'Z')
            abort(); /* never past the room it was given */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 8) {
        uint64_t bits;
        memcpy(&bits, data, sizeof bits);
        double value;
        memcpy(&value, &bits, sizeof value);
        same_as_reference(value);
        long long integer;
        memcpy(&integer, data, sizeof integer);
        char fast[32], slow[32];
        size_t n = number_format_integer(fast, integer);
        fast[n] = '\0';
        snprintf(slow, sizeof slow, "%lld", integer);
        if (strcmp(fast, slow) != 0)
            abort();
    }
    char text[41];
    size_t n = size < sizeof text - 1 ? size : sizeof text - 1;
    memcpy(text, data, n);
    text[n] = '\0';
    same_as_reference(strtod(text, NULL));
    return 0;
}
