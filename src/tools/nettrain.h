/* tools/nettrain.h - `hexe nettrain`: fits the learnt correction of the `hexe` evaluation. */
#ifndef HEXE_NETTRAIN_H
#define HEXE_NETTRAIN_H

int nettrain_main(int argc, char **argv);

#endif
