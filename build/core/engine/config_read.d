build/core/engine/config_read.o: core/engine/config_read.c \
 core/engine/policy.h core/doc/doc.h core/util/arena.h core/util/diag.h \
 core/util/sbuf.h core/yaml/yaml.h
core/engine/policy.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/yaml/yaml.h:
