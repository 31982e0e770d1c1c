/* collcalc platforms: the platform presets (GPUs per node or NVLink domain,
 * links, NICs, NVLS, NCCL inputs) that --platform fills in. */
#include "commands.h"

static const record_column PLATFORM_COLUMNS[] = {
    {"name", "platform", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"aliases", "aliases", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"gpu", "gpu", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"gpu_arch", "arch", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"gpus_per_node", "GPUs/node", FIELD_INT, COLUMN_BOTH, NULL},
    {"intra_link", "intra", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"nics", "NICs per node", FIELD_TEXT, COLUMN_TABLE, NULL},
    {"inter_link", "inter", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"nics_per_node", "NICs", FIELD_INT, COLUMN_MACHINE, NULL},
    {"nics_per_gpu", "NICs per GPU", FIELD_INT, COLUMN_MACHINE, NULL},
    {"transport", "transport", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"memory_link", "memory", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"host_link", "host", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"nvls", "nvls", FIELD_BOOL, COLUMN_BOTH, NULL},
    {"nvswitch", "nvswitch", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"nvlink_links_per_gpu", "NVLinks per GPU", FIELD_INT, COLUMN_MACHINE, NULL},
    {"p2p", "p2p", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"sharp", "sharp", FIELD_BOOL, COLUMN_MACHINE, NULL},
    {"cpu_vendor", "cpu", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"description", "description", FIELD_TEXT, COLUMN_BOTH, NULL},
    {"topology_source", "topology source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"nics_source", "NICs source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"nvls_source", "NVLS source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"arch_source", "arch source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"transport_source", "transport source", FIELD_TEXT, COLUMN_MACHINE, NULL},
    {"fabric_source", "fabric source", FIELD_TEXT, COLUMN_MACHINE, NULL},
};
static const record_schema PLATFORM_SCHEMA = {
    "platforms", sizeof PLATFORM_COLUMNS / sizeof PLATFORM_COLUMNS[0], PLATFORM_COLUMNS};

int cmd_platforms(cli_context *ctx)
{
    if (ctx->args.positional_count > 0)
        return cli_usage_error(ctx, NULL, "unexpected argument '%.60s'", ctx->args.positionals[0]);
    const collcalc_platform_table *platforms;
    int code = cli_platforms(ctx, &platforms);
    if (code != 0)
        return code;
    document *doc = doc_new(ctx->name);
    record_set *set = doc_records(doc, &PLATFORM_SCHEMA);
    for (size_t i = 0; i < collcalc_platform_table_count(platforms); i++) {
        const collcalc_platform *p = collcalc_platform_table_at(platforms, i);
        char aliases[COLLCALC_MAX_ALIASES * COLLCALC_NAME_MAX + 8] = "";
        size_t used = 0;
        for (int k = 0; k < COLLCALC_MAX_ALIASES && used < sizeof aliases; k++)
            if (p->aliases[k][0] != '\0')
                used += (size_t)snprintf(aliases + used, sizeof aliases - used, "%s%s",
                                         used ? " " : "", p->aliases[k]);
        record_begin(set);
        record_text(set, "name", p->name);
        record_text(set, "aliases", aliases);
        record_text(set, "gpu", p->gpu);
        record_text(set, "gpu_arch", collcalc_gpu_arch_name(p->gpu_arch));
        record_int(set, "gpus_per_node", p->gpus_per_node);
        record_text(set, "intra_link", p->intra_link);
        record_textf(set, "nics", "%d x %s", p->nics_per_node, p->inter_link);
        record_text(set, "inter_link", p->inter_link);
        record_int(set, "nics_per_node", p->nics_per_node);
        record_int(set, "nics_per_gpu", p->nics_per_gpu);
        record_text(set, "transport", collcalc_transport_name(p->transport));
        record_text(set, "memory_link", p->memory_link);
        record_text(set, "host_link", p->host_link);
        record_bool(set, "nvls", p->nvls);
        record_bool(set, "nvswitch", p->nvswitch);
        record_int(set, "nvlink_links_per_gpu", p->nvlink_links_per_gpu);
        record_bool(set, "p2p", p->p2p);
        record_bool(set, "sharp", p->sharp);
        record_text(set, "cpu_vendor", collcalc_cpu_vendor_name(p->cpu_vendor));
        record_text(set, "description", p->description);
        record_text(set, "topology_source", p->topology_source);
        record_text(set, "nics_source", p->nics_source);
        record_text(set, "nvls_source", p->nvls_source);
        record_text(set, "arch_source", p->arch_source);
        record_text(set, "transport_source", p->transport_source);
        record_text(set, "fabric_source", p->fabric_source);
    }
    return cli_emit(ctx, doc);
}
