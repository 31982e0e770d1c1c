/* libFuzzer target for the `compare --placement` language and the cluster
 * resolver behind it: any text either parses into a placement whose cluster
 * resolves to valid figures, or is refused with one bounded line that names
 * the option. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/cluster_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { INPUT_MAX = 2048 };

static void require(int condition)
{
    if (!condition)
        abort();
}

static void check_line(const collcalc_diag *diag)
{
    const char *end = memchr(diag->message, '\0', sizeof diag->message);
    require(end != NULL && end != diag->message);
    for (const char *p = diag->message; *p != '\0'; p++)
        require((unsigned char)*p >= 0x20 && (unsigned char)*p != 0x7F);
    require(strncmp(diag->message, "--", 2) == 0 ||
            strncmp(diag->message, "unknown option '--", 18) == 0);
}

typedef struct {
    collcalc_link_table *links;
    collcalc_platform_table *platforms;
} tables;

static const tables *builtin_tables(void)
{
    static tables t;
    if (t.links == NULL) {
        collcalc_diag diag;
        require(collcalc_link_table_builtin(&t.links, &diag) == COLLCALC_OK);
        require(collcalc_platform_table_builtin(t.links, &t.platforms, &diag) == COLLCALC_OK);
    }
    return &t;
}

static void check_cluster(const collcalc_cluster *c, const collcalc_cluster_info *info)
{
    require(c->gpus >= 1 && c->gpus <= COLLCALC_SPEC_GPUS_MAX);
    require(c->gpus_per_node >= 1);
    require(c->nics_per_node >= 1 && c->nics_per_node <= 100000);
    require(c->nics_per_gpu >= 1 && c->nics_per_gpu <= COLLCALC_SPEC_NICS_PER_GPU_MAX);
    require(isfinite(c->intra.bw_GBps) && c->intra.bw_GBps > 0);
    require(isfinite(c->inter.bw_GBps) && c->inter.bw_GBps > 0);
    require(isfinite(c->intra.alpha_us) && c->intra.alpha_us >= 0);
    require(isfinite(c->inter.alpha_us) && c->inter.alpha_us >= 0);
    require(!c->nvls_intra || c->intra.nvlink);
    require(info->nodes >= 1);
    require(info->gpus_in_last_node >= 1 && info->gpus_in_last_node <= c->gpus_per_node);
    require((long)(info->nodes - 1) * c->gpus_per_node + info->gpus_in_last_node == c->gpus);
    require(info->warning_count <= COLLCALC_CLUSTER_WARNINGS_MAX);
    for (size_t i = 0; i < info->warning_count; i++)
        require(memchr(info->warnings[i], '\0', COLLCALC_WARNING_TEXT_MAX) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[INPUT_MAX + 1];
    size_t length = size < INPUT_MAX ? size : INPUT_MAX;
    memcpy(text, data, length);
    text[length] = '\0';

    collcalc_placement placement;
    collcalc_diag diag;
    collcalc_status status = collcalc_placement_parse(text, &placement, &diag);
    if (status != COLLCALC_OK) {
        require(status == COLLCALC_ERR_INVALID);
        require(placement.label[0] == '\0');
        check_line(&diag);
        require(strncmp(diag.message, "--placement: ", 13) == 0);
        return 0;
    }
    require(memchr(placement.label, '\0', sizeof placement.label) != NULL);
    require(placement.label[0] != '\0');

    /* Resolved alone, then on top of a command's --gpus. */
    const tables *t = builtin_tables();
    for (int pass = 0; pass < 2; pass++) {
        collcalc_cluster_spec spec;
        collcalc_cluster_spec_init(&spec);
        if (pass == 1)
            spec.gpus = 16;
        collcalc_cluster_spec_overlay(&spec, &placement.spec);
        collcalc_cluster cluster;
        collcalc_cluster_info info;
        status = collcalc_cluster_resolve(&spec, t->links, t->platforms, &cluster, &info, &diag);
        if (status == COLLCALC_OK)
            check_cluster(&cluster, &info);
        else {
            require(status == COLLCALC_ERR_INVALID || status == COLLCALC_ERR_NOT_FOUND);
            check_line(&diag);
        }
    }
    return 0;
}
