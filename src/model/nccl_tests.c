/* nccl-tests' conventions (include/collcalc/nccl_tests.h): names, printed
 * sizes and counts, busbw factors, number formatting and the lines of its
 * tables. Values only: text goes into caller buffers. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "collcalc/nccl_tests.h"

static const char *const BINARY_NAMES[COLLCALC_OP_COUNT] = {
    "all_reduce_perf", "all_gather_perf", "reduce_scatter_perf", "alltoall_perf",
    "broadcast_perf",  "reduce_perf",     "sendrecv_perf"};

const char *collcalc_nccl_tests_binary_name(collcalc_op op)
{
    return (unsigned)op < COLLCALC_OP_COUNT ? BINARY_NAMES[op] : "unknown";
}

collcalc_status collcalc_nccl_tests_op_from_binary(const char *name, collcalc_op *out_op,
                                                   collcalc_diag *diag)
{
    if (name == NULL || out_op == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no nccl-tests binary name given");
    const char *base = strrchr(name, '/');
    base = base != NULL ? base + 1 : name;
    size_t length = strlen(base);
    if (length > 4 && strcmp(base + length - 4, "_mpi") == 0)
        length -= 4;
    for (int op = 0; op < COLLCALC_OP_COUNT; op++) {
        if (strlen(BINARY_NAMES[op]) == length && strncmp(base, BINARY_NAMES[op], length) == 0) {
            *out_op = (collcalc_op)op;
            return COLLCALC_OK;
        }
    }
    return collcalc_diag_fail(diag, COLLCALC_ERR_NOT_FOUND,
                              "'%.60s' is not an nccl-tests binary collcalc models (known: "
                              "all_reduce_perf, all_gather_perf, reduce_scatter_perf, "
                              "alltoall_perf, broadcast_perf, reduce_perf, sendrecv_perf)",
                              name);
}

typedef struct {
    const char *name;
    int bytes;
} type_entry;

/* nccl-tests' -d names (src/common.cu test_typenames) and the aliases its
 * option parser accepts. */
static const type_entry TYPES[] = {
    {"int8", 1},    {"char", 1},     {"uint8", 1},   {"int32", 4},  {"int", 4},
    {"uint32", 4},  {"int64", 8},    {"uint64", 8},  {"half", 2},   {"fp16", 2},
    {"float16", 2}, {"float", 4},    {"fp32", 4},    {"float32", 4}, {"double", 8},
    {"fp64", 8},    {"float64", 8},  {"bfloat16", 2}, {"bf16", 2},  {"f8e4m3", 1},
    {"fp8_e4m3", 1}, {"f8e5m2", 1},  {"fp8_e5m2", 1},
};

int collcalc_nccl_tests_type_bytes(const char *type_name)
{
    if (type_name == NULL)
        return 0;
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++)
        if (strcmp(type_name, TYPES[i].name) == 0)
            return TYPES[i].bytes;
    return 0;
}

double collcalc_busbw_factor(collcalc_op op, int gpus)
{
    double p = gpus;
    switch (op) {
    case COLLCALC_OP_ALLREDUCE: return gpus > 0 ? 2.0 * (p - 1.0) / p : 0.0;
    case COLLCALC_OP_ALLGATHER:
    case COLLCALC_OP_REDUCESCATTER:
    case COLLCALC_OP_ALLTOALL: return gpus > 0 ? (p - 1.0) / p : 0.0;
    case COLLCALC_OP_BROADCAST:
    case COLLCALC_OP_REDUCE:
    case COLLCALC_OP_SENDRECV:
    case COLLCALC_OP_COUNT: break;
    }
    return 1.0;
}

bool collcalc_nccl_tests_count_is_per_rank(collcalc_op op)
{
    return op == COLLCALC_OP_ALLGATHER || op == COLLCALC_OP_REDUCESCATTER ||
           op == COLLCALC_OP_ALLTOALL;
}

