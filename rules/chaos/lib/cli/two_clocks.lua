-- chaos-fidelity two-clocks: .
-- Compiled when the verb runs; its options are declared in commands.lua.
local py = require "py"

-- Option values as spec 2.2 spells them: ASCII digits, no nan, inf, hex or '_'.
local function int_value(name, text, lo, hi)
  if not text:match("^[+-]?%d+$") then
    engine.usage(name, ("%s '%s' is not an integer"):format(name, text))
  end
  local v = tonumber(text)
  if v == nil or v < lo or v > hi then
    engine.usage(name, ("%s %s is outside %d..%d"):format(name, text, lo, hi))
  end
  return v
end

local function number_value(name, text, lo, open)
  local mant = text:match("^[+-]?(%d*%.?%d*)[eE][+-]?%d+$") or text:match("^[+-]?(%d*%.?%d*)$")
  if not mant or not mant:find("%d") then
    engine.usage(name, ("%s '%s' is not a number"):format(name, text))
  end
  local v = tonumber(text) + 0.0
  if v ~= v or v == math.huge or v == -math.huge then
    engine.usage(name, ("%s '%s' is not a finite number"):format(name, text))
  end
  if (open and v <= lo) or (not open and v < lo) then
    local op = open and ">" or ">="
    engine.usage(name, ("%s %s must be %s %s"):format(name, text, op, py.repr(lo)))
  end
  return v
end

local function two_clocks_text(c)
  local lines = {
    ("ACK timeout %s s at NCCL_IB_TIMEOUT %d; transport gives up after %s s (%d retries)\n")
      :format(py.fixed(c.ack_timeout_s, 3), c.nccl_ib_timeout, py.fixed(c.give_up_s, 1),
              c.nccl_ib_retry_cnt),
    ("c10d watchdog %s s; first clock: %s at %s s\n")
      :format(py.fixed(c.c10d_timeout_s, 1), c.first_clock, py.fixed(c.first_clock_s, 1)),
  }
  if not engine.isnull(c.hold_s) then
    if c.outcome == "survive" then
      lines[#lines + 1] = ("an outage of %s s is survived\n"):format(py.repr(c.hold_s))
    else
      lines[#lines + 1] = ("an outage of %s s ends in crash-and-restart: the %s fires at %s s\n")
                          :format(py.repr(c.hold_s), c.ended_by, py.fixed(c.error_at_s, 1))
    end
  end
  return table.concat(lines)
end

return function(args, out)
  local p = REG.policy
  local t = args.ib_timeout and int_value("--ib-timeout", args.ib_timeout, 1, 31)
            or p.ib_default_timeout
  local r = args.ib_retry_cnt and int_value("--ib-retry-cnt", args.ib_retry_cnt, 0, 7)
            or p.ib_default_retry_cnt
  local w = args.c10d_timeout and number_value("--c10d-timeout", args.c10d_timeout, 0, true)
            or p.c10d_timeout_default_s + 0.0
  local hold = args.hold and number_value("--hold", args.hold, 0, false) or nil
  local c = CF.two_clocks(t, r, w, hold)
  if args.format == "json" then out:json(c) else out:write(two_clocks_text(c)) end
  return 0
end
