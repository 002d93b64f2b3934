-- Escape class: pcall must not swallow the budget error.
engine.rule { id = "swallowed-budget.probe", kind = "demo-item", severity = "error",
  summary = "catches the budget error and goes on",
  check = function(doc, ctx)
    for _ = 1, 1e9 do pcall(function() while true do end end) end
    ctx:fail(doc, nil, "this finding must never appear")
    return true
  end }
