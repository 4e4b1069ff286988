/* startup.h - the engine's resources, the same for every subcommand (the UCI
 * loop, bench, play, datagen, train, tune): lookup tables, the evaluation,
 * a 16 MB hash, the first search thread, the tablebases shipped beside the
 * executable and the default opening book. */
#ifndef HEXE_STARTUP_H
#define HEXE_STARTUP_H

void hexe_start(void);
void hexe_stop(void); /* stops any search and frees them */

#endif
