build/core/util/argparse_value.o: core/util/argparse_value.c \
 core/util/argparse_int.h core/util/argparse.h core/util/diag.h \
 core/util/sbuf.h core/util/num.h core/util/utf8.h
core/util/argparse_int.h:
core/util/argparse.h:
core/util/diag.h:
core/util/sbuf.h:
core/util/num.h:
core/util/utf8.h:
