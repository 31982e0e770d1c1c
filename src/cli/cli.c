/* Temporary stand-in while the CLI is written. */
#include "cli/cli.h"
int collcalc_cli_main(int argc, char **argv, FILE *in, FILE *out, FILE *err)
{
    (void)argc; (void)argv; (void)in; (void)out;
    fputs("collcalc: not built yet\n", err);
    return 1;
}
