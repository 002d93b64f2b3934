build/core/util/diag.o: core/util/diag.c core/util/diag.h
core/util/diag.h:
