/*
 * lpattern.h: Lua 5.4's string.find, string.match, string.gmatch and
 * string.gsub, reimplemented so that every matcher step is charged to a
 * budget (spec/core.md 6.6). Lua's count hook never fires while C code runs,
 * so a backtracking pattern would otherwise run unbounded inside the stock
 * matcher. Results, captures and error messages are those of Lua 5.4.
 */
#ifndef INFRAGATE_CORE_LUA_LPATTERN_H
#define INFRAGATE_CORE_LUA_LPATTERN_H

#include <lua.h>

/* While a call runs, steps are charged in multiples of this many. */
#define LPATTERN_BATCH 1000

/*
 * A meter charges matcher steps to the running call's budget. 'charge' may
 * raise a Lua error (it longjmps), so the matcher must hold no resource that
 * a longjmp would leak: use luaL_Buffer / Lua-owned memory only.
 *
 * One step is one iteration of the matcher's main loop (each call, each
 * item it moves past), one single-character test, one element of a bracket
 * set scanned, one subject byte scanned by %b, one '%' item of a gsub
 * replacement string, and one per 64 bytes that memchr/memcmp go over
 * (plain finds, back-references, the pattern scan for specials, the
 * replacement string).
 *
 * 'charge' is called with a multiple of LPATTERN_BATCH whenever that many
 * steps have accumulated, with the remainder (1 to LPATTERN_BATCH - 1) when
 * a top-level call (find, match, gsub, one gmatch iteration) ends or is
 * about to raise a pattern error, and never with 0; an error from elsewhere
 * (a replacement function, out of memory) drops the remainder. It may be
 * called while a luaL_Buffer is open on the stack, so if it returns it must
 * leave the stack as it found it.
 */
struct lpattern_meter {
	void (*charge)(lua_State *L, void *ud, unsigned long steps);
	void *ud;
};

/*
 * Store find, match, gmatch and gsub, metered by 'm', into the table at
 * stack index 'idx'. 'm' must outlive the state: the functions keep the
 * pointer (in an upvalue), not a copy. The stack is left as it was. Raises
 * a Lua error only when memory runs out.
 */
void lpattern_register(lua_State *L, int idx, const struct lpattern_meter *m);

#endif
