-- Escape class: a Lua pattern that backtracks inside C, on document text.
engine.rule { id = "backtracking-pattern.probe", kind = "demo-item", severity = "error",
  summary = "backtracks exponentially", check = function(doc)
    local n = 30
    local subject = doc.name:sub(1, 1):rep(n)
    local pattern = ("a?"):rep(n) .. ("a"):rep(n)
    string.find(subject:gsub(".", "a"), pattern)
    return (subject:gsub(".", "a")):find(pattern)
  end }
