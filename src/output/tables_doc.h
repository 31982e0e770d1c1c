/* The documents of the table listings: `collcalc platforms` (the presets
 * --platform fills in) and `collcalc models` (the model shapes the
 * planners know); links' is links_doc.h. The commands (src/cli/cmd_*.c)
 * load the tables and render these. */
#ifndef COLLCALC_OUTPUT_TABLES_DOC_H
#define COLLCALC_OUTPUT_TABLES_DOC_H

#include "collcalc/models.h"
#include "collcalc/platforms.h"
#include "record.h"

/* An entry's aliases as one text, separated by blanks ("" when none). */
enum { DOC_ALIASES_TEXT = COLLCALC_MAX_ALIASES * COLLCALC_NAME_MAX + 8 };
void doc_aliases_text(char *out, const char (*aliases)[COLLCALC_NAME_MAX]);

/* Every platform of the table as a record. */
void platforms_doc(document *doc, const collcalc_platform_table *platforms);

/* Every model shape of the table (only that one when only is not NULL). */
void models_doc(document *doc, const collcalc_model_table *table,
                const collcalc_model_shape *only);

#endif
