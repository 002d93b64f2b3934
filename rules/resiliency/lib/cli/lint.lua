-- airan-resiliency lint: simulate site documents and check their claims.
-- Compiled when the verb runs; its options are declared in commands.lua.

return function(args)
  return engine.lint {
    operands = args.operands,
    strict   = args.strict,
    format   = args.format,
    jobs     = args.jobs,
    settings = { years = args.years, seed = args.seed },
  }
end
