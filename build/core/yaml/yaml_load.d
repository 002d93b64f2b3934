build/core/yaml/yaml_load.o: core/yaml/yaml_load.c core/yaml/yaml_int.h \
 core/yaml/yaml.h core/doc/doc.h core/util/arena.h core/util/diag.h \
 core/util/sbuf.h
core/yaml/yaml_int.h:
core/yaml/yaml.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
