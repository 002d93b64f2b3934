build/core/util/arena.o: core/util/arena.c core/util/arena.h
core/util/arena.h:
