-- Escape class: unbounded recursion.
engine.rule { id = "deep-recursion.probe", kind = "demo-item", severity = "error",
  summary = "recurses without end", check = function()
    local function f() return 1 + f() end
    return f()
  end }
