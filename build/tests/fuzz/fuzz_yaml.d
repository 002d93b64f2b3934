build/tests/fuzz/fuzz_yaml.o: tests/fuzz/fuzz_yaml.c core/yaml/yaml.h \
 core/doc/doc.h core/util/arena.h core/util/diag.h core/util/sbuf.h
core/yaml/yaml.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
