build/core/engine/glob.o: core/engine/glob.c core/engine/policy.h \
 core/doc/doc.h core/util/arena.h core/util/diag.h core/util/sbuf.h \
 core/yaml/yaml.h core/util/utf8.h
core/engine/policy.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/yaml/yaml.h:
core/util/utf8.h:
