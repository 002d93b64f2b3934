build/core/engine/worker.o: core/engine/worker.c \
 core/engine/eng_internal.h core/engine/engine.h core/doc/doc.h \
 core/util/arena.h core/util/diag.h core/util/sbuf.h core/util/argparse.h \
 core/engine/policy.h core/yaml/yaml.h core/engine/report.h \
 core/lua/sandbox.h core/re/re.h core/schema/schema.h \
 core/util/readfile.h
core/engine/eng_internal.h:
core/engine/engine.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/util/argparse.h:
core/engine/policy.h:
core/yaml/yaml.h:
core/engine/report.h:
core/lua/sandbox.h:
core/re/re.h:
core/schema/schema.h:
core/util/readfile.h:
