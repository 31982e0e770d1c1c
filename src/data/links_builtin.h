/* The built-in link table as compiled at build time: cmake/gen_links.c loads
 * data/links.json with collcalc_link_table_parse and writes it as a static
 * table (generated/links_table.c in the build tree), so a start neither
 * parses JSON nor copies: collcalc_link_table_builtin hands out this one. */
#ifndef COLLCALC_DATA_LINKS_BUILTIN_H
#define COLLCALC_DATA_LINKS_BUILTIN_H

#include <stdbool.h>
#include <stddef.h>

#include "collcalc/links.h"

/* A link table (links.c reads and builds them; table.c's layout). Here so
 * that the generated file can define one. */
struct collcalc_link_table {
    size_t count;
    bool compiled; /* the static built-in table: collcalc_link_table_free leaves it */
    unsigned char origins[COLLCALC_LINKS_MAX]; /* collcalc_entry_origin of each entry */
    collcalc_link links[]; /* count entries, in file order */
};

/* The entries of data/links.json, in file order, as the loader left them
 * (unused bytes zero), all origins COLLCALC_ENTRY_BASE. */
extern const collcalc_link_table collcalc_links_compiled;

#endif
