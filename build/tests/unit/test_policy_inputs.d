build/tests/unit/test_policy_inputs.o: tests/unit/test_policy_inputs.c \
 tests/unit/policy_test.h core/engine/policy.h core/doc/doc.h \
 core/util/arena.h core/util/diag.h core/util/sbuf.h core/yaml/yaml.h
tests/unit/policy_test.h:
core/engine/policy.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/yaml/yaml.h:
