/* One question, one answer: the single command, compare (its --link,
 * --placement and --platform forms), sweep and batch give the same numbers
 * for the same question, whichever model answers (the answer layer,
 * collcalc/answer.h). A property test over random questions (deterministic
 * seed; the count is argv[1], default 2,000), and the regressions of the
 * defects this layer fixed (issue 19). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/model.h"
#include "support.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>

/* ---- CSV ------------------------------------------------------------------- */

enum { CSV_COLUMNS = 64, CSV_ROWS = 64 };

typedef struct {
    int columns, rows;
    char *name[CSV_COLUMNS];
    char *cell[CSV_ROWS][CSV_COLUMNS];
} csv_table;

/* One field at *p (quoted with "" escapes, or plain), NUL-terminated in
 * place; *p moves past its comma or line end. Returns the field. */
static char *csv_field(char **p, bool *line_end)
{
    char *s = *p, *out = s, *start = s;
    if (*s == '"') {
        s++;
        for (;;) {
            if (*s == '"' && s[1] == '"') {
                *out++ = '"';
                s += 2;
            } else if (*s == '"' || *s == '\0') {
                if (*s == '"')
                    s++;
                break;
            } else {
                *out++ = *s++;
            }
        }
    } else {
        while (*s != ',' && *s != '\n' && *s != '\0')
            *out++ = *s++;
    }
    *line_end = *s != ',';
    if (*s != '\0')
        s++;
    *out = '\0';
    *p = s;
    return start;
}

static void csv_parse(char *text, csv_table *t)
{
    memset(t, 0, sizeof *t);
    char *p = text;
    bool end = false;
    while (!end && *p != '\0' && t->columns < CSV_COLUMNS)
        t->name[t->columns++] = csv_field(&p, &end);
    while (*p != '\0' && t->rows < CSV_ROWS) {
        int c = 0;
        end = false;
        while (!end && *p != '\0') {
            char *field = csv_field(&p, &end);
            if (c < CSV_COLUMNS)
                t->cell[t->rows][c++] = field;
        }
        t->rows++;
    }
}

static const char *csv_get(const csv_table *t, int row, const char *name)
{
    for (int c = 0; c < t->columns; c++)
        if (strcmp(t->name[c], name) == 0)
            return row < t->rows && t->cell[row][c] != NULL ? t->cell[row][c] : "";
    return NULL;
}

/* ---- questions --------------------------------------------------------------- */

static unsigned long long rng_state;

static unsigned next_random(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((rng_state >> 33) % n);
}

static const char *const OPS[] = {"allreduce", "allgather", "reducescatter", "alltoall",
                                  "broadcast", "reduce",    "sendrecv"};
static const char *const LINKS[] = {"nvlink3", "nvlink4", "nvlink5", "pcie4", "pcie5"};
static const char *const PLATFORMS[] = {"hgx-h100", "hgx-b200",   "gb200-nvl72",
                                        "dgx-a100", "hgx-h200",   "rtx2080ti-2x-pcie3"};
static const char *const NCCL_ALGOS[] = {"ring", "tree", "^nvls", "ring,nvls", "nvlstree,ring"};
static const char *const NCCL_PROTOS[] = {"simple", "ll,ll128", "^ll"};

/* A question in parts: the cluster as options and as a placement, and the
 * options every command shares. */
typedef struct {
    const char *op;
    int gpus;
    unsigned long long size;
    bool link_form;          /* --link L --gpus P: compare's --link form too */
    char link[32];
    char cluster[256];       /* " --platform X --nodes N" */
    char placement[256];     /* "platform=X,nodes=N" */
    char platform[64];       /* "" unless a platform */
    char shared[512];        /* model, NCCL options, algorithm */
    char layers[64];         /* " --layers L" or "" */
    bool one_algo;           /* shared names one --algo */
} question;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static void add(char *buffer, size_t size, const char *format, ...)
{
    size_t used = strlen(buffer);
    va_list args;
    va_start(args, format);
    vsnprintf(buffer + used, size - used, format, args);
    va_end(args);
}

static void make_question(question *q)
{
    memset(q, 0, sizeof *q);
    q->op = OPS[next_random(7)];
    unsigned form = next_random(3);
    char number[32];
    if (form == 0) {
        q->gpus = 2 + (int)next_random(31);
        q->link_form = true;
        snprintf(q->link, sizeof q->link, "%s", LINKS[next_random(5)]);
        snprintf(q->cluster, sizeof q->cluster, " --link %s --gpus %d", q->link, q->gpus);
        snprintf(q->placement, sizeof q->placement, "link=%s,gpus=%d", q->link, q->gpus);
    } else if (form == 1) {
        snprintf(q->platform, sizeof q->platform, "%s", PLATFORMS[next_random(6)]);
        int nodes = 1 + (int)next_random(3);
        snprintf(q->cluster, sizeof q->cluster, " --platform %s --nodes %d", q->platform, nodes);
        snprintf(q->placement, sizeof q->placement, "platform=%s,nodes=%d", q->platform, nodes);
        if (strcmp(q->platform, "gb200-nvl72") == 0 && next_random(2) == 0) {
            static const int GPUS[] = {8, 16, 36, 72};
            int gpus = GPUS[next_random(4)];
            snprintf(q->cluster, sizeof q->cluster, " --platform %s --gpus %d", q->platform, gpus);
            snprintf(q->placement, sizeof q->placement, "platform=%s,gpus=%d", q->platform,
                     gpus);
        }
        if (next_random(4) == 0) {
            add(q->cluster, sizeof q->cluster, "%s", " --no-nvls");
            add(q->placement, sizeof q->placement, "%s", ",no-nvls");
        }
        q->gpus = 8;
    } else {
        static const int DOMAINS[] = {2, 4, 8};
        int g = DOMAINS[next_random(3)];
        q->gpus = g * (1 + (int)next_random(4));
        snprintf(q->cluster, sizeof q->cluster,
                 " --gpus %d --gpus-per-node %d --intra nvlink4 --inter ib-ndr", q->gpus, g);
        snprintf(q->placement, sizeof q->placement,
                 "gpus=%d,gpus-per-node=%d,intra=nvlink4,inter=ib-ndr", q->gpus, g);
    }
    /* the model and its options */
    unsigned model = q->platform[0] ? next_random(4) : 3;
    if (model == 1)
        add(q->shared, sizeof q->shared, "%s", " --cost-model alpha-beta");
    else if (model == 2)
        add(q->shared, sizeof q->shared, "%s", " --cost-model nccl");
    bool nccl_options = q->platform[0] && model != 1 && next_random(2) == 0;
    if (nccl_options) {
        if (next_random(3) == 0)
            add(q->shared, sizeof q->shared, " --nccl-algo %s", NCCL_ALGOS[next_random(5)]);
        if (next_random(3) == 0)
            add(q->shared, sizeof q->shared, " --nccl-proto %s", NCCL_PROTOS[next_random(3)]);
        if (next_random(3) == 0)
            add(q->shared, sizeof q->shared, "%s", " --cuda-graph");
        if (next_random(4) == 0)
            add(q->shared, sizeof q->shared, "%s", " --faithful");
        if (next_random(4) == 0)
            add(q->shared, sizeof q->shared, "%s", " --nccl-version 2.18.3");
        if (next_random(4) == 0)
            add(q->shared, sizeof q->shared, "%s", " --symmetric");
    }
    if (q->platform[0] && next_random(4) == 0)
        add(q->shared, sizeof q->shared, "%s", " --no-p2p");
    if (next_random(4) == 0)
        add(q->shared, sizeof q->shared, "%s", " --launch single-process");
    if (!nccl_options && model != 2 && next_random(3) == 0) {
        collcalc_op op;
        collcalc_algo algos[COLLCALC_ALGO_COUNT];
        assert_int_equal(collcalc_op_from_name(q->op, &op, NULL), COLLCALC_OK);
        size_t n = collcalc_algos_for_op(op, algos, COLLCALC_ALGO_COUNT);
        add(q->shared, sizeof q->shared, " --algo %s",
            collcalc_algo_name(algos[next_random((unsigned)n)]));
        q->one_algo = true;
    }
    if (next_random(4) == 0) {
        snprintf(number, sizeof number, "%u", 1 + next_random(96));
        add(q->layers, sizeof q->layers, " --layers %s", number);
    }
    /* a size nccl-tests moves as it is: a multiple of 4 bytes x GPUs x 2 */
    static const unsigned long long SCALES[] = {1ULL, 1000ULL, 1000000ULL, 100000000ULL};
    unsigned long long unit = 8ULL * 72ULL * 9ULL * 5ULL * 7ULL; /* every GPU count used */
    q->size = unit * (1 + next_random(1000)) * SCALES[next_random(4)] / 1000ULL;
    q->size = (q->size / unit + 1) * unit;
}

/* ---- the numbers each command gives --------------------------------------------- */

typedef struct {
    bool ok;
    char algorithm[48]; /* "ring", "NVLS" */
    char time[48], busbw[48];
} figures;

/* The single command's answer (its CSV): NCCL's choice, the named
 * algorithm (the first), else the fastest NCCL runs, else the fastest. */
static figures headline(const csv_table *t, bool named)
{
    figures f = {0};
    int pick = -1;
    if (csv_get(t, 0, "selected") != NULL) {
        for (int r = 0; r < t->rows; r++)
            if (strcmp(csv_get(t, r, "selected"), "true") == 0)
                pick = r;
    } else if (named) {
        pick = t->rows > 0 ? 0 : -1;
    } else {
        double best = 0;
        for (int r = 0; r < t->rows; r++) {
            double time = strtod(csv_get(t, r, "time_us"), NULL);
            if (strcmp(csv_get(t, r, "in_nccl"), "true") == 0 && (pick < 0 || time < best)) {
                pick = r;
                best = time;
            }
        }
        for (int r = 0; pick < 0 && r < t->rows; r++)
            if (strcmp(csv_get(t, r, "fastest"), "true") == 0)
                pick = r;
    }
    if (pick < 0)
        return f;
    f.ok = true;
    snprintf(f.algorithm, sizeof f.algorithm, "%s", csv_get(t, pick, "algorithm"));
    snprintf(f.time, sizeof f.time, "%s", csv_get(t, pick, "time_us"));
    snprintf(f.busbw, sizeof f.busbw, "%s", csv_get(t, pick, "busbw_GBps"));
    return f;
}

static void expect_same(const char *what, const char *command, const figures *want,
                        const char *time, const char *busbw, long *failures)
{
    if (time != NULL && busbw != NULL && strcmp(want->time, time) == 0 &&
        strcmp(want->busbw, busbw) == 0)
        return;
    if (*failures < 10)
        print_error("%s differs: %s\n  single: time %s busbw %s; %s: time %s busbw %s\n", what,
                    command, want->time, want->busbw, what, time ? time : "(none)",
                    busbw ? busbw : "(none)");
    (*failures)++;
}

/* test_cli_line for "collcalc LINE". */
static test_cli_run run_line(const char *stdin_text, const char *line)
{
    char full[4096];
    snprintf(full, sizeof full, "collcalc %s", line);
    return test_cli_line(stdin_text, full);
}

/* Runs a command line; its CSV into *table (text kept in *run). */
static bool run_csv(const char *stdin_text, const char *line, test_cli_run *run, csv_table *table)
{
    *run = run_line(stdin_text, line);
    if (run->exit_code != 0)
        return false;
    csv_parse(run->out, table);
    return true;
}

static long check_question(const question *q, long *checked)
{
    long failures = 0;
    char line[2048];
    test_cli_run single, other;
    csv_table *t = malloc(sizeof *t), *u = malloc(sizeof *u);
    assert_non_null(t);
    assert_non_null(u);
    char single_args[1024];
    snprintf(single_args, sizeof single_args, "%s --size %llu%s%s%s", q->op, q->size, q->cluster,
             q->shared, q->layers);
    snprintf(line, sizeof line, "%s --format csv", single_args);
    bool ok = run_csv(NULL, line, &single, t);
    figures want = ok ? headline(t, q->one_algo) : (figures){0};
    if (!ok || !want.ok) {
        /* A refusal (an option without meaning here) is the same everywhere:
         * compare says no too. */
        snprintf(line, sizeof line, "compare %s --sizes %llu --placement %s --placement %s%s%s "
                 "--format csv", q->op, q->size, q->placement, q->placement, q->shared, q->layers);
        other = run_line(NULL, line);
        if (ok != (other.exit_code == 0)) {
            print_error("single %s (exit %d) but compare exit %d: %s%s\n", single_args,
                        single.exit_code, other.exit_code, single.err, other.err);
            failures++;
        }
        test_cli_run_free(&other);
        test_cli_run_free(&single);
        free(t);
        free(u);
        return failures;
    }
    (*checked)++;

    /* compare --placement (two identical sides) */
    snprintf(line, sizeof line, "compare %s --sizes %llu --placement %s --placement %s%s%s "
             "--format csv", q->op, q->size, q->placement, q->placement, q->shared, q->layers);
    if (run_csv(NULL, line, &other, u))
        expect_same("compare --placement", line, &want, csv_get(u, 0, "time_us"),
                    csv_get(u, 0, "busbw_GBps"), &failures);
    else
        expect_same("compare --placement", other.err, &want, NULL, NULL, &failures);
    test_cli_run_free(&other);

    /* compare --link (links side by side) */
    if (q->link_form) {
        snprintf(line, sizeof line, "compare %s --sizes %llu --gpus %d --link %s --link pcie3%s%s "
                 "--format csv", q->op, q->size, q->gpus, q->link, q->shared, q->layers);
        if (run_csv(NULL, line, &other, u))
            expect_same("compare --link", line, &want, csv_get(u, 0, "time_us"),
                        csv_get(u, 0, "busbw_GBps"), &failures);
        else
            expect_same("compare --link", other.err, &want, NULL, NULL, &failures);
        test_cli_run_free(&other);
    }

    /* compare on one cluster: NCCL's candidates, or the algorithms */
    bool repeats = q->layers[0] != '\0';
    if (!(repeats && csv_get(t, 0, "selected") != NULL)) {
        snprintf(line, sizeof line, "compare %s --sizes %llu%s%s%s --format csv", q->op, q->size,
                 q->cluster, q->shared, q->layers);
        if (run_csv(NULL, line, &other, u)) {
            const char *time = NULL, *busbw = NULL;
            for (int r = 0; r < u->rows; r++) {
                const char *selected = csv_get(u, r, "selected");
                bool mine = selected != NULL ? strcmp(selected, "true") == 0
                                             : strcmp(csv_get(u, r, "algorithm"), want.algorithm) == 0;
                if (mine) {
                    time = csv_get(u, r, "time_us");
                    busbw = csv_get(u, r, "busbw_GBps");
                }
            }
            /* (the algorithms view leaves out algorithms that are never fastest) */
            if (time != NULL || csv_get(u, 0, "selected") != NULL)
                expect_same("compare", line, &want, time, busbw, &failures);
        } else {
            expect_same("compare", other.err, &want, NULL, NULL, &failures);
        }
        test_cli_run_free(&other);
    }

    /* sweep at that one size (sweep has no repetitions) */
    if (!repeats) {
        snprintf(line, sizeof line, "sweep %s --sizes %llu%s%s --format csv", q->op, q->size,
                 q->cluster, q->shared);
        if (run_csv(NULL, line, &other, u)) {
            int r = 0;
            if (q->one_algo || csv_get(u, 0, "selected") == NULL)
                r = 0;
            if (strtoull(csv_get(u, r, "size_bytes"), NULL, 10) == q->size)
                expect_same("sweep", line, &want, csv_get(u, r, "time_us"),
                            csv_get(u, r, "busbw_GBps"), &failures);
        } else {
            expect_same("sweep", other.err, &want, NULL, NULL, &failures);
        }
        test_cli_run_free(&other);
    }

    /* batch: the same line twice (the second from its kept plan) */
    char input[2200];
    snprintf(input, sizeof input, "%s\n%s\n", single_args, single_args);
    if (run_csv(input, "batch - --format csv", &other, u)) {
        int rows_each = u->rows / 2;
        bool same = u->rows == 2 * t->rows;
        for (int r = 0; same && r < t->rows; r++)
            same = strcmp(csv_get(u, r, "time_us"), csv_get(t, r, "time_us")) == 0 &&
                   strcmp(csv_get(u, r + rows_each, "time_us"), csv_get(t, r, "time_us")) == 0;
        if (!same) {
            if (failures < 10)
                print_error("batch differs: %s\n", single_args);
            failures++;
        }
    } else {
        expect_same("batch", other.err, &want, NULL, NULL, &failures);
    }
    test_cli_run_free(&other);
    test_cli_run_free(&single);
    free(t);
    free(u);
    return failures;
}

static long question_count = 2000;

static void every_command_gives_the_same_answer(void **state)
{
    (void)state;
    rng_state = 20261203ULL;
    long failures = 0, checked = 0;
    for (long i = 0; i < question_count; i++) {
        question q;
        make_question(&q);
        failures += check_question(&q, &checked);
    }
    print_message("%ld questions, %ld answered and compared, %ld differences\n", question_count,
                  checked, failures);
    assert_int_equal(failures, 0);
    /* most questions have an answer: refusals are the exception */
    assert_true(checked * 10 >= question_count * 7);
}

/* ---- plan's per-collective costing ---------------------------------------------------- */

/* The single command a plan collective is: its op, message size and group
 * (GPUs and nodes) on the same platform, one process per GPU as plan
 * assumes for serving. NULL for a kind that is not one collective call:
 * EP dispatch and combine are the MoE kernels' (collcalc moe), not NCCL's
 * all-to-all. */
static const char *op_of_kind(const char *kind)
{
    static const struct {
        const char *kind, *op;
    } KINDS[] = {{"tp-allreduce", "allreduce"},        {"tp-reducescatter", "reducescatter"},
                 {"tp-allgather", "allgather"},        {"dp-allreduce", "allreduce"},
                 {"dp-expert-allreduce", "allreduce"}, {"pp-sendrecv", "sendrecv"}};
    for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
        if (strcmp(KINDS[i].kind, kind) == 0)
            return KINDS[i].op;
    return NULL;
}

static double selected_time_us(const char *json)
{
    cJSON *root = cJSON_Parse(json);
    double time = -1.0;
    const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
    const cJSON *row;
    cJSON_ArrayForEach(row, results)
    {
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "selected")))
            time = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(row, "time_us"));
    }
    cJSON_Delete(root);
    return time;
}

/* NCCL's choice's algorithm in the single command's JSON, lowercase, in out. */
static void selected_algo(const char *json, char *out, size_t size)
{
    cJSON *root = cJSON_Parse(json);
    out[0] = '\0';
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "results"))
    {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "algorithm"));
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "selected")) && name != NULL)
            snprintf(out, size, "%s", name);
    }
    for (char *p = out; *p != '\0'; p++)
        *p = (char)tolower((unsigned char)*p);
    cJSON_Delete(root);
}

/* Random plans on NCCL-model platforms: every collective plan costs with
 * NCCL's model is the number the single command gives for it, and the
 * algorithm its name (lowercase; NVLSTree is not NVLS). */
static void plan_costs_each_collective_as_the_single_command(void **state)
{
    (void)state;
    static const char *const MODELS[] = {"llama-3-70b", "llama-3.1-8b", "mixtral-8x7b",
                                         "qwen3-235b-a22b", "deepseek-v3"}; /* dense first */
    static const char *const PLAN_PLATFORMS[] = {"hgx-h100", "hgx-b200", "gb200-nvl72",
                                                 "mi355x-8x", "aws-p5"};
    static const char *const EXTRAS[] = {"", " --nccl-version 2.21", " --no-nvls",
                                         " --phase prefill"};
    rng_state = 20261204ULL;
    long compared = 0, failures = 0;
    long plans = question_count >= 2000 ? 60 : 12; /* fewer under valgrind (argv[1]) */
    for (long i = 0; i < plans; i++) {
        const char *platform = PLAN_PLATFORMS[next_random(5)];
        unsigned model = next_random(5);
        int tp = 1 << next_random(4), dp = 1 + (int)next_random(2), pp = 1 + (int)next_random(2);
        char line[512];
        snprintf(line, sizeof line,
                 "plan --model %s --platform %s --tokens %u --tp %d --dp %d --pp %d%s%s "
                 "--format json",
                 MODELS[model], platform, 8u << next_random(10), tp, dp, pp,
                 model >= 2 && next_random(2) ? " --ep 8" : "", EXTRAS[next_random(4)]);
        test_cli_run run = run_line(NULL, line);
        cJSON *root = run.exit_code == 0 ? cJSON_Parse(run.out) : NULL;
        const cJSON *collectives = cJSON_GetObjectItemCaseSensitive(root, "collectives");
        const cJSON *c;
        cJSON_ArrayForEach(c, collectives)
        {
            const char *op = op_of_kind(
                cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "kind")));
            int group = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "group_size"));
            int nodes = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "nodes"));
            double bytes = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "message_bytes"));
            double each = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "time_us_each"));
            if (op == NULL || group < 2 || nodes < 1 || group % nodes != 0 || !(bytes > 0))
                continue;
            char single[512];
            const char *extra = strstr(line, " --nccl-version 2.21") ? " --nccl-version 2.21"
                                : strstr(line, " --no-nvls")       ? " --no-nvls"
                                                                    : "";
            snprintf(single, sizeof single,
                     "%s --size %.0fB --platform %s --nodes %d --gpus-per-node %d "
                     "--launch process-per-gpu%s --format json",
                     op, bytes, platform, nodes, group / nodes, extra);
            test_cli_run one = run_line(NULL, single);
            double want = one.exit_code == 0 ? selected_time_us(one.out) : -1.0;
            char algo[32] = "";
            if (one.exit_code == 0)
                selected_algo(one.out, algo, sizeof algo);
            const char *ours = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "algorithm"));
            if (strcmp(op, "sendrecv") != 0 && strstr(" ring tree nvls nvlstree ", algo) != NULL &&
                algo[0] != '\0' && (ours == NULL || strcmp(ours, algo) != 0)) {
                print_error("%s\n  algorithm %s, the single command's %s\n", line,
                            ours != NULL ? ours : "(none)", algo);
                failures++;
            }
            if (want < 0 || fabs(want - each) > 1e-9 * want) {
                print_error("%s\n  %s: %.17g us\n  %s: %.17g us (exit %d)\n", line,
                            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "kind")),
                            each, single, want, one.exit_code);
                failures++;
            }
            compared++;
            test_cli_run_free(&one);
        }
        cJSON_Delete(root);
        test_cli_run_free(&run);
    }
    /* TP 16 across two aws-p5 nodes: NCCL picks NVLSTree for the all-reduce */
    test_cli_run tp16 = run_line(NULL, "plan --model llama-3-70b --tokens 64 --tp 16 --platform "
                                       "aws-p5 --format json");
    assert_int_equal(tp16.exit_code, 0);
    assert_non_null(strstr(tp16.out, "\"kind\":\"tp-allreduce\",\"group_size\":16"));
    assert_non_null(strstr(tp16.out, "\"algorithm\":\"nvlstree\""));
    test_cli_run_free(&tp16);
    print_message("%ld plan collectives compared with the single command, %ld differences\n",
                  compared, failures);
    assert_int_equal(failures, 0);
    assert_true(compared >= plans);
}

/* ---- regressions (issue 19) ---------------------------------------------------------- */

/* The busbw of NCCL's choice / of a comparison's first row, as text. */
static char *field_of(const char *line, const char *column, const char *selected_column)
{
    test_cli_run run = run_line(NULL, line);
    assert_int_equal(run.exit_code, 0);
    csv_table *t = malloc(sizeof *t);
    assert_non_null(t);
    csv_parse(run.out, t);
    int row = 0;
    for (int r = 0; selected_column != NULL && r < t->rows; r++)
        if (strcmp(csv_get(t, r, selected_column), "true") == 0)
            row = r;
    const char *value = csv_get(t, row, column);
    assert_non_null(value);
    char *copy = malloc(strlen(value) + 1);
    assert_non_null(copy);
    memcpy(copy, value, strlen(value) + 1);
    test_cli_run_free(&run);
    free(t);
    return copy;
}

static void assert_same_field(const char *a, const char *b, const char *column,
                              const char *a_selected, const char *b_selected)
{
    char *x = field_of(a, column, a_selected), *y = field_of(b, column, b_selected);
    if (strcmp(x, y) != 0)
        print_error("%s: %s gives %s, %s gives %s\n", column, a, x, b, y);
    assert_string_equal(x, y);
    free(x);
    free(y);
}

/* compare --placement with a platform answers with NCCL's model, as the
 * single command does (it used the alpha-beta model: B200 = H100). */
static void placement_uses_the_platform_model(void **state)
{
    (void)state;
    static const char *const PAIR[] = {"hgx-h100", "hgx-b200"};
    for (int i = 0; i < 2; i++) {
        char single[256], compare[512];
        snprintf(single, sizeof single,
                 "allreduce --size 1GB --platform %s --nodes 2 --format csv", PAIR[i]);
        snprintf(compare, sizeof compare,
                 "compare allreduce --size 1GB --placement platform=%s,nodes=2 --placement "
                 "platform=%s,nodes=2 --format csv",
                 PAIR[i], PAIR[1 - i]);
        assert_same_field(single, compare, "time_us", "selected", NULL);
        assert_same_field(single, compare, "busbw_GBps", "selected", NULL);
    }
    assert_same_field("allreduce --size 1GB --gpus 16 --platform gb200-nvl72 --format csv",
                      "compare allreduce --size 1GB --gpus 16 --placement platform=gb200-nvl72 "
                      "--placement platform=hgx-h100 --format csv",
                      "busbw_GBps", "selected", NULL);
}

/* --no-nvls is NCCL's NVLS off too (it still picked NVLS at 475 GB/s). */
static void no_nvls_is_honoured_by_the_nccl_model(void **state)
{
    (void)state;
    char *algo = field_of("allreduce --size 4GB --platform hgx-h100 --no-nvls --format csv",
                          "algorithm", "selected");
    assert_true(strncmp(algo, "NVLS", 4) != 0);
    free(algo);
    test_cli_run run = run_line(
        NULL, "allreduce --size 4GB --platform hgx-h100 --no-nvls --explain --format csv");
    assert_int_equal(run.exit_code, 0);
    assert_contains(run.out, "NVLS,Simple,,false,,,,,,,,,,,false,");
    test_cli_run_free(&run);
}

/* --layers and --per-layer with a platform (NCCL's model): refused before. */
static void layers_work_with_the_nccl_model(void **state)
{
    (void)state;
    test_cli_run run = run_line(
        NULL, "allreduce --size 1GB --platform hgx-h100 --nodes 2 --layers 80 --per-layer 2 "
              "--format json");
    assert_int_equal(run.exit_code, 0);
    assert_contains(run.out, "\"layers\":80,\"per_layer\":2,\"model\":\"nccl\"");
    char *time = field_of("allreduce --size 1GB --platform hgx-h100 --nodes 2 --format csv",
                          "time_us", "selected");
    char want[64];
    snprintf(want, sizeof want, "\"total_time_us\":");
    assert_contains(run.out, want);
    const char *total = strstr(run.out, want) + strlen(want);
    test_assert_close_relative(strtod(total, NULL), 160.0 * strtod(time, NULL), 1e-12);
    free(time);
    test_cli_run_free(&run);
    run = run_line(NULL, "allreduce --size 1GB --platform hgx-h100 --layers 80");
    assert_int_equal(run.exit_code, 0);
    assert_contains(run.out, "x 80 (80 layers x 1 per layer):");
    test_cli_run_free(&run);
}

/* alltoall on a box without P2P, and single-process launch: honoured (the
 * alpha-beta model: the path through host memory, the host launches). */
static void alltoall_honours_no_p2p_and_launch(void **state)
{
    (void)state;
    /* A platform's all-to-all runs on the NCCL model's point-to-point
     * candidate (src/nccl/p2p.c): its row is the "selected" one. */
    char *plain = field_of("alltoall --size 64MB --platform rtx2080ti-2x-pcie3 --format csv",
                           "time_us", "selected");
    char *shm = field_of(
        "alltoall --size 64MB --platform rtx2080ti-2x-pcie3 --no-p2p --format csv", "time_us",
        "selected");
    char *launch = field_of("alltoall --size 8 --platform hgx-h100 --launch single-process "
                            "--format csv",
                            "time_us", "selected");
    char *per_gpu = field_of("alltoall --size 8 --platform hgx-h100 --launch process-per-gpu "
                             "--format csv",
                             "time_us", "selected");
    /* through host memory: two PCIe crossings and a host copy, a third of the rate */
    assert_true(strtod(shm, NULL) > 1.9 * strtod(plain, NULL));
    /* the host floor: one thread launching on 8 GPUs takes 1.6 + 8 x 4 us a
     * call, above the GPUs' 11.8 us (8.4 + 3.4), which a process per GPU gets */
    test_assert_close_relative(strtod(launch, NULL), 33.6, 1e-12);
    test_assert_close_relative(strtod(per_gpu, NULL), 11.8 + 8.0 / 1000.0 / 411.42857142857144,
                               1e-6);
    free(per_gpu);
    free(plain);
    free(shm);
    free(launch);
    test_cli_run run = run_line(
        NULL, "alltoall --size 64MB --link nvlink4 --gpus 8 --no-p2p");
    assert_int_equal(run.exit_code, 2);
    assert_contains(run.err, "--no-p2p: needs a platform");
    test_cli_run_free(&run);
}

/* check's error is (predicted - measured) / measured and says so; a
 * summary without rows <= 64 KiB prints "-" and JSON null, not 0.0%. */
static void check_error_reads_one_way(void **state)
{
    (void)state;
    char line[1024];
    snprintf(line, sizeof line, "check %s --platform hgx-h100 --nodes 2",
             test_source_path("tests/cli/answer/h100_2node_large_only.txt"));
    test_cli_run run = run_line(NULL, line);
    assert_int_equal(run.exit_code, 0);
    assert_contains(run.out, "pred vs meas");
    /* measured 119 GB/s, predicted 125 GB/s: the prediction is 5 % above */
    assert_contains(run.out, "119 GB/s   125 GB/s  +5% busbw");
    assert_contains(run.out, "- time at <= 64 KiB");
    assert_null(strstr(run.out, "0.0% time"));
    assert_null(strstr(run.out, "over 0 rows"));
    test_cli_run_free(&run);
    char json[1100];
    snprintf(json, sizeof json, "%s --format json", line);
    run = run_line(NULL, json);
    assert_int_equal(run.exit_code, 0);
    assert_contains(run.out, "\"median_time_error\":null");
    test_cli_run_free(&run);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        question_count = strtol(argv[1], NULL, 10);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(placement_uses_the_platform_model),
        cmocka_unit_test(no_nvls_is_honoured_by_the_nccl_model),
        cmocka_unit_test(layers_work_with_the_nccl_model),
        cmocka_unit_test(alltoall_honours_no_p2p_and_launch),
        cmocka_unit_test(check_error_reads_one_way),
        cmocka_unit_test(every_command_gives_the_same_answer),
        cmocka_unit_test(plan_costs_each_collective_as_the_single_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
