-- What promotion-gate's declarations (commands.lua) and its verbs' code both
-- use: option lists, defaults and their helpers.

local PROGRAM = "promotion-gate"

local FORMATS = { "text", "json", "sarif", "github", "junit" }

local HELP = [[
Checks autonomy-promotion records against the L0-L4 ladder and refuses a
promotion its evidence has not earned.

  promotion-gate [--trust POLICY.json --evidence-root DIR] [--strict] [--format FMT]
    [RECORD.yaml | DIR | - ...]
  promotion-gate --declaration-only [--strict] [--format FMT] [RECORD.yaml | DIR | - ...]
  promotion-gate --print-digest [--format text|json] [RECORD.yaml | DIR | - ...]

The full gate (the default) requires, from L2 up, receipts signed with
HMAC-SHA256 by a runner the trust policy names, each bound to the record's
digest and to its implementation_sha256, and recomputes every predicate the
level needs from the signed result artifacts under the evidence root.
--declaration-only checks only that the record is consistent with the
ladder (the earlier CLI's verdicts). The bundled examples, read when no
record is named, are declaration-only records: the four at L2 and above fail
the full gate on purpose, for want of a trust policy.

Options:
  --trust FILE          trust policy (JSON): trusted runners, keys, scopes, limits
  --evidence-root DIR   folder that receipt and artifact paths are relative to
  --declaration-only    lint the declaration only (no receipts)
  --strict              also run the strict rules
  --format FMT          text (default), json, sarif, github or junit
  --print-digest        print each record's record_sha256 instead of checking
  -h, --help            this help

Exit status: 0 every record passed, 1 at least one was refused, 2 a usage
error or an unusable input.]]

local function options()
  return {
    { "--trust", type = "path", abbrev = true, metavar = "FILE", help = "trust policy JSON" },
    { "--evidence-root", type = "path", abbrev = true, metavar = "DIR",
      help = "base folder of receipt and artifact paths" },
    { "--declaration-only", type = "flag", group = "added", help = "declaration linter mode" },
    { "--strict", type = "flag", group = "added", help = "also run the strict rules" },
    { "--format", type = "choice", choices = FORMATS, default = "text", group = "added",
      metavar = "FMT", help = "text, json, sarif, github or junit" },
    { "--print-digest", type = "flag", group = "added", help = "print record digests" },
  }
end

return {
  PROGRAM = PROGRAM,
  FORMATS = FORMATS,
  HELP = HELP,
  options = options,
}
