build/core/util/argparse_help.o: core/util/argparse_help.c \
 core/util/argparse_int.h core/util/argparse.h core/util/diag.h \
 core/util/sbuf.h
core/util/argparse_int.h:
core/util/argparse.h:
core/util/diag.h:
core/util/sbuf.h:
