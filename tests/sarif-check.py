#!/usr/bin/python3
"""Check a SARIF log the way spec/core.md 8.5's acceptance asks.

Usage: sarif-check.py FILE [SCHEMA]

Validates FILE against the SARIF 2.1.0 schema (JSON Schema draft-04,
tests/data/sarif-schema-2.1.0.json by default), then checks what the schema
cannot: every run has columnKind "unicodeCodePoints", every result has a
region, the rules array holds exactly the ids of the results (sorted, each
once) and every ruleIndex points at its rule. Prints one line per problem.
Exit 0 when all hold, 1 when one does not, 3 when python3-jsonschema is
missing (callers skip then), 2 for usage errors.
"""
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("sarif-check: python3-jsonschema is not installed", file=sys.stderr)
    sys.exit(3)


def problems(log):
    for i, run in enumerate(log.get("runs", [])):
        where = "runs[%d]" % i
        if run.get("columnKind") != "unicodeCodePoints":
            yield "%s: columnKind is %r" % (where, run.get("columnKind"))
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        ids = [r.get("id") for r in rules]
        results = run.get("results", [])
        used = sorted({r.get("ruleId") for r in results})
        if ids != used:
            yield "%s: rules %r, results name %r" % (where, ids, used)
        for j, res in enumerate(results):
            at = "%s.results[%d]" % (where, j)
            locs = res.get("locations") or [{}]
            if "region" not in locs[0].get("physicalLocation", {}):
                yield "%s: no region" % at
            k = res.get("ruleIndex")
            rid = res.get("ruleId")
            if k is None or not 0 <= k < len(ids) or ids[k] != rid:
                yield "%s: ruleIndex %r does not name %r" % (at, k, rid)


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: sarif-check.py FILE [SCHEMA]", file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    schema_path = argv[2] if len(argv) == 3 else os.path.join(
        here, "data", "sarif-schema-2.1.0.json")
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    with open(argv[1], encoding="utf-8") as f:
        log = json.load(f)
    bad = 0
    validator = jsonschema.Draft4Validator(schema)
    for err in sorted(validator.iter_errors(log), key=lambda e: list(e.path)):
        print("%s: schema: /%s: %s" % (argv[1], "/".join(map(str, err.path)),
                                       err.message))
        bad += 1
    for p in problems(log):
        print("%s: %s" % (argv[1], p))
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
