/* Placeholder until links lands. */
#include "cli/commands.h"
int cmd_links(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err)
{ (void)command; (void)argc; (void)argv; (void)in; (void)out; fputs("collcalc links: not yet\n", err); return 1; }
