/* The shape of a measured run (collcalc/answer.h): how its ranks sit on a
 * platform's nodes, the rule check and fit share. */
#include <stdio.h>
#include <string.h>

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
    /* Ranks that do not fill whole hosts, with neither hosts nor a node
     * count, could be packed any way (10 ranks on 8-GPU hosts: 1 per node
     * on 10 nodes, or 5 + 5): no guess, which would judge the run on another
     * cluster. A rack-scale NVLink domain (more than 8 GPUs, as moe.c and
     * band.c tell them) is filled tray by tray, so a part of two racks is
     * read as an even split. */
    if (given_nodes <= 0 && hosts <= 0 && platform->gpus_per_node <= 8 &&
        ranks > platform->gpus_per_node && ranks % platform->gpus_per_node != 0)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "nodes: %d ranks do not fill %s's %d-GPU nodes and the run "
                                  "does not list its hosts: give the node count",
                                  ranks, platform->name, platform->gpus_per_node);
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

collcalc_nccl_launch collcalc_run_launch(const collcalc_nccl_tests_run *run, int nodes,
                                         const collcalc_platform *platform)
{
    if (run->launch == COLLCALC_NCCL_TESTS_LAUNCH_SINGLE_PROCESS)
        return COLLCALC_NCCL_LAUNCH_SINGLE_PROCESS;
    if (run->launch == COLLCALC_NCCL_TESTS_LAUNCH_PROCESS_PER_GPU)
        return COLLCALC_NCCL_LAUNCH_PROCESS_PER_GPU;
    return collcalc_nccl_launch_default(nodes, platform != NULL ? platform->gpus_per_node : 0);
}

void collcalc_run_fit_input(const collcalc_nccl_tests_run *run, collcalc_nccl_func func,
                            const collcalc_nccl_system *system,
                            const collcalc_nccl_constants *constants,
                            const collcalc_nccl_options *options, collcalc_fit_row *rows,
                            collcalc_fit_run *out, size_t *out_too_large, long *out_first_line)
{
    *out_too_large = 0;
    *out_first_line = 0;
    for (size_t r = 0; r < run->row_count; r++) {
        const collcalc_nccl_tests_measurement *m = &run->rows[r].row.out_of_place;
        if (run->rows[r].row.size_bytes > COLLCALC_NCCL_SIZE_MAX && (*out_too_large)++ == 0)
            *out_first_line = run->rows[r].line;
        rows[r].size_bytes = run->rows[r].row.size_bytes;
        rows[r].time_us = m->time_us;
        rows[r].busbw_GBps = m->busbw_GBps;
    }
    collcalc_fit_run_init(out);
    out->rows = rows;
    out->row_count = run->row_count;
    out->func = func;
    out->system = *system;
    if (run->graph > 0)
        out->system.cuda_graph = true;
    out->constants = constants;
    out->options = *options;
}

collcalc_status collcalc_run_cluster(const collcalc_platform_table *platforms,
                                     const collcalc_platform *named,
                                     const collcalc_platform *on, long given_nodes,
                                     bool several_runs, const collcalc_nccl_tests_run *run,
                                     const collcalc_platform **out_platform, int *out_nodes,
                                     int *out_gpus_per_node, char *shape_problem,
                                     size_t shape_problem_size, const char **out_field,
                                     collcalc_diag *diag)
{
    const char *ignored;
    if (out_field == NULL)
        out_field = &ignored;
    *out_field = NULL;
    shape_problem[0] = '\0';
    const collcalc_platform *platform = on != NULL ? on : named;
    if (platform == NULL)
        platform = collcalc_platform_guess(platforms, run->gpu_model, run->ranks_per_host);
    *out_platform = platform;
    if (platform == NULL || run->ranks <= 0)
        return COLLCALC_OK;
    collcalc_diag failed;
    collcalc_status status = collcalc_run_shape(platform, run->ranks, run->hosts, given_nodes,
                                                out_nodes, out_gpus_per_node, out_field, &failed);
    if (status == COLLCALC_OK)
        return COLLCALC_OK;
    if ((given_nodes > 0 && !several_runs) || *out_field == NULL ||
        strcmp(*out_field, "nodes") != 0) {
        *diag = failed;
        return status;
    }
    /* The run does not say its shape, or the node count does not fit this
     * run of several: this run is not judged, the others are. */
    *out_field = NULL;
    snprintf(shape_problem, shape_problem_size, "%s", failed.message + strlen("nodes: "));
    return COLLCALC_OK;
}

collcalc_status collcalc_fit_platform_file(const collcalc_platform *platform,
                                           const char *given_name,
                                           const collcalc_fit_result *result,
                                           const char *const *inputs_shown, size_t input_count,
                                           const collcalc_link_table *links,
                                           char name_out[COLLCALC_NAME_MAX], char **json_out,
                                           collcalc_diag *diag)
{
    *json_out = NULL;
    size_t length = given_name != NULL ? strlen(given_name)
                                       : strlen(platform->name) + strlen("-fitted");
    if (length >= COLLCALC_NAME_MAX)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "name: %s has more than the %d characters a platform name may "
                                  "have%s",
                                  given_name != NULL ? "the name" : "PLATFORM-fitted",
                                  COLLCALC_NAME_MAX - 1, given_name != NULL ? "" : ": give --name");
    if (given_name != NULL)
        memcpy(name_out, given_name, length + 1);
    else { /* length checked above: the name and its suffix fit */
        size_t base = strlen(platform->name);
        memcpy(name_out, platform->name, base);
        memcpy(name_out + base, "-fitted", sizeof "-fitted");
    }
    collcalc_platform_nccl_fit values = result->values;
    size_t used = (size_t)snprintf(values.source, sizeof values.source, "collcalc fit of");
    for (size_t i = 0; i < input_count && used < sizeof values.source; i++)
        used += (size_t)snprintf(values.source + used, sizeof values.source - used, "%s %s",
                                 i == 0 ? "" : ",", inputs_shown[i]);
    collcalc_diag failed;
    if (collcalc_fit_platform_json(platform, name_out, &values, json_out, &failed) != COLLCALC_OK)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "name: %s", failed.message);
    /* The file must load as --platforms does. */
    collcalc_platform_table *check = NULL;
    collcalc_status status = collcalc_platform_table_parse_named(
        *json_out, strlen(*json_out), "fitted platform", links, &check, &failed);
    collcalc_platform_table_free(check);
    if (status != COLLCALC_OK) {
        collcalc_fit_text_free(*json_out);
        *json_out = NULL;
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID, "name: %s", failed.message);
    }
    return COLLCALC_OK;
}
