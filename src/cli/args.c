/* Table-driven option parsing for every command. */
#include "args.h"

#include <stdio.h>
#include <string.h>

void args_init(arg_cursor *cursor, int argc, char **argv, int first)
{
    memset(cursor, 0, sizeof *cursor);
    cursor->argc = argc;
    cursor->argv = argv;
    cursor->index = first;
}

static const cli_option *find_long(const cli_option *options, const char *name, size_t length)
{
    for (const cli_option *option = options; option->name != NULL; option++)
        if (strlen(option->name) == length && strncmp(option->name, name, length) == 0)
            return option;
    return NULL;
}

static const cli_option *find_short(const cli_option *options, char short_name)
{
    for (const cli_option *option = options; option->name != NULL; option++)
        if (option->short_name != 0 && option->short_name == short_name)
            return option;
    return NULL;
}

int args_next(arg_cursor *cursor, const cli_option *options, const char **value)
{
    *value = NULL;
    if (cursor->index >= cursor->argc)
        return ARGS_END;
    const char *word = cursor->argv[cursor->index++];
    cursor->option_text = word;
    if (cursor->options_done || word[0] != '-' || word[1] == '\0') {
        *value = word;
        return ARGS_POSITIONAL;
    }
    if (strcmp(word, "--") == 0) {
        cursor->options_done = true;
        return args_next(cursor, options, value);
    }
    const cli_option *option;
    const char *inline_value = NULL;
    if (word[1] == '-') {
        const char *name = word + 2;
        const char *equals = strchr(name, '=');
        size_t length = equals != NULL ? (size_t)(equals - name) : strlen(name);
        option = find_long(options, name, length);
        if (option == NULL) {
            snprintf(cursor->error, sizeof cursor->error, "unknown option '%.*s'",
                     (int)(length + 2 < 60 ? length + 2 : 60), word);
            return ARGS_ERROR;
        }
        if (equals != NULL)
            inline_value = equals + 1;
    } else {
        option = find_short(options, word[1]);
        if (option == NULL) {
            /* A negative number where a value was expected is reported by
             * the value's parser; here it is an unknown flag. */
            snprintf(cursor->error, sizeof cursor->error, "unknown option '%.40s'", word);
            return ARGS_ERROR;
        }
        if (word[2] != '\0')
            inline_value = word + 2;
    }
    if (!option->takes_value) {
        if (inline_value != NULL) {
            snprintf(cursor->error, sizeof cursor->error, "option '--%s' takes no value",
                     option->name);
            return ARGS_ERROR;
        }
        return option->id;
    }
    if (inline_value == NULL) {
        if (cursor->index >= cursor->argc) {
            snprintf(cursor->error, sizeof cursor->error, "option '--%s' needs a value",
                     option->name);
            return ARGS_ERROR;
        }
        inline_value = cursor->argv[cursor->index++];
    }
    *value = inline_value;
    return option->id;
}
