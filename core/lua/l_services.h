/*
 * l_services.h: the openers of the C services of services.def, declared
 * from the same list so that a service cannot be listed without one.
 */
#ifndef INFRAGATE_LUA_L_SERVICES_H
#define INFRAGATE_LUA_L_SERVICES_H

#include <lua.h>

#define SERVICE(n) void sb_open_service_##n(lua_State *L, int engine_idx);
#include "core/lua/services.def"
#undef SERVICE

#endif
