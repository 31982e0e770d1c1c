/* Every allocation a loader or reader makes can fail (include/collcalc/alloc.h):
 * each call below runs with its 1st, 2nd, 3rd ... allocation failing until
 * it succeeds. Every failure must return COLLCALC_ERR_NOMEM with "out of
 * memory" in the diagnostic and no result, and leave nothing allocated (the
 * test allocator counts blocks; LeakSanitizer and valgrind see the rest).
 * The successful run pins how many allocation points the call has, so a new
 * allocation shows up here; readers that allocate nothing are pinned at 0. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#include "collcalc/alloc.h"
#include "collcalc/cluster_spec.h"
#include "collcalc/fit.h"
#include "collcalc/links.h"
#include "collcalc/model.h"
#include "collcalc/models.h"
#include "collcalc/nccl_log.h"
#include "collcalc/nccl_model.h"
#include "collcalc/nccl_tests_reader.h"
#include "collcalc/plan.h"
#include "collcalc/platforms.h"
#include "collcalc/topo.h"
#include "helpers.h"

/* ---- fixtures ----------------------------------------------------------- */

static collcalc_link_table *links;
static collcalc_platform_table *platforms;
static collcalc_model_table *models;
static collcalc_nccl_constants_table *constants;

static int setup(void **state)
{
    (void)state;
    collcalc_diag diag;
    if (collcalc_link_table_builtin(&links, &diag) != COLLCALC_OK ||
        collcalc_platform_table_builtin(links, &platforms, &diag) != COLLCALC_OK ||
        collcalc_model_table_builtin(&models, &diag) != COLLCALC_OK ||
        collcalc_nccl_constants_builtin(&constants, &diag) != COLLCALC_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    collcalc_nccl_constants_table_free(constants);
    collcalc_model_table_free(models);
    collcalc_platform_table_free(platforms);
    collcalc_link_table_free(links);
    return 0;
}

/* ---- the allocator itself ------------------------------------------------ */

static void test_allocator_hook(void **state)
{
    (void)state;
    collcalc_allocator a;
    collcalc_allocator_init(&a);
    assert_true(a.malloc_fn == malloc && a.calloc_fn == calloc && a.realloc_fn == realloc &&
                a.free_fn == free);
    test_allocator_install(-1);
    void *p = collcalc_mem_malloc(16);
    int *z = collcalc_mem_calloc(4, sizeof *z);
    assert_non_null(p);
    assert_non_null(z);
    assert_true(z[0] == 0 && z[3] == 0);
    p = collcalc_mem_realloc(p, 64);
    assert_non_null(p);
    assert_null(collcalc_mem_calloc(SIZE_MAX / 2, 4)); /* overflow: refused before asking */
    assert_int_equal(test_allocator_attempts(), 3);
    assert_int_equal(test_allocator_live(), 2);
    collcalc_mem_free(p);
    collcalc_mem_free(z);
    collcalc_mem_free(NULL);
    assert_int_equal(test_allocator_live(), 0);
    /* A partial allocator restores the C library's. */
    collcalc_allocator partial = *test_allocator();
    partial.calloc_fn = NULL;
    collcalc_allocator_set(&partial);
    test_allocator_clear_attempts();
    collcalc_mem_free(collcalc_mem_malloc(8));
    assert_int_equal(test_allocator_attempts(), 0);
    collcalc_allocator_set(NULL);
}

/* ---- tables -------------------------------------------------------------- */

static collcalc_status links_builtin(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_link_table *table = NULL;
    collcalc_status status = collcalc_link_table_builtin(&table, diag);
    if (status == COLLCALC_OK)
        assert_int_equal(collcalc_link_table_count(table), collcalc_link_table_count(links));
    else
        assert_null(table);
    collcalc_link_table_free(table);
    return status;
}

static const char link_overlay[] =
    "{\"schema_version\": 1, \"links\": ["
    "{\"name\": \"ib-ndr\", \"tier\": \"scale-out\", \"class\": \"net\", "
    "\"bw_per_direction_GBps\": 40, \"headline_GBps\": 50, \"headline_counts\": "
    "\"per-direction\", \"alpha_us\": 0},"
    "{\"name\": \"my-fabric\", \"tier\": \"scale-out\", \"class\": \"net\", "
    "\"bw_per_direction_GBps\": 25, \"headline_GBps\": 25, \"headline_counts\": "
    "\"per-direction\", \"alpha_us\": 3}]}";

static collcalc_status links_overlay(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_link_table *mine = NULL, *merged = NULL;
    collcalc_status status = collcalc_link_table_parse_named(link_overlay, strlen(link_overlay),
                                                             "my-links.json", &mine, diag);
    if (status == COLLCALC_OK) {
        assert_int_equal(collcalc_link_table_count(mine), 2);
        status = collcalc_link_table_overlay(links, mine, &merged, diag);
    }
    if (status == COLLCALC_OK) {
        assert_int_equal(collcalc_link_table_count(merged), collcalc_link_table_count(links) + 1);
        assert_int_equal(collcalc_link_table_replaced_count(merged), 1);
        assert_true(collcalc_link_table_find(merged, "ib-ndr")->bw_per_direction_GBps == 40);
    } else {
        assert_null(merged);
    }
    collcalc_link_table_free(merged);
    collcalc_link_table_free(mine);
    return status;
}

static void test_link_tables(void **state)
{
    (void)state;
    /* The built-in table is compiled in (cmake/gen_links.c) and handed out
     * as it is: no allocation. A parse of its text (test_links.c) has
     * hundreds of points. */
    assert_int_equal(test_allocation_failure_loop("links builtin", links_builtin, NULL), 0);
    long overlay = test_allocation_failure_loop("links overlay", links_overlay, NULL);
    assert_true(overlay > 20);
}

static collcalc_status platforms_builtin(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_platform_table *table = NULL;
    collcalc_status status = collcalc_platform_table_builtin(links, &table, diag);
    if (status == COLLCALC_OK)
        assert_int_equal(collcalc_platform_table_count(table),
                         collcalc_platform_table_count(platforms));
    else
        assert_null(table);
    collcalc_platform_table_free(table);
    return status;
}

static const char platform_overlay[] =
    "{\"schema_version\": 1, \"platforms\": [{\"name\": \"hgx-h100\", \"gpu\": \"H100\", "
    "\"gpus_per_node\": 4, \"intra_link\": \"nvlink4\", \"inter_link\": \"ib-ndr\", "
    "\"nics_per_node\": 2, \"nvls\": false, \"sharp\": true, \"transport\": \"roce\", "
    "\"p2p\": false}]}";

static collcalc_status platforms_overlay(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_platform_table *mine = NULL, *merged = NULL;
    collcalc_status status = collcalc_platform_table_parse_named(
        platform_overlay, strlen(platform_overlay), "my-platforms.json", links, &mine, diag);
    if (status == COLLCALC_OK)
        status = collcalc_platform_table_overlay(platforms, mine, &merged, diag);
    if (status == COLLCALC_OK) {
        assert_int_equal(collcalc_platform_table_count(merged),
                         collcalc_platform_table_count(platforms));
        assert_int_equal(collcalc_platform_table_replaced_count(merged), 1);
        assert_int_equal(collcalc_platform_table_find(merged, "hgx-h100")->gpus_per_node, 4);
    } else {
        assert_null(merged);
    }
    collcalc_platform_table_free(merged);
    collcalc_platform_table_free(mine);
    return status;
}

static void test_platform_tables(void **state)
{
    (void)state;
    assert_true(test_allocation_failure_loop("platforms builtin", platforms_builtin, NULL) > 100);
    assert_true(test_allocation_failure_loop("platforms overlay", platforms_overlay, NULL) > 10);
}

static collcalc_status models_builtin(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_model_table *table = NULL;
    collcalc_status status = collcalc_model_table_builtin(&table, diag);
    if (status == COLLCALC_OK)
        assert_int_equal(collcalc_model_table_count(table), collcalc_model_table_count(models));
    else
        assert_null(table);
    collcalc_model_table_free(table);
    return status;
}

static const char model_overlay[] =
    "{\"schema_version\": 1, \"models\": [{\"name\": \"llama-3-70b\", \"layers\": 40, "
    "\"hidden_size\": 8192, \"attention\": \"gqa\", \"heads\": 64, \"kv_heads\": 8, "
    "\"head_dim\": 128, \"ffn_intermediate\": 28672, \"params_billion\": 35}]}";

static collcalc_status models_overlay(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_model_table *mine = NULL, *merged = NULL;
    collcalc_status status = collcalc_model_table_parse(model_overlay, strlen(model_overlay),
                                                        "my-models.json", &mine, diag);
    if (status == COLLCALC_OK)
        status = collcalc_model_table_overlay(models, mine, &merged, diag);
    if (status == COLLCALC_OK) {
        assert_int_equal(collcalc_model_table_replaced_count(merged), 1);
        assert_int_equal(collcalc_model_table_find(merged, "llama-3-70b")->layers, 40);
    } else {
        assert_null(merged);
    }
    collcalc_model_table_free(merged);
    collcalc_model_table_free(mine);
    return status;
}

static void test_model_tables(void **state)
{
    (void)state;
    assert_true(test_allocation_failure_loop("models builtin", models_builtin, NULL) > 100);
    assert_true(test_allocation_failure_loop("models overlay", models_overlay, NULL) > 10);
}

static collcalc_status nccl_constants_builtin(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_nccl_constants_table *table = NULL;
    collcalc_status status = collcalc_nccl_constants_builtin(&table, diag);
    if (status == COLLCALC_OK)
        assert_int_equal(collcalc_nccl_constants_count(table),
                         collcalc_nccl_constants_count(constants));
    else
        assert_null(table);
    collcalc_nccl_constants_table_free(table);
    return status;
}

static void test_nccl_constants_table(void **state)
{
    (void)state;
    assert_true(test_allocation_failure_loop("nccl constants builtin", nccl_constants_builtin, NULL) > 100);
}

/* ---- readers ------------------------------------------------------------- */

typedef struct {
    const char *text;
    size_t length;
    int repeat; /* nccl-tests: feed the data lines this many times */
} text_arg;

static collcalc_status topo_parse(const void *arg, collcalc_diag *diag)
{
    const text_arg *t = arg;
    collcalc_topo *topo = NULL;
    collcalc_status status = collcalc_topo_parse(t->text, t->length, NULL, &topo, diag);
    if (status == COLLCALC_OK)
        assert_int_equal(topo->gpu_count, 8);
    else
        assert_null(topo);
    collcalc_topo_free(topo);
    return status;
}

static void test_topo_reader(void **state)
{
    (void)state;
    size_t length = 0;
    char *text = test_read_file(test_shared_path("validation/topo_hgx_h100_8gpu_10nic_issue1264.txt"),
                                &length);
    assert_non_null(text);
    text_arg arg = {text, length, 1};
    assert_int_equal(test_allocation_failure_loop("topo parse", topo_parse, &arg), 1); /* the topo itself */
    free(text);
}

/* Streams the text line by line through a reader, as `collcalc check` does;
 * with repeat > 1 every row line is fed that many times, so the row store
 * grows past its first capacity (64 rows) twice. */
static collcalc_status nccl_tests_stream(const void *arg, collcalc_diag *diag)
{
    const text_arg *t = arg;
    collcalc_nccl_tests_reader *reader = NULL;
    collcalc_status status = collcalc_nccl_tests_reader_create(NULL, &reader, diag);
    if (status != COLLCALC_OK) {
        assert_null(reader);
        return status;
    }
    size_t at = 0;
    long line = 0;
    while (at < t->length && status == COLLCALC_OK) {
        const char *newline = memchr(t->text + at, '\n', t->length - at);
        size_t end = newline != NULL ? (size_t)(newline - t->text) : t->length;
        const char *p = t->text + at;
        while (p < t->text + end && *p == ' ')
            p++;
        int is_row = p < t->text + end && *p >= '0' && *p <= '9';
        for (int r = 0; r < (is_row ? t->repeat : 1) && status == COLLCALC_OK; r++)
            status = collcalc_nccl_tests_reader_feed_line(reader, t->text + at, end - at, ++line,
                                                          diag);
        at = end + 1;
    }
    collcalc_nccl_tests_run run;
    memset(&run, 0, sizeof run);
    if (status == COLLCALC_OK) {
        status = collcalc_nccl_tests_reader_finish(reader, &run, diag);
        assert_int_equal(status, COLLCALC_OK); /* finish allocates nothing */
        assert_int_equal(run.row_count, (size_t)(31 * t->repeat));
    }
    collcalc_nccl_tests_run_free(&run);
    collcalc_nccl_tests_reader_free(reader);
    return status;
}

static collcalc_status nccl_tests_text(const void *arg, collcalc_diag *diag)
{
    const text_arg *t = arg;
    collcalc_nccl_tests_run run;
    memset(&run, 0, sizeof run);
    collcalc_status status = collcalc_nccl_tests_read_text(t->text, t->length, NULL, &run, diag);
    if (status == COLLCALC_OK)
        assert_int_equal(run.row_count, 31);
    else
        assert_null(run.rows);
    collcalc_nccl_tests_run_free(&run);
    return status;
}

static void test_nccl_tests_reader(void **state)
{
    (void)state;
    size_t length = 0;
    char *text = test_read_file(
        test_shared_path("validation/nccl_allreduce_b200_8gpu_nvlink5_nccl2.27.txt"), &length);
    assert_non_null(text);
    text_arg arg = {text, length, 1};
    /* The reader, then rows and their roundings (64 each). */
    assert_int_equal(test_allocation_failure_loop("nccl-tests stream", nccl_tests_stream, &arg), 3);
    assert_int_equal(test_allocation_failure_loop("nccl-tests text", nccl_tests_text, &arg), 3);
    /* 155 rows: capacity 64, 128, 256, two blocks each time. */
    arg.repeat = 5;
    assert_int_equal(test_allocation_failure_loop("nccl-tests stream x5", nccl_tests_stream, &arg), 7);
    free(text);
}

static collcalc_status nccl_log_read(const void *arg, collcalc_diag *diag)
{
    const text_arg *t = arg;
    collcalc_nccl_log *log = malloc(sizeof *log); /* large: off the stack, not the library's */
    assert_non_null(log);
    collcalc_nccl_log_init(log);
    collcalc_nccl_log_feed_text(log, t->text, t->length);
    collcalc_findings findings;
    collcalc_status status = collcalc_nccl_log_finish(log, &findings, diag);
    if (status == COLLCALC_OK)
        assert_true(findings.count > 0);
    free(log);
    return status;
}

static void test_nccl_log_reader(void **state)
{
    (void)state;
    size_t length = 0;
    char *text = test_read_file(
        test_shared_path("validation/nccl_debug_l40s_g6e8xl_4node_socket_fallback_efa_plugin_failed_gnosia93.txt"),
        &length);
    assert_non_null(text);
    text_arg arg = {text, length, 1};
    assert_int_equal(test_allocation_failure_loop("nccl log", nccl_log_read, &arg), 0); /* allocates nothing */
    free(text);
}

static collcalc_status expert_loads_read(const void *arg, collcalc_diag *diag)
{
    const text_arg *t = arg;
    collcalc_expert_loads *loads = malloc(sizeof *loads);
    assert_non_null(loads);
    collcalc_status status = collcalc_expert_loads_parse(t->text, t->length, loads, diag);
    if (status == COLLCALC_OK) {
        assert_int_equal(loads->experts, 8);
        assert_true(loads->total == 36);
    }
    free(loads);
    return status;
}

static collcalc_status placement_read(const void *arg, collcalc_diag *diag)
{
    const text_arg *t = arg;
    collcalc_placement placement;
    collcalc_status status = collcalc_placement_parse(t->text, &placement, diag);
    if (status == COLLCALC_OK)
        assert_string_equal(placement.label, "half");
    return status;
}

static void test_loads_and_placements(void **state)
{
    (void)state;
    static const char csv[] = "expert_id,count\n0,1\n1,2\n2,3\n3,4\n4,5\n5,6\n6,7\n7,8\n";
    text_arg loads = {csv, strlen(csv), 1};
    assert_int_equal(test_allocation_failure_loop("expert loads csv", expert_loads_read, &loads), 0);
    static const char json[] = "{\"logical_count\": [[1, 2, 3, 4, 5, 6, 7, 8]]}";
    text_arg loads_json = {json, strlen(json), 1};
    assert_int_equal(test_allocation_failure_loop("expert loads json", expert_loads_read, &loads_json), 0);
    static const char text[] = "label=half,platform=hgx-h100,nodes=2,gpus-per-node=4,no-nvls";
    text_arg placement = {text, strlen(text), 1};
    assert_int_equal(test_allocation_failure_loop("placement", placement_read, &placement), 0);
}

/* ---- models and plans ---------------------------------------------------- */

static collcalc_status model_all(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_query q;
    collcalc_query_init(&q);
    q.op = COLLCALC_OP_ALLREDUCE;
    q.size_bytes = 100000000;
    q.cluster.gpus = 64;
    q.cluster.gpus_per_node = 8;
    q.cluster.nics_per_node = 8;
    collcalc_link_params_from_link(collcalc_link_table_find(links, "nvlink4"),
                                   COLLCALC_BW_PER_DIRECTION, &q.cluster.intra);
    collcalc_link_params_from_link(collcalc_link_table_find(links, "ib-ndr"),
                                   COLLCALC_BW_PER_DIRECTION, &q.cluster.inter);
    collcalc_result results[COLLCALC_ALGO_COUNT];
    size_t count = 0, fastest = 0;
    collcalc_status status =
        collcalc_model_evaluate_all(&q, results, COLLCALC_ALGO_COUNT, &count, &fastest, diag);
    if (status == COLLCALC_OK)
        assert_true(count >= 2 && fastest < count);
    return status;
}

static collcalc_status nccl_predict(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_nccl_system system;
    collcalc_status status = collcalc_nccl_system_from_platform(
        collcalc_platform_table_find(platforms, "hgx-h100"), links, 2, 0,
        COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU, &system, diag);
    if (status != COLLCALC_OK)
        return status;
    const collcalc_nccl_constants *c = NULL;
    status = collcalc_nccl_constants_find(constants, NULL, &c, diag);
    if (status != COLLCALC_OK)
        return status;
    collcalc_nccl_options options;
    collcalc_nccl_options_init(&options);
    collcalc_nccl_prediction prediction;
    status = collcalc_nccl_predict(&system, c, &options, COLLCALC_NCCL_ALLREDUCE, 1 << 26,
                                   &prediction, diag);
    if (status == COLLCALC_OK)
        assert_true(prediction.selected >= 0);
    return status;
}

static void test_models_allocate_nothing(void **state)
{
    (void)state;
    assert_int_equal(test_allocation_failure_loop("model evaluate_all", model_all, NULL), 0);
    assert_int_equal(test_allocation_failure_loop("nccl predict", nccl_predict, NULL), 0);
}

static void moe_query(collcalc_moe_query *q)
{
    collcalc_moe_query_init(q);
    q->model = collcalc_model_table_find(models, "deepseek-v3");
    assert_non_null(q->model);
    q->ep = 32;
    q->tokens = 128;
    q->cluster.gpus_per_node = 8;
    q->cluster.nics_per_node = 8;
    collcalc_link_params_from_link(collcalc_link_table_find(links, "nvlink4"),
                                   COLLCALC_BW_PER_DIRECTION, &q->cluster.intra);
    collcalc_link_params_from_link(collcalc_link_table_find(links, "ib-ndr"),
                                   COLLCALC_BW_PER_DIRECTION, &q->cluster.inter);
    q->zipf_s = 1.0;
    q->redundant_experts = 32;
}

static collcalc_status moe_run(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_moe_query q;
    moe_query(&q);
    collcalc_moe_result *r = malloc(sizeof *r);
    assert_non_null(r);
    collcalc_status status = collcalc_moe_evaluate(&q, r, diag);
    if (status == COLLCALC_OK)
        assert_true(r->imbalance_rebalanced >= 1.0 &&
                    r->imbalance_rebalanced < r->imbalance_static);
    free(r);
    return status;
}

static collcalc_status plan_search(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_plan_query q;
    collcalc_plan_query_init(&q);
    q.model = collcalc_model_table_find(models, "llama-3-70b");
    q.workload = COLLCALC_WORKLOAD_DECODE;
    q.tokens = 64;
    collcalc_cluster_init(&q.cluster);
    q.cluster.gpus_per_node = 8;
    q.cluster.nics_per_node = 8;
    collcalc_link_params_from_link(collcalc_link_table_find(links, "nvlink4"),
                                   COLLCALC_BW_PER_DIRECTION, &q.cluster.intra);
    collcalc_link_params_from_link(collcalc_link_table_find(links, "ib-ndr"),
                                   COLLCALC_BW_PER_DIRECTION, &q.cluster.inter);
    collcalc_plan_candidate out[64];
    size_t count = 0, total = 0;
    collcalc_status status = collcalc_plan_search(&q, 16, out, 64, &count, &total, diag);
    if (status == COLLCALC_OK)
        assert_int_equal(total, 15);
    return status;
}

static void test_moe_and_plans(void **state)
{
    (void)state;
    /* Rebalancing redundant experts: replica list, per-GPU loads and slots. */
    assert_int_equal(test_allocation_failure_loop("moe evaluate (zipf, 32 redundant)", moe_run, NULL), 3);
    /* The divisor list and the scratch result. */
    assert_int_equal(test_allocation_failure_loop("plan search", plan_search, NULL), 2);
}

/* ---- the fit ------------------------------------------------------------- */

typedef struct {
    collcalc_fit_row rows[24];
    collcalc_fit_run run;
} fit_arg;

/* Rows the NCCL model itself predicts for 2 nodes of hgx-h100 with 8 us of
 * added network latency and 90% of the bandwidth (as tests/unit/test_fit.c
 * builds them), computed before any allocation may fail. */
static void fit_setup(fit_arg *a)
{
    const collcalc_platform *platform = collcalc_platform_table_find(platforms, "hgx-h100");
    assert_non_null(platform);
    collcalc_diag diag;
    collcalc_fit_run_init(&a->run);
    assert_int_equal(collcalc_nccl_system_from_platform(platform, links, 2, 8,
                                                        COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU,
                                                        &a->run.system, &diag),
                     COLLCALC_OK);
    assert_int_equal(collcalc_nccl_constants_find(constants, NULL, &a->run.constants, &diag),
                     COLLCALC_OK);
    collcalc_platform_nccl_fit truth;
    memset(&truth, 0, sizeof truth);
    truth.present = true;
    truth.latency_inter_us = 8.0;
    truth.bw_efficiency = 0.9;
    collcalc_nccl_system measured = a->run.system;
    assert_int_equal(collcalc_nccl_system_apply_fit(&truth, &measured, &diag), COLLCALC_OK);
    for (int i = 0; i < 24; i++) {
        collcalc_nccl_prediction p;
        a->rows[i].size_bytes = UINT64_C(1) << (i + 8);
        assert_int_equal(collcalc_nccl_predict(&measured, a->run.constants, &a->run.options,
                                               COLLCALC_NCCL_ALLREDUCE, a->rows[i].size_bytes,
                                               &p, &diag),
                         COLLCALC_OK);
        a->rows[i].time_us = collcalc_nccl_selected(&p)->time_us;
        a->rows[i].busbw_GBps = collcalc_nccl_selected(&p)->busbw_GBps;
    }
    a->run.rows = a->rows;
    a->run.row_count = 24;
}

static collcalc_status fit_run(const void *arg, collcalc_diag *diag)
{
    const fit_arg *a = arg;
    collcalc_fit_result *r = malloc(sizeof *r);
    assert_non_null(r);
    collcalc_status status = collcalc_fit(&a->run, 1, r, diag);
    if (status == COLLCALC_OK)
        assert_true(fabs(r->values.bw_efficiency - 0.9) < 0.01);
    collcalc_fit_result_free(r);
    free(r);
    return status;
}

static collcalc_status fit_json(const void *arg, collcalc_diag *diag)
{
    (void)arg;
    collcalc_platform_nccl_fit values;
    memset(&values, 0, sizeof values);
    values.present = true;
    values.latency_inter_us = 8.0;
    values.bw_efficiency = 0.9;
    char *json = NULL;
    collcalc_status status = collcalc_fit_platform_json(
        collcalc_platform_table_find(platforms, "hgx-h100"), "hgx-h100-fitted", &values, &json,
        diag);
    if (status == COLLCALC_OK)
        assert_non_null(strstr(json, "\"hgx-h100-fitted\""));
    else
        assert_null(json);
    collcalc_fit_text_free(json);
    return status;
}

static void test_fit(void **state)
{
    (void)state;
    fit_arg *a = malloc(sizeof *a);
    assert_non_null(a);
    fit_setup(a);
    /* the per-run residuals, then the residual scratch */
    assert_int_equal(test_allocation_failure_loop("fit", fit_run, a), 2);
    free(a);
    /* The platforms file: cJSON's tree for every field, then the text. */
    assert_true(test_allocation_failure_loop("fit platform json", fit_json, NULL) > 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allocator_hook),
        cmocka_unit_test(test_link_tables),
        cmocka_unit_test(test_platform_tables),
        cmocka_unit_test(test_model_tables),
        cmocka_unit_test(test_nccl_constants_table),
        cmocka_unit_test(test_topo_reader),
        cmocka_unit_test(test_nccl_tests_reader),
        cmocka_unit_test(test_nccl_log_reader),
        cmocka_unit_test(test_loads_and_placements),
        cmocka_unit_test(test_models_allocate_nothing),
        cmocka_unit_test(test_moe_and_plans),
        cmocka_unit_test(test_fit),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
