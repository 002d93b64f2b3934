build/core/doc/doc.o: core/doc/doc.c core/doc/doc.h core/util/arena.h \
 core/util/diag.h core/util/sbuf.h core/util/num.h
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/util/num.h:
