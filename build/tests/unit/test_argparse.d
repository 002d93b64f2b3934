build/tests/unit/test_argparse.o: tests/unit/test_argparse.c \
 core/util/argparse.h core/util/diag.h core/util/sbuf.h
core/util/argparse.h:
core/util/diag.h:
core/util/sbuf.h:
