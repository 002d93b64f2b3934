build/core/schema/schema_text.o: core/schema/schema_text.c \
 core/schema/schema_int.h core/doc/doc.h core/util/arena.h \
 core/util/diag.h core/util/sbuf.h core/re/re.h core/schema/schema.h \
 core/util/num.h core/util/utf8.h
core/schema/schema_int.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/re/re.h:
core/schema/schema.h:
core/util/num.h:
core/util/utf8.h:
