build/core/doc/doc_json.o: core/doc/doc_json.c core/doc/doc.h \
 core/util/arena.h core/util/diag.h core/util/sbuf.h core/util/utf8.h
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/util/utf8.h:
