/* What the layers above core share of it, and no program outside the
 * library sees: allocation through the installed allocator, echoes of user
 * text in messages, did-you-mean. Private: declared here, not in
 * include/collcalc/, so hidden in libcollcalc.so (tests/install/symbols.cmake
 * fails when a function declared in a header under src/ is exported). Every
 * layer but the model (values only) may include it. */
#ifndef COLLCALC_CORE_HELPERS_H
#define COLLCALC_CORE_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "collcalc/status.h"

/* The installed allocator's functions (collcalc/alloc.h, alloc.c), as the
 * library itself calls them.
 * A failure returns NULL; the library turns that into COLLCALC_ERR_NOMEM
 * with the diagnostic "out of memory". collcalc_mem_calloc also returns NULL
 * when count * size overflows size_t. Memory collcalc hands to the caller
 * is freed by that object's own _free function, never by these directly. */
void *collcalc_mem_malloc(size_t size);
void *collcalc_mem_calloc(size_t count, size_t size);
void *collcalc_mem_realloc(void *pointer, size_t size);
void collcalc_mem_free(void *pointer);

/* Echoes of user text in messages (status.c). Every message of the library
 * that quotes what the user typed goes through collcalc_echo, so an error
 * line stays bounded whatever was pasted: at most COLLCALC_ECHO_MAX
 * (collcalc/status.h) bytes of the text are kept (cut at a UTF-8 character
 * boundary), then "..." when more followed; control and invalid bytes show
 * as "\xNN". COLLCALC_ECHO_BUFFER: a buffer that always holds an echo (each
 * kept byte may become 4). */
#define COLLCALC_ECHO_BUFFER (COLLCALC_ECHO_MAX * 4 + 4)

/* Writes the echo of the NUL-terminated text (NULL echoes as "") into
 * buffer (buffer_size bytes, at least 1; COLLCALC_ECHO_BUFFER never
 * truncates) and returns buffer, for use inline in printf. */
const char *collcalc_echo(char *buffer, size_t buffer_size, const char *text);

/* The same for length bytes of text (need not be NUL-terminated). */
const char *collcalc_echo_n(char *buffer, size_t buffer_size, const char *text, size_t length);

/* The one UTF-8 decoder (status.c): the well-formed sequence at s among the
 * `available` bytes there (RFC 3629: no overlong forms, no surrogates,
 * nothing past U+10FFFF). Returns its length (1 for an ASCII byte, else 2
 * to 4) and puts its code point in *out_code (NULL: not wanted), or returns
 * 0 when none starts there (a continuation byte, a cut or malformed
 * sequence, or available 0). The bytes are read in order up to the first
 * that does not fit, so a NUL-terminated text may pass 4 as available. */
size_t collcalc_utf8_decode(const unsigned char *s, size_t available, uint32_t *out_code);

/* Did-you-mean: the names nearest to an unknown one. */
#define COLLCALC_SUGGEST_MAX 3

/* Edit distance between a and b ignoring ASCII case, counting an insertion,
 * a deletion, a substitution or a swap of two neighbours as 1 (optimal
 * string alignment). Texts longer than 64 bytes compare as "far" (65). */
size_t collcalc_edit_distance(const char *a, const char *b);

/* Fills out[0..returned) with up to out_capacity (at most
 * COLLCALC_SUGGEST_MAX are ever returned) of known[0..known_count) nearest
 * to name: distance at most 3 and at most a third of the candidate's length
 * (at least 1); only those at the smallest distance found, in the order of
 * known ("nvlnk5" gives nvlink5 alone, "nvlink" nvlink2, nvlink3, nvlink4); duplicates
 * (ignoring case) and NULL or "" entries are skipped. Pass names and
 * aliases alike. out holds borrowed pointers into known. */
size_t collcalc_suggest(const char *name, const char *const *known, size_t known_count,
                        const char **out, size_t out_capacity);

/* Writes " (did you mean nvlink5?)" or " (did you mean a, b or c?)" into
 * buffer for the suggestions of collcalc_suggest, or "" when there is none;
 * returns buffer. */
const char *collcalc_suggest_text(char *buffer, size_t buffer_size, const char *name,
                                  const char *const *known, size_t known_count);
/* The same with prefix before each suggestion (" (did you mean --size?)"). */
const char *collcalc_suggest_text_prefixed(char *buffer, size_t buffer_size, const char *name,
                                           const char *const *known, size_t known_count,
                                           const char *prefix);

#endif
