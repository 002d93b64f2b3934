#!/usr/bin/python3
"""infragate's runner for CLI cases (tests/cli/README.md describes the case format).

usage: runcases.py [--bin DIR] [--wrap "CMD ..."] [--filter SUBSTR] [--timeout SECONDS]
                   [--timeout-factor F] [--jobs N] [--keep] PATH...

Each PATH is a case file or a folder searched recursively for *.yaml (folders named
_data are skipped). One line per case, then "N passed, N failed". Exit status: 0 when
every case passed, 1 when one failed, 2 when the runner itself was misused.
"""

import argparse
import base64
import binascii
import concurrent.futures
import difflib
import json
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import xml.dom.minidom
from collections.abc import Hashable

import yaml

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))

DEFAULT_TIMEOUT = 20.0
HEAD_LINES = 20          # lines of stdout/stderr shown for a failing case
HEAD_WIDTH = 200         # characters shown of one such line
MAX_PROBLEMS = 50        # problems listed for one failing case
SHOW_CHARS = 300         # longest rendering of one value in a message

# Variables that change the program's behaviour (spec/core.md 2.8): cleared so that the
# caller's shell cannot leak into a case; a case's `env` may set them again.
CLEARED_VARS = ("INFRAGATE_CONFIG", "INFRAGATE_HOME", "INFRAGATE_TODAY", "NO_COLOR")

# --- the case format -----------------------------------------------------------------

# Keys of the shared format (conformance/README.md) and our additions (README.md here).
TOP_KEYS = {"about", "command", "args", "files", "stdin", "expect",
            "env", "cwd", "argv0", "timeout"}
EXPECT_KEYS = {"rc", "stdout_json", "facts", "stdout_contains", "stderr_nonempty",
               "stdout_empty",
               "stdout_equals", "stdout_lines", "stderr_empty", "stderr_regex",
               "stdout_regex", "stdout_not_contains", "files_absent", "files_present",
               "stdout_xml", "stdout_file"}
FACT_CHECKS = ("type", "equals", "approx", "set", "contains", "length", "regex",
               "startswith")
FACT_KEYS = {"path", "absent", "rel", "abs"} | set(FACT_CHECKS)
TYPE_NAMES = ("int", "float", "bool", "string", "null", "list", "object")
FLAG_KEYS = ("stdout_json", "stderr_nonempty", "stdout_empty", "stderr_empty",
             "stdout_xml")


class CaseLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing a key written twice in one mapping (the second
    would silently replace the first, hiding a check)."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                if isinstance(key, Hashable):
                    if key in seen:
                        raise yaml.constructor.ConstructorError(
                            "while constructing a mapping", node.start_mark,
                            f"found the key {key!r} twice", key_node.start_mark)
                    seen.add(key)
        return super().construct_mapping(node, deep)


class Case:
    """A case file, checked and normalised."""

    def __init__(self, path):
        self.path = path
        self.about = ""
        self.command = ""
        self.args = []
        self.files = []          # (relpath, kind, payload) with kind text|bytes|copy|symlink
        self.stdin = None        # bytes or None
        self.env = {}            # name -> str, or None to unset
        self.cwd = ""
        self.argv0 = None
        self.timeout = None
        self.expect = {}
        self.facts = []          # (pointer text, tokens, fact mapping)
        self.updated = None      # the golden file rewritten under UPDATE_GOLDEN=1


class Problems(list):
    """Problems found while loading a case; each is one line of text."""

    def add(self, where, msg):
        self.append(f"{where}: {msg}" if where else msg)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def scalar_text(v):
    """The text of an argument-like scalar: strings as they are, numbers through str()
    (args: [gate, --density, 40]); anything else (booleans, null, lists) is refused."""
    if isinstance(v, str):
        return v
    if is_number(v):
        return str(v)
    raise ValueError(f"{show(v)} is not a string or a number (quote it)")


def json_like_problem(v, where="value"):
    """Why v (from YAML) cannot be a JSON value, or None."""
    if v is None or isinstance(v, (bool, int, str)):
        return None
    if isinstance(v, float):
        return None if math.isfinite(v) else f"{where}: {v!r} is not a JSON number"
    if isinstance(v, list):
        for i, x in enumerate(v):
            p = json_like_problem(x, f"{where}[{i}]")
            if p:
                return p
        return None
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                return f"{where}: key {k!r} is not a string (JSON keys are strings)"
            p = json_like_problem(x, f"{where}.{k}")
            if p:
                return p
        return None
    return (f"{where}: {v!r} is a YAML {type(v).__name__}, not a JSON value "
            "(quote dates and other such scalars)")


def relpath_problem(p, allow_up=False):
    """Why p cannot name a place below a folder, or None."""
    if not isinstance(p, str) or not p:
        return f"{show(p)} is not a relative path"
    if "\0" in p:
        return "a path holds a NUL character"
    if p.startswith("/"):
        return f"{p!r} is absolute; a relative path is needed"
    if not allow_up and ".." in p.split("/"):
        return f"{p!r} leaves its folder"
    return None


def parse_pointer(text):
    """RFC 6901: a JSON Pointer as a list of reference tokens, or raise ValueError."""
    if text == "":
        return []
    if not text.startswith("/"):
        raise ValueError(f"JSON Pointer {text!r} must be empty or start with '/'")
    tokens = []
    for raw in text[1:].split("/"):
        if re.search(r"~(?![01])", raw):
            raise ValueError(f"JSON Pointer {text!r}: '~' must be followed by 0 or 1")
        tokens.append(raw.replace("~1", "/").replace("~0", "~"))
    return tokens


def string_list(exp, key, probs, compile_re=False):
    val = exp[key]
    if not isinstance(val, list):
        probs.add(f"expect.{key}", "must be a list")
        return []
    out = []
    for i, item in enumerate(val):
        try:
            text = scalar_text(item)
        except ValueError as e:
            probs.add(f"expect.{key}[{i}]", str(e))
            continue
        if compile_re:
            try:
                re.compile(text, re.MULTILINE)
            except re.error as e:
                probs.add(f"expect.{key}[{i}]", f"bad regular expression: {e}")
                continue
        out.append(text)
    return out


def load_fact(i, fact, probs):
    where = f"facts[{i}]"
    if not isinstance(fact, dict):
        probs.add(where, "a fact is a mapping")
        return None
    if "path" not in fact:
        probs.add(where, "a fact needs a path")
        return None
    ptr = fact["path"]
    if isinstance(ptr, str):
        where = f"facts[{i}] {ptr!r}" if ptr else f"facts[{i}] (root)"
    for k in fact:
        if k not in FACT_KEYS:
            probs.add(where, f"unknown fact key {k!r}")
    tokens = None
    if not isinstance(ptr, str):
        probs.add(where, "path must be a string")
    else:
        try:
            tokens = parse_pointer(ptr)
        except ValueError as e:
            probs.add(where, str(e))
    checks = [k for k in FACT_CHECKS if k in fact]
    if "absent" in fact:
        if not isinstance(fact["absent"], bool):
            probs.add(where, "absent must be true or false")
        elif fact["absent"] and checks:
            probs.add(where, f"absent: true cannot go with {', '.join(checks)}")
    elif not checks:
        probs.add(where, "the fact checks nothing (give equals, approx, set, contains, "
                  "length, absent, type, regex or startswith)")
    for k in ("equals", "set", "contains"):
        if k in fact:
            p = json_like_problem(fact[k], k)
            if p:
                probs.add(where, p)
            if k != "equals" and not isinstance(fact[k], list):
                probs.add(where, f"{k} must be a list")
    if "approx" in fact and not (is_number(fact["approx"]) and math.isfinite(fact["approx"])):
        probs.add(where, "approx must be a number")
    for k in ("rel", "abs"):
        if k in fact:
            if "approx" not in fact:
                probs.add(where, f"{k} only goes with approx")
            if not is_number(fact[k]) or not fact[k] >= 0:
                probs.add(where, f"{k} must be a number >= 0")
    if "length" in fact:
        n = fact["length"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            probs.add(where, "length must be an integer >= 0")
    if "type" in fact and fact["type"] not in TYPE_NAMES:
        probs.add(where, f"type must be one of {', '.join(TYPE_NAMES)}, "
                  f"not {show(fact['type'])}")
    if "regex" in fact:
        if not isinstance(fact["regex"], str):
            probs.add(where, "regex must be a string")
        else:
            try:
                re.compile(fact["regex"])
            except re.error as e:
                probs.add(where, f"bad regular expression: {e}")
    if "startswith" in fact:
        sw = fact["startswith"]
        if not isinstance(sw, list) or not sw or not all(isinstance(s, str) for s in sw):
            probs.add(where, "startswith must be a non-empty list of key names")
    return (ptr, tokens, fact)


def load_files(files, probs, case):
    if not isinstance(files, dict):
        probs.add("files", "must be a mapping from a path to its content")
        return
    for rel, spec in files.items():
        where = f"files[{rel!r}]"
        p = relpath_problem(rel) or (f"{rel!r} ends in '/': name a file" if
                                     isinstance(rel, str) and rel.endswith("/") else None)
        if p:
            probs.add(where, p)
            continue
        if isinstance(spec, str):
            case.files.append((rel, "text", spec))
        elif isinstance(spec, dict) and len(spec) == 1 and "base64" in spec:
            text = spec["base64"]
            try:
                if not isinstance(text, str):
                    raise ValueError
                data = base64.b64decode("".join(text.split()), validate=True)
            except (ValueError, binascii.Error):
                probs.add(where, "base64 must be a string of base64 text")
                continue
            case.files.append((rel, "bytes", data))
        elif isinstance(spec, dict) and len(spec) == 1 and "copy" in spec:
            p = relpath_problem(spec["copy"])
            if p:
                probs.add(where, "copy: " + p)
                continue
            case.files.append((rel, "copy", spec["copy"]))
        elif isinstance(spec, dict) and len(spec) == 1 and "symlink" in spec:
            # The target is written as given ('..' and absolute paths are the
            # point: a link that leads out of a pack folder).
            if not isinstance(spec["symlink"], str) or not spec["symlink"]:
                probs.add(where, "symlink must be a non-empty string")
                continue
            case.files.append((rel, "symlink", spec["symlink"]))
        else:
            probs.add(where, "content must be a string, {base64: TEXT}, {copy: PATH} or "
                      "{symlink: TARGET}")


def load_expect(exp, probs, case):
    if not isinstance(exp, dict):
        probs.add("expect", "must be a mapping")
        return
    if not exp:
        probs.add("expect", "states nothing")
    for k in exp:
        if k not in EXPECT_KEYS:
            probs.add("expect", f"unknown expect key {k!r}")
    norm = {}
    if "rc" in exp:
        rc = exp["rc"]
        if isinstance(rc, bool) or not isinstance(rc, int) or not 0 <= rc <= 255:
            probs.add("expect.rc", "must be an integer from 0 to 255")
        norm["rc"] = rc
    for k in FLAG_KEYS:
        if k in exp:
            if not isinstance(exp[k], bool):
                probs.add(f"expect.{k}", "must be true or false")
            norm[k] = exp[k] is True
    for k in ("stdout_contains", "stdout_not_contains"):
        if k in exp:
            norm[k] = string_list(exp, k, probs)
    for k in ("stdout_regex", "stderr_regex"):
        if k in exp:
            norm[k] = string_list(exp, k, probs, compile_re=True)
    for k in ("files_absent", "files_present"):
        if k in exp:
            paths = string_list(exp, k, probs)
            for p in paths:
                bad = relpath_problem(p)
                if bad:
                    probs.add(f"expect.{k}", bad)
            norm[k] = paths
    if "stdout_equals" in exp:
        if not isinstance(exp["stdout_equals"], str):
            probs.add("expect.stdout_equals", "must be a string")
        norm["stdout_equals"] = exp["stdout_equals"]
    if "stdout_lines" in exp:
        n = exp["stdout_lines"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            probs.add("expect.stdout_lines", "must be an integer >= 0")
        norm["stdout_lines"] = n
    if "stdout_file" in exp:
        bad = relpath_problem(exp["stdout_file"], allow_up=True)
        if bad:
            probs.add("expect.stdout_file", bad)
        norm["stdout_file"] = exp["stdout_file"]
    if "facts" in exp:
        facts = exp["facts"]
        if not isinstance(facts, list):
            probs.add("expect.facts", "must be a list")
        else:
            for i, fact in enumerate(facts):
                loaded = load_fact(i, fact, probs)
                if loaded:
                    case.facts.append(loaded)
        if exp.get("stdout_json") is False:
            probs.add("expect", "facts need stdout_json, which says false")
        norm["stdout_json"] = True
    case.expect = norm


def load_case(path):
    """Read and check one case file; return (case, problems)."""
    case = Case(path)
    probs = Problems()
    try:
        with open(path, "rb") as f:
            raw = f.read()
        doc = yaml.load(raw.decode("utf-8"), Loader=CaseLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        probs.add("", f"cannot read the case: {e}")
        return case, probs
    if not isinstance(doc, dict):
        probs.add("", "the case is not a mapping")
        return case, probs
    for k in doc:
        if k not in TOP_KEYS:
            probs.add("", f"unknown case key {k!r}")
    if not isinstance(doc.get("about"), str) or not doc["about"].strip():
        probs.add("about", "a case needs about: a string saying what it pins")
    else:
        case.about = doc["about"]
    cmd = doc.get("command")
    if not isinstance(cmd, str) or not cmd or "/" in cmd or cmd in (".", ".."):
        probs.add("command", "a case needs command: a program name found in --bin DIR")
    else:
        case.command = cmd
    args = doc.get("args", [])
    if not isinstance(args, list):
        probs.add("args", "must be a list")
    else:
        for i, a in enumerate(args):
            try:
                case.args.append(scalar_text(a))
            except ValueError as e:
                probs.add(f"args[{i}]", str(e))
    if "files" in doc and doc["files"] is not None:
        load_files(doc["files"], probs, case)
    stdin = doc.get("stdin")
    if stdin is not None:
        if isinstance(stdin, str):
            case.stdin = stdin.encode("utf-8")
        else:
            probs.add("stdin", "must be a string or null")
    if "env" in doc:
        env = doc["env"]
        if not isinstance(env, dict):
            probs.add("env", "must be a mapping NAME: value")
        else:
            for name, val in env.items():
                if not isinstance(name, str) or not name or "=" in name or "\0" in name:
                    probs.add("env", f"{show(name)} is not a variable name")
                    continue
                try:
                    case.env[name] = None if val is None else scalar_text(val)
                except ValueError as e:
                    probs.add(f"env.{name}", str(e))
    if "cwd" in doc:
        bad = relpath_problem(doc["cwd"])
        if bad:
            probs.add("cwd", bad)
        else:
            case.cwd = doc["cwd"]
    if "argv0" in doc:
        a0 = doc["argv0"]
        if not isinstance(a0, str) or not a0 or "\0" in a0:
            probs.add("argv0", "must be a non-empty string")
        else:
            case.argv0 = a0
    if "timeout" in doc:
        t = doc["timeout"]
        if not is_number(t) or not t > 0 or not math.isfinite(t):
            probs.add("timeout", "must be a number of seconds > 0")
        else:
            case.timeout = float(t)
    if "expect" not in doc:
        probs.add("expect", "a case needs expect")
    else:
        load_expect(doc["expect"], probs, case)
    return case, probs


# --- JSON values ---------------------------------------------------------------------

class JsonInt(int):
    """A number written in the JSON text without fraction or exponent."""


class JsonFloat(float):
    """A number written in the JSON text with a fraction or an exponent."""


class JsonError(ValueError):
    pass


def _json_float(text):
    v = JsonFloat(text)
    if not math.isfinite(v):
        raise JsonError(f"the number {text} is out of range")
    return v


def _json_constant(name):
    raise JsonError(f"{name} is not JSON")


def _json_object(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise JsonError(f"the key {k!r} appears twice in one object")
        obj[k] = v
    return obj


def parse_json(text):
    """One JSON document, numbers tagged with how they were written, object members in
    document order; NaN, infinities and repeated keys are refused."""
    return json.loads(text, parse_int=JsonInt, parse_float=_json_float,
                      parse_constant=_json_constant, object_pairs_hook=_json_object)


def kind_of(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, JsonFloat):
        return "float"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    return "object"


def same(a, b):
    """JSON equality: numbers by value whatever their writing (2 == 2.0), booleans only
    with booleans, strings exactly, null with null, lists item by item and objects
    member by member (in any order) under the same rules."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) or is_number(b):
        return is_number(a) and is_number(b) and a == b
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
                and all(same(x, y) for x, y in zip(a, b)))
    if isinstance(a, dict) or isinstance(b, dict):
        return (isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys()
                and all(same(a[k], b[k]) for k in a))
    if a is None or b is None:
        return a is None and b is None
    return type(a) is type(b) and a == b


def show(v):
    try:
        text = json.dumps(v, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= SHOW_CHARS else text[:SHOW_CHARS] + "..."


def resolve(doc, tokens):
    """(True, value) for the node the pointer names, (False, None) when there is none."""
    cur = doc
    for tok in tokens:
        if isinstance(cur, dict):
            if tok not in cur:
                return False, None
            cur = cur[tok]
        elif isinstance(cur, list):
            if not re.fullmatch(r"0|[1-9][0-9]*", tok) or int(tok) >= len(cur):
                return False, None
            cur = cur[int(tok)]
        else:
            return False, None
    return True, cur


def near(val, want, rel, ab):
    if val == want:
        return True
    try:
        diff = abs(float(val) - float(want))
        scale = max(abs(float(val)), abs(float(want)))
    except OverflowError:
        return False
    return ((rel is not None and diff <= rel * scale)
            or (ab is not None and diff <= ab))


def take_matches(want, have):
    """Match each wanted member with a distinct member of have; return the unmatched
    wanted ones and the members of have left over."""
    left = list(have)
    missing = []
    for w in want:
        for i, h in enumerate(left):
            if same(w, h):
                del left[i]
                break
        else:
            missing.append(w)
    return missing, left


def check_fact(doc, ptr, tokens, fact):
    """Problems of one fact against the document."""
    label = ptr if ptr else "(root)"
    found, val = resolve(doc, tokens)
    if fact.get("absent") is True:
        return [] if not found else [f"{label}: expected absent, found {show(val)}"]
    if not found:
        return [f"{label}: missing"]
    out = []
    if "type" in fact and kind_of(val) != fact["type"]:
        out.append(f"{label}: expected type {fact['type']}, got {kind_of(val)} {show(val)}")
    if "equals" in fact and not same(val, fact["equals"]):
        out.append(f"{label}: expected {show(fact['equals'])}, got {show(val)}")
    if "approx" in fact:
        want, rel, ab = fact["approx"], fact.get("rel"), fact.get("abs")
        if rel is None and ab is None:
            rel = 1e-9
        limits = ", ".join(f"{n} {v}" for n, v in (("rel", rel), ("abs", ab)) if v is not None)
        if not is_number(val):
            out.append(f"{label}: expected a number near {show(want)}, got {show(val)}")
        elif not near(val, want, rel, ab):
            out.append(f"{label}: expected {show(want)} within {limits}, got {show(val)}")
    if "set" in fact:
        if not isinstance(val, list):
            out.append(f"{label}: expected a list for set, got {show(val)}")
        else:
            missing, extra = take_matches(fact["set"], val)
            if missing or extra:
                out.append(f"{label}: expected the set {show(fact['set'])}, got {show(val)}"
                           f" (missing {show(missing)}, unexpected {show(extra)})")
    if "contains" in fact:
        if not isinstance(val, list):
            out.append(f"{label}: expected a list for contains, got {show(val)}")
        else:
            missing, _ = take_matches(fact["contains"], val)
            if missing:
                out.append(f"{label}: lacks {show(missing)}; got {show(val)}")
    if "length" in fact:
        if not isinstance(val, (list, dict, str)):
            out.append(f"{label}: expected something with a length, got {show(val)}")
        elif len(val) != fact["length"]:
            out.append(f"{label}: expected length {fact['length']}, got {len(val)}")
    if "regex" in fact:
        if not isinstance(val, str):
            out.append(f"{label}: expected a string matching {fact['regex']!r}, got {show(val)}")
        elif not re.search(fact["regex"], val):
            out.append(f"{label}: {show(val)} does not match {fact['regex']!r}")
    if "startswith" in fact:
        want = fact["startswith"]
        if not isinstance(val, dict):
            out.append(f"{label}: expected an object for startswith, got {show(val)}")
        elif list(val)[:len(want)] != want:
            out.append(f"{label}: expected the first keys {show(want)}, "
                       f"got {show(list(val)[:max(len(want), 1)])}")
    return out


# --- running a case ------------------------------------------------------------------

class Options:
    def __init__(self, ns):
        self.bindir = os.path.abspath(ns.bin)
        self.wrap = shlex.split(ns.wrap) if ns.wrap else []
        self.timeout = ns.timeout
        self.factor = ns.timeout_factor
        self.keep = ns.keep
        self.update_golden = os.environ.get("UPDATE_GOLDEN") == "1"
        self.tmpbase = None


class Outcome:
    """What one case came to: ok, the problems, and lines to show under it."""

    def __init__(self, path):
        self.path = path
        self.problems = []
        self.details = []
        self.notes = []

    @property
    def ok(self):
        return not self.problems

    def lines(self):
        if self.ok:
            return [f"ok   {self.path}"] + [f"     {n}" for n in self.notes]
        first = self.problems[0].split("\n", 1)[0]
        more = len(self.problems) - 1
        head = f"FAIL {self.path}: {first}" + (f" (+{more} more)" if more else "")
        body = []
        if more or "\n" in self.problems[0]:
            for p in self.problems[:MAX_PROBLEMS]:
                body += ["    " + ("- " if i == 0 else "  ") + ln
                         for i, ln in enumerate(p.split("\n"))]
            if len(self.problems) > MAX_PROBLEMS:
                body.append(f"    ... {len(self.problems) - MAX_PROBLEMS} more problems")
        return [head] + body + ["    " + d for d in self.details]


class Active:
    """Process groups of running cases, so an interrupt can end them."""
    lock = threading.Lock()
    groups = set()
    stopping = threading.Event()

    @classmethod
    def kill_all(cls):
        with cls.lock:
            for pgid in list(cls.groups):
                kill_group(pgid)


def kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def head(label, data):
    text = data.decode("utf-8", "replace")
    if not text:
        return [f"{label}: (empty)"]
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    shown = lines[:HEAD_LINES]
    title = (f"{label} (first {HEAD_LINES} of {len(lines)} lines):" if len(lines) > HEAD_LINES
             else f"{label} ({len(lines)} line{'s' if len(lines) != 1 else ''}):")
    return [title] + [f"  | {ln}" if len(ln) <= HEAD_WIDTH else
                      f"  | {ln[:HEAD_WIDTH]}... ({len(ln)} characters)" for ln in shown]


def diff_lines(want, got, name):
    a = want.decode("utf-8", "replace").splitlines(keepends=True)
    b = got.decode("utf-8", "replace").splitlines(keepends=True)
    out = [ln.rstrip("\n") for ln in difflib.unified_diff(a, b, name, "stdout", n=2)]
    if len(out) > 40:
        out = out[:40] + [f"... ({len(out) - 40} more diff lines)"]
    return out


def write_files(case, workdir):
    for rel, kind, payload in case.files:
        dest = os.path.join(workdir, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        if kind == "symlink":
            os.symlink(payload, dest)
        elif kind == "copy":
            src = os.path.join(REPO_ROOT, payload)
            if os.path.isdir(src):
                shutil.copytree(src, dest, symlinks=True, dirs_exist_ok=True)
            elif os.path.exists(src):
                shutil.copy2(src, dest)
            else:
                raise OSError(f"files[{rel!r}]: nothing to copy at {payload!r} in {REPO_ROOT}")
        else:
            data = payload.encode("utf-8") if kind == "text" else payload
            with open(dest, "wb") as f:
                f.write(data)


def case_env(case):
    env = dict(os.environ)
    for name in CLEARED_VARS:
        env.pop(name, None)
    env["LC_ALL"] = "C.UTF-8"
    for name, val in case.env.items():
        if val is None:
            env.pop(name, None)
        else:
            env[name] = val
    return env


def signal_name(n):
    try:
        return signal.Signals(n).name
    except ValueError:
        return f"signal {n}"


def execute(case, opts, scratch, out):
    """Run the case's command; return (rc, stdout, stderr, hung, timeout used)."""
    workdir = os.path.join(scratch, "work")
    os.mkdir(workdir)
    write_files(case, workdir)
    cwd = os.path.join(workdir, case.cwd) if case.cwd else workdir
    os.makedirs(cwd, exist_ok=True)
    prog = os.path.join(opts.bindir, case.command)
    executable = None
    if opts.wrap:
        target = prog
        if case.argv0:
            # A wrapper runs the program by path, so argv[0] is set through a link
            # with the wanted name, kept outside the working directory.
            linkdir = os.path.join(scratch, "argv0")
            os.mkdir(linkdir)
            target = os.path.join(linkdir, os.path.basename(case.argv0))
            os.symlink(prog, target)
        argv = opts.wrap + [target] + case.args
    elif case.argv0:
        argv, executable = [case.argv0] + case.args, prog
    else:
        argv = [prog] + case.args
    timeout = (case.timeout or opts.timeout) * opts.factor
    out.details.append("command: " + shlex.join(argv)
                       + (f"  (argv0 {case.argv0!r})" if case.argv0 and not opts.wrap else "")
                       + (f"  (in {case.cwd})" if case.cwd else ""))
    proc = subprocess.Popen(
        argv, executable=executable, cwd=cwd, env=case_env(case),
        stdin=subprocess.PIPE if case.stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    with Active.lock:
        Active.groups.add(proc.pid)
    hung = False
    try:
        try:
            stdout, stderr = proc.communicate(case.stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            hung = True
            kill_group(proc.pid)
            try:
                stdout, stderr = proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                stdout, stderr = b"", b""
    finally:
        # The group may keep children the program left behind: end them too.
        kill_group(proc.pid)
        with Active.lock:
            Active.groups.discard(proc.pid)
    return proc.returncode, stdout, stderr, hung, timeout


def check_run(case, opts, scratch, rc, stdout, stderr):
    exp = case.expect
    probs = []
    if rc < 0:
        probs.append(f"killed by {signal_name(-rc)}")
    if "rc" in exp and rc != exp["rc"]:
        probs.append(f"rc: expected {exp['rc']}, got {rc}")
    text = stdout.decode("utf-8", "replace")
    errtext = stderr.decode("utf-8", "replace")
    if exp.get("stdout_empty") and stdout:
        probs.append(f"stdout: expected empty, got {len(stdout)} bytes")
    if "stdout_equals" in exp:
        want = exp["stdout_equals"].encode("utf-8")
        if stdout != want:
            probs.append("stdout differs from stdout_equals\n"
                         + "\n".join(diff_lines(want, stdout, "stdout_equals")))
    if "stdout_file" in exp:
        probs += check_golden(case, opts, stdout)
    if "stdout_lines" in exp:
        n = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
        if n != exp["stdout_lines"]:
            probs.append(f"stdout: expected {exp['stdout_lines']} lines, got {n}")
    for s in exp.get("stdout_contains", []):
        if s not in text:
            probs.append(f"stdout lacks {s!r}")
    for s in exp.get("stdout_not_contains", []):
        if s in text:
            probs.append(f"stdout contains {s!r}")
    for pat in exp.get("stdout_regex", []):
        if not re.search(pat, text, re.MULTILINE):
            probs.append(f"stdout does not match {pat!r}")
    if exp.get("stderr_empty") and stderr:
        probs.append(f"stderr: expected empty, got {len(stderr)} bytes")
    if exp.get("stderr_nonempty") and not errtext.strip():
        probs.append("stderr: expected a message, got none")
    for pat in exp.get("stderr_regex", []):
        if not re.search(pat, errtext, re.MULTILINE):
            probs.append(f"stderr does not match {pat!r}")
    workdir = os.path.join(scratch, "work")
    for p in exp.get("files_present", []):
        if not os.path.lexists(os.path.join(workdir, p)):
            probs.append(f"file {p!r}: expected to exist after the run, it does not")
    for p in exp.get("files_absent", []):
        if os.path.lexists(os.path.join(workdir, p)):
            probs.append(f"file {p!r}: expected absent after the run, it exists")
    if exp.get("stdout_xml"):
        try:
            xml.dom.minidom.parseString(stdout)
        except Exception as e:  # expat raises its own error types
            probs.append(f"stdout is not well-formed XML: {e}")
    if exp.get("stdout_json"):
        try:
            doc = parse_json(stdout.decode("utf-8"))
        except UnicodeDecodeError as e:
            probs.append(f"stdout is not UTF-8: {e}")
        except (ValueError, RecursionError) as e:
            probs.append(f"stdout is not one JSON document: {e}")
        else:
            for ptr, tokens, fact in case.facts:
                probs += check_fact(doc, ptr, tokens, fact)
    return probs


def check_golden(case, opts, stdout):
    rel = case.expect["stdout_file"]
    golden = os.path.join(os.path.dirname(case.path), rel)
    try:
        with open(golden, "rb") as f:
            want = f.read()
    except FileNotFoundError:
        want = None
    except OSError as e:
        return [f"stdout_file {rel!r}: cannot read: {e}"]
    if want == stdout:
        return []
    if opts.update_golden:
        os.makedirs(os.path.dirname(os.path.abspath(golden)), exist_ok=True)
        with open(golden, "wb") as f:
            f.write(stdout)
        case.updated = golden
        return []
    if want is None:
        return [f"stdout_file {rel!r} does not exist (UPDATE_GOLDEN=1 writes it)"]
    return [f"stdout differs from {rel} (UPDATE_GOLDEN=1 rewrites it)\n"
            + "\n".join(diff_lines(want, stdout, rel))]


def run_one(path, opts):
    """Run one case; a fault of the runner on it fails that case, never the run."""
    try:
        return run_case(path, opts)
    except Exception as e:  # e.g. RecursionError on absurdly nested JSON
        out = Outcome(path)
        out.problems.append(f"runner error: {type(e).__name__}: {e}")
        return out


def run_case(path, opts):
    out = Outcome(path)
    if Active.stopping.is_set():
        out.problems.append("not run (interrupted)")
        return out
    case, probs = load_case(path)
    if probs:
        out.problems = ["case error: " + p for p in probs]
        return out
    prog = os.path.join(opts.bindir, case.command)
    if not os.path.isfile(prog):
        out.problems.append(f"no program {case.command!r} in {opts.bindir}")
        return out
    scratch = tempfile.mkdtemp(prefix="case-", dir=opts.tmpbase)
    keep = False
    try:
        try:
            rc, stdout, stderr, hung, timeout = execute(case, opts, scratch, out)
        except OSError as e:
            out.problems.append(f"cannot run the case: {e}")
            return out
        if hung:
            out.problems.append(f"hang: still running after {timeout:g} s "
                                "(its process group was killed)")
        else:
            out.problems += check_run(case, opts, scratch, rc, stdout, stderr)
        if out.problems:
            out.details += head("stdout", stdout) + head("stderr", stderr)
            if opts.keep:
                keep = True
                out.details.append(f"kept: {scratch}")
        elif case.updated:
            out.notes.append(f"updated {case.updated}")
    finally:
        if not keep:
            shutil.rmtree(scratch, ignore_errors=True)
    return out


# --- the command line ----------------------------------------------------------------

class Usage(Exception):
    pass


def collect(paths, filters):
    found = []
    for p in paths:
        if os.path.isdir(p):
            here = []
            for root, dirs, names in os.walk(p):
                dirs[:] = [d for d in dirs if d != "_data"]
                here += [os.path.join(root, n) for n in names if n.endswith(".yaml")]
            found += sorted(here, key=os.fsencode)
        elif os.path.isfile(p):
            found.append(p)
        else:
            raise Usage(f"no such case file or folder: {p}")
    seen, cases = set(), []
    for c in found:
        key = os.path.realpath(c)
        if key in seen:
            continue
        seen.add(key)
        if not filters or any(f in c for f in filters):
            cases.append(c)
    if not cases:
        raise Usage("no cases found")
    return cases


def temp_base():
    base = "/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir()
    run = tempfile.mkdtemp(prefix="infragate-cases-", dir=base)
    # Configuration discovery walks up from the working directory and stops at a
    # folder holding .git: the cases must not see a checkout or a stray config.
    d = os.path.dirname(run)
    while True:
        for name in (".git", ".infragate.yaml", ".infragate.yml"):
            if os.path.lexists(os.path.join(d, name)):
                print(f"runcases.py: warning: {os.path.join(d, name)} is above the "
                      "case folders and may change results", file=sys.stderr)
        if d == os.path.dirname(d):
            break
        d = os.path.dirname(d)
    return run


def positive(kind):
    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number")
        if not v > 0 or (kind is float and not math.isfinite(v)):
            raise argparse.ArgumentTypeError(f"{text!r} must be > 0")
        return v
    return parse


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="runcases.py", description="Run infragate CLI cases (tests/cli/README.md).")
    ap.add_argument("--bin", metavar="DIR", default=os.path.join(REPO_ROOT, "build"),
                    help="folder holding the programs (default: build/ of the checkout)")
    ap.add_argument("--wrap", metavar="CMD", default="",
                    help='command line put before each program, e.g. "valgrind -q"')
    ap.add_argument("--filter", metavar="SUBSTR", action="append", default=[],
                    help="run only cases whose path contains SUBSTR (repeatable)")
    ap.add_argument("--timeout", metavar="SECONDS", type=positive(float),
                    default=DEFAULT_TIMEOUT,
                    help=f"timeout of a case without its own (default {DEFAULT_TIMEOUT:g})")
    ap.add_argument("--timeout-factor", metavar="F", type=positive(float), default=1.0,
                    help="multiply every timeout by F (slow wrappers)")
    ap.add_argument("--jobs", "-j", metavar="N", type=positive(int), default=2,
                    help="cases run at once (default 2)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the temporary folder of each failing case")
    ap.add_argument("paths", metavar="PATH", nargs="+", help="case file or folder")
    return ap.parse_args(argv)


def main(argv):
    ns = parse_args(argv)
    opts = Options(ns)
    try:
        if not os.path.isdir(opts.bindir):
            raise Usage(f"--bin {ns.bin}: no such folder")
        cases = collect(ns.paths, ns.filter)
    except Usage as e:
        print(f"runcases.py: {e}", file=sys.stderr)
        return 2
    opts.tmpbase = temp_base()
    passed = failed = 0
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=ns.jobs)
    try:
        for out in pool.map(lambda c: run_one(c, opts), cases):
            sys.stdout.write("".join(ln + "\n" for ln in out.lines()))
            sys.stdout.flush()
            if out.ok:
                passed += 1
            else:
                failed += 1
    except KeyboardInterrupt:
        Active.stopping.set()
        Active.kill_all()
        pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(opts.tmpbase, ignore_errors=True)
        print(f"interrupted; {passed} passed, {failed} failed", file=sys.stderr)
        return 130
    pool.shutdown()
    if not opts.keep or not failed:
        shutil.rmtree(opts.tmpbase, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
