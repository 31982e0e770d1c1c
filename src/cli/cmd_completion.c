/* collcalc completion bash|zsh: prints a shell completion script generated
 * from what the binary itself knows, so it never drifts from the tool: the
 * command table (commands.h), each command's option groups and the option
 * registry (options.h), the names and aliases of the built-in link,
 * platform and model tables, the --format values the parser takes and the
 * --algo names of each operation (collcalc_algos_for_op).
 *
 * Both scripts share the same helper functions (POSIX `case` syntax, which
 * bash and zsh read alike), each setting a global variable rather than
 * printing, so a TAB forks nothing:
 *   _collcalc_options CMD     -> _collcalc_list: the long options CMD accepts
 *   _collcalc_kind OPTION     -> _collcalc_k: what OPTION's value is (link,
 *                                platform, model, format, algo, op, file,
 *                                value; "" for a flag or an unknown word)
 *   _collcalc_algos OP        -> _collcalc_list: the algorithms of OP
 *   _collcalc_positional CMD  -> _collcalc_k (op, file, choices) and, for
 *                                choices, _collcalc_list
 * then a shell-specific function reads the words and offers the matches. */
#include <stdbool.h>
#include <string.h>

#include "collcalc/model.h"
#include "collcalc/version.h"
#include "commands.h"
#include "helpers.h"

/* Words the scripts may quote: names in the tables are [a-z0-9.-]; anything
 * else (a table entry could in principle hold more) is left out rather than
 * risk breaking the script's quoting. */
static bool safe_word(const char *word)
{
    if (word == NULL || word[0] == '\0')
        return false;
    for (const char *p = word; *p != '\0'; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '-' || c == '_' || c == '+'))
            return false;
    }
    return true;
}

/* A space-separated word list being printed; first says whether a separator
 * is due. */
typedef struct {
    FILE *out;
    bool first;
} word_list;

static void list_begin(word_list *list, FILE *out, const char *variable)
{
    list->out = out;
    list->first = true;
    fprintf(out, "%s='", variable);
}

static void list_word(word_list *list, const char *word)
{
    if (!safe_word(word))
        return;
    fprintf(list->out, "%s%s", list->first ? "" : " ", word);
    list->first = false;
}

static void list_end(word_list *list)
{
    fputs("'\n", list->out);
}

/* The value kinds of option ids the scripts know how to complete. */
static const char *value_kind(const option_def *def)
{
    switch (def->id) {
    case OPT_LINK:
    case OPT_INTRA:
    case OPT_INTER: return "link";
    case OPT_PLATFORM: return "platform";
    case OPT_MODEL: return "model";
    case OPT_FORMAT: return "format";
    case OPT_ALGO: return "algo";
    case OPT_OP: return "op";
    default: break;
    }
    if (def->value_name == NULL)
        return NULL; /* a flag */
    return strcmp(def->value_name, "FILE") == 0 ? "file" : "value";
}

/* How a command's first argument is completed, read off its usage line:
 * "OP ..." an operation, "FILE..." a file, "a|b ..." one of those words. */
typedef enum { POSITIONAL_NONE, POSITIONAL_OP, POSITIONAL_FILE, POSITIONAL_CHOICES } positional;

static positional positional_of(const command_spec *spec, char *choices, size_t size)
{
    const char *usage = spec->usage != NULL ? spec->usage : "";
    size_t length = strcspn(usage, " \n");
    if (length == 2 && strncmp(usage, "OP", 2) == 0)
        return POSITIONAL_OP;
    if (strncmp(usage, "FILE", 4) == 0)
        return POSITIONAL_FILE;
    bool bar = false;
    for (size_t i = 0; i < length; i++) {
        char c = usage[i];
        if (c == '|')
            bar = true;
        else if (!(c >= 'a' && c <= 'z'))
            return POSITIONAL_NONE;
    }
    if (!bar || length == 0 || length >= size)
        return POSITIONAL_NONE;
    for (size_t i = 0; i < length; i++)
        choices[i] = usage[i] == '|' ? ' ' : usage[i];
    choices[length] = '\0';
    return POSITIONAL_CHOICES;
}

static int print_tables(cli_context *ctx)
{
    FILE *out = ctx->out;
    size_t command_count = 0;
    const command_spec *commands = command_table(&command_count);
    word_list list;

    list_begin(&list, out, "_collcalc_commands");
    for (size_t i = 0; i < command_count; i++)
        list_word(&list, commands[i].name);
    list_end(&list);

    list_begin(&list, out, "_collcalc_ops");
    for (int op = 0; op < COLLCALC_OP_COUNT; op++)
        list_word(&list, collcalc_op_name((collcalc_op)op));
    list_end(&list);

    const collcalc_link_table *links = NULL;
    int code = cli_links(ctx, &links);
    if (code != 0)
        return code;
    list_begin(&list, out, "_collcalc_links");
    for (size_t i = 0; i < collcalc_link_table_count(links); i++) {
        const collcalc_link *link = collcalc_link_table_at(links, i);
        list_word(&list, link->name);
        for (size_t a = 0; a < COLLCALC_MAX_ALIASES; a++)
            list_word(&list, link->aliases[a]);
    }
    list_end(&list);

    const collcalc_platform_table *platforms = NULL;
    code = cli_platforms(ctx, &platforms);
    if (code != 0)
        return code;
    list_begin(&list, out, "_collcalc_platforms");
    for (size_t i = 0; i < collcalc_platform_table_count(platforms); i++) {
        const collcalc_platform *platform = collcalc_platform_table_at(platforms, i);
        list_word(&list, platform->name);
        for (size_t a = 0; a < COLLCALC_MAX_ALIASES; a++)
            list_word(&list, platform->aliases[a]);
    }
    list_end(&list);

    const collcalc_model_table *models = NULL;
    code = cli_models(ctx, &models);
    if (code != 0)
        return code;
    list_begin(&list, out, "_collcalc_models");
    for (size_t i = 0; i < collcalc_model_table_count(models); i++) {
        const collcalc_model_shape *model = collcalc_model_table_at(models, i);
        list_word(&list, model->name);
        for (size_t a = 0; a < COLLCALC_MAX_ALIASES; a++)
            list_word(&list, model->aliases[a]);
    }
    list_end(&list);

    /* The formats every command's --format takes (JSON lines is batch's own). */
    static const char *const formats[] = {"table", "json", "csv", "jsonl"};
    list_begin(&list, out, "_collcalc_formats");
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        output_format format;
        if (output_format_parse(formats[i], &format) && format != FORMAT_JSONL)
            list_word(&list, formats[i]);
    }
    list_end(&list);
    return 0;
}

static void print_options_function(FILE *out)
{
    size_t command_count = 0;
    const command_spec *commands = command_table(&command_count);
    fputs("_collcalc_options() {\n    case $1 in\n", out);
    for (size_t i = 0; i < command_count; i++) {
        if (!safe_word(commands[i].name))
            continue;
        fprintf(out, "    %s) _collcalc_list='", commands[i].name);
        bool seen[OPT_COUNT] = {false};
        bool first = true;
        for (const option_group *group = commands[i].groups; group->title != NULL; group++) {
            for (const option_use *use = group->options; use->id != OPT_NONE; use++) {
                if ((unsigned)use->id >= OPT_COUNT || seen[use->id])
                    continue;
                seen[use->id] = true;
                const option_def *def = option_def_of(use->id);
                if (safe_word(def->name)) {
                    fprintf(out, "%s--%s", first ? "" : " ", def->name);
                    first = false;
                }
                if (def->alias != NULL && safe_word(def->alias))
                    fprintf(out, " --%s", def->alias);
            }
        }
        fputs("' ;;\n", out);
    }
    fputs("    *) _collcalc_list='--help' ;;\n    esac\n}\n", out);
}

static void print_kind_function(FILE *out)
{
    static const char *const kinds[] = {"link", "platform", "model", "format",
                                        "algo", "op",       "file",  "value"};
    fputs("_collcalc_kind() {\n    case $1 in\n", out);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        bool any = false;
        for (int id = OPT_NONE + 1; id < OPT_COUNT; id++) {
            const option_def *def = option_def_of((option_id)id);
            const char *kind = value_kind(def);
            if (kind == NULL || strcmp(kind, kinds[k]) != 0 || !safe_word(def->name))
                continue;
            fprintf(out, "%s--%s", any ? "|" : "    ", def->name);
            if (def->alias != NULL && safe_word(def->alias))
                fprintf(out, "|--%s", def->alias);
            if (def->short_name != 0)
                fprintf(out, "|-%c", def->short_name);
            any = true;
        }
        if (any)
            fprintf(out, ") _collcalc_k=%s ;;\n", kinds[k]);
    }
    fputs("    *) _collcalc_k= ;;\n    esac\n}\n", out);
}

static void print_algos_function(FILE *out)
{
    fputs("_collcalc_algos() {\n    case $1 in\n", out);
    bool any_algo[COLLCALC_ALGO_COUNT] = {false};
    for (int op = 0; op < COLLCALC_OP_COUNT; op++) {
        collcalc_algo algos[COLLCALC_ALGO_COUNT];
        size_t count = collcalc_algos_for_op((collcalc_op)op, algos, COLLCALC_ALGO_COUNT);
        fprintf(out, "    %s) _collcalc_list='", collcalc_op_name((collcalc_op)op));
        for (size_t i = 0; i < count; i++) {
            fprintf(out, "%s%s", i == 0 ? "" : " ", collcalc_algo_name(algos[i]));
            any_algo[algos[i]] = true;
        }
        fputs("' ;;\n", out);
    }
    fputs("    *) _collcalc_list='", out);
    bool first = true;
    for (int a = 0; a < COLLCALC_ALGO_COUNT; a++) {
        if (!any_algo[a])
            continue;
        fprintf(out, "%s%s", first ? "" : " ", collcalc_algo_name((collcalc_algo)a));
        first = false;
    }
    fputs("' ;;\n    esac\n}\n", out);
}

static void print_positional_function(FILE *out)
{
    size_t command_count = 0;
    const command_spec *commands = command_table(&command_count);
    fputs("_collcalc_positional() {\n    _collcalc_list=\n    case $1 in\n", out);
    for (size_t i = 0; i < command_count; i++) {
        char choices[128];
        positional kind = positional_of(&commands[i], choices, sizeof choices);
        if (kind == POSITIONAL_NONE || !safe_word(commands[i].name))
            continue;
        if (kind == POSITIONAL_OP)
            fprintf(out, "    %s) _collcalc_k=op ;;\n", commands[i].name);
        else if (kind == POSITIONAL_FILE)
            fprintf(out, "    %s) _collcalc_k=file ;;\n", commands[i].name);
        else
            fprintf(out, "    %s) _collcalc_k=choices; _collcalc_list='%s' ;;\n", commands[i].name,
                    choices);
    }
    fputs("    *) _collcalc_k= ;;\n    esac\n}\n", out);
}

static const char BASH_MAIN[] =
    "_collcalc() {\n"
    "    local cur prev opt cmd op words=\n"
    "    COMPREPLY=()\n"
    "    cur=${COMP_WORDS[COMP_CWORD]}\n"
    "    prev=\n"
    "    if [ \"$COMP_CWORD\" -gt 0 ]; then prev=${COMP_WORDS[COMP_CWORD-1]}; fi\n"
    "    opt=$prev\n"
    "    # --option=value: bash splits the word at '=' when COMP_WORDBREAKS has it\n"
    "    if [ \"$cur\" = \"=\" ]; then\n"
    "        cur=\n"
    "    elif [ \"$prev\" = \"=\" ] && [ \"$COMP_CWORD\" -gt 1 ]; then\n"
    "        opt=${COMP_WORDS[COMP_CWORD-2]}\n"
    "    else\n"
    "        case $cur in --*=*) opt=${cur%%=*}; cur=${cur#*=} ;; esac\n"
    "    fi\n"
    "    if [ \"$COMP_CWORD\" -le 1 ]; then\n"
    "        COMPREPLY=($(compgen -W \"$_collcalc_commands help --help --version\" -- \"$cur\"))\n"
    "        return 0\n"
    "    fi\n"
    "    cmd=${COMP_WORDS[1]}\n"
    "    if [ \"$cmd\" = help ]; then\n"
    "        if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
    "            COMPREPLY=($(compgen -W \"$_collcalc_commands\" -- \"$cur\"))\n"
    "        fi\n"
    "        return 0\n"
    "    fi\n"
    "    _collcalc_kind \"$opt\"\n"
    "    case $_collcalc_k in\n"
    "    link) words=$_collcalc_links ;;\n"
    "    platform) words=$_collcalc_platforms ;;\n"
    "    model) words=$_collcalc_models ;;\n"
    "    format) words=$_collcalc_formats ;;\n"
    "    op) words=$_collcalc_ops ;;\n"
    "    algo)\n"
    "        op=$cmd\n"
    "        _collcalc_positional \"$cmd\"\n"
    "        if [ \"$_collcalc_k\" = op ]; then op=${COMP_WORDS[2]}; fi\n"
    "        _collcalc_algos \"$op\"\n"
    "        words=$_collcalc_list ;;\n"
    "    file) COMPREPLY=($(compgen -f -- \"$cur\")); return 0 ;;\n"
    "    value) return 0 ;;\n"
    "    esac\n"
    "    if [ -n \"$words\" ]; then\n"
    "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
    "        return 0\n"
    "    fi\n"
    "    case $cur in\n"
    "    -*)\n"
    "        _collcalc_options \"$cmd\"\n"
    "        COMPREPLY=($(compgen -W \"$_collcalc_list\" -- \"$cur\"))\n"
    "        return 0 ;;\n"
    "    esac\n"
    "    _collcalc_positional \"$cmd\"\n"
    "    case $_collcalc_k in\n"
    "    op) if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
    "            COMPREPLY=($(compgen -W \"$_collcalc_ops\" -- \"$cur\"))\n"
    "        fi ;;\n"
    "    file) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
    "    choices) if [ \"$COMP_CWORD\" -eq 2 ]; then\n"
    "            COMPREPLY=($(compgen -W \"$_collcalc_list\" -- \"$cur\"))\n"
    "        fi ;;\n"
    "    esac\n"
    "    return 0\n"
    "}\n"
    "complete -o default -o bashdefault -F _collcalc collcalc 2>/dev/null ||\n"
    "    complete -F _collcalc collcalc\n";

