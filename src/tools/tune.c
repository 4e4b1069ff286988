/* tools/tune.c - `hexe tune`: a Texel-method tuner for the weights of the `hexe`
 * evaluator. It fits the static evaluation of quiet positions to the results
 * of the games they came from (`hexe datagen`):
 *
 *   error = mean over positions of (result - sigmoid(K * eval / 400))^2
 *
 * The evaluation is close to linear in its weights, so the tuner measures
 * each weight's coefficient in every position once (eval with the weight
 * raised by one, minus eval), fits K, and then runs Adam on that linear model.
 * The non-linear parts (king attack percentages, scale factors) are re-measured
 * by repeating the whole cycle for a few rounds. */
#include "tune.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../args.h"
#include "../eval.h"
#include "../eval/hexe.h"
#include "../fen.h"
#include "../timeman.h"

typedef struct {
    int pos;
    float c;
} Coef; /* one non-zero coefficient of one weight */

typedef struct {
    int n;
    Position *pos;
    float *result;  /* 1, 0.5, 0 for White */
    double *base;   /* eval minus the linear part, per position */
    double *eval;   /* current model eval, White's view */
} Data;

static const char usage[] =
            "usage: hexe tune --data FILE [--validate FILE] [--max N] [--rounds R] [--epochs E] [--lr X]\n"
            "                 [--min-count N] [--freeze NAME-PREFIX]... [--out FILE] [--inc FILE]\n"
            "Fits the weights of the `hexe` evaluator to the results in FILE (lines\n"
            "'<FEN> | <result>' from `hexe datagen`) and writes them to FILE (default\n"
            "hexe-tuned.txt: 'name = value' lines; `--inc FILE` writes a hexe_defaults.inc).\n"
            "A weight is tuned only when at least --min-count positions (default 500) depend on it,\n"
            "and never when its name starts with a --freeze prefix (e.g. --freeze pst_).\n"
            "--validate FILE: positions of other games, not fitted; the tuner keeps the\n"
            "weights with the lowest error on them (checked every 25 epochs): early stopping.\n";

/* The hexe evaluator with the tuner's own caches (tune_main). */
static EvalContext *ctx;

static double white_eval(const Position *pos)
{
    int s = evaluate(ctx, pos);
    return pos->side == WHITE ? s : -s;
}

static double sigmoid(double k, double e) { return 1.0 / (1.0 + pow(10.0, -k * e / 400.0)); }

static double error_of(const Data *d, double k, const double *ev)
{
    double sum = 0;
    for (int i = 0; i < d->n; i++) {
        double x = d->result[i] - sigmoid(k, ev[i]);
        sum += x * x;
    }
    return sum / d->n;
}

static double fit_k(const Data *d, const double *ev)
{
    double lo = 0.05, hi = 5.0;
    for (int it = 0; it < 60; it++) { /* golden-section search */
        double a = hi - (hi - lo) / 1.618033988, b = lo + (hi - lo) / 1.618033988;
        if (error_of(d, a, ev) < error_of(d, b, ev))
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

static int load(Data *d, const char *path, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int cap = 1 << 16;
    d->pos = malloc((size_t)cap * sizeof *d->pos);
    d->result = malloc((size_t)cap * sizeof *d->result);
    d->n = 0;
    char line[512], err[160];
    while (fgets(line, sizeof line, f) && (!max || d->n < max)) {
        char *bar = strchr(line, '|');
        if (!bar)
            continue;
        *bar = '\0';
        if (d->n == cap) {
            cap *= 2;
            d->pos = realloc(d->pos, (size_t)cap * sizeof *d->pos);
            d->result = realloc(d->result, (size_t)cap * sizeof *d->result);
        }
        Position *p = &d->pos[d->n];
        memset(p, 0, sizeof *p);
        if (!pos_set_fen(p, line, err, sizeof err))
            continue;
        d->result[d->n++] = (float)atof(bar + 1);
    }
    fclose(f);
    d->eval = malloc(((size_t)d->n + 1) * sizeof *d->eval);
    return d->n;
}

/* Makes w, rounded, the evaluator's weights. */
static void set_weights(const double *w, int np)
{
    for (int j = 0; j < np; j++)
        *hexe_param(j) = (int)lround(w[j]);
    hexe_params_changed();
}

/* The evaluation of every position with the current weights, into d->eval. */
static void eval_all(Data *d)
{
    for (int i = 0; i < d->n; i++)
        d->eval[i] = white_eval(&d->pos[i]);
}

/* Error of the current weights on a data set. */
static double current_error(Data *d, double k)
{
    eval_all(d);
    return error_of(d, k, d->eval);
}

static void free_data(Data *d)
{
    for (int i = 0; i < d->n; i++)
        pos_free(&d->pos[i]);
    free(d->pos), free(d->result), free(d->base), free(d->eval);
}

/* Measures each weight's coefficient in every position around the current weights. */
static Coef **linearize(Data *d, int np, int *ncoef)
{
    Coef **coef = calloc((size_t)np, sizeof *coef);
    eval_all(d);
    const double *e0 = d->eval;
    Coef *buf = malloc((size_t)d->n * sizeof *buf);
    int64_t t0 = now_ms();
    double evals = 0;
    for (int j = 0; j < np; j++) {
        int *w = hexe_param(j);
        (*w)++;
        hexe_params_changed();
        int k = 0;
        for (int i = 0; i < d->n; i++) {
            double c = white_eval(&d->pos[i]) - e0[i];
            if (c != 0)
                buf[k++] = (Coef){i, (float)c};
        }
        (*w)--;
        evals += d->n;
        coef[j] = malloc((size_t)(k + 1) * sizeof **coef);
        memcpy(coef[j], buf, (size_t)k * sizeof *buf);
        coef[j][k].pos = -1;
        ncoef[j] = k;
        if (j % 32 == 31 || j == np - 1) {
            double s = (now_ms() - t0) / 1000.0;
            fprintf(stderr, "\rmeasuring weight %d/%d  %.0f positions/s   ", j + 1, np, s > 0 ? evals / s : 0);
        }
    }
    hexe_params_changed();
    fprintf(stderr, "\n");
    /* base = eval - sum(c * w): the part the linear model holds fixed. */
    memcpy(d->base, e0, (size_t)d->n * sizeof *d->base);
    for (int j = 0; j < np; j++)
        for (Coef *c = coef[j]; c->pos >= 0; c++)
            d->base[c->pos] -= c->c * *hexe_param(j);
    free(buf);
    return coef;
}

/* Every 25 epochs with validation data: the rounded weights w are scored on
 * it and remembered in best when they are the best so far (early stopping). */
static double check_validation(Data *hold, double k, const double *w, int np, double *best, double *best_err)
{
    set_weights(w, np);
    double err = current_error(hold, k);
    if (err < *best_err) {
        *best_err = err;
        memcpy(best, w, (size_t)np * sizeof *best);
    }
    return err;
}

static void model_eval(Data *d, Coef **coef, int np, const double *w)
{
    memcpy(d->eval, d->base, (size_t)d->n * sizeof *d->eval);
    for (int j = 0; j < np; j++)
        for (Coef *c = coef[j]; c->pos >= 0; c++)
            d->eval[c->pos] += c->c * w[j];
}

int tune_main(int argc, char **argv)
{
    const char *data = NULL, *validate = NULL, *out = "hexe-tuned.txt", *inc = NULL;
    int max = 0, rounds = 3, epochs = 300, min_count = 500;
    double lr = 1.0;
    const char *freeze[16];
    ArgList frozen_names = {freeze, 16, 0};
    const ArgSpec specs[] = {
        ARG_SPEC_STRING("--data", &data),
        ARG_SPEC_STRING("--validate", &validate),
        ARG_SPEC_INT("--max", &max, 0, INT_MAX),
        ARG_SPEC_INT("--rounds", &rounds, 1, 1000),
        ARG_SPEC_INT("--epochs", &epochs, 1, 1e6),
        ARG_SPEC_DOUBLE("--lr", &lr, 1e-12, 1e6),
        ARG_SPEC_INT("--min-count", &min_count, 0, INT_MAX),
        ARG_SPEC_LIST("--freeze", &frozen_names),
        ARG_SPEC_STRING("--out", &out),
        ARG_SPEC_STRING("--inc", &inc),
    };
    ArgsResult parsed = args_parse("tune", argc, argv, specs, ARG_SPECS(specs));
    if (parsed == ARGS_OK && !data)
        parsed = args_error("tune", "no --data file");
    if (parsed != ARGS_OK)
        return args_finish(parsed, usage);
    int nfreeze = frozen_names.count;
    ctx = eval_context_new();
    if (!ctx || !eval_choose(&ctx->use, "hexe")) {
        fprintf(stderr, "tune: %s\n", ctx ? "the hexe evaluator is missing" : "out of memory");
        eval_context_free(ctx);
        return 1;
    }
    Data d = {0}, hold = {0};
    if (load(&d, data, max) <= 0) {
        fprintf(stderr, "tune: no positions read from %s\n", data);
        eval_context_free(ctx);
        return 1;
    }
    if (validate && load(&hold, validate, 0) <= 0) {
        fprintf(stderr, "tune: no positions read from %s\n", validate);
        free_data(&d);
        eval_context_free(ctx);
        return 1;
    }
    d.base = malloc((size_t)d.n * sizeof *d.base);
    double *de = malloc((size_t)d.n * sizeof *de); /* d(error)/d(eval) per position */
    int np = hexe_param_count();
    fprintf(stderr, "%d positions, %d weights\n", d.n, np);

    double *w = malloc((size_t)np * sizeof *w), *m = calloc((size_t)np, sizeof *m), *v = calloc((size_t)np, sizeof *v);
    double *g = malloc((size_t)np * sizeof *g);
    int *ncoef = malloc((size_t)np * sizeof *ncoef);
    /* The pawn's material value anchors the scale: it is never tuned. */
    bool *frozen = calloc((size_t)np, sizeof *frozen);
    for (int j = 0; j < np; j++) {
        frozen[j] = !strncmp(hexe_param_name(j), "material pawn", 13);
        for (int f = 0; f < nfreeze; f++)
            if (!strncmp(hexe_param_name(j), freeze[f], strlen(freeze[f])))
                frozen[j] = true;
    }

    eval_all(&d);
    double k = fit_k(&d, d.eval);
    fprintf(stderr, "K = %.4f, starting error %.6f\n", k, error_of(&d, k, d.eval));
    /* With validation data the tuner stops early: it keeps the weights with the
     * lowest validation error seen (checked every 25 epochs). */
    double best_err = hold.n ? current_error(&hold, k) : 0;
    double *best = malloc((size_t)np * sizeof *best);
    for (int j = 0; j < np; j++)
        best[j] = *hexe_param(j);
    if (hold.n)
        fprintf(stderr, "validation: %d positions, starting error %.6f\n", hold.n, best_err);

    for (int r = 0; r < rounds; r++) {
        Coef **coef = linearize(&d, np, ncoef);
        for (int j = 0; j < np; j++)
            w[j] = *hexe_param(j);
        /* A fresh Adam state each round: the weights may have gone back to the best ones. */
        memset(m, 0, (size_t)np * sizeof *m);
        memset(v, 0, (size_t)np * sizeof *v);
        int step = 0;
        int64_t t0 = now_ms();
        for (int e = 0; e < epochs; e++) {
            model_eval(&d, coef, np, w);
            /* d(error)/d(eval_i) = -2 (r - s) s (1 - s) ln(10) K / 400 / n */
            double scale = log(10.0) * k / 400.0 * 2.0 / d.n;
            for (int i = 0; i < d.n; i++) {
                double s = sigmoid(k, d.eval[i]);
                de[i] = -(d.result[i] - s) * s * (1 - s) * scale;
            }
            step++;
            for (int j = 0; j < np; j++) {
                double sum = 0;
                for (Coef *c = coef[j]; c->pos >= 0; c++)
                    sum += de[c->pos] * c->c;
                g[j] = sum;
                if (frozen[j] || ncoef[j] < min_count)
                    continue; /* the pawn anchor, and weights the data hardly sees */
                m[j] = 0.9 * m[j] + 0.1 * g[j];
                v[j] = 0.999 * v[j] + 0.001 * g[j] * g[j];
                double mh = m[j] / (1 - pow(0.9, step)), vh = v[j] / (1 - pow(0.999, step));
                w[j] -= lr * mh / (sqrt(vh) + 1e-12);
            }
            if (e % 25 == 0 || e == epochs - 1) {
                double s = (now_ms() - t0) / 1000.0;
                fprintf(stderr, "\rround %d/%d epoch %d/%d  error %.6f  %.0f positions/s", r + 1, rounds, e + 1,
                        epochs, error_of(&d, k, d.eval), s > 0 ? (double)d.n * (e + 1) / s : 0);
                if (hold.n) {
                    double ve = check_validation(&hold, k, w, np, best, &best_err);
                    fprintf(stderr, "  validation %.6f (best %.6f)", ve, best_err);
                }
                fprintf(stderr, "   ");
            }
        }
        fprintf(stderr, "\n");
        for (int j = 0; j < np; j++)
            free(coef[j]);
        free(coef);
        set_weights(w, np);
        fprintf(stderr, "round %d: true error with rounded weights %.6f\n", r + 1, current_error(&d, k));
        if (hold.n) {
            fprintf(stderr, "round %d: validation error %.6f, keeping the best weights so far (%.6f)\n", r + 1,
                    current_error(&hold, k), best_err);
            set_weights(best, np);
        }
    }

    FILE *f = fopen(out, "w");
    if (f) {
        hexe_params_write(f);
        fclose(f);
        fprintf(stderr, "weights written to %s\n", out);
    }
    if (inc) {
        FILE *fi = fopen(inc, "w");
        if (fi) {
            hexe_params_write_inc(fi);
            fclose(fi);
            fprintf(stderr, "initializer written to %s\n", inc);
        }
    }
    free_data(&d);
    free_data(&hold);
    free(de), free(best), free(w), free(m), free(v), free(g), free(ncoef), free(frozen);
    eval_context_free(ctx);
    return 0;
}
