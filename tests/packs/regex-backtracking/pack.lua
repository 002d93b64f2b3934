-- Escape class: a regex that backtracks catastrophically.
engine.rule { id = "regex-backtracking.probe", kind = "demo-item", severity = "error",
  summary = "runs a catastrophic regex", check = function()
    local r = re.compile("^(a+)+$")
    pcall(function() return r:test(("a"):rep(40) .. "b") end)
    return r:test(("a"):rep(40) .. "b")
  end }
