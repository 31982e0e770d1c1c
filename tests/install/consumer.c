/* Built against an installed collcalc (pkg-config or find_package): the
 * version, and the ring all-reduce of 100 MB on 8 GPUs over nvlink5 sends
 * 2(p-1)/p x S = 175,000,000 bytes per GPU. Exit 0 when both hold. */
#include <stdio.h>
#include <string.h>

#include <collcalc/collcalc.h>

int main(void)
{
    collcalc_diag diag;
    collcalc_link_table *table = NULL;
    if (strcmp(collcalc_version(), COLLCALC_VERSION_STRING) != 0
        || collcalc_link_table_builtin(&table, &diag) != COLLCALC_OK)
        return 1;
    const collcalc_link *link = collcalc_link_table_find(table, "nvlink5");
    collcalc_query query;
    collcalc_query_init(&query);
    query.op = COLLCALC_OP_ALLREDUCE;
    query.size_bytes = 100000000;
    collcalc_link_params params;
    collcalc_result result;
    int ok = link != NULL;
    if (ok) {
        collcalc_link_params_from_link(link, COLLCALC_BW_PER_DIRECTION, &params);
        collcalc_cluster_single_link(8, &params, &query.cluster);
        ok = collcalc_model_evaluate(&query, COLLCALC_ALGO_RING, &result, &diag) == COLLCALC_OK
             && result.bytes_sent_per_gpu == 175000000.0;
    }
    collcalc_link_table_free(table);
    printf("collcalc %s: ring all-reduce sends %.0f bytes per GPU\n", collcalc_version(),
           ok ? result.bytes_sent_per_gpu : -1.0);
    return ok ? 0 : 1;
}
