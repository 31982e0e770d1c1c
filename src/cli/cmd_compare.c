/* Placeholder until compare lands. */
#include "cli/commands.h"
int cmd_compare(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err)
{ (void)command; (void)argc; (void)argv; (void)in; (void)out; fputs("collcalc compare: not yet\n", err); return 1; }
