/* tools/pool.c - the pool of games (pool.h): where it is, the tag of the
 * network that played, and `hexe pool`, which reads every game file of it
 * and prints per network its files, games, training positions and bytes,
 * with the commands that re-create each file. */
#include "pool.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../args.h"
#include "../eval/nnue.h"
#include "games.h"

#ifndef HEXE_COMMIT
#define HEXE_COMMIT "unknown commit" /* the Makefile names it */
#endif

const char *pool_dir(char *buf, size_t n, const char **from)
{
    const char *v = getenv("HEXE_DATA");
    if (v && *v) {
        *from = "$HEXE_DATA";
        snprintf(buf, n, "%s", v);
        return buf;
    }
    v = getenv("XDG_DATA_HOME");
    if (v && *v == '/') { /* the XDG rule: a relative value is ignored */
        *from = "$XDG_DATA_HOME";
        snprintf(buf, n, "%s/hexe/pool", v);
        return buf;
    }
    v = getenv("HOME");
    if (v && *v) {
        *from = "$HOME";
        snprintf(buf, n, "%s/.local/share/hexe/pool", v);
        return buf;
    }
    *from = NULL;
    return NULL;
}

bool pool_mkdir(const char *dir)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return false;
    }
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0755) != 0 && errno != EEXIST)
                return false;
            *p = '/';
        }
    return mkdir(path, 0755) == 0 || errno == EEXIST;
}

const char *pool_tag(const EvalChoice *c, char *buf, size_t n)
{
    char *bytes = NULL;
    size_t len = 0;
    FILE *f = c->net && !strcmp(c->evaluator->name, "nnue") ? open_memstream(&bytes, &len) : NULL;
    bool ok = f && nnue_write(c->net, f);
    if (f)
        fclose(f);
    if (ok) {
        uint64_t h = 14695981039346656037ULL;
        for (size_t i = 0; i < len; i++)
            h = (h ^ (unsigned char)bytes[i]) * 1099511628211ULL;
        snprintf(buf, n, "%012llx", (unsigned long long)(h >> 16));
    } else {
        snprintf(buf, n, "%s", c->evaluator->name);
    }
    free(bytes);
    return buf;
}

bool pool_file(const EvalChoice *c, int nodes, int seed, char *path, char *cmd_path, size_t n, char *tag)
{
    char dir[PATH_MAX];
    const char *from;
    if (!pool_dir(dir, sizeof dir, &from) || !pool_mkdir(dir)) {
        fprintf(stderr, "datagen: cannot make the pool's folder %s: %s\n", from ? dir : "(set HEXE_DATA)",
                from ? strerror(errno) : "no $HEXE_DATA, $XDG_DATA_HOME or $HOME");
        return false;
    }
    pool_tag(c, tag, 64);
    snprintf(path, n, "%s/n%d-%s-s%d.hxg", dir, nodes, tag, seed);
    snprintf(cmd_path, n, "%s/n%d-%s-s%d.cmd", dir, nodes, tag, seed);
    fprintf(stderr, "datagen: appending to %s\n", path);
    return true;
}

