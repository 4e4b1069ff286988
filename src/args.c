/* args.c - the subcommands' command-line parser (args.h). */
#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ArgsResult args_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "hexe %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return ARGS_BAD;
}

int args_finish(ArgsResult r, const char *usage)
{
    fputs(usage, r == ARGS_HELP ? stdout : stderr);
    return r == ARGS_HELP ? 0 : 2;
}

static bool ranged(const ArgSpec *s) { return s->min != 0 || s->max != 0; }

/* Stores one value; false (and says why) when it is not of the option's kind. */
static bool store(const char *cmd, const ArgSpec *s, const char *v)
{
    char *end;
    errno = 0;
    switch (s->kind) {
    case ARG_INT:
    case ARG_INT64: {
        long long x = strtoll(v, &end, 10);
        double lo = ranged(s) ? s->min : s->kind == ARG_INT ? -2147483648.0 : -9.2e18;
        double hi = ranged(s) ? s->max : s->kind == ARG_INT ? 2147483647.0 : 9.2e18;
        if (errno || end == v || *end || (double)x < lo || (double)x > hi) {
            args_error(cmd, "%s needs a whole number from %.0f to %.0f, not '%s'", s->name, lo, hi, v);
            return false;
        }
        if (s->kind == ARG_INT)
            *(int *)s->dest = (int)x;
        else
            *(int64_t *)s->dest = (int64_t)x;
        return true;
    }
    case ARG_DOUBLE: {
        double x = strtod(v, &end);
        if (errno || end == v || *end || !isfinite(x) || (ranged(s) && (x < s->min || x > s->max))) {
            if (ranged(s))
                args_error(cmd, "%s needs a number from %g to %g, not '%s'", s->name, s->min, s->max, v);
            else
                args_error(cmd, "%s needs a number, not '%s'", s->name, v);
            return false;
        }
        *(double *)s->dest = x;
        return true;
    }
    case ARG_STRING:
        *(const char **)s->dest = v;
        return true;
    case ARG_LIST: {
        ArgList *l = s->dest;
        if (l->count >= l->cap) {
            args_error(cmd, "%s is given more than %d times", s->name, l->cap);
            return false;
        }
        l->items[l->count++] = v;
        return true;
    }
    case ARG_FLAG:
        break;
    }
    return false;
}

ArgsResult args_parse(const char *cmd, int argc, char **argv, const ArgSpec *specs, int nspecs)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return ARGS_HELP;
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        const ArgSpec *s = NULL;
        for (int k = 0; k < nspecs && !s; k++)
            if (strlen(specs[k].name) == len && !strncmp(specs[k].name, a, len))
                s = &specs[k];
        if (!s)
            return args_error(cmd, "unknown option '%s'", a);
        if (s->given)
            *s->given = true;
        if (s->kind == ARG_FLAG) {
            if (eq)
                return args_error(cmd, "%s takes no value", s->name);
            *(bool *)s->dest = true;
            continue;
        }
        const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!v)
            return args_error(cmd, "%s needs a value", s->name);
        if (!store(cmd, s, v))
            return ARGS_BAD;
    }
    return ARGS_OK;
}
