/* collcalc allreduce|allgather|reducescatter|alltoall|broadcast|reduce|sendrecv:
 * one collective, one or all algorithms, on a link or a cluster. */
#include <string.h>

#include "commands.h"
#include "output.h"
#include "setup.h"

static const char HELP[] =
    "Usage: collcalc %s --size SIZE --gpus N --link NAME [options]\n"
    "       collcalc %s --size SIZE --gpus N --gpus-per-node G --intra LINK --inter LINK\n"
    "\n"
    "Cost of one %s: per-GPU bytes sent and received, step count, latency term\n"
    "(steps x alpha), bandwidth term (bytes / bandwidth), total time, algbw = size /\n"
    "time and busbw = algbw x the nccl-tests factor, for every algorithm (fastest\n"
    "marked) or the ones named with --algo.\n"
    "\n"
    "What to move:\n"
    "  -s, --size SIZE        message size with nccl-tests' meaning: 100MB (10^8 B),\n"
    "                         100MiB (2^20 B x 100), 1G (binary, as nccl-tests), 4096\n"
    "  -n, --gpus N           GPUs (ranks) taking part\n"
    "  -a, --algo NAME        an algorithm, repeatable, or 'all' (default): ring,\n"
    "                         tree, centralized, recursive-doubling, recursive-halving,\n"
    "                         rabenseifner, bruck, pairwise, binomial-tree,\n"
    "                         scatter-allgather, direct, hierarchical, nvls\n"
    "      --layers L         repeat L times (e.g. 80 layers per token) and print totals\n"
    "      --per-layer K      collectives per layer (default 1)\n"
    "\n"
    "Over one link:\n"
    "  -l, --link NAME        a link from the table (see 'collcalc links'): nvlink5,\n"
    "                         nvlink4, pcie5, ib-ndr, eth400, ...\n"
    "      --links FILE       use this JSON link table instead of the built-in one\n"
    "      --bw BW            override the bandwidth: 400GB/s, 400Gb/s, 3.2Tbps\n"
    "      --alpha TIME       override the per-step latency: 2us, 500ns\n"
    "      --bw-basis B       per-direction (default, what a ring step gets) or headline\n"
    "                         (the vendor figure: NVLink 5 = 1,800 GB/s counts both\n"
    "                         directions; reproduces textbook examples)\n"
    "\n"
    "Over a cluster (nodes or NVLink domains joined by NICs):\n"
    "  -p, --platform NAME    a preset (see 'collcalc platforms'): hgx-h100, gb200-nvl72,\n"
    "                         ...; fills the options below unless you give them\n"
    "      --platforms FILE   use this JSON platform table instead of the built-in one\n"
    "      --gpus-per-node G  GPUs per node / NVLink domain (alias --domain-size);\n"
    "                         GPUs fill nodes in order, the last may be partial\n"
    "      --nodes N          N full nodes (instead of --gpus)\n"
    "      --intra LINK       the link inside a node (default: --link)\n"
    "      --inter LINK       the NIC between nodes, e.g. ib-ndr\n"
    "      --nics-per-node K  NICs per node (default G: one per GPU, rail-optimized)\n"
    "      --nvls, --no-nvls  the NVSwitch reduces in the switch (NVLink SHARP), or not\n"
    "      --sharp            the IB switches reduce in the network (SHARP)\n"
    "      --tree-efficiency F  bandwidth fraction a double binary tree reaches\n"
    "                         (default 0.92, NCCL's Tree AllReduce factor)\n"
    "\n"
    "Output:\n"
    "      --format F         table (default), json or csv\n"
    "      --explain          show the arithmetic: every phase, its link, steps,\n"
    "                         bytes, latency and bandwidth terms\n"
    "  -h, --help             this text\n"
    "\n"
    "Examples:\n"
    "  collcalc %s --size 100MB --gpus 8 --link nvlink5\n"
    "  collcalc %s --size 100MB --gpus 8 --link nvlink5 --algo ring --bw-basis headline --layers 80\n"
    "  collcalc %s --size 1GB --gpus 16 --gpus-per-node 8 --intra nvlink4 --inter ib-ndr --explain\n"
    "  collcalc %s --size 1GB --platform hgx-h100 --nodes 4\n";

static void print_help(FILE *out, const cli_settings *settings)
{
    collcalc_op op = COLLCALC_OP_ALLREDUCE;
    collcalc_op_from_name(settings->command, &op, NULL);
    const char *name = settings->command;
    fprintf(out, HELP, name, name, collcalc_op_title(op), name, name, name, name);
}

int cmd_collective(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    (void)in;
    collcalc_op op;
    if (collcalc_op_from_name(command, &op, NULL) != COLLCALC_OK)
        return 2;
    cli_settings settings;
    settings_init(&settings, collcalc_op_name(op), out, err);
    bool help = false;
    int code = settings_parse(&settings, COMMON_OPTIONS, argc, argv, print_help, NULL, NULL, &help);
    if (help)
        return finish_output(&settings, code);
    if (code == 0 && !settings.size_set)
        code = usage_error(&settings, "--size", "missing: the message size, e.g. --size 100MB");
    if (code == 0 && settings.link_count > 1)
        code = usage_error(&settings, "--link",
                           "one link per query; 'collcalc compare' puts links side by side");
    if (code == 0)
        code = settings_load_links(&settings);

    collcalc_query query;
    memset(&query, 0, sizeof query);
    query.op = op;
    query.size_bytes = settings.size_bytes;
    query.tree_efficiency = settings.tree_efficiency;
    if (code == 0)
        code = settings_build_cluster(&settings, 0, &query.cluster);

    collcalc_result results[COLLCALC_ALGO_COUNT];
    size_t count = 0, fastest = 0;
    if (code == 0)
        code = settings_evaluate(&settings, &query, results, &count, &fastest);
    if (code == 0)
        code = output_results(&settings, &query, results, count, fastest);
    code = finish_output(&settings, code);
    settings_free(&settings);
    return code;
}
