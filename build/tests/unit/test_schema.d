build/tests/unit/test_schema.o: tests/unit/test_schema.c \
 core/schema/schema.h core/doc/doc.h core/util/arena.h core/util/diag.h \
 core/util/sbuf.h core/re/re.h core/yaml/yaml.h
core/schema/schema.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/re/re.h:
core/yaml/yaml.h:
