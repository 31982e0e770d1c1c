/* Platform presets: what a node (or NVLink domain) of a known system looks
 * like — GPUs per node, the links inside and between nodes, NICs per node,
 * in-switch reduction — loaded from a JSON table such as data/platforms.json. */
#ifndef COLLCALC_PLATFORMS_H
#define COLLCALC_PLATFORMS_H

#include <stdbool.h>
#include <stddef.h>

#include "collcalc/links.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Most platforms one table may hold. */
#define COLLCALC_PLATFORMS_MAX 256

/* GPU generation as NCCL's tuning tables key it (compute capability x 10:
 * the enum value is the SM number, so `arch >= COLLCALC_GPU_ARCH_SM90` reads
 * "Hopper or newer"). UNKNOWN when a user's table does not say. */
typedef enum {
    COLLCALC_GPU_ARCH_UNKNOWN = 0,
    COLLCALC_GPU_ARCH_SM70 = 70,  /* Volta V100 */
    COLLCALC_GPU_ARCH_SM75 = 75,  /* Turing T4, RTX 20xx */
    COLLCALC_GPU_ARCH_SM80 = 80,  /* Ampere A100 */
    COLLCALC_GPU_ARCH_SM86 = 86,  /* Ampere A10, A40, RTX 30xx */
    COLLCALC_GPU_ARCH_SM89 = 89,  /* Ada L4, L40S, RTX 40xx */
    COLLCALC_GPU_ARCH_SM90 = 90,   /* Hopper H100, H200, H800, H20 */
    COLLCALC_GPU_ARCH_SM100 = 100, /* Blackwell B200, GB200 */
    COLLCALC_GPU_ARCH_SM103 = 103, /* Blackwell Ultra B300, GB300 */
    COLLCALC_GPU_ARCH_SM120 = 120, /* Blackwell RTX PRO 6000, RTX 50xx */
    /* AMD Instinct GPUs (RCCL), by LLVM target: outside the SM numbers, so
     * read them through collcalc_gpu_arch_nccl_sm, never as an SM. */
    COLLCALC_GPU_ARCH_GFX942 = 942, /* CDNA3 MI300X, MI325X */
    COLLCALC_GPU_ARCH_GFX950 = 950  /* CDNA4 MI350X, MI355X */
} collcalc_gpu_arch;

/* The host CPU's vendor (NCCL's PCI/SHM latencies depend on it). */
typedef enum {
    COLLCALC_CPU_VENDOR_UNKNOWN = 0,
    COLLCALC_CPU_VENDOR_INTEL,
    COLLCALC_CPU_VENDOR_AMD,
    COLLCALC_CPU_VENDOR_ARM /* Grace and other Arm hosts */
} collcalc_cpu_vendor;

/* How the scale-out NICs carry NCCL's traffic. */
typedef enum {
    COLLCALC_TRANSPORT_UNKNOWN = 0,
    COLLCALC_TRANSPORT_IB,     /* InfiniBand verbs */
    COLLCALC_TRANSPORT_ROCE,   /* RDMA over Converged Ethernet (verbs) */
    COLLCALC_TRANSPORT_EFA,    /* AWS Elastic Fabric Adapter (aws-ofi-nccl) */
    COLLCALC_TRANSPORT_TCPX,   /* Google GPUDirect-TCPX (A3 High) */
    COLLCALC_TRANSPORT_TCPXO,  /* Google GPUDirect-TCPXO (A3 Mega) */
    COLLCALC_TRANSPORT_SOCKET  /* plain TCP sockets through host memory */
} collcalc_transport;

/* Stable lowercase names used in JSON and output: "sm90", "intel", "efa";
 * "unknown" for UNKNOWN or a value outside the enum. Static, never NULL. */
const char *collcalc_gpu_arch_name(collcalc_gpu_arch arch);

/* True for the AMD architectures (gfx942, gfx950): the collectives run on
 * RCCL, not NCCL (data/README.md says what of RCCL is modelled). */
bool collcalc_gpu_arch_is_amd(collcalc_gpu_arch arch);

/* The SM number whose rows of NCCL's tuning tables the model reads for
 * arch: the SM itself for NVIDIA GPUs (sm103 and sm120 read the Blackwell
 * rows as NCCL does for any SM >= 100); for AMD, whose RCCL tuning tables
 * are not modelled, the NVIDIA generation of the same years: gfx942 (CDNA3,
 * 2023) -> 90 (Hopper), gfx950 (CDNA4, 2025) -> 100 (Blackwell). 0 for
 * UNKNOWN or a value outside the enum. */
int collcalc_gpu_arch_nccl_sm(collcalc_gpu_arch arch);
const char *collcalc_cpu_vendor_name(collcalc_cpu_vendor vendor);
const char *collcalc_transport_name(collcalc_transport transport);

/* Values `collcalc fit` measured on a cluster (include/collcalc/fit.h),
 * read back by the NCCL-faithful model's platform -> system mapping
 * (collcalc_nccl_system_apply_fit). Optional "nccl_fit" object of a
 * platform; absent: present false and the neutral values below. */
typedef struct {
    bool present;             /* the platform has an "nccl_fit" object */
    double latency_inter_us;  /* "latency_inter_us": per network step, 0..1000; default 0 */
    double bw_efficiency;     /* "bw_efficiency": x every per-channel bandwidth, 0.05..2;
                                 default 1 */
    double fabric_efficiency; /* "fabric_efficiency": beyond 2 nodes, 0.05..1; 0 = not
                                 fitted (the model's default) */
    char source[COLLCALC_TEXT_MAX]; /* "source": where the values come from; "" */
} collcalc_platform_nccl_fit;

/* One preset. Link fields hold the canonical names (not aliases) of entries
 * of the link table the platform table was validated against; memory_link
 * and host_link are "" when the file leaves them out (e.g. a GDDR card whose
 * memory is not in the link table). The built-in table gives every figure a
 * source string; a user's table may leave sources "". */
typedef struct {
    char name[COLLCALC_NAME_MAX];                          /* "hgx-h100" */
    char aliases[COLLCALC_MAX_ALIASES][COLLCALC_NAME_MAX]; /* "" when unused */
    char description[COLLCALC_TEXT_MAX]; /* one line; "" when not given */
    char gpu[COLLCALC_NAME_MAX];        /* "H100 SXM": free text, 1..31 bytes */
    int gpus_per_node;                  /* GPUs in one NVLink domain, 1..100000 */
    int gpus_per_host;                  /* GPUs of one host (OS, CPUs, host memory and its
                                           NICs), dividing gpus_per_node; default
                                           gpus_per_node (a GB200 NVL72 tray: 4) */
    char intra_link[COLLCALC_NAME_MAX]; /* GPU-GPU inside the node: scale-up or host tier */
    char inter_link[COLLCALC_NAME_MAX]; /* scale-out NIC type: scale-out tier */
    int nics_per_node;                  /* scale-out NICs per node, 1..100000 */
    char memory_link[COLLCALC_NAME_MAX]; /* HBM (on-package tier); "" when not given */
    char host_link[COLLCALC_NAME_MAX];   /* CPU-GPU path (host tier, PCIe), for the cliff
                                            table; "" when not given */
    bool nvls;  /* the NVSwitch reduces in the switch (NVLink SHARP); needs an NVLink
                   intra_link */
    bool sharp; /* the scale-out fabric reduces in the switches (IB SHARP) */
    char topology_source[COLLCALC_TEXT_MAX]; /* gpus_per_node and links */
    char nics_source[COLLCALC_TEXT_MAX];
    char nvls_source[COLLCALC_TEXT_MAX];

    /* Inputs of the NCCL-faithful model. Optional in a user's table (the
     * defaults are given); the built-in table states every one. */
    collcalc_gpu_arch gpu_arch;     /* "gpu_arch": "sm90"; default UNKNOWN */
    collcalc_cpu_vendor cpu_vendor; /* "cpu_vendor": "intel"; default UNKNOWN */
    collcalc_transport transport;   /* "transport": "ib"; default UNKNOWN */
    int nics_per_gpu;  /* scale-out NICs one GPU drives at once, 1..16; default 1
                          (AWS p5: 32 NICs for 8 GPUs = 4) */
    bool p2p;          /* CUDA P2P between the GPUs of a node; false = SHM through
                          host memory (L40S on AWS); default true */
    bool nvswitch;     /* the intra fabric is an NVSwitch all-to-all (needs an
                          NVLink intra_link); default: the value of nvls */
    int nvlink_links_per_gpu; /* NVLink links per GPU (18 on H100), 0..64; 0 without
                                 NVLink or when not stated; default 0 */
    char arch_source[COLLCALC_TEXT_MAX];      /* gpu_arch, cpu_vendor */
    char transport_source[COLLCALC_TEXT_MAX]; /* transport, nics_per_gpu */
    char fabric_source[COLLCALC_TEXT_MAX];    /* p2p, nvswitch, nvlink_links_per_gpu */
    collcalc_platform_nccl_fit nccl_fit;      /* "nccl_fit": optional, from collcalc fit */
} collcalc_platform;

typedef struct collcalc_platform_table collcalc_platform_table;

/* Parses and validates a platform table from JSON text (json_length bytes,
 * not NUL-terminated; schema in data/README.md), with the same strictness as
 * the link table: schema_version 1, unknown/duplicate keys, types, ranges,
 * unique names and aliases. Every link name must exist in `links` (by name or
 * alias, any case) and sit in the right tier; diag names the JSON path
 * ("platforms[2].intra_link: unknown link 'nvlink9'"). `links` is borrowed
 * only during the call. Returns COLLCALC_ERR_INVALID for a bad document (or
 * NULL links/out_table), COLLCALC_ERR_NOMEM when memory runs out. On success
 * the caller owns *out_table (free with collcalc_platform_table_free); on
 * failure *out_table is NULL. */
collcalc_status collcalc_platform_table_parse(const char *json_text, size_t json_length,
                                              const collcalc_link_table *links,
                                              collcalc_platform_table **out_table,
                                              collcalc_diag *diag);

/* As collcalc_platform_table_parse, with origin naming the document in
 * every message ("my-platforms.json: platforms[0].intra_link: ...",
 * "<stdin>: ..."); origin may be NULL. To use a user's --links overlay, pass
 * the merged link table (collcalc_link_table_overlay). */
collcalc_status collcalc_platform_table_parse_named(const char *json_text, size_t json_length,
                                                    const char *origin,
                                                    const collcalc_link_table *links,
                                                    collcalc_platform_table **out_table,
                                                    collcalc_diag *diag);

/* A new table: base's platforms in base order, each replaced in place by the
 * overlay platform of the same name (ignoring case), then the overlay's
 * other platforms in file order; the rules and ownership of
 * collcalc_link_table_overlay. Both tables must have been checked against
 * the link table the caller will use (the built-in platforms against the
 * merged links: collcalc_platform_table_builtin(merged, ...)). */
collcalc_status collcalc_platform_table_overlay(const collcalc_platform_table *base,
                                                const collcalc_platform_table *overlay,
                                                collcalc_platform_table **out_table,
                                                collcalc_diag *diag);

/* Where platform index came from (COLLCALC_ENTRY_BASE for a parsed table or
 * an index out of range), and how many were replaced. */
collcalc_entry_origin collcalc_platform_table_origin(const collcalc_platform_table *table,
                                                    size_t index);
size_t collcalc_platform_table_replaced_count(const collcalc_platform_table *table);

/* The table compiled in from data/platforms.json, checked against `links`
 * by the same loader (messages name "built-in data/platforms.json"). Caller
 * owns the result (free with collcalc_platform_table_free). */
collcalc_status collcalc_platform_table_builtin(const collcalc_link_table *links,
                                                collcalc_platform_table **out_table,
                                                collcalc_diag *diag);

/* The text of data/platforms.json as compiled in (NUL-terminated, static). */
const char *collcalc_builtin_platforms_json(void);

/* Frees a table and every entry it lent out. NULL is a no-op. */
void collcalc_platform_table_free(collcalc_platform_table *table);

/* Number of platforms (at least 1 in a loaded table; 0 for NULL). */
size_t collcalc_platform_table_count(const collcalc_platform_table *table);

/* Entry i (0-based, in file order); NULL when out of range. Borrowed. */
const collcalc_platform *collcalc_platform_table_at(const collcalc_platform_table *table,
                                                    size_t index);
/* By name or alias, case-insensitively; NULL when absent. Borrowed. */
const collcalc_platform *collcalc_platform_table_find(const collcalc_platform_table *table,
                                                      const char *name);
/* The same, or COLLCALC_ERR_NOT_FOUND with "FIELD: unknown platform 'name' (did
 * you mean ...?); known: ..." (field NULL: without "FIELD: "): the lookup
 * whose message every command gives. */
collcalc_status collcalc_platform_table_lookup(const collcalc_platform_table *table, const char *field,
                                const char *name, const collcalc_platform **out, collcalc_diag *diag);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
