/* The answer layer's rules for measured runs, size lists and KV paths
 * (include/collcalc/answer.h): what check, fit, sweep and kv ask of the
 * library instead of deciding in the CLI. */
#include "support.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/answer.h"

typedef struct {
    collcalc_link_table *links;
    collcalc_platform_table *platforms;
} tables;

static int setup(void **state)
{
    tables *t = calloc(1, sizeof *t);
    collcalc_diag diag;
    if (t == NULL || collcalc_link_table_builtin(&t->links, &diag) != COLLCALC_OK ||
        collcalc_platform_table_builtin(t->links, &t->platforms, &diag) != COLLCALC_OK)
        return -1;
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    tables *t = *state;
    collcalc_platform_table_free(t->platforms);
    collcalc_link_table_free(t->links);
    free(t);
    return 0;
}

static void size_ranges_walk_as_nccl_tests(void **unused)
{
    (void)unused;
    uint64_t sizes[8];
    int count = 0;
    collcalc_diag diag;
    assert_int_equal(collcalc_size_range(1, 8, 2.0, 1, sizes, &count, 8, &diag), COLLCALC_OK);
    assert_int_equal(count, 4);
    assert_int_equal(sizes[3], 8);
    count = 0; /* a step instead of a factor; the last size is not passed */
    assert_int_equal(collcalc_size_range(10, 35, 1.0, 10, sizes, &count, 8, &diag), COLLCALC_OK);
    assert_int_equal(count, 3);
    assert_int_equal(sizes[2], 30);
    count = 0; /* near UINT64_MAX the walk stops instead of wrapping */
    assert_int_equal(collcalc_size_range(UINT64_MAX / 2, UINT64_MAX, 4.0, 1, sizes, &count, 8,
                                         &diag),
                     COLLCALC_OK);
    assert_int_equal(count, 2);
    assert_true(sizes[1] == UINT64_MAX);
    count = 0;
    assert_int_equal(collcalc_size_range(8, 1, 2.0, 1, sizes, &count, 8, &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "first: the first size is larger than the last (-e)");
    count = 0;
    assert_int_equal(collcalc_size_range(1, 1024, 2.0, 1, sizes, &count, 8, &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "count: more than 8 sizes: use a larger step (-f, -i)");
}

static void size_lists_mix_items_and_ranges(void **unused)
{
    (void)unused;
    uint64_t sizes[8];
    int count = 0;
    collcalc_diag diag;
    assert_int_equal(collcalc_size_list("1KiB,4KiB..16KiB", 2.0, sizes, &count, 8, &diag),
                     COLLCALC_OK);
    assert_int_equal(count, 4);
    assert_int_equal(sizes[0], 1024);
    assert_int_equal(sizes[1], 4096);
    assert_int_equal(sizes[3], 16384);
    count = 0;
    assert_int_equal(collcalc_size_list("1MB,zz", 2.0, sizes, &count, 8, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "list: invalid size 'zz'"));
    count = 0;
    assert_int_equal(collcalc_size_list("4K..1K", 2.0, sizes, &count, 8, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "first: "));
}

static collcalc_nccl_tests_run measured(int ranks, int hosts, const char *gpu, int per_host)
{
    collcalc_nccl_tests_run run;
    memset(&run, 0, sizeof run);
    run.ranks = ranks;
    run.hosts = hosts;
    snprintf(run.gpu_model, sizeof run.gpu_model, "%s", gpu);
    run.ranks_per_host = per_host;
    return run;
}

/* Ranks that do not fill whole hosts are not packed by guess; a node count
 * that fits one run of a paste but not another leaves the other unjudged. */
static void run_clusters_never_guess_a_packing(void **state)
{
    tables *t = *state;
    const collcalc_platform *h100 = collcalc_platform_table_find(t->platforms, "hgx-h100");
    const collcalc_platform *gb300 = collcalc_platform_table_find(t->platforms, "gb300-nvl72");
    assert_non_null(h100);
    assert_non_null(gb300);
    const collcalc_platform *p = NULL;
    int nodes = 0, per_node = 0;
    char problem[200];
    const char *field = NULL;
    collcalc_diag diag;

    collcalc_nccl_tests_run run = measured(10, 0, "", 0);
    assert_int_equal(collcalc_run_cluster(t->platforms, h100, NULL, 0, false, &run, &p, &nodes,
                                          &per_node, problem, sizeof problem, &field, &diag),
                     COLLCALC_OK);
    assert_ptr_equal(p, h100);
    assert_string_equal(problem, "10 ranks do not fill hgx-h100's 8-GPU nodes and the run does "
                                 "not list its hosts: give the node count");
    /* with the node count: 1 GPU on each of 10 nodes */
    assert_int_equal(collcalc_run_cluster(t->platforms, h100, NULL, 10, true, &run, &p, &nodes,
                                          &per_node, problem, sizeof problem, &field, &diag),
                     COLLCALC_OK);
    assert_string_equal(problem, "");
    assert_int_equal(nodes, 10);
    assert_int_equal(per_node, 1);
    /* --nodes 10 on a 16-rank run: an error alone, unjudged in a paste */
    run = measured(16, 0, "", 0);
    assert_int_equal(collcalc_run_cluster(t->platforms, h100, NULL, 10, false, &run, &p, &nodes,
                                          &per_node, problem, sizeof problem, &field, &diag),
                     COLLCALC_ERR_INVALID);
    assert_string_equal(field, "nodes");
    assert_string_equal(diag.message, "nodes: 16 ranks do not split evenly over 10 nodes");
    assert_int_equal(collcalc_run_cluster(t->platforms, h100, NULL, 10, true, &run, &p, &nodes,
                                          &per_node, problem, sizeof problem, &field, &diag),
                     COLLCALC_OK);
    assert_string_equal(problem, "16 ranks do not split evenly over 10 nodes");
    /* the hosts the run lists settle it */
    run = measured(10, 10, "", 0);
    assert_int_equal(collcalc_run_cluster(t->platforms, h100, NULL, 0, false, &run, &p, &nodes,
                                          &per_node, problem, sizeof problem, &field, &diag),
                     COLLCALC_OK);
    assert_int_equal(nodes, 10);
    /* a rack-scale domain is filled tray by tray: 128 ranks are 2 x 64 */
    run = measured(128, 0, "", 0);
    assert_int_equal(collcalc_run_cluster(t->platforms, gb300, NULL, 0, false, &run, &p, &nodes,
                                          &per_node, problem, sizeof problem, &field, &diag),
                     COLLCALC_OK);
    assert_int_equal(nodes, 2);
    assert_int_equal(per_node, 64);
    /* `on` wins over the named platform (check trying another preset) */
    run = measured(8, 0, "", 0);
    assert_int_equal(collcalc_run_cluster(t->platforms, h100, gb300, 0, false, &run, &p, &nodes,
                                          &per_node, problem, sizeof problem, &field, &diag),
                     COLLCALC_OK);
    assert_ptr_equal(p, gb300);
    /* nothing named and no GPU: no platform, no error */
    assert_int_equal(collcalc_run_cluster(t->platforms, NULL, NULL, 0, false, &run, &p, &nodes,
                                          &per_node, problem, sizeof problem, &field, &diag),
                     COLLCALC_OK);
    assert_null(p);
}

static void kv_paths_from_topology_and_host_link(void **state)
{
    tables *t = *state;
    size_t length = 0;
    char *text = test_read_file(test_source_path("tests/fuzz/corpus/topo/topo_mp_4gpu_2nic.txt"),
                                &length);
    collcalc_topo *topo = NULL;
    collcalc_diag diag;
    assert_int_equal(collcalc_topo_parse(text, length, NULL, &topo, &diag), COLLCALC_OK);
    free(text);
    collcalc_kv_query q;
    collcalc_kv_query_init(&q);
    /* GPU0: NIC0 behind the same PCIe switch (PXB), NIC1 across the CPUs */
    assert_int_equal(collcalc_kv_topo_nics(topo, &q, &diag), COLLCALC_OK);
    assert_int_equal(q.near_nics, 1);
    assert_int_equal(q.far_nics, 1);
    assert_true(q.far_nic_GBps > 0.0);
    assert_true(q.far_nic_GBps == collcalc_topo_pair_GBps(topo, 0, 5));
    collcalc_topo_free(topo);

    const collcalc_platform *h100 = collcalc_platform_table_find(t->platforms, "hgx-h100");
    const collcalc_link *pcie = collcalc_link_table_find(t->links, h100->host_link);
    assert_non_null(pcie);
    assert_int_equal(collcalc_kv_host_link(h100, t->links, &q, &diag), COLLCALC_OK);
    collcalc_link_params expected;
    collcalc_link_params_from_link(pcie, COLLCALC_BW_PER_DIRECTION, &expected);
    assert_true(q.host.bw_GBps == expected.bw_GBps && q.host.bw_GBps > 0.0);
    collcalc_platform nameless = *h100;
    snprintf(nameless.host_link, sizeof nameless.host_link, "no-such-link");
    assert_int_equal(collcalc_kv_host_link(&nameless, t->links, &q, &diag), COLLCALC_ERR_INVALID);
    assert_string_equal(diag.message, "platform: the platform 'hgx-h100' names no host link");
}

static void fit_platform_files_load_back(void **state)
{
    tables *t = *state;
    const collcalc_platform *h100 = collcalc_platform_table_find(t->platforms, "hgx-h100");
    collcalc_fit_result result;
    memset(&result, 0, sizeof result);
    result.values.present = true;
    result.values.latency_inter_us = 8.0;
    result.values.bw_efficiency = 0.9;
    const char *inputs[] = {"a.txt", "b.txt"};
    char name[COLLCALC_NAME_MAX];
    char *json = NULL;
    collcalc_diag diag;
    assert_int_equal(collcalc_fit_platform_file(h100, NULL, &result, inputs, 2, t->links, name,
                                                &json, &diag),
                     COLLCALC_OK);
    assert_string_equal(name, "hgx-h100-fitted");
    assert_non_null(strstr(json, "\"hgx-h100-fitted\""));
    assert_non_null(strstr(json, "collcalc fit of a.txt, b.txt"));
    collcalc_fit_text_free(json);
    assert_int_equal(collcalc_fit_platform_file(h100, "Bad_Name", &result, inputs, 2, t->links,
                                                name, &json, &diag),
                     COLLCALC_ERR_INVALID);
    assert_null(json);
    assert_true(strncmp(diag.message, "name: ", 6) == 0);
    char long_name[COLLCALC_NAME_MAX + 8];
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    assert_int_equal(collcalc_fit_platform_file(h100, long_name, &result, inputs, 2, t->links,
                                                name, &json, &diag),
                     COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "name: the name has more than the"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(size_ranges_walk_as_nccl_tests),
        cmocka_unit_test(size_lists_mix_items_and_ranges),
        cmocka_unit_test(run_clusters_never_guess_a_packing),
        cmocka_unit_test(kv_paths_from_topology_and_host_link),
        cmocka_unit_test(fit_platform_files_load_back),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