static const char ZSH_MAIN[] =
    "_collcalc() {\n"
    "    local cur=${words[CURRENT]} prev=${words[CURRENT-1]} cmd=${words[2]} opt op\n"
    "    local -a list\n"
    "    opt=$prev\n"
    "    if [[ $cur == --*=* ]]; then\n"
    "        opt=${cur%%=*}\n"
    "        compset -P '*='\n"
    "        cur=${cur#*=}\n"
    "    fi\n"
    "    if (( CURRENT == 2 )); then\n"
    "        list=(${=_collcalc_commands} help --help --version)\n"
    "        compadd -a list\n"
    "        return\n"
    "    fi\n"
    "    if [[ $cmd == help ]]; then\n"
    "        if (( CURRENT == 3 )); then list=(${=_collcalc_commands}); compadd -a list; fi\n"
    "        return\n"
    "    fi\n"
    "    _collcalc_kind \"$opt\"\n"
    "    case $_collcalc_k in\n"
    "    link) list=(${=_collcalc_links}) ;;\n"
    "    platform) list=(${=_collcalc_platforms}) ;;\n"
    "    model) list=(${=_collcalc_models}) ;;\n"
    "    format) list=(${=_collcalc_formats}) ;;\n"
    "    op) list=(${=_collcalc_ops}) ;;\n"
    "    algo)\n"
    "        op=$cmd\n"
    "        _collcalc_positional \"$cmd\"\n"
    "        if [[ $_collcalc_k == op ]]; then op=${words[3]}; fi\n"
    "        _collcalc_algos \"$op\"\n"
    "        list=(${=_collcalc_list}) ;;\n"
    "    file) _files; return ;;\n"
    "    value) return 1 ;;\n"
    "    esac\n"
    "    if (( ${#list} )); then compadd -a list; return; fi\n"
    "    if [[ $cur == -* ]]; then\n"
    "        _collcalc_options \"$cmd\"\n"
    "        list=(${=_collcalc_list})\n"
    "        compadd -a list\n"
    "        return\n"
    "    fi\n"
    "    _collcalc_positional \"$cmd\"\n"
    "    case $_collcalc_k in\n"
    "    op) if (( CURRENT == 3 )); then list=(${=_collcalc_ops}); compadd -a list; fi ;;\n"
    "    file) _files ;;\n"
    "    choices) if (( CURRENT == 3 )); then list=(${=_collcalc_list}); compadd -a list; fi ;;\n"
    "    esac\n"
    "}\n"
    "# Autoloaded from a directory in $fpath (installed as _collcalc) or sourced:\n"
    "if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then\n"
    "    _collcalc \"$@\"\n"
    "else\n"
    "    compdef _collcalc collcalc\n"
    "fi\n";

int cmd_completion(cli_context *ctx)
{
    if (ctx->args.positional_count != 1)
        return cli_usage_error(ctx, NULL, ctx->args.positional_count == 0
                                              ? "which shell? (bash or zsh)"
                                              : "one shell at a time (bash or zsh)");
    const char *shell = ctx->args.positionals[0];
    bool zsh = strcmp(shell, "zsh") == 0;
    if (!zsh && strcmp(shell, "bash") != 0) {
        char shown[COLLCALC_ECHO_BUFFER];
        collcalc_echo(shown, sizeof shown, shell);
        return cli_usage_error(ctx, NULL, "unknown shell '%s' (bash or zsh)", shown);
    }
    FILE *out = ctx->out;
    if (zsh)
        fputs("#compdef collcalc\n", out);
    fprintf(out,
            "# %s completion for collcalc %s, generated by 'collcalc completion %s' from\n"
            "# its command table, option registry and built-in link, platform and model\n"
            "# tables. Regenerate it after upgrading collcalc.\n",
            zsh ? "zsh" : "bash", COLLCALC_VERSION_STRING, zsh ? "zsh" : "bash");
    int code = print_tables(ctx);
    if (code != 0)
        return code;
    print_options_function(out);
    print_kind_function(out);
    print_algos_function(out);
    print_positional_function(out);
    fputs(zsh ? ZSH_MAIN : BASH_MAIN, out);
    return EXIT_OK;
}
