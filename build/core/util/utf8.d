build/core/util/utf8.o: core/util/utf8.c core/util/utf8.h
core/util/utf8.h:
