/* Names of the NCCL model's axes, their parsers, and the NCCL_ALGO /
 * NCCL_PROTO list syntax ("allreduce:tree,ring;broadcast:^ll128"). */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "collcalc/nccl_model.h"

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

static const char *const algo_names[] = {
    "Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT", "P2P"};
static const char *const proto_names[] = {"LL", "LL128", "Simple"};
static const char *const func_names[] = {"Broadcast",     "Reduce",    "AllGather", "ReduceScatter",
                                         "AllReduce",     "AlltoAll",  "SendRecv"};
/* collcalc_nccl_transport is collcalc_transport (collcalc/platforms.h)
 * without UNKNOWN: the model always assumes one, the platform file may not
 * say. The names are the platform table's, one word table for both. */
_Static_assert(COLLCALC_NCCL_NET_IB + 1 == (int)COLLCALC_TRANSPORT_IB &&
                   COLLCALC_NCCL_NET_ROCE + 1 == (int)COLLCALC_TRANSPORT_ROCE &&
                   COLLCALC_NCCL_NET_EFA + 1 == (int)COLLCALC_TRANSPORT_EFA &&
                   COLLCALC_NCCL_NET_TCPX + 1 == (int)COLLCALC_TRANSPORT_TCPX &&
                   COLLCALC_NCCL_NET_TCPXO + 1 == (int)COLLCALC_TRANSPORT_TCPXO &&
                   COLLCALC_NCCL_NET_SOCKET + 1 == (int)COLLCALC_TRANSPORT_SOCKET &&
                   COLLCALC_NCCL_NUM_TRANSPORTS == COLLCALC_NCCL_NET_SOCKET + 1,
               "collcalc_nccl_transport must follow collcalc_transport");
static const char *const unavailable_texts[] = {"available",
                                                "not for this function",
                                                "protocol not for this algorithm",
                                                "no channels in this system",
                                                "not supported by this hardware or version",
                                                "excluded by NCCL_ALGO/NCCL_PROTO"};

static const char *word_or_unknown(const char *const *words, size_t count, int value)
{
    return (value >= 0 && (size_t)value < count) ? words[value] : "unknown";
}

const char *collcalc_nccl_algo_name(collcalc_nccl_algo algo)
{
    return word_or_unknown(algo_names, COUNT_OF(algo_names), (int)algo);
}

const char *collcalc_nccl_proto_name(collcalc_nccl_proto proto)
{
    return word_or_unknown(proto_names, COUNT_OF(proto_names), (int)proto);
}

const char *collcalc_nccl_func_name(collcalc_nccl_func func)
{
    return word_or_unknown(func_names, COUNT_OF(func_names), (int)func);
}

const char *collcalc_nccl_transport_name(collcalc_nccl_transport transport)
{
    int value = (int)transport;
    if (value < 0 || value >= COLLCALC_NCCL_NUM_TRANSPORTS)
        return "unknown";
    return collcalc_transport_name((collcalc_transport)(value + 1));
}

bool collcalc_nccl_func_from_op(collcalc_op op, collcalc_nccl_func *out_func)
{
    switch (op) {
    case COLLCALC_OP_ALLREDUCE: *out_func = COLLCALC_NCCL_ALLREDUCE; return true;
    case COLLCALC_OP_ALLGATHER: *out_func = COLLCALC_NCCL_ALLGATHER; return true;
    case COLLCALC_OP_REDUCESCATTER: *out_func = COLLCALC_NCCL_REDUCESCATTER; return true;
    case COLLCALC_OP_BROADCAST: *out_func = COLLCALC_NCCL_BROADCAST; return true;
    case COLLCALC_OP_REDUCE: *out_func = COLLCALC_NCCL_REDUCE; return true;
    case COLLCALC_OP_ALLTOALL: *out_func = COLLCALC_NCCL_ALLTOALL; return true;
    case COLLCALC_OP_SENDRECV: *out_func = COLLCALC_NCCL_SENDRECV; return true;
    case COLLCALC_OP_COUNT: break;
    }
    return false;
}

const char *collcalc_nccl_unavailable_text(collcalc_nccl_unavailable reason)
{
    return word_or_unknown(unavailable_texts, COUNT_OF(unavailable_texts), (int)reason);
}

/* Compares text[0..length) with word, ignoring case and '_' / '-' in text. */
static int same_word(const char *text, size_t length, const char *word)
{
    size_t w = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '_' || c == '-')
            continue;
        if (word[w] == '\0' || tolower(c) != tolower((unsigned char)word[w]))
            return 0;
        w++;
    }
    return word[w] == '\0';
}

/* Index of text[0..length) in words (case-insensitive), or -1. */
static int find_word(const char *text, size_t length, const char *const *words, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (same_word(text, length, words[i]))
            return (int)i;
    return -1;
}

collcalc_status collcalc_nccl_algo_parse(const char *text, collcalc_nccl_algo *out,
                                         collcalc_diag *diag)
{
    if (text == NULL || out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no algorithm given");
    int index = find_word(text, strlen(text), algo_names, COLLCALC_NCCL_NUM_ALGOS);
    if (index < 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOT_FOUND,
                                  "unknown NCCL algorithm '%.64s' (expected Tree, Ring, "
                                  "CollNetDirect, CollNetChain, NVLS, NVLSTree or PAT)",
                                  text);
    *out = (collcalc_nccl_algo)index;
    return COLLCALC_OK;
}

collcalc_status collcalc_nccl_proto_parse(const char *text, collcalc_nccl_proto *out,
                                          collcalc_diag *diag)
{
    if (text == NULL || out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no protocol given");
    int index = find_word(text, strlen(text), proto_names, COUNT_OF(proto_names));
    if (index < 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOT_FOUND,
                                  "unknown NCCL protocol '%.64s' (expected LL, LL128 or Simple)",
                                  text);
    *out = (collcalc_nccl_proto)index;
    return COLLCALC_OK;
}

collcalc_status collcalc_nccl_transport_parse(const char *text, collcalc_nccl_transport *out,
                                              collcalc_diag *diag)
{
    if (text == NULL || out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no transport given");
    int index = -1;
    for (int t = 0; t < COLLCALC_NCCL_NUM_TRANSPORTS && index < 0; t++)
        if (same_word(text, strlen(text), collcalc_nccl_transport_name((collcalc_nccl_transport)t)))
            index = t;
    if (index < 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOT_FOUND,
                                  "unknown transport '%.64s' (expected ib, roce, efa, tcpx, "
                                  "tcpxo or socket)",
                                  text);
    *out = (collcalc_nccl_transport)index;
    return COLLCALC_OK;
}

/* Bits one name of a list sets; 0 when unknown. */
typedef unsigned (*word_bits_fn)(const char *text, size_t length);

static unsigned algo_bits(const char *text, size_t length)
{
    if (same_word(text, length, "collnet"))
        return (1u << COLLCALC_NCCL_COLLNET_DIRECT) | (1u << COLLCALC_NCCL_COLLNET_CHAIN);
    int index = find_word(text, length, algo_names, COLLCALC_NCCL_NUM_ALGOS);
    return index < 0 ? 0u : 1u << index;
}

static unsigned proto_bits(const char *text, size_t length)
{
    int index = find_word(text, length, proto_names, COUNT_OF(proto_names));
    return index < 0 ? 0u : 1u << index;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t';
}

/* Parses one "name,name" list (text[0..length), no ';'); *out_bits. */
static collcalc_status parse_list(const char *text, size_t length, word_bits_fn bits_of,
                                  const char *what, unsigned *out_bits, collcalc_diag *diag)
{
    unsigned bits = 0;
    size_t start = 0;
    int words = 0;
    while (start <= length) {
        size_t end = start;
        while (end < length && text[end] != ',')
            end++;
        size_t a = start, b = end;
        while (a < b && is_space(text[a]))
            a++;
        while (b > a && is_space(text[b - 1]))
            b--;
        if (b > a) {
            unsigned word = bits_of(text + a, b - a);
            if (word == 0)
                return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "unknown %s '%.*s'", what,
                                          (int)(b - a > 64 ? 64 : b - a), text + a);
            bits |= word;
            words++;
        } else if (end < length || start > 0) {
            return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "empty %s in the list", what);
        }
        start = end + 1;
    }
    if (words == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no %s in the list", what);
    *out_bits = bits;
    return COLLCALC_OK;
}

static collcalc_status parse_env(const char *text, word_bits_fn bits_of, unsigned all_bits,
                                 const char *what, unsigned masks[COLLCALC_NCCL_NUM_FUNCS],
                                 collcalc_diag *diag)
{
    if (text == NULL || masks == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "no %s list given", what);
    unsigned result[COLLCALC_NCCL_NUM_FUNCS];
    memcpy(result, masks, sizeof result);
    size_t total = strlen(text);
    size_t start = 0;
    int segments = 0;
    while (start <= total) {
        size_t end = start;
        while (end < total && text[end] != ';')
            end++;
        const char *seg = text + start;
        size_t length = end - start;
        while (length > 0 && is_space(*seg)) {
            seg++;
            length--;
        }
        if (length > 0) {
            /* Optional "function:" prefix. */
            int func = -1;
            const char *colon = memchr(seg, ':', length);
            if (colon != NULL) {
                size_t name_length = (size_t)(colon - seg);
                while (name_length > 0 && is_space(seg[name_length - 1]))
                    name_length--;
                func = find_word(seg, name_length, func_names, COLLCALC_NCCL_NUM_FUNCS);
                if (func < 0)
                    return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                              "unknown function '%.*s' (expected broadcast, "
                                              "reduce, allgather, reducescatter or allreduce)",
                                              (int)(name_length > 64 ? 64 : name_length), seg);
                length -= (size_t)(colon - seg) + 1;
                seg = colon + 1;
                while (length > 0 && is_space(*seg)) {
                    seg++;
                    length--;
                }
            }
            bool negate = length > 0 && seg[0] == '^';
            if (negate) {
                seg++;
                length--;
            }
            unsigned bits = 0;
            collcalc_status status = parse_list(seg, length, bits_of, what, &bits, diag);
            if (status != COLLCALC_OK)
                return status;
            unsigned value = negate ? (all_bits & ~bits) : bits;
            for (int f = 0; f < COLLCALC_NCCL_NUM_FUNCS; f++)
                if (func < 0 || func == f)
                    result[f] = value;
            segments++;
        }
        start = end + 1;
    }
    if (segments == 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "empty %s list", what);
    memcpy(masks, result, sizeof result);
    return COLLCALC_OK;
}

collcalc_status collcalc_nccl_algo_env_parse(const char *text,
                                             unsigned masks[COLLCALC_NCCL_NUM_FUNCS],
                                             collcalc_diag *diag)
{
    return parse_env(text, algo_bits, (1u << COLLCALC_NCCL_NUM_ALGOS) - 1u, "algorithm", masks,
                     diag);
}

collcalc_status collcalc_nccl_proto_env_parse(const char *text,
                                              unsigned masks[COLLCALC_NCCL_NUM_FUNCS],
                                              collcalc_diag *diag)
{
    return parse_env(text, proto_bits, (1u << COLLCALC_NCCL_NUM_PROTOS) - 1u, "protocol", masks,
                     diag);
}
