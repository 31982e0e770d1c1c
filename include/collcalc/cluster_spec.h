/* Cluster set-up: what the user said (a platform preset, counts, link names,
 * single-link overrides) as a value, the rules that turn it into the model's
 * collcalc_cluster, and the `compare --placement` language. The command line
 * and the platform loader enforce the same rules through this code (see
 * data/README.md, "Set-ups that cannot exist"). */
#ifndef COLLCALC_CLUSTER_SPEC_H
#define COLLCALC_CLUSTER_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "collcalc/links.h"
#include "collcalc/model.h"
#include "collcalc/platforms.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* An on/off option that may also be left to the preset. */
typedef enum {
    COLLCALC_SETTING_UNSET = 0, /* not given: the preset (or off) decides */
    COLLCALC_SETTING_OFF,       /* --no-nvls */
    COLLCALC_SETTING_ON         /* --nvls, --sharp */
} collcalc_setting;

/* Limits of the counts a spec may hold (the setter refuses others). */
#define COLLCALC_SPEC_GPUS_MAX (1L << 20)
#define COLLCALC_SPEC_NICS_PER_NODE_MAX 1024L
#define COLLCALC_SPEC_NICS_PER_GPU_MAX 16L

/* What the user said, each field "not given" after collcalc_cluster_spec_init
 * or COLLCALC_CLUSTER_SPEC_INIT (0, "", false or UNSET). A plain value: copy
 * it freely; no pointers. */
#define COLLCALC_CLUSTER_SPEC_VERSION 1
typedef struct {
    unsigned version;   /* COLLCALC_CLUSTER_SPEC_VERSION: the layout the caller was built with */
    long gpus;          /* --gpus P; 0 = not given */
    long gpus_per_node; /* --gpus-per-node G (NVLink domain size); 0 = not given */
    long nodes;         /* --nodes N; 0 = not given */
    long nics_per_node; /* --nics-per-node K; 0 = not given */
    long nics_per_gpu;  /* --nics-per-gpu; 0 = not given (the platform's, else 1) */
    char link[COLLCALC_NAME_MAX];     /* --link: the single link, or the intra link of a cluster */
    char intra[COLLCALC_NAME_MAX];    /* --intra; "" = not given */
    char inter[COLLCALC_NAME_MAX];    /* --inter; "" = not given */
    char platform[COLLCALC_NAME_MAX]; /* --platform; "" = not given */
    bool bw_set;        /* --bw given (single link only) */
    double bw_GBps;
    bool alpha_set;     /* --alpha given (single link only) */
    double alpha_us;
    bool basis_set;
    collcalc_bw_basis basis;  /* --bw-basis; COLLCALC_BW_PER_DIRECTION when not given */
    collcalc_setting nvls;    /* --nvls / --no-nvls */
    collcalc_setting sharp;   /* --sharp */
    double tree_efficiency;   /* --tree-efficiency; 0 = not given (the model's default) */
} collcalc_cluster_spec;

/* Every field "not given" (UNSET and COLLCALC_BW_PER_DIRECTION are 0). */
#define COLLCALC_CLUSTER_SPEC_INIT {.version = COLLCALC_CLUSTER_SPEC_VERSION}

/* *spec = COLLCALC_CLUSTER_SPEC_INIT. NULL-safe. */
void collcalc_cluster_spec_init(collcalc_cluster_spec *spec);

/* Applies one option by its long name without the dashes, as the command
 * line and placements spell it: "gpus", "gpus-per-node" (or "domain-size"),
 * "nodes", "nics-per-node" (or "nics"), "nics-per-gpu", "link", "intra",
 * "inter", "platform", "bw", "alpha", "bw-basis", "tree-efficiency" take a
 * value; "nvls", "no-nvls", "sharp" take none (value NULL). Values use the
 * number grammar of collcalc/units.h; --bw and --alpha get the link table's
 * physical bounds (collcalc_link_check_bandwidth_GBps, ..._alpha_us). A
 * single-valued option given twice is refused. Messages start with the
 * option ("--gpus-per-node: '0' is out of range: must be between 1 and
 * 1048576"); echoed values are cut at COLLCALC_ECHO_MAX bytes (status.h).
 * COLLCALC_ERR_NOT_FOUND (with a did-you-mean) when key is not one of these;
 * COLLCALC_ERR_INVALID for a bad value. On failure *spec is unchanged. */
collcalc_status collcalc_cluster_spec_set(collcalc_cluster_spec *spec, const char *key,
                                          const char *value, collcalc_diag *diag);

/* Whether key (as above) is a cluster option, and whether it takes a value. */
bool collcalc_cluster_spec_has_key(const char *key, bool *out_takes_value);

/* Copies into *base every field overlay gives (a placement on top of the
 * command's options: the overlay wins). */
void collcalc_cluster_spec_overlay(collcalc_cluster_spec *base,
                                   const collcalc_cluster_spec *overlay);

/* How many warnings one resolution may carry, and their size with NUL. */
#define COLLCALC_CLUSTER_WARNINGS_MAX 4
#define COLLCALC_WARNING_TEXT_MAX 256

/* What the resolution used, for output to say so. */
typedef struct {
    const collcalc_platform *platform; /* the preset, borrowed from the table; NULL
                                          without --platform */
    bool single_link;                  /* one homogeneous link, no nodes */
    int nodes;                         /* ceil(gpus / gpus_per_node) */
    int gpus_in_last_node;             /* == gpus_per_node unless the last node is partial */
    int nics_per_gpu;                  /* as put into the cluster */
    /* Preset values used because the spec did not give them. */
    bool preset_gpus;          /* --platform alone: one node of the preset */
    bool preset_gpus_per_node;
    bool preset_intra;
    bool preset_inter;
    bool preset_nics_per_node; /* possibly scaled to an overridden --gpus-per-node */
    bool nics_scaled;          /* ... and it was scaled (the preset's NICs-per-GPU ratio) */
    bool preset_nics_per_gpu;
    bool preset_nvls;
    bool preset_sharp;
    size_t warning_count;      /* warnings[0..warning_count) are valid */
    char warnings[COLLCALC_CLUSTER_WARNINGS_MAX][COLLCALC_WARNING_TEXT_MAX]; /* one line each,
                                  starting with the option they concern */
} collcalc_cluster_info;

/* Empties an info struct. NULL-safe. */
void collcalc_cluster_info_init(collcalc_cluster_info *info);

/* Turns a spec into the model's cluster. Rules (data/README.md):
 *  - explicit options win over the --platform preset;
 *  - --platform alone means one node of the preset;
 *  - --gpus P --nodes N: P/N GPUs in each node (must divide, and fit the
 *    preset's NVLink domain); --nodes N alone: N full nodes;
 *  - --gpus P alone on a cluster: ceil(P/G) nodes, the last may be partial;
 *  - NICs per node: given, else the preset's NICs-per-GPU ratio times G
 *    (rounded up: 36 of a 72-GPU/72-NIC rack get 36), else G x nics_per_gpu;
 *  - a GPU drives nics_per_gpu NICs (the preset's, else 1);
 *  - a preset's NVLS goes with its own intra link (another --intra/--link
 *    turns it off; --no-nvls too);
 *  - --bw/--alpha only for a single link; --nics-per-gpu only for a cluster;
 *  - refused: NVLS on a link that is not an NVSwitch fabric or a GPU before
 *    sm90 (collcalc_fabric_check), a memory tier as a GPU-to-GPU or NIC link
 *    (collcalc_link_check_between_gpus);
 *  - warning: the intra link slower than the inter link, when nodes hold
 *    more than one GPU and there is more than one node.
 * links is required; platforms may be NULL when the spec names no platform.
 * Failures: COLLCALC_ERR_INVALID (a usage error), COLLCALC_ERR_NOT_FOUND (an
 * unknown link or platform, with a did-you-mean and the known names); the
 * message starts with the option ("--gpus-per-node: ..."). info may be NULL.
 * The cluster's link names are the links' canonical names ("custom" for a
 * --bw link without --link). */
collcalc_status collcalc_cluster_resolve(const collcalc_cluster_spec *spec,
                                         const collcalc_link_table *links,
                                         const collcalc_platform_table *platforms,
                                         collcalc_cluster *out_cluster,
                                         collcalc_cluster_info *info, collcalc_diag *diag);

/* The in-switch reduction rules shared by the platform loader and the
 * resolver: NVLS needs an NVLink intra link that is an NVSwitch fabric and,
 * when the GPU generation is known, sm90 or newer; an NVSwitch needs an
 * NVLink intra link. *out_key (may be NULL) is set to the field at fault,
 * "nvls" or "nvswitch"; diag gets the reason without a prefix. */
collcalc_status collcalc_fabric_check(const collcalc_link *intra, bool nvls, bool nvswitch,
                                      collcalc_gpu_arch gpu_arch, const char **out_key,
                                      collcalc_diag *diag);

/* ------------------------------------------------------------ placements */

/* Longest placement label, including the NUL. */
#define COLLCALC_PLACEMENT_LABEL_MAX 64
/* Longest placement text accepted, in bytes. */
#define COLLCALC_PLACEMENT_TEXT_MAX 512

/* One `compare --placement` value. */
#define COLLCALC_PLACEMENT_VERSION 1
typedef struct {
    unsigned version; /* COLLCALC_PLACEMENT_VERSION */
    char label[COLLCALC_PLACEMENT_LABEL_MAX]; /* label=TEXT, else the text itself (cut) */
    bool label_given;
    collcalc_cluster_spec spec; /* only the keys the placement gave */
} collcalc_placement;

/* An empty placement (no label, an all-"not given" spec). */
#define COLLCALC_PLACEMENT_INIT \
    {.version = COLLCALC_PLACEMENT_VERSION, .spec = COLLCALC_CLUSTER_SPEC_INIT}

/* *placement = COLLCALC_PLACEMENT_INIT. NULL-safe. */
void collcalc_placement_init(collcalc_placement *placement);

/* Parses "label=TEXT,platform=NAME,KEY=VALUE,FLAG,...": comma-separated
 * items; KEY is any cluster option of collcalc_cluster_spec_set with a value
 * (gpus, gpus-per-node, domain-size, nodes, nics-per-node, nics,
 * nics-per-gpu, link, intra, inter, platform, bw, alpha, bw-basis,
 * tree-efficiency), FLAG one of nvls, no-nvls, sharp; label once, printable
 * text without commas, at most 63 bytes. Empty items, keys given twice,
 * unknown keys (with a did-you-mean) and bad values are refused:
 * "--placement: nodes: '0' is out of range: must be between 1 and 1048576".
 * Names are not looked up here (collcalc_cluster_resolve does that). On
 * failure *out is left "not given". */
collcalc_status collcalc_placement_parse(const char *text, collcalc_placement *out,
                                         collcalc_diag *diag);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
