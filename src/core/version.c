/* The run-time version call (include/collcalc/version.h). */
#include "collcalc/version.h"

const char *collcalc_version(void)
{
    return COLLCALC_VERSION_STRING;
}
