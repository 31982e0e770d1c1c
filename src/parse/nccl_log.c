/* The NCCL_DEBUG=INFO log reader (include/collcalc/nccl_log.h): each line is
 * cleaned into a bounded buffer, its "host:pid:tid [dev] NCCL INFO|WARN"
 * prefix split off, and the message offered to small recognisers, one per
 * kind of NCCL line; nccl_log_finish turns the record into findings.
 * Line shapes follow NCCL 2.x as printed by its INFO/WARN logger (see the
 * fixtures named in tests/unit/test_nccl_log.c). */
#include "collcalc/nccl_log.h"

#include <stdio.h>
#include <string.h>

#include "collcalc/units.h"
#include "text_lines.h"

/* Bootstrap longer than this is reported (seconds). */
#define SLOW_BOOTSTRAP_S 10.0
/* Fewer collective channels than this over NVLink is reported. */
#define FEW_NVLINK_CHANNELS 4

void collcalc_nccl_log_init(collcalc_nccl_log *log)
{
    memset(log, 0, sizeof *log);
    log->all_direct_p2p = -1;
    log->bootstrap_s = -1.0;
}

const char *collcalc_nccl_hop_kind_name(collcalc_nccl_hop_kind kind)
{
    switch (kind) {
    case COLLCALC_NCCL_HOP_P2P_IPC: return "P2P/IPC";
    case COLLCALC_NCCL_HOP_P2P_CUMEM: return "P2P/CUMEM";
    case COLLCALC_NCCL_HOP_P2P_DIRECT: return "P2P/direct";
    case COLLCALC_NCCL_HOP_P2P_OTHER: return "P2P";
    case COLLCALC_NCCL_HOP_SHM: return "SHM";
    case COLLCALC_NCCL_HOP_NET_IB: return "NET/IB";
    case COLLCALC_NCCL_HOP_NET_SOCKET: return "NET/Socket";
    case COLLCALC_NCCL_HOP_NET_PLUGIN: return "NET/plugin";
    case COLLCALC_NCCL_HOP_NVLS: return "NVLS";
    case COLLCALC_NCCL_HOP_COLLNET: return "CollNet";
    case COLLCALC_NCCL_HOP_OTHER:
    case COLLCALC_NCCL_HOP_KINDS: return "other";
    }
    return "other";
}

const char *collcalc_nccl_log_var(const collcalc_nccl_log *log, const char *name)
{
    for (int i = 0; i < log->var_count; i++)
        if (strcmp(log->vars[i].name, name) == 0)
            return log->vars[i].value;
    return NULL;
}

/* ------------------------------------------------------------- helpers */

static void add_line(long *lines, int *count, int cap, long line)
{
    if (*count < cap && (*count == 0 || lines[*count - 1] != line))
        lines[(*count)++] = line;
}

/* Copies the word at text (up to a space, tab or one of stops) into dst. */
static void copy_word(char *dst, size_t cap, const char *text, const char *stops)
{
    size_t n = 0;
    while (text[n] != '\0' && text[n] != ' ' && text[n] != '\t' &&
           (stops == NULL || strchr(stops, text[n]) == NULL))
        n++;
    text_copy_n(dst, cap, text, n);
}

static void set_fact(collcalc_nccl_fact *fact, const char *text, long line)
{
    text_copy(fact->text, sizeof fact->text, text);
    fact->line = line;
}

/* The integer after " key " in text (or at its start). Returns 0 when absent. */
static int key_int(const char *text, const char *key, int *out)
{
    size_t n = strlen(key);
    for (const char *p = strstr(text, key); p != NULL; p = strstr(p + 1, key)) {
        if ((p != text && p[-1] != ' ' && p[-1] != ',') || p[n] != ' ')
            continue;
        const char *digits = p + n + 1;
        long value = 0;
        if (!text_read_digits(&digits, &value))
            continue;
        if (*digits >= '0' && *digits <= '9')
            return 0; /* more than 9 digits: not a count NCCL prints; never read cut */
        *out = (int)value;
        return 1;
    }
    return 0;
}

/* A decimal number at text ("59.827020"), through the units module. */
static int read_number(const char *text, double *out)
{
    char word[32];
    size_t n = strspn(text, "0123456789.");
    if (n == 0 || n >= sizeof word)
        return 0;
    text_copy_n(word, sizeof word, text, n);
    return collcalc_number_parse(word, 0.0, 1e12, out, NULL) == COLLCALC_OK;
}

/* -------------------------------------------------------------- prefix */

/* Notes the host of a "host:pid:tid [dev]" prefix (after an optional
 * "[timestamp]"); returns its index, -1 when the prefix has none. */
/* Counts a host not among the kept names: distinct hosts by a 64-bit FNV-1a
 * hash of the name, up to COLLCALC_NCCL_HOST_HASHES of them. */
static void count_host(collcalc_nccl_log *log, const char *host)
{
    unsigned long long h = 1469598103934665603ULL;
    for (const char *c = host; *c != '\0'; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    unsigned long key = (unsigned long)(h | 1u);
    for (long i = 0; i < log->host_total && i < COLLCALC_NCCL_HOST_HASHES; i++)
        if (log->host_hashes[i] == key)
            return;
    if (log->host_total >= COLLCALC_NCCL_HOST_HASHES) {
        log->host_total_capped = 1;
        return;
    }
    log->host_hashes[log->host_total++] = key;
}

static int note_host(collcalc_nccl_log *log, const char *prefix, size_t length)
{
    size_t at = 0;
    while (at < length && (prefix[at] == ' ' || prefix[at] == '\t'))
        at++;
    if (at < length && prefix[at] == '[') {
        const char *close = memchr(prefix + at, ']', length - at);
        if (close == NULL)
            return -1;
        at = (size_t)(close - prefix) + 1;
        while (at < length && prefix[at] == ' ')
            at++;
    }
    size_t start = at;
    while (at < length && prefix[at] != ':' && prefix[at] != ' ')
        at++;
    if (at == start || at + 1 >= length || prefix[at] != ':' || prefix[at + 1] < '0' ||
        prefix[at + 1] > '9')
        return -1;
    char host[COLLCALC_NCCL_WORD_MAX];
    text_copy_n(host, sizeof host, prefix + start, at - start);
    for (int i = 0; i < log->host_count; i++)
        if (strcmp(log->hosts[i], host) == 0)
            return i;
    count_host(log, host);
    if (log->host_count >= COLLCALC_NCCL_HOSTS_MAX) {
        log->hosts_dropped++;
        return -1;
    }
    text_copy(log->hosts[log->host_count], sizeof log->hosts[0], host);
    return log->host_count++;
}

/* ------------------------------------------------------- recognisers */

typedef struct {
    collcalc_nccl_log *log;
    const char *message; /* after "NCCL INFO " / "NCCL WARN " */
    long line;
    int host;
    int warn;
} log_line;

static int take_version(log_line *l)
{
    int rccl = text_starts_with(l->message, "RCCL version ");
    if (!text_starts_with(l->message, "NCCL version ") && !rccl)
        return 0;
    char word[COLLCALC_NCCL_WORD_MAX];
    copy_word(word, sizeof word, l->message + 13, NULL);
    set_fact(&l->log->version, word, l->line);
    if (rccl || strstr(word, "rocm") != NULL || strstr(word, "hip") != NULL)
        l->log->rccl = 1;
    return 1;
}

static int take_driver(log_line *l)
{
    if (!text_starts_with(l->message, "cudaDriverVersion "))
        return 0;
    char word[COLLCALC_NCCL_WORD_MAX];
    copy_word(word, sizeof word, l->message + 18, NULL);
    set_fact(&l->log->cuda_driver, word, l->line);
    return 1;
}

static void note_rank(collcalc_nccl_log *log, const collcalc_nccl_rank *rank)
{
    for (int i = 0; i < log->rank_count; i++)
        if (log->ranks[i].host == rank->host && log->ranks[i].rank == rank->rank) {
            if (rank->nnodes > log->ranks[i].nnodes)
                log->ranks[i] = *rank;
            return;
        }
    if (log->rank_count >= COLLCALC_NCCL_RANKS_MAX) {
        log->ranks_dropped++;
        return;
    }
    log->ranks[log->rank_count++] = *rank;
}

/* "ncclCommInitRankConfig comm 0x556f rank 0 nranks 4 cudaDev 0 ...": logs that start
 * after the comm line still say how many ranks there are. */
static int take_init_rank(log_line *l)
{
    int nranks = 0;
    if (!key_int(l->message, "nranks", &nranks))
        return 0;
    if (l->log->nranks == 0) {
        l->log->nranks = nranks;
        l->log->comm_line = l->line;
    }
    return 1;
}

/* "comm 0x55a2 rank 0 nRanks 4 nNodes 1 localRanks 4 localRank 0 MNNVL 0" */
static int take_comm(log_line *l)
{
    collcalc_nccl_rank rank = {l->host, 0, 0, 0, 0, l->line};
    if (text_starts_with(l->message, "ncclCommInitRank") || text_starts_with(l->message, "ncclCommSplit"))
        return take_init_rank(l);
    if (!text_starts_with(l->message, "comm ") || !key_int(l->message, "nRanks", &rank.nranks) ||
        !key_int(l->message, "rank", &rank.rank))
        return 0;
    key_int(l->message, "nNodes", &rank.nnodes);
    key_int(l->message, "localRanks", &rank.local_ranks);
    collcalc_nccl_log *log = l->log;
    if (rank.nranks > log->nranks)
        log->nranks = rank.nranks;
    if (rank.nnodes > log->nnodes)
        log->nnodes = rank.nnodes;
    if (rank.local_ranks > log->local_ranks)
        log->local_ranks = rank.local_ranks;
    log->comm_line = l->line;
    note_rank(log, &rank);
    return 1;
}

static int is_plugin_failure(const char *m, int warn)
{
    static const char *const marks[] = {"initialization failed", "Initializing plugin failed",
                                        "Failing initialization", "No eligible providers",
                                        "Failed to initialize", "failed to initialize",
                                        "init failed", "Unable to find a protocol"};
    int net = text_starts_with(m, "NET/") || strstr(m, "net plugin") != NULL ||
              strstr(m, "NET plugin") != NULL;
    if (!net)
        return 0;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
        if (strstr(m, marks[i]) != NULL)
            return 1;
    /* A WARN from the network layer other than missing optional symbols. */
    return warn && strstr(m, "Failed to find") == NULL && strstr(m, "Could not find") == NULL;
}

static int take_plugin_failure(log_line *l)
{
    if (!is_plugin_failure(l->message, l->warn))
        return 0;
    collcalc_nccl_log *log = l->log;
    log->plugin_failed = 1;
    log->plugin_fail_count++;
    add_line(log->plugin_fail_lines, &log->plugin_fail_line_count, COLLCALC_NCCL_EVIDENCE_MAX,
             l->line);
    int better = strstr(l->message, "initialization failed") != NULL &&
                 strstr(log->plugin_fail_text, "initialization failed") == NULL;
    if (log->plugin_fail_text[0] == '\0' || better) {
        text_copy(log->plugin_fail_text, sizeof log->plugin_fail_text, l->message);
        log->plugin_fail_text_line = l->line;
    }
    return 1;
}

static int take_plugin(log_line *l)
{
    const char *m = l->message, *p;
    if ((p = strstr(m, "Loaded net plugin ")) != NULL) {
        set_fact(&l->log->net_plugin, p + 18, l->line);
        return 1;
    }
    if ((p = strstr(m, "Plugin name set by env to ")) != NULL) {
        set_fact(&l->log->plugin_env, p + 26, l->line);
        return 1;
    }
    if ((p = strstr(m, "Successfully loaded external plugin ")) != NULL) {
        if (l->log->net_plugin.line == 0)
            set_fact(&l->log->net_plugin, p + 36, l->line);
        return 1;
    }
    return 0;
}

static int take_network(log_line *l)
{
    if (!text_starts_with(l->message, "Using network "))
        return 0;
    char word[COLLCALC_NCCL_WORD_MAX];
    text_copy(word, sizeof word, l->message + 14); /* "AWS Libfabric": the whole name */
    size_t n = strlen(word);
    while (n > 0 && (word[n - 1] == ' ' || word[n - 1] == '\t'))
        word[--n] = '\0';
    /* keep the first line of the same network ("Using network" over NET/Socket's own line) */
    if (strcmp(word, l->log->network.text) != 0 ||
        (l->log->network.line > 0 && l->log->network.line == l->log->socket_if.line))
        set_fact(&l->log->network, word, l->line);
    return 1;
}

/* Text after "Using " in "NET/IB : Using ..." style lines, NULL if none. */
static const char *using_part(const char *m, const char *subsystem)
{
    if (!text_starts_with(m, subsystem))
        return NULL;
    const char *p = m + strlen(subsystem);
    while (*p == ' ' || *p == ':')
        p++;
    return text_starts_with(p, "Using ") ? p + 6 : NULL;
}

static int take_ib(log_line *l)
{
    const char *m = l->message, *p;
    if (strstr(m, "libibverbs") != NULL &&
        (strstr(m, "ailed") != NULL || strstr(m, "nable") != NULL || strstr(m, "not ") != NULL)) {
        set_fact(&l->log->verbs_missing, m, l->line);
        return 1;
    }
    if (strstr(m, "GPU Direct RDMA Disabled") != NULL) {
        set_fact(&l->log->gdr_disabled, m, l->line);
        return 1;
    }
    if (!text_starts_with(m, "NET/IB"))
        return 0;
    if (strstr(m, "No device found") != NULL) {
        set_fact(&l->log->ib_none, m, l->line);
        return 1;
    }
    if (strstr(m, "GPU Direct RDMA Disabled") != NULL) {
        set_fact(&l->log->gdr_disabled, m, l->line);
        return 1;
    }
    if (strstr(m, "GPU Direct RDMA Enabled") != NULL) {
        set_fact(&l->log->gdr_enabled, m, l->line);
        return 1;
    }
    p = using_part(m, "NET/IB");
    /* "Using [RO]; OOB eth0" alone lists no HCA: a device is "[0]mlx5_0:1/IB". */
    if (p != NULL && p[0] == '[' && p[1] >= '0' && p[1] <= '9') {
        set_fact(&l->log->ib_devices, p, l->line);
        return 1;
    }
    return p != NULL;
}

static int take_socket(log_line *l)
{
    const char *p = using_part(l->message, "NET/Socket");
    if (p != NULL) {
        set_fact(&l->log->socket_if, p, l->line);
        /* NET/Socket initialises only when it is the network */
        if (l->log->network.line == 0)
            set_fact(&l->log->network, "Socket", l->line);
        return 1;
    }
    p = using_part(l->message, "Bootstrap");
    if (p != NULL) {
        set_fact(&l->log->bootstrap_if, p, l->line);
        return 1;
    }
    return 0;
}

/* "NET/OFI Selected Provider is efa (found 16 nics)" (also "provider"). */
static int take_provider(log_line *l)
{
    const char *p = strstr(l->message, "Selected provider is ");
    if (p == NULL)
        p = strstr(l->message, "Selected Provider is ");
    if (p == NULL)
        return 0;
    char word[COLLCALC_NCCL_WORD_MAX];
    copy_word(word, sizeof word, p + 21, ",(");
    set_fact(&l->log->ofi_provider, word, l->line);
    const char *found = strstr(p, "(found ");
    long nics = 0;
    if (found != NULL) {
        found += 7;
        if (text_read_digits(&found, &nics) && text_starts_with(found, " nic") && nics > 0)
            l->log->nics = (int)nics;
    }
    return 1;
}

/* DMA-BUF off: "DMA-BUF ... disabled", "dmabuf ... not supported". */
static int take_dmabuf(log_line *l)
{
    const char *m = l->message;
    if (strstr(m, "DMA-BUF") == NULL && strstr(m, "dmabuf") == NULL && strstr(m, "DMABUF") == NULL &&
        strstr(m, "DmaBuf") == NULL)
        return 0;
    if (strstr(m, "isable") != NULL || strstr(m, "not supported") != NULL ||
        strstr(m, "unsupported") != NULL || strstr(m, "not available") != NULL ||
        strstr(m, " 0") != NULL) {
        if (l->log->dmabuf_off.line == 0)
            set_fact(&l->log->dmabuf_off, m, l->line);
        return 1;
    }
    return 0;
}

/* "GID 3 (0/...)" / "GID 0 (80FE...)" on NET/IB lines: the RoCE GID index in use. */
static int take_gid(log_line *l)
{
    const char *g = strstr(l->message, " GID ");
    if (g == NULL || strstr(l->message, "NET/IB") == NULL)
        return 0;
    const char *digits = g + 5;
    long index = 0;
    if (!text_read_digits(&digits, &index) || (*digits != ' ' && *digits != '\0' && *digits != ','))
        return 0;
    collcalc_nccl_log *log = l->log;
    for (int i = 0; i < log->gid_count; i++)
        if (log->gids[i].index == (int)index)
            return 1;
    if (log->gid_count >= COLLCALC_NCCL_GIDS_MAX)
        return 1;
    collcalc_nccl_gid *gid = &log->gids[log->gid_count++];
    gid->index = (int)index;
    gid->line = l->line;
    gid->text[0] = '\0';
    while (*digits == ' ')
        digits++;
    if (*digits == '(')
        copy_word(gid->text, sizeof gid->text, digits + 1, ")");
    return 1;
}

/* "MNNVL busId 0x901000 fabric UUID 3143...93 cliqueId 0x7ffe state 3 healthMask 0xaa" */
static int take_mnnvl(log_line *l)
{
    const char *m = l->message;
    if (!text_starts_with(m, "MNNVL busId "))
        return 0;
    collcalc_nccl_log *log = l->log;
    char uuid[COLLCALC_NCCL_WORD_MAX] = "", clique[24] = "", domain[96];
    const char *u = strstr(m, "fabric UUID ");
    if (u != NULL)
        copy_word(uuid, sizeof uuid, u + 12, NULL);
    const char *c = strstr(m, "cliqueId ");
    if (c != NULL)
        copy_word(clique, sizeof clique, c + 9, NULL);
    snprintf(domain, sizeof domain, "%s clique %s", uuid, clique);
    if (log->mnnvl_gpus++ == 0) {
        text_copy(log->mnnvl_domain, sizeof log->mnnvl_domain, domain);
        log->mnnvl_domains = 1;
        log->mnnvl_line = l->line;
    } else if (strcmp(domain, log->mnnvl_domain) != 0) {
        log->mnnvl_domains = 2;
    }
    int state = -1;
    if (key_int(m, "state", &state) && state != 3)
        log->mnnvl_not_ready++;
    return 1;
}

static int take_p2p_type(log_line *l)
{
    const char *p = strstr(l->message, "isAllDirectP2p ");
    if (p == NULL)
        return 0;
    l->log->all_direct_p2p = p[15] == '1' ? 1 : 0;
    l->log->p2p_type.line = l->line;
    snprintf(l->log->p2p_type.text, sizeof l->log->p2p_type.text, "isAllDirectP2p %d",
             l->log->all_direct_p2p);
    return 1;
}

static collcalc_nccl_hop_kind classify_hop(const char *via)
{
    static const struct {
        const char *prefix;
        collcalc_nccl_hop_kind kind;
    } kinds[] = {
        {"P2P/IPC", COLLCALC_NCCL_HOP_P2P_IPC},       {"P2P/CUMEM", COLLCALC_NCCL_HOP_P2P_CUMEM},
        {"P2P/direct", COLLCALC_NCCL_HOP_P2P_DIRECT}, {"P2P", COLLCALC_NCCL_HOP_P2P_OTHER},
        {"NVLINK", COLLCALC_NCCL_HOP_P2P_OTHER},      {"SHM", COLLCALC_NCCL_HOP_SHM},
        {"NET/IB", COLLCALC_NCCL_HOP_NET_IB},         {"NET/Socket", COLLCALC_NCCL_HOP_NET_SOCKET},
        {"NET/", COLLCALC_NCCL_HOP_NET_PLUGIN},       {"NVLS", COLLCALC_NCCL_HOP_NVLS},
        {"CollNet", COLLCALC_NCCL_HOP_COLLNET},       {"COLLNET", COLLCALC_NCCL_HOP_COLLNET},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (text_starts_with(via, kinds[i].prefix))
            return kinds[i].kind;
    return COLLCALC_NCCL_HOP_OTHER;
}

/* "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read", "Ring 00 : 7 -> 0 via NVLINK" */
static int take_hop(log_line *l)
{
    const char *m = l->message;
    const char *via = strstr(m, " via ");
    if (via == NULL || strstr(m, "->") == NULL ||
        !(text_starts_with(m, "Channel ") || text_starts_with(m, "Ring ") ||
          text_starts_with(m, "Tree ") || text_starts_with(m, "NVLS") ||
          text_starts_with(m, "CollNet")))
        return 0;
    via += 5;
    collcalc_nccl_hops *hops = &l->log->hops[classify_hop(via)];
    if (hops->count == 0)
        copy_word(hops->example, sizeof hops->example, via, NULL);
    hops->count++;
    if (strstr(via, "GDRDMA") != NULL)
        hops->gdr_count++;
    add_line(hops->lines, &hops->line_count, COLLCALC_NCCL_EVIDENCE_MAX, l->line);
    return 1;
}

/* "Channel 09/24 : 0 1 2 3": the ring order of one channel of 24. */
static int take_ring_listing(log_line *l)
{
    const char *p = l->message;
    long channel = 0, total = 0;
    if (!text_starts_with(p, "Channel "))
        return 0;
    p += 8;
    if (!text_read_digits(&p, &channel) || *p++ != '/' || !text_read_digits(&p, &total) ||
        !text_starts_with(p, " : ") || strstr(p, "->") != NULL)
        return 0;
    if (total > l->log->ring_channels && total <= 4096) {
        l->log->ring_channels = (int)total;
        l->log->ring_channels_line = l->line;
    }
    return 1;
}

/* "24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p channels, ..." */
static int take_channels(log_line *l)
{
    const char *p = l->message;
    long coll = 0;
    if (!text_read_digits(&p, &coll) || !text_starts_with(p, " coll channels"))
        return 0;
    collcalc_nccl_log *log = l->log;
    log->coll_channels = (int)coll;
    log->nvls_channels = log->collnet_channels = log->p2p_channels = 0;
    long value = 0;
    for (const char *q = p; (q = strstr(q, ", ")) != NULL;) {
        q += 2;
        const char *digits = q;
        if (!text_read_digits(&digits, &value))
            continue;
        if (text_starts_with(digits, " nvls channels"))
            log->nvls_channels = (int)value;
        else if (text_starts_with(digits, " collnet channels"))
            log->collnet_channels = (int)value;
        else if (text_starts_with(digits, " p2p channels") && log->p2p_channels == 0)
            log->p2p_channels = (int)value;
    }
    log->channels_line = l->line;
    return 1;
}

static int take_trees(log_line *l)
{
    if (!text_starts_with(l->message, "Trees"))
        return 0;
    int nranks = 0;
    if (key_int(l->message, "nRanks", &nranks) && nranks > l->log->nranks) {
        l->log->nranks = nranks; /* RCCL: "Trees [0] ... comm 0x.. nRanks 08 busId c9000" */
        l->log->comm_line = l->line;
    }
    int count = 0;
    for (const char *p = l->message; (p = strchr(p, '[')) != NULL; p++)
        count++;
    if (count > l->log->trees) {
        l->log->trees = count;
        l->log->trees_line = l->line;
    }
    return 1;
}

static int take_connected(log_line *l)
{
    if (!text_starts_with(l->message, "Connected all rings"))
        return 0;
    const char *gdr = strstr(l->message, " GDR ");
    collcalc_nccl_log *log = l->log;
    if (gdr != NULL && gdr[5] == '1') {
        if (log->gdr_rings_on++ == 0)
            log->gdr_on_line = l->line;
    } else if (gdr != NULL && gdr[5] == '0') {
        if (log->gdr_rings_off++ == 0)
            log->gdr_off_line = l->line;
    }
    return 1;
}

/* "Pattern 4, crossNic 0, nChannels 1, bw 12.000000/12.000000, type PHB/PIX, sameChannels 1" */
static int take_graph(log_line *l)
{
    const char *m = l->message;
    if (!text_starts_with(m, "Pattern ") || strstr(m, "nChannels") == NULL)
        return 0;
    collcalc_nccl_log *log = l->log;
    if (log->graph_count >= COLLCALC_NCCL_GRAPHS_MAX) {
        log->graphs_dropped++;
        return 1;
    }
    collcalc_nccl_log_graph *graph = &log->graphs[log->graph_count++];
    memset(graph, 0, sizeof *graph);
    graph->line = l->line;
    const char *digits = m + 8;
    long value = 0;
    if (text_read_digits(&digits, &value))
        graph->pattern = (int)value;
    key_int(m, "crossNic", &graph->cross_nic);
    key_int(m, "nChannels", &graph->channels);
    const char *bw = strstr(m, "bw ");
    if (bw != NULL && read_number(bw + 3, &graph->bw_intra_GBps)) {
        const char *slash = strchr(bw, '/');
        if (slash != NULL)
            read_number(slash + 1, &graph->bw_inter_GBps);
    }
    const char *type = strstr(m, "type ");
    if (type != NULL) {
        copy_word(graph->type_intra, sizeof graph->type_intra, type + 5, "/,");
        const char *slash = type + 5 + strlen(graph->type_intra);
        if (*slash == '/')
            copy_word(graph->type_inter, sizeof graph->type_inter, slash + 1, ",");
    }
    return 1;
}

/* "NCCL_SOCKET_IFNAME set by environment to ^docker0,lo" (also "set to"). */
static int take_var(log_line *l)
{
    const char *m = l->message;
    if (!text_starts_with(m, "NCCL_"))
        return 0;
    const char *value = strstr(m, " set by environment to ");
    size_t skip = 23;
    if (value == NULL) {
        value = strstr(m, " set to ");
        skip = 8;
    }
    if (value == NULL)
        return 0;
    collcalc_nccl_log *log = l->log;
    char name[COLLCALC_NCCL_WORD_MAX];
    text_copy_n(name, sizeof name, m, (size_t)(value - m));
    for (int i = 0; i < log->var_count; i++)
        if (strcmp(log->vars[i].name, name) == 0)
            return 1;
    if (log->var_count >= COLLCALC_NCCL_VARS_MAX) {
        log->vars_dropped++;
        return 1;
    }
    collcalc_nccl_var *var = &log->vars[log->var_count++];
    text_copy(var->name, sizeof var->name, name);
    copy_word(var->value, sizeof var->value, value + skip, NULL);
    if (strstr(var->value, "XGMI") != NULL) /* an AMD link: RCCL's log */
        log->rccl = 1;
    size_t n = strlen(var->value);
    if (n > 1 && var->value[n - 1] == '.') /* integer parameters are echoed "to 1." */
        var->value[n - 1] = '\0';
    var->line = l->line;
    return 1;
}

static int take_bootstrap_time(log_line *l)
{
    const char *p = strstr(l->message, "Bootstrap timings total ");
    double seconds = 0.0;
    if (p == NULL || !read_number(p + 24, &seconds))
        return 0;
    if (seconds > l->log->bootstrap_s) {
        l->log->bootstrap_s = seconds;
        l->log->bootstrap_line = l->line;
    }
    return 1;
}

/* NCCL's algorithm names by enum value (src/include/nccl_common.h of NCCL
 * 2.23+: TREE, RING, COLLNET_DIRECT, COLLNET_CHAIN, NVLS, NVLS_TREE, PAT). */
static const char *const ALGORITHMS[] = {"Tree", "Ring", "CollNetDirect", "CollNetChain",
                                         "NVLS", "NVLSTree", "PAT"};
static const char *const PROTOCOLS[] = {"LL", "LL128", "Simple"};

/* The id of a printed name or number in names[0..count); the name shown into out. */
static int name_id(const char *word, const char *const *names, int count, char *out, size_t cap)
{
    if (word[0] >= '0' && word[0] <= '9' && word[1] == '\0') {
        int id = word[0] - '0';
        text_copy(out, cap, id < count ? names[id] : word);
        return id < count ? id : -1;
    }
    char a[24], b[24];
    text_squeeze(a, sizeof a, word);
    for (int i = 0; i < count; i++) {
        text_squeeze(b, sizeof b, names[i]);
        if (strcmp(a, b) == 0) {
            text_copy(out, cap, names[i]);
            return i;
        }
    }
    text_copy(out, cap, word);
    return -1;
}

static int algorithm_id(const char *word, char *out, size_t cap)
{
    return name_id(word, ALGORITHMS, (int)(sizeof ALGORITHMS / sizeof ALGORITHMS[0]), out, cap);
}

static int protocol_id(const char *word, char *out, size_t cap)
{
    return name_id(word, PROTOCOLS, (int)(sizeof PROTOCOLS / sizeof PROTOCOLS[0]), out, cap);
}

/* "AllReduce: 1048576 Bytes -> Algo 1 proto 2 time 20.500000" (2.18-2.2x),
 * "AllGather: 32768 Bytes -> Algo PAT proto SIMPLE channel{Lo..Hi}={0..1}" (2.26+). */
static int take_choice(log_line *l)
{
    const char *m = l->message, *arrow = strstr(m, " Bytes -> Algo ");
    const char *colon = strchr(m, ':');
    if (arrow == NULL || colon == NULL || colon > arrow)
        return 0;
    collcalc_nccl_log *log = l->log;
    char op[sizeof log->choices[0].op];
    text_copy_n(op, sizeof op, m, (size_t)(colon - m));
    const char *digits = colon + 1;
    while (*digits == ' ')
        digits++;
    long bytes = 0;
    if (!text_read_digits(&digits, &bytes))
        bytes = 0;
    /* Every call prints its choice: a size seen before is not kept again. */
    for (int i = 0; i < log->choice_count; i++)
        if (log->choices[i].bytes == bytes && strcmp(log->choices[i].op, op) == 0)
            return 1;
    if (log->choice_count >= COLLCALC_NCCL_CHOICES_MAX) {
        log->choices_dropped++;
        return 1;
    }
    collcalc_nccl_choice *choice = &log->choices[log->choice_count++];
    memset(choice, 0, sizeof *choice);
    text_copy(choice->op, sizeof choice->op, op);
    choice->bytes = bytes;
    choice->algorithm = choice->protocol = -1;
    choice->channel_lo = choice->channel_hi = -1;
    const char *a = arrow + 15;
    while (*a == ' ')
        a++;
    char word[24];
    copy_word(word, sizeof word, a, NULL);
    choice->algorithm = algorithm_id(word, choice->algorithm_name, sizeof choice->algorithm_name);
    const char *proto = strstr(a, "proto ");
    if (proto != NULL) {
        proto += 6;
        while (*proto == ' ')
            proto++;
        copy_word(word, sizeof word, proto, NULL);
        choice->protocol = protocol_id(word, choice->protocol_name, sizeof choice->protocol_name);
    }
    const char *time = strstr(arrow, " time ");
    if (time != NULL)
        read_number(time + 6, &choice->time_us);
    const char *channels = strstr(arrow, "={");
    if (channels != NULL) {
        const char *d = channels + 2;
        long lo = 0, hi = 0;
        if (text_read_digits(&d, &lo) && text_starts_with(d, "..")) {
            d += 2;
            if (text_read_digits(&d, &hi) && *d == '}') {
                choice->channel_lo = (int)lo;
                choice->channel_hi = (int)hi;
            }
        }
    }
    choice->line = l->line;
    return 1;
}

/* The TUNING tables: "Algorithm   |  Tree | Ring ...", "Protocol |", "Max NThreads |",
 * "AllReduce | 6.3/ 2.0 ..." rows. */
static int take_tuning_table(log_line *l)
{
    const char *m = l->message;
    if (strchr(m, '|') == NULL)
        return 0;
    while (*m == ' ')
        m++;
    static const char *const heads[] = {"Algorithm", "Protocol", "Max NThreads", "Broadcast",
                                        "Reduce", "AllGather", "ReduceScatter", "AllReduce",
                                        "SendRecv", "AllToAll", "Latency", "Bandwidth"};
    size_t head = sizeof heads / sizeof heads[0];
    for (size_t i = 0; i < sizeof heads / sizeof heads[0] && head == sizeof heads / sizeof heads[0];
         i++)
        if (text_starts_with(m, heads[i]) &&
            (m[strlen(heads[i])] == ' ' || m[strlen(heads[i])] == '|'))
            head = i;
    if (head == sizeof heads / sizeof heads[0])
        return 0;
    collcalc_nccl_log *log = l->log;
    if (log->tuning_lines++ == 0)
        log->first_tuning_line = l->line;
    /* The cells between bars: algorithm names span three protocol columns. */
    char cells[24][24];
    int count = 0;
    for (const char *bar = strchr(m, '|'); bar != NULL && count < 24;) {
        const char *next = strchr(bar + 1, '|');
        if (next == NULL)
            break;
        const char *a = bar + 1;
        while (a < next && *a == ' ')
            a++;
        size_t n = (size_t)(next - a);
        while (n > 0 && a[n - 1] == ' ')
            n--;
        text_copy_n(cells[count++], sizeof cells[0], a, n);
        bar = next;
    }
    if (head == 0) { /* Algorithm */
        log->tuning_algorithm_count = 0;
        for (int i = 0; i < count && i < 16; i++)
            text_copy(log->tuning_algorithms[log->tuning_algorithm_count++],
                      sizeof log->tuning_algorithms[0], cells[i]);
        log->tuning_protocol_count = 0;
        return 1;
    }
    if (head == 1) { /* Protocol */
        log->tuning_protocol_count = 0;
        for (int i = 0; i < count && i < 48; i++)
            text_copy(log->tuning_protocols[log->tuning_protocol_count++],
                      sizeof log->tuning_protocols[0], cells[i]);
        return 1;
    }
    if (head < 3 || log->tuning_protocol_count == 0 || log->tuning_algorithm_count == 0)
        return 1;
    int per = log->tuning_protocol_count / log->tuning_algorithm_count;
    if (per <= 0)
        return 1;
    for (int i = 0; i < count && i < log->tuning_protocol_count; i++) {
        double latency = 0.0, bw = 0.0;
        const char *slash = strchr(cells[i], '/');
        if (slash == NULL || !read_number(cells[i], &latency))
            continue;
        const char *b = slash + 1;
        while (*b == ' ')
            b++;
        if (!read_number(b, &bw))
            continue;
        if (log->tuning_cell_count >= COLLCALC_NCCL_TUNING_CELLS_MAX) {
            log->tuning_cells_dropped++;
            continue;
        }
        collcalc_nccl_tuning_cell *cell = &log->tuning_cells[log->tuning_cell_count++];
        text_copy(cell->op, sizeof cell->op, heads[head]);
        char shown[16];
        name_id(log->tuning_algorithms[i / per], ALGORITHMS,
                (int)(sizeof ALGORITHMS / sizeof ALGORITHMS[0]), shown, sizeof shown);
        text_copy(cell->algorithm, sizeof cell->algorithm, shown);
        name_id(log->tuning_protocols[i], PROTOCOLS, (int)(sizeof PROTOCOLS / sizeof PROTOCOLS[0]),
                shown, sizeof shown);
        text_copy(cell->protocol, sizeof cell->protocol, shown);
        cell->latency_us = latency;
        cell->bw_GBps = bw;
        cell->line = l->line;
    }
    return 1;
}

/* Any other line naming "nRanks N" (NET/OFI and RCCL print it in their own lines). */
static int take_any_ranks(log_line *l)
{
    int nranks = 0;
    if (strstr(l->message, "nRanks ") == NULL)
        return 0;
    if (!key_int(l->message, "nRanks", &nranks)) {
        if (l->log->numbers_too_large++ == 0)
            l->log->too_large_line = l->line;
        return 0;
    }
    if (nranks > l->log->nranks)
        l->log->nranks = nranks;
    return 1;
}

static void take_warn(log_line *l)
{
    collcalc_nccl_log *log = l->log;
    log->warn_count++;
    if (is_plugin_failure(l->message, 1))
        return;
    log->other_warn_count++;
    add_line(log->other_warn_lines, &log->other_warn_line_count, COLLCALC_NCCL_WARNS_MAX, l->line);
    if (log->first_other_warn[0] == '\0')
        text_copy(log->first_other_warn, sizeof log->first_other_warn, l->message);
}

typedef int (*recogniser)(log_line *);

static void recognise(log_line *l)
{
    static const recogniser recognisers[] = {
        take_version, take_driver,     take_comm,     take_plugin_failure, take_plugin,
        take_network, take_ib,         take_socket,   take_provider,       take_p2p_type,
        take_hop,     take_ring_listing, take_channels, take_trees,        take_connected,
        take_graph,   take_var,        take_bootstrap_time, take_choice,   take_tuning_table,
        take_mnnvl,   take_gid,        take_dmabuf,   take_any_ranks,
    };
    if (l->warn)
        take_warn(l);
    for (size_t i = 0; i < sizeof recognisers / sizeof recognisers[0]; i++)
        if (recognisers[i](l))
            return;
}

void collcalc_nccl_log_feed_line(collcalc_nccl_log *log, const char *line, size_t length,
                                 long line_number)
{
    char clean[COLLCALC_NCCL_LINE_BYTES];
    int cut = 0;
    log->lines++;
    log->last_line = line_number > 0 ? line_number : log->lines;
    text_clean(line != NULL ? line : "", line != NULL ? length : 0, clean, sizeof clean, &cut);
    if (cut)
        log->cut_lines++;
    const char *start = clean;
    while (*start == ' ' || *start == '\t')
        start++;
    if (*start == '#') /* a comment quoting NCCL is not NCCL speaking */
        return;
    const char *info = strstr(clean, "NCCL INFO ");
    const char *warn = strstr(clean, "NCCL WARN ");
    if (info == NULL && warn == NULL) {
        info = strstr(clean, "RCCL INFO ");
        warn = strstr(clean, "RCCL WARN ");
        if (info != NULL || warn != NULL)
            log->rccl = 1;
    }
    const char *mark = info;
    if (mark == NULL || (warn != NULL && warn < mark))
        mark = warn;
    if (mark == NULL) {
        /* "NCCL version 2.21.5+cuda12.4" printed bare (PyTorch, nccl-tests) */
        const char *v = strstr(clean, "NCCL version ");
        if (v == NULL)
            v = strstr(clean, "RCCL version ");
        if (v != NULL && v[13] >= '0' && v[13] <= '9' && log->version.line == 0) {
            log_line bare = {log, v, log->last_line, -1, 0};
            take_version(&bare);
        }
        return;
    }
    log->nccl_lines++;
    log_line l = {log, mark + 10, log->last_line, -1, mark == warn};
    while (*l.message == ' ')
        l.message++;
    l.host = note_host(log, clean, (size_t)(mark - clean));
    recognise(&l);
}

void collcalc_nccl_log_feed_text(collcalc_nccl_log *log, const char *text, size_t length)
{
    size_t offset = 0;
    text_line line;
    while (text != NULL && text_next_line(text, length, &offset, &line))
        collcalc_nccl_log_feed_line(log, line.start, line.length, 0);
}

/* ------------------------------------------------------------ findings */

static void add_lines(collcalc_finding *finding, const long *lines, int count)
{
    for (int i = 0; i < count; i++)
        collcalc_finding_add_line(finding, lines[i]);
}

static long hop_count(const collcalc_nccl_log *log, collcalc_nccl_hop_kind first,
                      collcalc_nccl_hop_kind last)
{
    long total = 0;
    for (int k = first; k <= (int)last; k++)
        total += log->hops[k].count;
    return total;
}

static long p2p_hops(const collcalc_nccl_log *log)
{
    return hop_count(log, COLLCALC_NCCL_HOP_P2P_IPC, COLLCALC_NCCL_HOP_P2P_OTHER);
}

static long fabric_hops(const collcalc_nccl_log *log)
{
    return log->hops[COLLCALC_NCCL_HOP_NET_IB].count + log->hops[COLLCALC_NCCL_HOP_NET_PLUGIN].count;
}

static int socket_in_use(const collcalc_nccl_log *log)
{
    return log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].count > 0 ||
           strcmp(log->network.text, "Socket") == 0;
}

/* Several nodes, or traffic seen on a network transport. */
static int multi_node(const collcalc_nccl_log *log)
{
    return log->nnodes > 1 ||
           hop_count(log, COLLCALC_NCCL_HOP_NET_IB, COLLCALC_NCCL_HOP_NET_PLUGIN) > 0;
}

/* Interface name of "[0]eth0:10.0.4.51<0>" or "eth0:10.0.4.51<0>". */
static void interface_name(const char *text, char *name, size_t cap)
{
    const char *p = text;
    if (*p == '[') {
        const char *close = strchr(p, ']');
        p = close != NULL ? close + 1 : p;
    }
    copy_word(name, cap, p, ":<");
}

static void find_socket_fallback(const collcalc_nccl_log *log, collcalc_findings *out)
{
    char causes[COLLCALC_FINDING_TEXT_MAX] = "", where[96] = "", next[COLLCALC_FINDING_TEXT_MAX];
    if (log->ib_none.line > 0)
        text_append(causes, sizeof causes, "; NET/IB found no device (line %ld)", log->ib_none.line);
    if (log->socket_if.line > 0) {
        char name[COLLCALC_NCCL_WORD_MAX];
        interface_name(log->socket_if.text, name, sizeof name);
        snprintf(where, sizeof where, " on %s (line %ld)", name, log->socket_if.line);
    }
    long hops = log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].count;
    collcalc_severity severity = multi_node(log) ? COLLCALC_SEVERITY_ERROR : COLLCALC_SEVERITY_WARNING;
    snprintf(next, sizeof next,
             "Fix the plugin: check NCCL_NET / NCCL_NET_PLUGIN%s%.40s%s and its provider "
             "(aws-ofi-nccl: FI_PROVIDER=efa, fi_info -p efa, the EFA device in the container); for "
             "InfiniBand: NCCL_IB_HCA, NCCL_IB_DISABLE, ibv_devices.",
             log->plugin_env.line > 0 ? " (set by env to " : "", log->plugin_env.text,
             log->plugin_env.line > 0 ? ")" : "");
    collcalc_finding *finding = collcalc_findings_add(
        out, severity, "net-socket-fallback", next,
        "NET/Socket in use because the network plugin failed: %.32s reported '%.70s' (line %ld)%s; "
        "NCCL fell back to TCP%s: %ld hops via NET/Socket across %d nodes.",
        log->net_plugin.line > 0 ? log->net_plugin.text : "the network plugin",
        log->plugin_fail_text, log->plugin_fail_text_line, causes, where, hops, log->nnodes);
    if (finding == NULL)
        return;
    add_lines(finding, log->plugin_fail_lines, log->plugin_fail_line_count > 4 ? 4 : log->plugin_fail_line_count);
    collcalc_finding_add_line(finding, log->socket_if.line);
    collcalc_finding_add_line(finding, log->network.line);
    collcalc_finding_add_line(finding, log->ib_none.line);
    if (log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].line_count > 0)
        collcalc_finding_add_line(finding, log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].lines[0]);
}

static void find_plugin_failed(const collcalc_nccl_log *log, collcalc_findings *out)
{
    collcalc_finding *finding = collcalc_findings_add(
        out, COLLCALC_SEVERITY_WARNING, "net-plugin-failed",
        "Check NCCL_NET / NCCL_NET_PLUGIN and the plugin's own settings (FI_PROVIDER for "
        "aws-ofi-nccl); inter-node traffic will not use the fabric until it initialises.",
        "The network plugin %.40s failed: '%.90s' (line %ld); no traffic over it was seen.",
        log->net_plugin.line > 0 ? log->net_plugin.text : "(unnamed)", log->plugin_fail_text,
        log->plugin_fail_text_line);
    if (finding != NULL)
        add_lines(finding, log->plugin_fail_lines, log->plugin_fail_line_count);
}

/* The interfaces of "[0]ibp5s0:<0> [1]ibp70s0:<0>" that are IPoIB (names "ib..."), listed. */
static int ipoib_interfaces(const char *text, char *list, size_t cap)
{
    int count = 0;
    list[0] = '\0';
    for (const char *p = strchr(text, ']'); p != NULL; p = strchr(p + 1, ']')) {
        char name[COLLCALC_NCCL_WORD_MAX];
        copy_word(name, sizeof name, p + 1, ":<");
        if (text_starts_with(name, "ib")) {
            text_append(list, cap, "%s%s", count > 0 ? ", " : "", name);
            count++;
        }
    }
    if (count == 0 && text[0] != '[') {
        char name[COLLCALC_NCCL_WORD_MAX];
        copy_word(name, sizeof name, text, ":<");
        if (text_starts_with(name, "ib")) {
            text_copy(list, cap, name);
            count = 1;
        }
    }
    return count;
}

static void find_socket_other(const collcalc_nccl_log *log, collcalc_findings *out)
{
    char ipoib[96] = "";
    if (log->socket_if.line > 0 && ipoib_interfaces(log->socket_if.text, ipoib, sizeof ipoib) > 0) {
        collcalc_finding *finding = collcalc_findings_add(
            out, COLLCALC_SEVERITY_ERROR, "ib-socket-fallback",
            "Make libibverbs load: install rdma-core (libibverbs.so.1 and the mlx5 provider) in the "
            "container, expose /dev/infiniband, check NCCL_IB_HCA and that NCCL_IB_DISABLE is unset; "
            "then NET/IB replaces NET/Socket.",
            "InfiniBand fell back to sockets: %sNCCL runs NET/Socket (TCP) over %s (line %ld), the "
            "IPoIB interfaces of the InfiniBand NICs: a few GB/s instead of RDMA's 25-50 GB/s per "
            "NIC.",
            log->verbs_missing.line > 0 ? "libibverbs could not be loaded, so " : "", ipoib,
            log->socket_if.line);
        collcalc_finding_add_line(finding, log->verbs_missing.line);
        collcalc_finding_add_line(finding, log->ib_none.line);
        collcalc_finding_add_line(finding, log->socket_if.line);
        add_lines(finding, log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].lines,
                  log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].line_count > 4
                      ? 4
                      : log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].line_count);
        return;
    }
    char causes[COLLCALC_FINDING_TEXT_MAX] = "";
    const char *disable = collcalc_nccl_log_var(log, "NCCL_IB_DISABLE");
    if (disable != NULL && strcmp(disable, "0") != 0)
        text_append(causes, sizeof causes, "; NCCL_IB_DISABLE=%s is set", disable);
    if (log->verbs_missing.line > 0)
        text_append(causes, sizeof causes, "; libibverbs could not be loaded (line %ld)",
               log->verbs_missing.line);
    if (log->ib_none.line > 0)
        text_append(causes, sizeof causes, "; NET/IB found no device (line %ld)", log->ib_none.line);
    collcalc_severity severity =
        log->verbs_missing.line > 0 ? COLLCALC_SEVERITY_ERROR : COLLCALC_SEVERITY_WARNING;
    collcalc_finding *finding = collcalc_findings_add(
        out, severity, log->verbs_missing.line > 0 ? "ib-verbs-missing" : "net-socket",
        "If the nodes have InfiniBand/RoCE or EFA: unset NCCL_IB_DISABLE, install rdma-core "
        "(libibverbs) in the container and expose /dev/infiniband, check NCCL_IB_HCA; for EFA load "
        "aws-ofi-nccl (NCCL_NET_PLUGIN).",
        "Inter-node traffic uses NET/Socket (TCP): %ld hops via NET/Socket over %d nodes%s; expect "
        "a few GB/s per node instead of 25-50 GB/s per NIC.",
        log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].count, log->nnodes,
        causes[0] != '\0' ? causes : "; no InfiniBand/RoCE device or network plugin was used");
    if (finding == NULL)
        return;
    collcalc_finding_add_line(finding, log->verbs_missing.line);
    collcalc_finding_add_line(finding, log->ib_none.line);
    collcalc_finding_add_line(finding, log->socket_if.line);
    add_lines(finding, log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].lines,
              log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].line_count);
}

static void find_network(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->plugin_failed && socket_in_use(log))
        find_socket_fallback(log, out);
    else if (log->plugin_failed)
        find_plugin_failed(log, out);
    else if (log->hops[COLLCALC_NCCL_HOP_NET_SOCKET].count > 0 ||
             (strcmp(log->network.text, "Socket") == 0 && log->nnodes > 1) ||
             (log->socket_if.line > 0 && (log->verbs_missing.line > 0 || log->ib_none.line > 0)))
        find_socket_other(log, out);
}

static void graph_summary(const collcalc_nccl_log *log, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (log->graph_count == 0)
        return;
    const collcalc_nccl_log_graph *g = &log->graphs[0];
    snprintf(buf, cap, "; the graph search found %s/%s paths at %.1f GB/s with %d channel%s (line %ld)",
             g->type_intra, g->type_inter, g->bw_intra_GBps, g->channels, g->channels == 1 ? "" : "s",
             g->line);
}

static void find_p2p_unavailable(const collcalc_nccl_log *log, collcalc_findings *out)
{
    const collcalc_nccl_hops *shm = &log->hops[COLLCALC_NCCL_HOP_SHM];
    int local_off = log->all_direct_p2p == 0 && log->local_ranks > 1;
    if (shm->count == 0 && !local_off)
        return;
    char graph[160], vars[96] = "";
    graph_summary(log, graph, sizeof graph);
    const char *disable = collcalc_nccl_log_var(log, "NCCL_P2P_DISABLE");
    const char *level = collcalc_nccl_log_var(log, "NCCL_P2P_LEVEL");
    if (disable != NULL)
        text_append(vars, sizeof vars, "; NCCL_P2P_DISABLE=%s is set", disable);
    if (level != NULL)
        text_append(vars, sizeof vars, "; NCCL_P2P_LEVEL=%s is set", level);
    char shm_text[160] = "";
    if (shm->count > 0)
        snprintf(shm_text, sizeof shm_text, ": %ld hops go via %s (host memory)", shm->count,
                 shm->example);
    collcalc_finding *finding = collcalc_findings_add(
        out, COLLCALC_SEVERITY_WARNING, "p2p-unavailable",
        "Make every GPU of the node visible to each rank (one container/pod per node, "
        "NVIDIA_VISIBLE_DEVICES), check NCCL_P2P_DISABLE is unset and NCCL_P2P_LEVEL is not below the "
        "topo distance, seat NVLink bridges (nvidia-smi topo -m); VMs without PCIe P2P stay on SHM.",
        "P2P unavailable between GPUs of one node%s%s%s%s (%d local ranks).", shm_text,
        log->all_direct_p2p == 0 ? "; NCCL reports isAllDirectP2p 0" : "", graph, vars,
        log->local_ranks);
    if (finding == NULL)
        return;
    collcalc_finding_add_line(finding, log->p2p_type.line);
    if (log->graph_count > 0)
        collcalc_finding_add_line(finding, log->graphs[0].line);
    add_lines(finding, shm->lines, shm->line_count);
}

static int graph_has_nvlink(const collcalc_nccl_log *log)
{
    for (int i = 0; i < log->graph_count; i++)
        if (strcmp(log->graphs[i].type_intra, "NVL") == 0)
            return 1;
    return 0;
}

static void find_p2p_over_pcie(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (p2p_hops(log) == 0 || log->graph_count == 0 || graph_has_nvlink(log))
        return;
    const collcalc_nccl_log_graph *g = &log->graphs[0];
    if (strcmp(g->type_intra, "LOC") == 0 || g->type_intra[0] == '\0')
        return;
    collcalc_finding *finding = collcalc_findings_add(
        out, COLLCALC_SEVERITY_INFO, "p2p-over-pcie",
        "Expected on PCIe-only machines; where NVLink exists, check the bridges and nvidia-smi topo "
        "-m.",
        "P2P goes over PCIe, not NVLink: the graph search found %s paths at %.1f GB/s (line %ld) "
        "and %ld hops use P2P.",
        g->type_intra, g->bw_intra_GBps, g->line, p2p_hops(log));
    collcalc_finding_add_line(finding, g->line);
}

static int bad_interface(const char *name)
{
    static const char *const bad[] = {"docker", "virbr", "veth", "cni", "flannel", "cali", "br-"};
    if (strcmp(name, "lo") == 0)
        return 1;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (text_starts_with(name, bad[i]))
            return 1;
    return 0;
}

static void check_interface(const collcalc_nccl_log *log, collcalc_findings *out,
                            const collcalc_nccl_fact *fact, const char *what)
{
    if (fact->line == 0)
        return;
    char name[COLLCALC_NCCL_WORD_MAX];
    interface_name(fact->text, name, sizeof name);
    const char *ifname = collcalc_nccl_log_var(log, "NCCL_SOCKET_IFNAME");
    char next[COLLCALC_FINDING_TEXT_MAX];
    snprintf(next, sizeof next,
             "Set NCCL_SOCKET_IFNAME to the interface of the data network (e.g. =eth0, or ^docker,lo "
             "to exclude)%s%s%s.",
             ifname != NULL ? "; it is now " : "", ifname != NULL ? ifname : "",
             ifname != NULL ? "" : "; it is not set in the log");
    collcalc_finding *finding = NULL;
    if (bad_interface(name))
        finding = collcalc_findings_add(
            out, multi_node(log) ? COLLCALC_SEVERITY_WARNING : COLLCALC_SEVERITY_INFO,
            "socket-ifname", next,
            "%s uses %s (line %ld): a loopback or container bridge interface, not a network between "
            "hosts.",
            what, name, fact->line);
    else if (text_starts_with(name, "bond"))
        finding = collcalc_findings_add(
            out, COLLCALC_SEVERITY_INFO, "socket-ifname-bond", next,
            "%s uses the bond %s (line %ld): make sure it is the data network, not a storage or "
            "management bond.",
            what, name, fact->line);
    collcalc_finding_add_line(finding, fact->line);
}

static void find_interfaces(const collcalc_nccl_log *log, collcalc_findings *out)
{
    check_interface(log, out, &log->socket_if, "NET/Socket");
    check_interface(log, out, &log->bootstrap_if, "Bootstrap");
    if (log->ib_devices.line > 0 && strstr(log->ib_devices.text, "bond") != NULL) {
        collcalc_finding *finding = collcalc_findings_add(
            out, COLLCALC_SEVERITY_INFO, "ib-bond",
            "If the bond is the storage or management port, exclude it: NCCL_IB_HCA=^=mlx5_bond_0 "
            "(or list the compute HCAs: NCCL_IB_HCA==mlx5_0:1,...).",
            "NET/IB uses a bonded HCA: %.120s (line %ld).", log->ib_devices.text,
            log->ib_devices.line);
        collcalc_finding_add_line(finding, log->ib_devices.line);
    }
}

static void find_gdr(const collcalc_nccl_log *log, collcalc_findings *out)
{
    long fabric = fabric_hops(log);
    long gdr_hops = log->hops[COLLCALC_NCCL_HOP_NET_IB].gdr_count +
                    log->hops[COLLCALC_NCCL_HOP_NET_PLUGIN].gdr_count;
    if ((fabric == 0 && log->gdr_disabled.line == 0) || log->gdr_rings_on > 0 || gdr_hops > 0)
        return;
    long line = log->gdr_off_line > 0 ? log->gdr_off_line : log->gdr_disabled.line;
    const collcalc_nccl_hops *net = log->hops[COLLCALC_NCCL_HOP_NET_IB].count > 0
                                        ? &log->hops[COLLCALC_NCCL_HOP_NET_IB]
                                        : &log->hops[COLLCALC_NCCL_HOP_NET_PLUGIN];
    int no_module = strstr(log->gdr_disabled.text, "no module") != NULL;
    const char *level = collcalc_nccl_log_var(log, "NCCL_NET_GDR_LEVEL");
    char why[COLLCALC_FINDING_TEXT_MAX] = "";
    if (log->gdr_disabled.line > 0)
        text_append(why, sizeof why, "; NCCL says '%.90s' (line %ld)", log->gdr_disabled.text,
                    log->gdr_disabled.line);
    if (fabric > 0)
        text_append(why, sizeof why, "; %ld hops go via %s without GDRDMA (line %ld)", fabric,
                    net->example, net->line_count > 0 ? net->lines[0] : 0L);
    if (level != NULL)
        text_append(why, sizeof why, "; NCCL_NET_GDR_LEVEL=%s is set", level);
    char off[96] = "";
    if (log->gdr_off_line > 0)
        snprintf(off, sizeof off, " (line %ld) while %ld hops cross the network fabric",
                 log->gdr_off_line, fabric);
    collcalc_finding *finding = collcalc_findings_add(
        out, fabric > 0 ? COLLCALC_SEVERITY_WARNING : COLLCALC_SEVERITY_INFO, "gdr-off",
        no_module ? "Load the GPUDirect RDMA module (modprobe nvidia-peermem) or use DMA-BUF "
                    "(NCCL_DMABUF_ENABLE=1 with the open kernel driver and Linux 5.12+); then check "
                    "NCCL_NET_GDR_LEVEL against the GPU-NIC distance in nvidia-smi topo -m."
                  : "Check GPUDirect RDMA support (nvidia-peermem loaded, or DMA-BUF), "
                    "NCCL_NET_GDR_LEVEL against the GPU-NIC distance in nvidia-smi topo -m (PIX/PXB "
                    "allow it by default), and NCCL_NET_GDR_READ.",
        "GPUDirect RDMA is %s%s%s: NIC traffic is staged through host memory%s.",
        log->gdr_off_line > 0 ? "off" : "not used", off, log->gdr_off_line > 0 ? "" : why,
        line > 0 ? "" : " (no hop says GDRDMA)");
    collcalc_finding_add_line(finding, log->gdr_off_line);
    collcalc_finding_add_line(finding, log->gdr_disabled.line);
    if (net->line_count > 0)
        collcalc_finding_add_line(finding, net->lines[0]);
}

static void find_channels(const collcalc_nccl_log *log, collcalc_findings *out)
{
    int channels = log->coll_channels > 0 ? log->coll_channels : log->ring_channels;
    long line = log->coll_channels > 0 ? log->channels_line : log->ring_channels_line;
    int nvlink = graph_has_nvlink(log) ||
                 (log->all_direct_p2p == 1 && p2p_hops(log) > 0 && log->local_ranks >= 2);
    const char *cap = collcalc_nccl_log_var(log, "NCCL_MAX_NCHANNELS");
    if (cap == NULL)
        cap = collcalc_nccl_log_var(log, "NCCL_MAX_CTAS");
    if (channels == 0 || !nvlink || channels >= FEW_NVLINK_CHANNELS)
        return;
    collcalc_finding *finding = collcalc_findings_add(
        out, COLLCALC_SEVERITY_WARNING, "few-channels",
        "Check NCCL_MIN_NCHANNELS / NCCL_MAX_NCHANNELS (and NCCL_MAX_CTAS); on NVSwitch systems NCCL "
        "normally opens 16 or more channels.",
        "Only %d collective channel%s over NVLink (line %ld)%s%s: one channel drives one SM and a "
        "share of the links, so large collectives will not reach the NVLink bandwidth.",
        channels, channels == 1 ? "" : "s", line, cap != NULL ? "; capped by " : "",
        cap != NULL ? cap : "");
    collcalc_finding_add_line(finding, line);
}

static void find_nodes_vs_hosts(const collcalc_nccl_log *log, collcalc_findings *out)
{
    for (int h = 0; h < log->host_count; h++) {
        int ranks = 0, local = 0;
        long first = 0;
        char list[96] = "";
        for (int i = 0; i < log->rank_count; i++) {
            if (log->ranks[i].host != h)
                continue;
            text_append(list, sizeof list, "%s%d", ranks > 0 ? ", " : "", log->ranks[i].rank);
            if (ranks++ == 0 || log->ranks[i].local_ranks < local) {
                local = log->ranks[i].local_ranks;
                first = log->ranks[i].line;
            }
        }
        if (ranks < 2 || local >= ranks)
            continue;
        collcalc_finding *finding = collcalc_findings_add(
            out, COLLCALC_SEVERITY_WARNING, "nodes-vs-hosts",
            "NCCL groups ranks by host hash (hostname and boot id, or NCCL_HOSTID): run the ranks of "
            "one machine in one container/pod, or give them the same NCCL_HOSTID.",
            "Host %s runs ranks %s but NCCL counted nNodes %d with localRanks %d (line %ld): ranks of "
            "one host are treated as separate nodes, so their traffic goes over the network.",
            log->hosts[h], list, log->nnodes, local, first);
        collcalc_finding_add_line(finding, first);
        return;
    }
}

static void find_bootstrap(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->bootstrap_s <= SLOW_BOOTSTRAP_S)
        return;
    collcalc_finding *finding = collcalc_findings_add(
        out, COLLCALC_SEVERITY_WARNING, "slow-bootstrap",
        "Start all ranks together (launcher, pod scheduling) and check the bootstrap interface "
        "(NCCL_SOCKET_IFNAME) is reachable between hosts, without a firewall in the way.",
        "Bootstrap took %.1f s (line %ld, over %d s): ranks waited for each other or for the "
        "bootstrap network.",
        log->bootstrap_s, log->bootstrap_line, (int)SLOW_BOOTSTRAP_S);
    collcalc_finding_add_line(finding, log->bootstrap_line);
}

static void find_warnings(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->other_warn_count == 0)
        return;
    collcalc_finding *finding = collcalc_findings_add(
        out, COLLCALC_SEVERITY_WARNING, "nccl-warn", "Read the WARN lines; they name the failing call.",
        "%ld NCCL WARN line%s; first: '%.160s'.", log->other_warn_count,
        log->other_warn_count == 1 ? "" : "s", log->first_other_warn);
    add_lines(finding, log->other_warn_lines, log->other_warn_line_count);
}


static void find_tuning(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->tuning_lines == 0 && log->choice_count == 0)
        return;
    /* Choices, runs of the same algorithm and protocol folded: "AllGather 16 B..16 KiB Ring/LL". */
    char choices[COLLCALC_FINDING_TEXT_MAX] = "";
    for (int i = 0; i < log->choice_count;) {
        const collcalc_nccl_choice *c = &log->choices[i];
        int j = i;
        while (j + 1 < log->choice_count && strcmp(log->choices[j + 1].op, c->op) == 0 &&
               strcmp(log->choices[j + 1].algorithm_name, c->algorithm_name) == 0 &&
               strcmp(log->choices[j + 1].protocol_name, c->protocol_name) == 0)
            j++;
        char a[24], b[24];
        text_format_size(a, sizeof a, c->bytes);
        text_format_size(b, sizeof b, log->choices[j].bytes);
        if (j > i)
            text_append(choices, sizeof choices, "%s%s %s..%s %s/%s", choices[0] ? "; " : "",
                        c->op, a, b, c->algorithm_name, c->protocol_name);
        else
            text_append(choices, sizeof choices, "%s%s %s %s/%s", choices[0] ? "; " : "", c->op,
                        a, c->algorithm_name, c->protocol_name);
        i = j + 1;
    }
    /* The table's non-zero cells: "AllGather Ring/LL 11.6 us 2.4 GB/s". */
    char cells[COLLCALC_FINDING_TEXT_MAX] = "";
    for (int i = 0; i < log->tuning_cell_count; i++) {
        const collcalc_nccl_tuning_cell *c = &log->tuning_cells[i];
        if (c->latency_us == 0.0 && c->bw_GBps == 0.0)
            continue;
        text_append(cells, sizeof cells, "%s%s %s/%s %.1f us %.1f GB/s", cells[0] ? ", " : "",
                    c->op, c->algorithm, c->protocol, c->latency_us, c->bw_GBps);
        if (strlen(cells) > 200) {
            text_append(cells, sizeof cells, ", ...");
            break;
        }
    }
    collcalc_finding *finding = collcalc_findings_add(
        out, COLLCALC_SEVERITY_INFO, "nccl-tuning", NULL,
        "NCCL's tuning: %d per-size choice%s%s%s; %ld table line%s.",
        log->choice_count + (int)log->choices_dropped,
        log->choice_count + log->choices_dropped == 1 ? "" : "s", choices[0] ? ": " : "", choices,
        log->tuning_lines, log->tuning_lines == 1 ? "" : "s");
    collcalc_finding_add_line(finding, log->first_tuning_line);
    if (log->choice_count > 0)
        collcalc_finding_add_line(finding, log->choices[0].line);
    if (cells[0] == '\0')
        return;
    finding = collcalc_findings_add(out, COLLCALC_SEVERITY_INFO, "nccl-tuning-table", NULL,
                                    "NCCL's latency/bandwidth table (non-zero cells): %s.", cells);
    collcalc_finding_add_line(finding, log->first_tuning_line);
}

static void find_gids(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->gid_count == 0)
        return;
    int link_local = -1;
    for (int i = 0; i < log->gid_count; i++)
        if (text_starts_with(log->gids[i].text, "80FE") || text_starts_with(log->gids[i].text, "fe80") ||
            text_starts_with(log->gids[i].text, "FE80"))
            link_local = i;
    if (log->gid_count < 2 && link_local < 0)
        return;
    char list[160] = "";
    for (int i = 0; i < log->gid_count; i++)
        text_append(list, sizeof list, "%sGID %d (%.24s, line %ld)", i > 0 ? " and " : "",
                    log->gids[i].index, log->gids[i].text, log->gids[i].line);
    collcalc_finding *finding = collcalc_findings_add(
        out, COLLCALC_SEVERITY_WARNING, "mixed-gid",
        "Set NCCL_IB_GID_INDEX on every node to the RoCE v2 IPv4 GID (often 3; list them with "
        "show_gids or ibv_devinfo -v) and check the NIC that differs (a re-plugged cable or a port "
        "without its IP address falls back to the link-local GID 0).",
        log->gid_count > 1 ? "RoCE GID indices differ between NICs or ranks: %s; NICs on different "
                             "GIDs (RoCE v1 / link-local vs RoCE v2) run far below line rate or "
                             "not at all."
                           : "RoCE uses a link-local GID: %s; a link-local (fe80::) GID is not "
                             "routable and usually means the port has no IP address.",
        list);
    for (int i = 0; i < log->gid_count; i++)
        collcalc_finding_add_line(finding, log->gids[i].line);
}

static void find_ofi(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->ofi_provider.line == 0)
        return;
    long gdr = log->hops[COLLCALC_NCCL_HOP_NET_PLUGIN].gdr_count;
    char nics[48] = "";
    if (log->nics > 0)
        snprintf(nics, sizeof nics, " with %d NIC%s", log->nics, log->nics == 1 ? "" : "s");
    collcalc_finding *finding = collcalc_findings_add(
        out, log->dmabuf_off.line > 0 && gdr == 0 ? COLLCALC_SEVERITY_WARNING : COLLCALC_SEVERITY_INFO,
        log->dmabuf_off.line > 0 ? "ofi-dmabuf-off" : "ofi-provider",
        log->dmabuf_off.line > 0
            ? "For EFA: use a kernel, driver and aws-ofi-nccl with DMA-BUF (or load nvidia-peermem) "
              "so GPU memory is registered directly; check FI_EFA_USE_DEVICE_RDMA=1 on p4d/p5."
            : NULL,
        "NET/OFI (libfabric) provider %s%s (line %ld)%s%.100s%s.", log->ofi_provider.text, nics,
        log->ofi_provider.line, log->dmabuf_off.line > 0 ? "; DMA-BUF is off: '" : "",
        log->dmabuf_off.text, log->dmabuf_off.line > 0 ? "'" : "");
    collcalc_finding_add_line(finding, log->ofi_provider.line);
    collcalc_finding_add_line(finding, log->dmabuf_off.line);
}

static void find_mnnvl(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->mnnvl_gpus == 0)
        return;
    int bad = log->mnnvl_domains > 1 || log->mnnvl_not_ready > 0;
    const char *nvls = collcalc_nccl_log_var(log, "NCCL_NVLS_ENABLE");
    collcalc_finding *finding = collcalc_findings_add(
        out, bad ? COLLCALC_SEVERITY_WARNING : COLLCALC_SEVERITY_INFO,
        bad ? "mnnvl-domain" : "mnnvl",
        bad ? "Check the IMEX service and the fabric manager on every tray (nvidia-smi -q: "
              "Fabric State Completed, the same Cluster UUID and Clique Id) before NVLS/MNNVL runs."
            : (nvls != NULL && strcmp(nvls, "0") != 0
                   ? "NVLS is asked for (NCCL_NVLS_ENABLE): it needs the IMEX channel devices "
                     "(/dev/nvidia-caps-imex-channels) and cuMem (NCCL_CUMEM_ENABLE=1) in the "
                     "container; a WARN naming NVLS or cuMulticast means one is missing."
                   : NULL),
        "Multi-node NVLink: %d GPU line%s report the fabric (%s)%s%s (line %ld).", log->mnnvl_gpus,
        log->mnnvl_gpus == 1 ? "" : "s", log->mnnvl_domain,
        log->mnnvl_domains > 1 ? "; GPUs report different fabric UUIDs or cliques" : "; one NVLink domain",
        log->mnnvl_not_ready > 0 ? "; some are not in state 3 (completed)" : "", log->mnnvl_line);
    collcalc_finding_add_line(finding, log->mnnvl_line);
}

static void find_nvls(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->channels_line == 0 || log->nvls_channels > 0)
        return;
    const char *algo = collcalc_nccl_log_var(log, "NCCL_ALGO");
    const char *enable = collcalc_nccl_log_var(log, "NCCL_NVLS_ENABLE");
    char squeezed[COLLCALC_NCCL_WORD_MAX];
    text_squeeze(squeezed, sizeof squeezed, algo != NULL ? algo : "");
    int asked = (algo != NULL && strstr(squeezed, "nvls") != NULL && algo[0] != '^') ||
                (enable != NULL && strcmp(enable, "0") != 0);
    if (enable != NULL && strcmp(enable, "0") == 0)
        return;
    if (!asked)
        return;
    collcalc_finding *finding = collcalc_findings_add(
        out, COLLCALC_SEVERITY_WARNING, "nvls-zero-channels",
        "NVLS needs NVSwitch with NVLink SHARP, the fabric manager running, a driver with "
        "multicast (nvidia-smi -q | grep -i multicast), cuMem (NCCL_CUMEM_ENABLE not 0) and all "
        "GPUs of the node in the communicator; without it all-reduce runs Ring/Tree.",
        "%d coll channels but 0 NVLS channels (line %ld) although %s%.60s asks for NVLS: NCCL "
        "could not set NVLS up on this machine.",
        log->coll_channels, log->channels_line, algo != NULL ? "NCCL_ALGO=" : "NCCL_NVLS_ENABLE=",
        algo != NULL ? algo : enable);
    collcalc_finding_add_line(finding, log->channels_line);
}

/* What the environment set, as NCCL echoed it; the settings that cost most, said first. */
static void find_vars(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->var_count == 0)
        return;
    static const struct {
        const char *name, *bad, *why, *next;
    } costly[] = {
        {"NCCL_P2P_DISABLE", "1", "GPUs of a node do not use P2P (NVLink or PCIe): traffic goes "
                                  "through host memory (SHM)",
         "Unset NCCL_P2P_DISABLE (if P2P hangs, fix ACS/IOMMU on the PCIe switches instead)."},
        {"NCCL_SHM_DISABLE", "1", "the host-memory path between GPUs of a node is off",
         "Unset NCCL_SHM_DISABLE unless P2P covers every pair."},
        {"NCCL_IB_DISABLE", "1", "InfiniBand/RoCE is off: traffic between nodes goes over TCP "
                                 "sockets",
         "Unset NCCL_IB_DISABLE on machines with InfiniBand/RoCE NICs."},
        {"NCCL_NVLS_ENABLE", "0", "NVLink SHARP is off", "Unset NCCL_NVLS_ENABLE on NVSwitch "
                                                         "systems to let NCCL use NVLS."},
        {"NCCL_NET_GDR_LEVEL", "LOC", "GPUDirect RDMA is off", "Unset NCCL_NET_GDR_LEVEL or set "
                                                              "it to PHB/SYS."},
        {"NCCL_NET_GDR_LEVEL", "0", "GPUDirect RDMA is off", "Unset NCCL_NET_GDR_LEVEL or set "
                                                            "it to PHB/SYS."},
    };
    for (size_t i = 0; i < sizeof costly / sizeof costly[0]; i++) {
        const char *value = collcalc_nccl_log_var(log, costly[i].name);
        if (value == NULL || strcmp(value, costly[i].bad) != 0)
            continue;
        long line = 0;
        for (int k = 0; k < log->var_count; k++)
            if (strcmp(log->vars[k].name, costly[i].name) == 0)
                line = log->vars[k].line;
        collcalc_finding *finding = collcalc_findings_add(
            out, COLLCALC_SEVERITY_WARNING, "env-costly", costly[i].next,
            "%s set by environment to %s (line %ld): %s.", costly[i].name, value, line,
            costly[i].why);
        collcalc_finding_add_line(finding, line);
    }
    char list[COLLCALC_FINDING_TEXT_MAX] = "";
    for (int i = 0; i < log->var_count; i++)
        text_append(list, sizeof list, "%s%s=%s", i > 0 ? ", " : "", log->vars[i].name,
                    log->vars[i].value);
    collcalc_finding *finding = collcalc_findings_add(
        out, COLLCALC_SEVERITY_INFO, "env", NULL, "Environment NCCL echoed (%d variable%s%s): %s.",
        log->var_count + (int)log->vars_dropped, log->var_count + log->vars_dropped == 1 ? "" : "s",
        log->vars_dropped > 0 ? ", the first listed" : "", list);
    for (int i = 0; i < log->var_count && i < COLLCALC_FINDING_LINES_MAX; i++)
        collcalc_finding_add_line(finding, log->vars[i].line);
}

static void find_limits(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->hosts_dropped > 0 || log->host_total_capped)
        collcalc_findings_add(out, COLLCALC_SEVERITY_INFO, "hosts-many", NULL,
                              "%s%ld distinct hosts in the log; the names of the first %d are kept.",
                              log->host_total_capped ? "more than " : "", log->host_total,
                              COLLCALC_NCCL_HOSTS_MAX);
    if (log->numbers_too_large > 0) {
        collcalc_finding *finding = collcalc_findings_add(
            out, COLLCALC_SEVERITY_WARNING, "number-too-large", "Check the log is not corrupted.",
            "%ld line%s a count too large to be one NCCL prints (first: line %ld); it was "
            "not read.",
            log->numbers_too_large, log->numbers_too_large == 1 ? " gives" : "s give",
            log->too_large_line);
        collcalc_finding_add_line(finding, log->too_large_line);
    }
}

static void hop_summary(const collcalc_nccl_log *log, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int k = 0; k < COLLCALC_NCCL_HOP_KINDS; k++)
        if (log->hops[k].count > 0)
            text_append(buf, cap, "%s%ld via %s", buf[0] != '\0' ? ", " : "", log->hops[k].count,
                   log->hops[k].example);
}

static void find_summary(const collcalc_nccl_log *log, collcalc_findings *out)
{
    char text[COLLCALC_FINDING_TEXT_MAX] = "", hops[160];
    if (log->version.line > 0)
        text_append(text, sizeof text, "%s %s", log->rccl ? "RCCL" : "NCCL", log->version.text);
    else if (log->rccl)
        text_append(text, sizeof text, "RCCL (version not in the log)");
    else
        text_append(text, sizeof text, "NCCL version not in the log");
    if (log->cuda_driver.line > 0)
        text_append(text, sizeof text, " (CUDA driver %s)", log->cuda_driver.text);
    if (log->nnodes > 0)
        text_append(text, sizeof text, "; %d ranks on %d node%s, %d local", log->nranks, log->nnodes,
               log->nnodes == 1 ? "" : "s", log->local_ranks);
    else if (log->nranks > 0)
        text_append(text, sizeof text, "; %d ranks", log->nranks);
    text_append(text, sizeof text, "; %s%ld host%s seen", log->host_total_capped ? "more than " : "",
                log->host_total, log->host_total == 1 ? "" : "s");
    if (log->network.line > 0)
        text_append(text, sizeof text, "; network %s", log->network.text);
    if (log->coll_channels > 0 || log->ring_channels > 0)
        text_append(text, sizeof text, "; %d channels",
               log->coll_channels > 0 ? log->coll_channels : log->ring_channels);
    if (log->trees > 0)
        text_append(text, sizeof text, "; %d tree%s", log->trees, log->trees == 1 ? "" : "s");
    if (log->all_direct_p2p >= 0)
        text_append(text, sizeof text, "; isAllDirectP2p %d", log->all_direct_p2p);
    hop_summary(log, hops, sizeof hops);
    if (hops[0] != '\0')
        text_append(text, sizeof text, "; hops: %s", hops);
    collcalc_finding *finding =
        collcalc_findings_add(out, COLLCALC_SEVERITY_INFO, "nccl-summary", NULL, "%s.", text);
    collcalc_finding_add_line(finding, log->version.line);
    collcalc_finding_add_line(finding, log->comm_line);
    collcalc_finding_add_line(finding, log->network.line);
    collcalc_finding_add_line(finding, log->channels_line);
}

static void find_cut_lines(const collcalc_nccl_log *log, collcalc_findings *out)
{
    if (log->cut_lines == 0)
        return;
    collcalc_findings_add(out, COLLCALC_SEVERITY_INFO, "long-lines", NULL,
                          "%ld lines were longer than %d bytes; only their start was read.",
                          log->cut_lines, COLLCALC_NCCL_LINE_BYTES);
}

collcalc_status collcalc_nccl_log_finish(const collcalc_nccl_log *log, collcalc_findings *out,
                                         collcalc_diag *diag)
{
    collcalc_findings_init(out);
    if (log->nccl_lines == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "not an NCCL_DEBUG log: no 'NCCL INFO' or 'NCCL WARN' line in %ld "
                                  "lines (run with NCCL_DEBUG=INFO and keep the "
                                  "'host:pid:tid [dev] NCCL INFO ...' lines)",
                                  log->lines);
    find_network(log, out);
    find_p2p_unavailable(log, out);
    find_p2p_over_pcie(log, out);
    find_interfaces(log, out);
    find_gdr(log, out);
    find_channels(log, out);
    find_nodes_vs_hosts(log, out);
    find_bootstrap(log, out);
    find_warnings(log, out);
    find_tuning(log, out);
    find_gids(log, out);
    find_ofi(log, out);
    find_mnnvl(log, out);
    find_nvls(log, out);
    find_vars(log, out);
    find_limits(log, out);
    find_cut_lines(log, out);
    find_summary(log, out);
    collcalc_findings_sort(out);
    return COLLCALC_OK;
}
