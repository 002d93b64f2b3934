-- luacheck configuration for rule packs and helpers (STYLE.md 4, 7).
std = "min"
-- utf8 is part of the allowed set (spec/core.md 6.1); "min" omits it.
read_globals = { "engine", "models", "re", "require", "utf8",
  -- Lua 5.4's integer functions of math, which "min" (common to 5.1) omits.
  math = { fields = { "type", "tointeger", "maxinteger", "mininteger", "ult" } },
  table = { fields = { "pack", "unpack", "move" } } }
max_line_length = 100
-- `not (x < y)` is how the packs write a comparison that NaN must fail:
-- `x >= y` would let NaN through the other way round.
ignore = { "581" }
-- Pack globals that mutations or other pack files reach.
files["rules/"] = { allow_defined_top = true }
