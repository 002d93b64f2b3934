build/core/engine/validate.o: core/engine/validate.c \
 core/engine/eng_internal.h core/engine/engine.h core/doc/doc.h \
 core/util/arena.h core/util/diag.h core/util/sbuf.h core/util/argparse.h \
 core/engine/policy.h core/yaml/yaml.h core/engine/report.h \
 core/lua/sandbox.h core/re/re.h core/schema/schema.h \
 core/engine/options.h core/util/num.h core/util/readfile.h
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
core/engine/options.h:
core/util/num.h:
core/util/readfile.h:
