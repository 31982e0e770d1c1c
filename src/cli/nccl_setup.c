/* NCCL's model for a run of known shape, from argv (nccl_setup.h). */
#include "nccl_setup.h"

#include <stdlib.h>
#include <string.h>

#include "request.h"

int nccl_setup_build(cli_context *ctx, const collcalc_platform *platform, int nodes,
                     int gpus_per_node, const char *version, collcalc_nccl_launch launch,
                     nccl_setup *out)
{
    collcalc_request request;
    collcalc_request *r = &request;
    collcalc_request_init(r);
    int code = request_nccl_from_args(ctx, r);
    collcalc_session *session = NULL;
    if (code == 0)
        code = cli_session(ctx, &session);
    if (code != 0)
        return code;
    r->cost_model = COLLCALC_COST_MODEL_NCCL;
    bool own_version = r->nccl_version != NULL;
    if (!own_version)
        r->nccl_version = version;
    if (!r->launch_set) {
        r->launch_set = true;
        r->launch = launch;
    }
    collcalc_prepared *prepared = malloc(sizeof *prepared);
    if (prepared == NULL)
        return cli_data_error(ctx, NULL, "out of memory");
    const char *field = NULL;
    collcalc_diag diag;
    collcalc_status status = collcalc_prepare_nccl(session, r, platform, nodes, gpus_per_node,
                                                   prepared, &field, &diag);
    if (status != COLLCALC_OK) {
        free(prepared);
        if (field != NULL && strcmp(field, "nccl_version") == 0 && !own_version) {
            const char *text = diag.message + strlen(field) + 2;
            return cli_data_error(ctx, NULL, "NCCL version '%.60s': %s", version, text);
        }
        return request_error(ctx, status, field, &diag);
    }
    out->platform = prepared->platform;
    out->system = prepared->system;
    out->constants = prepared->constants;
    out->options = prepared->options;
    out->launch = prepared->launch;
    out->nodes = nodes;
    out->gpus_per_node = gpus_per_node;
    free(prepared);
    return 0;
}
