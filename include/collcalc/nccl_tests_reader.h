/* Reader for nccl-tests output as it comes from real machines: fed one line
 * at a time (bounded memory for any stream length), it keeps the table rows,
 * checks each row against itself (algbw = size / time, busbw = algbw x
 * factor) and infers what the run was: op, ranks, hosts, launch mode, GPU
 * model, NCCL version, data types. Text in, structs out: no I/O. */
#ifndef COLLCALC_NCCL_TESTS_READER_H
#define COLLCALC_NCCL_TESTS_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collcalc/findings.h"
#include "collcalc/model.h"
#include "collcalc/nccl_tests.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

/* Rows kept by default; rows past the cap are counted, not stored. */
#define COLLCALC_NCCL_TESTS_ROWS_DEFAULT 4096
#define COLLCALC_NCCL_TESTS_ROWS_LIMIT 1000000
/* Distinct data types (and redops) listed per run. */
#define COLLCALC_NCCL_TESTS_TYPES_MAX 16
#define COLLCALC_NCCL_TESTS_TEXT_MAX 96
/* A line is examined up to this many bytes; a longer table row is skipped. */
#define COLLCALC_NCCL_TESTS_LINE_BYTES 2048

/* Where an inferred fact came from, most authoritative first. */
typedef enum {
    COLLCALC_NCCL_TESTS_FROM_NONE = 0,    /* not known */
    COLLCALC_NCCL_TESTS_FROM_CALLER,      /* the reader options (e.g. --op, --gpus) */
    COLLCALC_NCCL_TESTS_FROM_BANNER,      /* "# Collective test starting: all_reduce_perf" */
    COLLCALC_NCCL_TESTS_FROM_DEVICES,     /* the "#  Rank N ... device" lines */
    COLLCALC_NCCL_TESTS_FROM_COMMAND,     /* a command line naming a *_perf binary */
    COLLCALC_NCCL_TESTS_FROM_COLUMNS,     /* redop/root columns and size = count x type x n */
    COLLCALC_NCCL_TESTS_FROM_BUSBW_RATIO, /* busbw / algbw = the op's factor for n ranks */
    COLLCALC_NCCL_TESTS_FROM_LOG,         /* NCCL_DEBUG lines in the same paste (collcalc/paste.h) */
    COLLCALC_NCCL_TESTS_FROM_HEADING,     /* a heading above the table names it */
    COLLCALC_NCCL_TESTS_FROM_PREVIOUS_RUN /* the run before it under the same heading (a paste
                                             of one job's tests: collcalc/paste.h) */
} collcalc_nccl_tests_source;

/* "none", "caller", "banner", "device-lines", "command-line", "columns",
 * "busbw-ratio", "log", "heading". Static, never NULL. */
const char *collcalc_nccl_tests_source_name(collcalc_nccl_tests_source source);

typedef enum {
    COLLCALC_NCCL_TESTS_LAUNCH_UNKNOWN = 0,
    COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU, /* nThread 1 nGpus 1: one rank per process (MPI, srun) */
    COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS   /* nGpus > 1 or nThread > 1: several ranks per process */
} collcalc_nccl_tests_launch;

/* "unknown", "process-per-gpu", "single-process". Static. */
const char *collcalc_nccl_tests_launch_name(collcalc_nccl_tests_launch launch);

/* Result of a row's check against itself. */
typedef enum {
    COLLCALC_NCCL_TESTS_CHECK_SKIPPED = 0, /* not possible: time 0, or the factor is unknown */
    COLLCALC_NCCL_TESTS_CHECK_OK,          /* agrees within the printed rounding */
    COLLCALC_NCCL_TESTS_CHECK_MISMATCH     /* disagrees beyond the printed rounding */
} collcalc_nccl_tests_check;

/* "skipped", "ok", "mismatch". Static. */
const char *collcalc_nccl_tests_check_name(collcalc_nccl_tests_check check);

/* The checks of one measurement (out-of-place or in-place). algbw is
 * checked against size / time, allowing for the rounding of both printed
 * numbers (a time printed "238.4" is anything in [238.35, 238.45]); busbw
 * against algbw x factor(op, ranks), allowing for algbw's and busbw's
 * rounding. Expected values are computed from the printed numbers (0 when
 * the check was skipped). */
typedef struct {
    collcalc_nccl_tests_check algbw;
    collcalc_nccl_tests_check busbw;
    double expected_algbw_GBps; /* size / time */
    double expected_busbw_GBps; /* printed algbw x factor */
} collcalc_nccl_tests_row_checks;

/* One data row as read. */
typedef struct {
    long line;                      /* 1-based input line number */
    int table;                      /* 0-based: which table of the input (a new header starts one) */
    collcalc_nccl_tests_row row;    /* the columns; in_place.present false when absent */
    bool has_count;                 /* false in the abbreviated size/time/algbw/busbw excerpt */
    bool has_type;                  /* type, redop and root columns were present */
    bool zero_time;                 /* a time of 0 us (nothing can be checked) */
    collcalc_nccl_tests_row_checks out_of_place;
    collcalc_nccl_tests_row_checks in_place;
} collcalc_nccl_tests_read_row;

/* What the caller knows; fill with collcalc_nccl_tests_reader_options_init
 * or COLLCALC_NCCL_TESTS_READER_OPTIONS_INIT. A value given here overrides
 * what the file says (a warning says so when the file disagrees). */
#define COLLCALC_NCCL_TESTS_READER_OPTIONS_VERSION 1
typedef struct {
    unsigned version;      /* COLLCALC_NCCL_TESTS_READER_OPTIONS_VERSION */
    bool has_op;           /* op is set (e.g. from --op) */
    collcalc_op op;
    int ranks;             /* total ranks; 0 = not known */
    size_t max_rows;       /* rows kept; 0 = COLLCALC_NCCL_TESTS_ROWS_DEFAULT, at most _ROWS_LIMIT */
    bool has_heading_op;   /* a heading above the table names the op ("All-to-All - 2 Nodes"): */
    collcalc_op heading_op; /* used when no banner or command says it (source "heading") */
} collcalc_nccl_tests_reader_options;

/* Nothing known: has_op false, ranks 0, max_rows 0 (the default cap). */
#define COLLCALC_NCCL_TESTS_READER_OPTIONS_INIT                                                 \
    {.version = COLLCALC_NCCL_TESTS_READER_OPTIONS_VERSION, .op = COLLCALC_OP_ALLREDUCE}
/* *options = COLLCALC_NCCL_TESTS_READER_OPTIONS_INIT. */
void collcalc_nccl_tests_reader_options_init(collcalc_nccl_tests_reader_options *options);

/* Everything read and inferred. Filled by collcalc_nccl_tests_reader_finish;
 * the rows array belongs to the run: release with collcalc_nccl_tests_run_free. */
typedef struct {
    /* the op: known when op_source != NONE */
    collcalc_op op;
    collcalc_nccl_tests_source op_source;
    long op_line;                 /* line the op was read from; 0 when inferred from rows */
    /* ranks (total), hosts and ranks per host; 0 = not known */
    int ranks;
    collcalc_nccl_tests_source ranks_source;
    int hosts;                    /* distinct hosts in a complete device list */
    int ranks_per_host;           /* ranks / hosts when every host has as many */
    int device_lines;             /* "#  Rank ..." lines seen */
    /* the "# nThread T nGpus G minBytes ..." line; 0 / -1 when absent */
    int threads_per_process;
    int gpus_per_thread;
    long long min_bytes, max_bytes;
    int iters, warmup_iters, agg_iters;
    int graph;                    /* -G replays; -1 when not printed */
    long header_line;             /* line of the nThread line; 0 when absent */
    collcalc_nccl_tests_launch launch;
    char gpu_model[COLLCALC_NCCL_TESTS_TEXT_MAX];        /* "NVIDIA H100 80GB HBM3"; "" */
    char nccl_version[COLLCALC_NCCL_TESTS_TEXT_MAX];     /* "2.26.2+cuda12.8" from "NCCL version"; "" */
    char nccl_tests_version[COLLCALC_NCCL_TESTS_TEXT_MAX]; /* "2.19.6" from "# nccl-tests version"; "" */
    /* the table */
    bool abbreviated;             /* size/time/algbw/busbw only (textbook excerpt) */
    bool has_in_place;            /* in-place columns exist */
    bool cputime;                 /* -C 1: the time columns are CPU time */
    bool timestamp;               /* -S 1: a timestamp column */
    bool wrong_na;                /* #wrong printed N/A (-c 0) */
    int tables;                   /* table headers seen (or 1 for a table without one) */
    size_t type_count;            /* distinct types in rows, in order of appearance */
    char types[COLLCALC_NCCL_TESTS_TYPES_MAX][COLLCALC_NCCL_TESTS_NAME_MAX];
    size_t redop_count;
    char redops[COLLCALC_NCCL_TESTS_TYPES_MAX][COLLCALC_NCCL_TESTS_NAME_MAX];
    /* rows */
    collcalc_nccl_tests_read_row *rows; /* rows[0..row_count), owned by the run */
    size_t row_count;
    size_t rows_dropped;          /* read but past max_rows (still counted below) */
    size_t rows_skipped;          /* lines that looked like rows but could not be read */
    size_t rows_mismatched;       /* stored rows with an algbw or busbw mismatch */
    size_t rows_wrong;            /* stored rows whose #wrong is above 0 (wrong results) */
    bool op_guessed;              /* the op is a guess between ops the table cannot tell apart */
    double busbw_factor;          /* factor the busbw checks used; -1 when not known */
    /* footer */
    bool has_avg_busbw;
    double avg_busbw_GBps;        /* "# Avg bus bandwidth : X" as printed */
    double avg_busbw_rows_GBps;   /* mean busbw over every measurement read */
    long out_of_bounds;           /* "# Out of bounds values : N"; -1 when absent */
    long lines;                   /* lines fed */
    /* warnings and notes (codes listed in collcalc_nccl_tests_reader_finish) */
    collcalc_findings findings;
} collcalc_nccl_tests_run;

/* Opaque streaming reader. */
typedef struct collcalc_nccl_tests_reader collcalc_nccl_tests_reader;

/* Creates a reader (options may be NULL: defaults). The caller owns it:
 * free with collcalc_nccl_tests_reader_free. COLLCALC_ERR_NOMEM or
 * COLLCALC_ERR_INVALID (max_rows too large). */
collcalc_status collcalc_nccl_tests_reader_create(const collcalc_nccl_tests_reader_options *options,
                                                  collcalc_nccl_tests_reader **out_reader,
                                                  collcalc_diag *diag);

/* Feeds one line (without or with its "\n"; a trailing "\r" is ignored;
 * need not be NUL-terminated; may contain NUL bytes, which end it).
 * line_number is the 1-based number used in findings (0 = the reader
 * counts). Memory stays bounded: only up to max_rows rows are stored.
 * Fails only for COLLCALC_ERR_NOMEM (storing a row) or misuse (NULL reader,
 * feeding after finish): bad lines become findings, not errors. */
collcalc_status collcalc_nccl_tests_reader_feed_line(collcalc_nccl_tests_reader *reader,
                                                     const char *line, size_t length,
                                                     long line_number, collcalc_diag *diag);

/* Ends the input and fills *out_run (the rows move into it; the reader can
 * only be freed afterwards). COLLCALC_ERR_INVALID with one line in diag
 * naming a line number when nothing could be read: the input is not
 * nccl-tests output (says what was expected), a table header lacks a
 * column, or every row was garbage; *out_run is then empty (nothing to
 * free, though freeing is harmless). Otherwise COLLCALC_OK, with warnings in
 * out_run->findings, by code:
 *   rows-skipped (lines that looked like rows and were not read, e.g. a
 *   truncated last row), row-mismatch (algbw or busbw disagrees with the
 *   row's own numbers), zero-time, size-order, mixed-ops (a second test with
 *   another op: its rows are ignored), op-override / ranks-override (the
 *   caller contradicts the file), ranks-disagree, op-unknown, op-unsupported
 *   (a banner names gather_perf or another binary not modelled), ranks-unknown,
 *   rows-dropped (past max_rows), avg-busbw-mismatch, header-missing-column,
 *   gpu-models-differ; errors: wrong-results (rows with #wrong above 0),
 *   out-of-bounds (nccl-tests reported wrong values). */
collcalc_status collcalc_nccl_tests_reader_finish(collcalc_nccl_tests_reader *reader,
                                                  collcalc_nccl_tests_run *out_run,
                                                  collcalc_diag *diag);

/* Frees a reader (NULL-safe). */
void collcalc_nccl_tests_reader_free(collcalc_nccl_tests_reader *reader);

/* Frees the rows of a run and empties it (NULL-safe). */
void collcalc_nccl_tests_run_free(collcalc_nccl_tests_run *run);

/* Convenience: reads a whole text (length bytes, lines split at '\n') with a
 * reader: create, feed each line, finish, free. Same results and ownership
 * as collcalc_nccl_tests_reader_finish. */
collcalc_status collcalc_nccl_tests_read_text(const char *text, size_t length,
                                              const collcalc_nccl_tests_reader_options *options,
                                              collcalc_nccl_tests_run *out_run,
                                              collcalc_diag *diag);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
