-- Escape class: a memory bomb through string.rep, caught by pcall.
engine.rule { id = "memory-rep.probe", kind = "demo-item", severity = "error",
  summary = "asks for a gigabyte", check = function()
    pcall(string.rep, "x", 2^30)
    local ok = pcall(function() return ("x"):rep(2^30) end)
    return ok
  end }
