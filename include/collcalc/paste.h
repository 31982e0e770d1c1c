/* A whole paste, read as an engineer pastes it: nccl-tests or rccl-tests
 * output (one run or many, one after another), NCCL_DEBUG log lines mixed
 * in, launcher prefixes ("[1,0]<stdout>:", "host: "), timestamps, ANSI
 * colours and topology matrices. Fed one line at a time in bounded memory:
 * every line goes to the NCCL log reader (collcalc/nccl_log.h); nccl-tests
 * lines go to one nccl-tests reader per run, a new run starting at a banner
 * ("# Collective test starting"), a preamble ("# nThread"), a table header,
 * a command naming a *_perf binary, device lines or an "NCCL version" line
 * after rows, and at a size that goes back down (an -N repeat or a second
 * file appended); matrix lines ("GPU0 GPU1 ..." and their rows) are kept
 * for collcalc_topo_parse. The runs are then compared with each other.
 * No I/O: the caller reads the lines. */
#ifndef COLLCALC_PASTE_H
#define COLLCALC_PASTE_H

#include <stdbool.h>
#include <stddef.h>

#include "collcalc/findings.h"
#include "collcalc/nccl_log.h"
#include "collcalc/nccl_tests_reader.h"
#include "collcalc/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(default) /* the public API; everything else is hidden */
#endif

#define COLLCALC_PASTE_RUNS_MAX 128          /* runs kept; more are counted */
#define COLLCALC_PASTE_LABEL_MAX 120         /* a run's heading, as printed */
#define COLLCALC_PASTE_TOPO_BYTES (1L << 20) /* matrix text kept */
#define COLLCALC_PASTE_LINE_BYTES 4096       /* the part of a line that is read */

/* Why a run starts where it does. */
typedef enum {
    COLLCALC_PASTE_SPLIT_FIRST = 0,  /* the first run of the paste */
    COLLCALC_PASTE_SPLIT_BANNER,     /* "# Collective test starting: ..." */
    COLLCALC_PASTE_SPLIT_PREAMBLE,   /* "# nThread ..." */
    COLLCALC_PASTE_SPLIT_HEADER,     /* a new table header */
    COLLCALC_PASTE_SPLIT_COMMAND,    /* a command naming a *_perf binary */
    COLLCALC_PASTE_SPLIT_DEVICES,    /* "#  Rank  0 Group ..." after rows */
    COLLCALC_PASTE_SPLIT_VERSION,    /* "NCCL version ..." after rows */
    COLLCALC_PASTE_SPLIT_SIZE_RESET, /* the size goes back down: a repeat (-N) or an appended run */
    COLLCALC_PASTE_SPLIT_AFTER_FOOTER /* rows after "# Avg bus bandwidth" */
} collcalc_paste_split;

/* "first", "banner", "preamble", "header", "command", "device-lines",
 * "version", "size-reset", "after-footer". Static, never NULL. */
const char *collcalc_paste_split_name(collcalc_paste_split split);

/* One run: the reader's result plus where it sits in the paste. */
typedef struct {
    collcalc_nccl_tests_run run;  /* valid when read is true (rows owned here) */
    bool read;                    /* false: the part could not be read as a run (error says why) */
    char error[COLLCALC_DIAG_MESSAGE_MAX];
    long first_line, last_line;   /* the run's lines (first: where it started) */
    collcalc_paste_split split;
    char label[COLLCALC_PASTE_LABEL_MAX]; /* the heading above it ("## nccl_N2_G8_a_b.log"); "" */
    long label_line;
    int section;                  /* headings seen before it: runs under one heading share it */
    bool carried;                 /* op and ranks carried over from the run before (a repeat) */
    /* what the run reached: the largest busbw and the largest size measured */
    double peak_busbw_GBps;
    unsigned long long peak_bytes;
    unsigned long long max_bytes;
    double busbw_at_max_GBps;     /* out-of-place busbw of the largest size */
    size_t rows_wrong;            /* rows whose #wrong is above 0 */
} collcalc_paste_run;

/* Opaque streaming state. */
typedef struct collcalc_paste collcalc_paste;

/* What a paste held. Filled by collcalc_paste_finish; free with
 * collcalc_paste_result_free. */
typedef struct {
    long lines;                   /* lines fed */
    long test_lines;              /* lines the nccl-tests readers took (rows, comments, commands) */
    long cut_lines;               /* lines longer than COLLCALC_PASTE_LINE_BYTES (read cut) */
    collcalc_paste_run *runs;     /* runs[0..run_count) in input order */
    size_t run_count;
    size_t runs_dropped;          /* runs past COLLCALC_PASTE_RUNS_MAX (counted, not kept) */
    collcalc_nccl_log *log;       /* every line fed to the NCCL log reader (owned) */
    bool has_log;                 /* at least one NCCL INFO/WARN line */
    char *topo_text;              /* matrix lines, '\n'-separated, for collcalc_topo_parse (up to
                                     16 lines between two matrix lines kept as blank lines, so
                                     its numbering is the paste's from topo_first_line); NULL */
    size_t topo_length;
    long topo_first_line;         /* input line of the first matrix line; 0 */
    long topo_lines;              /* matrix lines kept (blank lines between them not counted) */
    bool topo_cut;                /* more matrix text than COLLCALC_PASTE_TOPO_BYTES */
    collcalc_findings findings;   /* across runs: slow-run, slow-among, wrong-results */
} collcalc_paste_result;

/* Creates the state. options (may be NULL) go to every run's reader: an op
 * or a rank count given there applies to every run. COLLCALC_ERR_NOMEM,
 * COLLCALC_ERR_INVALID. */
collcalc_status collcalc_paste_create(const collcalc_nccl_tests_reader_options *options,
                                      collcalc_paste **out, collcalc_diag *diag);

/* Feeds one line (a trailing '\n' or '\r' is ignored; NUL ends it).
 * line_number 0 counts lines. Fails only for COLLCALC_ERR_NOMEM or misuse. */
collcalc_status collcalc_paste_feed_line(collcalc_paste *paste, const char *line, size_t length,
                                         long line_number, collcalc_diag *diag);

/* Ends the input, fills *out and compares the runs. COLLCALC_ERR_INVALID
 * when the paste holds no run, no NCCL log line and no matrix (diag names
 * what was expected); COLLCALC_ERR_NOMEM. The state can only be freed
 * afterwards. */
collcalc_status collcalc_paste_finish(collcalc_paste *paste, collcalc_paste_result *out,
                                      collcalc_diag *diag);

/* Frees the state (NULL-safe). */
void collcalc_paste_free(collcalc_paste *paste);

/* Frees what a result owns and empties it (NULL-safe). */
void collcalc_paste_result_free(collcalc_paste_result *result);

/* Reads a whole text: create, feed each line, finish, free. */
collcalc_status collcalc_paste_read_text(const char *text, size_t length,
                                         const collcalc_nccl_tests_reader_options *options,
                                         collcalc_paste_result *out, collcalc_diag *diag);

/* Length of a leading timestamp ("2024-05-01T12:00:00.123Z ", "[2024-05-01
 * 12:00:00,123] ", "12:00:00.123 "), spaces after it included; 0 when the
 * text does not start with one. */
size_t collcalc_paste_timestamp_length(const char *text, size_t length);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
