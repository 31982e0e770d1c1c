/* collcalc's process entry point: everything else lives in the CLI library. */
#include <stdio.h>

#include "cli.h"

int main(int argc, char **argv)
{
    return collcalc_cli_main(argc, argv, stdin, stdout, stderr);
}
