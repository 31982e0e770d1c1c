/* The option registry: every option of every command, once, with its help
 * line; the parser that walks argv against a command's list; and the
 * parsed values commands read by id. --help texts and the man page test
 * are generated from / checked against this one table. */
#ifndef COLLCALC_CLI_OPTIONS_H
#define COLLCALC_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    OPT_NONE = 0,
    OPT_HELP,
    /* what to move */
    OPT_SIZE,
    OPT_GPUS,
    OPT_ALGO,
    OPT_LAYERS,
    OPT_PER_LAYER,
    OPT_OP,
    /* sizes of a sweep or comparison */
    OPT_MIN_BYTES,
    OPT_MAX_BYTES,
    OPT_STEP_FACTOR,
    OPT_STEP_BYTES,
    OPT_SIZES,
    /* one link */
    OPT_LINK,
    OPT_BW,
    OPT_ALPHA,
    OPT_BW_BASIS,
    /* a cluster */
    OPT_PLATFORM,
    OPT_NODES,
    OPT_GPUS_PER_NODE,
    OPT_INTRA,
    OPT_INTER,
    OPT_NICS_PER_NODE,
    OPT_NICS_PER_GPU,
    OPT_NVLS,
    OPT_NO_NVLS,
    OPT_SHARP,
    OPT_TREE_EFFICIENCY,
    OPT_PLACEMENT,
    OPT_TOPO,
    /* tables */
    OPT_LINKS_FILE,
    OPT_LINKS_ONLY,
    OPT_PLATFORMS_FILE,
    OPT_PLATFORMS_ONLY,
    /* command-specific */
    OPT_PATH,
    OPT_STYLE,
    OPT_GPU,
    OPT_STRICT,
    OPT_OUTPUT,
    OPT_NAME,
    /* the NCCL-faithful model */
    OPT_COST_MODEL,
    OPT_NCCL_VERSION,
    OPT_LAUNCH,
    OPT_CUDA_GRAPH,
    OPT_HARNESS,
    OPT_SYMMETRIC,
    OPT_FABRIC_EFFICIENCY,
    OPT_NCCL_ALGO,
    OPT_NCCL_PROTO,
    OPT_NO_P2P,
    OPT_FAITHFUL,
    /* models and planning */
    OPT_MODEL,
    OPT_MODEL_FILE,
    OPT_PHASE,
    OPT_TOKENS,
    OPT_DTYPE,
    OPT_TP,
    OPT_PP,
    OPT_EP,
    OPT_DP,
    OPT_CP,
    OPT_SP,
    OPT_ORDER,
    OPT_SEARCH,
    OPT_TOP,
    OPT_OVERLAP,
    OPT_SM_SLOWDOWN,
    OPT_MICRO_BATCHES,
    OPT_DISPATCH_DTYPE,
    OPT_COMBINE_DTYPE,
    OPT_MODE,
    OPT_IMBALANCE,
    OPT_ZIPF,
    OPT_EXPERT_LOADS,
    OPT_REDUNDANT_EXPERTS,
    OPT_SPLIT_BATCH,
    OPT_ROUTER_TIME,
    OPT_EXPERT_TIME,
    OPT_DEDUP,
    OPT_BACKEND,
    OPT_BUDGET,
    OPT_BLOCK_SIZE,
    OPT_GPU_MEMORY,
    OPT_WEIGHT_DTYPE,
    OPT_KV_DTYPE,
    OPT_CONTEXT,
    OPT_GOAL,
    OPT_LATENCY_BUDGET,
    OPT_COMPUTE_EFFICIENCY,
    OPT_DECODE_TP,
    OPT_KV_PATH,
    OPT_NO_GDR,
    /* batch */
    OPT_FAIL_FAST,
    OPT_COLUMNS,
    /* output */
    OPT_FORMAT,
    OPT_QUIET,
    OPT_EXPLAIN,
    OPT_PLOT,
    OPT_SVG,
    OPT_WIDTH,
    OPT_COUNT
} option_id;

typedef struct {
    option_id id;
    const char *name;       /* long name without dashes: "size" */
    const char *alias;      /* another long name, or NULL ("domain-size") */
    char short_name;        /* 's', or 0 */
    const char *value_name; /* "SIZE"; NULL for a flag */
    const char *help;       /* what it means; '\n' starts a continuation line */
} option_def;

/* The definition of an option (never NULL for a valid id). */
const option_def *option_def_of(option_id id);

/* One option as a command accepts it. */
typedef struct {
    option_id id;
    bool repeatable;
    const char *help; /* a command-specific help line, or NULL for the registry's */
} option_use;

#define OPTION_VALUES_MAX 16
#define POSITIONALS_MAX 8

/* What argv said, by option id. */
typedef struct {
    int count[OPT_COUNT];
    const char *values[OPT_COUNT][OPTION_VALUES_MAX];
    const char *spelled[OPT_COUNT]; /* how the user wrote it first: "--size", "-s" */
    int positional_count; /* any number: the first POSITIONALS_MAX in positionals, */
    const char *positionals[POSITIONALS_MAX];
    const char **more_positionals; /* the rest (malloc'd; options_free) */
    size_t more_capacity;
} parsed_args;

/* Parse failure: a message (no command prefix) and the option to name. */
typedef struct {
    char message[256];
} parse_error;

/* Walks argv[1..argc) against the accepted options (terminated by id
 * OPT_NONE), keeping the positionals (any number; options_free frees the
 * storage of those past POSITIONALS_MAX, which a later parse into the same
 * args reuses). Accepts --name VALUE, --name=VALUE, -x VALUE, -xVALUE and
 * "--" (the rest positional). A single-valued option given twice, an
 * unknown option (with the nearest accepted ones suggested), a flag with a
 * value and a missing value are errors. Returns false with *error set. */
bool options_parse(const option_use *accepted, int argc, char **argv, parsed_args *out,
                   parse_error *error);

/* Positional k (0 <= k < positional_count), wherever it is kept. */
const char *arg_positional(const parsed_args *args, int k);
/* Frees what options_parse allocated (positionals past POSITIONALS_MAX);
 * the arguments stay usable for options, without those positionals. */
void options_free(parsed_args *args);

/* The last value of an option, or NULL. */
const char *arg_value(const parsed_args *args, option_id id);
/* True when a flag (or option) was given. */
bool arg_given(const parsed_args *args, option_id id);

/* "--size" */
const char *option_long(option_id id, char *buffer, size_t size);

#endif