/* One word of a command line, quoted for the shell when it needs to be. */
static void put_word(FILE *f, const char *w)
{
    if (*w && !w[strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./+,:")]) {
        fprintf(f, " %s", w);
        return;
    }
    fputs(" '", f);
    for (; *w; w++)
        if (*w == '\'')
            fputs("'\\''", f);
        else
            fputc(*w, f);
    fputc('\'', f);
}

void pool_record(const char *cmd_path, int argc, char **argv, const PoolRun *run)
{
    FILE *f = fopen(cmd_path, "a");
    if (!f) {
        fprintf(stderr, "datagen: cannot write %s: %s\n", cmd_path, strerror(errno));
        return;
    }
    fprintf(f, "hexe datagen --nodes %d --seed %d", run->nodes, run->seed);
    for (int i = 1; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        size_t len = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
        bool value = !eq && i + 1 < argc; /* every option of datagen takes one */
        static const char *const dropped[] = {"--nodes", "--seed", "--games", "--positions"};
        bool drop = false;
        for (size_t k = 0; k < sizeof dropped / sizeof *dropped; k++)
            drop = drop || (strlen(dropped[k]) == len && !strncmp(argv[i], dropped[k], len));
        for (int part = 0; part <= value && !drop; part++)
            put_word(f, argv[i + part]);
        i += value;
    }
    char when[32];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    fprintf(f, " --games %lld  # wrote %lld games, %lld positions; %s, hexe %s (%s), network %s %s\n", run->games,
            run->written, run->positions, when, HEXE_VERSION, HEXE_COMMIT, run->tag, run->net_name);
    fclose(f);
}

/* ---- `hexe pool` ---- */

typedef struct {
    char name[256], tag[64];
    long long games, positions, bytes;
    char err[300]; /* the first bad game, or "" */
} PoolFile;

static const char usage[] =
    "usage: hexe pool [--eval NAME] [--evalfile FILE] [--skip-plies N] [--path]\n"
    "Prints what the pool of games holds (the folder $HEXE_DATA, else\n"
    "$XDG_DATA_HOME/hexe/pool, else ~/.local/share/hexe/pool): per network its\n"
    "files, games, training positions (as `hexe train` reads them, from ply\n"
    "--skip-plies N on, default 8) and bytes, and the commands that re-create\n"
    "each file. --eval NAME or --evalfile FILE: only the games of that\n"
    "evaluator or network (`--eval nnue`: the one built in). --path: print the\n"
    "folder and nothing else.\n";

/* The tag of a file named n<nodes>-<tag>-s<seed>.hxg; false for another name. */
static bool tag_of(const char *name, char *tag, size_t n)
{
    const char *dash = strchr(name, '-'), *seed = strstr(name, "-s");
    for (const char *p = seed; p; p = strstr(p + 1, "-s"))
        seed = p;
    if (name[0] != 'n' || !dash || !seed || seed <= dash + 1 || (size_t)(seed - dash - 1) >= n)
        return false;
    snprintf(tag, n, "%.*s", (int)(seed - dash - 1), dash + 1);
    return true;
}

static int by_tag_and_name(const void *a, const void *b)
{
    const PoolFile *x = a, *y = b;
    int t = strcmp(x->tag, y->tag);
    return t ? t : strcmp(x->name, y->name);
}

/* The game files of dir, sorted by tag and name; -1 when dir cannot be read. */
static int list_files(const char *dir, PoolFile **out)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0, cap = 0;
    PoolFile *files = NULL;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".hxg") || len >= sizeof files->name)
            continue;
        if (n == cap) {
            PoolFile *more = realloc(files, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *files);
            if (!more)
                break;
            files = more;
        }
        PoolFile *f = &files[n++];
        memset(f, 0, sizeof *f);
        snprintf(f->name, sizeof f->name, "%s", e->d_name);
        if (!tag_of(f->name, f->tag, sizeof f->tag))
            snprintf(f->tag, sizeof f->tag, "(other names)");
    }
    closedir(d);
    if (n)
        qsort(files, (size_t)n, sizeof *files, by_tag_and_name);
    *out = files;
    return n;
}

/* Reads a file's games as the trainer does, counting them. */
static void count_file(const char *dir, PoolFile *f, int skip_plies, Game *g)
{
    char path[PATH_MAX + 300]; /* the folder and a name */
    snprintf(path, sizeof path, "%s/%s", dir, f->name);
    struct stat st;
    f->bytes = stat(path, &st) == 0 ? (long long)st.st_size : 0;
    GameReader r;
    if (!games_open(&r, path, skip_plies)) {
        snprintf(f->err, sizeof f->err, "%s", r.err);
        return;
    }
    int got;
    while ((got = games_next(&r, g)) == 1)
        f->positions += g->npos;
    f->games = r.games;
    if (got < 0)
        snprintf(f->err, sizeof f->err, "%s", r.err);
    games_close(&r);
}

/* The commands of a file's .cmd, indented; returns the games they say they wrote. */
static long long print_commands(const char *dir, const PoolFile *f)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%.*s.cmd", dir, (int)(strlen(f->name) - 4), f->name);
    FILE *in = fopen(path, "r");
    if (!in) {
        printf("    (no %.*s.cmd: the commands that made it are unknown)\n", (int)(strlen(f->name) - 4), f->name);
        return 0;
    }
    long long wrote = 0;
    char line[4096];
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0])
            continue;
        printf("    %s\n", line);
        const char *w = strstr(line, "# wrote ");
        long long g;
        if (w && sscanf(w, "# wrote %lld games", &g) == 1)
            wrote += g;
    }
    fclose(in);
    return wrote;
}

static void print_sums(const char *what, int files, long long games, long long positions, long long bytes)
{
    printf("%s%d file%s, %lld games, %lld positions, %lld bytes", what, files, files == 1 ? "" : "s", games,
           positions, bytes);
    if (positions)
        printf(" (%.2f bytes a position)", (double)bytes / (double)positions);
    printf("\n");
}

int pool_main(int argc, char **argv)
{
    const char *eval = NULL, *evalfile = NULL;
    int skip_plies = 8;
    bool path_only = false;
    const ArgSpec specs[] = {
        ARG_SPEC_FLAG("--path", &path_only),
        ARG_SPEC_STRING("--eval", &eval),
        ARG_SPEC_STRING("--evalfile", &evalfile),
        ARG_SPEC_INT("--skip-plies", &skip_plies, 0, GAMES_MAX_PLIES),
    };
    ArgsResult r = args_parse("pool", argc, argv, specs, ARG_SPECS(specs));
    if (r != ARGS_OK)
        return args_finish(r, usage);
    /* The network asked about, and the one built in. */
    char only[64] = "", built_in[64] = "";
    EvalChoice def = eval_default(), choice = def;
    pool_tag(&def, built_in, sizeof built_in);
    Network *net = NULL;
    if (evalfile) {
        char err[256];
        if (!(net = nnue_load(evalfile, err, sizeof err)))
            return args_finish(args_error("pool", "--evalfile: %s", err), usage);
        choice.net = net;
        eval_choose(&choice, "nnue");
    }
    if (eval && !eval_choose(&choice, eval)) {
        nnue_unload(net);
        return args_finish(args_error("pool", "no usable evaluator named '%s'", eval), usage);
    }
    if (eval || evalfile)
        pool_tag(&choice, only, sizeof only);
    nnue_unload(net);

    char dir[PATH_MAX];
    const char *from;
    if (!pool_dir(dir, sizeof dir, &from)) {
        printf("pool: none: $HEXE_DATA, $XDG_DATA_HOME and $HOME are all unset\n");
        print_sums("total: ", 0, 0, 0, 0);
        return 1;
    }
    if (path_only) {
        printf("%s\n", dir);
        return 0;
    }
    PoolFile *files = NULL;
    int n = list_files(dir, &files);
    printf("pool: %s (from %s)%s\n", dir, from, n < 0 ? ": no such folder" : n == 0 ? ": no game files" : "");
    Game *g = malloc(sizeof *g);
    int shown = 0;
    long long games = 0, positions = 0, bytes = 0;
    for (int i = 0; i < n && g;) {
        int end = i;
        while (end < n && !strcmp(files[end].tag, files[i].tag))
            end++;
        if (only[0] && strcmp(files[i].tag, only)) {
            i = end;
            continue;
        }
        long long tg = 0, tp = 0, tb = 0;
        for (int k = i; k < end; k++) {
            count_file(dir, &files[k], skip_plies, g);
            tg += files[k].games, tp += files[k].positions, tb += files[k].bytes;
        }
        char head[128];
        snprintf(head, sizeof head, "network %s%s: ", files[i].tag,
                 !strcmp(files[i].tag, built_in) ? " (this build's)" : "");
        print_sums(head, end - i, tg, tp, tb);
        for (int k = i; k < end; k++) {
            PoolFile *f = &files[k];
            printf("  %s: %lld games, %lld positions, %lld bytes\n", f->name, f->games, f->positions, f->bytes);
            if (f->err[0]) {
                printf("    damaged: %s\n", f->err);
                fprintf(stderr, "pool: %s\n", f->err);
            }
            long long wrote = print_commands(dir, f);
            if (f->games > wrote && !f->err[0])
                printf("    (%lld games not in these commands: a run was killed before it could write its own)\n",
                       f->games - wrote);
        }
        shown += end - i, games += tg, positions += tp, bytes += tb;
        i = end;
    }
    if (only[0] && !shown)
        printf("network %s: no files\n", only);
    print_sums("total: ", shown, games, positions, bytes);
    printf("positions: as `hexe train` keeps them: the side to move not in check, the move played quiet,\n"
           "no mate or tablebase score, from ply %d of the game on\n", skip_plies);
    free(g);
    free(files);
    return g || n <= 0 ? 0 : 1;
}
