/* libFuzzer target for the units module: every parser on arbitrary text,
 * every formatter on what parsed and on arbitrary doubles, the echo and
 * did-you-mean helpers, with the invariants checked by abort(): one number
 * grammar (nothing with an exponent is accepted) and bounded messages. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/units.h"
#include "helpers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Long enough for any input worth parsing; longer inputs are cut, not skipped,
 * so the over-long-number paths are still reached. */
enum { INPUT_MAX = 4096, FORMATTED_MAX = 32 };

static void check_diag(collcalc_status status, const collcalc_diag *diag)
{
    if (status != COLLCALC_ERR_INVALID)
        abort();
    const char *end = memchr(diag->message, '\0', sizeof diag->message);
    if (end == NULL || end == diag->message || strchr(diag->message, '\n') != NULL)
        abort();
    /* The input is echoed at most twice, 60 bytes (4 when escaped) each,
     * plus a unit list: never the whole of a long input. */
    if ((size_t)(end - diag->message) > 2 * COLLCALC_ECHO_BUFFER + 200)
        abort();
}

/* Accepted text never holds an exponent: no quantity unit contains 'e'. */
static void check_no_exponent(const char *text)
{
    if (strchr(text, 'e') != NULL || strchr(text, 'E') != NULL)
        abort();
}

static void check_echo_and_suggest(const char *text, size_t length)
{
    char echo[COLLCALC_ECHO_BUFFER];
    collcalc_echo_n(echo, sizeof echo, text, length);
    size_t echoed = strlen(echo);
    if (echoed > COLLCALC_ECHO_MAX * 4 + 3)
        abort();
    for (const char *p = echo; *p != '\0'; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7F)
            abort();
    static const char *const known[] = {"nvlink5", "ib-ndr", "hgx-h100", "ring", "allreduce"};
    const char *found[COLLCALC_SUGGEST_MAX];
    size_t count = collcalc_suggest(text, known, 5, found, COLLCALC_SUGGEST_MAX);
    if (count > COLLCALC_SUGGEST_MAX)
        abort();
    for (size_t i = 0; i < count; i++)
        if (collcalc_edit_distance(text, found[i]) > 3 ||
            collcalc_edit_distance(text, found[i]) != collcalc_edit_distance(found[i], text))
            abort();
    char hint[160];
    collcalc_suggest_text(hint, sizeof hint, text, known, 5);
    if ((count == 0) != (hint[0] == '\0'))
        abort();
}

typedef char *(*format_function)(char *, size_t, double);

/* Formats into a guarded buffer at every small size and at full size:
 * always NUL-terminated, never past the end, never "nan"/"inf", and the
 * documented 32 bytes are always enough. */
static void check_format(format_function format, double value)
{
    char buffer[2 * FORMATTED_MAX];
    for (size_t size = 0; size <= FORMATTED_MAX; size += (size < 4 ? 1 : 7)) {
        memset(buffer, 'Z', sizeof buffer);
        if (format(buffer, size, value) != buffer)
            abort();
        for (size_t i = size; i < sizeof buffer; i++)
            if (buffer[i] != 'Z')
                abort();
        if (size > 0 && memchr(buffer, '\0', size) == NULL)
            abort();
    }
    format(buffer, sizeof buffer, value);
    size_t length = strlen(buffer);
    if (length == 0 || length >= FORMATTED_MAX)
        abort();
    if (!isfinite(value))
        return;
    if (strstr(buffer, "nan") != NULL || strstr(buffer, "inf") != NULL ||
        strstr(buffer, "n/a") != NULL)
        abort();
}

static void check_all_formats(double value)
{
    check_format(collcalc_bytes_format_si, value);
    check_format(collcalc_bytes_format_iec, value);
    check_format(collcalc_time_us_format, value);
    check_format(collcalc_format_bandwidth_GBps, value);
}

/* A parsed size, printed with separators and read back without them, must
 * come back unchanged; its exact IEC name must too. */
static void check_size_round_trip(uint64_t bytes)
{
    char grouped[32], plain[32];
    collcalc_u64_format_grouped(grouped, sizeof grouped, bytes);
    size_t used = 0;
    for (const char *p = grouped; *p != '\0'; p++) {
        if (*p == ',')
            continue;
        if (*p < '0' || *p > '9' || used + 1 >= sizeof plain)
            abort();
        plain[used++] = *p;
    }
    plain[used] = '\0';
    uint64_t back = 0;
    collcalc_diag diag;
    if (collcalc_size_bytes_parse(plain, &back, &diag) != COLLCALC_OK || back != bytes)
        abort();
    check_all_formats((double)bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[INPUT_MAX + 1];
    size_t length = size < INPUT_MAX ? size : INPUT_MAX;
    memcpy(text, data, length);
    text[length] = '\0';

    collcalc_diag diag;
    collcalc_status status;

    uint64_t bytes = 0;
    status = collcalc_size_bytes_parse(text, &bytes, &diag);
    if (status == COLLCALC_OK) {
        check_no_exponent(text);
        check_size_round_trip(bytes);
    } else
        check_diag(status, &diag);

    double us = -1.0;
    status = collcalc_time_us_parse(text, &us, &diag);
    if (status == COLLCALC_OK) {
        if (!isfinite(us) || us < 0.0)
            abort();
        check_no_exponent(text);
        check_all_formats(us);
    } else {
        check_diag(status, &diag);
    }

    double GBps = -1.0;
    status = collcalc_parse_bandwidth_GBps(text, &GBps, &diag);
    if (status == COLLCALC_OK) {
        if (!isfinite(GBps) || !(GBps > 0.0))
            abort();
        check_no_exponent(text);
        check_all_formats(GBps);
    } else {
        check_diag(status, &diag);
    }

    long count = 0;
    status = collcalc_count_parse(text, 1, 1000000, &count, &diag);
    if (status == COLLCALC_OK) {
        if (count < 1 || count > 1000000)
            abort();
        check_no_exponent(text);
    } else {
        check_diag(status, &diag);
    }

    double number = 0.0;
    status = collcalc_number_parse(text, -1e6, 1e6, &number, &diag);
    if (status == COLLCALC_OK) {
        if (!isfinite(number) || number < -1e6 || number > 1e6)
            abort();
        check_no_exponent(text);
        check_all_formats(number);
    } else {
        check_diag(status, &diag);
    }

    check_echo_and_suggest(text, length);

    /* The raw bytes as a double reach nan, inf, denormals and the extremes. */
    if (size >= sizeof(double)) {
        double raw;
        memcpy(&raw, data, sizeof raw);
        check_all_formats(raw);
        uint64_t raw_bytes;
        memcpy(&raw_bytes, data, sizeof raw_bytes);
        char grouped[32];
        collcalc_u64_format_grouped(grouped, sizeof grouped, raw_bytes);
        if (strlen(grouped) > 26)
            abort();
    }
    return 0;
}
