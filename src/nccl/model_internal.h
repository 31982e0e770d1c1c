/* Shared inside the NCCL model (src/nccl): constants of collcalc's
 * corrections that the collectives (model.c) and the point-to-point model
 * (p2p.c) both use. Not installed. */
#ifndef COLLCALC_NCCL_MODEL_INTERNAL_H
#define COLLCALC_NCCL_MODEL_INTERNAL_H

#include "collcalc/nccl_model.h"

/* Launch mode: one thread driving G GPUs issues G kernel launches in a row
 * inside ncclGroupEnd (COLLCALC_NCCL_LAUNCH_US_PER_GPU and
 * COLLCALC_NCCL_HOST_CALL_US, collcalc/nccl_model.h, say where they come
 * from). */
#define FIX_LAUNCH_US_PER_GPU COLLCALC_NCCL_LAUNCH_US_PER_GPU

/* The host floor (doc/MODEL.md section 13.3): what one call costs the host
 * thread that issues it, 0 under a CUDA graph. A benchmark loop times calls
 * issued back to back, so a call takes the longer of the GPU's time and
 * this (model.c). */
double nccl_host_issue_us(const collcalc_nccl_system *system, int ppn);

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
