build/tests/unit/test_lpattern.o: tests/unit/test_lpattern.c \
 /usr/include/lua5.4/lauxlib.h /usr/include/lua5.4/luaconf.h \
 /usr/include/lua5.4/lua.h /usr/include/lua5.4/lua.h \
 /usr/include/lua5.4/lualib.h core/lua/lpattern.h
/usr/include/lua5.4/lauxlib.h:
/usr/include/lua5.4/luaconf.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/lua.h:
/usr/include/lua5.4/lualib.h:
core/lua/lpattern.h:
