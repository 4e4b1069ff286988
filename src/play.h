/* play.h - console play against Hexe: `hexe play [options]`. */
#ifndef HEXE_PLAY_H
#define HEXE_PLAY_H

/* Runs console games until the person quits; argv[0] is "play". Returns the
 * process exit status: 0, or 2 for bad options. */
int play_main(int argc, char **argv);

#endif
