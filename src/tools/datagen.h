/* tools/datagen.h - self-play data for the tuner. */
#ifndef HEXE_DATAGEN_H
#define HEXE_DATAGEN_H

int datagen_main(int argc, char **argv);

#endif
