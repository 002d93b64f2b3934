build/core/util/sbuf.o: core/util/sbuf.c core/util/sbuf.h
core/util/sbuf.h:
