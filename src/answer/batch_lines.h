/* The input side of a batch of queries (`collcalc batch`): lines read in
 * bounded memory, each checked (no NUL byte, valid UTF-8) and split in
 * place into words (a query written like the command line) or CSV fields.
 * No allocation per line; the fuzz target tests/fuzz/fuzz_batch.c drives
 * these directly. The library reads no file: the bytes come from the
 * caller's read function (the CLI's reads a stream, src/cli/batch_input.c).
 * This is the one reader of lines from a stream: the CLI's other commands
 * read their inputs through it too (read_lines, src/cli/findings_out.c). */
#ifndef COLLCALC_ANSWER_BATCH_LINES_H
#define COLLCALC_ANSWER_BATCH_LINES_H

#include <stdbool.h>
#include <stddef.h>

/* The longest line batch keeps; a longer one is skipped (and reported). */
#define BATCH_LINE_MAX 65536
/* A line with no end past this many bytes (/dev/zero, a binary file) ends
 * the reading: skipping it would read forever. */
#define BATCH_LINE_RUNAWAY_BYTES (16 << 20)
/* The first bytes of a too-long line a reader keeps (batch_reader.prefix). */
#define BATCH_LINE_PREFIX 4096
/* Words of one query line / fields of one CSV row. */
#define BATCH_WORDS_MAX 128

/* What a read function says besides the bytes it gave. */
typedef enum {
    BATCH_SOURCE_OK = 0, /* *got bytes (0: the input has ended) */
    BATCH_SOURCE_ERROR,  /* a read error (*got bytes came before it) */
    BATCH_SOURCE_STOPPED /* the caller stopped the reading (SIGINT): the *got bytes are
                          * the input's last */
} batch_source_status;

/* Reads at most room bytes of source into into, *got of them. */
typedef batch_source_status (*batch_read_fn)(void *source, char *into, size_t room, size_t *got);

typedef struct {
    batch_read_fn read;
    void *source;
    char *buffer; /* BATCH_LINE_MAX + the read chunk */
    size_t capacity, start, end;
    bool eof, error;
    size_t skipped; /* bytes of the too-long line dropped so far */
    /* More bytes than this without a line break end the reading
     * (BATCH_LINE_RUNAWAY); batch_reader_init sets BATCH_LINE_RUNAWAY_BYTES */
    size_t runaway_bytes;
    /* The first bytes (at most BATCH_LINE_PREFIX) of the line last found
     * too long, for a caller that reads a cut line rather than none */
    char prefix[BATCH_LINE_PREFIX];
    size_t prefix_length;
    bool interrupted; /* the read function said BATCH_SOURCE_STOPPED: the input ends there */
    long line;  /* number of the line last returned, from 1 */
    bool plain; /* that line has no NUL and no byte >= 0x80: batch_check_text passes it */
} batch_reader;

typedef enum {
    BATCH_LINE_OK = 0,   /* *out_text[0..*out_length) is the line, without "\n" or "\r\n"
                          * (nor, on line 1, a UTF-8 byte order mark) */
    BATCH_LINE_TOO_LONG, /* longer than BATCH_LINE_MAX: read to its end, dropped (its first
                          * bytes in reader->prefix) */
    BATCH_LINE_RUNAWAY,  /* no end of line within reader->runaway_bytes: reading stops */
    BATCH_LINE_END,      /* no more lines */
    BATCH_LINE_READ_ERROR
} batch_line_status;

bool batch_reader_init(batch_reader *reader, batch_read_fn read, void *source);
void batch_reader_free(batch_reader *reader);

/* The next line; the text stays valid (and writable) until the next call
 * (of this function: batch_read_buffered_line moves nothing).
 * A NUL is written after it. reader->plain is found on the way. */
batch_line_status batch_read_line(batch_reader *reader, char **out_text, size_t *out_length);

/* The next line when the buffer holds all of it (its '\n' too, and at
 * most BATCH_LINE_MAX bytes), taken as batch_read_line takes it but
 * without reading more input, so the lines returned before stay where
 * they are, valid and writable, until the next batch_read_line. False,
 * and nothing taken, otherwise (batch_read_line then reads it). */
bool batch_read_buffered_line(batch_reader *reader, char **out_text, size_t *out_length);

/* NULL when the line is fine, else why not ("a NUL byte at column 7",
 * "not valid UTF-8 at column 3"), written into buffer. For the lines the
 * reader did not find plain. */
const char *batch_check_text(const char *text, size_t length, char *buffer, size_t size);

/* True for a line with nothing to do: blank, or a '#' comment. */
bool batch_is_blank(const char *text, size_t length);

/* Splits a query line in place on blanks; '...' and "..." group a word
 * (quotes removed); a word starting with '#' starts a comment. Returns the
 * word count, with each word's length in lengths (when not NULL), or -1
 * with *error set (an unclosed quote, more than max words). A word without
 * quotes stays where it was in text (batch keeps a plan only when its size
 * value is the very word its line key cut out). */
int batch_split_words(char *text, size_t length, char **words, size_t *lengths, int max,
                      const char **error);

/* The first byte at or after i that ends the plain part of a word (a
 * blank or a quote), or length. */
size_t batch_plain_end(const char *text, size_t i, size_t length);

/* Where the first "--size" written as a word of its own after the first
 * word and followed by a blank starts ("allreduce --size 1MB": 10), or
 * length when there is none. Quotes are not read: a caller checks what
 * this finds (batch keeps a plan only when the parser took that value). */
size_t batch_size_option(const char *text, size_t length);

/* Splits a CSV row in place (RFC 4180 quoting: "a,b", "say ""x"""); blanks
 * around unquoted fields are trimmed. Returns the field count or -1. */
int batch_split_csv(char *text, size_t length, char **fields, int max, const char **error);

/* A column of CSV input, as the caller resolved its header name. */
typedef struct {
    char spelled[48]; /* the option as a word of a query: "--size" */
    char name[48];    /* as messages name the column: "size" */
    bool flag;        /* takes no value: its cell is true or false */
    bool repeatable;  /* several values in one cell, separated by ';' */
} batch_csv_column;

typedef struct {
    int columns, op_column;
    batch_csv_column column[BATCH_WORDS_MAX];
} batch_csv_header;

/* Resolves a header name (its leading dashes dropped): true with *out
 * filled, else false with what follows "column 'NAME'" in the message
 * (" is not an option ...", ": give it on the command line") in why. */
typedef bool (*batch_csv_resolve_fn)(void *context, const char *name, batch_csv_column *out,
                                     char *why, size_t size);

/* Reads a CSV header line (split in place): the "op" column, and every
 * other column through resolve. False with why ("CSV header: ...") when a
 * column is not known or there is no op column. */
bool batch_csv_header_read(batch_csv_header *header, char *text, size_t length,
                           batch_csv_resolve_fn resolve, void *context, char *why, size_t size);

/* A CSV row (split in place) as the argument vector the same query would
 * have: argv[0] the op, then "--option value" per filled cell (a flag's
 * "true" gives the option alone, "false" nothing), argv[argc] NULL, each
 * word's length in lengths (the option words point into header). At most
 * max words (and the NULL). Returns
 * argc, or -1 with why. */
int batch_csv_row_words(batch_csv_header *header, char *text, size_t length, char **argv,
                        size_t *lengths, int max, char *why, size_t size);

/* True when the first query line is a CSV header: it has a comma and no
 * option written as " -x" / " --x". */
bool batch_looks_like_csv(const char *text, size_t length);

#endif
