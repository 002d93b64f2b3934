build/core/util/names.o: core/util/names.c core/util/names.h
core/util/names.h:
