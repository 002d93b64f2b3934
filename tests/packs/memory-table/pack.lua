-- Escape class: a table that grows without end.
engine.rule { id = "memory-table.probe", kind = "demo-item", severity = "error",
  summary = "grows a table forever", check = function()
    local t = {}
    local i = 0
    while true do i = i + 1; t[i] = {i, i, i, i} end
  end }
