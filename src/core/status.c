/* Diagnostics helpers: the library's only way to explain a failure. */
#include "collcalc/status.h"

#include <stdarg.h>
#include <stdio.h>

collcalc_status collcalc_diag_fail(collcalc_diag *diag, collcalc_status status,
                                   const char *format, ...)
{
    if (diag != NULL) {
        va_list args;
        va_start(args, format);
        int written = vsnprintf(diag->message, sizeof diag->message, format, args);
        va_end(args);
        if (written < 0)
            diag->message[0] = '\0';
    }
    return status;
}

void collcalc_diag_clear(collcalc_diag *diag)
{
    if (diag != NULL)
        diag->message[0] = '\0';
}

const char *collcalc_status_name(collcalc_status status)
{
    switch (status) {
    case COLLCALC_OK: return "ok";
    case COLLCALC_ERR_INVALID: return "invalid";
    case COLLCALC_ERR_NOT_FOUND: return "not found";
    case COLLCALC_ERR_UNSUPPORTED: return "unsupported";
    case COLLCALC_ERR_NOMEM: return "out of memory";
    }
    return "unknown";
}
