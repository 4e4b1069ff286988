/* tools/nettrain.c - `hexe nettrain`: fits the learnt correction of the `hexe`
 * evaluation (eval/net.h) to labelled positions ('<FEN> | <White's expected
 * score>', e.g. from scripts/sf-label):
 *
 *   eval = hce + S * (b2 + W2 . [crelu(acc_stm), crelu(acc_other)])
 *   acc_view = b1 + the W1 rows of the pieces seen from that side
 *   error = mean over positions of (y - sigmoid(K * eval / 400))^2
 *
 * hce is the evaluation without the correction, K is fitted to it alone, and
 * positions where the evaluation adds no correction (special cases) are left
 * out. Adam with decoupled weight decay, mini-batches, and early stopping on
 * held-out positions: the weights with the lowest held-out error are written,
 * rounded as net.h says, to a hexe_net.inc. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nettrain.h"

#include "../args.h"
#include "../eval/hexe.h"
#include "../eval/net.h"
#include "../fen.h"

#define MAXH 256
#define S_OUT 100.0

typedef struct {
    int n;
    uint16_t (*f)[2][32];
    uint8_t (*nf)[2];
    float *hce, *y; /* the evaluation without the correction, and the label, side to move's view */
    float *full;    /* the evaluation with the correction built in (for --check) */
} Set;

static int load(Set *d, const char *path, int max)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    int cap = 1 << 16;
    d->f = malloc((size_t)cap * sizeof *d->f);
    d->nf = malloc((size_t)cap * sizeof *d->nf);
    d->hce = malloc((size_t)cap * sizeof *d->hce);
    d->y = malloc((size_t)cap * sizeof *d->y);
    d->full = malloc((size_t)cap * sizeof *d->full);
    d->n = 0;
    char line[512], err[160];
    Position pos;
    memset(&pos, 0, sizeof pos);
    EvalContext *ctx = eval_context_new(); /* the hexe evaluator's caches */
    if (!ctx || !eval_choose(&ctx->use, "hexe")) {
        eval_context_free(ctx);
        fclose(fp);
        return -1;
    }
    while (fgets(line, sizeof line, fp) && (!max || d->n < max)) {
        char *bar = strchr(line, '|');
        if (!bar)
            continue;
        *bar = '\0';
        bool corrected;
        if (!pos_set_fen(&pos, line, err, sizeof err))
            continue;
        int hce = hexe_base_eval(ctx, &pos, &corrected);
        if (!corrected)
            continue;
        if (d->n == cap) {
            cap *= 2;
            d->f = realloc(d->f, (size_t)cap * sizeof *d->f);
            d->nf = realloc(d->nf, (size_t)cap * sizeof *d->nf);
            d->hce = realloc(d->hce, (size_t)cap * sizeof *d->hce);
            d->y = realloc(d->y, (size_t)cap * sizeof *d->y);
            d->full = realloc(d->full, (size_t)cap * sizeof *d->full);
        }
        int i = d->n, stm = pos.side, pieces = 0;
        for (int p = 0; p < 16; p++)
            pieces += __builtin_popcountll(pos.bb[p]);
        if (pieces > 32)
            continue; /* a legal FEN, not a chess position */
        d->nf[i][0] = d->nf[i][1] = 0;
        for (int s = 0; s < 128; s++) {
            if (OFFBOARD(s) || !pos.board[s])
                continue;
            for (int k = 0; k < 2; k++) {
                int c = k == 0 ? stm : !stm;
                d->f[i][k][d->nf[i][k]++] =
                    (uint16_t)net_input(c, PCOLOR(pos.board[s]), PTYPE(pos.board[s]), SQ64(s));
            }
        }
        double r = atof(bar + 1);
        d->y[i] = (float)(stm == WHITE ? r : 1 - r);
        d->hce[i] = (float)hce;
        d->full[i] = (float)evaluate(ctx, &pos); /* hce plus the correction */
        d->n++;
    }
    fclose(fp);
    pos_free(&pos);
    eval_context_free(ctx);
    return d->n;
}

static void free_set(Set *d)
{
    free(d->f), free(d->nf), free(d->hce), free(d->y), free(d->full);
}

/* The parameters, slices of one vector: W1 (NET_INPUTS x H), b1 (H), W2 (2H), b2 (1). */
static int H = 64;
static float *W1, *b1, *W2, *b2;

static double sigm(double k, double e) { return 1.0 / (1.0 + pow(10.0, -k * e / 400.0)); }

/* The correction of position i in centipawns; fills acc (the two halves'
 * sums) and a (their clipped values). */
static double forward(const Set *d, int i, float *acc, float *a)
{
    for (int k = 0; k < 2; k++) {
        float *ac = acc + k * H;
        memcpy(ac, b1, (size_t)H * sizeof *ac);
        for (int j = 0; j < d->nf[i][k]; j++) {
            const float *w = W1 + (size_t)d->f[i][k][j] * H;
            for (int h = 0; h < H; h++)
                ac[h] += w[h];
        }
    }
    double o = *b2;
    for (int h = 0; h < 2 * H; h++) {
        float v = acc[h];
        a[h] = v < 0 ? 0 : v > 1 ? 1 : v;
        o += W2[h] * a[h];
    }
    return S_OUT * o;
}

static double set_error(const Set *d, double K)
{
    float acc[2 * MAXH], a[2 * MAXH];
    double sum = 0;
    for (int i = 0; i < d->n; i++) {
        double e = d->y[i] - sigm(K, d->hce[i] + forward(d, i, acc, a));
        sum += e * e;
    }
    return sum / d->n;
}

static double fit_k(const Set *d)
{
    double lo = 0.05, hi = 5.0;
    for (int it = 0; it < 50; it++) {
        double a = hi - (hi - lo) / 1.618033988, b = lo + (hi - lo) / 1.618033988, ea = 0, eb = 0;
        for (int i = 0; i < d->n; i++) {
            double x = d->y[i] - sigm(a, d->hce[i]), z = d->y[i] - sigm(b, d->hce[i]);
            ea += x * x, eb += z * z;
        }
        if (ea < eb)
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

static double wd = 2;

/* One Adam step on n parameters p with gradients g and moments m, v. */
static void adam(float *p, const float *g, float *m, float *v, size_t n, double lr, double decay, int t)
{
    const double b1c = 1 - pow(0.9, t), b2c = 1 - pow(0.999, t);
    for (size_t j = 0; j < n; j++) {
        m[j] = 0.9f * m[j] + 0.1f * g[j];
        v[j] = 0.999f * v[j] + 0.001f * g[j] * g[j];
        p[j] -= (float)(lr * (m[j] / b1c) / (sqrt(v[j] / b2c) + 1e-8) + lr * decay * p[j]);
    }
}

static unsigned long long rng = 88172645463325252ULL;
static unsigned long long xr(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* Writes the weights rounded as net.h says, as a hexe_net.inc. */
static void write_inc(const char *path, double K, double err, int n)
{
    FILE *o = fopen(path, "w");
    if (!o) {
        fprintf(stderr, "cannot write %s\n", path);
        return;
    }
    fprintf(o, "/* hexe_net.inc - the learnt correction's weights (net.h), written by\n"
               " * `hexe nettrain`: %d positions, K %.4f, held-out error %.6f. */\n",
            n, K, err);
    fprintf(o, "#define NET_HIDDEN %d\n", H);
    fprintf(o, "static const int64_t net_b2 = %lld;\n", (long long)llround(*b2 * S_OUT * NET_Q1 * NET_Q2));
    fprintf(o, "static const int32_t net_b1[NET_HIDDEN] = {");
    for (int h = 0; h < H; h++)
        fprintf(o, "%s%ld", h ? "," : "", lround(b1[h] * NET_Q1));
    fprintf(o, "};\nstatic const int32_t net_w2[2 * NET_HIDDEN] = {");
    for (int h = 0; h < 2 * H; h++)
        fprintf(o, "%s%ld", h ? "," : "", lround(W2[h] * S_OUT * NET_Q2));
    fprintf(o, "};\nstatic const int16_t net_w1[NET_INPUTS][NET_HIDDEN] = {\n");
    for (int j = 0; j < NET_INPUTS; j++) {
        fprintf(o, "{");
        for (int h = 0; h < H; h++) {
            long v = lround(W1[(size_t)j * H + h] * NET_Q1);
            fprintf(o, "%s%ld", h ? "," : "", v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : v);
        }
        fprintf(o, "},\n");
    }
    fprintf(o, "};\n");
    fclose(o);
}

/* --check: the error of the evaluation compiled in, without and with its
 * correction, on a labelled file (the integer path the search uses). */
static int check(const char *path)
{
    Set d = {0};
    if (load(&d, path, 0) <= 0) {
        free_set(&d);
        return fprintf(stderr, "cannot read the positions\n"), 1;
    }
    double K = fit_k(&d), e0 = 0, e1 = 0;
    for (int i = 0; i < d.n; i++) {
        double a = d.y[i] - sigm(K, d.hce[i]), b = d.y[i] - sigm(K, d.full[i]);
        e0 += a * a, e1 += b * b;
    }
    printf("%d positions, K %.4f: error without the correction %.6f, with it %.6f\n", d.n, K, e0 / d.n, e1 / d.n);
    free_set(&d);
    return 0;
}

static const char usage[] =
            "usage: hexe nettrain --data FILE --validate FILE [--hidden H] [--epochs E] [--lr X] [--wd X]\n"
            "                     [--batch N] [--max N] [--out hexe_net.inc]\n"
            "       hexe nettrain --check FILE\n"
            "Fits the learnt correction of the `hexe` evaluation (src/eval/net.h) to the\n"
            "labelled positions of FILE ('<FEN> | <White's expected score>') and writes the\n"
            "weights with the lowest error on the --validate positions as a hexe_net.inc.\n"
            "Defaults: --hidden 64 --epochs 40 --lr 0.0005 (cosine decay) --wd 2 (first layer) --batch 1024.\n"
            "To use the weights, copy the file to src/eval/hexe_net.inc and rebuild.\n"
            "--check FILE: the error of the evaluation built in, without and with the correction.\n";

int nettrain_main(int argc, char **argv)
{
    const char *data = NULL, *val = NULL, *out = "hexe_net.inc", *check_file = NULL;
    int epochs = 40, batch = 1024, max = 0;
    double lr = 5e-4;
    const ArgSpec specs[] = {
        ARG_SPEC_STRING("--check", &check_file),
        ARG_SPEC_STRING("--data", &data),
        ARG_SPEC_STRING("--validate", &val),
        ARG_SPEC_INT("--hidden", &H, 1, MAXH),
        ARG_SPEC_INT("--epochs", &epochs, 1, 1e6),
        ARG_SPEC_DOUBLE("--lr", &lr, 1e-12, 10),
        ARG_SPEC_DOUBLE("--wd", &wd, 0, 1e6),
        ARG_SPEC_INT("--batch", &batch, 1, 1 << 24),
        ARG_SPEC_INT("--max", &max, 0, INT_MAX),
        ARG_SPEC_STRING("--out", &out),
    };
    ArgsResult r = args_parse("nettrain", argc, argv, specs, ARG_SPECS(specs));
    if (r == ARGS_OK && check_file)
        return check(check_file);
    if (r == ARGS_OK && (!data || !val))
        r = args_error("nettrain", "--data and --validate are both needed");
    if (r != ARGS_OK)
        return args_finish(r, usage);
    Set tr = {0}, va = {0};
    if (load(&tr, data, max) <= 0 || load(&va, val, 0) <= 0) {
        free_set(&tr), free_set(&va);
        return fprintf(stderr, "cannot read the positions\n"), 1;
    }
    double K = fit_k(&tr);
    size_t n1 = (size_t)NET_INPUTS * H, np = n1 + 3 * (size_t)H + 1;
    float *P = calloc(np, sizeof *P), *G = calloc(np, sizeof *G), *M = calloc(np, sizeof *M),
          *V = calloc(np, sizeof *V);
    W1 = P, b1 = P + n1, W2 = b1 + H, b2 = W2 + 2 * H;
    float *gW1 = G, *gb1 = G + n1, *gW2 = gb1 + H, *gb2 = gW2 + 2 * H;
    for (size_t j = 0; j < n1; j++)
        W1[j] = (float)(((double)(xr() % 20001) / 10000.0 - 1.0) * 0.05);
    for (int h = 0; h < H; h++)
        b1[h] = 0.25f;
    /* W2 and b2 start at 0: no correction, the hand-made evaluation. */
    printf("train %d, validate %d, K %.4f, hidden %d\n", tr.n, va.n, K, H);
    double best = set_error(&va, K);
    printf("epoch 0: train %.6f validate %.6f\n", set_error(&tr, K), best);
    write_inc(out, K, best, tr.n); /* no correction yet: kept if no epoch does better */
    int *order = malloc((size_t)tr.n * sizeof *order);
    for (int i = 0; i < tr.n; i++)
        order[i] = i;
    int t = 0;
    float acc[2 * MAXH], a[2 * MAXH], ga[2 * MAXH];
    for (int ep = 1; ep <= epochs; ep++) {
        double rate = lr * 0.5 * (1 + cos(3.14159265358979 * (ep - 1) / epochs)); /* cosine decay */
        for (int i = tr.n - 1; i > 0; i--) {
            int j = (int)(xr() % (unsigned long long)(i + 1)), x = order[i];
            order[i] = order[j], order[j] = x;
        }
        for (int s0 = 0; s0 < tr.n; s0 += batch) {
            int s1 = s0 + batch < tr.n ? s0 + batch : tr.n;
            memset(G, 0, np * sizeof *G);
            for (int s = s0; s < s1; s++) {
                int i = order[s];
                double e = tr.hce[i] + forward(&tr, i, acc, a), p = sigm(K, e);
                /* d/d(o) of (p - y)^2, o = the network's unscaled output */
                double g = 2 * (p - tr.y[i]) * p * (1 - p) * log(10.0) * K / 400.0 * S_OUT / (s1 - s0);
                *gb2 += (float)g;
                for (int h = 0; h < 2 * H; h++) {
                    gW2[h] += (float)(g * a[h]);
                    ga[h] = (acc[h] > 0 && acc[h] < 1) ? (float)(g * W2[h]) : 0.0f;
                }
                for (int k = 0; k < 2; k++) {
                    const float *gk = ga + k * H;
                    for (int h = 0; h < H; h++)
                        gb1[h] += gk[h];
                    for (int j = 0; j < tr.nf[i][k]; j++) {
                        float *w = gW1 + (size_t)tr.f[i][k][j] * H;
                        for (int h = 0; h < H; h++)
                            w[h] += gk[h];
                    }
                }
            }
            t++;
            adam(P, G, M, V, n1, rate, wd, t); /* weight decay on the first layer only */
            adam(P + n1, G + n1, M + n1, V + n1, np - n1, rate, 0, t);
        }
        double ev = set_error(&va, K);
        printf("epoch %d: train %.6f validate %.6f%s\n", ep, set_error(&tr, K), ev, ev < best ? " *" : "");
        fflush(stdout);
        if (ev < best) {
            best = ev;
            write_inc(out, K, ev, tr.n);
        }
    }
    free(P), free(G), free(M), free(V), free(order);
    free_set(&tr), free_set(&va);
    return 0;
}
