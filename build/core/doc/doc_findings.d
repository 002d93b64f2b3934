build/core/doc/doc_findings.o: core/doc/doc_findings.c core/doc/doc.h \
 core/util/arena.h core/util/diag.h core/util/sbuf.h
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
