/* The model's link parameters (collcalc/model.h): their defaults, and a
 * link-table entry as link parameters, the one place that knows both
 * collcalc_link (collcalc/links.h) and collcalc_link_params, so the model
 * takes values, never tables. Here, below the model, so that the tables
 * build its values without calling up into it (tests/install/calls.cmake). */
#include <string.h>

#include "collcalc/links.h"
#include "collcalc/model.h"

void collcalc_link_params_init(collcalc_link_params *params)
{
    if (params == NULL)
        return;
    memset(params, 0, sizeof *params);
}

void collcalc_link_params_from_link(const collcalc_link *link, collcalc_bw_basis basis,
                                    collcalc_link_params *out_params)
{
    if (out_params == NULL)
        return;
    collcalc_link_params_init(out_params);
    if (link == NULL)
        return;
    memcpy(out_params->name, link->name, sizeof out_params->name);
    out_params->name[sizeof out_params->name - 1] = '\0';
    out_params->bw_GBps = collcalc_link_bandwidth_GBps(link, basis);
    out_params->alpha_us = link->alpha_us;
    out_params->nvlink = link->link_class == COLLCALC_LINK_CLASS_NVLINK;
    out_params->p2p_efficiency = link->p2p_efficiency;
}
