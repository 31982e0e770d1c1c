/* The shape of a measured run (collcalc/answer.h): how its ranks sit on a
 * platform's nodes, the rule check and fit share. */
#include "collcalc/answer.h"

collcalc_status collcalc_run_shape(const collcalc_platform *platform, int ranks, int hosts,
                                   long given_nodes, int *out_nodes, int *out_gpus_per_node,
                                   const char **out_field, collcalc_diag *diag)
{
    const char *ignored;
    if (out_field == NULL)
        out_field = &ignored;
    *out_field = NULL;
    if (ranks <= 0) {
        *out_field = "gpus";
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "gpus: the rank count is not known");
    }
    long n = given_nodes > 0 ? given_nodes
             : hosts > 0     ? hosts
                             : (ranks + platform->gpus_per_node - 1) / platform->gpus_per_node;
    *out_field = "nodes";
    if (ranks % n != 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "nodes: %d ranks do not split evenly over %ld nodes", ranks, n);
    if (ranks / n > platform->gpus_per_node)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "nodes: %ld GPUs per node do not fit %s's %d-GPU NVLink domain "
                                  "(give the node count)",
                                  ranks / n, platform->name, platform->gpus_per_node);
    *out_field = NULL;
    *out_nodes = (int)n;
    *out_gpus_per_node = (int)(ranks / n);
    return COLLCALC_OK;
}
