build/core/cli/main.o: core/cli/main.c core/engine/engine.h \
 core/doc/doc.h core/util/arena.h core/util/diag.h core/util/sbuf.h \
 core/util/argparse.h core/util/names.h
core/engine/engine.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/util/argparse.h:
core/util/names.h:
