/* The commands the CLI dispatches to: one function per command (file). */
#ifndef COLLCALC_CLI_COMMANDS_H
#define COLLCALC_CLI_COMMANDS_H

#include <stdio.h>

/* Every command: argv[0] is the command word; returns the exit code. */
typedef int (*command_fn)(const char *command, int argc, char **argv, FILE *in, FILE *out,
                          FILE *err);

int cmd_collective(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err);
int cmd_compare(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err);
int cmd_sweep(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err);
int cmd_platforms(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err);
int cmd_links(const char *command, int argc, char **argv, FILE *in, FILE *out, FILE *err);

#endif
