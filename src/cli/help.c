/* --help texts, generated from the command table, the option registry and
 * the model's algorithm registry, so they cannot drift from the code. */
#include <string.h>

#include "collcalc/model.h"
#include "commands.h"

static const char *size_meaning(collcalc_op op)
{
    switch (op) {
    case COLLCALC_OP_ALLREDUCE: return "The size is the buffer every GPU holds.";
    case COLLCALC_OP_ALLGATHER: return "The size is the whole gathered output (nccl-tests' size).";
    case COLLCALC_OP_REDUCESCATTER: return "The size is the whole input (nccl-tests' size).";
    case COLLCALC_OP_ALLTOALL: return "The size is one rank's whole send buffer (nccl-tests' size).";
    case COLLCALC_OP_BROADCAST: return "The size is the message the root sends.";
    case COLLCALC_OP_REDUCE: return "The size is the message every GPU contributes.";
    case COLLCALC_OP_SENDRECV: return "The size is the message each GPU sends to the next.";
    case COLLCALC_OP_COUNT: break;
    }
    return "";
}

/* "  -s, --size SIZE" padded to the help column, then the help lines. */
static void print_option(FILE *out, const option_use *use, int op)
{
    const option_def *def = option_def_of(use->id);
    char left[64];
    int n = snprintf(left, sizeof left, "  %s%c%s--%s%s%s", def->short_name ? "-" : "",
                     def->short_name ? def->short_name : ' ', def->short_name ? ", " : "  ",
                     def->name, def->value_name ? " " : "", def->value_name ? def->value_name : "");
    if (def->short_name == 0) {
        /* "      --size" lines up with "  -s, --size" */
        n = snprintf(left, sizeof left, "      --%s%s%s", def->name, def->value_name ? " " : "",
                     def->value_name ? def->value_name : "");
    }
    const char *help = use->help != NULL ? use->help : def->help;
    enum { COLUMN = 25 };
    fputs(left, out);
    if (n >= COLUMN - 1) {
        fputc('\n', out);
        n = 0;
    }
    for (int i = n; i < COLUMN; i++)
        fputc(' ', out);
    for (const char *c = help; *c != '\0'; c++) {
        fputc(*c, out);
        if (*c == '\n')
            for (int i = 0; i < COLUMN; i++)
                fputc(' ', out);
    }
    fputc('\n', out);
    if (use->id == OPT_ALGO && op >= 0) {
        collcalc_algo algos[COLLCALC_ALGO_COUNT];
        size_t count = collcalc_algos_for_op((collcalc_op)op, algos, COLLCALC_ALGO_COUNT);
        fprintf(out, "%*s%s algorithms:", COLUMN, "", collcalc_op_title((collcalc_op)op));
        int width = COLUMN + (int)strlen(collcalc_op_title((collcalc_op)op)) + 12;
        for (size_t i = 0; i < count; i++) {
            const char *name = collcalc_algo_name(algos[i]);
            int length = (int)strlen(name) + 2;
            if (width + length > 79) {
                fprintf(out, "\n%*s", COLUMN, "");
                width = COLUMN;
            }
            fprintf(out, " %s%s", name, i + 1 < count ? "," : "");
            width += length;
        }
        fputc('\n', out);
    }
    if (def->alias != NULL)
        fprintf(out, "%*s(also --%s)\n", COLUMN, "", def->alias);
}

/* The description with "{op}" and "{size}" filled in for a collective. */
static void print_description(FILE *out, const command_spec *spec)
{
    for (const char *c = spec->description; *c != '\0'; c++) {
        if (spec->op >= 0 && strncmp(c, "{op}", 4) == 0) {
            fputs(collcalc_op_title((collcalc_op)spec->op), out);
            c += 3;
        } else if (spec->op >= 0 && strncmp(c, "{size}", 6) == 0) {
            fputs(size_meaning((collcalc_op)spec->op), out);
            c += 5;
        } else {
            fputc(*c, out);
        }
    }
}

void help_print(FILE *out, const command_spec *spec)
{
    const char *usage = spec->usage;
    bool first = true;
    while (*usage != '\0') {
        const char *end = strchr(usage, '\n');
        size_t length = end != NULL ? (size_t)(end - usage) : strlen(usage);
        fprintf(out, "%s collcalc %s %.*s\n", first ? "Usage:" : "      ", spec->name, (int)length,
                usage);
        first = false;
        usage += length;
        if (*usage == '\n')
            usage++;
    }
    fputc('\n', out);
    print_description(out, spec);
    fputc('\n', out);
    for (const option_group *group = spec->groups; group->title != NULL; group++) {
        fprintf(out, "\n%s:\n", group->title);
        for (const option_use *use = group->options; use->id != OPT_NONE; use++)
            print_option(out, use, spec->op);
    }
    fputs("\nExamples:\n", out);
    for (const char *const *example = spec->examples; *example != NULL; example++)
        fprintf(out, "  %s\n", *example);
}
