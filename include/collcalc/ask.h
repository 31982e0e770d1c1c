/* Asking collcalc a question as its command line does, from any language:
 * the words after `collcalc` in, the text the command prints out. The
 * Python module (bindings/python/collcalc.py) is a thin layer over this. */
#ifndef COLLCALC_ASK_H
#define COLLCALC_ASK_H

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Runs one collcalc command in this process, as
 * `collcalc argv[0] ... argv[argc-1] --format json` would: "--format json"
 * is added when the command takes --format and argv gives none (pass
 * --format yourself for another one, e.g. batch's jsonl). argv[0] is the
 * command ("allreduce", "compare", ...); argv is not modified and may be
 * freed on return. Standard input is empty: files are read by name.
 *
 * Returns the command's exit code: 0 ok; 1 bad data, file or write error;
 * 2 usage error; 3 a --strict violation (README, "Conventions"). On
 * return *out_json holds what the command printed on standard output (the
 * JSON document of `--format json`; empty after an error) and *out_error
 * what it printed on standard error (one line naming the option, file or
 * field after an error; warnings otherwise; often empty), each
 * NUL-terminated. The caller owns both: free each with collcalc_ask_free.
 * Either out-parameter may be NULL when its text is not wanted. Out of
 * memory: returns 1, *out_json NULL and *out_error "out of memory" or NULL.
 * Not thread-safe: one call at a time in a process. */
int collcalc_ask(int argc, const char *const *argv, char **out_json, char **out_error);

/* Frees a text collcalc_ask returned (NULL is a no-op). */
void collcalc_ask_free(char *text);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
