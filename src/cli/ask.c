/* collcalc_ask (collcalc/ask.h): the command line run in process, its
 * output captured in memory (open_memstream), so that a program in another
 * language gets exactly the text the tool prints. */
#define _POSIX_C_SOURCE 200809L
#include "collcalc/ask.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

/* Does the command take --format? */
static bool takes_format(const command_spec *spec)
{
    for (const option_group *group = spec->groups; group->title != NULL; group++)
        for (const option_use *use = group->options; use->id != OPT_NONE; use++)
            if (use->id == OPT_FORMAT)
                return true;
    return false;
}

/* Does argv give --format (before a "--" that makes the rest positional)? */
static bool gives_format(int argc, const char *const *argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return false;
        if (strcmp(argv[i], "--format") == 0 || strncmp(argv[i], "--format=", 9) == 0)
            return true;
    }
    return false;
}

static char *copy_text(const char *text)
{
    size_t length = strlen(text);
    char *copy = malloc(length + 1);
    if (copy != NULL)
        memcpy(copy, text, length + 1);
    return copy;
}

/* Hands text to *out (NULL: frees it). */
static void hand_over(char *text, char **out)
{
    if (out != NULL)
        *out = text;
    else
        free(text);
}

static int fail(int code, const char *message, char **out_json, char **out_error)
{
    hand_over(NULL, out_json);
    hand_over(copy_text(message), out_error);
    return code;
}

int collcalc_ask(int argc, const char *const *argv, char **out_json, char **out_error)
{
    if (out_json != NULL)
        *out_json = NULL;
    if (out_error != NULL)
        *out_error = NULL;
    if (argc < 0 || (argc > 0 && argv == NULL))
        return fail(2, "collcalc_ask: argc < 0 or argv NULL\n", out_json, out_error);
    for (int i = 0; i < argc; i++)
        if (argv[i] == NULL)
            return fail(2, "collcalc_ask: argv holds NULL\n", out_json, out_error);

    /* "collcalc", the words, maybe "--format json", NULL: copies, as
     * collcalc_cli_main takes char ** (it does not write to them). */
    const command_spec *spec = argc > 0 ? command_find(argv[0]) : NULL;
    bool add_format = spec != NULL && takes_format(spec) && !gives_format(argc, argv);
    int words = 1 + argc + (add_format ? 2 : 0);
    char **word = calloc((size_t)words + 1, sizeof *word);
    bool ok = word != NULL;
    if (ok) {
        word[0] = copy_text("collcalc");
        ok = word[0] != NULL;
        for (int i = 0; ok && i < argc; i++)
            ok = (word[1 + i] = copy_text(argv[i])) != NULL;
        if (ok && add_format) {
            word[1 + argc] = copy_text("--format");
            word[2 + argc] = copy_text("json");
            ok = word[1 + argc] != NULL && word[2 + argc] != NULL;
        }
    }

    /* Standard input empty; standard output and error in memory. */
    static char nothing[1];
    char *out_text = NULL, *err_text = NULL;
    size_t out_size = 0, err_size = 0;
    FILE *in = ok ? fmemopen(nothing, 0, "r") : NULL;
    if (ok && in == NULL) /* (a C library whose fmemopen wants a size) */
        in = fopen("/dev/null", "r");
    FILE *out = ok ? open_memstream(&out_text, &out_size) : NULL;
    FILE *err = ok ? open_memstream(&err_text, &err_size) : NULL;
    int code = 1;
    if (in != NULL && out != NULL && err != NULL)
        code = collcalc_cli_main(words, word, in, out, err);
    else
        ok = false;
    if (in != NULL)
        fclose(in);
    if (out != NULL && fclose(out) != 0)
        ok = false;
    if (err != NULL && fclose(err) != 0)
        ok = false;
    if (word != NULL)
        for (int i = 0; i < words; i++)
            free(word[i]);
    free(word);
    if (!ok || out_text == NULL || err_text == NULL) {
        free(out_text);
        free(err_text);
        return fail(1, "out of memory\n", out_json, out_error);
    }
    hand_over(out_text, out_json);
    hand_over(err_text, out_error);
    return code;
}

void collcalc_ask_free(char *text)
{
    free(text);
}
