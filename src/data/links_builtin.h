/* The built-in link table as compiled at build time: cmake/gen_links.c loads
 * data/links.json with collcalc_link_table_parse and writes these entries
 * (generated/links_table.c in the build tree); links_builtin.c turns them into
 * the table collcalc_link_table_builtin returns, with no JSON parsing. */
#ifndef COLLCALC_DATA_LINKS_BUILTIN_H
#define COLLCALC_DATA_LINKS_BUILTIN_H

#include <stddef.h>

#include "collcalc/links.h"

/* The entries of data/links.json, in file order, as the loader left them
 * (unused bytes zero); collcalc_links_compiled_count of them. */
extern const collcalc_link collcalc_links_compiled[];
extern const size_t collcalc_links_compiled_count;

/* A new table holding a copy of entries[0..count) (count <= COLLCALC_LINKS_MAX),
 * every origin COLLCALC_ENTRY_BASE; NULL when out of memory. Defined in
 * links.c, which owns the table's layout. */
collcalc_link_table *collcalc_link_table_from_entries(const collcalc_link *entries, size_t count);

#endif