collcalc_status collcalc_nccl_tests_sizes_for(collcalc_op op, uint64_t requested_bytes,
                                              int element_bytes, int ranks,
                                              collcalc_nccl_tests_sizes *out_sizes,
                                              collcalc_diag *diag)
{
    if ((unsigned)op >= COLLCALC_OP_COUNT)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown operation %d", (int)op);
    if (element_bytes < 1 || element_bytes > 16)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "element size %d bytes is out of range (1 to 16)", element_bytes);
    if (ranks < 1)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "rank count %d must be at least 1",
                                  ranks);
    if (out_sizes == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the sizes");
    uint64_t e = (uint64_t)element_bytes;
    uint64_t count = requested_bytes / e;
    if (collcalc_nccl_tests_count_is_per_rank(op)) {
        /* Each rank's chunk is cut to a multiple of 16 bytes so every
         * rank's buffer stays aligned; the size shown is what actually moves. */
        uint64_t align = 16 / e > 0 ? 16 / e : 1;
        uint64_t share = count / (uint64_t)ranks;
        share -= share % align;
        out_sizes->count = share;
        out_sizes->size_bytes = share * e * (uint64_t)ranks;
    } else {
        out_sizes->count = count;
        out_sizes->size_bytes = count * e;
    }
    out_sizes->algbw_bytes = out_sizes->size_bytes;
    return COLLCALC_OK;
}

const char *collcalc_nccl_tests_redop(collcalc_op op)
{
    switch (op) {
    case COLLCALC_OP_ALLREDUCE:
    case COLLCALC_OP_REDUCESCATTER:
    case COLLCALC_OP_REDUCE:
    case COLLCALC_OP_SENDRECV: return "sum";
    case COLLCALC_OP_ALLGATHER:
    case COLLCALC_OP_ALLTOALL:
    case COLLCALC_OP_BROADCAST:
    case COLLCALC_OP_COUNT: break;
    }
    return "none";
}

long collcalc_nccl_tests_root(collcalc_op op, long root)
{
    return (op == COLLCALC_OP_BROADCAST || op == COLLCALC_OP_REDUCE) ? root : -1;
}

static void copy_name(char *target, const char *source)
{
    snprintf(target, COLLCALC_NCCL_TESTS_NAME_MAX, "%s", source);
}

void collcalc_nccl_tests_row_init(collcalc_nccl_tests_row *row)
{
    memset(row, 0, sizeof *row);
    copy_name(row->type, "float");
    copy_name(row->redop, "none");
    row->root = -1;
}

collcalc_status collcalc_nccl_tests_row_for(collcalc_op op, uint64_t requested_bytes, int ranks,
                                            long root, const char *type_name,
                                            collcalc_nccl_tests_row *out_row,
                                            collcalc_diag *diag)
{
    if (out_row == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no place for the row");
    const char *type = type_name != NULL ? type_name : "float";
    int element_bytes = collcalc_nccl_tests_type_bytes(type);
    if (element_bytes == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "unknown nccl-tests data type '%.40s' (e.g. float, half, "
                                  "bfloat16, double, int8, int32)",
                                  type);
    collcalc_nccl_tests_sizes sizes;
    collcalc_status status =
        collcalc_nccl_tests_sizes_for(op, requested_bytes, element_bytes, ranks, &sizes, diag);
    if (status != COLLCALC_OK)
        return status;
    collcalc_nccl_tests_row_init(out_row);
    out_row->size_bytes = sizes.size_bytes;
    out_row->count = sizes.count;
    copy_name(out_row->type, type);
    copy_name(out_row->redop, collcalc_nccl_tests_redop(op));
    out_row->root = collcalc_nccl_tests_root(op, root);
    return COLLCALC_OK;
}

collcalc_nccl_tests_measurement collcalc_nccl_tests_measure(collcalc_op op, int ranks,
                                                            uint64_t algbw_bytes,
                                                            double time_us, long wrong)
{
    collcalc_nccl_tests_measurement m;
    memset(&m, 0, sizeof m);
    m.present = true;
    m.wrong = wrong;
    m.time_us = isfinite(time_us) ? time_us : 0.0;
    if (isfinite(time_us) && time_us > 0.0) {
        /* bytes / (us * 1e-6) / 1e9 = bytes / us / 1e3 */
        m.algbw_GBps = (double)algbw_bytes / time_us / 1e3;
        m.busbw_GBps = m.algbw_GBps * collcalc_busbw_factor(op, ranks);
        if (!isfinite(m.algbw_GBps) || !isfinite(m.busbw_GBps))
            m.algbw_GBps = m.busbw_GBps = 0.0;
    }
    return m;
}

/* Every text formatter below: nothing when there is no room at all. */
#define NEED_ROOM(buffer, size)                                                                    \
    do {                                                                                           \
        if ((buffer) == NULL || (size) == 0)                                                       \
            return (buffer);                                                                       \
    } while (0)

char *collcalc_nccl_tests_number_format(char *buffer, size_t buffer_size, double value, int width)
{
    NEED_ROOM(buffer, buffer_size);
    if (!isfinite(value)) {
        snprintf(buffer, buffer_size, "n/a");
        return buffer;
    }
    char text[64];
    for (int precision = 2; precision >= 0; precision--) {
        int length = snprintf(text, sizeof text, "%.*f", precision, value);
        if (length > 0 && length <= width) {
            snprintf(buffer, buffer_size, "%s", text);
            return buffer;
        }
    }
    snprintf(buffer, buffer_size, "%.*e", width >= 7 ? 1 : 0, value);
    return buffer;
}

char *collcalc_nccl_tests_time_format(char *buffer, size_t buffer_size,
                                      collcalc_nccl_tests_style style, double time_us)
{
    NEED_ROOM(buffer, buffer_size);
    if (style != COLLCALC_NCCL_TESTS_STYLE_LEGACY || !isfinite(time_us))
        return collcalc_nccl_tests_number_format(buffer, buffer_size, time_us, 7);
    int precision = time_us >= 10000.0 ? 0 : time_us >= 100.0 ? 1 : 2;
    snprintf(buffer, buffer_size, "%.*f", precision, time_us);
    return buffer;
}

char *collcalc_nccl_tests_bandwidth_format(char *buffer, size_t buffer_size,
                                           collcalc_nccl_tests_style style, double GBps)
{
    NEED_ROOM(buffer, buffer_size);
    if (style != COLLCALC_NCCL_TESTS_STYLE_LEGACY || !isfinite(GBps))
        return collcalc_nccl_tests_number_format(buffer, buffer_size, GBps, 6);
    snprintf(buffer, buffer_size, "%.2f", GBps);
    return buffer;
}

char *collcalc_nccl_tests_header_line_format(char *buffer, size_t buffer_size,
                                             collcalc_nccl_tests_style style, int index,
                                             bool cputime)
{
    NEED_ROOM(buffer, buffer_size);
    bool legacy = style == COLLCALC_NCCL_TESTS_STYLE_LEGACY;
    const char *time = cputime ? "cputime" : "time";
    switch (index) {
    case 0:
        snprintf(buffer, buffer_size,
                 "# %10s  %12s  %8s  %6s  %6s           out-of-place                       "
                 "in-place          ",
                 "", "", "", "", "");
        break;
    case 1:
        if (legacy)
            snprintf(buffer, buffer_size,
                     "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s", "size",
                     "count", "type", "redop", "root", time, "algbw", "busbw", "#wrong", time,
                     "algbw", "busbw", "#wrong");
        else
            snprintf(buffer, buffer_size,
                     "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s", "size",
                     "count", "type", "redop", "root", time, "algbw", "busbw", "#wrong", time,
                     "algbw", "busbw", "#wrong");
        break;
    case 2:
        if (legacy)
            snprintf(buffer, buffer_size,
                     "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s", "(B)",
                     "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)",
                     "(GB/s)", "");
        else
            snprintf(buffer, buffer_size,
                     "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s", "(B)",
                     "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)",
                     "(GB/s)", "");
        break;
    default: buffer[0] = '\0'; break;
    }
    return buffer;
}

/* Appends one out-of-place or in-place group at buffer + *used. */
static void append_measurement(char *buffer, size_t buffer_size, size_t *used,
                               collcalc_nccl_tests_style style,
                               const collcalc_nccl_tests_measurement *m)
{
    if (!m->present || *used >= buffer_size)
        return;
    char time[32], alg[32], bus[32], wrong[32];
    collcalc_nccl_tests_time_format(time, sizeof time, style, m->time_us);
    collcalc_nccl_tests_bandwidth_format(alg, sizeof alg, style, m->algbw_GBps);
    collcalc_nccl_tests_bandwidth_format(bus, sizeof bus, style, m->busbw_GBps);
    if (m->wrong < 0)
        snprintf(wrong, sizeof wrong, "N/A");
    else
        snprintf(wrong, sizeof wrong, "%g", (double)m->wrong);
    int written;
    if (style == COLLCALC_NCCL_TESTS_STYLE_LEGACY)
        written = snprintf(buffer + *used, buffer_size - *used, "  %7s  %6s  %6s  %5s", time, alg,
                           bus, wrong);
    else
        written = snprintf(buffer + *used, buffer_size - *used, "  %7s  %6s  %6s  %6s", time, alg,
                           bus, wrong);
    if (written > 0)
        *used += (size_t)written;
}

char *collcalc_nccl_tests_row_format(char *buffer, size_t buffer_size,
                                     collcalc_nccl_tests_style style,
                                     const collcalc_nccl_tests_row *row)
{
    NEED_ROOM(buffer, buffer_size);
    if (row == NULL) {
        buffer[0] = '\0';
        return buffer;
    }
    char type[COLLCALC_NCCL_TESTS_NAME_MAX], redop[COLLCALC_NCCL_TESTS_NAME_MAX];
    /* The fields are arrays a caller filled: never read past them. */
    snprintf(type, sizeof type, "%.*s", (int)(sizeof type - 1), row->type);
    snprintf(redop, sizeof redop, "%.*s", (int)(sizeof redop - 1), row->redop);
    int written = snprintf(buffer, buffer_size, "%12llu  %12llu  %8s  %6s  %6ld",
                           (unsigned long long)row->size_bytes, (unsigned long long)row->count,
                           type, redop, row->root);
    size_t used = written > 0 ? (size_t)written : 0;
    append_measurement(buffer, buffer_size, &used, style, &row->out_of_place);
    append_measurement(buffer, buffer_size, &used, style, &row->in_place);
    return buffer;
}

char *collcalc_nccl_tests_footer_errors_format(char *buffer, size_t buffer_size, long errors)
{
    NEED_ROOM(buffer, buffer_size);
    snprintf(buffer, buffer_size, "# %-20s : %ld %s", "Out of bounds values", errors,
             errors != 0 ? "FAILED" : "OK");
    return buffer;
}

char *collcalc_nccl_tests_footer_avg_busbw_format(char *buffer, size_t buffer_size,
                                                  double avg_busbw_GBps)
{
    NEED_ROOM(buffer, buffer_size);
    snprintf(buffer, buffer_size, "# %-20s : %g ", "Avg bus bandwidth",
             isfinite(avg_busbw_GBps) ? avg_busbw_GBps : 0.0);
    return buffer;
}

double collcalc_nccl_tests_average_busbw(const collcalc_nccl_tests_row *rows, size_t count)
{
    double sum = 0.0;
    size_t n = 0;
    for (size_t i = 0; rows != NULL && i < count; i++) {
        if (rows[i].out_of_place.present) {
            sum += rows[i].out_of_place.busbw_GBps;
            n++;
        }
        if (rows[i].in_place.present) {
            sum += rows[i].in_place.busbw_GBps;
            n++;
        }
    }
    double mean = n > 0 ? sum / (double)n : 0.0;
    return isfinite(mean) ? mean : 0.0;
}

char *collcalc_nccl_tests_banner_format(char *buffer, size_t buffer_size, collcalc_op op,
                                        bool concluded)
{
    NEED_ROOM(buffer, buffer_size);
    snprintf(buffer, buffer_size, "# Collective test %s: %s", concluded ? "concluded" : "starting",
             collcalc_nccl_tests_binary_name(op));
    return buffer;
}
