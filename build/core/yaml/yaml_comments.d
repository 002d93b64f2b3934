build/core/yaml/yaml_comments.o: core/yaml/yaml_comments.c \
 core/yaml/yaml_int.h core/yaml/yaml.h core/doc/doc.h core/util/arena.h \
 core/util/diag.h core/util/sbuf.h core/util/utf8.h
core/yaml/yaml_int.h:
core/yaml/yaml.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/util/utf8.h:
