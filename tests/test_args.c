/* test_args.c - the subcommands' command-line parser (src/args.h): values
 * with a space or '=', numbers checked against their range, flags, repeated
 * options, and every kind of bad argument refused. */
#include <string.h>

#include "args.h"
#include "check.h"

static int n;
static int64_t big;
static double x;
static const char *s;
static bool flag, gave_n;
static const char *items[2];
static ArgList list = {items, 2, 0};

static const ArgSpec specs[] = {
    {.name = "--n", .kind = ARG_INT, .dest = &n, .min = 1, .max = 10, .given = &gave_n},
    ARG_SPEC_INT64("--big", &big, 0, 0),
    ARG_SPEC_DOUBLE("--x", &x, 0, 1),
    ARG_SPEC_STRING("--s", &s),
    ARG_SPEC_FLAG("--flag", &flag),
    ARG_SPEC_LIST("--item", &list),
};

/* Parses a command line given as one string of words. */
static ArgsResult parse(const char *line)
{
    n = 5, big = 0, x = 0.5, s = NULL, flag = gave_n = false, list.count = 0;
    static char buf[256];
    char *argv[32] = {"test"};
    int argc = 1;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " "))
        argv[argc++] = t;
    return args_parse("test", argc, argv, specs, ARG_SPECS(specs));
}

int main(void)
{
    CHECK(parse("") == ARGS_OK && n == 5 && !gave_n, "nothing given: the defaults stay");
    CHECK(parse("--n 7 --x 0.25 --s word --flag") == ARGS_OK && n == 7 && x == 0.25 && !strcmp(s, "word") && flag &&
              gave_n,
          "values after a space, and a flag");
    CHECK(parse("--n=3 --s=a=b") == ARGS_OK && n == 3 && !strcmp(s, "a=b"), "values after '='");
    CHECK(parse("--big 123456789012") == ARGS_OK && big == 123456789012LL, "a 64-bit number");
    CHECK(parse("--item a --item b") == ARGS_OK && list.count == 2 && !strcmp(items[1], "b"), "a repeated option");
    CHECK(parse("--help") == ARGS_HELP && parse("--n 2 -h") == ARGS_HELP, "--help and -h");
    const char *bad[] = {"--n 0", "--n 11", "--n 2x", "--n", "--n ''", "--x 1.5", "--x nan", "--x abc",
                         "--flag=1", "--nope 1", "--item a --item b --item c", "--big 99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(parse(bad[i]) == ARGS_BAD, "'%s' refused", bad[i]);
    CHECK(parse("--n 0") == ARGS_BAD && n == 5, "a refused value leaves the option as it was");
    CHECK(args_error("test", "%s and %s", "--a", "--b") == ARGS_BAD, "args_error says ARGS_BAD");
    return check_report("test_args");
}
