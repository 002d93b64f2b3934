build/core/re/re.o: core/re/re.c core/re/re.h core/util/diag.h \
 core/util/utf8.h
core/re/re.h:
core/util/diag.h:
core/util/utf8.h:
