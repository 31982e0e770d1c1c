/* Unit ladders for the table renderer (human.h). */
#include "human.h"

#include <math.h>
#include <stdio.h>

typedef struct {
    double scale; /* base units per unit */
    const char *name;
} ladder_step;

/* Three significant digits, in the chosen unit: from 100 no decimals,
 * from 10 one, below that two (trailing zeros kept: they state precision). */
static int decimals_for(double scaled)
{
    double magnitude = fabs(scaled);
    return magnitude >= 99.95 ? 0 : magnitude >= 9.995 ? 1 : 2;
}

/* Groups the digits of a whole number written in `digits` (optional '-'). */
static void group_digits(char *buffer, size_t size, const char *digits, const char *unit)
{
    char out[72];
    size_t n = 0, length = 0;
    if (digits[0] == '-') {
        out[n++] = '-';
        digits++;
    }
    while (digits[length] != '\0')
        length++;
    for (size_t i = 0; i < length && n + 2 < sizeof out; i++) {
        if (i > 0 && (length - i) % 3 == 0)
            out[n++] = ',';
        out[n++] = digits[i];
    }
    out[n] = '\0';
    snprintf(buffer, size, "%s%s%s", out, unit[0] ? " " : "", unit);
}

static void grouped(char *buffer, size_t size, double whole, const char *unit)
{
    char digits[400];
    snprintf(digits, sizeof digits, "%.0f", whole);
    group_digits(buffer, size, digits, unit);
}

/* Picks the largest step the value reaches (after rounding to 3
 * significant digits) and prints it there. Past the last step: a whole,
 * grouped number of the last unit. Zero: "0 <the zero_step unit>" ("0 us",
 * "0 GB/s"). Below the first step: the first unit with as many decimals as
 * 3 digits need. */
static void ladder(char *buffer, size_t size, double value, const ladder_step *steps, int count,
                   int zero_step)
{
    if (!isfinite(value)) {
        snprintf(buffer, size, "n/a");
        return;
    }
    if (value == 0.0) {
        snprintf(buffer, size, "0 %s", steps[zero_step].name);
        return;
    }
    double magnitude = fabs(value);
    int chosen = 0;
    for (int i = count - 1; i >= 0; i--) {
        double scaled = magnitude / steps[i].scale;
        if (scaled >= 0.9995 || i == 0) {
            chosen = i;
            break;
        }
    }
    double scaled = value / steps[chosen].scale;
    if (chosen == count - 1 && fabs(scaled) >= 999.5) {
        grouped(buffer, size, round(scaled), steps[chosen].name);
        return;
    }
    if (fabs(scaled) >= 999.5 && chosen + 1 < count) {
        chosen++;
        scaled = value / steps[chosen].scale;
    }
    int decimals = decimals_for(scaled);
    if (fabs(scaled) < 1.0) {
        /* Only below the first step: enough decimals for 3 digits. */
        decimals = 2 - (int)floor(log10(fabs(scaled)));
        if (decimals > 12)
            decimals = 12;
    }
    snprintf(buffer, size, "%.*f %s", decimals, scaled, steps[chosen].name);
}

void human_bytes(char *buffer, size_t size, double bytes)
{
    if (isfinite(bytes) && fabs(bytes) < 999.5) {
        snprintf(buffer, size, "%.0f B", bytes);
        return;
    }
    static const ladder_step STEPS[] = {{1, "B"}, {1e3, "kB"}, {1e6, "MB"}, {1e9, "GB"},
                                        {1e12, "TB"}, {1e15, "PB"}, {1e18, "EB"}};
    ladder(buffer, size, bytes, STEPS, (int)(sizeof STEPS / sizeof STEPS[0]), 0);
}

void human_time_us(char *buffer, size_t size, double time_us)
{
    static const ladder_step STEPS[] = {{1e-6, "ps"}, {1e-3, "ns"}, {1, "us"}, {1e3, "ms"},
                                        {1e6, "s"}};
    ladder(buffer, size, time_us, STEPS, (int)(sizeof STEPS / sizeof STEPS[0]), 2);
}

void human_bandwidth_GBps(char *buffer, size_t size, double GBps)
{
    static const ladder_step STEPS[] = {{1e-9, "B/s"}, {1e-6, "kB/s"}, {1e-3, "MB/s"},
                                        {1, "GB/s"}};
    ladder(buffer, size, GBps, STEPS, (int)(sizeof STEPS / sizeof STEPS[0]), 3);
}

void human_ratio(char *buffer, size_t size, double ratio)
{
    if (!isfinite(ratio)) {
        snprintf(buffer, size, "n/a");
    } else if (fabs(ratio) >= 999.5) {
        grouped(buffer, size, round(ratio), "");
        size_t n = 0;
        while (n + 1 < size && buffer[n] != '\0')
            n++;
        if (n + 1 < size) {
            buffer[n] = 'x';
            buffer[n + 1] = '\0';
        }
    } else if (fabs(ratio) >= 99.5) {
        snprintf(buffer, size, "%.0fx", ratio);
    } else if (fabs(ratio) >= 9.995) {
        snprintf(buffer, size, "%.1fx", ratio);
    } else if (fabs(ratio) >= 0.01 || ratio == 0.0) {
        snprintf(buffer, size, "%.2fx", ratio);
    } else {
        snprintf(buffer, size, "%.3gx", ratio);
    }
}

void human_number(char *buffer, size_t size, double value)
{
    if (!isfinite(value))
        snprintf(buffer, size, "n/a");
    else if (fabs(value) >= 1e4 && fabs(value) < 1e15) /* 13,333 rather than 1.333e+04 */
        human_integer(buffer, size, llround(value));
    else
        snprintf(buffer, size, "%.4g", value);
}

void human_integer(char *buffer, size_t size, long long value)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%lld", value);
    group_digits(buffer, size, digits, "");
}
