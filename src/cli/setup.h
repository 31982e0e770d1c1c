/* What every collcalc command shares: the common options, their values,
 * loading the link table, turning options into a cluster, and the one-line
 * error messages with their exit codes. */
#ifndef COLLCALC_CLI_SETUP_H
#define COLLCALC_CLI_SETUP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "args.h"
#include "collcalc/links.h"
#include "collcalc/platforms.h"
#include "collcalc/model.h"

typedef enum { FORMAT_TABLE = 0, FORMAT_JSON, FORMAT_CSV } output_format;

/* Ids of the options shared across commands. */
enum {
    OPT_HELP = 1,
    OPT_SIZE,
    OPT_GPUS,
    OPT_LINK,
    OPT_LINKS_FILE,
    OPT_BW,
    OPT_ALPHA,
    OPT_BW_BASIS,
    OPT_FORMAT,
    OPT_EXPLAIN,
    OPT_ALGO,
    OPT_LAYERS,
    OPT_PER_LAYER,
    OPT_GPUS_PER_NODE,
    OPT_INTRA,
    OPT_INTER,
    OPT_NICS,
    OPT_NODES,
    OPT_NVLS,
    OPT_SHARP,
    OPT_TREE_EFFICIENCY,
    OPT_MIN_BYTES,
    OPT_MAX_BYTES,
    OPT_STEP_FACTOR,
    OPT_STEP_BYTES,
    OPT_SIZES,
    OPT_STYLE,
    OPT_OP,
    OPT_PATH,
    OPT_PLATFORM,
    OPT_PLATFORMS_FILE,
    OPT_NO_NVLS,
    OPT_COMMAND_SPECIFIC = 100
};

#define MAX_LINK_CHOICES 8
#define MAX_ALGO_CHOICES COLLCALC_ALGO_COUNT

/* Everything the common options say, before it is turned into a query. */
typedef struct {
    const char *command; /* "allreduce": used in messages */
    FILE *out;
    FILE *err;

    bool size_set;
    uint64_t size_bytes;
    bool gpus_set;
    long gpus;
    int link_count;
    const char *link_names[MAX_LINK_CHOICES];
    const char *links_file;
    bool bw_set;
    double bw_GBps;
    bool alpha_set;
    double alpha_us;
    collcalc_bw_basis basis;
    output_format format;
    bool explain;
    int algo_count; /* 0 = all */
    collcalc_algo algos[MAX_ALGO_CHOICES];
    long layers;
    long per_layer;
    long gpus_per_node; /* 0 = not given */
    const char *intra_name;
    const char *inter_name;
    long nics_per_node; /* 0 = not given */
    long nodes;         /* 0 = not given */
    bool nvls;
    bool sharp;
    bool no_nvls;       /* --no-nvls: switch a preset's NVLS off */
    const char *platform_name;
    const char *platforms_file;
    double tree_efficiency; /* 0 = default */

    collcalc_link_table *links; /* loaded by settings_load_links; owned */
    collcalc_platform_table *platforms; /* loaded by settings_load_platforms; owned */
    const collcalc_platform *platform;  /* the --platform preset, borrowed from platforms */
} cli_settings;

/* The common options every collective-style command accepts (terminated by
 * a zero entry); commands append their own to a copy. */
extern const cli_option COMMON_OPTIONS[];

void settings_init(cli_settings *settings, const char *command, FILE *out, FILE *err);
void settings_free(cli_settings *settings);

/* A command's own options and positional words: returns 0, an exit code,
 * or -1 when the id is not one of its own. */
typedef int (*extra_option_fn)(cli_settings *settings, void *context, int id,
                               const char *option_text, const char *value);

/* Prints a command's --help text. */
typedef void (*help_fn)(FILE *out, const cli_settings *settings);

/* Walks argv[1..argc): the command's own options first (extra, may be
 * NULL; positional words arrive with id ARGS_POSITIONAL), then the common
 * ones. Returns 0 to go on or an exit code after printing the error. On
 * --help it prints the help, sets *out_help and returns 0. */
int settings_parse(cli_settings *settings, const cli_option *options, int argc, char **argv,
                   help_fn help, extra_option_fn extra, void *context, bool *out_help);

/* COMMON_OPTIONS followed by extra (zero-terminated) into out. */
void options_join(const cli_option *extra, cli_option *out, size_t capacity);

/* Costs the query with the --algo choices (all applicable ones when none).
 * Returns 0 or an exit code after printing the error (an algorithm that does
 * not apply is a usage error). */
int settings_evaluate(const cli_settings *settings, const collcalc_query *query,
                      collcalc_result *results, size_t *out_count, size_t *out_fastest);

/* Applies one common option. Returns 0, or the exit code after printing the
 * error. Returns -1 when id is not a common option. */
int settings_apply(cli_settings *settings, int id, const char *option_text, const char *value);

/* Loads the builtin table or --links FILE. Returns 0 or an exit code (1). */
int settings_load_links(cli_settings *settings);

/* Loads the builtin platform table or --platforms FILE (after the links).
 * Returns 0 or an exit code (1). */
int settings_load_platforms(cli_settings *settings);

/* Builds the cluster for link choice `link_index` (0 when only one). Returns
 * 0 or an exit code. The caller has loaded the links. */
int settings_build_cluster(cli_settings *settings, int link_index, collcalc_cluster *out_cluster);

/* A human description of the cluster: "8 GPUs over nvlink5" or "16 GPUs =
 * 2 nodes x 8 (nvlink4 inside, 8 x ib-ndr NICs per node)". */
void describe_cluster(const collcalc_cluster *cluster, char *buffer, size_t size);

/* Error reporting: one line on stderr, "collcalc CMD: OPTION: message".
 * usage_error returns 2 and adds a pointer to --help; data_error returns 1. */
int usage_error(const cli_settings *settings, const char *option, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int data_error(const cli_settings *settings, const char *where, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Reads a whole file (at most 64 MiB) into a NUL-terminated buffer the
 * caller frees. Returns 0 or prints the error and returns 1. */
int read_whole_file(const cli_settings *settings, const char *path, char **out_text,
                    size_t *out_length);

/* Checks that stdout took everything; returns 1 with a message if not. */
int finish_output(const cli_settings *settings, int code);

#endif
