/* Build-time generator: compiles a link table (data/links.json) into C.
 *
 *   collcalc_gen_links INPUT OUTPUT ORIGIN SYMBOL
 *
 * loads INPUT with the library's own strict loader
 * (collcalc_link_table_parse_named; ORIGIN names the file in its messages)
 * and writes OUTPUT, a C file defining
 *
 *   const collcalc_link_table SYMBOL;   every entry, every field, in file order
 *
 * (the table layout of src/data/links_builtin.h), so
 * collcalc_link_table_builtin (src/data/links_builtin.c) hands out a ready
 * static table instead of parsing JSON at every start. A bad file fails the build
 * with the loader's one-line message, and OUTPUT is then left untouched
 * (written to OUTPUT.tmp, renamed on success). Strings become C literals with
 * every byte outside printable ASCII, '"', '\' and '?' (trigraphs) escaped;
 * figures are written as hex floats, so the compiler reads back the very
 * doubles the loader produced. tests/unit/test_links_builtin.c checks the
 * result against a parse of the same text. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/links.h"

/* C names of the enum values, index = value (include/collcalc/links.h). */
static const char *const tier_names[] = {"COLLCALC_TIER_ON_PACKAGE", "COLLCALC_TIER_SCALE_UP",
                                         "COLLCALC_TIER_HOST", "COLLCALC_TIER_SCALE_OUT"};
static const char *const class_names[] = {"COLLCALC_LINK_CLASS_MEMORY",
                                          "COLLCALC_LINK_CLASS_NVLINK", "COLLCALC_LINK_CLASS_PCI",
                                          "COLLCALC_LINK_CLASS_NET"};
static const char *const headline_names[] = {"COLLCALC_HEADLINE_BOTH_DIRECTIONS",
                                             "COLLCALC_HEADLINE_PER_DIRECTION",
                                             "COLLCALC_HEADLINE_SINGLE_FIGURE"};

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

static const char *program = "collcalc_gen_links";

/* Reads the whole of path into a new NUL-terminated buffer. */
static char *read_file(const char *path, size_t *out_length)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "%s: cannot open %s\n", program, path);
        return NULL;
    }
    size_t capacity = 1 << 16, length = 0;
    char *text = malloc(capacity);
    while (text != NULL) {
        length += fread(text + length, 1, capacity - length - 1, file);
        if (length < capacity - 1)
            break;
        capacity *= 2;
        char *grown = realloc(text, capacity);
        if (grown == NULL)
            free(text);
        text = grown;
    }
    int failed = ferror(file);
    fclose(file);
    if (text == NULL || failed) {
        fprintf(stderr, "%s: cannot read %s\n", program, path);
        free(text);
        return NULL;
    }
    text[length] = '\0';
    *out_length = length;
    return text;
}

/* text as a C string literal. */
static void write_string(FILE *out, const char *text)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
        if (*p == '"' || *p == '\\' || *p == '?')
            fprintf(out, "\\%c", *p);
        else if (*p >= 0x20 && *p < 0x7F)
            fputc(*p, out);
        else
            fprintf(out, "\\%03o", *p); /* always three digits: no digit after it joins in */
    }
    fputc('"', out);
}

/* A double, exactly (hex float), with its shortest decimal as a comment:
 * whole numbers as integers, others in the fewest digits that read back. */
static void write_double(FILE *out, double value)
{
    char decimal[40];
    if (value == floor(value) && fabs(value) < 1e15) {
        snprintf(decimal, sizeof decimal, "%.0f", value);
    } else {
        snprintf(decimal, sizeof decimal, "%.17g", value);
        for (int precision = 1; precision < 17; precision++) {
            char attempt[40];
            snprintf(attempt, sizeof attempt, "%.*g", precision, value);
            if (strtod(attempt, NULL) == value) {
                memcpy(decimal, attempt, strlen(attempt) + 1);
                break;
            }
        }
    }
    fprintf(out, "%a /* %s */", value, decimal);
}

static const char *enum_name(const char *const *names, size_t count, int value)
{
    return (value >= 0 && (size_t)value < count) ? names[value] : NULL;
}

static int write_link(FILE *out, size_t index, const collcalc_link *link)
{
    const char *tier = enum_name(tier_names, COUNT_OF(tier_names), (int)link->tier);
    const char *link_class = enum_name(class_names, COUNT_OF(class_names), (int)link->link_class);
    const char *headline =
        enum_name(headline_names, COUNT_OF(headline_names), (int)link->headline_counts);
    if (tier == NULL || link_class == NULL || headline == NULL) {
        fprintf(stderr, "%s: links[%zu]: an enum value this generator has no name for\n",
                program, index);
        return -1;
    }
    if (!isfinite(link->bw_per_direction_GBps) || !isfinite(link->headline_GBps) ||
        !isfinite(link->alpha_us) || !isfinite(link->p2p_efficiency)) {
        fprintf(stderr, "%s: links[%zu]: a figure that is not finite\n", program, index);
        return -1;
    }
    fprintf(out, "    { /* links[%zu] */\n        .name = ", index);
    write_string(out, link->name);
    fputs(",\n        .aliases = {", out);
    for (size_t a = 0; a < COLLCALC_MAX_ALIASES; a++) {
        if (a > 0)
            fputs(", ", out);
        write_string(out, link->aliases[a]);
    }
    fputs("},\n        .description = ", out);
    write_string(out, link->description);
    fprintf(out, ",\n        .tier = %s,\n        .link_class = %s,\n", tier, link_class);
    fputs("        .bw_per_direction_GBps = ", out);
    write_double(out, link->bw_per_direction_GBps);
    fputs(",\n        .headline_GBps = ", out);
    write_double(out, link->headline_GBps);
    fprintf(out, ",\n        .headline_counts = %s,\n        .alpha_us = ", headline);
    write_double(out, link->alpha_us);
    fputs(",\n        .p2p_efficiency = ", out);
    write_double(out, link->p2p_efficiency);
    fputs(",\n        .bw_source = ", out);
    write_string(out, link->bw_source);
    fputs(",\n        .headline_source = ", out);
    write_string(out, link->headline_source);
    fputs(",\n        .alpha_source = ", out);
    write_string(out, link->alpha_source);
    fputs(",\n        .p2p_efficiency_source = ", out);
    write_string(out, link->p2p_efficiency_source);
    fputs(",\n    },\n", out);
    return 0;
}

static int write_table(FILE *out, const collcalc_link_table *table, const char *origin,
                       const char *symbol)
{
    fputs("/* Generated from ", out);
    /* origin is a file name: keep a stray comment end out of the comment. */
    for (const char *p = origin; *p != '\0'; p++)
        fputc(p[0] == '*' && p[1] == '/' ? '_' : *p, out);
    fputs(" by cmake/gen_links.c. Do not edit. */\n"
          "#include <stdbool.h>\n"
          "#include <stddef.h>\n\n"
          "#include \"links_builtin.h\"\n\n",
          out);
    size_t count = collcalc_link_table_count(table);
    /* A static table with its entries in place: a flexible array member
     * initialised, the GNU C extension gcc and clang share. */
    fprintf(out, "__extension__ const collcalc_link_table %s = {\n    .count = %zu,\n"
                 "    .compiled = true,\n    .links = {\n",
            symbol, count);
    for (size_t i = 0; i < count; i++)
        if (write_link(out, i, collcalc_link_table_at(table, i)) != 0)
            return -1;
    fputs("    },\n};\n", out);
    return 0;
}

/* symbol must be a C identifier: it is written into the source as is. */
static int is_identifier(const char *symbol)
{
    if (symbol[0] == '\0' || (symbol[0] >= '0' && symbol[0] <= '9'))
        return 0;
    for (const char *p = symbol; *p != '\0'; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
              (*p >= '0' && *p <= '9') || *p == '_'))
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 5 || !is_identifier(argv[4])) {
        fprintf(stderr, "usage: %s INPUT OUTPUT ORIGIN SYMBOL (SYMBOL a C identifier)\n",
                program);
        return 2;
    }
    const char *input = argv[1], *output = argv[2], *origin = argv[3], *symbol = argv[4];

    size_t length = 0;
    char *text = read_file(input, &length);
    if (text == NULL)
        return 1;
    collcalc_link_table *table = NULL;
    collcalc_diag diag;
    diag.message[0] = '\0';
    collcalc_status status = collcalc_link_table_parse_named(text, length, origin, &table, &diag);
    free(text);
    if (status != COLLCALC_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }

    size_t temp_size = strlen(output) + sizeof ".tmp";
    char *temp = malloc(temp_size);
    FILE *out = NULL;
    if (temp != NULL) {
        snprintf(temp, temp_size, "%s.tmp", output);
        out = fopen(temp, "w");
    }
    int result = 1;
    if (out == NULL) {
        fprintf(stderr, "%s: cannot write %s.tmp\n", program, output);
    } else {
        int failed = write_table(out, table, origin, symbol);
        failed |= ferror(out);
        failed |= fclose(out);
        if (failed != 0 || rename(temp, output) != 0) {
            fprintf(stderr, "%s: cannot write %s\n", program, output);
            remove(temp);
        } else {
            result = 0;
        }
    }
    free(temp);
    collcalc_link_table_free(table);
    return result;
}
