build/core/schema/schema_validate.o: core/schema/schema_validate.c \
 core/schema/schema_int.h core/doc/doc.h core/util/arena.h \
 core/util/diag.h core/util/sbuf.h core/re/re.h core/schema/schema.h \
 core/util/utf8.h
core/schema/schema_int.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/re/re.h:
core/schema/schema.h:
core/util/utf8.h:
