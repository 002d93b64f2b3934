/*
 * test_lpattern.c: the metered pattern functions of core/lua/lpattern.c
 * against the stock string library as the oracle. A table of cases (every
 * pattern feature, every init and replacement form, every error message),
 * a seeded random sweep, then the meter: batches, remainders, the
 * backtracking pattern of spec/core.md 6.8 ending as a budget error, and no
 * leak when the meter's error longjmps out of the matcher.
 */
#include <criterion/criterion.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <string.h>

#include "core/lua/lpattern.h"

#if defined(__SANITIZE_ADDRESS__)
#define TEST_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_LSAN 1
#endif
#endif
#ifdef TEST_LSAN
#include <sanitizer/lsan_interface.h>
#endif

#define BUDGET_MSG  "pattern budget exceeded"
#define MAX_CHARGES 4096

/* A meter with a limit, recording what it was charged. */
struct budget {
	unsigned long limit; /* raise once 'spent' passes it */
	unsigned long spent;
	unsigned long calls;
	unsigned long zero; /* charges of 0 steps: never expected */
	unsigned long charges[MAX_CHARGES]; /* the first ones */
};

struct fixture {
	lua_State *L;
	struct budget b;
	struct lpattern_meter m;
};

static void budget_charge(lua_State *L, void *ud, unsigned long steps)
{
	struct budget *b = ud;

	if (b->calls < MAX_CHARGES)
		b->charges[b->calls] = steps;
	b->calls++;
	if (steps == 0)
		b->zero++;
	b->spent += steps;
	if (b->spent > b->limit)
		luaL_error(L, BUDGET_MSG);
}

static void budget_reset(struct budget *b, unsigned long limit)
{
	memset(b, 0, sizeof *b);
	b->limit = limit;
}

/* A fresh state with the stock libraries and our functions in global P. */
static void fixture_init(struct fixture *f, unsigned long limit)
{
	int top;

	budget_reset(&f->b, limit);
	f->m.charge = budget_charge;
	f->m.ud = &f->b;
	f->L = luaL_newstate();
	cr_assert(f->L != NULL);
	luaL_openlibs(f->L);
	lua_newtable(f->L);
	top = lua_gettop(f->L);
	lpattern_register(f->L, -1, &f->m);
	cr_assert_eq(lua_gettop(f->L), top, "register must balance the stack");
	lua_setglobal(f->L, "P");
}

static void fixture_release(struct fixture *f)
{
	lua_close(f->L);
	f->L = NULL;
#ifdef TEST_LSAN
	cr_assert_eq(__lsan_do_recoverable_leak_check(), 0, "leak reported");
#endif
}

/* Run 'code' as chunk 'name'; fail the test with the Lua error, if any. */
static void run_lua(lua_State *L, const char *name, const char *code)
{
	if (luaL_loadbufferx(L, code, strlen(code), name, "t") != LUA_OK ||
	    lua_pcall(L, 0, 0, 0) != LUA_OK)
		cr_assert_fail("%s: %s", name, lua_tostring(L, -1));
}

static lua_Integer global_int(lua_State *L, const char *name)
{
	lua_Integer v;

	lua_getglobal(L, name);
	v = lua_tointeger(L, -1);
	lua_pop(L, 1);
	return v;
}

/*
 * The oracle: check(name, ...) calls string[name] and P[name] with the
 * same arguments from the same Lua code (so argument errors name the same
 * function) and compares every result, or the error message.
 */
static const char prelude_lua[] =
	"local S, P = string, P\n"
	"local fmt = string.format\n"
	"local NONE = {}\n"
	"\n"
	"local function show(v)\n"
	"  if type(v) == 'string' then\n"
	"    return (fmt('%q', v):gsub('\\n', 'n'))\n"
	"  end\n"
	"  if type(v) == 'table' then return '<table>' end\n"
	"  if type(v) == 'function' then return '<function>' end\n"
	"  return tostring(v)\n"
	"end\n"
	"\n"
	"local function describe(name, t)\n"
	"  local parts = {}\n"
	"  for i = 1, t.n do parts[i] = show(t[i]) end\n"
	"  return name .. '(' .. table.concat(parts, ', ') .. ')'\n"
	"end\n"
	"\n"
	"local function invoke(fn, ...)\n"
	"  return table.pack(fn(...))\n"
	"end\n"
	"\n"
	"local function gmatch_all(fn, ...)\n"
	"  local it = fn(...)\n"
	"  local out = { n = 0 }\n"
	"  for _ = 1, 10000 do\n"
	"    local r = table.pack(it())\n"
	"    if r[1] == nil then break end\n"
	"    out[out.n + 1] = r.n\n"
	"    for i = 1, r.n do out[out.n + 1 + i] = r[i] end\n"
	"    out.n = out.n + 1 + r.n\n"
	"  end\n"
	"  return table.unpack(out, 1, out.n)\n"
	"end\n"
	"\n"
	"local function run(fn, args)\n"
	"  local ok, r = pcall(invoke, fn, table.unpack(args, 1, args.n))\n"
	"  if ok then return r end\n"
	"  return { n = -1, err = r }\n"
	"end\n"
	"\n"
	"local function same(a, b)\n"
	"  if a.n ~= b.n then return false end\n"
	"  if a.n == -1 then\n"
	"    return a.err == b.err or\n"
	"      (type(a.err) ~= 'string' and type(a.err) == type(b.err))\n"
	"  end\n"
	"  for i = 1, a.n do\n"
	"    local x, y = a[i], b[i]\n"
	"    if x ~= y or math.type(x) ~= math.type(y) then return false end\n"
	"  end\n"
	"  return true\n"
	"end\n"
	"\n"
	"local function dump(r)\n"
	"  if r.n == -1 then return 'error ' .. show(r.err) end\n"
	"  local parts = {}\n"
	"  for i = 1, r.n do parts[i] = show(r[i]) end\n"
	"  return '{' .. table.concat(parts, ', ') .. '}'\n"
	"end\n"
	"\n"
	"local stock = { find = S.find, match = S.match, gsub = S.gsub,\n"
	"  gmatch = function(...) return gmatch_all(S.gmatch, ...) end }\n"
	"local ours = { find = P.find, match = P.match, gsub = P.gsub,\n"
	"  gmatch = function(...) return gmatch_all(P.gmatch, ...) end }\n"
	"\n"
	"ncases, nerrors, errors_seen = 0, 0, {}\n"
	"\n"
	"-- Compare stock and ours on one call; an argument NONE ends the\n"
	"-- list, so that absent and nil arguments both get tested.\n"
	"function check(name, ...)\n"
	"  local args = table.pack(...)\n"
	"  for i = 1, args.n do\n"
	"    if args[i] == NONE then args.n = i - 1 break end\n"
	"  end\n"
	"  local want = run(stock[name], args)\n"
	"  local got = run(ours[name], args)\n"
	"  ncases = ncases + 1\n"
	"  if want.n == -1 then\n"
	"    nerrors = nerrors + 1\n"
	"    errors_seen[tostring(want.err)] = true\n"
	"  end\n"
	"  if not same(want, got) then\n"
	"    error(fmt('case %d: %s: stock %s, ours %s', ncases,\n"
	"      describe(name, args), dump(want), dump(got)), 0)\n"
	"  end\n"
	"end\n"
	"\n"
	"NONE_ = NONE\n";

/* Patterns x subjects x inits, for find (pattern and plain), match, gmatch
 * and gsub with every replacement form. */
static const char cases_lua[] =
	"local NONE = NONE_\n"
	"\n"
	"local patterns = {\n"
	"  -- literals, plain finds, characters special only somewhere\n"
	"  '', 'a', 'abc', 'b', 'xyz', 'l', 'o w', ']', ')', '}', 'a.c',\n"
	"  '\\0', 'a\\0b', 'x\\0', '\\200', '\\0y',\n"
	"  -- anchors\n"
	"  '^', '$', '^$', '^a', 'a$', '^abc$', 'c$', '$a', 'a$b', '^^',\n"
	"  '^^a', 'a^', '^$$', '%^', '%$', '^%s*', '%s*$', '^(%w+)',\n"
	"  '(%w+)$',\n"
	"  -- single classes\n"
	"  '.', '..', '%a', '%a+', '%A+', '%d+', '%D', '%s', '%S+', '%w*',\n"
	"  '%W', '%x+', '%X', '%p', '%P+', '%c', '%C', '%l+', '%L', '%u+',\n"
	"  '%U', '%g+', '%G', '%z', '%Z+', '%%', '%.', '%]', '%(', '%-',\n"
	"  '%q', '%\\0', '%\\200',\n"
	"  -- sets\n"
	"  '[abc]', '[^abc]+', '[a-c]+', '[%a_][%w_]*', '[]]', '[^]]+',\n"
	"  '[a-]', '[-a]+', '[%]]', '[%-]', '[a%-z]+', '[z-a]', '[^%s]+',\n"
	"  '[%d%.]+', '[.]', '[%a-z]', '[a-%%]', '[]a]', '[^]a]', '[%z]',\n"
	"  '[\\0]', '[\\128-\\255]+', '[^\\0-\\127]', '[%^]', '[x^]', '[^^]',\n"
	"  '[--/]+', '[a-b-c]+', '[%w%s]+',\n"
	"  -- quantifiers\n"
	"  'a*', 'a+', 'a-', 'a?', '.-b', '.*b', 'a*b', 'a-b', '.-', '.*',\n"
	"  'a?b?c?', 'x*', 'x-', 'x+', 'x?', '[ab]*', '%d*', '%s-$', '^.-$',\n"
	"  'a.-a', 'l+o', '.+.', '%w+%s+%w+', '*', '+', '-', '?', 'a**',\n"
	"  'a+?', 'a-*', '?a', '.?.?',\n"
	"  -- captures\n"
	"  '(a)', '(a)(b)', '((a)(b))', '()', '()a()', '(a*(.)%w(%s*))',\n"
	"  '(h)(e)(l)(l)(o)', '(.)%1', '(%a+) %1', '()(a)%2', '(a)%0', '%1',\n"
	"  '(a%1)', '(()a)%1', '(a', 'a)', '((a)', ')', '(()', '(.-)%s',\n"
	"  '(.-)$', '()$', '^()', '(%w+)=(%w+)', '(l)(l)', '(.)(.)%2%1',\n"
	"  '((.)%2)', '(x?)', '(x*)', '(x-)()', '(a)()(b)',\n"
	"  -- %b and %f\n"
	"  '%b()', '%b{}', \"%b''\", '%bxy', '%b', '%b(', '%bab', '%b))',\n"
	"  '%b()%b()', '(%b())', '[%b]', '%f[%w]%w+', '%f[%W]', '%f[%a]',\n"
	"  '%f[%z]', '%f[^%z]', '%f[%l]', '%f[a]', '%fx', '%f', '%f[a',\n"
	"  '%f[^\\0]', '%f[%s]', '%f[%S].', '%f[]]',\n"
	"  -- malformed\n"
	"  '%', 'a%', '[a', '[', '[^', '[%', '[a%', '(%', '[%]', '(a%)',\n"
	"  '%g%',\n"
	"}\n"
	"\n"
	"local subjects = {\n"
	"  '', 'a', 'aaa', 'abc', 'hello world', '  x = 10, y = 20  ',\n"
	"  'f(a(b)c)d', '{x}{y}', 'THE (quick) fox', 'a.b-c%d', 'x\\0y\\0',\n"
	"  'aAbB12__', '\\200\\201abc', '[]]^-$', \"'q' 'r'\", 'abab',\n"
	"  'one two  three', 'xy',\n"
	"  'ab)c(', 12.5,\n"
	"}\n"
	"\n"
	"local inits = { NONE, 1, 2, 0, -1, -3, -100, 4, 12, math.maxinteger,\n"
	"  math.mininteger }\n"
	"\n"
	"for _, p in ipairs(patterns) do\n"
	"  for _, s in ipairs(subjects) do\n"
	"    for _, i in ipairs(inits) do\n"
	"      check('find', s, p, i)\n"
	"      check('match', s, p, i)\n"
	"      check('gmatch', s, p, i)\n"
	"    end\n"
	"    check('find', s, p, 1, true)\n"
	"    check('find', s, p, -2, 'yes')\n"
	"    check('find', s, p, 1, false)\n"
	"    check('find', s, p, NONE, NONE)\n"
	"  end\n"
	"end\n"
	"\n"
	"local function cat(...)\n"
	"  local t = table.pack(...)\n"
	"  for i = 1, t.n do t[i] = tostring(t[i]) end\n"
	"  return table.concat(t, '|')\n"
	"end\n"
	"local repls = {\n"
	"  '', 'x', '%0', '%1', '<%1>', '%2%1', '%%', '%', 'a%', '%x',\n"
	"  '[%0]', '%9',\n"
	"  '%1%1%0', '%%1', 5, 2.5, -0.0,\n"
	"  { a = 'A', b = false, l = 'L', hello = 'HI', [' '] = 1, x = 2.0,\n"
	"    o = {},\n"
	"    [1] = 'one', [3] = 'three', ['('] = true },\n"
	"  {},\n"
	"  cat,\n"
	"  function() return nil end,\n"
	"  function() return false end,\n"
	"  function(x) return x end,\n"
	"  function() return 42 end,\n"
	"  function() return {} end,\n"
	"  function() return true end,\n"
	"  function(...) return select('#', ...) end,\n"
	"}\n"
	"for _, p in ipairs(patterns) do\n"
	"  for _, s in ipairs(subjects) do\n"
	"    for _, r in ipairs(repls) do\n"
	"      check('gsub', s, p, r)\n"
	"    end\n"
	"    for _, m in ipairs({ 0, 1, 2, -1, 1.0, math.maxinteger }) do\n"
	"      check('gsub', s, p, '<%0>', m)\n"
	"    end\n"
	"  end\n"
	"end\n";

/* Argument errors, boundaries, recursion and capture limits, long text. */
static const char special_lua[] =
	"local NONE = NONE_\n"
	"local rep = string.rep\n"
	"\n"
	"-- argument errors: names come from the calling code, so they match\n"
	"for _, name in ipairs({ 'find', 'match', 'gmatch', 'gsub' }) do\n"
	"  check(name)\n"
	"  check(name, 'abc')\n"
	"  check(name, {}, 'a')\n"
	"  check(name, 'abc', {})\n"
	"  check(name, 'abc', nil)\n"
	"  check(name, 123, 2)\n"
	"  check(name, 123, 2.0)\n"
	"  check(name, 'abc', 'b', 1.5)\n"
	"  check(name, 'abc', 'b', 'x')\n"
	"  check(name, 'abc', 'b', '2')\n"
	"  check(name, 'abc', 'b', '0x2')\n"
	"  check(name, 'abc', 'b', 2.0)\n"
	"  check(name, 'abc', 'b', {})\n"
	"  check(name, 'abc', 'b', true)\n"
	"end\n"
	"check('gsub', 'abc', 'b', NONE)\n"
	"check('gsub', 'abc', 'b', nil)\n"
	"check('gsub', 'abc', 'b', true)\n"
	"check('gsub', 'abc', 'b', 'x', 'y')\n"
	"check('gsub', 'abc', 'b', {}, 1.5)\n"
	"check('gsub', 'abc', 'b', true, 'y')\n"
	"check('gsub', 'abc', 'b', 'x', '1')\n"
	"check('gsub', 123, '9', 'x')\n"
	"check('gsub', 123, '2', 'x')\n"
	"check('gsub', 123, '2', 7)\n"
	"check('gsub', 'abc', 'b', function() error('boom') end)\n"
	"check('gsub', 'abc', 'b', function() error({}) end)\n"
	"check('gsub', 'abc', 'b', setmetatable({}, {\n"
	"  __index = function(_, k) return k:upper() end }))\n"
	"check('gsub', 'abc', '(b)', setmetatable({}, { __index = function()\n"
	"  error('no') end }))\n"
	"check('gsub', 'abc', '%w', setmetatable({}, {\n"
	"  __index = function(_, k)\n"
	"    if k == 'b' then return setmetatable({}, {}) end\n"
	"  end }))\n"
	"check('find', 'a+b', '+', 1, true)\n"
	"check('find', 'a+b', 'a+', 1, true)\n"
	"check('find', 'a.b', '.', 1, 1)\n"
	"check('find', 'abc', '', 4)\n"
	"check('find', 'abc', '', 5)\n"
	"check('find', 'abc', '', -1)\n"
	"check('find', '', '', 1)\n"
	"check('find', '', '', 2)\n"
	"check('match', 'abc', '', 4)\n"
	"check('match', 'abc', '()', 4)\n"
	"check('match', 'abc', '()', 5)\n"
	"check('gmatch', 'abc', '', 4)\n"
	"check('gmatch', 'abc', '', 5)\n"
	"check('gmatch', 'abc', '()', -1)\n"
	"check('gsub', 'abc', '', '-')\n"
	"check('gsub', 'abc', '.-', '-')\n"
	"check('gsub', 'abc', 'x*', '-')\n"
	"check('gsub', 'hello world', '(o)', '%1%1', 1)\n"
	"check('gsub', 'hello', '', '%0', 3)\n"
	"check('gsub', 'abc', '^', '>')\n"
	"check('gsub', 'abc', '$', '<')\n"
	"check('gsub', 'abc', '^a*', '>')\n"
	"check('gsub', 'aaa', '^a', '>')\n"
	"\n"
	"-- recursion depth: MAXCCALLS of 200\n"
	"local as = rep('a', 300)\n"
	"for k = 195, 205 do\n"
	"  check('find', as, rep('a?', k))\n"
	"  check('find', as, rep('a*', k))\n"
	"  check('find', as, rep('a-', k) .. '$')\n"
	"  check('match', as, rep('(a)', 30) .. rep('a?', k - 30))\n"
	"  check('gsub', as, rep('a?', k), '')\n"
	"  check('gmatch', as, rep('a?', k))\n"
	"  check('find', as, rep('a', k))\n"
	"  check('find', as, rep('.', k) .. '(')\n"
	"end\n"
	"-- captures: LUA_MAXCAPTURES of 32\n"
	"for k = 30, 34 do\n"
	"  check('find', as, rep('()', k))\n"
	"  check('match', as, rep('(a)', k))\n"
	"  check('gsub', as, rep('(a)', k), '%9')\n"
	"  check('gsub', as, rep('(a)', k),\n"
	"    function(...) return select('#', ...) end)\n"
	"  check('gmatch', as, rep('(.)', k))\n"
	"  check('match', as, rep('(', k) .. 'a' .. rep(')', k))\n"
	"end\n"
	"-- long subjects and back-references\n"
	"local long = rep('ab', 2000) .. 'c' .. rep('ab', 2000)\n"
	"check('find', long, 'c')\n"
	"check('find', long, 'bc', 1, true)\n"
	"check('find', long, rep('ab', 1999) .. 'abc', 1, true)\n"
	"check('find', long, '(.-)c%1')\n"
	"check('find', long, '(.*)c%1$')\n"
	"check('gsub', long, 'a', '%%')\n"
	"check('gsub', long, '(a)(b)', '%2%1')\n"
	"check('gsub', long, 'b', { b = 'B' })\n"
	"check('gmatch', long, '%f[a]ab')\n"
	"check('match', long, '%b()')\n"
	"check('match', '(' .. rep('(x)', 500) .. ')', '%b()')\n"
	"check('match', rep('(', 500) .. rep(')', 499), '%b()')\n"
	"check('match', 'x' .. rep('.', 300), '^(x)(.*)$')\n";

/* Every error message of the stock matcher was raised by some case. */
static const char coverage_lua[] =
	"local want = {\n"
	"  \"malformed pattern (ends with '%')\",\n"
	"  \"malformed pattern (missing ']')\",\n"
	"  \"malformed pattern (missing arguments to '%b')\",\n"
	"  \"missing '[' after '%f' in pattern\",\n"
	"  'invalid capture index %0', 'invalid capture index %2',\n"
	"  'invalid pattern capture', 'unfinished capture',\n"
	"  'pattern too complex', 'too many captures',\n"
	"  'invalid replacement value (a table)',\n"
	"  'invalid replacement value (a boolean)',\n"
	"  \"invalid use of '%' in replacement string\",\n"
	"  'number has no integer representation',\n"
	"  'string/function/table expected, got boolean',\n"
	"}\n"
	"for _, w in ipairs(want) do\n"
	"  local found = false\n"
	"  for e in pairs(errors_seen) do\n"
	"    if e:find(w, 1, true) then\n"
	"      found = true\n"
	"      break\n"
	"    end\n"
	"  end\n"
	"  if not found then error('no case raises ' .. w, 0) end\n"
	"end\n";

/* Random patterns from pattern atoms against random subjects, seeded. */
static const char fuzz_lua[] =
	"local seed = 20240601\n"
	"local function rnd(n)\n"
	"  seed = (seed * 1103515245 + 12345) % 2147483648\n"
	"  return (seed >> 8) % n + 1\n"
	"end\n"
	"local atoms = {\n"
	"  'a', 'b', 'x', '.', '%a', '%d', '%s', '%w', '%A', '[ab]', '[^a]',\n"
	"  '[a-c]', '[%d%s]', '[]]', '(', ')', '()', '*', '+', '-', '?', '^',\n"
	"  '$', '%b()', '%f[%w]', '%f[%W]', '%1', '%2', '%', '[', ']', '%%',\n"
	"  '%(', '\\0',\n"
	"}\n"
	"local letters = {\n"
	"  'a', 'b', 'a', 'b', 'x', ' ', '(', ')', '1', '\\0', '%',\n"
	"}\n"
	"local repls = { '<%0>', '%1', '[%2]', '%%', 'z', '%' }\n"
	"local function cat(...)\n"
	"  local t = table.pack(...)\n"
	"  for i = 1, t.n do t[i] = tostring(t[i]) end\n"
	"  return table.concat(t, ',')\n"
	"end\n"
	"for _ = 1, 10000 do\n"
	"  local p = {}\n"
	"  for i = 1, rnd(7) - 1 do p[i] = atoms[rnd(#atoms)] end\n"
	"  p = table.concat(p)\n"
	"  local s = {}\n"
	"  for i = 1, rnd(13) - 1 do s[i] = letters[rnd(#letters)] end\n"
	"  s = table.concat(s)\n"
	"  local init = rnd(#s + 5) - 3\n"
	"  check('find', s, p, init)\n"
	"  check('find', s, p, init, true)\n"
	"  check('match', s, p, init)\n"
	"  check('gmatch', s, p, init)\n"
	"  check('gsub', s, p, repls[rnd(#repls)], rnd(4) - 2)\n"
	"  check('gsub', s, p, cat)\n"
	"  check('gsub', s, p, { a = 'A', ['('] = false, [1] = 'one' })\n"
	"end\n";

Test(lpattern, oracle_table)
{
	struct fixture f;

	fixture_init(&f, (unsigned long)-1);
	run_lua(f.L, "=prelude", prelude_lua);
	run_lua(f.L, "=cases", cases_lua);
	run_lua(f.L, "=special", special_lua);
	run_lua(f.L, "=coverage", coverage_lua);
	cr_assert_gt(global_int(f.L, "ncases"), 250000);
	cr_assert_gt(global_int(f.L, "nerrors"), 10000);
	cr_assert_eq(f.b.zero, 0);
	fixture_release(&f);
}

Test(lpattern, oracle_fuzz)
{
	struct fixture f;

	fixture_init(&f, (unsigned long)-1);
	run_lua(f.L, "=prelude", prelude_lua);
	run_lua(f.L, "=fuzz", fuzz_lua);
	cr_assert_geq(global_int(f.L, "ncases"), 70000);
	cr_assert_eq(f.b.zero, 0);
	fixture_release(&f);
}

/* The 6.8 "backtracking pattern" at n = 30 through each function. */
static const char backtrack_lua[] =
	"local n = 30\n"
	"local s = ('a'):rep(n)\n"
	"local p = ('a?'):rep(n) .. ('a'):rep(n)\n"
	"local calls = {\n"
	"  function() return P.find(s, p) end,\n"
	"  function() return P.match(s, p) end,\n"
	"  function() return P.gmatch(s, p)() end,\n"
	"  function() return P.gsub(s, p, '') end,\n"
	"  function() return P.find(s, '^' .. p .. '$') end,\n"
	"}\n"
	"which = tonumber(which)\n"
	"local ok, err = pcall(calls[which])\n"
	"assert(not ok, 'no error')\n"
	"assert(err:find('" BUDGET_MSG "', 1, true), err)\n";

Test(lpattern, backtracking_ends_in_budget)
{
	static const unsigned long limit = 1000000;
	struct fixture f;
	int which;

	fixture_init(&f, limit);
	for (which = 1; which <= 5; which++) {
		budget_reset(&f.b, limit);
		lua_pushinteger(f.L, which);
		lua_setglobal(f.L, "which");
		run_lua(f.L, "=backtrack", backtrack_lua);
		cr_assert_gt(f.b.spent, limit);
		cr_assert_leq(f.b.spent, limit + LPATTERN_BATCH);
	}
	fixture_release(&f);
}

/* The same pattern, small enough to end, under a large budget. */
Test(lpattern, normal_work_under_budget)
{
	struct fixture f;

	fixture_init(&f, 100000000);
	run_lua(f.L, "=normal",
		"local n = 12\n"
		"local s = ('a'):rep(n)\n"
		"local p = ('a?'):rep(n) .. ('a'):rep(n)\n"
		"assert(P.find(s, p) == 1)\n"
		"assert(select(2, P.find(s, p)) == n)\n"
		"local t = ('key = value, '):rep(1000)\n"
		"local r, k = P.gsub(t, '(%w+) = (%w+)', '%2=%1')\n"
		"assert(k == 1000 and r == string.gsub(t, '(%w+) = (%w+)',"
		" '%2=%1'))\n"
		"local c = 0\n"
		"for _ in P.gmatch(t, '%a+') do c = c + 1 end\n"
		"assert(c == 2000)\n");
	cr_assert_gt(f.b.spent, 0);
	cr_assert_lt(f.b.spent, 100000000);
	fixture_release(&f);
}

/* Each small call, matching or not, charges its remainder once. */
static const char *const small_calls[] = {
	"assert(P.find('abc', 'b') == 2)",
	"assert(P.find('abc', 'x+') == nil)",
	"assert(P.find('abc', 'x', 1, true) == nil)",
	"assert(P.find('abc', 'c', 1, true) == 3)",
	"assert(P.match('abc', '(b)') == 'b')",
	"assert(P.match('abc', '^b') == nil)",
	"assert(P.gsub('abc', 'b', 'x') == 'axc')",
	"assert(P.gsub('abc', 'x', 'y') == 'abc')",
	"local it = P.gmatch('abc', 'x') assert(it() == nil)",
};

/* Full batches while a call runs, then its remainder, never 0 steps. */
Test(lpattern, charges_batches_then_remainder)
{
	struct fixture f;
	unsigned long i, first;
	size_t k;

	fixture_init(&f, (unsigned long)-1);
	for (k = 0; k < sizeof small_calls / sizeof small_calls[0]; k++) {
		budget_reset(&f.b, (unsigned long)-1);
		run_lua(f.L, "=small", small_calls[k]);
		cr_assert_eq(f.b.calls, 1, "%s: one remainder charge, not %lu",
			     small_calls[k], f.b.calls);
		cr_assert(f.b.charges[0] > 0 && f.b.charges[0] < LPATTERN_BATCH,
			  "%s: %lu steps", small_calls[k], f.b.charges[0]);
	}
	budget_reset(&f.b, (unsigned long)-1);
	run_lua(f.L, "=small", small_calls[0]);
	first = f.b.charges[0];
	run_lua(f.L, "=small", small_calls[0]);
	cr_assert_eq(f.b.calls, 2);
	cr_assert_eq(f.b.charges[1], first, "steps are deterministic");

	budget_reset(&f.b, (unsigned long)-1);
	run_lua(f.L, "=big",
		"local s = ('a'):rep(16)\n"
		"assert(P.find(s, ('a?'):rep(16) .. ('a'):rep(16)) == 1)\n");
	cr_assert_gt(f.b.calls, 2);
	cr_assert_lt(f.b.calls, MAX_CHARGES);
	for (i = 0; i + 1 < f.b.calls; i++)
		cr_assert_eq(f.b.charges[i] % LPATTERN_BATCH, 0,
			     "charge %lu: %lu steps", i, f.b.charges[i]);
	cr_assert_lt(f.b.charges[f.b.calls - 1], LPATTERN_BATCH);
	cr_assert_eq(f.b.zero, 0);
	fixture_release(&f);
}

/*
 * Work that is not backtracking still counts: a plain find over a long
 * text, a long bracket set, a replacement full of empty captures (which
 * adds nothing to the output, so the memory cap cannot bound it) and a long
 * literal replacement.
 */
Test(lpattern, counts_bulk_work)
{
	struct fixture f;

	fixture_init(&f, (unsigned long)-1);
	run_lua(f.L, "=plain",
		"local s = ('ab'):rep(50000)\n"
		"assert(P.find(s, 'abc', 1, true) == nil)\n");
	cr_assert_gt(f.b.spent, 50000);

	budget_reset(&f.b, (unsigned long)-1);
	run_lua(f.L, "=set",
		"local set = '[' .. ('b'):rep(1000) .. ']'\n"
		"assert(P.find(('a'):rep(1000), set) == nil)\n");
	cr_assert_gt(f.b.spent, 1000000);

	budget_reset(&f.b, (unsigned long)-1);
	run_lua(f.L, "=repl",
		"local r = P.gsub(('x'):rep(1000), '', ('%1'):rep(1000))\n"
		"assert(r == ('x'):rep(1000))\n");
	cr_assert_gt(f.b.spent, 1000000);

	budget_reset(&f.b, (unsigned long)-1);
	run_lua(f.L, "=long",
		"local r = P.gsub(('x'):rep(1000), 'x', ('y'):rep(6400))\n"
		"assert(#r == 6400000)\n");
	cr_assert_gt(f.b.spent, 100000);
	fixture_release(&f);
}

/*
 * The meter's error longjmps out of the matcher with a luaL_Buffer grown
 * into a userdata, out of a gmatch iterator, out of a replacement function
 * and a nested call; nothing leaks, and the state works afterwards.
 */
static const char unwind_lua[] =
	"local bt = ('a?'):rep(30) .. ('a'):rep(30)\n"
	"local big = ('x'):rep(100000) .. ('a'):rep(30)\n"
	"local probes = {\n"
	"  function() return P.gsub(big, bt, '%0%0') end,\n"
	"  function() return P.gsub(big, 'x', '%0%0%0') end,\n"
	"  function()\n"
	"    for _ in P.gmatch(big, bt) do end\n"
	"  end,\n"
	"  function()\n"
	"    return P.gsub(big, 'x+', function(x)\n"
	"      return P.find(('a'):rep(30), bt) and x\n"
	"    end)\n"
	"  end,\n"
	"  function()\n"
	"    return P.gsub(big, '%a', { x = 'y', a = 'b' })\n"
	"  end,\n"
	"  function()\n"
	"    local s = ('a'):rep(100000)\n"
	"    return P.find(s, ('a'):rep(1000) .. 'b', 1, true)\n"
	"  end,\n"
	"  function() return P.find(big, '(x)(x)(x)' .. bt) end,\n"
	"  function() return P.match(big, '(' .. bt .. ')') end,\n"
	"}\n"
	"for i, f in ipairs(probes) do\n"
	"  budget(200000)\n"
	"  local ok, err = pcall(f)\n"
	"  assert(not ok, 'probe ' .. i .. ' did not trip')\n"
	"  assert(err:find('" BUDGET_MSG "', 1, true), err)\n"
	"end\n"
	"budget(-1)\n"
	"assert(P.gsub('abc', '%w', '%0%0') == 'aabbcc')\n";

static int l_budget(lua_State *L)
{
	struct budget *b = lua_touserdata(L, lua_upvalueindex(1));
	lua_Integer limit = luaL_checkinteger(L, 1);

	budget_reset(b, limit < 0 ? (unsigned long)-1 : (unsigned long)limit);
	return 0;
}

Test(lpattern, budget_error_unwinds_cleanly)
{
	struct fixture f;

	fixture_init(&f, (unsigned long)-1);
	lua_pushlightuserdata(f.L, &f.b);
	lua_pushcclosure(f.L, l_budget, 1);
	lua_setglobal(f.L, "budget");
	run_lua(f.L, "=unwind", unwind_lua);
	lua_gc(f.L, LUA_GCCOLLECT);
	fixture_release(&f);
}

/* Registration into any index; each table charges its own meter. */
Test(lpattern, register_keeps_its_meter)
{
	struct budget b1, b2;
	struct lpattern_meter m1 = { budget_charge, &b1 };
	struct lpattern_meter m2 = { budget_charge, &b2 };
	lua_State *L = luaL_newstate();

	cr_assert(L != NULL);
	budget_reset(&b1, (unsigned long)-1);
	budget_reset(&b2, (unsigned long)-1);
	luaL_openlibs(L);
	lua_newtable(L);
	lua_pushnil(L);
	lua_newtable(L);
	lpattern_register(L, 1, &m1);
	lpattern_register(L, -1, &m2);
	cr_assert_eq(lua_gettop(L), 3);
	lua_setglobal(L, "P2");
	lua_pop(L, 1);
	lua_setglobal(L, "P1");
	run_lua(L, "=two",
		"assert(P1.find('hello', 'l+') == 3)\n"
		"assert(P2.match('hello', 'l+') == 'll')\n"
		"assert(P2.gsub('hello', 'l', 'L') == 'heLLo')\n"
		"local co = coroutine.wrap(function(it) return it() end)\n"
		"local it = P2.gmatch('a b', '%a')\n"
		"assert(co(it) == 'a' and it() == 'b' and it() == nil)\n");
	cr_assert_eq(b1.calls, 1);
	cr_assert_eq(b2.calls, 5);
	lua_close(L);
#ifdef TEST_LSAN
	cr_assert_eq(__lsan_do_recoverable_leak_check(), 0, "leak reported");
#endif
}
