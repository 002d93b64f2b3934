build/core/util/num.o: core/util/num.c core/util/num.h
core/util/num.h:
