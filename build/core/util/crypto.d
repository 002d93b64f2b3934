build/core/util/crypto.o: core/util/crypto.c core/util/crypto.h
core/util/crypto.h:
