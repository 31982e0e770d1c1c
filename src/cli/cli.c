/* collcalc's entry: the command table, top-level --help and --version. */
#include "cli.h"

#include <string.h>

#include "commands.h"
#include "collcalc/model.h"

#ifndef COLLCALC_VERSION
#define COLLCALC_VERSION "0.0.0"
#endif

typedef struct {
    const char *name;
    command_fn run;
    const char *summary;
} command_entry;

static const command_entry COMMANDS[] = {
    {"allreduce", cmd_collective, "all-reduce: per-GPU bytes, steps, latency, time, algbw, busbw"},
    {"allgather", cmd_collective, "all-gather (size = the whole gathered output)"},
    {"reducescatter", cmd_collective, "reduce-scatter (size = the whole input)"},
    {"alltoall", cmd_collective, "all-to-all (size = one rank's whole send buffer)"},
    {"broadcast", cmd_collective, "broadcast from one GPU"},
    {"reduce", cmd_collective, "reduce to one GPU"},
    {"sendrecv", cmd_collective, "send/recv: every GPU sends to the next (nccl-tests sendrecv)"},
    {"compare", cmd_compare, "algorithms across sizes with crossovers; links or clusters side by side"},
    {"sweep", cmd_sweep, "an nccl-tests-like size sweep (-b 8 -e 1G -f 2)"},
    {"links", cmd_links, "the bandwidth hierarchy and the cliff between tiers"},
    {"platforms", cmd_platforms, "platform presets: GPUs per node, links, NICs, NVLS"},
};

enum { COMMAND_COUNT = sizeof COMMANDS / sizeof COMMANDS[0] };

static void print_usage(FILE *out)
{
    fputs("Usage: collcalc <command> [options]\n"
          "\n"
          "Collective-communication cost calculator: what all-reduce, all-gather,\n"
          "reduce-scatter, all-to-all and broadcast move per GPU, how many steps they\n"
          "take, and what that costs on NVLink, PCIe, InfiniBand or Ethernet.\n"
          "\n"
          "Commands:\n",
          out);
    for (int i = 0; i < COMMAND_COUNT; i++)
        fprintf(out, "  %-14s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
    fputs("\n"
          "Operation aliases: all-reduce, ar, all-gather, ag, reduce-scatter, rs,\n"
          "all-to-all, a2a, bcast, send-recv.\n"
          "\n"
          "Example:\n"
          "  collcalc allreduce --size 100MB --gpus 8 --link nvlink5\n"
          "\n"
          "Conventions: 100MB = 10^8 bytes, 100MiB = 2^20 x 100, bare K/M/G are binary\n"
          "(as nccl-tests' -b/-e); GB/s = 10^9 bytes/s; link bandwidth is per direction\n"
          "unless --bw-basis headline. Exit codes: 0 ok, 1 bad data or file, 2 usage.\n"
          "'collcalc <command> --help' explains each command.\n",
          out);
}

int collcalc_cli_main(int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    if (argc < 2) {
        fputs("collcalc: missing command (see 'collcalc --help')\n", err);
        return CLI_EXIT_USAGE;
    }
    const char *word = argv[1];
    if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 || strcmp(word, "help") == 0) {
        if (strcmp(word, "help") == 0 && argc > 2) {
            char help_flag[] = "--help";
            char *help_args[] = {argv[0], argv[2], help_flag, NULL};
            return collcalc_cli_main(3, help_args, in, out, err);
        }
        print_usage(out);
        return fflush(out) == 0 ? CLI_EXIT_OK : CLI_EXIT_DATA;
    }
    if (strcmp(word, "--version") == 0 || strcmp(word, "-V") == 0) {
        fprintf(out, "collcalc %s\n", COLLCALC_VERSION);
        return fflush(out) == 0 ? CLI_EXIT_OK : CLI_EXIT_DATA;
    }
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(word, COMMANDS[i].name) == 0)
            return COMMANDS[i].run(COMMANDS[i].name, argc - 1, argv + 1, in, out, err);
    collcalc_op op;
    if (collcalc_op_from_name(word, &op, NULL) == COLLCALC_OK)
        return cmd_collective(collcalc_op_name(op), argc - 1, argv + 1, in, out, err);
    fprintf(err, "collcalc: unknown command '%.40s' (see 'collcalc --help')\n", word);
    return CLI_EXIT_USAGE;
}
