-- Escape class: table.concat of a huge list.
engine.rule { id = "memory-concat.probe", kind = "demo-item", severity = "error",
  summary = "concatenates a hundred million strings", check = function()
    local t = {}
    for i = 1, 1e8 do t[i] = "abcdefgh" end
    return table.concat(t)
  end }
