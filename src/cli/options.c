/* The option registry and the argv walker (options.h). */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "messages.h"

/* Indexed by id: the order help texts list options in within a group is
 * the command's, not this one. */
static const option_def DEFS[OPT_COUNT] = {
    [OPT_HELP] = {OPT_HELP, "help", NULL, 'h', NULL, "this text"},
    [OPT_SIZE] = {OPT_SIZE, "size", NULL, 's', "SIZE",
                  "message size with nccl-tests' meaning: 100MB (10^8 B),\n"
                  "100MiB (2^20 B x 100), 1G (binary, as nccl-tests), 4096"},
    [OPT_GPUS] = {OPT_GPUS, "gpus", NULL, 'n', "N", "GPUs (ranks) taking part"},
    [OPT_ALGO] = {OPT_ALGO, "algo", NULL, 'a', "NAME",
                  "an algorithm (repeatable), or 'all' (default)"},
    [OPT_LAYERS] = {OPT_LAYERS, "layers", NULL, 0, "L",
                    "repeat L times (e.g. 80 layers per token) and print totals"},
    [OPT_PER_LAYER] = {OPT_PER_LAYER, "per-layer", NULL, 0, "K",
                       "collectives per layer (default 1)"},
    [OPT_OP] = {OPT_OP, "op", NULL, 0, "OP",
                "the collective (also the first word after the command)"},
    [OPT_MIN_BYTES] = {OPT_MIN_BYTES, "minbytes", NULL, 'b', "SIZE", "first size (default 8)"},
    [OPT_MAX_BYTES] = {OPT_MAX_BYTES, "maxbytes", NULL, 'e', "SIZE", "last size (default 1G)"},
    [OPT_STEP_FACTOR] = {OPT_STEP_FACTOR, "stepfactor", NULL, 'f', "F",
                         "multiply by F each row (default 2)"},
    [OPT_STEP_BYTES] = {OPT_STEP_BYTES, "stepbytes", NULL, 'i', "SIZE",
                        "add SIZE each row instead of multiplying"},
    [OPT_SIZES] = {OPT_SIZES, "sizes", NULL, 0, "LIST",
                   "explicit sizes: 64KB,1MB,100MB, or a doubling range 8..1G"},
    [OPT_LINK] = {OPT_LINK, "link", NULL, 'l', "NAME",
                  "a link from the table (see 'collcalc links'): nvlink5,\n"
                  "nvlink4, pcie5, ib-ndr, eth400, ..."},
    [OPT_BW] = {OPT_BW, "bw", NULL, 0, "BW",
                "override the link's bandwidth: 400GB/s, 400Gb/s, 3.2Tbps"},
    [OPT_ALPHA] = {OPT_ALPHA, "alpha", NULL, 0, "TIME",
                   "override the per-step latency: 2us, 500ns, 0"},
    [OPT_BW_BASIS] = {OPT_BW_BASIS, "bw-basis", NULL, 0, "B",
                      "per-direction (default: what a ring step gets) or headline\n"
                      "(the vendor figure: NVLink 5 = 1,800 GB/s counts both\n"
                      "directions; reproduces textbook examples)"},
    [OPT_PLATFORM] = {OPT_PLATFORM, "platform", NULL, 'p', "NAME",
                      "a preset (see 'collcalc platforms'): hgx-h100, gb200-nvl72,\n"
                      "...; alone it means one node; explicit options win"},
    [OPT_NODES] = {OPT_NODES, "nodes", NULL, 0, "N",
                   "N nodes; with --gpus P each holds P/N GPUs"},
    [OPT_GPUS_PER_NODE] = {OPT_GPUS_PER_NODE, "gpus-per-node", "domain-size", 0, "G",
                           "GPUs per node / NVLink domain; GPUs fill nodes in\n"
                           "order, the last may be partial"},
    [OPT_INTRA] = {OPT_INTRA, "intra", NULL, 0, "LINK", "the link inside a node (default: the platform's; --link where taken)"},
    [OPT_INTER] = {OPT_INTER, "inter", NULL, 0, "LINK", "the NIC between nodes, e.g. ib-ndr"},
    [OPT_NICS_PER_NODE] = {OPT_NICS_PER_NODE, "nics-per-node", NULL, 0, "K",
                           "NICs per node (default: one per GPU, rail-optimized)"},
    [OPT_NICS_PER_GPU] = {OPT_NICS_PER_GPU, "nics-per-gpu", NULL, 0, "R",
                          "NICs one GPU can drive at once (default 1)"},
    [OPT_NVLS] = {OPT_NVLS, "nvls", NULL, 0, NULL,
                  "the NVSwitch reduces in the switch (NVLink SHARP)"},
    [OPT_NO_NVLS] = {OPT_NO_NVLS, "no-nvls", NULL, 0, NULL, "switch a preset's NVLS off"},
    [OPT_SHARP] = {OPT_SHARP, "sharp", NULL, 0, NULL,
                   "the scale-out switches reduce in the network (SHARP)"},
    [OPT_TREE_EFFICIENCY] = {OPT_TREE_EFFICIENCY, "tree-efficiency", NULL, 0, "F",
                             "bandwidth fraction a double binary tree reaches\n"
                             "(default 0.92, NCCL's Tree AllReduce factor)"},
    [OPT_PLACEMENT] = {OPT_PLACEMENT, "placement", NULL, 0, "SPEC",
                       "a cluster to compare (repeatable): label=L,platform=P,\n"
                       "gpus-per-node=G,intra=L,inter=L,nics-per-node=K,\n"
                       "link=L,nodes=N,nvls,no-nvls,sharp"},
    [OPT_TOPO] = {OPT_TOPO, "topo", NULL, 0, "FILE",
                  "the intra-node path from `nvidia-smi topo -m` output: one\n"
                  "NVSwitch island runs at its NVLink rate, anything else at\n"
                  "its slowest GPU pair"},
    [OPT_LINKS_FILE] = {OPT_LINKS_FILE, "links", NULL, 0, "FILE",
                        "a JSON link table added to the built-in one (same name\n"
                        "replaces); '-' reads it from stdin"},
    [OPT_LINKS_ONLY] = {OPT_LINKS_ONLY, "links-only", NULL, 0, "FILE",
                        "use only this JSON link table"},
    [OPT_PLATFORMS_FILE] = {OPT_PLATFORMS_FILE, "platforms", NULL, 0, "FILE",
                            "a JSON platform table added to the built-in one"},
    [OPT_PLATFORMS_ONLY] = {OPT_PLATFORMS_ONLY, "platforms-only", NULL, 0, "FILE",
                            "use only this JSON platform table"},
    [OPT_PATH] = {OPT_PATH, "path", NULL, 0, "LIST",
                  "the cliff along these links, GPU outwards; a|b is a range"},
    [OPT_STYLE] = {OPT_STYLE, "style", NULL, 0, "S",
                   "table (default) or nccl-tests (its header, columns and\n"
                   "number formats)"},
    [OPT_GPU] = {OPT_GPU, "gpu", NULL, 0, "GPU",
                 "the GPU model or generation (h100, a100, b200, sm90, ...);\n"
                 "default: inferred from the NVLink bond counts"},
    [OPT_STRICT] = {OPT_STRICT, "strict", NULL, 0, NULL,
                    "exit 3 when a finding is an error (for CI gates)"},
    [OPT_OUTPUT] = {OPT_OUTPUT, "output", NULL, 'o', "FILE",
                    "write the result to FILE (replaced if it exists)"},
    [OPT_NAME] = {OPT_NAME, "name", NULL, 0, "NAME",
                  "name of the platform written (default: PLATFORM-fitted;\n"
                  "the platform's own name replaces the preset)"},
    [OPT_COST_MODEL] = {OPT_COST_MODEL, "cost-model", NULL, 0, "M",
                        "nccl (NCCL's tuner and what nccl-tests would print;\n"
                        "the default with --platform) or alpha-beta (the\n"
                        "textbook phase model; the default otherwise)"},
    [OPT_NCCL_VERSION] = {OPT_NCCL_VERSION, "nccl-version", NULL, 0, "V",
                          "the NCCL release whose tuner to follow (2.18 .. 2.30;\n"
                          "default the newest modelled)"},
    [OPT_LAUNCH] = {OPT_LAUNCH, "launch", NULL, 0, "L",
                    "process-per-gpu (nccl-tests -g 1 under MPI) or\n"
                    "single-process (nccl-tests -g N); default as nccl-tests'\n"
                    "README runs it: single-process on one host of <= 8 GPUs,\n"
                    "process-per-gpu across hosts"},
    [OPT_CUDA_GRAPH] = {OPT_CUDA_GRAPH, "cuda-graph", NULL, 0, NULL,
                        "launched from CUDA graphs (nccl-tests -G)"},
    [OPT_HARNESS] = {OPT_HARNESS, "harness", NULL, 0, "H",
                     "what issues the calls: nccl-tests (default) or torch\n"
                     "(torch.distributed: ~12 us more host time a call)"},
    [OPT_SYMMETRIC] = {OPT_SYMMETRIC, "symmetric", NULL, 0, NULL,
                       "symmetric buffer registration (nccl-tests -R 2, NCCL 2.27+)"},
    [OPT_FABRIC_EFFICIENCY] = {OPT_FABRIC_EFFICIENCY, "fabric-efficiency", NULL, 0, "F",
                               "share of the network bandwidth the fabric delivers\n"
                               "beyond 2 nodes (default 1 - 0.06 log2(N/2), >= 0.7)"},
    [OPT_NCCL_ALGO] = {OPT_NCCL_ALGO, "nccl-algo", NULL, 0, "LIST",
                       "force algorithms as NCCL_ALGO does: ring,tree, ^nvls,\n"
                       "allreduce:tree"},
    [OPT_NCCL_PROTO] = {OPT_NCCL_PROTO, "nccl-proto", NULL, 0, "LIST",
                        "force protocols as NCCL_PROTO does: simple, ^ll128"},
    [OPT_NO_P2P] = {OPT_NO_P2P, "no-p2p", NULL, 0, NULL,
                    "no CUDA P2P between the GPUs of a node: SHM through host\n"
                    "memory"},
    [OPT_FAITHFUL] = {OPT_FAITHFUL, "faithful", NULL, 0, NULL,
                      "NCCL's own model exactly, without collcalc's corrections"},
    [OPT_MODEL] = {OPT_MODEL, "model", NULL, 'm', "NAME",
                   "a model shape (see 'collcalc models'): llama-3-70b,\n"
                   "deepseek-v3, qwen3-235b-a22b, ..."},
    [OPT_MODEL_FILE] = {OPT_MODEL_FILE, "model-file", NULL, 0, "FILE",
                        "a JSON model table added to the built-in one (same name\n"
                        "replaces); '-' reads it from stdin"},
    [OPT_PHASE] = {OPT_PHASE, "phase", NULL, 0, "P", "prefill, decode (default) or train"},
    [OPT_TOKENS] = {OPT_TOKENS, "tokens", NULL, 't', "T",
                    "tokens (see the description for what they count)"},
    [OPT_DTYPE] = {OPT_DTYPE, "dtype", NULL, 0, "T", "element type: bf16 (default), fp8, fp16, fp32"},
    [OPT_TP] = {OPT_TP, "tp", NULL, 0, "N", "tensor-parallel degree (default 1)"},
    [OPT_PP] = {OPT_PP, "pp", NULL, 0, "N", "pipeline-parallel degree (default 1)"},
    [OPT_EP] = {OPT_EP, "ep", NULL, 0, "N", "expert-parallel degree (default 1)"},
    [OPT_DP] = {OPT_DP, "dp", NULL, 0, "N", "data-parallel degree (default 1)"},
    [OPT_CP] = {OPT_CP, "cp", NULL, 0, "N", "context-parallel degree (default 1)"},
    [OPT_SP] = {OPT_SP, "sp", NULL, 0, NULL,
                "sequence parallelism: each TP all-reduce becomes RS + AG"},
    [OPT_ORDER] = {OPT_ORDER, "order", NULL, 0, "LIST",
                   "rank order, fastest first (default tp,cp,ep,pp,dp)"},
    [OPT_SEARCH] = {OPT_SEARCH, "search", NULL, 0, NULL,
                    "rank every (TP, EP, PP, DP) for the GPUs, keeping the\n"
                    "degrees given: fitting plans first, then by --goal"},
    [OPT_TOP] = {OPT_TOP, "top", NULL, 0, "N", "with --search, how many plans to show (default 10)"},
    [OPT_OVERLAP] = {OPT_OVERLAP, "overlap", NULL, 0, "F",
                     "fraction of TP and EP communication hidden behind\n"
                     "compute (default 0: nothing hidden)"},
    [OPT_SM_SLOWDOWN] = {OPT_SM_SLOWDOWN, "sm-slowdown", NULL, 0, "X",
                         "compute slowdown while communication overlaps it\n"
                         "(SM contention; default 1)"},
    [OPT_MICRO_BATCHES] = {OPT_MICRO_BATCHES, "micro-batches", NULL, 0, "N",
                           "micro-batches per step (default: pp for train, else 1)"},
    [OPT_DISPATCH_DTYPE] = {OPT_DISPATCH_DTYPE, "dispatch-dtype", NULL, 0, "T",
                            "dispatch element type: fp8 (default, DeepEP) or bf16"},
    [OPT_COMBINE_DTYPE] = {OPT_COMBINE_DTYPE, "combine-dtype", NULL, 0, "T",
                           "combine element type: bf16 (default) or fp8"},
    [OPT_MODE] = {OPT_MODE, "mode", NULL, 0, "M",
                  "DeepEP kernels: normal (prefill, training) or low-latency\n"
                  "(decode)"},
    [OPT_IMBALANCE] = {OPT_IMBALANCE, "imbalance", NULL, 0, "X",
                       "max/mean tokens per GPU, 1 to EP (default 1: balanced)"},
    [OPT_ZIPF] = {OPT_ZIPF, "zipf", NULL, 0, "S", "expert popularity skewed as Zipf(S)"},
    [OPT_EXPERT_LOADS] = {OPT_EXPERT_LOADS, "expert-loads", NULL, 0, "FILE",
                          "per-expert token counts (JSON or CSV, as SGLang's and\n"
                          "vLLM's expert-distribution recorders dump them)"},
    [OPT_REDUNDANT_EXPERTS] = {OPT_REDUNDANT_EXPERTS, "redundant-experts", NULL, 0, "R",
                               "extra expert slots (SGLang --ep-num-redundant-experts)"},
    [OPT_SPLIT_BATCH] = {OPT_SPLIT_BATCH, "split-batch", NULL, 0, "N",
                         "1 (default) or 2: two-batch overlap"},
    [OPT_ROUTER_TIME] = {OPT_ROUTER_TIME, "router-time", NULL, 0, "TIME",
                         "router (gate) time of the micro-batch, e.g. 20us"},
    [OPT_EXPERT_TIME] = {OPT_EXPERT_TIME, "expert-time", NULL, 0, "TIME",
                         "expert GEMM time of the micro-batch, e.g. 300us"},
    [OPT_DEDUP] = {OPT_DEDUP, "dedup", NULL, 0, NULL,
                   "ship one copy of KV heads that TP replicates"},
    [OPT_BACKEND] = {OPT_BACKEND, "backend", NULL, 0, "B",
                     "KV transfer backend: nccl (default), nixl, mooncake, tcp"},
    [OPT_BUDGET] = {OPT_BUDGET, "budget", NULL, 0, "TIME",
                    "a time budget for the transfer (TTFT share) above 0, e.g. 200ms"},
    [OPT_BLOCK_SIZE] = {OPT_BLOCK_SIZE, "block-size", NULL, 0, "SIZE",
                        "transfer block above 0 (default: one layer's shard)"},
    [OPT_GPU_MEMORY] = {OPT_GPU_MEMORY, "gpu-memory", NULL, 0, "SIZE",
                        "memory per GPU (80GB, 141GB, 192GB); default: the\n"
                        "platform's GPU (data/gpus.json)"},
    [OPT_WEIGHT_DTYPE] = {OPT_WEIGHT_DTYPE, "weight-dtype", NULL, 0, "T",
                          "weight format: bf16, fp8, fp16, fp32, mxfp4, nvfp4\n"
                          "(default: the model's native one, see 'collcalc models')"},
    [OPT_KV_DTYPE] = {OPT_KV_DTYPE, "kv-dtype", NULL, 0, "T",
                      "KV cache element type (default: the activation type)"},
    [OPT_CONTEXT] = {OPT_CONTEXT, "context", NULL, 0, "T",
                     "context per sequence (decode, default 4096), prompt length (prefill,\n"
                     "default --tokens) or sequence length (train, default 4096); 8k = 8192"},
    [OPT_GOAL] = {OPT_GOAL, "goal", NULL, 0, "G",
                  "with --search, rank by throughput (default: tokens/s per GPU at\n"
                  "the largest batch that fits) or latency (at --tokens; TTFT in prefill)"},
    [OPT_LATENCY_BUDGET] = {OPT_LATENCY_BUDGET, "latency-budget", NULL, 0, "TIME",
                            "with --search, plans slower (step; prefill TTFT) are OVER,\n"
                            "ranked after those within; caps the peak batch, e.g. 50ms"},
    [OPT_DECODE_TP] = {OPT_DECODE_TP, "decode-tp", NULL, 0, "N",
                       "the decode instance's TP degree (default: --tp; divides the\n"
                       "heads); another degree re-shards the KV on the way"},
    [OPT_KV_PATH] = {OPT_KV_PATH, "kv-path", NULL, 0, "P",
                     "nvlink (prefill and decode share an NVLink domain), network,\n"
                     "or auto (default: nvlink when both fit one multi-node NVLink\n"
                     "domain such as a GB200 NVL72 rack, else network; tcp: network)"},
    [OPT_NO_GDR] = {OPT_NO_GDR, "no-gdr", NULL, 0, NULL,
                    "GPUDirect RDMA off: the KV crosses the host link (PCIe, C2C) into\n"
                    "host memory and out (nccl, nixl: pipelined; mooncake: in series)"},
    [OPT_COMPUTE_EFFICIENCY] = {OPT_COMPUTE_EFFICIENCY, "compute-efficiency", NULL, 0, "F",
                                "fraction of the GPU's peak FLOP/s and memory\n"
                                "bandwidth kernels reach (default 1: the roofline)"},
    [OPT_FAIL_FAST] = {OPT_FAIL_FAST, "fail-fast", NULL, 0, NULL,
                       "stop at the first bad line (default: report it, go on)"},
    [OPT_COLUMNS] = {OPT_COLUMNS, "columns", NULL, 0, "LIST",
                     "only these result columns, in this order, after 'line'\n"
                     "(time_us,busbw_GBps; names as in the CSV header)"},
    [OPT_PLOT] = {OPT_PLOT, "plot", NULL, 0, NULL,
                  "draw the curves in the terminal (log-log; Unicode when the\n"
                  "locale is UTF-8, else ASCII)"},
    [OPT_SVG] = {OPT_SVG, "svg", NULL, 0, "FILE", "write the same chart as a standalone SVG ('-': to stdout,\n"
                                            "in place of the report)"},
    [OPT_WIDTH] = {OPT_WIDTH, "width", NULL, 0, "N",
                   "chart width in columns (default: the terminal's, else 80)"},
    [OPT_FORMAT] = {OPT_FORMAT, "format", NULL, 0, "F", "table (default), json or csv"},
    [OPT_QUIET] = {OPT_QUIET, "quiet", NULL, 'q', NULL,
                   "no notes or warnings on stderr (errors still print)"},
    [OPT_EXPLAIN] = {OPT_EXPLAIN, "explain", NULL, 0, NULL,
                     "show the arithmetic: every phase, its link, steps, bytes,\n"
                     "latency and bandwidth terms"},
};

const option_def *option_def_of(option_id id)
{
    return (id > OPT_NONE && id < OPT_COUNT) ? &DEFS[id] : &DEFS[OPT_HELP];
}

const char *option_long(option_id id, char *buffer, size_t size)
{
    snprintf(buffer, size, "--%s", option_def_of(id)->name);
    return buffer;
}

static const option_use *find_use(const option_use *accepted, const char *name, size_t length,
                                  char short_name)
{
    for (const option_use *use = accepted; use->id != OPT_NONE; use++) {
        const option_def *def = option_def_of(use->id);
        if (short_name != 0) {
            if (def->short_name == short_name)
                return use;
            continue;
        }
        if ((strlen(def->name) == length && strncmp(def->name, name, length) == 0) ||
            (def->alias != NULL && strlen(def->alias) == length &&
             strncmp(def->alias, name, length) == 0))
            return use;
    }
    return NULL;
}

/* "unknown option '--sise' (did you mean --size?)" */
static void unknown_option(const option_use *accepted, const char *word, size_t length,
                           parse_error *error)
{
    const char *names[OPT_COUNT];
    size_t count = 0;
    for (const option_use *use = accepted; use->id != OPT_NONE && count < OPT_COUNT; use++)
        names[count++] = option_def_of(use->id)->name;
    char shown[80], typed[64], hint[160];
    snprintf(typed, sizeof typed, "%.*s", (int)(length < 60 ? length : 60), word);
    message_cut(shown, sizeof shown, word, length);
    const char *bare = typed;
    while (*bare == '-')
        bare++;
    collcalc_suggest_text_prefixed(hint, sizeof hint, bare, names, count, "--");
    snprintf(error->message, sizeof error->message, "unknown option '%s'%s", shown, hint);
}

bool options_parse(const option_use *accepted, int argc, char **argv, parsed_args *out,
                   parse_error *error)
{
    /* values[id][i] is read only for i < count[id]: reset the rest only
     * (batch parses millions of lines). */
    memset(out->count, 0, sizeof out->count);
    memset(out->spelled, 0, sizeof out->spelled);
    out->positional_count = 0;
    error->message[0] = '\0';
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *word = argv[i];
        if (options_done || word[0] != '-' || word[1] == '\0') {
            if (out->positional_count < POSITIONALS_MAX) {
                out->positionals[out->positional_count++] = word;
                continue;
            }
            size_t more = (size_t)out->positional_count - POSITIONALS_MAX;
            if (more >= out->more_capacity) {
                size_t capacity = out->more_capacity ? 2 * out->more_capacity : 16;
                const char **bigger =
                    realloc(out->more_positionals, capacity * sizeof *bigger);
                if (bigger == NULL) {
                    snprintf(error->message, sizeof error->message, "out of memory");
                    return false;
                }
                out->more_positionals = bigger;
                out->more_capacity = capacity;
            }
            out->more_positionals[more] = word;
            out->positional_count++;
            continue;
        }
        if (strcmp(word, "--") == 0) {
            options_done = true;
            continue;
        }
        const option_use *use;
        const char *inline_value = NULL;
        if (word[1] == '-') {
            const char *name = word + 2;
            const char *equals = strchr(name, '=');
            size_t length = equals != NULL ? (size_t)(equals - name) : strlen(name);
            use = find_use(accepted, name, length, 0);
            if (use == NULL) {
                unknown_option(accepted, word, length + 2, error);
                return false;
            }
            if (equals != NULL)
                inline_value = equals + 1;
        } else {
            use = find_use(accepted, NULL, 0, word[1]);
            if (use == NULL) {
                unknown_option(accepted, word, strlen(word), error);
                return false;
            }
            if (word[2] != '\0')
                inline_value = word + 2;
        }
        const option_def *def = option_def_of(use->id);
        if (def->value_name == NULL) {
            if (inline_value != NULL) {
                snprintf(error->message, sizeof error->message, "--%s: takes no value",
                         def->name);
                return false;
            }
            out->count[use->id]++;
            if (out->spelled[use->id] == NULL)
                out->spelled[use->id] = word;
            continue;
        }
        if (inline_value == NULL) {
            if (i + 1 >= argc) {
                snprintf(error->message, sizeof error->message, "--%s: needs a value (%s)",
                         def->name, def->value_name);
                return false;
            }
            const char *next = argv[i + 1];
            if (next[0] == '-' && next[1] == '-' && next[2] != '\0' &&
                find_use(accepted, next + 2, strcspn(next + 2, "="), 0) != NULL) {
                /* "--size --gpus 8": the value was left out */
                snprintf(error->message, sizeof error->message,
                         "--%s: needs a value (%s) before %.40s", def->name, def->value_name,
                         next);
                return false;
            }
            inline_value = argv[++i];
        }
        if (out->count[use->id] > 0 && !use->repeatable) {
            snprintf(error->message, sizeof error->message,
                     "--%s: given twice (it takes one value)", def->name);
            return false;
        }
        if (out->count[use->id] >= OPTION_VALUES_MAX) {
            snprintf(error->message, sizeof error->message, "--%s: at most %d values", def->name,
                     OPTION_VALUES_MAX);
            return false;
        }
        out->values[use->id][out->count[use->id]++] = inline_value;
        if (out->spelled[use->id] == NULL)
            out->spelled[use->id] = word;
    }
    return true;
}

const char *arg_positional(const parsed_args *args, int k)
{
    return k < POSITIONALS_MAX ? args->positionals[k] : args->more_positionals[k - POSITIONALS_MAX];
}

void options_free(parsed_args *args)
{
    free(args->more_positionals);
    args->more_positionals = NULL;
    args->more_capacity = 0;
    if (args->positional_count > POSITIONALS_MAX)
        args->positional_count = POSITIONALS_MAX;
}

const char *arg_value(const parsed_args *args, option_id id)
{
    int n = args->count[id];
    return n > 0 ? args->values[id][n - 1] : NULL;
}

bool arg_given(const parsed_args *args, option_id id)
{
    return args->count[id] > 0;
}
