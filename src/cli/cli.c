/* collcalc's entry: the command table, dispatch, top-level --help and
 * --version. */
#include "cli.h"

#include <string.h>

#include "collcalc/model.h"
#include "collcalc/status.h"
#include "collcalc/version.h"
#include "commands.h"
#include "messages.h"
#include "helpers.h"

/* ---- option groups ----------------------------------------------------------- */

#define END {OPT_NONE, false, NULL}

static const option_use MOVE[] = {
    {OPT_SIZE, false, NULL}, {OPT_GPUS, false, NULL}, {OPT_ALGO, true, NULL},
    {OPT_LAYERS, false, NULL}, {OPT_PER_LAYER, false, NULL}, END};
static const option_use ONE_LINK[] = {
    {OPT_LINK, false, NULL}, {OPT_BW, false, NULL}, {OPT_ALPHA, false, NULL},
    {OPT_BW_BASIS, false, NULL}, END};
static const option_use CLUSTER[] = {
    {OPT_PLATFORM, false, NULL}, {OPT_NODES, false, NULL}, {OPT_GPUS_PER_NODE, false, NULL},
    {OPT_INTRA, false, NULL}, {OPT_INTER, false, NULL}, {OPT_NICS_PER_NODE, false, NULL},
    {OPT_NICS_PER_GPU, false, NULL}, {OPT_NVLS, false, NULL}, {OPT_NO_NVLS, false, NULL},
    {OPT_SHARP, false, NULL}, {OPT_TREE_EFFICIENCY, false, NULL}, {OPT_TOPO, false, NULL}, END};
static const option_use TABLES[] = {
    {OPT_LINKS_FILE, false, NULL}, {OPT_LINKS_ONLY, false, NULL},
    {OPT_PLATFORMS_FILE, false, NULL}, {OPT_PLATFORMS_ONLY, false, NULL}, END};
static const option_use OUTPUT_EXPLAIN[] = {
    {OPT_FORMAT, false, NULL}, {OPT_EXPLAIN, false, NULL}, {OPT_QUIET, false, NULL},
    {OPT_HELP, false, NULL}, END};
static const option_use OUTPUT[] = {{OPT_FORMAT, false, NULL}, {OPT_QUIET, false, NULL},
                                    {OPT_HELP, false, NULL}, END};
static const option_use OUTPUT_CHART[] = {
    {OPT_FORMAT, false, NULL}, {OPT_PLOT, false, NULL}, {OPT_SVG, false, NULL},
    {OPT_WIDTH, false, NULL}, {OPT_QUIET, false, NULL}, {OPT_HELP, false, NULL}, END};

static const option_use COST_MODEL[] = {
    {OPT_COST_MODEL, false, NULL}, {OPT_NCCL_VERSION, false, NULL}, {OPT_LAUNCH, false, NULL},
    {OPT_CUDA_GRAPH, false, NULL}, {OPT_HARNESS, false, NULL}, {OPT_SYMMETRIC, false, NULL},
    {OPT_FABRIC_EFFICIENCY, false, NULL}, {OPT_NCCL_ALGO, false, NULL},
    {OPT_NCCL_PROTO, false, NULL}, {OPT_NO_P2P, false, NULL}, {OPT_FAITHFUL, false, NULL}, END};
const option_group COLLECTIVE_GROUPS[] = {
    {"What to move", MOVE},          {"Over one link", ONE_LINK},
    {"Over a cluster (nodes or NVLink domains joined by NICs)", CLUSTER},
    {"The cost model (NCCL's tuner with --platform)", COST_MODEL},
    {"Tables", TABLES},              {"Output", OUTPUT_EXPLAIN},
    {NULL, NULL},
};

static const option_use SWEEP_SIZES[] = {
    {OPT_OP, false, NULL}, {OPT_MIN_BYTES, false, NULL}, {OPT_MAX_BYTES, false, NULL},
    {OPT_STEP_FACTOR, false, NULL}, {OPT_STEP_BYTES, false, NULL}, {OPT_SIZES, false, NULL},
    {OPT_GPUS, false, NULL},
    {OPT_ALGO, true, "cost only this algorithm (repeatable); default: the fastest"},
    {OPT_STYLE, false, NULL}, END};
static const option_group SWEEP_GROUPS[] = {
    {"Sizes", SWEEP_SIZES}, {"Over one link", ONE_LINK},
    {"Over a cluster (nodes or NVLink domains joined by NICs)", CLUSTER},
    {"The cost model (NCCL's tuner with --platform)", COST_MODEL},
    {"Tables", TABLES}, {"Output", OUTPUT_CHART}, {NULL, NULL},
};

static const option_use COMPARE_WHAT[] = {
    {OPT_OP, false, NULL}, {OPT_SIZE, false, "one size (instead of a list)"},
    {OPT_SIZES, false, "sizes (default 64KB,1MB,100MB,1GB)"}, {OPT_MIN_BYTES, false, NULL},
    {OPT_MAX_BYTES, false, NULL}, {OPT_STEP_FACTOR, false, NULL}, {OPT_STEP_BYTES, false, NULL},
    {OPT_GPUS, false, NULL}, {OPT_ALGO, true, "an algorithm to compare (repeatable)"},
    {OPT_LAYERS, false, NULL}, {OPT_PER_LAYER, false, NULL}, END};
static const option_use COMPARE_ONE_LINK[] = {
    {OPT_LINK, true, "a link; repeat it to put links side by side"}, {OPT_BW, false, NULL},
    {OPT_ALPHA, false, NULL}, {OPT_BW_BASIS, false, NULL}, {OPT_PLACEMENT, true, NULL}, END};
static const option_group COMPARE_GROUPS[] = {
    {"What to compare", COMPARE_WHAT}, {"Links and placements", COMPARE_ONE_LINK},
    {"Over a cluster (nodes or NVLink domains joined by NICs)", CLUSTER},
    {"The cost model (NCCL's tuner with --platform)", COST_MODEL},
    {"Tables", TABLES}, {"Output", OUTPUT_CHART}, {NULL, NULL},
};

static const option_use LINKS_OPTIONS[] = {
    {OPT_PATH, false, NULL},
    {OPT_PLATFORM, false, "only the cliff along a platform's tiers: HBM, NVLink, PCIe, NIC"},
    {OPT_BW_BASIS, false, NULL}, END};
static const option_group LINKS_GROUPS[] = {
    {"What to show", LINKS_OPTIONS}, {"Tables", TABLES}, {"Output", OUTPUT}, {NULL, NULL}};
static const option_use TOPO_OPTIONS[] = {{OPT_GPU, false, NULL}, {OPT_STRICT, false, NULL}, END};
static const option_group TOPO_GROUPS[] = {{"Reading", TOPO_OPTIONS}, {"Output", OUTPUT},
                                           {NULL, NULL}};
static const option_use DIAGNOSE_OPTIONS[] = {{OPT_STRICT, false, NULL}, END};
static const option_group DIAGNOSE_GROUPS[] = {{"Checks", DIAGNOSE_OPTIONS}, {"Output", OUTPUT},
                                               {NULL, NULL}};
static const option_use MODEL_OPTIONS[] = {
    {OPT_MODEL, false, "only this model"}, {OPT_MODEL_FILE, false, NULL}, END};
static const option_group MODELS_GROUPS[] = {{"Models", MODEL_OPTIONS}, {"Output", OUTPUT},
                                             {NULL, NULL}};
static const option_use KV_WHAT[] = {
    {OPT_MODEL, false, NULL}, {OPT_MODEL_FILE, false, NULL},
    {OPT_TOKENS, false, "prompt tokens of one request whose KV cache moves (8k = 8192)"},
    {OPT_DTYPE, false, NULL},
    {OPT_TP, false, "the prefill instance's TP degree, dividing the heads"},
    {OPT_PP, false, "the prefill instance's PP degree (layers split over it)"},
    {OPT_DECODE_TP, false, NULL}, {OPT_DEDUP, false, NULL}, END};
static const option_use KV_TRANSFER[] = {
    {OPT_LINK, false, "one link prefill -> decode (eth400); with a cluster: --inter"},
    {OPT_BW, false, NULL}, {OPT_ALPHA, false, NULL}, {OPT_PLATFORM, false, NULL},
    {OPT_NODES, false, NULL}, {OPT_GPUS_PER_NODE, false, NULL}, {OPT_INTRA, false, NULL},
    {OPT_INTER, false, NULL}, {OPT_NICS_PER_NODE, false, NULL}, {OPT_NICS_PER_GPU, false, NULL},
    {OPT_BW_BASIS, false, NULL}, {OPT_BACKEND, false, NULL}, {OPT_KV_PATH, false, NULL},
    {OPT_NO_GDR, false, NULL},
    {OPT_TOPO, false, "nvidia-smi topo -m of a prefill node: its NICs, GPU0's at PCIe\n"
                      "distance its own (Mooncake stripes over all; far ones slow every share)"},
    {OPT_BUDGET, false, NULL},
    {OPT_BLOCK_SIZE, false, NULL}, {OPT_STRICT, false, "exit 3 when the transfer misses --budget"},
    END};
static const option_group KV_GROUPS[] = {{"What to size", KV_WHAT}, {"Transfer", KV_TRANSFER},
                                         {"Tables", TABLES}, {"Output", OUTPUT}, {NULL, NULL}};
static const option_use MOE_WHAT[] = {
    {OPT_MODEL, false, NULL}, {OPT_MODEL_FILE, false, NULL},
    {OPT_EP, false, "expert-parallel ranks"},
    {OPT_TOKENS, false, "tokens per EP rank per micro-batch (as DeepEP and SGLang count;\n"
                        "8k = 8192)"},
    {OPT_DISPATCH_DTYPE, false, NULL}, {OPT_COMBINE_DTYPE, false, NULL},
    {OPT_MODE, false, "DeepEP kernels: normal (default) or low-latency"}, END};
static const option_use MOE_LOAD[] = {
    {OPT_IMBALANCE, false, NULL}, {OPT_ZIPF, false, NULL}, {OPT_EXPERT_LOADS, false, NULL},
    {OPT_REDUNDANT_EXPERTS, false, NULL}, {OPT_SPLIT_BATCH, false, NULL},
    {OPT_ROUTER_TIME, false, NULL}, {OPT_EXPERT_TIME, false, NULL}, {OPT_SM_SLOWDOWN, false, NULL},
    END};
static const option_group MOE_GROUPS[] = {
    {"What to move", MOE_WHAT}, {"Load and overlap", MOE_LOAD},
    {"Over a cluster (nodes or NVLink domains joined by NICs)", CLUSTER}, {"Tables", TABLES},
    {"Output", OUTPUT}, {NULL, NULL}};
static const option_use PLAN_WHAT[] = {
    {OPT_MODEL, false, NULL}, {OPT_MODEL_FILE, false, NULL}, {OPT_PHASE, false, NULL},
    {OPT_TOKENS, false, "tokens per step of the whole deployment, split across DP:\n"
                        "batch x sequence for prefill and train, the batch (sequences)\n"
                        "for decode; 8k = 8192"},
    {OPT_CONTEXT, false, NULL},
    {OPT_DTYPE, false, "activation type: bf16 (default), fp8, fp16 or fp32"}, {OPT_WEIGHT_DTYPE, false, NULL},
    {OPT_KV_DTYPE, false, NULL}, {OPT_TP, false, NULL},
    {OPT_PP, false, NULL}, {OPT_EP, false, NULL}, {OPT_DP, false, NULL}, {OPT_CP, false, NULL},
    {OPT_SP, false, NULL}, {OPT_ORDER, false, NULL}, {OPT_MICRO_BATCHES, false, NULL}, END};
static const option_use PLAN_ASSUME[] = {
    {OPT_OVERLAP, false, NULL}, {OPT_SM_SLOWDOWN, false, NULL}, {OPT_DISPATCH_DTYPE, false, NULL},
    {OPT_COMBINE_DTYPE, false, NULL}, {OPT_MODE, false, "EP kernels: normal or low-latency "
                                                         "(default: low-latency for decode)"},
    {OPT_REDUNDANT_EXPERTS, false, NULL}, {OPT_IMBALANCE, false, NULL},
    {OPT_GPU_MEMORY, false, NULL}, {OPT_COMPUTE_EFFICIENCY, false, NULL},
    {OPT_COST_MODEL, false, "nccl (default with --platform) or alpha-beta"},
    {OPT_NCCL_VERSION, false, NULL}, END};
static const option_use PLAN_CHECK[] = {
    {OPT_STRICT, false, "exit 3 when a rule check is an error (CI gate)"},
    {OPT_SEARCH, false, NULL}, {OPT_GPUS, false, "with --search, the GPUs to split"},
    {OPT_GOAL, false, NULL}, {OPT_LATENCY_BUDGET, false, NULL}, {OPT_TOP, false, NULL}, END};
static const option_group PLAN_GROUPS[] = {
    {"The deployment", PLAN_WHAT}, {"Assumptions", PLAN_ASSUME}, {"Checks", PLAN_CHECK},
    {"Over a cluster (nodes or NVLink domains joined by NICs)", CLUSTER}, {"Tables", TABLES},
    {"Output", OUTPUT}, {NULL, NULL}};
static const option_use NCCL_MODEL[] = {
    {OPT_NCCL_VERSION, false, NULL}, {OPT_LAUNCH, false, NULL}, {OPT_CUDA_GRAPH, false, NULL},
    {OPT_HARNESS, false, NULL}, {OPT_SYMMETRIC, false, NULL}, {OPT_FABRIC_EFFICIENCY, false, NULL},
    {OPT_NCCL_ALGO, false, NULL}, {OPT_NCCL_PROTO, false, NULL}, {OPT_NO_P2P, false, NULL},
    {OPT_FAITHFUL, false, NULL}, END};
static const option_use CHECK_READING[] = {
    {OPT_OP, false, "the collective, when the file does not say"},
    {OPT_GPUS, false, "the rank count, when the file does not say"},
    {OPT_PLATFORM, false, "the cluster (default: guessed from the GPU the file names)"},
    {OPT_NODES, false, "nodes (default: the hosts the file lists)"},
    {OPT_STRICT, false, "exit 3 unless the verdict is healthy (cluster acceptance in CI)"}, END};
static const option_group CHECK_GROUPS[] = {
    {"The run", CHECK_READING}, {"The NCCL model", NCCL_MODEL}, {"Tables", TABLES},
    {"Output", OUTPUT_CHART}, {NULL, NULL}};
static const option_use FIT_READING[] = {
    {OPT_OP, false, "the collective, when a file does not say"},
    {OPT_GPUS, false, "the rank count, when a file does not say"},
    {OPT_PLATFORM, false, "the cluster of every run (default: guessed from the GPU the\n"
                          "first file names)"},
    {OPT_NODES, false, "nodes of every run (default: the hosts each file lists)"}, END};
static const option_use FIT_WRITING[] = {
    {OPT_OUTPUT, false, "write the platforms file to FILE (replacing it when complete)\n"
                        "and print the fit; without it (or with -) the file goes to stdout"},
    {OPT_NAME, false, NULL}, END};
static const option_group FIT_GROUPS[] = {
    {"The runs", FIT_READING}, {"The platform file", FIT_WRITING}, {"The NCCL model", NCCL_MODEL},
    {"Tables", TABLES}, {"Output", OUTPUT}, {NULL, NULL}};
static const option_use BATCH_READING[] = {{OPT_FAIL_FAST, false, NULL}, END};
static const option_use BATCH_OUTPUT[] = {
    {OPT_FORMAT, false, "csv (default: a header, then one row per result) or jsonl\n"
                        "(one JSON object per result); json is refused"},
    {OPT_COLUMNS, false, NULL},
    {OPT_QUIET, false, "no notes or warnings (bad lines are still reported)"},
    {OPT_HELP, false, NULL}, END};
static const option_group BATCH_GROUPS[] = {
    {"Reading", BATCH_READING}, {"Tables (loaded once for every line)", TABLES},
    {"Output", BATCH_OUTPUT}, {NULL, NULL}};
static const option_group PLATFORMS_GROUPS[] = {{"Tables", TABLES}, {"Output", OUTPUT},
                                                {NULL, NULL}};
static const option_use COMPLETION_OPTIONS[] = {{OPT_HELP, false, NULL}, END};
static const option_group COMPLETION_GROUPS[] = {{"Output", COMPLETION_OPTIONS}, {NULL, NULL}};

/* ---- the commands ------------------------------------------------------------ */

static const char COLLECTIVE_USAGE[] = "--size SIZE --gpus N --link NAME [options]\n"
                                       "--size SIZE --platform NAME [--nodes N] [options]\n"
                                       "--size SIZE --gpus N --gpus-per-node G --intra LINK "
                                       "--inter LINK [options]";
static const char COLLECTIVE_DESCRIPTION[] =
    "Cost of one {op}: per-GPU bytes sent and received, step count, latency term\n"
    "(steps x alpha), bandwidth term (bytes / bandwidth), total time, algbw = size /\n"
    "time and busbw = algbw x the nccl-tests factor, for every algorithm (fastest\n"
    "marked) or the ones named with --algo. {size}";

static const char *const ALLREDUCE_EXAMPLES[] = {
    "collcalc allreduce --size 100MB --gpus 8 --link nvlink5",
    "collcalc allreduce --size 100MB --gpus 8 --link nvlink5 --algo ring --bw-basis headline "
    "--layers 80",
    "collcalc allreduce --size 1GB --gpus 16 --gpus-per-node 8 --intra nvlink4 --inter ib-ndr "
    "--explain",
    "collcalc allreduce --size 1GB --platform hgx-h100 --nodes 4",
    "collcalc allreduce --size 64KB --platform hgx-h100 --explain",
    NULL};
static const char *const ALLGATHER_EXAMPLES[] = {
    "collcalc allgather --size 1GB --gpus 8 --link nvlink4",
    "collcalc allgather --size 1GB --platform hgx-h100 --nodes 2",
    "collcalc allgather --size 1GB --platform hgx-h100 --nodes 2 --cost-model alpha-beta --algo ring "
    "--algo hierarchical",
    NULL};
static const char *const REDUCESCATTER_EXAMPLES[] = {
    "collcalc reducescatter --size 1GB --gpus 6 --link nvlink4 --explain", NULL};
static const char *const ALLTOALL_EXAMPLES[] = {
    "collcalc alltoall --size 64MB --gpus 32 --platform hgx-h100",
    "collcalc alltoall --size 64MB --gpus 32 --platform gb200-nvl72", NULL};
static const char *const BROADCAST_EXAMPLES[] = {
    "collcalc broadcast --size 1GB --gpus 8 --link nvlink4", NULL};
static const char *const REDUCE_EXAMPLES[] = {
    "collcalc reduce --size 1GB --gpus 6 --link pcie5 --format csv", NULL};
static const char *const SENDRECV_EXAMPLES[] = {
    "collcalc sendrecv --size 1GB --gpus 2 --gpus-per-node 1 --inter ib-ndr", NULL};
static const char *const COMPARE_EXAMPLES[] = {
    "collcalc compare allreduce --gpus 32 --link nvlink5 --algo ring --algo tree --bw-basis "
    "headline",
    "collcalc compare allreduce --size 100MB --gpus 8 --link nvlink5 --link ib-ndr --bw-basis "
    "headline --layers 80",
    "collcalc compare allreduce --size 64MB --gpus 16 --placement platform=gb200-nvl72 "
    "--placement platform=hgx-b200",
    "collcalc compare allreduce --platform hgx-h100 --nodes 2 --sizes 64KB,16MB",
    NULL};
static const char *const SWEEP_EXAMPLES[] = {
    "collcalc sweep allreduce -b 8 -e 1G -f 2 --gpus 8 --link nvlink4 --style nccl-tests",
    "collcalc sweep allreduce -b 8 -e 1G -f 2 --platform hgx-h100 --style nccl-tests",
    "collcalc sweep allreduce -b 1K -e 4G -f 4 --platform hgx-h100 --nodes 2 --plot --width 80",
    NULL};
static const char *const LINKS_EXAMPLES[] = {"collcalc links --bw-basis headline",
                                             "collcalc links --platform gb200-nvl72", NULL};
static const char *const TOPO_EXAMPLES[] = {
    "collcalc topo examples/topo_hgx_h100_10nic.txt",
    "collcalc topo examples/topo_pcie_switch_pairs.txt --format json", NULL};
static const char *const DIAGNOSE_EXAMPLES[] = {
    "collcalc diagnose examples/nccl_debug_socket_fallback.log", NULL};
static const char *const MODELS_EXAMPLES[] = {"collcalc models",
                                              "collcalc models --model deepseek-v3 --format json",
                                              NULL};
static const char *const KV_EXAMPLES[] = {
    "collcalc kv --model llama-3-70b --tokens 131072",
    "collcalc kv --model llama-3-70b --tokens 8192 --tp 8 --platform hgx-h100 --backend mooncake "
    "--budget 200ms",
    "collcalc kv --model deepseek-v3 --tokens 32768 --link eth400 --backend nixl", NULL};
static const char *const MOE_EXAMPLES[] = {
    "collcalc moe --model deepseek-v3 --ep 32 --tokens 4096 --platform hgx-h800",
    "collcalc moe --model deepseek-v3 --ep 64 --tokens 128 --mode low-latency --platform hgx-h800",
    "collcalc moe --model deepseek-v3 --ep 32 --tokens 4096 --platform hgx-h800 --zipf 1.2 "
    "--redundant-experts 32",
    NULL};
static const char *const PLAN_EXAMPLES[] = {
    "collcalc plan --model llama-3-70b --phase decode --tokens 64 --tp 8 --platform hgx-h100",
    "collcalc plan --model llama-3-70b --phase decode --tokens 64 --tp 16 --platform hgx-h100",
    "collcalc plan --model llama-3-70b --phase decode --tokens 64 --tp 16 --platform gb200-nvl72",
    "collcalc plan --model deepseek-v3 --phase prefill --tokens 65536 --search --platform hgx-h100 "
    "--nodes 4 --gpu-memory 80GB",
    NULL};
static const char *const CHECK_EXAMPLES[] = {
    "collcalc check examples/nccl_allreduce_h100_2node.txt --platform hgx-h100 --nodes 2",
    "collcalc check examples/nccl_allreduce_h100_2node.txt --platform hgx-h100 --nodes 2 --format csv",
    "collcalc check examples/nccl_allreduce_textbook_excerpt.txt --op allreduce --gpus 8 "
    "--platform hgx-h100",
    NULL};
static const char *const FIT_EXAMPLES[] = {
    "collcalc fit examples/nccl_allreduce_p4de_efa_2node.txt --platform aws-p4de --nodes 2",
    "collcalc fit examples/nccl_allreduce_h100_2node.txt --platform hgx-h100 --nodes 2 --output "
    "/tmp/collcalc-fitted.json",
    NULL};
static const char *const BATCH_EXAMPLES[] = {
    "collcalc batch examples/batch_queries.txt",
    "collcalc batch examples/batch_queries.csv --format jsonl",
    "collcalc batch examples/batch_queries.txt --columns time_us,busbw_GBps", NULL};
static const char *const PLATFORMS_EXAMPLES[] = {"collcalc platforms",
                                                 "collcalc platforms --format csv", NULL};
static const char *const COMPLETION_EXAMPLES[] = {"collcalc completion bash",
                                                  "collcalc completion zsh", NULL};

#define COLLECTIVE(name, op, summary, examples)                                                   \
    {name, cmd_collective, summary, COLLECTIVE_USAGE, COLLECTIVE_DESCRIPTION, COLLECTIVE_GROUPS,  \
     examples, op}

static const command_spec COMMANDS[] = {
    COLLECTIVE("allreduce", COLLCALC_OP_ALLREDUCE,
               "all-reduce: per-GPU bytes, steps, latency, time, algbw, busbw", ALLREDUCE_EXAMPLES),
    COLLECTIVE("allgather", COLLCALC_OP_ALLGATHER,
               "all-gather (size = the whole gathered output)", ALLGATHER_EXAMPLES),
    COLLECTIVE("reducescatter", COLLCALC_OP_REDUCESCATTER,
               "reduce-scatter (size = the whole input)", REDUCESCATTER_EXAMPLES),
    COLLECTIVE("alltoall", COLLCALC_OP_ALLTOALL,
               "all-to-all (size = one rank's whole send buffer)", ALLTOALL_EXAMPLES),
    COLLECTIVE("broadcast", COLLCALC_OP_BROADCAST, "broadcast from one GPU", BROADCAST_EXAMPLES),
    COLLECTIVE("reduce", COLLCALC_OP_REDUCE, "reduce to one GPU", REDUCE_EXAMPLES),
    COLLECTIVE("sendrecv", COLLCALC_OP_SENDRECV,
               "send/recv: every GPU sends to the next (nccl-tests sendrecv)", SENDRECV_EXAMPLES),
    {"compare", cmd_compare,
     "algorithms across sizes with crossovers; links or clusters side by side",
     "OP --gpus N --link A [--algo X --algo Y] [--size S | --sizes LIST]\n"
     "OP --size S --gpus N --link A --link B [...]\n"
     "OP --size S --placement SPEC --placement SPEC [...]",
     "Algorithms: the time of each algorithm at each size (default 64KB, 1MB, 100MB,\n"
     "1GB), the fastest marked, and the crossover sizes where the fastest algorithm\n"
     "changes, searched from 1 byte to 1 TiB. By default every algorithm but the\n"
     "centralized counter-example (name it to include it).\n"
     "\n"
     "Links or placements: the same collective on each link (--link repeated) or each\n"
     "cluster placement (--placement repeated), with the ratio of each to the first:\n"
     "total time, latency term and bandwidth term, and the phase that costs most. Each\n"
     "side uses the same algorithm when you name one with --algo; otherwise each\n"
     "side's fastest algorithm NCCL runs, said in the output.",
     COMPARE_GROUPS, COMPARE_EXAMPLES, -1},
    {"sweep", cmd_sweep, "an nccl-tests-like size sweep (-b 8 -e 1G -f 2)",
     "OP -b MIN -e MAX [-f FACTOR | -i STEP] --gpus N --link NAME [options]",
     "Predicts a whole nccl-tests run: for every size from MIN to MAX (multiplied by\n"
     "FACTOR, default 2, or stepped by STEP bytes) the time, algbw and busbw of the\n"
     "fastest algorithm NCCL runs (or of --algo). OP is allreduce, allgather,\n"
     "reducescatter, alltoall, broadcast, reduce or sendrecv. Sizes have nccl-tests'\n"
     "meaning and its suffixes: -b 8 -e 1G is 8 bytes to 2^30 bytes.",
     SWEEP_GROUPS, SWEEP_EXAMPLES, -1},
    {"batch", cmd_batch, "many collective queries, one per line: a CSV row or JSON line each",
     "[FILE|-] [--format csv|jsonl] [--columns LIST] [--fail-fast]\n"
     "[FILE|-] ... [--links FILE] [--platforms FILE]",
     "Reads one collective query per line, written as on the command line\n"
     "(allreduce --size 100MB --gpus 8 --link nvlink5 --algo ring), or a CSV whose\n"
     "first line names the columns: op and option names (op,size,gpus,link,algo;\n"
     "flags take true/false, several --algo values are separated by ';'). Blank\n"
     "lines and # comments are skipped. Every query is parsed, checked and costed\n"
     "as the single command would (the alpha-beta model, or NCCL's with a\n"
     "platform), and each result is written as it comes: CSV rows with the single\n"
     "command's --format csv columns after a first column 'line' (the input line\n"
     "number), or JSON objects with \"line\" first. A bad line is reported on stderr\n"
     "as 'collcalc batch: FILE:LINE: message' and the others still run (--fail-fast\n"
     "stops at it); the exit code is then 1. Lines over 64 KiB, NUL bytes and\n"
     "invalid UTF-8 are such errors. Tables load once; memory stays bounded.\n"
     "--columns keeps only the named result columns after 'line': the fast way\n"
     "through millions of lines, as columns not printed are not computed (a line\n"
     "that differs from a recent one only in --size also reuses its resolved\n"
     "cluster, whatever the columns).",
     BATCH_GROUPS, BATCH_EXAMPLES, -1},
    {"links", cmd_links, "the bandwidth hierarchy and the cliff between tiers",
     "[--bw-basis per-direction|headline] [--path A,B,...] [--platform NAME]",
     "Lists every link in the table (built in, or with --links FILE): tier, bandwidth\n"
     "per direction and as vendors quote it (the headline figure, and what it\n"
     "counts), per-step latency alpha, and where each figure comes from (--format\n"
     "json). Then walks a path from the GPU outwards and prints the ratio between\n"
     "adjacent tiers: the bandwidth cliff (default path\n"
     "hbm3|hbm3e-b200,nvlink5,pcie5,ib-ndr,eth100; a|b is a range).",
     LINKS_GROUPS, LINKS_EXAMPLES, -1},
    {"platforms", cmd_platforms, "platform presets: GPUs per node, links, NICs, NVLS", "[options]",
     "Lists the platform presets: GPUs per node (NVLink domain), the link between\n"
     "GPUs inside it, the scale-out NIC and how many per node, whether the NVSwitch\n"
     "reduces in the switch (NVLS), and the NCCL inputs (GPU generation, CPU,\n"
     "transport). Use one with --platform NAME on any collective command; options you\n"
     "give explicitly override the preset. --format json adds the source of every\n"
     "figure.",
     PLATFORMS_GROUPS, PLATFORMS_EXAMPLES, -1},
    {"topo", cmd_topo, "read nvidia-smi topo -m or rocm-smi --showtopo: islands, GPU-NIC affinity, TP/EP groups",
     "FILE|- [--gpu MODEL] [options]",
     "Reads the output of `nvidia-smi topo -m` or `topo -mp` (as printed: tabs or\n"
     "spaces, legend blocks, old and new drivers, a pasted or truncated copy), or AMD's\n"
     "`rocm-smi --showtopo` (xGMI), and reports each GPU\n"
     "pair's connection (NV#, XGMI, PIX, PXB, PHB, NODE, SYS) with the bandwidth it implies,\n"
     "the NVLink islands and whether each is an NVSwitch fabric, each GPU's nearest\n"
     "NIC and NUMA node, and advice: TP and EP groups, pairs to avoid, a bridge that\n"
     "looks unseated, GPUDirect RDMA paths that cross the CPU.",
     TOPO_GROUPS, TOPO_EXAMPLES, -1},
    {"diagnose", cmd_diagnose, "read an NCCL_DEBUG=INFO log: transports, channels, what went wrong",
     "FILE|- [--strict] [options]",
     "Reads an NCCL_DEBUG=INFO log (one rank or many interleaved, any NCCL 2.x,\n"
     "streamed in bounded memory) and reports the NCCL version, ranks and nodes, the\n"
     "network plugin and transport, GPUDirect RDMA, channels, the transport of every\n"
     "ring and tree hop, and findings (error, warning, info) with the lines that show\n"
     "them and the NCCL_* variable or setting to check next.",
     DIAGNOSE_GROUPS, DIAGNOSE_EXAMPLES, -1},
    {"check", cmd_check, "judge an nccl-tests run: measured vs predicted per size, and a verdict",
     "FILE|- [--platform P --nodes N] [options]",
     "Reads nccl-tests output as real machines print it (every *_perf binary, MPI\n"
     "prefixes, in-place columns, -C/-S/-d all, truncated tables, the four-column\n"
     "excerpt textbooks quote), infers what it can (op, ranks, hosts, launch mode,\n"
     "GPU, NCCL version), predicts every row with NCCL's own tuner plus collcalc's\n"
     "corrections, and prints measured against predicted with the error. Each row is\n"
     "also checked against itself (algbw = size / time, busbw = algbw x factor). The\n"
     "verdict: healthy, below-expectation (with the sizes, how far, and what to look\n"
     "at), above-line-rate, or unknown (and why, and what option would help). NCCL_DEBUG\n"
     "lines and topology matrices (nvidia-smi topo -m, rocm-smi --showtopo) in the\n"
     "paste are read too, every matrix rendered; a paste of only those is reported.",
     CHECK_GROUPS, CHECK_EXAMPLES, -1},
    {"fit", cmd_fit, "calibrate a platform from nccl-tests runs: a platforms file for --platforms",
     "FILE... [--platform P --nodes N] [--output FILE] [--name NAME] [options]",
     "Reads one or more nccl-tests runs of one cluster (as check reads them), predicts\n"
     "every row with NCCL's tuner plus collcalc's corrections, and fits what the\n"
     "model cannot know: the network's per-step latency (latency_inter_us, from runs\n"
     "on more than one node), the share of NCCL's per-channel bandwidth the cluster\n"
     "delivers (bw_efficiency) and the fabric efficiency beyond 2 nodes. Each is\n"
     "bounded to a physical range; one the runs cannot identify is left out and the\n"
     "missing sizes are named. Prints each value with its unit and meaning and the\n"
     "median errors before and after, and writes a platforms overlay (PLATFORM-fitted\n"
     "by default) with the values in its nccl_fit object.",
     FIT_GROUPS, FIT_EXAMPLES, -1},
    {"plan", cmd_plan, "will a TP/EP/PP/DP deployment fit, how fast is a step, what it communicates",
     "--model M --phase P --tokens T --tp N [--ep N --pp N --dp N] --platform P [--nodes N]\n"
     "--model M --tokens T --search --platform P --nodes N [--goal throughput|latency]",
     "Lays out the rank groups of a deployment (TP fastest, then CP, EP, PP, DP;\n"
     "--order changes it), decides on which tier each group's collectives run, and\n"
     "reports per collective kind (TP all-reduce or RS + AG with --sp, EP dispatch\n"
     "and combine, PP send/recv, DP gradient reduction for train, CP ring) the count\n"
     "per layer and per step, the message, the link and the time (with --platform\n"
     "NCCL's tuner, one process per GPU: the single command's --launch\n"
     "process-per-gpu). --tokens: the deployment's tokens of a step, split over DP.\n"
     "Memory per GPU (on by default: the platform's GPU in data/gpus.json, or\n"
     "--gpu-memory; 90 % usable): weights in the model's native format (or\n"
     "--weight-dtype), the KV cache at --context, activations, NCCL and DeepEP\n"
     "buffers; a plan that does not fit is an error, and the largest tokens per step\n"
     "and context that fit are given. Step time: a roofline per layer (GEMMs at the\n"
     "GPU's dense FLOP/s, weights, KV reads and experts at its memory bandwidth)\n"
     "plus the communication not hidden, giving the time per output token, tokens/s\n"
     "per GPU and the communication share. Left out: kernel efficiency (the peak is\n"
     "used unless --compute-efficiency), launch and scheduling overheads, CUDA\n"
     "graphs, speculative decoding, prefix caching, chunked prefill mixing, the\n"
     "attention kernel's own limits, and memory fragmentation. Rule checks: TP\n"
     "across the NVLink domain, TP vs heads and KV heads, EP vs experts, memory.\n"
     "--strict exits 3 on errors; --search ranks factorizations: fitting first, by --goal.",
     PLAN_GROUPS, PLAN_EXAMPLES, -1},
    {"moe", cmd_moe, "expert-parallel dispatch/combine of one MoE layer: bytes, time, imbalance",
     "--model M --ep E --tokens T --platform P [options]",
     "Costs the dispatch and combine all-to-all of one MoE layer with DeepEP's\n"
     "accounting (FP8 dispatch H + H/128 x 4 + 16 bytes, BF16 combine 2H per selected\n"
     "token-expert) on the busiest GPU: the share that stays on it, crosses NVLink or\n"
     "xGMI and the network, the time of each in DeepEP's normal or low-latency kernels\n"
     "(inside one rack-scale NVLink domain both are the one-sided NVLink all-to-all),\n"
     "load imbalance (the hottest GPU decides), redundant experts, two-batch overlap.",
     MOE_GROUPS, MOE_EXAMPLES, -1},
    {"kv", cmd_kv, "KV-cache bytes per token and shard, and the prefill -> decode transfer",
     "--model M --tokens T [--tp N --pp N] [--link L | --platform P] [--backend B]",
     "KV bytes per token (MHA/GQA: 2 x layers x KV heads x head dim x bytes; MLA:\n"
     "layers x (kv_lora_rank + rope dim) x bytes; sliding-window layers capped at\n"
     "their window), per shard of the prefill instance (KV heads replicated when TP\n"
     "exceeds them), and with a link or platform the transfer time to decode with a\n"
     "backend's efficiency and per-transfer costs; --budget says whether it fits.\n"
     "--tokens is one request's prompt (8k = 8192). Paths: each prefill GPU ships\n"
     "its shard on the NICs its backend drives (nccl: the GPU's own; nixl: one;\n"
     "mooncake: its rail, with --topo all at equal shares; tcp: any of the node's,\n"
     "through host memory, CPU-capped, never NVLink); NVLink when prefill and decode\n"
     "share an NVLink domain (--kv-path); host-memory copies with --no-gdr; another\n"
     "--decode-tp re-shards (each decode GPU pulls its heads from the prefill GPUs).",
     KV_GROUPS, KV_EXAMPLES, -1},
    {"models", cmd_models, "the model shapes plan, moe and kv know", "[--model M] [options]",
     "Lists the model shapes (layers, hidden size, heads, KV heads, head dim, FFN,\n"
     "experts, MLA ranks, sliding windows) with the source of every figure in\n"
     "--format json. --model-file FILE adds your own.",
     MODELS_GROUPS, MODELS_EXAMPLES, -1},
    {"completion", cmd_completion, "a bash or zsh completion script: commands, options, names",
     "bash|zsh",
     "Prints a completion script for the shell, generated from this binary's commands,\n"
     "options and built-in link, platform and model names. Load it for this shell\n"
     "with: source <(collcalc completion bash); or install it as\n"
     "share/bash-completion/completions/collcalc (zsh: share/zsh/site-functions/_collcalc),\n"
     "as 'cmake --install' does.",
     COMPLETION_GROUPS, COMPLETION_EXAMPLES, -1},
};

enum { COMMAND_COUNT = sizeof COMMANDS / sizeof COMMANDS[0] };

const command_spec *command_table(size_t *out_count)
{
    *out_count = COMMAND_COUNT;
    return COMMANDS;
}

const command_spec *command_find(const char *word)
{
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        if (strcmp(word, COMMANDS[i].name) == 0)
            return &COMMANDS[i];
    collcalc_op op;
    if (collcalc_op_from_name(word, &op, NULL) == COLLCALC_OK)
        for (size_t i = 0; i < COMMAND_COUNT; i++)
            if (COMMANDS[i].op == (int)op)
                return &COMMANDS[i];
    return NULL;
}

/* ---- top level ------------------------------------------------------------------ */

static void print_usage(FILE *out)
{
    fputs("Usage: collcalc <command> [options]\n"
          "       collcalc help <command> | collcalc <command> --help | collcalc --version\n"
          "\n"
          "Collective-communication cost calculator: what all-reduce, all-gather,\n"
          "reduce-scatter, all-to-all and broadcast move per GPU, how many steps they\n"
          "take, and what that costs on NVLink, PCIe, InfiniBand or Ethernet.\n"
          "\n"
          "Commands:\n",
          out);
    for (size_t i = 0; i < COMMAND_COUNT; i++)
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
          "unless --bw-basis headline.\n"
          "Exit codes: 0 ok; 1 bad data, file or write error; 2 usage error; 3 a --strict\n"
          "check found a violation.\n"
          "\n"
          "  -h, --help      this text ('collcalc help CMD' for a command)\n"
          "  -V, --version   the version\n",
          out);
}

static int finish_plain(FILE *out, FILE *err)
{
    if (fflush(out) != 0 || ferror(out)) {
        fputs("collcalc: error writing output\n", err);
        return EXIT_DATA;
    }
    return EXIT_OK;
}

static int unknown_command(const char *word, FILE *err)
{
    const char *names[COMMAND_COUNT];
    for (size_t i = 0; i < COMMAND_COUNT; i++)
        names[i] = COMMANDS[i].name;
    char shown[COLLCALC_ECHO_BUFFER], hint[160];
    collcalc_echo(shown, sizeof shown, word);
    collcalc_suggest_text(hint, sizeof hint, word, names, COMMAND_COUNT);
    fprintf(err, "collcalc: unknown command '%s'%s (see 'collcalc --help')\n", shown, hint);
    return EXIT_USAGE;
}

static bool is_help(const char *word)
{
    return strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 || strcmp(word, "help") == 0;
}

static int run_command(const command_spec *spec, const char *word, int argc, char **argv,
                       FILE *in, FILE *out, FILE *err)
{
    cli_context ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.spec = spec;
    ctx.name = spec->op >= 0 ? spec->name : word;
    ctx.in = in;
    ctx.out = out;
    ctx.err = err;
    option_use accepted[OPT_COUNT + 1];
    size_t n = 0;
    for (const option_group *group = spec->groups; group->title != NULL; group++)
        for (const option_use *use = group->options; use->id != OPT_NONE && n < OPT_COUNT; use++)
            accepted[n++] = *use;
    accepted[n] = (option_use){OPT_NONE, false, NULL};
    parse_error error;
    if (!options_parse(accepted, argc, argv, &ctx.args, &error)) {
        options_free(&ctx.args);
        return cli_usage_error(&ctx, NULL, "%s", error.message);
    }
    if (arg_given(&ctx.args, OPT_HELP)) {
        options_free(&ctx.args);
        help_print(out, spec);
        return finish_plain(out, err);
    }
    const char *format = arg_value(&ctx.args, OPT_FORMAT);
    if (format != NULL && spec->run != cmd_batch && /* batch reads its own --format */
        (!output_format_parse(format, &ctx.format) || ctx.format == FORMAT_JSONL)) {
        char shown[COLLCALC_ECHO_BUFFER];
        collcalc_echo(shown, sizeof shown, format);
        options_free(&ctx.args);
        return cli_usage_error(&ctx, "--format", "unknown format '%s' (table, json or csv)",
                               shown);
    }
    int code = spec->run(&ctx);
    code = cli_finish(&ctx, code);
    cli_context_free(&ctx);
    return code;
}

int collcalc_cli_main(int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    if (argc < 2) {
        fputs("collcalc: missing command (see 'collcalc --help')\n", err);
        return EXIT_USAGE;
    }
    const char *word = argv[1];
    if (is_help(word)) {
        if (argc > 2) {
            const command_spec *spec = command_find(argv[2]);
            if (spec == NULL)
                return unknown_command(argv[2], err);
            help_print(out, spec);
            return finish_plain(out, err);
        }
        print_usage(out);
        return finish_plain(out, err);
    }
    if (strcmp(word, "--version") == 0 || strcmp(word, "-V") == 0) {
        fprintf(out, "collcalc %s\n", collcalc_version());
        return finish_plain(out, err);
    }
    if (word[0] == '-') {
        char shown[COLLCALC_ECHO_BUFFER];
        collcalc_echo(shown, sizeof shown, word);
        fprintf(err,
                "collcalc: '%s' before the command: options follow the command, as in "
                "'collcalc allreduce --size 100MB ...' (see 'collcalc --help')\n",
                shown);
        return EXIT_USAGE;
    }
    const command_spec *spec = command_find(word);
    if (spec == NULL)
        return unknown_command(word, err);
    return run_command(spec, word, argc - 1, argv + 1, in, out, err);
}
