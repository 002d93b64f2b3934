-- infragate scheduling philly: workload-shape validation of a Philly job log:
-- temporal split, sizes.
-- Compiled when the verb runs (or its help is asked): it declares its options
-- and its run.
local py = require "py"
local cli_options = require "cli.options"
local cli_input = require "cli.input"
local cli_edge = require "cli.edge"

local input_error = cli_input.input_error
local load_doc = cli_input.load_doc
local guarded = cli_edge.guarded

local function days_from_civil(y, m, d)
  y = m <= 2 and y - 1 or y
  local era = (y >= 0 and y or y - 399) // 400
  local yoe = y - era * 400
  local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
  local doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
  return era * 146097 + doe - 719468
end

local MONTH_DAYS = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 }

local function valid_date(y, m, d)
  if m < 1 or m > 12 or d < 1 then return false end
  local leap = (y % 4 == 0 and y % 100 ~= 0) or y % 400 == 0
  return d <= (m == 2 and leap and 29 or MONTH_DAYS[m])
end

-- Seconds since the epoch of "YYYY-MM-DD HH:MM:SS", or nil.
local function parse_time(v)
  if type(v) ~= "string" then return nil end
  local y, mo, d, h, mi, s = v:match("^(%d%d%d%d)%-(%d%d?)%-(%d%d?) (%d%d?):(%d%d?):(%d%d?)$")
  if not y then return nil end
  y, mo, d, h, mi, s = tonumber(y), tonumber(mo), tonumber(d), tonumber(h), tonumber(mi),
                       tonumber(s)
  if not valid_date(y, mo, d) or h > 23 or mi > 59 or s > 61 then return nil end
  return ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60 + s
end

local function is_map(v) return engine.type(v) == "map" end

local function is_list(v) return engine.type(v) == "list" end

-- One attempt: size and hours, or nil when it is incomplete or invalid.
local function attempt_of(a, submitted)
  if not is_map(a) then return nil end
  local start, finish_t = parse_time(a.start_time), parse_time(a.end_time)
  if not start or not finish_t or not is_list(a.detail) then return nil end
  local seen, n = {}, 0
  for _, dev in ipairs(a.detail) do
    if not is_map(dev) or not is_list(dev.gpus) or dev.ip == nil then return nil end
    for _, gpu in ipairs(dev.gpus) do
      local key = engine.json(engine.plain(dev.ip)) .. "\0" .. engine.json(engine.plain(gpu))
      if seen[key] then return nil end
      seen[key] = true
      n = n + 1
    end
  end
  local hours = (finish_t - start) / 3600
  if n == 0 or hours <= 0 or start < submitted then return nil end
  return { size = n, hours = hours, finish = finish_t }
end

local function partition_stats(list)
  local gpu_h, large, small = 0.0, 0.0, 0
  local counts = {}
  for _, a in ipairs(list) do
    local gh = a.size * a.hours
    gpu_h = gpu_h + gh
    if a.size >= 256 then large = large + gh end
    if a.size < 8 then small = small + 1 end
    counts[a.size] = (counts[a.size] or 0) + 1
  end
  local n = #list
  local sizes = {}
  for s in pairs(counts) do sizes[#sizes + 1] = s end
  table.sort(sizes)
  local probs, pmap = engine.object(), {}
  for _, s in ipairs(sizes) do
    probs[tostring(s)] = counts[s] / n
    pmap[s] = counts[s] / n
  end
  return engine.object("attempts", n, "mean_allocated_gpu_hours", gpu_h / n,
                       "small_attempt_share", small / n,
                       "large_allocated_time_share", gpu_h > 0 and large / gpu_h or 0.0,
                       "size_probability", probs), pmap
end

-- Seconds since the epoch of the cutoff's midnight; a usage error otherwise.
local function parse_cutoff(cutoff_text)
  local y, m, d = cutoff_text:match("^(%d%d%d%d)%-(%d%d)%-(%d%d)$")
  local cutoff = y and valid_date(tonumber(y), tonumber(m), tonumber(d))
                 and days_from_civil(tonumber(y), tonumber(m), tonumber(d)) * 86400
  if not cutoff then
    engine.usage("--cutoff", ("--cutoff takes a date YYYY-MM-DD, got '%s'"):format(cutoff_text))
  end
  return cutoff
end

-- A copy of a log view that canonical JSON can encode: a YAML timestamp
-- (a userdata) becomes its Python str() text.
local function digestible(v)
  local t = engine.type(v)
  if t == "map" then
    local o = engine.object()
    for k, x in pairs(v) do o[k] = digestible(x) end
    return o
  elseif t == "list" then
    local a = engine.array()
    for i, x in ipairs(v) do a[i] = digestible(x) end
    return a
  end
  if type(v) == "userdata" and not engine.isnull(v) then return tostring(v) end
  return v
end

-- The digest of the log as read (divergence: its canonical JSON, not its bytes).
local function log_digest(doc)
  local ok, d = pcall(models.scheduling.canonical_digest, engine.plain(doc))
  if ok then return d end
  return models.scheduling.canonical_digest(digestible(doc))
end

local function philly(doc, cutoff_text, file)
  local cutoff = parse_cutoff(cutoff_text)
  local ex = { missing_or_invalid_submission = 0, no_attempts = 0,
               incomplete_or_invalid_attempt = 0, cross_cutoff_attempts = 0 }
  local cal, val = {}, {}
  for _, rec in ipairs(doc) do
    local submitted = is_map(rec) and parse_time(rec.submitted_time)
    if not submitted then
      ex.missing_or_invalid_submission = ex.missing_or_invalid_submission + 1
    elseif not is_list(rec.attempts) or #rec.attempts == 0 then
      ex.no_attempts = ex.no_attempts + 1
    else
      for _, a in ipairs(rec.attempts) do
        local at = attempt_of(a, submitted)
        if not at then
          ex.incomplete_or_invalid_attempt = ex.incomplete_or_invalid_attempt + 1
        elseif submitted >= cutoff then
          val[#val + 1] = at
        elseif at.finish < cutoff then
          cal[#cal + 1] = at
        else
          ex.cross_cutoff_attempts = ex.cross_cutoff_attempts + 1
        end
      end
    end
  end
  for _, part in ipairs({ { "calibration", cal }, { "validation", val } }) do
    if #part[2] == 0 then
      input_error({ { file = file,
                      message = ("the %s partition is empty: no valid attempt falls %s the "
                                 .. "cutoff %s"):format(part[1], part[1] == "calibration"
                                 and "wholly before" or "on or after", cutoff_text) } })
    end
  end
  local cs, cp = partition_stats(cal)
  local vs, vp = partition_stats(val)
  local union = {}
  for s in pairs(cp) do union[s] = true end
  for s in pairs(vp) do union[s] = true end
  local sizes = {}
  for s in pairs(union) do sizes[#sizes + 1] = s end
  table.sort(sizes)
  local tv = 0.0
  for _, s in ipairs(sizes) do tv = tv + math.abs((cp[s] or 0.0) - (vp[s] or 0.0)) end
  return engine.object(
    "schema_version", "philly-workload-validation/v1", "evidence_class", "external-observed",
    "source_sha256", log_digest(doc),
    "calibration_before", cutoff_text, "validation_on_or_after", cutoff_text,
    "excluded", engine.object("missing_or_invalid_submission", ex.missing_or_invalid_submission,
                              "no_attempts", ex.no_attempts,
                              "incomplete_or_invalid_attempt", ex.incomplete_or_invalid_attempt,
                              "cross_cutoff_attempts", ex.cross_cutoff_attempts),
    "calibration", cs, "validation", vs, "held_out_size_total_variation", 0.5 * tv)
end

local options = {
  { "--cutoff", type = "string", default = "2017-11-20", metavar = "YYYY-MM-DD",
    help = "calibration before, validation on or after this date" },
  cli_options.fmt_opt(),
}

local run = guarded("philly", function(args, out)
  parse_cutoff(args.cutoff)    -- a usage error comes before reading the log
  local doc = load_doc(args.operands[1], "philly-job-log", true)
  local r = philly(doc, args.cutoff, args.operands[1])
  if args.format == "json" then
    local o = engine.object("pack", "scheduling")
    for _, k in ipairs({ "schema_version", "evidence_class", "source_sha256",
                         "calibration_before", "validation_on_or_after", "excluded",
                         "calibration", "validation", "held_out_size_total_variation" }) do
      o[k] = r[k]
    end
    o.findings = engine.array()
    out:json(o)
    return 0
  end
  local lines = { ("cutoff %s; log digest %s\n"):format(args.cutoff, r.source_sha256) }
  for _, part in ipairs({ "calibration", "validation" }) do
    local p = r[part]
    lines[#lines + 1] = ("%-11s %d attempts, mean %s GPU-h, small share %s, large GPU-time "
                         .. "share %s\n"):format(part, p.attempts,
      py.fixed(p.mean_allocated_gpu_hours, 4), py.fixed(p.small_attempt_share, 4),
      py.fixed(p.large_allocated_time_share, 4))
  end
  local e = r.excluded
  lines[#lines + 1] = ("excluded: %d invalid submissions, %d jobs without attempts, %d invalid "
                       .. "attempts, %d across the cutoff\n"):format(
    e.missing_or_invalid_submission, e.no_attempts, e.incomplete_or_invalid_attempt,
    e.cross_cutoff_attempts)
  lines[#lines + 1] = ("held-out size total variation %s\n")
                      :format(py.fixed(r.held_out_size_total_variation, 4))
  out:write(table.concat(lines))
  return 0
end)

return { options = options, run = run }
