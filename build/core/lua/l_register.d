build/core/lua/l_register.o: core/lua/l_register.c core/lua/sb_internal.h \
 /usr/include/lua5.4/lauxlib.h /usr/include/lua5.4/luaconf.h \
 /usr/include/lua5.4/lua.h /usr/include/lua5.4/lua.h core/lua/lpattern.h \
 core/lua/sandbox.h core/doc/doc.h core/util/arena.h core/util/diag.h \
 core/util/sbuf.h core/re/re.h core/schema/schema.h core/util/argparse.h \
 core/yaml/yaml.h core/util/names.h core/util/num.h
core/lua/sb_internal.h:
/usr/include/lua5.4/lauxlib.h:
/usr/include/lua5.4/luaconf.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/lua.h:
core/lua/lpattern.h:
core/lua/sandbox.h:
core/doc/doc.h:
core/util/arena.h:
core/util/diag.h:
core/util/sbuf.h:
core/re/re.h:
core/schema/schema.h:
core/util/argparse.h:
core/yaml/yaml.h:
core/util/names.h:
core/util/num.h:
