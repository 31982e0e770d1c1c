/* Ring algorithms: all-reduce (reduce-scatter + all-gather around a ring),
 * all-gather, reduce-scatter, pipelined chain broadcast/reduce, and the
 * shift-by-one send/recv that nccl-tests' sendrecv_perf runs
 * (doc/MODEL.md §4.1, §4.12). */
#include "phases.h"

void build_ring(build_ctx *ctx)
{
    hop ring = hop_ring(ctx);
    long p = ctx->p;
    double chunk_total = (double)(p - 1) / (double)p * ctx->size; /* (p-1) chunks of S/p */
    switch (ctx->query->op) {
    case COLLCALC_OP_ALLREDUCE:
        add_phase(ctx, "reduce-scatter", false, p - 1, chunk_total, chunk_total, &ring);
        add_phase(ctx, "all-gather", false, p - 1, chunk_total, chunk_total, &ring);
        break;
    case COLLCALC_OP_ALLGATHER:
        add_phase(ctx, "all-gather", false, p - 1, chunk_total, chunk_total, &ring);
        break;
    case COLLCALC_OP_REDUCESCATTER:
        add_phase(ctx, "reduce-scatter", false, p - 1, chunk_total, chunk_total, &ring);
        break;
    case COLLCALC_OP_BROADCAST:
    case COLLCALC_OP_REDUCE:
        /* A pipelined chain: the message is cut into chunks that follow one
         * another down the chain, so each GPU forwards the whole message
         * once; p-1 hops of latency (chunk fill ignored, as NCCL's model). */
        add_phase(ctx, ctx->query->op == COLLCALC_OP_BROADCAST ? "pipelined chain broadcast"
                                                              : "pipelined chain reduce",
                  false, p - 1, ctx->size, ctx->size, &ring);
        ctx->result->facts |= COLLCALC_FACT_PIPELINED_CHAIN;
        break;
    default: /* no registry row pairs another op with the ring */
        break;
    }
}

void build_direct_sendrecv(build_ctx *ctx)
{
    /* Every rank sends S to rank+1 and receives S from rank-1 at once; across
     * nodes the last GPU of each node crosses on the NICs it drives. */
    hop h = ctx->nodes == 1 ? hop_intra(ctx) : hop_point_to_point(ctx, hop_inter_one_gpu(ctx));
    add_phase(ctx, "send to next, receive from previous", false, 1, ctx->size, ctx->size, &h);
}
