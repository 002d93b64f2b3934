build/tests/unit/test_util.o: tests/unit/test_util.c core/util/arena.h \
 core/util/crypto.h core/util/diag.h core/util/names.h core/util/num.h \
 core/util/readfile.h core/util/sbuf.h core/util/utf8.h
core/util/arena.h:
core/util/crypto.h:
core/util/diag.h:
core/util/names.h:
core/util/num.h:
core/util/readfile.h:
core/util/sbuf.h:
core/util/utf8.h:
