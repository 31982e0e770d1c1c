/* collcalc kv through the CLI: the JSON terms of a transfer add up to its
 * transfer_us for every backend with and without --no-gdr (each term once:
 * the wire in bandwidth_us, the host-memory copies in staging_exposed_us),
 * and the text's last line prints the same sum. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include <cjson/cJSON.h>

static double field(const cJSON *row, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(row, name);
    if (!cJSON_IsNumber(item)) {
        print_error("no number '%s' in the kv result\n", name);
        fail();
    }
    return cJSON_GetNumberValue(item);
}

static cJSON *kv_json(const char *args, char **out_text)
{
    char line[512];
    snprintf(line, sizeof line, "collcalc kv --model llama-3-70b --tokens 8k %s --format json",
             args);
    test_cli_run run = test_cli_line(NULL, line);
    if (run.exit_code != 0)
        print_error("%s: exit %d: %s\n", line, run.exit_code, run.err);
    assert_int_equal(run.exit_code, 0);
    cJSON *root = cJSON_Parse(run.out);
    assert_non_null(root);
    test_cli_run_free(&run);
    if (out_text != NULL) {
        snprintf(line, sizeof line, "collcalc kv --model llama-3-70b --tokens 8k %s", args);
        run = test_cli_line(NULL, line);
        assert_int_equal(run.exit_code, 0);
        *out_text = run.out;
        run.out = NULL;
        test_cli_run_free(&run);
    }
    return root;
}

static void json_terms_add_up(void **state)
{
    (void)state;
    static const char *const backends[] = {"nccl", "nixl", "mooncake", "tcp"};
    static const char *const shapes[] = {"--tp 8", "--tp 8 --decode-tp 2", "--tp 1"};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        for (size_t b = 0; b < sizeof backends / sizeof backends[0]; b++) {
            double wire = -1;
            for (int no_gdr = 0; no_gdr <= 1; no_gdr++) {
                char args[256];
                snprintf(args, sizeof args, "%s --platform hgx-h100 --backend %s%s", shapes[s],
                         backends[b], no_gdr ? " --no-gdr" : "");
                char *text = NULL;
                cJSON *root = kv_json(args, &text);
                const cJSON *row = cJSON_GetArrayItem(
                    cJSON_GetObjectItemCaseSensitive(root, "results"), 0);
                assert_non_null(row);
                double sum = field(row, "setup_us") + field(row, "block_overhead_us") +
                             field(row, "bandwidth_us") + field(row, "staging_exposed_us");
                test_assert_close_relative(sum, field(row, "transfer_us"), 1e-12);
                /* The wire does not change when only the copies do. */
                if (wire >= 0)
                    test_assert_close_relative(field(row, "bandwidth_us"), wire, 1e-12);
                wire = field(row, "bandwidth_us");
                /* Text: "... in all ..." and "... = <the same> ; ..-bound". */
                const char *all = strstr(text, " in all,");
                const char *last = strstr(text, "  setup ");
                assert_non_null(all);
                assert_non_null(last);
                const char *start = all;
                while (start > text && start[-1] != ';')
                    start--;
                char total[40];
                snprintf(total, sizeof total, "= %.*s;", (int)(all - start - 1), start + 1);
                assert_contains(last, total);
                assert_true((strstr(last, " + staging ") != NULL) ==
                            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "staged")));
                free(text);
                cJSON_Delete(root);
            }
        }
    }
}

/* Grace platforms: the GPU's copies into host memory cross NVLink-C2C
 * (450 GB/s each way), not PCIe. TP 4 of Llama-3-70B at 8k: 671,088,640 B
 * out of each sender and into each receiver. */
static void grace_copies_cross_c2c(void **state)
{
    (void)state;
    static const char *const platforms[] = {"gb200-nvl72", "gcp-a4x", "gb300-nvl72",
                                            "oci-gb300-nvl72", "gcp-a4x-max"};
    for (size_t i = 0; i < sizeof platforms / sizeof platforms[0]; i++) {
        char args[160];
        snprintf(args, sizeof args, "--tp 4 --platform %s --no-gdr --kv-path network",
                 platforms[i]);
        char *text = NULL;
        cJSON *root = kv_json(args, &text);
        const cJSON *row =
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "results"), 0);
        test_assert_close_relative(field(row, "staging_us"), 2 * 671088640.0 / 450e3, 1e-12);
        assert_contains(text, "the copies over nvlink-c2c (2.98 ms, out and in)");
        free(text);
        cJSON_Delete(root);
    }
}

/* 8 GPUs on 3 NICs: NCCL, NIXL and Mooncake bind each GPU to one NIC, so
 * the NICs carry 3/3/2 shards and the busiest (3 x 335,544,320 B) sets the
 * wire; kernel TCP spreads the node's bytes over any NIC (the mean). With 8
 * NICs every backend carries one shard per NIC. */
static void uneven_nics_busiest(void **state)
{
    (void)state;
    static const char *const backends[] = {"nccl", "nixl", "mooncake", "tcp"};
    for (size_t b = 0; b < sizeof backends / sizeof backends[0]; b++) {
        bool tcp = strcmp(backends[b], "tcp") == 0;
        for (int nics = 3; nics <= 8; nics += 5) {
            char args[160];
            snprintf(args, sizeof args, "--tp 8 --platform hgx-h100 --nics-per-node %d --backend %s",
                     nics, backends[b]);
            char *text = NULL;
            cJSON *root = kv_json(args, &text);
            const cJSON *row =
                cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "results"), 0);
            double bytes = nics == 8 ? 335544320.0 : tcp ? 894784854.0 : 3 * 335544320.0;
            test_assert_close_relative(field(row, "bytes_per_nic"), bytes, 1e-12);
            test_assert_close_relative(field(row, "bandwidth_us"),
                                       bytes / (field(row, "rate_per_nic_GBps") * 1e3), 1e-8);
            assert_true(strstr(text, "1 GPUs") == NULL);
            if (nics == 3)
                assert_contains(text, tcp ? "(8 GPUs share the 3 NICs)"
                                          : "1 NIC each (2-3 GPUs share each NIC)");
            else
                assert_true(strstr(text, "share") == NULL);
            free(text);
            cJSON_Delete(root);
        }
    }
}

/* Kernel TCP on a 10-NIC node: 8 GPUs over 10 NICs, never "1 GPUs share". */
static void tcp_sharing_phrase(void **state)
{
    (void)state;
    char args[512];
    snprintf(args, sizeof args, "--tp 8 --platform hgx-h100 --topo %s --backend tcp",
             test_source_path("examples/topo_hgx_h100_10nic.txt"));
    char *text = NULL;
    cJSON *root = kv_json(args, &text);
    assert_contains(text, "8 senders on 1 node of 10 NICs, 2 NICs each (8 GPUs share the 10 NICs)");
    assert_true(strstr(text, "1 GPUs") == NULL);
    free(text);
    cJSON_Delete(root);
}

/* Scripts find "findings" in every kv document, empty when there are none. */
static void findings_always_listed(void **state)
{
    (void)state;
    static const char *const cases[] = {"--tp 8 --platform hgx-h100", "--tp 8"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cJSON *root = kv_json(cases[i], NULL);
        const cJSON *findings = cJSON_GetObjectItemCaseSensitive(root, "findings");
        assert_true(cJSON_IsArray(findings));
        assert_int_equal(cJSON_GetArraySize(findings), 0);
        cJSON_Delete(root);
    }
    cJSON *root = kv_json("--tp 16", NULL); /* 8 KV heads: replicated */
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "findings")) > 0);
    cJSON_Delete(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_terms_add_up),
        cmocka_unit_test(grace_copies_cross_c2c),
        cmocka_unit_test(uneven_nics_busiest),
        cmocka_unit_test(tcp_sharing_phrase),
        cmocka_unit_test(findings_always_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
