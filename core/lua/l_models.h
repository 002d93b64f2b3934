/*
 * l_models.h: the Lua converters of table-input models, one per
 * MODEL_TABLE line of core/models/models.def, each defined in
 * core/lua/l_model_<name>.c. Declared from the same list, so a model can
 * not be listed without its converter.
 */
#ifndef INFRAGATE_LUA_L_MODELS_H
#define INFRAGATE_LUA_L_MODELS_H

#include <stddef.h>

#include <lua.h>

/*
 * The switch bits of a model's optional `variant` table at idx (spec/core.md
 * 11.2; 0 or nil: none): bit i is names[i]. A key that is not a string or
 * names no switch is a Lua error naming 'owner'.
 */
unsigned lm_variant_bits(lua_State *L, int idx, const char *owner,
			 const char *const *names, size_t n);

#define MODEL(n)
#define MODEL_TABLE(n) int l_model_##n(lua_State *L);
#include "core/models/models.def"
#undef MODEL
#undef MODEL_TABLE

#endif
