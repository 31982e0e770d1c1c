/* The one output module: collective results as a table for people, JSON or
 * CSV for scripts, and the --explain arithmetic. Field names carry units. */
#ifndef COLLCALC_CLI_OUTPUT_H
#define COLLCALC_CLI_OUTPUT_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "setup.h"
#include "collcalc/model.h"

/* Prints the results of one query (one or more algorithms) in the chosen
 * format. Returns 0 or an exit code. */
int output_results(const cli_settings *settings, const collcalc_query *query,
                   const collcalc_result *results, size_t count, size_t fastest);

/* JSON pieces shared by other commands. Each returns a new object or NULL
 * when out of memory. */
cJSON *json_query(const cli_settings *settings, const collcalc_query *query);
cJSON *json_result(const cli_settings *settings, const collcalc_result *result, bool fastest);

/* Adds a number rounded for output: bytes to whole bytes, others to 4
 * decimals. NULL-safe. */
void json_add_number(cJSON *object, const char *name, double value);
void json_add_bytes(cJSON *object, const char *name, double bytes);

/* Prints a cJSON document followed by a newline and frees it. Returns 0,
 * or 1 when doc is NULL (out of memory). */
int json_print_and_free(const cli_settings *settings, cJSON *doc);

/* Writes one CSV field, quoting when needed. */
void csv_field(FILE *out, const char *text, bool last);

/* Prints the --explain block of one result. */
void explain_result(FILE *out, const collcalc_result *result);

/* The bandwidth basis said in words: "per-direction bandwidth" or
 * "headline bandwidth (as vendors quote it)". */
const char *basis_phrase(collcalc_bw_basis basis);

#endif
