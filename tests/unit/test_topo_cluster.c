/* A topology matrix as the intra link of a collective
 * (src/parse/topo_cluster.c), on the validation matrices. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/topo_cluster.h"

#define assert_close(a, b) assert_true(fabs((double)(a) - (double)(b)) <= 1e-9 * (1.0 + fabs((double)(b))))

static collcalc_topo *load(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "validation/%s", name);
    size_t length;
    char *text = test_read_file(test_shared_path(path), &length);
    collcalc_topo *topo = NULL;
    collcalc_diag diag;
    assert_int_equal(collcalc_topo_parse(text, length, NULL, &topo, &diag), COLLCALC_OK);
    free(text);
    return topo;
}

static void nvswitch_island_runs_at_its_nvlink_rate(void **state)
{
    (void)state;
    collcalc_topo *topo = load("topo_h100_8gpu_nv18_stas00.txt");
    collcalc_link_params link;
    assert_int_equal(collcalc_topo_intra_link(topo, 2.0, 5.7, &link, NULL), COLLCALC_OK);
    assert_close(link.bw_GBps, 450.0);
    assert_close(link.alpha_us, 2.0);
    assert_true(link.nvlink);
    assert_string_equal(link.name, "topo:nv18");
    collcalc_topo_free(topo);
}

static void pcie_box_runs_at_its_slowest_pair(void **state)
{
    (void)state;
    collcalc_topo *topo = load("topo_8gpu_pcie_switch_pairs_pix_phb_sys_issue1439.txt");
    collcalc_link_params link;
    assert_int_equal(collcalc_topo_intra_link(topo, 2.0, 5.7, &link, NULL), COLLCALC_OK);
    /* GPU0 to GPU4 is SYS: the slowest class of the box */
    assert_close(link.bw_GBps, collcalc_topo_pair_GBps(topo, 0, 4));
    assert_true(link.bw_GBps < collcalc_topo_pair_GBps(topo, 0, 1)); /* below a PIX pair */
    assert_close(link.alpha_us, 5.7);
    assert_false(link.nvlink);
    assert_string_equal(link.name, "topo:pcie");
    collcalc_topo_free(topo);
}

static void bridge_is_nvlink_but_not_a_switch(void **state)
{
    (void)state;
    collcalc_topo *topo = load("topo_2gpu_desktop_nvlink_bridge_nv2_stas00.txt");
    collcalc_link_params link;
    assert_int_equal(collcalc_topo_intra_link(topo, 2.0, 5.7, &link, NULL), COLLCALC_OK);
    assert_close(link.bw_GBps, 50.0);
    assert_close(link.alpha_us, 2.0);
    assert_false(link.nvlink);
    assert_string_equal(link.name, "topo:nv2");
    collcalc_topo_free(topo);
}

static void one_gpu_has_no_path(void **state)
{
    (void)state;
    const char *text = "\tGPU0\tCPU Affinity\nGPU0\t X \t0-7\n";
    collcalc_topo *topo = NULL;
    collcalc_diag diag;
    if (collcalc_topo_parse(text, strlen(text), NULL, &topo, &diag) != COLLCALC_OK)
        skip();
    collcalc_link_params link;
    assert_int_equal(collcalc_topo_intra_link(topo, 2.0, 5.7, &link, &diag), COLLCALC_ERR_INVALID);
    assert_non_null(strstr(diag.message, "fewer than 2 GPUs"));
    collcalc_topo_free(topo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nvswitch_island_runs_at_its_nvlink_rate),
        cmocka_unit_test(pcie_box_runs_at_its_slowest_pair),
        cmocka_unit_test(bridge_is_nvlink_but_not_a_switch),
        cmocka_unit_test(one_gpu_has_no_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
