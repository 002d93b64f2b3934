build/core/engine/report_junit.o: core/engine/report_junit.c \
 core/engine/report_int.h core/engine/report.h core/doc/doc.h \
 core/util/arena.h core/util/diag.h core/util/sbuf.h core/lua/sandbox.h \
 core/re/re.h core/schema/schema.h core/util/argparse.h core/yaml/yaml.h \
 core/util/utf8.h
core/engine/report_int.h:
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
core/util/utf8.h:
