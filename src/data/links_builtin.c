/* collcalc_link_table_builtin: the table compiled from data/links.json at
 * build time (links_builtin.h), handed out as it is: a start parses no JSON
 * and copies nothing. Compiled apart from the rest of the data layer
 * (CMakeLists.txt, collcalc_data_builtin): cmake/gen_links.c links the
 * loader without it. */
#include "collcalc/links.h"

#include <stdint.h>

#include "links_builtin.h"

collcalc_status collcalc_link_table_builtin(collcalc_link_table **out_table, collcalc_diag *diag)
{
    if (out_table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the link table");
    /* The API hands out a table to free; this one is read only (every
     * function that changes a table builds a new one) and
     * collcalc_link_table_free leaves it (compiled). */
    *out_table = (collcalc_link_table *)(uintptr_t)&collcalc_links_compiled;
    return COLLCALC_OK;
}
