build/tests/unit/test_report.o: tests/unit/test_report.c \
 core/engine/report.h core/doc/doc.h core/util/arena.h core/util/diag.h \
 core/util/sbuf.h core/lua/sandbox.h core/re/re.h core/schema/schema.h \
 core/util/argparse.h core/yaml/yaml.h core/util/crypto.h
core/engine/report.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/lua/sandbox.h:
core/re/re.h:
core/schema/schema.h:
core/util/argparse.h:
core/yaml/yaml.h:
core/util/crypto.h:
