build/core/models/models.o: core/models/models.c core/models/model.h \
 core/util/diag.h core/util/num.h core/models/models.def
core/models/model.h:
core/util/diag.h:
core/util/num.h:
core/models/models.def:
