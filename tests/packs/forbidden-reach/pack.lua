-- Escape class: nothing outside the allow-list is reachable.
local probes = {
  function() return io.open("/etc/passwd") end,
  function() return os.exit(0) end,
  function() return require "os" end,
  function() return load "x = 1" end,
  function() return dofile "/etc/passwd" end,
  function() return package.loadlib("libc.so.6", "system") end,
  function() return debug.sethook() end,
  function() return collectgarbage() end,
  function() return string.dump(print) end,
  function() return math.random() end,
  function() return loadfile "/etc/passwd" end,
  function() return coroutine.create(print) end,
}
engine.rule { id = "forbidden-reach.probe", kind = "demo-item", severity = "error",
  summary = "reaches for what packs may not have", check = function(doc, ctx)
    local reached = 0
    for _, probe in ipairs(probes) do
      if pcall(probe) then reached = reached + 1 end
    end
    if reached > 0 then ctx:fail(doc, nil, ("%d forbidden calls succeeded"):format(reached)) end
    -- and one that is not caught, so the run shows engine.error:
    io.open("/etc/passwd")
  end }
