build/core/util/readfile.o: core/util/readfile.c core/util/readfile.h \
 core/util/diag.h
core/util/readfile.h:
core/util/diag.h:
