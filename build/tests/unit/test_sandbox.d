build/tests/unit/test_sandbox.o: tests/unit/test_sandbox.c \
 core/lua/sandbox.h core/doc/doc.h core/util/arena.h core/util/diag.h \
 core/util/sbuf.h core/re/re.h core/schema/schema.h core/util/argparse.h \
 core/yaml/yaml.h
core/lua/sandbox.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/re/re.h:
core/schema/schema.h:
core/util/argparse.h:
core/yaml/yaml.h:
