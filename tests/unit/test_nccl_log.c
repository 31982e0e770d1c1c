/* The NCCL_DEBUG=INFO log reader: the three NCCL_DEBUG fixtures of the
 * validation set (COLLCALC_SHARED_DIR, found by test_shared_path) give the
 * findings an engineer expects (socket fallback, SHM instead of P2P, a
 * healthy NVLink box), synthetic lines pin each other recogniser and
 * finding, and the state stays bounded. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/nccl_log.h"

#define assert_close(got, want, tolerance)                                                 \
    test_assert_close_at((got), (want), (tolerance), __FILE__, __LINE__)

/* The state is ~14 kB: kept off the test's stack. */
static collcalc_nccl_log log_state;
static collcalc_findings found;

static void assert_has_line(const collcalc_finding *finding, long line)
{
    for (int i = 0; i < finding->line_count; i++)
        if (finding->lines[i] == line)
            return;
    print_error("finding %s has no evidence line %ld\n", finding->code, line);
    fail();
}

static const collcalc_finding *need(const char *code)
{
    const collcalc_finding *finding = collcalc_findings_find(&found, code);
    if (finding == NULL) {
        print_error("no finding %s\n", code);
        fail();
    }
    return finding;
}

static const collcalc_finding *absent(const char *code)
{
    const collcalc_finding *finding = collcalc_findings_find(&found, code);
    if (finding != NULL) {
        print_error("unexpected finding %s: %s\n", code, finding->message);
        fail();
    }
    return finding;
}

/* No message or next step was cut to fit COLLCALC_FINDING_TEXT_MAX. */
static void assert_not_cut(void)
{
    for (size_t i = 0; i < found.count; i++) {
        if (strlen(found.items[i].message) >= COLLCALC_FINDING_TEXT_MAX - 1 ||
            strlen(found.items[i].next_step) >= COLLCALC_FINDING_TEXT_MAX - 1) {
            print_error("finding %s was cut: '%s' / '%s'\n", found.items[i].code,
                        found.items[i].message, found.items[i].next_step);
            fail();
        }
    }
}

/* Reads the file at path (as test_read_file finds it) into log_state and found. */
static void read_path(const char *path)
{
    size_t length = 0;
    char *text = test_read_file(path, &length);
    assert_non_null(text);
    collcalc_nccl_log_init(&log_state);
    collcalc_nccl_log_feed_text(&log_state, text, length);
    free(text);
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_nccl_log_finish(&log_state, &found, &diag), COLLCALC_OK);
    assert_not_cut();
}

static void read_fixture(const char *name)
{
    char relative[256];
    snprintf(relative, sizeof relative, "validation/%s", name);
    read_path(test_shared_path(relative));
}

static void read_text(const char *text)
{
    collcalc_nccl_log_init(&log_state);
    collcalc_nccl_log_feed_text(&log_state, text, strlen(text));
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_nccl_log_finish(&log_state, &found, &diag), COLLCALC_OK);
    assert_not_cut();
}

static void test_socket_fallback(void **state)
{
    (void)state;
    read_fixture("nccl_debug_l40s_g6e8xl_4node_socket_fallback_efa_plugin_failed_gnosia93.txt");
    const collcalc_nccl_log *log = &log_state;
    assert_string_equal(log->version.text, "2.27.3+cuda12.9");
    assert_int_equal(log->version.line, 20);
    assert_string_equal(log->cuda_driver.text, "13000");
    assert_int_equal(log->nranks, 4);
    assert_int_equal(log->nnodes, 4);
    assert_int_equal(log->local_ranks, 1);
    assert_int_equal(log->host_count, 1);
    assert_string_equal(log->hosts[0], "llama-3-8b-node-0-0");
    assert_string_equal(log->network.text, "Socket");
    assert_int_equal(log->network.line, 50);
    assert_string_equal(log->socket_if.text, "[0]eth0:10.0.4.51<0>");
    assert_string_equal(log->bootstrap_if.text, "eth0:10.0.4.51<0>");
    assert_int_equal(log->ib_none.line, 44);
    assert_int_equal(log->ib_devices.line, 0); /* "Using [RO]; OOB eth0" names no HCA */
    assert_string_equal(log->net_plugin.text, "Libfabric (v10)");
    assert_string_equal(log->plugin_env.text, "libnccl-net.so");
    assert_true(log->plugin_failed);
    assert_int_equal(log->warn_count, 3);
    assert_int_equal(log->other_warn_count, 0);
    assert_int_equal(log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].count, 14);
    assert_int_equal(log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].lines[0], 101);
    assert_int_equal(log->coll_channels, 2);
    assert_int_equal(log->ring_channels, 2);
    assert_int_equal(log->gdr_rings_off, 2);
    assert_close(log->bootstrap_s, 59.82702, 1e-9);
    assert_string_equal(collcalc_nccl_log_var(log, "NCCL_SOCKET_IFNAME"), "^docker0,lo");
    assert_null(collcalc_nccl_log_var(log, "NCCL_IB_HCA"));

    const collcalc_finding *fallback = need("net-socket-fallback");
    assert_int_equal(fallback->severity, COLLCALC_SEVERITY_ERROR);
    assert_contains(fallback->message, "NET/Socket in use because the network plugin failed: "
                                       "Libfabric (v10) reported 'NET/OFI aws-ofi-nccl "
                                       "initialization failed' (line 40)");
    assert_contains(fallback->message, "; NET/IB found no device (line 44); NCCL fell back to TCP on "
                                       "eth0 (line 47): 14 hops via NET/Socket across 4 nodes.");
    assert_contains(fallback->next_step, "NCCL_NET");
    assert_contains(fallback->next_step, "NCCL_IB_HCA");
    assert_contains(fallback->next_step, "FI_PROVIDER=efa");
    static const long evidence[] = {38, 40, 42, 44, 47, 50, 101};
    for (size_t i = 0; i < sizeof evidence / sizeof evidence[0]; i++)
        assert_has_line(fallback, evidence[i]);
    assert_string_equal(found.items[0].code, "net-socket-fallback");

    const collcalc_finding *slow = need("slow-bootstrap");
    assert_int_equal(slow->severity, COLLCALC_SEVERITY_WARNING);
    assert_contains(slow->message, "Bootstrap took 59.8 s (line 53");
    /* GDR 0 over sockets is no news; one host's log cannot show node miscounts. */
    assert_null(collcalc_findings_find(&found, "gdr-off"));
    assert_null(collcalc_findings_find(&found, "nodes-vs-hosts"));
    assert_null(collcalc_findings_find(&found, "p2p-unavailable"));
    assert_null(collcalc_findings_find(&found, "nccl-warn"));
    assert_int_equal(collcalc_findings_worst(&found), COLLCALC_SEVERITY_ERROR);
}

static void test_shm_no_p2p(void **state)
{
    (void)state;
    read_fixture("nccl_debug_l40s_g6e48xl_1node_4gpu_shm_no_p2p_gnosia93.txt");
    const collcalc_nccl_log *log = &log_state;
    assert_int_equal(log->nranks, 4);
    assert_int_equal(log->nnodes, 1);
    assert_int_equal(log->local_ranks, 4);
    assert_int_equal(log->all_direct_p2p, 0);
    assert_int_equal(log->p2p_type.line, 37);
    assert_string_equal(log->ofi_provider.text, "efa");
    assert_string_equal(log->network.text, "Libfabric");
    assert_int_equal(log->hops[COLLCALC_NCCL_HOP_SHM].count, 14);
    assert_string_equal(log->hops[COLLCALC_NCCL_HOP_SHM].example, "SHM/direct/direct");
    assert_int_equal(log->graph_count, 2);
    assert_int_equal(log->graphs[0].pattern, 4);
    assert_int_equal(log->graphs[0].channels, 1);
    assert_close(log->graphs[0].bw_intra_GBps, 12.0, 0.0);
    assert_close(log->graphs[0].bw_inter_GBps, 12.0, 0.0);
    assert_string_equal(log->graphs[0].type_intra, "PHB");
    assert_string_equal(log->graphs[0].type_inter, "PIX");
    assert_int_equal(log->gdr_rings_on, 4);
    assert_int_equal(log->trees, 2);

    const collcalc_finding *p2p = need("p2p-unavailable");
    assert_int_equal(p2p->severity, COLLCALC_SEVERITY_WARNING);
    assert_contains(p2p->message, "P2P unavailable between GPUs of one node: 14 hops go via "
                                  "SHM/direct/direct (host memory); NCCL reports isAllDirectP2p 0");
    assert_contains(p2p->message, "PHB/PIX paths at 12.0 GB/s");
    assert_contains(p2p->next_step, "NCCL_P2P_DISABLE");
    assert_contains(p2p->next_step, "NCCL_P2P_LEVEL");
    assert_has_line(p2p, 37);
    assert_has_line(p2p, 39);
    assert_int_equal(collcalc_findings_worst(&found), COLLCALC_SEVERITY_WARNING);
    assert_null(collcalc_findings_find(&found, "net-socket-fallback"));
}

static void test_healthy_a100(void **state)
{
    (void)state;
    read_fixture("nccl_debug_a100_p4d_1node_4gpu_p2p_cumem_nvlink_gnosia93.txt");
    const collcalc_nccl_log *log = &log_state;
    assert_int_equal(log->ring_channels, 24);
    assert_int_equal(log->coll_channels, 24);
    assert_int_equal(log->collnet_channels, 24);
    assert_int_equal(log->nvls_channels, 0);
    assert_int_equal(log->p2p_channels, 32);
    assert_int_equal(log->trees, 24);
    assert_int_equal(log->all_direct_p2p, 1);
    assert_int_equal(log->nranks, 4);
    assert_int_equal(log->hops[COLLCALC_NCCL_HOP_P2P_CUMEM].count, 51);
    assert_string_equal(log->hops[COLLCALC_NCCL_HOP_P2P_CUMEM].example, "P2P/CUMEM/read");
    assert_int_equal(log->version.line, 0);
    assert_int_equal(collcalc_findings_worst(&found), COLLCALC_SEVERITY_INFO);
    assert_int_equal(found.count, 1);
    const collcalc_finding *summary = need("nccl-summary");
    absent("env");
    assert_contains(summary->message,
                    "24 channels; 24 trees; isAllDirectP2p 1; hops: 51 via P2P/CUMEM/read");
}

static void test_not_a_log(void **state)
{
    (void)state;
    collcalc_nccl_log_init(&log_state);
    collcalc_nccl_log_feed_text(&log_state, "hello\nworld\n", 12);
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_nccl_log_finish(&log_state, &found, &diag), COLLCALC_ERR_INVALID);
    assert_contains(diag.message, "not an NCCL_DEBUG log: no 'NCCL INFO' or 'NCCL WARN' line in 2 "
                                  "lines");
    assert_int_equal(found.count, 0);
    collcalc_nccl_log_init(&log_state);
    assert_int_equal(collcalc_nccl_log_finish(&log_state, &found, &diag), COLLCALC_ERR_INVALID);
}

static void test_healthy_ib_with_gdr(void **state)
{
    (void)state;
    read_text("n1:10:10 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
              "n1:10:20 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.1.0.1<0>\n"
              "n1:10:20 [0] NCCL INFO Using network IB\n"
              "n1:10:20 [0] NCCL INFO comm 0x1 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0\n"
              "n1:10:20 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 16, bw 40.000000/40.000000, type NVL/PIX, sameChannels 1\n"
              "n1:10:30 [0] NCCL INFO Channel 00/0 : 15[7] -> 0[0] [receive] via NET/IB/0/GDRDMA\n"
              "n1:10:30 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/IPC/read\n"
              "n1:10:30 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 1\n"
              "n1:10:20 [0] NCCL INFO 16 coll channels, 16 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer\n");
    assert_string_equal(log_state.ib_devices.text, "[0]mlx5_0:1/IB [1]mlx5_1:1/IB ; OOB ib0:10.1.0.1<0>");
    assert_int_equal(log_state.hops[COLLCALC_NCCL_HOP_NET_IB].gdr_count, 1);
    assert_int_equal(log_state.hops[COLLCALC_NCCL_HOP_P2P_IPC].count, 1);
    assert_int_equal(log_state.nvls_channels, 16);
    assert_int_equal(collcalc_findings_worst(&found), COLLCALC_SEVERITY_INFO);
    assert_contains(need("nccl-summary")->message,
                    "NCCL 2.21.5+cuda12.4; 16 ranks on 2 nodes, 8 local; 1 host seen; network IB; 16 channels");
}

static void test_gdr_off_and_few_channels(void **state)
{
    (void)state;
    read_text("n1:10:20 [0] NCCL INFO comm 0x1 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0\n"
              "n1:10:20 [0] NCCL INFO NCCL_MAX_NCHANNELS set by environment to 2\n"
              "n1:10:20 [0] NCCL INFO Pattern 4, crossNic 0, nChannels 2, bw 40.0/20.0, type NVL/PHB, sameChannels 1\n"
              "n1:10:30 [0] NCCL INFO Channel 00/0 : 15[7] -> 0[0] [receive] via NET/IB/0\n"
              "n1:10:30 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\n"
              "n1:10:30 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 0\n"
              "n1:10:20 [0] NCCL INFO 2 coll channels, 2 nvls channels, 2 p2p channels, 2 p2p channels per peer\n");
    const collcalc_finding *gdr = need("gdr-off");
    assert_int_equal(gdr->severity, COLLCALC_SEVERITY_WARNING);
    assert_contains(gdr->message, "GPUDirect RDMA is off (line 6) while 1 hops cross the network");
    assert_contains(gdr->next_step, "NCCL_NET_GDR_LEVEL");
    const collcalc_finding *few = need("few-channels");
    assert_contains(few->message, "Only 2 collective channels over NVLink (line 7); capped by 2");
    assert_int_equal(few->lines[0], 7);
}

static void test_wrong_interface_and_socket(void **state)
{
    (void)state;
    read_text("a:1:1 [0] NCCL INFO Bootstrap : Using docker0:172.17.0.2<0>\n"
              "a:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
              "a:1:1 [0] NCCL INFO NET/Socket : Using [0]docker0:172.17.0.2<0>\n"
              "a:1:1 [0] NCCL INFO Using network Socket\n"
              "a:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0\n"
              "a:1:2 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0\n");
    const collcalc_finding *ifname = need("socket-ifname");
    assert_int_equal(ifname->severity, COLLCALC_SEVERITY_WARNING);
    assert_contains(ifname->message, "NET/Socket uses docker0 (line 3)");
    assert_contains(ifname->next_step, "NCCL_SOCKET_IFNAME");
    const collcalc_finding *socket = need("net-socket");
    assert_contains(socket->message, "NCCL_IB_DISABLE=1 is set");
    assert_has_line(socket, 6);
}

static void test_verbs_missing(void **state)
{
    (void)state;
    read_text("a:1:1 [0] NCCL INFO Failed to open libibverbs.so[.1]\n"
              "a:1:1 [0] NCCL INFO NET/IB : No device found.\n"
              "a:1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n"
              "a:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0\n"
              "a:1:2 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0\n");
    const collcalc_finding *verbs = need("ib-verbs-missing");
    assert_int_equal(verbs->severity, COLLCALC_SEVERITY_ERROR);
    assert_contains(verbs->message, "libibverbs could not be loaded (line 1)");
    assert_has_line(verbs, 1);
    assert_has_line(verbs, 2);
}

static void test_nodes_vs_hosts(void **state)
{
    (void)state;
    read_text("gpu-box:11:11 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0\n"
              "gpu-box:12:12 [1] NCCL INFO comm 0x2 rank 1 nRanks 2 nNodes 2 localRanks 1 localRank 0\n");
    const collcalc_finding *nodes = need("nodes-vs-hosts");
    assert_contains(nodes->message, "Host gpu-box runs ranks 0, 1 but NCCL counted nNodes 2 with "
                                    "localRanks 1");
    assert_contains(nodes->next_step, "NCCL_HOSTID");
}

static void test_tuning_and_old_lines(void **state)
{
    (void)state;
    read_text("NCCL INFO Channel 00/04 : 0 1 2 3 4 5 6 7\n"
              "NCCL INFO Ring 00 : 7 -> 0 via NVLINK\n"
              "NCCL INFO Trees [0] 1/-1/-1->0->-1\n"
              "NCCL INFO NET/IB : Using [0]mlx5_bond_0:1/RoCE\n"
              "h:1:1 [0] NCCL INFO Algorithm   |      Tree |      Ring\n"
              "h:1:1 [0] NCCL INFO Protocol    |  LL LL128 Simple |  LL LL128 Simple\n"
              "h:1:1 [0] NCCL INFO AllReduce: 1048576 Bytes -> Algo 1 proto 2 time 20.500000\n"
              "h:1:1 [0] NCCL WARN Cuda failure 'out of memory'\n");
    assert_int_equal(log_state.ring_channels, 4);
    assert_int_equal(log_state.hops[COLLCALC_NCCL_HOP_P2P_OTHER].count, 1);
    assert_int_equal(log_state.trees, 1);
    assert_int_equal(log_state.tuning_lines, 2);
    assert_int_equal(log_state.choice_count, 1);
    assert_string_equal(log_state.choices[0].op, "AllReduce");
    assert_int_equal(log_state.choices[0].bytes, 1048576);
    assert_int_equal(log_state.choices[0].algorithm, 1);
    assert_int_equal(log_state.choices[0].protocol, 2);
    assert_close(log_state.choices[0].time_us, 20.5, 0.0);
    assert_int_equal(log_state.host_count, 1);
    assert_string_equal(log_state.choices[0].algorithm_name, "Ring");
    assert_string_equal(log_state.choices[0].protocol_name, "Simple");
    assert_contains(need("nccl-tuning")->message,
                    "NCCL's tuning: 1 per-size choice: AllReduce 1 MiB Ring/Simple; 2 table lines");
    assert_contains(need("ib-bond")->next_step, "NCCL_IB_HCA");
    const collcalc_finding *warn = need("nccl-warn");
    assert_contains(warn->message, "1 NCCL WARN line; first: 'Cuda failure 'out of memory''");
    assert_int_equal(warn->lines[0], 8);
}

/* A fixture copied under tests/fuzz/corpus/nccl_log (never skipped). */
static void read_corpus(const char *name)
{
    char relative[256];
    snprintf(relative, sizeof relative, "tests/fuzz/corpus/nccl_log/%s", name);
    read_path(test_source_path(relative));
}

/* NCCL 2.29's choice lines and the TUNING table (validation file, copied) */
static void test_tuning_2_29(void **state)
{
    (void)state;
    read_corpus("nccl_debug_tuning_algo_proto_table_rtx5090_socket_2rank_nccl2.29.7_ncclebpf.txt");
    assert_int_equal(log_state.choice_count, 23); /* every size kept (was cut at 16) */
    assert_int_equal(log_state.choices_dropped, 0);
    assert_int_equal(log_state.choices[22].bytes, 67108864);
    assert_string_equal(log_state.choices[0].op, "AllGather");
    assert_string_equal(log_state.choices[0].algorithm_name, "Ring");
    assert_string_equal(log_state.choices[0].protocol_name, "LL");
    assert_int_equal(log_state.choices[0].algorithm, 1);
    assert_int_equal(log_state.choices[0].protocol, 0);
    assert_int_equal(log_state.choices[10].channel_hi, 3);
    assert_int_equal(log_state.choices[11].bytes, 32768);
    assert_string_equal(log_state.choices[11].algorithm_name, "PAT");
    assert_int_equal(log_state.choices[11].algorithm, 6);
    assert_string_equal(log_state.choices[11].protocol_name, "Simple");
    assert_int_equal(log_state.tuning_cell_count, 12);
    const collcalc_nccl_tuning_cell *cell = &log_state.tuning_cells[3];
    assert_string_equal(cell->op, "AllGather");
    assert_string_equal(cell->algorithm, "Ring");
    assert_string_equal(cell->protocol, "LL");
    assert_close(cell->latency_us, 11.6, 0.0);
    assert_close(cell->bw_GBps, 2.4, 0.0);
    const char *m = need("nccl-tuning")->message;
    assert_contains(m, "AllGather 16 B..16 KiB Ring/LL; AllGather 32 KiB PAT/Simple; AllGather "
                       "64 KiB..64 MiB Ring/Simple");
    assert_null(strstr(m, "algo 0 proto 0"));
    assert_contains(need("nccl-tuning-table")->message, "AllGather Ring/LL 11.6 us 2.4 GB/s");
}

/* libibverbs missing, NET/Socket over IPoIB; NCCL_P2P_DISABLE echoed; a # line */
static void test_ib_socket_fallback_ipoib(void **state)
{
    (void)state;
    read_corpus("ib_socket_fallback_ipoib_p2p_disabled.txt");
    assert_int_equal(log_state.warn_count, 0); /* the '#' comment quoting WARN */
    assert_string_equal(log_state.network.text, "Socket");
    const collcalc_finding *f = need("ib-socket-fallback");
    assert_int_equal(f->severity, COLLCALC_SEVERITY_ERROR);
    assert_contains(f->message, "over ibp5s0, ibp70s0, ibp157s0 (line 4)");
    assert_has_line(f, 3);
    const collcalc_finding *env = need("env-costly");
    assert_contains(env->message, "NCCL_P2P_DISABLE set by environment to 1 (line 6)");
    assert_contains(need("env")->message, "NCCL_P2P_DISABLE=1");
}

/* mixed RoCE GIDs, GDR without its module, a bare version line, an overflowing nRanks */
static void test_gid_gdr_version_overflow(void **state)
{
    (void)state;
    read_corpus("gid_mixed_gdr_no_module_bare_version.txt");
    assert_string_equal(log_state.version.text, "2.21.5+cuda12.4");
    assert_int_equal(log_state.gid_count, 2);
    assert_contains(need("mixed-gid")->message, "GID 3 (0/C0A80A01FFFF0000, line 3) and GID 0");
    assert_contains(need("mixed-gid")->next_step, "NCCL_IB_GID_INDEX");
    const collcalc_finding *gdr = need("gdr-off");
    assert_contains(gdr->message, "(no module)");
    assert_contains(gdr->message, "2 hops go via NET/IB/0 without GDRDMA");
    assert_contains(gdr->next_step, "nvidia-peermem");
    assert_int_equal(log_state.nranks, 0); /* never 184467440 */
    assert_has_line(need("number-too-large"), 8);
}

static void test_efa_nics(void **state)
{
    (void)state;
    read_corpus("efa_16_nics_dmabuf_off.txt");
    assert_int_equal(log_state.nics, 16);
    assert_int_equal(log_state.nranks, 16);
    assert_string_equal(log_state.ofi_provider.text, "efa");
    assert_string_equal(log_state.network.text, "AWS Libfabric");
    assert_contains(need("ofi-dmabuf-off")->message, "provider efa with 16 NICs");
}

static void test_nvls_mnnvl_rccl(void **state)
{
    (void)state;
    read_corpus("nccl_debug_h800_1node_8gpu_0_nvls_channels_issue892.txt");
    const collcalc_finding *f = need("nvls-zero-channels");
    assert_contains(f->message, "16 coll channels but 0 NVLS channels (line 17)");
    assert_contains(f->next_step, "fabric manager");
    read_corpus("nccl_debug_gb200_mnnvl_4gpu_aarch64_nvls_error_issue1769.txt");
    assert_int_equal(log_state.mnnvl_gpus, 4);
    assert_int_equal(log_state.mnnvl_domains, 1);
    assert_contains(need("mnnvl")->message, "3143b15bc2cd192b.28cc9b5473fb5b93 clique 0x7ffe");
    assert_contains(need("mnnvl")->next_step, "IMEX");
    read_corpus("nccl_debug_mi250x_rccl_2node_8rank_xgmi_trees_issue_rccl1026.txt");
    assert_true(log_state.rccl);
    assert_int_equal(log_state.nranks, 8);
    assert_int_equal(log_state.trees, 4);
    assert_int_equal(log_state.host_total, 2);
    assert_contains(need("nccl-summary")->message, "RCCL (version not in the log); 8 ranks");
    absent("nvls-zero-channels");
}

/* more hosts than names kept: counted, and said (issue 23 item 10) */
static void test_many_hosts(void **state)
{
    (void)state;
    collcalc_nccl_log_init(&log_state);
    char line[256];
    for (int i = 0; i < 64; i++) {
        int n = snprintf(line, sizeof line,
                         "node%02d:1:1 [0] NCCL INFO comm 0x1 rank %d nRanks 64 nNodes 64 "
                         "localRanks 1 localRank 0",
                         i, i);
        collcalc_nccl_log_feed_line(&log_state, line, (size_t)n, 0);
        collcalc_nccl_log_feed_line(&log_state, line, (size_t)n, 0);
    }
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_nccl_log_finish(&log_state, &found, &diag), COLLCALC_OK);
    assert_int_equal(log_state.host_count, COLLCALC_NCCL_HOSTS_MAX);
    assert_int_equal(log_state.host_total, 64);
    assert_contains(need("hosts-many")->message, "64 distinct hosts");
    assert_contains(need("nccl-summary")->message, "64 hosts seen");
}

static void test_bounded_state(void **state)
{
    (void)state;
    collcalc_nccl_log_init(&log_state);
    char line[256];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(line, sizeof line,
                         "host%d:1:1 [0] NCCL INFO comm 0x1 rank %d nRanks 5000 nNodes 5000 "
                         "localRanks 1 localRank 0\r",
                         i, i);
        collcalc_nccl_log_feed_line(&log_state, line, (size_t)n, 0);
        n = snprintf(line, sizeof line, "host%d:1:1 [0] NCCL INFO NCCL_VAR%d set by environment to %d", i,
                     i, i);
        collcalc_nccl_log_feed_line(&log_state, line, (size_t)n, 0);
    }
    assert_int_equal(log_state.lines, 10000);
    assert_int_equal(log_state.host_count, COLLCALC_NCCL_HOSTS_MAX);
    assert_true(log_state.hosts_dropped > 0);
    assert_true(log_state.rank_count <= COLLCALC_NCCL_RANKS_MAX);
    assert_int_equal(log_state.var_count, COLLCALC_NCCL_VARS_MAX);
    assert_int_equal(log_state.vars_dropped, 5000 - COLLCALC_NCCL_VARS_MAX);
    assert_int_equal(log_state.nnodes, 5000);

    /* A 10 kB line with NULs and ANSI escapes is cut, not overrun. */
    static char huge[10000];
    memset(huge, 'x', sizeof huge);
    memcpy(huge, "h:1:1 [0] \x1b[1mNCCL INFO\x1b[0m NCCL version 2.18.1", 47);
    huge[60] = '\0';
    collcalc_nccl_log_feed_line(&log_state, huge, sizeof huge, 123456);
    assert_int_equal(log_state.cut_lines, 1);
    assert_int_equal(log_state.last_line, 123456);
    assert_string_equal(log_state.version.text, "2.18.1xxxxxxxxxxxxx");
    collcalc_diag diag = {{0}};
    assert_int_equal(collcalc_nccl_log_finish(&log_state, &found, &diag), COLLCALC_OK);
    assert_non_null(collcalc_findings_find(&found, "long-lines"));
    assert_true(found.count <= COLLCALC_FINDINGS_MAX);
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(collcalc_nccl_hop_kind_name(COLLCALC_NCCL_HOP_SHM), "SHM");
    assert_string_equal(collcalc_nccl_hop_kind_name(COLLCALC_NCCL_HOP_NET_SOCKET), "NET/Socket");
    assert_string_equal(collcalc_nccl_hop_kind_name(COLLCALC_NCCL_HOP_KINDS), "other");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_socket_fallback),
        cmocka_unit_test(test_shm_no_p2p),
        cmocka_unit_test(test_healthy_a100),
        cmocka_unit_test(test_not_a_log),
        cmocka_unit_test(test_healthy_ib_with_gdr),
        cmocka_unit_test(test_gdr_off_and_few_channels),
        cmocka_unit_test(test_wrong_interface_and_socket),
        cmocka_unit_test(test_verbs_missing),
        cmocka_unit_test(test_nodes_vs_hosts),
        cmocka_unit_test(test_tuning_and_old_lines),
        cmocka_unit_test(test_bounded_state),
        cmocka_unit_test(test_tuning_2_29),
        cmocka_unit_test(test_ib_socket_fallback_ipoib),
        cmocka_unit_test(test_gid_gdr_version_overflow),
        cmocka_unit_test(test_efa_nics),
        cmocka_unit_test(test_nvls_mnnvl_rccl),
        cmocka_unit_test(test_many_hosts),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
