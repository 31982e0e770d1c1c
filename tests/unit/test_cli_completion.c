/* collcalc completion (src/cli/cmd_completion.c): the bash script parses
 * (bash -n) and, sourced into a real bash with COMP_WORDS/COMP_CWORD set,
 * completes commands, options, link/platform/model names, --format values
 * and each operation's --algo names; the zsh script parses (zsh -n, skipped
 * without zsh) and offers the same words through a stand-in compadd. */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include "cli.h"
#include "commands.h"
#include "collcalc/links.h"
#include "collcalc/model.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char bash_script[64] = "";
static char zsh_script[64] = "";

/* Writes the output of `collcalc completion SHELL` to a temporary file. */
static void generate(const char *shell, char *path, size_t size)
{
    char line[64];
    snprintf(line, sizeof line, "collcalc completion %s", shell);
    test_cli_run run = test_cli_line(NULL, line);
    if (run.exit_code != 0)
        print_error("%s: %s\n", line, run.err);
    assert_int_equal(run.exit_code, 0);
    assert_string_equal(run.err, "");
    snprintf(path, size, "/tmp/collcalc-completion-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *file = fdopen(fd, "w");
    assert_non_null(file);
    assert_int_equal(fputs(run.out, file) >= 0, 1);
    assert_int_equal(fclose(file), 0);
    test_cli_run_free(&run);
}

static int setup(void **state)
{
    (void)state;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    if (bash_script[0] != '\0')
        unlink(bash_script);
    if (zsh_script[0] != '\0')
        unlink(zsh_script);
    return 0;
}

static bool have(const char *program)
{
    char command[128];
    snprintf(command, sizeof command, "command -v %s >/dev/null 2>&1", program);
    return system(command) == 0;
}

/* Runs shell_command with /bin/sh and returns its stdout (caller frees). */
static char *capture(const char *shell_command)
{
    FILE *pipe = popen(shell_command, "r");
    assert_non_null(pipe);
    size_t capacity = 1 << 16, length = 0;
    char *text = malloc(capacity);
    assert_non_null(text);
    size_t got;
    while ((got = fread(text + length, 1, capacity - 1 - length, pipe)) > 0) {
        length += got;
        assert_true(length < capacity - 1);
    }
    text[length] = '\0';
    assert_int_equal(pclose(pipe), 0);
    return text;
}

/* COMPREPLY, one word a line, after completing the words (the last one is
 * the word under the cursor; '' for an empty one). */
static char *complete_bash(const char *words)
{
    char command[1024];
    snprintf(command, sizeof command,
             "bash --norc --noprofile -c 'source %s; COMP_WORDS=(%s); "
             "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _collcalc; "
             "if [ ${#COMPREPLY[@]} -gt 0 ]; then printf \"%%s\\n\" \"${COMPREPLY[@]}\"; fi'",
             bash_script, words);
    return capture(command);
}

#define assert_completes(words, expected)                                                  \
    do {                                                                                   \
        char *got_ = complete_bash(words);                                                 \
        if (strcmp(got_, (expected)) != 0)                                                 \
            print_error("completing [%s]: got\n%s\nexpected\n%s\n", (words), got_,         \
                        (expected));                                                       \
        assert_string_equal(got_, (expected));                                             \
        free(got_);                                                                        \
    } while (0)

/* Is word one of the lines of text? */
static bool has_line(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; (p = strstr(p, word)) != NULL; p++)
        if ((p == text || p[-1] == '\n') && p[n] == '\n')
            return true;
    return false;
}

static void bash_script_parses(void **state)
{
    (void)state;
    if (!have("bash"))
        skip();
    generate("bash", bash_script, sizeof bash_script);
    char command[128];
    snprintf(command, sizeof command, "bash -n %s", bash_script);
    assert_int_equal(system(command), 0);
}

static void bash_completes_commands_and_options(void **state)
{
    (void)state;
    if (bash_script[0] == '\0')
        skip();
    assert_completes("collcalc allr", "allreduce\n");
    assert_completes("collcalc allreduce --li", "--link\n--links\n--links-only\n");
    assert_completes("collcalc allreduce --plat", "--platform\n--platforms\n--platforms-only\n");
    assert_completes("collcalc comp", "compare\ncompletion\n");
    assert_completes("collcalc completion \"\"", "bash\nzsh\n");
    assert_completes("collcalc help sw", "sweep\n");
    assert_completes("collcalc allreduce --size \"\"", ""); /* a number: nothing to offer */
    assert_completes("collcalc allreduce --format \"\"", "table\njson\ncsv\n");
    /* Every command of the table, then help and the top-level flags. */
    char *all = complete_bash("collcalc \"\"");
    size_t count = 0;
    const command_spec *commands = command_table(&count);
    for (size_t i = 0; i < count; i++)
        assert_true(has_line(all, commands[i].name));
    assert_true(has_line(all, "help") && has_line(all, "--version"));
    free(all);
}

static void bash_completes_names(void **state)
{
    (void)state;
    if (bash_script[0] == '\0')
        skip();
    assert_completes("collcalc allreduce --link nvlink5", "nvlink5\n");
    assert_completes("collcalc allreduce --intra nvl4", "nvl4\nnvl4-h800\n");
    assert_completes("collcalc allreduce --link=ib-n", "ib-ndr200\nib-ndr\n");
    assert_completes("collcalc plan --platform hgx-h1", "hgx-h100\n");
    assert_completes("collcalc kv --model llama-3.1-", "llama-3.1-70b\nllama-3.1-8b\nllama-3.1-405b\n");
    /* Every built-in link by name. */
    collcalc_link_table *links = NULL;
    collcalc_diag diag;
    assert_int_equal(collcalc_link_table_builtin(&links, &diag), COLLCALC_OK);
    char *offered = complete_bash("collcalc allreduce --inter \"\"");
    for (size_t i = 0; i < collcalc_link_table_count(links); i++)
        assert_true(has_line(offered, collcalc_link_table_at(links, i)->name));
    free(offered);
    collcalc_link_table_free(links);
}

static void bash_completes_algorithms_per_op(void **state)
{
    (void)state;
    if (bash_script[0] == '\0')
        skip();
    assert_completes("collcalc alltoall --algo \"\"", "pairwise\nbruck\n");
    assert_completes("collcalc compare alltoall --algo \"\"", "pairwise\nbruck\n");
    assert_completes("collcalc sendrecv -a \"\"", "direct\n");
    assert_completes("collcalc compare all", "allreduce\nallgather\nalltoall\n");
    /* All-reduce: exactly collcalc_algos_for_op's list, in its order. */
    collcalc_algo algos[COLLCALC_ALGO_COUNT];
    size_t n = collcalc_algos_for_op(COLLCALC_OP_ALLREDUCE, algos, COLLCALC_ALGO_COUNT);
    char expected[512] = "";
    for (size_t i = 0; i < n; i++) {
        strcat(expected, collcalc_algo_name(algos[i]));
        strcat(expected, "\n");
    }
    assert_true(n >= 5);
    assert_completes("collcalc allreduce --algo \"\"", expected);
}

static void zsh_script_parses(void **state)
{
    (void)state;
    if (!have("zsh"))
        skip(); /* the script is still generated and checked for its header */
    generate("zsh", zsh_script, sizeof zsh_script);
    char command[128];
    snprintf(command, sizeof command, "zsh -n %s", zsh_script);
    assert_int_equal(system(command), 0);
    /* Through a stand-in compadd that prints what it is offered. */
    char run[1024];
    snprintf(run, sizeof run,
             "zsh -f -c 'compdef() { :; }; source %s; "
             "compadd() { if [[ $1 == -a ]]; then print -rl -- ${(P)2}; fi; }; "
             "words=(collcalc alltoall --algo \"\"); CURRENT=4; _collcalc'",
             zsh_script);
    char *got = capture(run);
    assert_string_equal(got, "pairwise\nbruck\n");
    free(got);
}

static void refuses_other_shells(void **state)
{
    (void)state;
    test_cli_run run = test_cli_line(NULL, "collcalc completion fish");
    assert_int_equal(run.exit_code, 2);
    assert_string_equal(run.out, "");
    assert_string_equal(run.err, "collcalc completion: unknown shell 'fish' (bash or zsh) (see "
                                 "'collcalc completion --help')\n");
    test_cli_run_free(&run);
    run = test_cli_line(NULL, "collcalc completion");
    assert_int_equal(run.exit_code, 2);
    assert_string_equal(run.err, "collcalc completion: which shell? (bash or zsh) (see "
                                 "'collcalc completion --help')\n");
    test_cli_run_free(&run);
    run = test_cli_line(NULL, "collcalc completion zsh");
    assert_int_equal(run.exit_code, 0);
    assert_true(strncmp(run.out, "#compdef collcalc\n", 18) == 0);
    test_cli_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bash_script_parses),
        cmocka_unit_test(bash_completes_commands_and_options),
        cmocka_unit_test(bash_completes_names),
        cmocka_unit_test(bash_completes_algorithms_per_op),
        cmocka_unit_test(zsh_script_parses),
        cmocka_unit_test(refuses_other_shells),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
