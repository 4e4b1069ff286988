/* output.h - the engine's lines to standard output, one whole line at a
 * time from any thread (the search threads and the UCI thread share it). */
#ifndef HEXE_OUTPUT_H
#define HEXE_OUTPUT_H

void send_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
