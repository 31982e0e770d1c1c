/* The public option structs: each _INIT macro gives what its _init
 * function gives, with the layout version set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "collcalc/answer.h"
#include "collcalc/cluster_spec.h"
#include "collcalc/nccl_tests_reader.h"
#include "collcalc/topo.h"

static void spec_equal(const collcalc_cluster_spec *a, const collcalc_cluster_spec *b)
{
    assert_int_equal(a->version, COLLCALC_CLUSTER_SPEC_VERSION);
    assert_int_equal(b->version, COLLCALC_CLUSTER_SPEC_VERSION);
    assert_int_equal(a->gpus, b->gpus);
    assert_int_equal(a->gpus_per_node, b->gpus_per_node);
    assert_int_equal(a->nodes, b->nodes);
    assert_string_equal(a->link, b->link);
    assert_string_equal(a->platform, b->platform);
    assert_int_equal(a->basis, b->basis);
    assert_int_equal(a->basis, COLLCALC_BW_PER_DIRECTION);
    assert_int_equal(a->nvls, b->nvls);
    assert_int_equal(a->nvls, COLLCALC_SETTING_UNSET);
    assert_int_equal(a->sharp, b->sharp);
    assert_true(a->bw_set == b->bw_set && a->alpha_set == b->alpha_set);
    assert_true(a->tree_efficiency == b->tree_efficiency);
}

static void cluster_spec_init_matches(void **state)
{
    (void)state;
    collcalc_cluster_spec macro = COLLCALC_CLUSTER_SPEC_INIT, function;
    memset(&function, 0x5a, sizeof function);
    collcalc_cluster_spec_init(&function);
    spec_equal(&macro, &function);
}

static void placement_init_matches(void **state)
{
    (void)state;
    collcalc_placement macro = COLLCALC_PLACEMENT_INIT, function;
    memset(&function, 0x5a, sizeof function);
    collcalc_placement_init(&function);
    assert_int_equal(macro.version, COLLCALC_PLACEMENT_VERSION);
    assert_int_equal(function.version, COLLCALC_PLACEMENT_VERSION);
    assert_string_equal(macro.label, function.label);
    assert_int_equal(macro.label_given, function.label_given);
    spec_equal(&macro.spec, &function.spec);
}

static void request_init_matches(void **state)
{
    (void)state;
    collcalc_request macro = COLLCALC_REQUEST_INIT, function;
    memset(&function, 0x5a, sizeof function);
    collcalc_request_init(&function);
    assert_int_equal(macro.version, COLLCALC_REQUEST_VERSION);
    assert_int_equal(function.version, COLLCALC_REQUEST_VERSION);
    assert_int_equal(macro.op, function.op);
    assert_int_equal(macro.cost_model, function.cost_model);
    assert_null(macro.topo_text);
    assert_null(function.topo_text);
    assert_int_equal(macro.algo_count, function.algo_count);
    spec_equal(&macro.cluster, &function.cluster);
}

static void reader_options_init_matches(void **state)
{
    (void)state;
    collcalc_nccl_tests_reader_options macro = COLLCALC_NCCL_TESTS_READER_OPTIONS_INIT, function;
    memset(&function, 0x5a, sizeof function);
    collcalc_nccl_tests_reader_options_init(&function);
    assert_int_equal(macro.version, COLLCALC_NCCL_TESTS_READER_OPTIONS_VERSION);
    assert_int_equal(function.version, COLLCALC_NCCL_TESTS_READER_OPTIONS_VERSION);
    assert_int_equal(macro.has_op, function.has_op);
    assert_int_equal(macro.op, function.op);
    assert_int_equal(macro.ranks, function.ranks);
    assert_int_equal(macro.max_rows, function.max_rows);
    assert_int_equal(macro.has_heading_op, function.has_heading_op);
}

static void topo_options_init_matches(void **state)
{
    (void)state;
    collcalc_topo_options macro = COLLCALC_TOPO_OPTIONS_INIT, function;
    memset(&function, 0x5a, sizeof function);
    collcalc_topo_options_init(&function);
    assert_int_equal(macro.version, COLLCALC_TOPO_OPTIONS_VERSION);
    assert_int_equal(function.version, COLLCALC_TOPO_OPTIONS_VERSION);
    assert_null(macro.gpu);
    assert_null(function.gpu);
    assert_int_equal(macro.first_line, 1);
    assert_int_equal(function.first_line, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cluster_spec_init_matches),
        cmocka_unit_test(placement_init_matches),
        cmocka_unit_test(request_init_matches),
        cmocka_unit_test(reader_options_init_matches),
        cmocka_unit_test(topo_options_init_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
