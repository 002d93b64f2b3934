build/tests/unit/test_glob.o: tests/unit/test_glob.c core/engine/policy.h \
 core/doc/doc.h core/util/arena.h core/util/diag.h core/util/sbuf.h \
 core/yaml/yaml.h
core/engine/policy.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/yaml/yaml.h:
