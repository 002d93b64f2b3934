build/core/engine/baseline.o: core/engine/baseline.c core/engine/policy.h \
 core/doc/doc.h core/util/arena.h core/util/diag.h core/util/sbuf.h \
 core/yaml/yaml.h core/util/readfile.h
core/engine/policy.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/yaml/yaml.h:
core/util/readfile.h:
