/* Unit tests for the compiled built-in link table: cmake/gen_links.c turns
 * data/links.json into a C array at build time and collcalc_link_table_builtin
 * (src/data/links_builtin.c) copies it. The copy must be exactly what
 * parsing collcalc_builtin_links_json() gives, field by field; the generator
 * is also run on tests/unit/links_tricky.json (awkward strings and figures,
 * compiled into this test as test_links_tricky by tests/CMakeLists.txt). */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/links.h"

/* Written by collcalc_gen_links from tests/unit/links_tricky.json (the
 * type is the data layer's; this test reads it through the API). */
extern const collcalc_link_table test_links_tricky;

/* A char[] field: the whole buffer must match (the loader leaves the bytes
 * after the NUL zero, and so does a string literal). */
static void expect_text(size_t index, const char *field, const char *got, const char *want,
                        size_t size)
{
    if (memcmp(got, want, size) == 0)
        return;
    print_error("links[%zu].%s: compiled \"%.*s\", parsed \"%.*s\"\n", index, field, (int)size,
                got, (int)size, want);
    fail();
}

/* A double field: the same bits, not merely close. */
static void expect_figure(size_t index, const char *field, double got, double want)
{
    if (memcmp(&got, &want, sizeof got) == 0)
        return;
    print_error("links[%zu].%s: compiled %a, parsed %a\n", index, field, got, want);
    fail();
}

static void expect_enum(size_t index, const char *field, int got, int want)
{
    if (got == want)
        return;
    print_error("links[%zu].%s: compiled %d, parsed %d\n", index, field, got, want);
    fail();
}

static void expect_same_link(size_t i, const collcalc_link *got, const collcalc_link *want)
{
    expect_text(i, "name", got->name, want->name, sizeof got->name);
    char field[32];
    for (size_t a = 0; a < COLLCALC_MAX_ALIASES; a++) {
        snprintf(field, sizeof field, "aliases[%zu]", a);
        expect_text(i, field, got->aliases[a], want->aliases[a], sizeof got->aliases[a]);
    }
    expect_text(i, "description", got->description, want->description, sizeof got->description);
    expect_enum(i, "tier", (int)got->tier, (int)want->tier);
    expect_enum(i, "class", (int)got->link_class, (int)want->link_class);
    expect_figure(i, "bw_per_direction_GBps", got->bw_per_direction_GBps,
                  want->bw_per_direction_GBps);
    expect_figure(i, "headline_GBps", got->headline_GBps, want->headline_GBps);
    expect_enum(i, "headline_counts", (int)got->headline_counts, (int)want->headline_counts);
    expect_figure(i, "alpha_us", got->alpha_us, want->alpha_us);
    expect_figure(i, "p2p_efficiency", got->p2p_efficiency, want->p2p_efficiency);
    expect_text(i, "sources.bw_per_direction_GBps", got->bw_source, want->bw_source,
                sizeof got->bw_source);
    expect_text(i, "sources.headline_GBps", got->headline_source, want->headline_source,
                sizeof got->headline_source);
    expect_text(i, "sources.alpha_us", got->alpha_source, want->alpha_source,
                sizeof got->alpha_source);
    expect_text(i, "sources.p2p_efficiency", got->p2p_efficiency_source,
                want->p2p_efficiency_source, sizeof got->p2p_efficiency_source);
    /* Then the whole struct, padding included (zero on both sides): catches
     * a field added to collcalc_link that the generator does not write. */
    if (memcmp(got, want, sizeof *got) != 0) {
        print_error("links[%zu]: the fields match but the bytes differ (a field of "
                    "collcalc_link this test and cmake/gen_links.c do not know?)\n", i);
        fail();
    }
}

/* Parses the JSON text as users' files are parsed; fails the test if it does not load. */
static collcalc_link_table *parse_text(const char *text, size_t length)
{
    collcalc_diag diag = {{0}};
    collcalc_link_table *table = NULL;
    collcalc_status status = collcalc_link_table_parse(text, length, &table, &diag);
    if (status != COLLCALC_OK)
        print_error("parse: %s\n", diag.message);
    assert_int_equal(status, COLLCALC_OK);
    return table;
}

static void test_builtin_equals_parsed_json(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    collcalc_link_table *compiled = NULL;
    assert_int_equal(collcalc_link_table_builtin(&compiled, &diag), COLLCALC_OK);
    assert_non_null(compiled);
    const char *json = collcalc_builtin_links_json();
    collcalc_link_table *parsed = parse_text(json, strlen(json));

    size_t count = collcalc_link_table_count(parsed);
    assert_true(count > 0);
    assert_int_equal(collcalc_link_table_count(compiled), count);
    for (size_t i = 0; i < count; i++) {
        expect_same_link(i, collcalc_link_table_at(compiled, i),
                         collcalc_link_table_at(parsed, i));
        assert_int_equal(collcalc_link_table_origin(compiled, i), COLLCALC_ENTRY_BASE);
    }
    assert_int_equal(collcalc_link_table_replaced_count(compiled), 0);
    /* Lookups go through the same names. */
    assert_ptr_equal(collcalc_link_table_find(compiled, "NVL5"),
                     collcalc_link_table_find(compiled, "nvlink5"));
    assert_non_null(collcalc_link_table_find(compiled, "nvlink5"));

    /* Every call hands out the same static table, which free leaves alone
     * (valgrind would report a free of it). */
    collcalc_link_table *again = NULL;
    assert_int_equal(collcalc_link_table_builtin(&again, &diag), COLLCALC_OK);
    assert_ptr_equal(again, compiled);
    collcalc_link_table_free(again);
    assert_int_equal(collcalc_link_table_count(compiled), count);
    collcalc_link_table_free(parsed);
    collcalc_link_table_free(compiled);
}

/* Quotes, backslashes, trigraphs, control bytes, UTF-8, printf directives,
 * full-length names, all four aliases, figures that need all 17 digits. */
static void test_generator_on_tricky_strings(void **state)
{
    (void)state;
    size_t length = 0;
    char *text = test_read_file(test_source_path("tests/unit/links_tricky.json"), &length);
    collcalc_link_table *parsed = parse_text(text, length);
    free(text);
    const collcalc_link_table *tricky = &test_links_tricky;
    size_t count = collcalc_link_table_count(tricky);
    assert_int_equal(count, collcalc_link_table_count(parsed));
    for (size_t i = 0; i < count; i++)
        expect_same_link(i, collcalc_link_table_at(tricky, i), collcalc_link_table_at(parsed, i));
    /* The fixture really holds what the escapes are for. */
    const collcalc_link *first = collcalc_link_table_at(tricky, 0);
    assert_contains(first->description, "\"");
    /* "?\?" keeps the needle itself from being a trigraph. */
    assert_contains(first->description, "?\?=");
    assert_contains(first->description, "\xc3\xa9" "ab12");
    assert_contains(first->alpha_source, "\n");
    collcalc_link_table_free(parsed);
}

static void test_builtin_refusals(void **state)
{
    (void)state;
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_link_table_builtin(NULL, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "no place for the link table");
    /* No allocation at all: a failing allocator changes nothing. */
    test_allocator_install(0);
    collcalc_link_table *table = NULL;
    collcalc_status status = collcalc_link_table_builtin(&table, &diag);
    collcalc_allocator_set(NULL);
    assert_int_equal(status, COLLCALC_OK);
    assert_non_null(collcalc_link_table_find(table, "nvlink5"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_equals_parsed_json),
        cmocka_unit_test(test_generator_on_tricky_strings),
        cmocka_unit_test(test_builtin_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
