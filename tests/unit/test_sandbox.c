/*
 * test_sandbox.c: the escape classes of spec/core.md 6.8, one test each,
 * against the sandbox's C interface: a site pack is written to a temporary
 * folder, loaded, and its one rule run on a small document. Every probe
 * must end as engine.budget or engine.error (or a load error), never hang
 * or crash; Criterion's per-test timeout turns a hang into a failure.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/lua/sandbox.h"
#include "core/yaml/yaml.h"

static const char *kind_pack(void *ud, const char *kind)
{
	(void)ud;
	return strcmp(kind, "demo-item") == 0 ? "demo" : NULL;
}

static struct sandbox_host host = { .kind_pack = kind_pack };

/* A document { kind: demo-item, name: <name>, size: 5 } built by hand. */
static struct node *str_node(struct doc *d, const char *s)
{
	struct node *n = doc_new_str(d, s, strlen(s));

	n->line = 1;
	n->col = 1;
	return n;
}

static void make_doc(struct doc *d, const char *name)
{
	struct node *root, *size;

	doc_init(d, 0);
	root = doc_new(d, NODE_MAP);
	root->line = 1;
	root->col = 1;
	root->v.map.pairs = arena_calloc(&d->arena, 3, sizeof(struct doc_pair));
	size = doc_new(d, NODE_INT);
	size->v.i = 5;
	size->line = 3;
	size->col = 7;
	root->v.map.pairs[0].key = str_node(d, "kind");
	root->v.map.pairs[0].value = str_node(d, "demo-item");
	root->v.map.pairs[1].key = str_node(d, "name");
	root->v.map.pairs[1].value = str_node(d, name);
	root->v.map.pairs[2].key = str_node(d, "size");
	root->v.map.pairs[2].value = size;
	root->v.map.n = 3;
	d->root = root;
	d->nodes = 7;
}

struct probe {
	struct sandbox *sb;
	char dir[256];
	struct findings fs;
};

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	cr_assert(f);
	fwrite(text, 1, strlen(text), f);
	fclose(f);
}

/* Load 'src' as pack "probe"; returns the load status. */
static int probe_load(struct probe *p, const char *src, struct diag *err)
{
	struct sandbox_config cfg;
	struct pack_desc pd;

	sandbox_limits_default(&cfg.limits);
	cfg.limits.instructions = 2000000;
	cfg.limits.memory_bytes = (size_t)64 << 20;
	cfg.data_root = ".";
	cfg.version = "0.0.0";
	cfg.host = &host;
	diag_init(err);
	snprintf(p->dir, sizeof p->dir, "/tmp/ig-sandbox-XXXXXX");
	cr_assert(mkdtemp(p->dir));
	write_file(p->dir, "pack.lua", src);
	p->sb = sandbox_new(&cfg, err);
	cr_assert(p->sb, "sandbox_new: %s", err->msg);
	findings_init(&p->fs, 0);
	pd.name = "probe";
	pd.dir = p->dir;
	pd.chunk_dir = "probe";
	pd.site = 1;
	pd.rank = 0;
	return sandbox_load_pack(p->sb, &pd, SB_LOAD_PACK, NULL, err);
}

static long probe_run_doc(struct probe *p, const struct doc *d)
{
	struct sb_check_req req;
	struct diag err;

	memset(&req, 0, sizeof req);
	req.doc = d;
	req.kind = "demo-item";
	req.owner = "demo";
	req.file = "doc.yaml";
	req.stage = SB_STAGE_CHECK;
	req.strict = 1;
	diag_init(&err);
	return sandbox_check(p->sb, &req, NULL, &p->fs, &err);
}

static long probe_run(struct probe *p, const char *name)
{
	struct doc d;
	long n;

	make_doc(&d, name);
	n = probe_run_doc(p, &d);
	doc_release(&d);
	return n;
}

static void probe_free(struct probe *p)
{
	char path[512];

	findings_release(&p->fs);
	sandbox_free(p->sb);
	snprintf(path, sizeof path, "%s/pack.lua", p->dir);
	unlink(path);
	rmdir(p->dir);
}

static int has_rule(const struct findings *fs, const char *id)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (strcmp(fs->items[i].rule, id) == 0)
			return 1;
	return 0;
}

/* Run one probe rule; assert it ended as 'id' and nothing else. */
static void expect_probe(const char *check_body, const char *id)
{
	struct probe p;
	struct diag err;
	char src[4096];

	snprintf(src, sizeof src,
		 "engine.rule { id = 'probe.x', kind = 'demo-item', severity = 'error',\n"
		 "  summary = 'probe', check = function(doc, ctx)\n%s\nend }\n",
		 check_body);
	cr_assert_eq(probe_load(&p, src, &err), 0, "load: %s", err.msg);
	cr_assert_geq(probe_run(&p, "aaaa"), 1);
	cr_assert(has_rule(&p.fs, id), "expected %s, got %s: %s", id,
		  p.fs.n ? p.fs.items[0].rule : "nothing",
		  p.fs.n ? p.fs.items[0].message : "");
	cr_assert_eq(p.fs.n, 1, "exactly one finding, got %zu", p.fs.n);
	probe_free(&p);
}

TestSuite(sandbox, .timeout = 20);

Test(sandbox, endless_loop)
{
	expect_probe("while true do end", "engine.budget");
}

Test(sandbox, budget_swallowed_by_pcall)
{
	/* The finding after the loop must never be recorded. */
	expect_probe("for i = 1, 1e9 do pcall(function() while true do end end) end\n"
		     "ctx:fail(doc, nil, 'escaped')", "engine.budget");
}

Test(sandbox, memory_bomb_rep)
{
	expect_probe("local ok = pcall(string.rep, 'x', 2^30)\n"
		     "ctx:fail(doc, nil, 'survived ' .. tostring(ok))", "engine.budget");
}

Test(sandbox, memory_bomb_table)
{
	expect_probe("local t = {} local i = 0\n"
		     "while true do i = i + 1 t[i] = {i, i} end", "engine.budget");
}

Test(sandbox, memory_bomb_concat)
{
	expect_probe("local t = {} for i = 1, 1e8 do t[i] = 'abcdefgh' end\n"
		     "return table.concat(t)", "engine.budget");
}

Test(sandbox, endless_finalizer)
{
	expect_probe("setmetatable({}, {__gc = function() while true do end end})",
		     "engine.error");
}

/* Rows hold arrays: each test runs in a new process (Criterion). */
struct reach_case {
	char code[64];
};

ParameterizedTestParameters(sandbox, forbidden_reach)
{
	static struct reach_case rows[] = {
		{ "io.open('/etc/passwd')" },   { "os.exit(0)" },
		{ "require 'os'" },             { "load 'x = 1'" },
		{ "dofile '/etc/passwd'" },     { "package.loadlib('x', 'y')" },
		{ "debug.sethook()" },          { "collectgarbage()" },
		{ "string.dump(print)" },       { "math.random()" },
		{ "loadfile '/etc/passwd'" },   { "coroutine.create(tostring)" },
		{ "print('x')" },               { "warn('x')" },
	};

	return cr_make_param_array(struct reach_case, rows,
				   sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct reach_case *c, sandbox, forbidden_reach)
{
	expect_probe(c->code, "engine.error");
}

Test(sandbox, bytecode_refused)
{
	struct probe p;
	struct diag err;

	cr_assert_lt(probe_load(&p, "\033Lua\x54\x00 rest", &err), 0);
	cr_assert_eq(err.code, DIAG_E_PACK);
	cr_assert(strstr(err.msg, "binary"), "%s", err.msg);
	probe_free(&p);
}

Test(sandbox, backtracking_pattern)
{
	expect_probe("local n = 30\n"
		     "local s = ('a'):rep(n)\n"
		     "string.find(s, ('a?'):rep(n) .. ('a'):rep(n))", "engine.budget");
}

Test(sandbox, backtracking_pattern_method)
{
	expect_probe("local n = 30\n"
		     "local s = doc.name:rep(8)\n"
		     "pcall(function() return s:find(('a?'):rep(n) .. ('a'):rep(n)) end)\n"
		     "ctx:fail(doc, nil, 'escaped')", "engine.budget");
}

Test(sandbox, regex_backtracking)
{
	expect_probe("local r = re.compile('^(a+)+$')\n"
		     "pcall(function() return r:test(('a'):rep(40) .. 'b') end)\n"
		     "ctx:fail(doc, nil, 'escaped')", "engine.budget");
}

Test(sandbox, deep_recursion)
{
	struct probe p;
	struct diag err;

	cr_assert_eq(probe_load(&p,
				"engine.rule { id = 'probe.x', kind = 'demo-item', severity = 'error',\n"
				"  summary = 'probe', check = function()\n"
				"  local function f() return 1 + f() end return f() end }\n",
				&err), 0);
	probe_run(&p, "a");
	cr_assert(has_rule(&p.fs, "engine.error") || has_rule(&p.fs, "engine.budget"));
	probe_free(&p);
}

Test(sandbox, shared_state)
{
	/* getmetatable("") is false; string.rep = nil changes only this
	 * pack's copy, so string methods still work. */
	expect_probe("if getmetatable('') ~= false then error('metatable reachable') end\n"
		     "string.rep = nil\n"
		     "if ('x'):rep(2) ~= 'xx' then error('methods changed') end\n"
		     "getmetatable('').__index = {}", "engine.error");
}

Test(sandbox, retained_view)
{
	struct probe p;
	struct diag err;

	cr_assert_eq(probe_load(&p,
				"KEEP = {}\n"
				"engine.rule { id = 'probe.x', kind = 'demo-item', severity = 'error',\n"
				"  summary = 'probe', check = function(doc)\n"
				"  if KEEP.doc then return KEEP.doc.size end KEEP.doc = doc end }\n",
				&err), 0, "%s", err.msg);
	cr_assert_eq(probe_run(&p, "a"), 0);
	cr_assert_eq(probe_run(&p, "b"), 1);
	cr_assert_str_eq(p.fs.items[0].rule, "engine.error");
	cr_assert(strstr(p.fs.items[0].message, "no longer available"), "%s",
		  p.fs.items[0].message);
	probe_free(&p);
}

/* The cheap type tests (a view's __index and __len take their first
 * argument on trust, a ctx is checked by its metatable's address) still
 * refuse what they must: the length of a view kept past its document, a
 * ctx method called on something else, a ctx kept past its call. */
Test(sandbox, retained_view_length_and_foreign_ctx)
{
	static const char *const bodies[] = {
		"if KEEP.doc then return #KEEP.doc end KEEP.doc = doc",
		"ctx.fail({}, doc, 'size', 'x')",
		"if KEEP.ctx then KEEP.ctx:fail(doc, 'size', 'x') end KEEP.ctx = ctx",
	};
	static const char *const wants[] = {
		"no longer available", "infragate.ctx expected", "no longer available",
	};
	size_t i;

	for (i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		struct probe p;
		struct diag err;
		char src[512];

		snprintf(src, sizeof src,
			 "KEEP = {}\n"
			 "engine.rule { id = 'probe.x', kind = 'demo-item', severity = 'error',\n"
			 "  summary = 'probe', check = function(doc, ctx)\n  %s\n  end }\n",
			 bodies[i]);
		cr_assert_eq(probe_load(&p, src, &err), 0, "%s", err.msg);
		probe_run(&p, "a");
		if (p.fs.n == 0)
			probe_run(&p, "b");
		cr_assert_geq(p.fs.n, 1, "case %zu: no finding", i);
		cr_assert_str_eq(p.fs.items[p.fs.n - 1].rule, "engine.error", "case %zu", i);
		cr_assert(strstr(p.fs.items[p.fs.n - 1].message, wants[i]), "case %zu: %s", i,
			  p.fs.items[p.fs.n - 1].message);
		probe_free(&p);
	}
}

Test(sandbox, hostile_error_object)
{
	struct probe p;
	struct diag err;

	cr_assert_eq(probe_load(&p,
				"engine.rule { id = 'probe.x', kind = 'demo-item', severity = 'error',\n"
				"  summary = 'probe', check = function()\n"
				"  error(setmetatable({}, {__tostring = function() while true do end end}))\n"
				"  end }\n",
				&err), 0);
	cr_assert_eq(probe_run(&p, "a"), 1);
	cr_assert_str_eq(p.fs.items[0].rule, "engine.error");
	cr_assert(strstr(p.fs.items[0].message, "raised a table"), "%s",
		  p.fs.items[0].message);
	probe_free(&p);
}

Test(sandbox, frozen_globals)
{
	expect_probe("NEW_GLOBAL = 1", "engine.error");
}

Test(sandbox, registration_outside_load)
{
	expect_probe("engine.rule { id = 'probe.y', kind = 'demo-item', severity = 'error',"
		     " summary = 's', check = function() end }", "engine.error");
}

struct load_case {
	char src[400];
	char needle[64];
};

ParameterizedTestParameters(sandbox, load_errors)
{
	static struct load_case rows[] = {
		{ "engine.rule { id = 'probe.x', kind = 'demo-item', sevrity = 'error', "
		  "summary = 's', check = function() end }", "did you mean 'severity'" },
		{ "engine.rule { id = 'cooling.x', kind = 'demo-item', severity = 'error', "
		  "summary = 's', check = function() end }", "must start with the pack's name" },
		{ "engine.rule { id = 'probe.x', kind = 'no-such-kind', severity = 'error', "
		  "summary = 's', check = function() end }", "unknown kind" },
		{ "engine.rule { id = 'probe.x', kind = 'demo-item', severity = 'error', "
		  "summary = 's', check = function() end }\n"
		  "engine.rule { id = 'probe.x', kind = 'demo-item', severity = 'error', "
		  "summary = 's', check = function() end }", "already registered" },
		{ "engine.rule { id = 'probe.x', kind = 'demo-item', severity = 'error', "
		  "summary = 's' }", "missing required field 'check'" },
		{ "this is not lua", "probe/pack.lua:1:" },
		{ "engine.rule { id = 'probe.Bad', kind = 'demo-item', severity = 'error', "
		  "summary = 's', check = function() end }", "lower kebab" },
	};

	return cr_make_param_array(struct load_case, rows, sizeof rows / sizeof rows[0]);
}

ParameterizedTest(struct load_case *c, sandbox, load_errors)
{
	struct probe p;
	struct diag err;

	cr_assert_lt(probe_load(&p, c->src, &err), 0);
	cr_assert_eq(err.code, DIAG_E_PACK);
	cr_assert(strstr(err.msg, c->needle), "'%s' not in '%s'", c->needle, err.msg);
	cr_assert(strstr(err.msg, "probe/pack.lua:"), "no position in '%s'", err.msg);
	probe_free(&p);
}

Test(sandbox, findings_and_positions)
{
	struct probe p;
	struct diag err;

	cr_assert_eq(probe_load(&p,
				"engine.rule { id = 'probe.x', kind = 'demo-item', severity = 'warning',\n"
				"  summary = 'probe', check = function(doc, ctx)\n"
				"  ctx:fail(doc, 'size', 'size is ' .. doc.size, {size = doc.size, ratio = 0.5})\n"
				"  ctx:info(doc, 'owner', 'no owner')\n"
				"  end }\n",
				&err), 0, "%s", err.msg);
	cr_assert_eq(probe_run(&p, "a"), 2);
	cr_assert_str_eq(p.fs.items[0].rule, "probe.x");
	cr_assert_eq(p.fs.items[0].severity, SEV_WARNING);
	cr_assert_str_eq(p.fs.items[0].path, "/size");
	cr_assert_eq(p.fs.items[0].line, 3);
	cr_assert_eq(p.fs.items[0].col, 7);
	cr_assert_str_eq(p.fs.items[0].figures, "{\"ratio\": 0.5, \"size\": 5}");
	cr_assert_str_eq(p.fs.items[1].path, "/owner");
	cr_assert_eq(p.fs.items[1].severity, SEV_INFO);
	cr_assert_eq(p.fs.items[1].line, 1);
	probe_free(&p);
}

/* Load a probe whose rule body is 'body' (it reports one message), run it on
 * the YAML 'text' and assert that message. */
static void expect_message_on(const char *body, const char *text, const char *want)
{
	struct yaml_limits lim;
	struct yaml_file f;
	struct probe p;
	struct diag err;
	char src[4096];

	snprintf(src, sizeof src,
		 "engine.rule { id = 'probe.x', kind = 'demo-item', severity = 'error',\n"
		 "  summary = 'probe', check = function(doc, ctx)\n%s\nend }\n", body);
	cr_assert_eq(probe_load(&p, src, &err), 0, "%s", err.msg);
	yaml_limits_default(&lim);
	yaml_file_init(&f);
	diag_init(&err);
	cr_assert_eq(yaml_load(&f, text, strlen(text), YAML_SINGLE, &lim, 0, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(probe_run_doc(&p, f.docs[0]), 1);
	cr_assert_str_eq(p.fs.items[0].message, want);
	yaml_file_release(&f);
	probe_free(&p);
}

/* engine.nonstring_keys: depth first, document order, nothing searched
 * below a non-string key, each map named by its own pointer. */
Test(sandbox, nonstring_keys_walk)
{
	expect_message_on("local out = {}\n"
			  "for _, b in ipairs(engine.nonstring_keys(doc)) do\n"
			  "  out[#out + 1] = engine.path(b.map) .. '|' .. engine.type(b.key)\n"
			  "end\n"
			  "ctx:fail(doc, nil, table.concat(out, ','))",
			  "kind: demo-item\n"
			  "a:\n  1: x\n  b:\n  - {~: 1, c: {true: 2}}\n"
			  "2.5:\n  3: not searched\n",
			  "/a|int,/a/b/0|null,/a/b/0/c|bool,|float");
}

/* Views are cached below their parent: the same container read twice is the
 * same view, and an alias's one node read from two places keeps two paths. */
Test(sandbox, view_cache_keeps_alias_paths)
{
	expect_message_on("ctx:fail(doc, nil, engine.path(doc.a.k) .. ' ' .. engine.path(doc.b.k) ..\n"
			  "  ' ' .. tostring(rawequal(doc.a.k, doc.a.k)) .. ' ' .. tostring(doc.a == doc.b))",
			  "kind: demo-item\na: &x {k: [1]}\nb: *x\n",
			  "/a/k /b/k true true");
}

Test(sandbox, allocation_failure_injection)
{
	struct sandbox_config cfg;
	struct sandbox *sb;
	struct diag err;
	long n;

	/* Fail the N-th allocation of a sandbox's start-up, N = 1, 2, ...,
	 * until one starts: each failure must be a clean error. */
	sandbox_limits_default(&cfg.limits);
	cfg.data_root = ".";
	cfg.version = "0";
	cfg.host = &host;
	for (n = 1; n < 100000; n++) {
		cfg.limits.memory_bytes = (size_t)64 << 20;
		diag_init(&err);
		sb = sandbox_new_failing(&cfg, n, &err);
		if (sb) {
			sandbox_free(sb);
			break;
		}
		cr_assert(err.code != DIAG_OK);
	}
	cr_assert_lt(n, 100000);
}
