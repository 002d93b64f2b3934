#!/usr/bin/env python3
"""Structured fuzzing: hostile documents that still look like documents.

Byte-level fuzzing (fuzz_yaml.c) rarely gets past the parser into the
schemas and the packs' rules. This mutates real documents (every fixture and
the chaos catalog) at the YAML level: a value becomes null, a huge or odd
number, a string, a list or a mapping; a key goes or a new one appears; a
list item repeats; a subtree moves. It lints the results in batches, hands
them to the five compatible programs' verbs that read such documents, and
gives odd values to every option of those programs and odd --set values to
the research programs. --sweep adds every option of every program alone
with each edge value of a double and of a 64-bit integer.

A run fails on: an exit status other than 0, 1 or 2; a sanitizer or Lua
traceback in the output; a finding of engine.error (a rule or verb raised
instead of reporting); unparsable JSON; a run-level error; a run past its
timeout (a missing limit). Under `make check-asan` the sanitizers write to
their log folder, which that target's gate reads.

  structured.py --bin build [--rounds N] [--set-runs N] [--compat-runs N] [--sweep]
                [--seed S]

Deterministic for a given seed; `make check` runs a short fixed-seed pass,
`make fuzz-structured` a long one (FUZZ_SEED, FUZZ_ROUNDS).
"""
import argparse
import copy
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))

# Values a careless or hostile author might write where a number, a name or
# a table was expected.
ODD_VALUES = [None, 0, -1, 1, 2**63, -2**63, 2**64, 1e308, -1e308, 0.5, float("nan"),
              float("inf"), "", "x" * 300, "é", "0", "true", [], {}, [1, 2], {"a": 1},
              True, False, [None], [[]], [{}], "1e3", "0x10", "2024-01-01", -0.0, 10**6,
              3, "null"]

# --set values as text: the program types them as YAML 1.1 does.
ODD_SET_VALUES = ["0", "-1", "1", "2", "1e308", "-1e308", "1.0e+308", "9223372036854775807",
                  "9223372036854775808", "-9223372036854775808", "99999999999999999999999",
                  "0.5", ".nan", ".inf", "-.inf", "''", "x", "null", "~", "[]", "{}",
                  "[1, 2]", "true", "false", "1e-300", "5e-324", "100000000", "0x7fffffff",
                  "010", "1_000", "1:00", "2024-01-01", "é", "'" + "a" * 200 + "'", "-0.0",
                  "1000000", "87600", "366"]

# Verbs left out of --set runs: whole registries and sweeps take seconds by
# design, and the rest read files rather than --set.
SLOW_OR_FILE_VERBS = {"validate", "lint", "grid", "sensitivity", "presets", "philly",
                      "replay", "compare"}

MARKS = ("AddressSanitizer", "runtime error:", "LeakSanitizer", "stack traceback",
         "Traceback (most recent call last)")


def tree_size(o, limit, seen=0, depth=0):
    """Nodes of o counted as a tree (an alias counts again), stopping past
    limit; a recursive structure counts as past it."""
    seen += 1
    if seen > limit or depth > 50:
        return limit + 1
    children = o.values() if isinstance(o, dict) else o if isinstance(o, list) else ()
    for v in children:
        seen = tree_size(v, limit, seen, depth + 1)
        if seen > limit:
            break
    return seen


def seed_documents():
    docs = []
    for pattern in ("fixtures/**/*.yaml", "rules/chaos/catalog/*.yaml"):
        for path in sorted(glob.glob(os.path.join(ROOT, pattern), recursive=True)):
            if os.path.getsize(path) > 65536:
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    d = yaml.safe_load(f)
            except (yaml.YAMLError, UnicodeDecodeError, ValueError, RecursionError):
                continue
            # The hostile fixtures include alias bombs and self-references:
            # seeds are documents of a sane size as a tree.
            if isinstance(d, dict) and "kind" in d and tree_size(d, 5000) <= 5000:
                docs.append(d)
    return docs


def node_paths(o, prefix=()):
    yield prefix
    if len(prefix) > 25:
        return
    if isinstance(o, dict):
        for k, v in o.items():
            yield from node_paths(v, prefix + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from node_paths(v, prefix + (i,))


def node_at(o, path):
    for k in path:
        o = o[k]
    return o


def mutate(rng, doc):
    d = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 4)):
        paths = [p for p in node_paths(d) if p]
        if not paths:
            break
        path = rng.choice(paths)
        parent, key = node_at(d, path[:-1]), path[-1]
        r = rng.random()
        try:
            if r < 0.45:
                parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
            elif r < 0.6:
                del parent[key]
            elif r < 0.7 and isinstance(parent, list):
                parent.append(copy.deepcopy(parent[key]))
            elif r < 0.8:
                v = parent[key]
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    parent[key] = rng.choice([v * 10, -v, v + 1, v * 1e6, 0, v / 3])
                else:
                    parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
            elif r < 0.9 and isinstance(parent, dict):
                parent[rng.choice(["extra", "x_%d" % rng.randint(0, 9), "%s_" % key])] = 1
            else:
                parent[key] = copy.deepcopy(node_at(d, rng.choice(paths)))
        except (KeyError, IndexError, TypeError):
            pass
    return d


def problems_of(run, label):
    out = []
    text = run.stdout + run.stderr
    if run.returncode not in (0, 1, 2):
        out.append("%s: exit status %d" % (label, run.returncode))
    for mark in MARKS:
        if mark in text:
            out.append("%s: %s in the output:\n%s" % (label, mark, text[:1500]))
            break
    return out


def lint_rounds(rng, binary, docs, rounds, keep):
    found = []
    for rnd in range(rounds):
        tmp = tempfile.mkdtemp(prefix="ig-structured-")
        for i in range(60):
            try:
                text = yaml.safe_dump(mutate(rng, rng.choice(docs)), sort_keys=False,
                                      allow_unicode=True)
            except (yaml.YAMLError, ValueError):
                continue
            with open(os.path.join(tmp, "m%02d.yaml" % i), "w", encoding="utf-8") as f:
                f.write(text)
        label = "lint round %d (%s)" % (rnd, tmp)
        try:
            run = subprocess.run([binary, "lint", "--no-config", "--format", "json", tmp],
                                 capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            found.append(label + ": past the 300 s timeout")
            continue
        mine = problems_of(run, label)
        try:
            report = json.loads(run.stdout)
        except ValueError:
            report = None
            mine.append("%s: the output is not JSON: %s" % (label, run.stdout[:300]))
        if report:
            for f in report.get("files", []):
                for fd in f.get("findings", []):
                    if fd.get("rule") == "engine.error":
                        mine.append("%s: %s: %s" % (label, f.get("file"), fd.get("message")))
            for e in report.get("errors", []):
                mine.append("%s: run error %s" % (label, e))
        found += mine
        if mine or keep:
            print("kept " + tmp, file=sys.stderr)
        else:
            shutil.rmtree(tmp)
    return found


def schema_keys(pack):
    keys = set()

    def walk(o, depth):
        if depth > 6:
            return
        if isinstance(o, dict):
            for k, v in o.items():
                if k == "properties" and isinstance(v, dict):
                    keys.update(str(x) for x in v)
                walk(v, depth + 1)
        elif isinstance(o, list):
            for v in o:
                walk(v, depth + 1)

    for path in sorted(glob.glob(os.path.join(ROOT, "schemas", "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            d = yaml.safe_load(f)
        if isinstance(d, dict) and d.get("pack") == pack:
            walk(d, 0)
    return sorted(keys)


def verbs_of(binary, program):
    text = subprocess.run([binary, program, "--help"], capture_output=True,
                          text=True).stdout
    verbs, listing = [], False
    for line in text.splitlines():
        if line.startswith("commands:"):
            listing = True
        elif listing and re.match(r"^  [a-z]", line):
            verbs.append(line.split()[0])
        elif listing and not line.strip():
            listing = False
    return verbs


def set_runs(rng, binary, runs):
    plan = []
    for program in ("power", "scheduling", "reliability", "network"):
        keys = schema_keys(program)
        for verb in verbs_of(binary, program):
            if verb in SLOW_OR_FILE_VERBS:
                continue
            text = subprocess.run([binary, program, verb, "--help"], capture_output=True,
                                  text=True).stdout
            if "--set" in text:
                plan.append((program, verb, keys))
    found = []
    for _ in range(runs):
        program, verb, keys = rng.choice(plan)
        args = [binary, program, verb]
        for _ in range(rng.randint(1, 3)):
            args += ["--set", "%s=%s" % (rng.choice(keys), rng.choice(ODD_SET_VALUES))]
        if rng.random() < 0.5:
            args += ["--format", "json"]
        label = " ".join(args[1:])
        try:
            run = subprocess.run(args, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            found.append(label + ": past the 60 s timeout")
            continue
        found += problems_of(run, label)
        if "engine.error" in run.stdout + run.stderr:
            found.append("%s: engine.error:\n%s" % (label, (run.stdout + run.stderr)[:800]))
    return found, len(plan)


# The compatible programs' verbs that read one document, by the document's
# kind: the program and verb, and the option that takes the file (None: an
# operand).
DOC_VERBS = {
    "ChaosExperiment": [("chaos-fidelity", None, None), ("chaos-fidelity", "coverage", None)],
    "promotion_record": [("promotion-gate", None, None)],
    "placement-request": [("edge-placement", "evaluate", "--request")],
    "tier-ladder": [("edge-placement", "evaluate", "--ladder")],
    "fleet-pair": [("edge-placement", "fleet", "--pair")],
    "resiliency-site": [("airan-resiliency", "lint", None)],
}

COMPAT = ("chaos-fidelity", "promotion-gate", "edge-placement", "airan-resiliency", "pue-ladder")

# Option values as text: numbers out of range or not numbers, names that
# name nothing, and ordinary ones, so that a run with one odd value among
# sane ones gets past the first check.
ODD_OPTION_VALUES = ["0", "-1", "1", "1e308", "-1e308", "nan", "inf", "-inf", "1e-300",
                     "9223372036854775808", "99999999999999999999999", "0.5", "", "x",
                     "é", "a" * 300, "100000", "2147483648", "-0", "1_000", "0x10"]
SANE_OPTION_VALUES = ["2", "3", "10", "40", "100", "2.5", "25", "1000", "json", "text"]


def options_of(binary, args):
    """The options of a verb that take a value, from its usage lines."""
    text = subprocess.run([binary] + args + ["--help"], capture_output=True,
                          text=True).stdout
    usage = text.split("\n\n")[0]
    return sorted(set(re.findall(r"(--[a-z][a-z0-9-]*) [A-Z][A-Z_]*", usage)))


def compat_runs(rng, binary, docs, runs, keep):
    by_kind = {}
    for d in docs:
        if d.get("kind") in DOC_VERBS:
            by_kind.setdefault(d["kind"], []).append(d)
    plan = []
    for program in COMPAT:
        verbs = verbs_of(binary, program) or [None]
        for verb in verbs:
            if verb in ("validate",):
                continue
            args = [program] + ([verb] if verb else [])
            plan.append((args, options_of(binary, args)))
    found = []
    tmp = tempfile.mkdtemp(prefix="ig-structured-compat-")
    for n in range(runs):
        label_file = None
        if by_kind and rng.random() < 0.5:
            kind = rng.choice(sorted(by_kind))
            program, verb, option = rng.choice(DOC_VERBS[kind])
            path = os.path.join(tmp, "d%04d.yaml" % n)
            with open(path, "w", encoding="utf-8") as f:
                f.write(yaml.safe_dump(mutate(rng, rng.choice(by_kind[kind])),
                                       sort_keys=False, allow_unicode=True))
            args = [program] + ([verb] if verb else [])
            args += [option, path] if option else [path]
            label_file = path
        else:
            base, options = rng.choice(plan)
            args = list(base)
            for i in range(rng.randint(1, 3) if options else 0):
                pool = ODD_OPTION_VALUES if i == 0 and rng.random() < 0.6 else SANE_OPTION_VALUES
                args += [rng.choice(options), rng.choice(pool)]
        if rng.random() < 0.5:
            args += ["--format", "json"]
        label = " ".join(args)
        try:
            run = subprocess.run([binary] + args, capture_output=True, text=True,
                                 timeout=60)
        except subprocess.TimeoutExpired:
            found.append(label + ": past the 60 s timeout")
            continue
        mine = problems_of(run, label)
        if "engine.error" in run.stdout + run.stderr:
            mine.append("%s: engine.error:\n%s" % (label, (run.stdout + run.stderr)[:800]))
        found += mine
        if label_file and not mine and not keep:
            os.remove(label_file)
    if not found and not keep:
        shutil.rmtree(tmp)
    elif found:
        print("kept " + tmp, file=sys.stderr)
    return found, len(plan)


# The sweep: every option that takes a value, of every verb of every
# program, alone with each of these (the edges of a double and of a 64-bit
# integer). Deterministic; it found the overflows a random pass rarely hits.
SWEEP_VALUES = ["1e308", "-1e308", "5e-324", "1.7976931348623157e308",
                "9223372036854775808", "nan"]
SWEEP_SKIP = {"validate", "grid", "sensitivity", "lint"}


def sweep(binary):
    found, n = [], 0
    for program in COMPAT + ("power", "scheduling", "reliability", "network"):
        for verb in verbs_of(binary, program) or [None]:
            if verb in SWEEP_SKIP:
                continue
            args = [program] + ([verb] if verb else [])
            for option in options_of(binary, args):
                for value in SWEEP_VALUES:
                    n += 1
                    label = " ".join(args + [option, value])
                    try:
                        run = subprocess.run([binary] + args + [option, value, "--format",
                                                                "json"],
                                             capture_output=True, text=True, timeout=60)
                    except subprocess.TimeoutExpired:
                        found.append(label + ": past the 60 s timeout")
                        continue
                    found += problems_of(run, label)
                    if "engine.error" in run.stdout + run.stderr:
                        found.append("%s: engine.error:\n%s"
                                     % (label, (run.stdout + run.stderr)[:800]))
    return found, n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", required=True, help="the build folder")
    ap.add_argument("--rounds", type=int, default=3, help="lint batches of 60 documents")
    ap.add_argument("--set-runs", type=int, default=100, help="program runs with --set")
    ap.add_argument("--compat-runs", type=int, default=100,
                    help="runs of the compatible programs (documents or odd options)")
    ap.add_argument("--sweep", action="store_true",
                    help="also every option alone with each edge value")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="keep every batch folder")
    a = ap.parse_args()
    binary = os.path.join(a.bin, "infragate")
    rng = random.Random(a.seed)
    docs = seed_documents()
    found = lint_rounds(rng, binary, docs, a.rounds, a.keep)
    more, nverbs = set_runs(rng, binary, a.set_runs)
    found += more
    more, ncompat = compat_runs(rng, binary, docs, a.compat_runs, a.keep)
    found += more
    nsweep = 0
    if a.sweep:
        more, nsweep = sweep(binary)
        found += more
    for p in found:
        print(p)
    print("structured: %d documents mutated in %d batches, %d --set runs over %d verbs, "
          "%d runs over %d compatible verbs, %d sweep runs (seed %d): %d problems"
          % (60 * a.rounds, a.rounds, a.set_runs, nverbs, a.compat_runs, ncompat, nsweep,
             a.seed, len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
