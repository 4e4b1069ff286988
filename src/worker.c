/* worker.c - the search threads and their pool. */
#include "worker.h"

#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "output.h"

SearchState search_state = {.depth_finisher = -1};
Thread **threads;
int nthreads;

uint64_t total_nodes(void)
{
    uint64_t n = 0;
    for (int i = 0; i < nthreads; i++)
        n += atomic_load_explicit(&threads[i]->nodes, memory_order_relaxed);
    return n;
}

uint64_t total_tbhits(void)
{
    uint64_t n = 0;
    for (int i = 0; i < nthreads; i++)
        n += atomic_load_explicit(&threads[i]->tbhits, memory_order_relaxed);
    return n;
}

/* The helper threads live in a pool: created when the thread count
 * changes, parked between searches. A search wakes them once the main
 * thread has completed depth 1 (or at its end, to find the stop at once).
 * Created one by one at every go while the others already searched, they
 * starved the main thread on few cores: with Threads 256 on 2 cores a
 * movetime of 200 ms took 19-51 s, most of it in pthread_create. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_wake = PTHREAD_COND_INITIALIZER; /* a new search, or quit */
static pthread_cond_t pool_idle = PTHREAD_COND_INITIALIZER; /* the last helper is done */
static unsigned pool_generation; /* counts the searches the helpers were woken for */
static bool pool_quit, pool_released;
static int pool_busy; /* helpers still searching */
static void (*pool_work)(Thread *);

void pool_init(void (*work)(Thread *)) { pool_work = work; }

void pool_release(void)
{
    pthread_mutex_lock(&pool_lock);
    if (!pool_released) {
        pool_released = true;
        pool_busy = 0;
        for (int i = 1; i < nthreads; i++)
            pool_busy += threads[i]->started;
        pool_generation++;
        pthread_cond_broadcast(&pool_wake);
    }
    pthread_mutex_unlock(&pool_lock);
}

void pool_wait(void)
{
    pthread_mutex_lock(&pool_lock);
    while (pool_busy > 0)
        pthread_cond_wait(&pool_idle, &pool_lock);
    pool_released = false;
    pthread_mutex_unlock(&pool_lock);
}

static void *helper_main(void *arg)
{
    Thread *t = arg;
    pthread_mutex_lock(&pool_lock);
    for (;;) {
        while (!pool_quit && pool_generation == t->generation)
            pthread_cond_wait(&pool_wake, &pool_lock);
        if (pool_quit)
            break;
        t->generation = pool_generation;
        pthread_mutex_unlock(&pool_lock);
        if (!search_stopped())
            pool_work(t);
        pthread_mutex_lock(&pool_lock);
        if (--pool_busy == 0)
            pthread_cond_broadcast(&pool_idle);
    }
    pthread_mutex_unlock(&pool_lock);
    return NULL;
}

/* Ends every helper thread (they are parked: no search runs). */
static void stop_helpers(void)
{
    pthread_mutex_lock(&pool_lock);
    pool_quit = true;
    pthread_cond_broadcast(&pool_wake);
    pthread_mutex_unlock(&pool_lock);
    for (int i = 1; i < nthreads; i++)
        if (threads[i]->started) {
            pthread_join(threads[i]->handle, NULL);
            threads[i]->started = false;
        }
    pool_quit = false;
}

static void thread_free(Thread *t)
{
    pos_free(&t->pos);
    eval_context_free(t->eval);
    free(t);
}

/* Freed memory stays with the C library's allocator, which hands little of
 * it back by itself: after Threads 256 and back to 1 the process kept over
 * 700 MB. It goes back to the system at once. */
static void give_back_memory(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/* Each thread holds about 3 MB of histories and caches. When memory runs out
 * the search goes on with the threads it has and says so; only the first
 * thread is needed. */
void pool_resize(int n)
{
    if (n == nthreads)
        return;
    stop_helpers();
    for (int i = n; i < nthreads; i++)
        thread_free(threads[i]);
    if (n < nthreads)
        nthreads = n;
    Thread **nt = realloc(threads, (size_t)n * sizeof *nt); /* a failed shrink keeps the old block */
    if (nt)
        threads = nt;
    while (nt && nthreads < n) {
        Thread *t = calloc(1, sizeof *t);
        /* Room for a long game's history now, so that pos_copy need not
         * allocate when the search starts. */
        if (t && (!pos_reserve(&t->pos, 1024) || !(t->eval = eval_context_new()))) {
            thread_free(t);
            t = NULL;
        }
        if (!t)
            break;
        t->id = nthreads;
        threads[nthreads++] = t;
    }
    if (nthreads == 0)
        abort(); /* not even the main thread: nothing can search */
    if (nthreads < n)
        send_line("info string only %d of %d threads: out of memory", nthreads, n);
    give_back_memory();
    int failed = 0;
    for (int i = 1; i < nthreads; i++) {
        threads[i]->generation = pool_generation;
        threads[i]->started = pthread_create(&threads[i]->handle, NULL, helper_main, threads[i]) == 0;
        failed += !threads[i]->started;
    }
    if (failed)
        send_line("info string %d of %d helper threads could not start: searching without them", failed,
                  nthreads - 1);
}

void pool_free(void)
{
    stop_helpers();
    for (int i = 0; i < nthreads; i++)
        thread_free(threads[i]);
    free(threads);
    threads = NULL;
    nthreads = 0;
}
