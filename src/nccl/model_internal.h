/* Shared inside the NCCL model (src/nccl): constants of collcalc's
 * corrections that the collectives (model.c) and the point-to-point model
 * (p2p.c) both use. Not installed. */
#ifndef COLLCALC_NCCL_MODEL_INTERNAL_H
#define COLLCALC_NCCL_MODEL_INTERNAL_H

#include "collcalc/nccl_model.h"

/* Launch mode: one thread driving G GPUs issues G kernel launches in a row
 * inside ncclGroupEnd, so a call costs (G-1) extra launches of ~4 us each
 * (COLLCALC_NCCL_LAUNCH_US_PER_GPU, collcalc/nccl_model.h, says where it
 * comes from). */
#define FIX_LAUNCH_US_PER_GPU COLLCALC_NCCL_LAUNCH_US_PER_GPU

/* The Simple protocol's chunk per channel (model.c, the ramp): NCCL's 4 MiB
 * buffer in NCCL_STEPS = 8 slots, 4 slots per chunk. */
#define FIX_RAMP_CHUNK_BYTES (2.0 * 1048576.0)

/* Extra microseconds per network step a transport costs over InfiniBand
 * (model.c says where each figure comes from). */
double nccl_transport_step_us(collcalc_nccl_transport transport);

/* The prediction's band (band.c) and each runnable candidate's range. */
void nccl_fill_bands(const collcalc_nccl_system *system, collcalc_nccl_prediction *out);

/* All-to-all and send/recv (p2p.c): fills *out for func ALLTOALL or
 * SENDRECV on a system check_system accepted; COLLCALC_ERR_UNSUPPORTED when
 * the system has no rate for a tier the data must cross. */
collcalc_status nccl_predict_p2p(const collcalc_nccl_system *system,
                                 const collcalc_nccl_constants *constants,
                                 const collcalc_nccl_options *options, collcalc_nccl_func func,
                                 uint64_t size_bytes, collcalc_nccl_prediction *out,
                                 collcalc_diag *diag);

#endif
