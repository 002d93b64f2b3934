build/core/schema/schema_compile.o: core/schema/schema_compile.c \
 core/schema/schema_int.h core/doc/doc.h core/util/arena.h \
 core/util/diag.h core/util/sbuf.h core/re/re.h core/schema/schema.h
core/schema/schema_int.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/re/re.h:
core/schema/schema.h:
