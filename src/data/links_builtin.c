/* collcalc_link_table_builtin: a copy of the table compiled from
 * data/links.json at build time (links_builtin.h), so a start parses no JSON.
 * Compiled apart from the rest of the data layer (CMakeLists.txt,
 * collcalc_data_builtin): cmake/gen_links.c links the loader without it. */
#include "collcalc/links.h"

#include "links_builtin.h"

collcalc_status collcalc_link_table_builtin(collcalc_link_table **out_table, collcalc_diag *diag)
{
    if (out_table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the link table");
    *out_table = collcalc_link_table_from_entries(collcalc_links_compiled,
                                                  collcalc_links_compiled_count);
    if (*out_table == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory loading %zu links",
                                  collcalc_links_compiled_count);
    return COLLCALC_OK;
}
