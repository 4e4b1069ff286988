/* args.h - the command line of a subcommand (`hexe datagen ...`): one table
 * of options, one parser, one style of message for a bad argument.
 *
 *     int nodes = 1000;
 *     const char *out = NULL;
 *     const ArgSpec specs[] = {
 *         ARG_SPEC_INT("--nodes", &nodes, 1, 100000000),
 *         ARG_SPEC_STRING("--out", &out),
 *     };
 *     ArgsResult r = args_parse("datagen", argc, argv, specs, 2);
 *     if (r != ARGS_OK)
 *         return args_finish(r, usage_text);
 *
 * Options are `--name value` or `--name=value`; a flag takes no value. A
 * bad argument is reported on stderr as "hexe datagen: --nodes needs a whole
 * number from 1 to 100000000, not 'x'", followed by the usage. */
#ifndef HEXE_ARGS_H
#define HEXE_ARGS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
    ARG_INT,    /* int *, within [min, max] */
    ARG_INT64,  /* int64_t *, within [min, max] */
    ARG_DOUBLE, /* double *, within [min, max] */
    ARG_STRING, /* const char **: the argument itself */
    ARG_FLAG,   /* bool *: set to true, no value */
    ARG_LIST,   /* ArgList *: each use adds one string */
} ArgKind;

typedef struct {
    const char **items; /* room for cap strings, the caller's */
    int cap, count;
} ArgList;

typedef struct {
    const char *name; /* "--nodes" */
    ArgKind kind;
    void *dest;
    double min, max; /* numbers only; min == max == 0: any value of the type */
    bool *given;     /* optional: set when the option appears */
} ArgSpec;

/* A row of the table (numbers: min == max == 0 for any value). */
#define ARG_SPEC_INT(n, d, lo, hi) {.name = (n), .kind = ARG_INT, .dest = (d), .min = (lo), .max = (hi)}
#define ARG_SPEC_INT64(n, d, lo, hi) {.name = (n), .kind = ARG_INT64, .dest = (d), .min = (lo), .max = (hi)}
#define ARG_SPEC_DOUBLE(n, d, lo, hi) {.name = (n), .kind = ARG_DOUBLE, .dest = (d), .min = (lo), .max = (hi)}
#define ARG_SPEC_STRING(n, d) {.name = (n), .kind = ARG_STRING, .dest = (d)}
#define ARG_SPEC_FLAG(n, d) {.name = (n), .kind = ARG_FLAG, .dest = (d)}
#define ARG_SPEC_LIST(n, d) {.name = (n), .kind = ARG_LIST, .dest = (d)}
#define ARG_SPECS(specs) (int)(sizeof(specs) / sizeof((specs)[0]))

typedef enum {
    ARGS_OK,
    ARGS_HELP, /* --help or -h: the usage goes to stdout */
    ARGS_BAD,  /* a message went to stderr: the usage follows it there */
} ArgsResult;

/* Parses argv[1..argc-1] (argv[0] names the subcommand) against specs. */
ArgsResult args_parse(const char *cmd, int argc, char **argv, const ArgSpec *specs, int nspecs);

/* "hexe <cmd>: <message>" on stderr, for a check the table cannot make
 * (two options that do not go together); returns ARGS_BAD. */
ArgsResult args_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints usage for r (stdout for ARGS_HELP, stderr for ARGS_BAD) and
 * returns the exit code: 0 for help, 2 for a bad argument. */
int args_finish(ArgsResult r, const char *usage);

#endif
