-- The demo program, `infragate demo` (spec/core.md Appendix A): one model
-- verb and one lint verb, to exercise the command API.
local py = require "py"

local prog = engine.program {
  name    = "demo",
  summary = "demo verbs of the engine's command API",
}

prog:verb {
  name    = "size",
  summary = "compare a size with a limit",
  options = {
    { "--size", type = "int", required = true, metavar = "N", help = "the item's size" },
    { "--limit", type = "float", min_exclusive = 0, default = 100, metavar = "X",
      help = "the limit" },
    { "--format", type = "choice", choices = { "text", "json" }, default = "text",
      help = "text or json" },
  },
  run = function(args, out)
    local ok = args.size <= args.limit
    if args.format == "json" then
      out:json(engine.object("size", args.size, "limit", args.limit, "ok", ok))
    else
      out:write(("size %d against the limit %s: %s\n")
                :format(args.size, py.repr(args.limit), ok and "within" or "over"))
    end
    return ok and 0 or 1
  end,
}

prog:verb {
  name     = "lint",
  summary  = "lint demo items",
  lint     = true,
  options  = {
    { "--strict", type = "flag", help = "run strict rules (the default)" },
    { "--no-strict", type = "flag", help = "do not run strict rules" },
    { "--format", type = "choice", choices = { "text", "json", "sarif", "github", "junit" },
      default = "text", help = "report format" },
  },
  operands = { name = "PATH", min = 1 },
  run = function(args)
    -- Neither flag: strict stays nil and the configuration decides.
    local strict
    if args.no_strict then strict = false elseif args.strict then strict = true end
    return engine.lint { operands = args.operands, strict = strict, format = args.format }
  end,
}
