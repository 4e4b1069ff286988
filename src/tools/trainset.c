/* tools/trainset.c - the trainer's data (trainset.h): datagen's records,
 * or the training positions of its games, read into memory with the
 * held-out part apart, the network's inputs of a
 * record, and the output scale fitted to the data. */
#include "trainset.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../eval/nnue.h"
#include "games.h"

/* The records of a file of 32-byte records (at most max when max > 0). */
static bool read_records(const char *path, long long max, PackedPos **out, long long *count)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        fprintf(stderr, "train: cannot read %s: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return false;
    }
    long long n = ftell(f) / PACKED_SIZE;
    if (max && n > max)
        n = max;
    rewind(f);
    PackedPos *buf = malloc((size_t)(n ? n : 1) * sizeof *buf);
    if (!buf || (long long)fread(buf, sizeof *buf, (size_t)n, f) != n) {
        fprintf(stderr, "train: cannot read %lld records of %s\n", n, path);
        free(buf);
        fclose(f);
        return false;
    }
    fclose(f);
    *out = buf, *count = n;
    return true;
}

/* The training positions of a game file (games.h), in the order of its
 * games and plies, at most max when max > 0. A bad game ends the file: the
 * games before it are kept. */
static bool read_games(const char *path, long long max, int skip_plies, PackedPos **out, long long *count)
{
    GameReader r;
    if (!games_open(&r, path, skip_plies)) {
        fprintf(stderr, "train: %s\n", r.err);
        return false;
    }
    Game *g = malloc(sizeof *g);
    long long n = 0, cap = 1 << 16;
    PackedPos *buf = malloc((size_t)cap * sizeof *buf);
    int got = 0;
    while (g && buf && (!max || n < max) && (got = games_next(&r, g)) == 1) {
        long long take = max && n + g->npos > max ? max - n : g->npos;
        if (n + take > cap) {
            PackedPos *more = realloc(buf, (size_t)(cap *= 2) * sizeof *buf);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
        }
        memcpy(buf + n, g->pos, (size_t)take * sizeof *buf);
        n += take;
    }
    if (got < 0)
        fprintf(stderr, "train: %s\n", r.err);
    bool ok = g && buf;
    if (!ok)
        fprintf(stderr, "train: out of memory reading %s\n", path);
    else
        fprintf(stderr, "train: %s: %lld games read\n", path, r.games);
    games_close(&r);
    free(g);
    if (!ok)
        free(buf);
    *out = buf, *count = n;
    return ok;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

bool trainset_read(const char *path, TrainSet *d, double val, long long max, int skip_plies, PackedPos **val_out,
                   long long *nval)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) { /* every game file in it, by name */
        DIR *dir = opendir(path);
        char **names = NULL;
        int n = 0;
        for (struct dirent *e; dir && (e = readdir(dir));) {
            size_t len = strlen(e->d_name);
            if (len <= 4 || strcmp(e->d_name + len - 4, ".hxg"))
                continue;
            char **more = realloc(names, (size_t)(n + 1) * sizeof *names);
            if (!more)
                break;
            names = more;
            if (!(names[n] = malloc(strlen(path) + len + 2)))
                break;
            sprintf(names[n++], "%s/%s", path, e->d_name);
        }
        if (dir)
            closedir(dir);
        if (n)
            qsort(names, (size_t)n, sizeof *names, by_name);
        bool ok = n > 0;
        if (!ok)
            fprintf(stderr, "train: %s holds no game file (*.hxg)\n", path);
        for (int i = 0; i < n; i++) {
            ok = ok && trainset_read(names[i], d, val, max, skip_plies, val_out, nval);
            free(names[i]);
        }
        free(names);
        return ok;
    }
    bool games = games_is_game_file(path);
    PackedPos *buf = NULL;
    long long n = 0;
    if (!(games ? read_games(path, max, skip_plies, &buf, &n) : read_records(path, max, &buf, &n)))
        return false;
    /* The last val fraction of the file (whole games) is held out. */
    long long nv = (long long)((double)n * val), nt = n - nv;
    PackedPos *rec = realloc(d->rec, (size_t)(d->n + nt + 1) * sizeof *rec);
    PackedPos *vr = realloc(*val_out, (size_t)(*nval + nv + 1) * sizeof *vr);
    if (rec)
        d->rec = rec;
    if (vr)
        *val_out = vr;
    if (!rec || !vr) {
        fprintf(stderr, "train: out of memory reading %s\n", path);
        free(buf);
        return false;
    }
    memcpy(rec + d->n, buf, (size_t)nt * sizeof *buf);
    memcpy(vr + *nval, buf + nt, (size_t)nv * sizeof *buf);
    d->n += nt;
    *nval += nv;
    free(buf);
    fprintf(stderr, "train: %s: %lld positions (%lld held out)\n", path, n, nv);
    return true;
}

int train_features(const Unpacked *u, bool mirror, bool mirrored_inputs, uint16_t us[32], uint16_t them[32])
{
    int king[2] = {0, 0};
    for (int sq = 0; sq < 64; sq++) {
        mirror = mirror && !u->castle_rook[sq];
        if (PTYPE(u->piece[sq]) == KING)
            king[PCOLOR(u->piece[sq])] = sq;
    }
    /* Each perspective's squares: flipped by mirror, then as the network
     * sees the position so flipped. */
    int flip = mirror ? 7 : 0, n = 0;
    int fu = flip ^ nnue_flip(mirrored_inputs, king[u->side] ^ flip);
    int ft = flip ^ nnue_flip(mirrored_inputs, king[!u->side] ^ flip);
    for (int sq = 0; sq < 64; sq++)
        if (u->piece[sq] != EMPTY && n < 32) {
            us[n] = (uint16_t)nnue_feature(u->side, u->piece[sq], sq ^ fu);
            them[n++] = (uint16_t)nnue_feature(!u->side, u->piece[sq], sq ^ ft);
        }
    return n;
}

bool sample_of(const PackedPos *r, Sample *s, bool mirror, bool mirrored_inputs)
{
    Unpacked u;
    if (!packed_decode(r, &u))
        return false;
    s->n = train_features(&u, mirror, mirrored_inputs, s->us, s->them);
    float sign = u.side == WHITE ? 1.0f : -1.0f;
    s->score = sign * (float)u.score;
    s->result = u.side == WHITE ? (float)u.result / 2.0f : 1.0f - (float)u.result / 2.0f;
    return true;
}

double trainset_fit_scale(const TrainSet *d)
{
    long long step = d->n > 1000000 ? d->n / 1000000 : 1;
    double lo = 50, hi = 2000;
    for (int it = 0; it < 60; it++) {
        double k[2] = {lo + (hi - lo) / 3, hi - (hi - lo) / 3}, e[2] = {0, 0};
        for (int j = 0; j < 2; j++)
            for (long long i = 0; i < d->n; i += step) {
                Sample s;
                if (sample_of(&d->rec[i], &s, false, false)) { /* the score and result alone */
                    double x = sigmoid(s.score / k[j]) - s.result;
                    e[j] += x * x;
                }
            }
        if (e[0] < e[1])
            hi = k[1];
        else
            lo = k[0];
    }
    return (lo + hi) / 2;
}
