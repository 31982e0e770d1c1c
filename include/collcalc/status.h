/* Status codes and diagnostics shared by every collcalc library call. */
#ifndef COLLCALC_STATUS_H
#define COLLCALC_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Every library function that can fail returns one of these. The library never
 * prints and never exits: the caller decides what a status means to a user
 * (the CLI maps a bad option value to exit 2 and bad data to exit 1). */
typedef enum {
    COLLCALC_OK = 0,
    COLLCALC_ERR_INVALID,     /* a value or document is malformed or out of range */
    COLLCALC_ERR_NOT_FOUND,   /* a named thing (link, platform, algorithm) does not exist */
    COLLCALC_ERR_UNSUPPORTED, /* the combination is valid but not modelled (e.g. algorithm for op) */
    COLLCALC_ERR_NOMEM        /* an allocation failed */
} collcalc_status;

/* Longest diagnostic message, including the terminating NUL. */
#define COLLCALC_DIAG_MESSAGE_MAX 512

/* Buffer sizes shared by every module, including the NUL: names and aliases
 * hold at most 31 characters, descriptions and sources at most 255 bytes.
 * (Here so that a header such as collcalc/model.h can size its names without
 * including the link table's header.) */
#ifndef COLLCALC_NAME_MAX
#define COLLCALC_NAME_MAX 32
#endif
#ifndef COLLCALC_TEXT_MAX
#define COLLCALC_TEXT_MAX 256
#endif

/* Caller-supplied diagnostics: on failure the library writes one line of
 * human-readable text (no trailing newline) saying what was wrong and where
 * (the JSON path, the offending text). May be NULL when the caller does not
 * care. */
typedef struct {
    char message[COLLCALC_DIAG_MESSAGE_MAX];
} collcalc_diag;

/* Writes a printf-style message into diag (NULL-safe, always NUL-terminated,
 * truncated to fit). Returns status unchanged so callers can write
 * `return collcalc_diag_fail(d, COLLCALC_ERR_INVALID, "...")`. */
collcalc_status collcalc_diag_fail(collcalc_diag *diag, collcalc_status status,
                                   const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clears the message (NULL-safe). */
void collcalc_diag_clear(collcalc_diag *diag);

/* Short English name of a status ("ok", "invalid", ...). Never NULL. */
const char *collcalc_status_name(collcalc_status status);

/* Every message of the library that quotes what the user typed keeps at
 * most COLLCALC_ECHO_MAX bytes of it (cut at a UTF-8 character boundary),
 * then "..." when more followed; control and invalid bytes show as "\xNN".
 * So an error line stays bounded whatever was pasted. */
#define COLLCALC_ECHO_MAX 60

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
