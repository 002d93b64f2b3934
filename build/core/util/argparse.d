build/core/util/argparse.o: core/util/argparse.c core/util/argparse.h \
 core/util/diag.h core/util/sbuf.h core/util/argparse_int.h
core/util/argparse.h:
core/util/diag.h:
core/util/sbuf.h:
core/util/argparse_int.h:
