/* The NCCL_DEBUG=INFO log reader: fed one line at a time, so a multi-GB log
 * streams in bounded memory (every list has a fixed capacity; what does not
 * fit is counted). It records what NCCL reported (version, ranks, network,
 * transports, channels, graphs, variables, tuning) and turns it into
 * findings with evidence line numbers. No I/O: the caller reads the lines. */
#ifndef COLLCALC_NCCL_LOG_H
#define COLLCALC_NCCL_LOG_H

#include <stddef.h>

#include "collcalc/findings.h"
#include "collcalc/nccl_model.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

#define COLLCALC_NCCL_WORD_MAX 64   /* versions, plugin, network, interface names */
#define COLLCALC_NCCL_TEXT_MAX 192  /* device lists, WARN messages */
#define COLLCALC_NCCL_LINE_BYTES 4096 /* the part of a line that is read; longer lines are cut */
#define COLLCALC_NCCL_HOSTS_MAX 32
#define COLLCALC_NCCL_RANKS_MAX 64  /* distinct (host, rank) comm lines kept */
#define COLLCALC_NCCL_EVIDENCE_MAX 8 /* line numbers kept per fact */
#define COLLCALC_NCCL_VARS_MAX 24
#define COLLCALC_NCCL_GRAPHS_MAX 8
#define COLLCALC_NCCL_WARNS_MAX 8
#define COLLCALC_NCCL_CHOICES_MAX 64 /* distinct (op, size) choices kept; repeats not */

/* How one hop of a ring or tree is carried ("via ..." in a Channel line). */
typedef enum {
    COLLCALC_NCCL_HOP_P2P_IPC = 0, /* P2P/IPC (CUDA IPC handles) */
    COLLCALC_NCCL_HOP_P2P_CUMEM,   /* P2P/CUMEM, P2P/CUMEM/read (cuMem handles) */
    COLLCALC_NCCL_HOP_P2P_DIRECT,  /* P2P/direct pointer (same process) */
    COLLCALC_NCCL_HOP_P2P_OTHER,   /* any other P2P/... and old "via NVLINK" */
    COLLCALC_NCCL_HOP_SHM,         /* SHM/... through host memory */
    COLLCALC_NCCL_HOP_NET_IB,      /* NET/IB/... (InfiniBand or RoCE verbs) */
    COLLCALC_NCCL_HOP_NET_SOCKET,  /* NET/Socket/... (TCP) */
    COLLCALC_NCCL_HOP_NET_PLUGIN,  /* NET/Libfabric, NET/AWS Libfabric, NET/<plugin>/... */
    COLLCALC_NCCL_HOP_NVLS,        /* NVLS (NVLink SHARP) */
    COLLCALC_NCCL_HOP_COLLNET,     /* CollNet */
    COLLCALC_NCCL_HOP_OTHER,
    COLLCALC_NCCL_HOP_KINDS
} collcalc_nccl_hop_kind;

/* Hops seen of one kind. */
typedef struct {
    long count;
    long gdr_count; /* hops whose transport says GDRDMA */
    char example[COLLCALC_NCCL_WORD_MAX]; /* first transport text, "P2P/CUMEM/read" */
    int line_count;
    long lines[COLLCALC_NCCL_EVIDENCE_MAX]; /* first lines, ascending */
} collcalc_nccl_hops;

/* One "comm 0x... rank R nRanks N nNodes M localRanks L" line per (host, rank). */
typedef struct {
    int host;  /* index into hosts[], -1 when the line had no host prefix */
    int rank, nranks, nnodes, local_ranks;
    long line;
} collcalc_nccl_rank;

/* A variable NCCL echoed ("NCCL_SOCKET_IFNAME set by environment to ^docker0,lo"). */
typedef struct {
    char name[COLLCALC_NCCL_WORD_MAX];
    char value[COLLCALC_NCCL_WORD_MAX];
    long line;
} collcalc_nccl_var;

/* A graph search result ("Pattern 4, crossNic 0, nChannels 1, bw 12.0/12.0, type PHB/PIX"). */
typedef struct {
    int pattern, cross_nic, channels;
    double bw_intra_GBps, bw_inter_GBps;
    char type_intra[16], type_inter[16]; /* "NVL", "PIX", "PHB", "SYS", "NET", "LOC" */
    long line;
} collcalc_nccl_log_graph;

/* A TUNING choice: "AllReduce: 1048576 Bytes -> Algo 1 proto 2 time 20.5" (2.18-2.2x),
 * "Broadcast: 1024 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0}" (2.26+). */
typedef struct {
    char op[24];
    long long bytes;
    int algorithm, protocol; /* NCCL's enum values (names mapped: TREE 0, RING 1, COLLNET_DIRECT 2,
                                COLLNET_CHAIN 3, NVLS 4, NVLS_TREE 5, PAT 6; LL 0, LL128 1,
                                SIMPLE 2); -1 when the name is not one of them */
    char algorithm_name[16]; /* "Ring", "Tree", "PAT", ... */
    char protocol_name[16];  /* "LL", "LL128", "Simple" */
    double time_us;          /* 0 when not printed */
    int channel_lo, channel_hi; /* -1 when not printed */
    long line;
} collcalc_nccl_choice;

/* One cell of the TUNING table: "AllGather | 11.6/ 2.4 | ..." under its
 * "Algorithm" and "Protocol" heads (latency in us / bandwidth in GB/s). */
typedef struct {
    char op[24];
    char algorithm[16];
    char protocol[16];
    double latency_us, bw_GBps;
    long line;
} collcalc_nccl_tuning_cell;

#define COLLCALC_NCCL_TUNING_CELLS_MAX 96
#define COLLCALC_NCCL_GIDS_MAX 4
#define COLLCALC_NCCL_HOST_HASHES 1024 /* distinct hosts counted (names kept: HOSTS_MAX) */

/* A RoCE GID index NCCL used ("GID 3 (0/...)" on NET/IB lines). */
typedef struct {
    int index;
    char text[48]; /* the address as printed after it, "80FE..." */
    long line;
} collcalc_nccl_gid;

/* A fact seen at one line (0 = not seen). */
typedef struct {
    char text[COLLCALC_NCCL_TEXT_MAX];
    long line;
} collcalc_nccl_fact;

/* The reader's state and everything it recorded. Caller-owned (about 14 kB:
 * keep it off small stacks); fill with collcalc_nccl_log_init. */
typedef struct {
    long lines;       /* lines fed */
    long nccl_lines;  /* lines with "NCCL INFO" or "NCCL WARN" */
    long cut_lines;   /* lines longer than COLLCALC_NCCL_LINE_BYTES (read cut) */
    long last_line;

    collcalc_nccl_fact version;       /* "2.27.3+cuda12.9" */
    collcalc_nccl_fact cuda_driver;   /* "13000" */
    collcalc_nccl_fact net_plugin;    /* "Libfabric (v10)", plugin loaded */
    collcalc_nccl_fact plugin_env;    /* "libnccl-net.so" set by env */
    collcalc_nccl_fact network;       /* "Using network X" (the first line naming the latest) */
    collcalc_nccl_fact ib_devices;    /* "[0]mlx5_0:1/RoCE [1]..." */
    collcalc_nccl_fact ib_none;       /* "NET/IB : No device found." */
    collcalc_nccl_fact verbs_missing; /* libibverbs could not be loaded */
    collcalc_nccl_fact socket_if;     /* "[0]eth0:10.0.4.51<0>" */
    collcalc_nccl_fact bootstrap_if;  /* "eth0:10.0.4.51<0>" */
    collcalc_nccl_fact ofi_provider;  /* "efa" */
    collcalc_nccl_fact gdr_disabled;  /* "GPU Direct RDMA Disabled ..." */
    collcalc_nccl_fact gdr_enabled;
    collcalc_nccl_fact p2p_type;      /* "isAllDirectP2p 0" */
    int all_direct_p2p;               /* -1 unseen, else the value */

    int plugin_failed;                /* a network plugin failed to initialise */
    long plugin_fail_count;           /* failure lines seen */
    int plugin_fail_line_count;       /* of them kept in plugin_fail_lines */
    long plugin_fail_lines[COLLCALC_NCCL_EVIDENCE_MAX];
    char plugin_fail_text[COLLCALC_NCCL_TEXT_MAX]; /* the telling failure message */
    long plugin_fail_text_line;

    int nranks, nnodes, local_ranks;  /* largest seen on comm lines; 0 when none (nranks
                                         may come from an ncclCommInitRank line) */
    long comm_line;
    int rank_count;
    long ranks_dropped;
    collcalc_nccl_rank ranks[COLLCALC_NCCL_RANKS_MAX];

    int host_count;
    long hosts_dropped;
    char hosts[COLLCALC_NCCL_HOSTS_MAX][COLLCALC_NCCL_WORD_MAX];

    int ring_channels;   /* from "Channel 00/24 : 0 1 2 3" (largest) */
    long ring_channels_line;
    int coll_channels, nvls_channels, collnet_channels, p2p_channels; /* "N coll channels, ..." (last) */
    long channels_line;
    int trees;           /* "[k]" entries of the widest Trees line */
    long trees_line;

    long gdr_rings_on, gdr_rings_off; /* "Connected all rings ... GDR 1/0" lines */
    long gdr_on_line, gdr_off_line;

    collcalc_nccl_hops hops[COLLCALC_NCCL_HOP_KINDS];

    int graph_count;
    long graphs_dropped;
    collcalc_nccl_log_graph graphs[COLLCALC_NCCL_GRAPHS_MAX];

    int var_count;
    long vars_dropped;
    collcalc_nccl_var vars[COLLCALC_NCCL_VARS_MAX];

    double bootstrap_s;  /* "Bootstrap timings total S" (largest); -1 unseen */
    long bootstrap_line;

    long tuning_lines;   /* algorithm/protocol table lines recognised */
    long first_tuning_line;
    int choice_count;
    long choices_dropped;
    collcalc_nccl_choice choices[COLLCALC_NCCL_CHOICES_MAX];

    int tuning_algorithm_count, tuning_protocol_count; /* the table's heads, as printed */
    char tuning_algorithms[16][16];
    char tuning_protocols[48][16];
    int tuning_cell_count;
    long tuning_cells_dropped;
    collcalc_nccl_tuning_cell tuning_cells[COLLCALC_NCCL_TUNING_CELLS_MAX];

    int nics;                          /* "(found 16 nics)" (NET/OFI); 0 unseen */
    collcalc_nccl_fact dmabuf_off;     /* a line saying DMA-BUF is off or unsupported */
    int gid_count;                     /* distinct GID indices */
    collcalc_nccl_gid gids[COLLCALC_NCCL_GIDS_MAX];
    int mnnvl_gpus;                    /* "MNNVL busId ... fabric UUID ... cliqueId ..." lines */
    int mnnvl_domains;                 /* distinct fabric UUID + clique pairs (up to 2 counted) */
    char mnnvl_domain[96];             /* the first: "UUID clique 0x7ffe" */
    int mnnvl_not_ready;               /* lines whose state is not 3 (completed) */
    long mnnvl_line;
    int rccl;                          /* an RCCL log (RCCL version line, XGMI, rocm) */
    long host_total;                   /* distinct hosts seen (up to COLLCALC_NCCL_HOST_HASHES) */
    int host_total_capped;             /* more distinct hosts than that */
    unsigned long host_hashes[COLLCALC_NCCL_HOST_HASHES];
    long numbers_too_large;            /* counts too large to read ("nRanks 1844674...") */
    long too_large_line;

    long warn_count;  /* all NCCL WARN lines */
    long other_warn_count; /* WARN lines that are not network plugin failures */
    int other_warn_line_count;
    long other_warn_lines[COLLCALC_NCCL_WARNS_MAX];
    char first_other_warn[COLLCALC_NCCL_TEXT_MAX];
} collcalc_nccl_log;

/* Empties the state. */
void collcalc_nccl_log_init(collcalc_nccl_log *log);

/* Reads one line (length bytes, no '\n' needed; a trailing '\r' is
 * ignored; NUL and control bytes are tolerated). line_number is the 1-based
 * input line, used as evidence; pass 0 to number lines 1, 2, ... in feed
 * order. Never fails: what is not recognised is skipped. */
void collcalc_nccl_log_feed_line(collcalc_nccl_log *log, const char *line, size_t length,
                                 long line_number);

/* Feeds a whole text, line by line (numbered from 1 after the lines fed so
 * far). */
void collcalc_nccl_log_feed_text(collcalc_nccl_log *log, const char *text, size_t length);

/* Turns what was read into findings (out is re-initialised; sorted errors
 * first; an info "nccl-summary" always comes last in its severity).
 * ERR_INVALID with a diagnostic when no NCCL line was seen at all ("not an
 * NCCL_DEBUG log"). The state is not changed and may be fed further. */
collcalc_status collcalc_nccl_log_finish(const collcalc_nccl_log *log, collcalc_findings *out,
                                         collcalc_diag *diag);

/* "P2P/IPC", "P2P/CUMEM", "P2P/direct", "P2P", "SHM", "NET/IB", "NET/Socket",
 * "NET/plugin", "NVLS", "CollNet", "other". Static, never NULL. */
const char *collcalc_nccl_hop_kind_name(collcalc_nccl_hop_kind kind);

/* The value of an echoed NCCL_* variable, or NULL when the log did not show it. */
const char *collcalc_nccl_log_var(const collcalc_nccl_log *log, const char *name);

/* ------------------------------------------------------------------ */
/* NCCL's own tuning beside collcalc's model of the same system. */

/* One cell of NCCL's TUNING table beside the model's figures for the same
 * collective, algorithm and protocol (the model costed at 1 GiB, where its
 * size-dependent corrections are settled; its latency and algorithm
 * bandwidth are the ones NCCL's table prints: doc/MODEL.md). */
typedef struct {
    char op[24], algorithm[16], protocol[16]; /* as NCCL printed them */
    double nccl_latency_us, nccl_bw_GBps;     /* 0.0/0.0: NCCL cannot run it */
    bool known;        /* op, algorithm and protocol are ones the model has */
    bool model_runs;   /* the model can run it on this system */
    double model_latency_us, model_bw_GBps;
    bool differs;      /* one runs and the other not, or latency or bandwidth apart by
                          more than COLLCALC_NCCL_TUNING_APART */
    long line;
} collcalc_nccl_tuning_pair;

/* One per-size choice NCCL printed beside the model's choice at that size. */
typedef struct {
    char op[24];
    long long bytes;
    char nccl_choice[40];  /* "Ring/LL" */
    char model_choice[40]; /* "Ring/LL", "" when the op is not one the model costs */
    bool known;
    bool same;
    long line;
} collcalc_nccl_choice_pair;

/* Apart: a ratio of model to NCCL outside [1/1.25, 1.25]. */
#define COLLCALC_NCCL_TUNING_APART 1.25

typedef struct {
    int cell_count;
    int cells_differ;
    collcalc_nccl_tuning_pair cells[COLLCALC_NCCL_TUNING_CELLS_MAX];
    int choice_count;
    int choices_differ;
    collcalc_nccl_choice_pair choices[COLLCALC_NCCL_CHOICES_MAX];
} collcalc_nccl_tuning_comparison;

/* Sets the TUNING table and per-size choices the log holds beside
 * collcalc's NCCL model of system (collcalc_nccl_predict), and adds one
 * finding ("nccl-tuning-vs-model": where they differ, or that they agree)
 * to findings when it is not NULL. out is caller-owned (about 20 kB).
 * COLLCALC_ERR_INVALID when the model refuses the system. */
collcalc_status collcalc_nccl_log_compare_tuning(const collcalc_nccl_log *log,
                                                 const collcalc_nccl_system *system,
                                                 const collcalc_nccl_constants *constants,
                                                 const collcalc_nccl_options *options,
                                                 collcalc_nccl_tuning_comparison *out,
                                                 collcalc_findings *findings, collcalc_diag *diag);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
