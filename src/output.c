/* output.c - whole lines to standard output under a lock, flushed at once
 * (a GUI reads them as they come). */
#include "output.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

void send_line(const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&out_lock);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&out_lock);
}
