build/core/yaml/yaml_typing.o: core/yaml/yaml_typing.c \
 core/yaml/yaml_int.h core/yaml/yaml.h core/doc/doc.h core/util/arena.h \
 core/util/diag.h core/util/sbuf.h core/util/num.h
core/yaml/yaml_int.h:
core/yaml/yaml.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/util/num.h:
