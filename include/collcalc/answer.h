/* The answer layer: one path from a question to its answer, whichever
 * command (or language) asks it. A session owns the tables (built-in links,
 * platforms, models and NCCL constants, plus the caller's overlays, given
 * as text: the library reads no files); a request is the question as data;
 * collcalc_prepare resolves it into a prepared question (the cluster, the
 * cost model, NCCL's system, the candidate algorithms), which a caller may
 * keep and evaluate at many sizes; collcalc_evaluate gives the answer.
 * Errors name the request's field ("gpus_per_node: ..."), never a command
 * line flag: a front end maps fields to its own spelling. */
#ifndef COLLCALC_ANSWER_H
#define COLLCALC_ANSWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/cluster_spec.h"
#include "collcalc/fit.h"
#include "collcalc/links.h"
#include "collcalc/model.h"
#include "collcalc/models.h"
#include "collcalc/nccl_model.h"
#include "collcalc/nccl_tests_reader.h"
#include "collcalc/plan.h"
#include "collcalc/platforms.h"
#include "collcalc/status.h"
#include "collcalc/topo.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* ------------------------------------------------------------ session */

/* The tables one caller answers against. Opaque; create with
 * collcalc_session_new, free with collcalc_session_free. Tables are built
 * when first asked for; a user's table must be loaded before that. */
typedef struct collcalc_session collcalc_session;

/* How a user's table joins the built-in one. */
typedef enum {
    COLLCALC_TABLE_OVERLAY = 0, /* entries of the same name replace built-in ones */
    COLLCALC_TABLE_REPLACE      /* the user's table alone */
} collcalc_table_mode;

/* An empty session (no table built yet). COLLCALC_ERR_NOMEM on
 * allocation failure. Caller owns *out; free with collcalc_session_free. */
collcalc_status collcalc_session_new(collcalc_session **out, collcalc_diag *diag);
void collcalc_session_free(collcalc_session *session);

/* A user's link, platform or model table, as JSON text (length bytes;
 * name is how messages name it, e.g. the file's path). Once per table and
 * before the table is first used; platforms are checked against the links
 * (which are built then). Models overlay only. A replaced built-in entry
 * is noted (collcalc_session_note). */
collcalc_status collcalc_session_load_links(collcalc_session *session, const char *text,
                                            size_t length, const char *name,
                                            collcalc_table_mode mode, collcalc_diag *diag);
collcalc_status collcalc_session_load_platforms(collcalc_session *session, const char *text,
                                                size_t length, const char *name,
                                                collcalc_table_mode mode, collcalc_diag *diag);
collcalc_status collcalc_session_load_models(collcalc_session *session, const char *text,
                                             size_t length, const char *name,
                                             collcalc_diag *diag);

/* The tables (built on first use; borrowed from the session). A failure
 * here is a bad built-in table. */
collcalc_status collcalc_session_links(collcalc_session *session,
                                       const collcalc_link_table **out, collcalc_diag *diag);
collcalc_status collcalc_session_platforms(collcalc_session *session,
                                           const collcalc_platform_table **out,
                                           collcalc_diag *diag);
collcalc_status collcalc_session_models(collcalc_session *session,
                                        const collcalc_model_table **out, collcalc_diag *diag);
collcalc_status collcalc_session_nccl_constants(collcalc_session *session,
                                                const collcalc_nccl_constants_table **out,
                                                collcalc_diag *diag);

/* The platform named name (or an alias) in the session's table, borrowed;
 * COLLCALC_ERR_NOT_FOUND with a did-you-mean when there is none. */
collcalc_status collcalc_session_platform(collcalc_session *session, const char *name,
                                          const collcalc_platform **out, collcalc_diag *diag);

/* Notes the session made while loading ("links.json replaces the built-in
 * link nvlink5"): index < count; borrowed. */
size_t collcalc_session_note_count(const collcalc_session *session);
const char *collcalc_session_note(const collcalc_session *session, size_t index);

/* ------------------------------------------------------------ request */

/* Which cost model answers. */
typedef enum {
    COLLCALC_COST_MODEL_AUTO = 0,   /* NCCL's tuner when a platform of known GPU generation
                                       is given, the op is one it costs and no field of the
                                       alpha-beta model is set; else alpha-beta */
    COLLCALC_COST_MODEL_ALPHA_BETA, /* the textbook phase model (doc/MODEL.md) */
    COLLCALC_COST_MODEL_NCCL        /* NCCL's own tuner (needs a platform) */
} collcalc_cost_model;

/* "auto", "alpha-beta", "nccl". */
const char *collcalc_cost_model_name(collcalc_cost_model model);

/* The words of a request's fields, as a front end reads them. Each fails
 * with COLLCALC_ERR_INVALID and a message naming the words it takes. */
/* "nccl" or "alpha-beta". */
collcalc_status collcalc_cost_model_parse(const char *text, collcalc_cost_model *out,
                                          collcalc_diag *diag);
/* "process-per-gpu" or "single-process". */
collcalc_status collcalc_nccl_launch_parse(const char *text, collcalc_nccl_launch *out,
                                           collcalc_diag *diag);
/* An alpha-beta algorithm of op by name ("ring"); the message lists op's. */
collcalc_status collcalc_op_algo_parse(collcalc_op op, const char *text, collcalc_algo *out,
                                       collcalc_diag *diag);

#define COLLCALC_REQUEST_VERSION 1

/* A collective question as data. Start from COLLCALC_REQUEST_INIT (or
 * collcalc_request_init): every field "not given". Strings are borrowed
 * during collcalc_prepare only. */
typedef struct {
    unsigned version; /* COLLCALC_REQUEST_VERSION */
    collcalc_op op;
    collcalc_cluster_spec cluster; /* field names as in collcalc_cluster_spec */
    /* A topology matrix (nvidia-smi topo -m text): the box's own intra path.
     * Alone, a one-node cluster of its GPUs; with other cluster fields it
     * replaces their intra link. NULL: none. */
    const char *topo_text;
    size_t topo_length;
    const char *topo_name; /* how messages name it */
    collcalc_cost_model cost_model;
    collcalc_algo algos[COLLCALC_ALGO_COUNT]; /* alpha-beta algorithms; */
    size_t algo_count;                        /* 0: every one that applies */
    long layers, per_layer;                   /* repetitions; 0 = 1 */
    /* NCCL's model */
    const char *nccl_version; /* NULL: the newest release */
    bool launch_set;
    collcalc_nccl_launch launch; /* when launch_set */
    bool cuda_graph, symmetric;
    collcalc_nccl_harness harness; /* nccl-tests (0, the default) or torch.distributed */
    bool no_p2p;               /* no CUDA P2P: shared memory through the host */
    bool faithful;             /* NCCL's model without collcalc's corrections */
    double fabric_efficiency;  /* 0: not given */
    const char *nccl_algo;     /* NCCL_ALGO syntax; NULL: all */
    const char *nccl_proto;    /* NCCL_PROTO syntax; NULL: all */
} collcalc_request;

#define COLLCALC_REQUEST_INIT \
    {.version = COLLCALC_REQUEST_VERSION, .cluster = COLLCALC_CLUSTER_SPEC_INIT}

/* *request = COLLCALC_REQUEST_INIT. NULL-safe. */
void collcalc_request_init(collcalc_request *request);

/* ------------------------------------------------------------ prepared */

/* Warnings and notes of one preparation (each one line, starting with the
 * field it concerns when there is one). */
#define COLLCALC_PREPARE_NOTES_MAX 6
typedef struct {
    size_t warning_count;
    char warnings[COLLCALC_PREPARE_NOTES_MAX][COLLCALC_WARNING_TEXT_MAX];
    /* Set when the auto model chose alpha-beta on a platform NCCL's tuner
     * could cost because this field names an alpha-beta term. */
    const char *textbook_field;
} collcalc_prepare_notes;

/* A resolved question, all but its size: plain data that may be copied and
 * kept (batch keeps many); its pointers borrow from the session. */
typedef struct {
    collcalc_cost_model model; /* ALPHA_BETA or NCCL, never AUTO */
    collcalc_nccl_launch launch; /* every model: one process per GPU, or one for all */
    collcalc_query query;      /* size_bytes 0 */
    collcalc_bw_basis basis;
    long layers, per_layer;
    collcalc_algo algos[COLLCALC_ALGO_COUNT]; /* as asked (algo_count 0: all) */
    size_t algo_count;
    collcalc_model_row rows[COLLCALC_ALGO_COUNT]; /* alpha-beta: the rows to cost */
    size_t row_count;
    const collcalc_platform *platform; /* NULL without one */
    /* NCCL's model (model == COLLCALC_COST_MODEL_NCCL) */
    collcalc_nccl_func func;
    collcalc_nccl_system system;
    const collcalc_nccl_constants *constants; /* the release's (its selection) */
    collcalc_nccl_options options;
} collcalc_prepared;

/* Resolves request against the session's tables. A failure that is the
 * question's fault names the field in *out_field (a static string such as
 * "gpus_per_node", "algos", "platform") and its message starts with it;
 * *out_field NULL means the data's fault (a bad table or topology text,
 * whose message names it). notes and out_field may be NULL. */
collcalc_status collcalc_prepare(collcalc_session *session, const collcalc_request *request,
                                 collcalc_prepared *out, collcalc_prepare_notes *notes,
                                 const char **out_field, collcalc_diag *diag);

/* The request's cluster alone (its cluster fields and topology): the step
 * of collcalc_prepare that other questions (a training plan) share. info
 * (may be NULL) says what the resolution used; warnings go to notes (may
 * be NULL). Errors as collcalc_prepare. */
collcalc_status collcalc_request_cluster(collcalc_session *session,
                                         const collcalc_request *request,
                                         collcalc_cluster *out, collcalc_cluster_info *info,
                                         collcalc_prepare_notes *notes, const char **out_field,
                                         collcalc_diag *diag);

/* NCCL's model for nodes x gpus_per_node GPUs of platform (borrowed from
 * the session's table), with the request's NCCL fields (nccl_version,
 * launch, cuda_graph, symmetric, no_p2p, faithful, fabric_efficiency,
 * nccl_algo, nccl_proto) and its nvls setting; its other cluster fields are
 * not read. What collcalc_prepare builds for an NCCL question, for a caller
 * that knows the shape itself (a measured run). Errors as collcalc_prepare. */
collcalc_status collcalc_prepare_nccl(collcalc_session *session, const collcalc_request *request,
                                      const collcalc_platform *platform, int nodes,
                                      int gpus_per_node, collcalc_prepared *out,
                                      const char **out_field, collcalc_diag *diag);

/* How a measured run's ranks sit on platform's nodes: given_nodes (0: not
 * given), else the hosts the run lists (0: not known), else as many full
 * nodes as its ranks need; every node holds the same count, at most the
 * platform's NVLink domain. Failures name the field ("nodes", "gpus" when
 * ranks is not known) as collcalc_prepare's do. */
collcalc_status collcalc_run_shape(const collcalc_platform *platform, int ranks, int hosts,
                                   long given_nodes, int *out_nodes, int *out_gpus_per_node,
                                   const char **out_field, collcalc_diag *diag);

/* The launch mode of a measured run: the one it names, else NCCL's
 * default for its nodes of platform (may be NULL). */
collcalc_nccl_launch collcalc_run_launch(const collcalc_nccl_tests_run *run, int nodes,
                                         const collcalc_platform *platform);

/* A measured run as collcalc_fit takes it: its out-of-place rows into
 * rows (the caller's, run->row_count + 1 of them), costed as func with
 * system (CUDA graphs when the run used them), constants and options.
 * *out_too_large counts the rows above the largest size NCCL's model costs
 * (the fit leaves them out), *out_first_line the input line of the first. */
void collcalc_run_fit_input(const collcalc_nccl_tests_run *run, collcalc_nccl_func func,
                            const collcalc_nccl_system *system,
                            const collcalc_nccl_constants *constants,
                            const collcalc_nccl_options *options, collcalc_fit_row *rows,
                            collcalc_fit_run *out, size_t *out_too_large, long *out_first_line);

/* The cluster a measured run is judged on: `on` when given, else `named`
 * (the caller's --platform), else the preset collcalc_platform_guess finds
 * for the run's GPU and GPUs per host (NULL when none: *out_platform NULL,
 * COLLCALC_OK); then its shape (collcalc_run_shape). A shape the run cannot
 * be given is put in shape_problem (the run is not judged, COLLCALC_OK) when
 * the node count was not given, or was given for a paste of several runs
 * (it may fit only some); otherwise COLLCALC_ERR_INVALID naming the field.
 * shape_problem is "" when the shape is known. */
collcalc_status collcalc_run_cluster(const collcalc_platform_table *platforms,
                                     const collcalc_platform *named,
                                     const collcalc_platform *on, long given_nodes,
                                     bool several_runs, const collcalc_nccl_tests_run *run,
                                     const collcalc_platform **out_platform, int *out_nodes,
                                     int *out_gpus_per_node, char *shape_problem,
                                     size_t shape_problem_size, const char **out_field,
                                     collcalc_diag *diag);

/* The platform file a fit writes: the platform under name (given_name, else
 * "<platform>-fitted"), with the fitted values and as source "collcalc fit
 * of" the inputs shown, checked to load as --platforms does. *json_out for
 * collcalc_fit_text_free; name_out holds the name. Failures name the field
 * "name". */
collcalc_status collcalc_fit_platform_file(const collcalc_platform *platform,
                                           const char *given_name,
                                           const collcalc_fit_result *result,
                                           const char *const *inputs_shown, size_t input_count,
                                           const collcalc_link_table *links,
                                           char name_out[COLLCALC_NAME_MAX], char **json_out,
                                           collcalc_diag *diag);

/* A planner's collectives costed as the single command answers them (a
 * collcalc_plan_query costing hook: costing.fn = collcalc_cost_answer,
 * costing.context = &this). Each group's GPUs and nodes of platform are
 * prepared by collcalc_prepare_nccl with request's NCCL fields (the launch
 * is one process per GPU, as serving runs, unless the request sets one),
 * and NCCL's choice is timed, so `plan` and `allreduce --size S --platform
 * P --gpus G --launch process-per-gpu` give one number. Groups NCCL's
 * model cannot hold keep collcalc_cost_fastest_nccl's alpha-beta figure;
 * the counters say how often. */
typedef struct {
    collcalc_session *session;
    const collcalc_request *request;   /* NCCL fields only; borrowed */
    const collcalc_platform *platform; /* borrowed from the session's table */
    long nccl_calls, fallback_calls;
} collcalc_answer_costing;

collcalc_status collcalc_cost_answer(const collcalc_query *query, void *context,
                                     collcalc_result *out_result, collcalc_diag *diag);

/* The NICs a KV transfer from GPU0 of topo can use: near_nics those at
 * PCIe distance (PIX, PXB), far_nics the others, far_nic_GBps the slowest
 * rate GPUDirect to a far one delivers (the topology's estimate for its
 * class); the node's NICs (nics_per_node) are the matrix's, a GPU's own
 * (nics_per_gpu) its near ones. COLLCALC_ERR_INVALID (a message about the
 * matrix, for the caller to prefix with the file's name) when it lists no
 * NICs or GPU0 has no near NIC. */
collcalc_status collcalc_kv_topo_nics(const collcalc_topo *topo, collcalc_kv_query *q,
                                      collcalc_diag *diag);

/* The same from the text of an `nvidia-smi topo -m` matrix: its parse
 * errors as collcalc_topo_parse says them. */
collcalc_status collcalc_kv_topo_text(const char *text, size_t length, collcalc_kv_query *q,
                                      collcalc_diag *diag);

/* A KV transfer without GPUDirect RDMA staged through platform's host link
 * (PCIe or NVLink-C2C, per direction) into q->host, and the platform's host
 * size (gpus_per_host: the CPU and NICs kernel TCP goes through) into
 * q->gpus_per_host. COLLCALC_ERR_INVALID ("platform:
 * ...") when the platform names no host link the table has. */
collcalc_status collcalc_kv_host_link(const collcalc_platform *platform,
                                      const collcalc_link_table *links, collcalc_kv_query *q,
                                      collcalc_diag *diag);

/* Sizes first..last as nccl-tests walks them (-b/-e/-f/-i): times factor
 * (> 1), else plus step, appended to sizes[*count..capacity). Errors name
 * the part: "first: ..." when first > last, "count: ..." past capacity. */
collcalc_status collcalc_size_range(uint64_t first, uint64_t last, double factor, uint64_t step,
                                    uint64_t *sizes, int *count, int capacity,
                                    collcalc_diag *diag);

/* A size list "1MB,4MB,1GB..8GB": items and ranges (a..b walked by factor
 * as collcalc_size_range), appended to sizes. Errors: "list: ..." for an
 * item that is not a size, "first: ..." or "count: ..." as above. */
collcalc_status collcalc_size_list(const char *list, double factor, uint64_t *sizes, int *count,
                                   int capacity, collcalc_diag *diag);

/* ------------------------------------------------------------ answer */

/* The answer to a prepared question at one size. Alpha-beta: one result
 * per row (results[0..count)); NCCL: the prediction. headline is the one
 * answer the commands agree on: the named algorithm (the first), else the
 * fastest NCCL runs (else the fastest), or NCCL's choice (-1 when nothing
 * runs). */
typedef struct {
    collcalc_query query; /* the prepared query with this size */
    size_t count, fastest, nccl_best; /* nccl_best == count: none runs in NCCL */
    collcalc_result results[COLLCALC_ALGO_COUNT];
    collcalc_nccl_prediction prediction;
    int headline;
    /* The headline's figures, whichever model */
    double latency_us, bandwidth_us, time_us, algbw_GBps, busbw_GBps;
} collcalc_answer;

/* Answers prepared at size_bytes. COLLCALC_ERR_INVALID when a model
 * refuses (diag says why). */
collcalc_status collcalc_evaluate(const collcalc_prepared *prepared, uint64_t size_bytes,
                                  collcalc_answer *out, collcalc_diag *diag);

/* The alpha-beta results alone (prepared->row_count of them, into
 * results), with the fastest's index: what collcalc_evaluate puts in
 * answer->results, for a caller that costs many sizes and writes the
 * results itself (batch). COLLCALC_ERR_INVALID for an NCCL question. */
collcalc_status collcalc_evaluate_results(const collcalc_prepared *prepared, uint64_t size_bytes,
                                          collcalc_result *results, size_t *out_count,
                                          size_t *out_fastest, collcalc_diag *diag);

/* One alpha-beta algorithm of the prepared question at size_bytes (it
 * need not be among the prepared rows; the launch mode applies as in
 * collcalc_evaluate). COLLCALC_ERR_INVALID for an NCCL question. */
collcalc_status collcalc_evaluate_algorithm(const collcalc_prepared *prepared, collcalc_algo algo,
                                            uint64_t size_bytes, collcalc_result *out,
                                            collcalc_diag *diag);

/* The headline's algorithm name ("ring", or NCCL's "NVLS") and protocol
 * (NCCL's "Simple"; NULL for the alpha-beta model). */
const char *collcalc_answer_algorithm(const collcalc_prepared *prepared,
                                      const collcalc_answer *answer);
const char *collcalc_answer_protocol(const collcalc_prepared *prepared,
                                     const collcalc_answer *answer);

/* Repetition totals of the headline (layers x per_layer calls). */
collcalc_status collcalc_answer_totals(const collcalc_prepared *prepared,
                                       const collcalc_answer *answer, collcalc_totals *out,
                                       collcalc_diag *diag);

/* One size where the fastest of the prepared alpha-beta algorithms changes. */
typedef struct {
    uint64_t size_bytes; /* first size where `to` is fastest */
    int from, to;        /* indexes into the algorithm list given */
} collcalc_crossover;

/* Scans 1 B .. 1 TiB at doubling sizes and bisects every change of the
 * fastest of algos[0..count) (on prepared's query) down to the byte. At
 * most capacity; returns how many. */
size_t collcalc_crossovers(const collcalc_prepared *prepared, const collcalc_algo *algos,
                           size_t count, collcalc_crossover *out, size_t capacity);

/* Index of the fastest of algos[0..count) at size_bytes, -1 on failure. */
int collcalc_fastest_at(const collcalc_prepared *prepared, const collcalc_algo *algos,
                        size_t count, uint64_t size_bytes);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
