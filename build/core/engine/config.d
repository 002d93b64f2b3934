build/core/engine/config.o: core/engine/config.c core/engine/policy.h \
 core/doc/doc.h core/util/arena.h core/util/diag.h core/util/sbuf.h \
 core/yaml/yaml.h core/re/re.h core/schema/schema.h core/util/readfile.h
core/engine/policy.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/yaml/yaml.h:
core/re/re.h:
core/schema/schema.h:
core/util/readfile.h:
