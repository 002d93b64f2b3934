#!/usr/bin/python3
"""Self-test of tests/cli/runcases.py: run: /usr/bin/python3 tests/cli/test_runner.py

Each test writes cases into a temporary folder, runs the runner on them against a bin
folder of small shell scripts, and checks which cases pass and which fail (every check
kind must both pass when it holds and fail when it does not).
"""

import os
import re
import shutil
import subprocess
import tempfile
import textwrap
import time
import unittest

import yaml

HERE = os.path.dirname(os.path.realpath(__file__))
RUNNER = os.path.join(HERE, "runcases.py")
PYTHON = "/usr/bin/python3"

SCRIPTS = {
    # say TEXT [ERR [RC]]: TEXT on stdout exactly, ERR on stderr, exit RC
    "say": 'printf "%s" "$1"\n[ -n "$2" ] && printf "%s" "$2" >&2\nexit "${3:-0}"\n',
    "lines": 'for a in "$@"; do printf "%s\\n" "$a"; done\n',
    "catin": 'exec cat "$@"\n',
    "mk": 'for f in "$@"; do mkdir -p "$(dirname "$f")"; : > "$f"; done\n',
    "showenv": ('printf "LC_ALL=%s\\n" "$LC_ALL"\n'
                'printf "HOME_SET=%s\\n" "${INFRAGATE_HOME+yes}"\n'
                'printf "INFRAGATE_HOME=%s\\n" "$INFRAGATE_HOME"\n'
                'printf "NO_COLOR_SET=%s\\n" "${NO_COLOR+yes}"\n'
                'printf "FOO=%s\\n" "$FOO"\n'
                'printf "PWD=%s\\n" "$(pwd)"\n'),
    "sleeper": 'sleep 300 &\necho $! > "$PIDFILE"\nwait\n',
    "crash": 'kill -SEGV $$\n',
    "slowok": 'sleep "$1"\necho done\n',
}


def case(command, args=(), **rest):
    doc = {"about": "self-test case", "command": command, "args": list(args)}
    doc.update(rest)
    return doc


def jcase(text, *facts, **expect):
    """A case printing the JSON text and checking facts on it."""
    exp = {"rc": 0, "stdout_json": True, "facts": list(facts)}
    exp.update(expect)
    return case("say", [text], expect=exp)


class Run:
    def __init__(self, proc, folder):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr
        self.status = {}
        self.line = {}
        for ln in self.out.splitlines():
            m = re.match(r"(ok  |FAIL) (\S+?)(?::|$)", ln)
            if m and m.group(2).startswith(folder):
                name = os.path.relpath(m.group(2), folder)
                self.status[name] = m.group(1).strip()
                self.line[name] = ln


class RunnerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="runcases-selftest-")
        cls.bin = os.path.join(cls.tmp, "bin")
        os.mkdir(cls.bin)
        for name, body in SCRIPTS.items():
            path = os.path.join(cls.bin, name)
            with open(path, "w") as f:
                f.write("#!/bin/sh\n" + body)
            os.chmod(path, 0o755)
        os.symlink(PYTHON, os.path.join(cls.bin, "py"))
        cls.serial = 0

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def write_cases(self, cases):
        RunnerTest.serial += 1
        folder = os.path.join(self.tmp, f"cases{self.serial}")
        for name, doc in cases.items():
            path = os.path.join(folder, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(doc if isinstance(doc, str) else
                        yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))
        return folder

    def run_runner(self, args, env=None):
        full_env = dict(os.environ)
        full_env.pop("UPDATE_GOLDEN", None)
        full_env.update(env or {})
        return subprocess.run([PYTHON, RUNNER] + args, capture_output=True, text=True,
                              env=full_env, timeout=120)

    def run_cases(self, cases, *opts, env=None, folder=None):
        """cases: {file name: case mapping or YAML text}; returns a Run."""
        folder = folder or self.write_cases(cases)
        proc = self.run_runner(["--bin", self.bin, *opts, folder], env)
        return Run(proc, folder)

    def expect(self, run, passing=(), failing=()):
        for name in passing:
            self.assertEqual(run.status.get(name), "ok",
                             f"{name} should pass\n{run.out}{run.err}")
        for name in failing:
            self.assertEqual(run.status.get(name), "FAIL",
                             f"{name} should fail\n{run.out}{run.err}")
        total = len(passing) + len(failing)
        self.assertEqual(len(run.status), total, run.out + run.err)
        nfail = len(failing)
        self.assertTrue(run.out.endswith(f"{total - nfail} passed, {nfail} failed\n"),
                        run.out)
        self.assertEqual(run.rc, 1 if nfail else 0, run.out + run.err)

    def check(self, good, bad, opts=(), env=None):
        cases = {f"good-{k}.yaml": v for k, v in good.items()}
        cases.update({f"bad-{k}.yaml": v for k, v in bad.items()})
        run = self.run_cases(cases, *opts, env=env)
        self.expect(run, [f"good-{k}.yaml" for k in good], [f"bad-{k}.yaml" for k in bad])
        return run

    # --- facts --------------------------------------------------------------------

    def test_equals(self):
        doc = '{"n": 1, "t": true, "f": false, "x": 2.0, "s": "a", "z": null,' \
              ' "l": [1, {"k": "v"}], "o": {"a": 1, "b": [true]}}'
        self.check(
            good={
                "int": jcase(doc, {"path": "/n", "equals": 1}),
                "int-as-float": jcase(doc, {"path": "/n", "equals": 1.0}),
                "float-as-int": jcase(doc, {"path": "/x", "equals": 2}),
                "bool": jcase(doc, {"path": "/t", "equals": True},
                              {"path": "/f", "equals": False}),
                "null": jcase(doc, {"path": "/z", "equals": None}),
                "list": jcase(doc, {"path": "/l", "equals": [1.0, {"k": "v"}]}),
                "object": jcase(doc, {"path": "/o", "equals": {"b": [True], "a": 1}}),
                "root": jcase('[1, 2]', {"path": "", "equals": [1, 2]}),
            },
            bad={
                "one-vs-true": jcase(doc, {"path": "/t", "equals": 1}),
                "true-vs-one": jcase(doc, {"path": "/n", "equals": True}),
                "zero-vs-false": jcase('{"a": 0}', {"path": "/a", "equals": False}),
                "string-vs-number": jcase(doc, {"path": "/n", "equals": "1"}),
                "null-vs-false": jcase(doc, {"path": "/z", "equals": False}),
                "nested-bool": jcase(doc, {"path": "/o", "equals": {"a": 1, "b": [1]}}),
                "extra-member": jcase(doc, {"path": "/o",
                                            "equals": {"a": 1, "b": [True], "c": 2}}),
                "list-order": jcase('[1, 2]', {"path": "", "equals": [2, 1]}),
                "missing": jcase(doc, {"path": "/nope", "equals": 1}),
            })

    def test_type(self):
        doc = '{"i": 1504, "f": 1504.0, "e": 1e3, "neg": -7, "b": true, "s": "x",' \
              ' "z": null, "l": [], "o": {}}'
        good = {f"{t}-{k}": jcase(doc, {"path": f"/{k}", "type": t})
                for t, k in (("int", "i"), ("int", "neg"), ("float", "f"), ("float", "e"),
                             ("bool", "b"), ("string", "s"), ("null", "z"),
                             ("list", "l"), ("object", "o"))}
        good["beside-equals"] = jcase(doc, {"path": "/i", "equals": 1504, "type": "int"})
        self.check(
            good=good,
            bad={
                "int-on-float": jcase(doc, {"path": "/f", "type": "int"}),
                "int-on-exponent": jcase(doc, {"path": "/e", "type": "int"}),
                "float-on-int": jcase(doc, {"path": "/i", "type": "float"}),
                "int-on-bool": jcase(doc, {"path": "/b", "type": "int"}),
                "equals-ok-type-not": jcase(doc, {"path": "/f", "equals": 1504,
                                                  "type": "int"}),
                "unknown-type": jcase(doc, {"path": "/i", "type": "integer"}),
            })

    def test_approx(self):
        doc = '{"a": 100.00000000000003, "b": 1.0000000001, "c": 10.5, "t": true}'
        self.check(
            good={
                "rel": jcase(doc, {"path": "/a", "approx": 100, "rel": 1e-12}),
                "default-rel": jcase(doc, {"path": "/b", "approx": 1}),
                "abs": jcase(doc, {"path": "/c", "approx": 10, "abs": 0.5}),
                "either-abs": jcase(doc, {"path": "/c", "approx": 10, "rel": 1e-9,
                                          "abs": 0.6}),
                "either-rel": jcase(doc, {"path": "/c", "approx": 10, "rel": 0.1,
                                          "abs": 0.01}),
            },
            bad={
                "rel": jcase(doc, {"path": "/c", "approx": 10, "rel": 0.01}),
                "default-rel": jcase(doc, {"path": "/c", "approx": 10.5000001}),
                "abs": jcase(doc, {"path": "/c", "approx": 10, "abs": 0.4}),
                "both": jcase(doc, {"path": "/c", "approx": 10, "rel": 0.01, "abs": 0.1}),
                "bool": jcase(doc, {"path": "/t", "approx": 1}),
                "rel-without-approx": jcase(doc, {"path": "/c", "equals": 10.5,
                                                  "rel": 0.1}),
            })

    def test_set_contains_length_absent(self):
        doc = '{"r": ["b", "a", "c"], "d": [1, 1, 2], "s": "h\u00e9llo", "o": {"x": 1, "y": 2},' \
              ' "e": [], "flags": [true]}'
        self.check(
            good={
                "set": jcase(doc, {"path": "/r", "set": ["a", "b", "c"]}),
                "set-dup": jcase(doc, {"path": "/d", "set": [2, 1, 1.0]}),
                "contains": jcase(doc, {"path": "/r", "contains": ["c", "a"]}),
                "contains-empty": jcase(doc, {"path": "/e", "contains": []}),
                "length-list": jcase(doc, {"path": "/r", "length": 3}),
                "length-string": jcase(doc, {"path": "/s", "length": 5}),
                "length-object": jcase(doc, {"path": "/o", "length": 2}),
                "absent": jcase(doc, {"path": "/gone", "absent": True},
                                {"path": "/r/3", "absent": True},
                                {"path": "/r/-", "absent": True}),
                "present": jcase(doc, {"path": "/o/x", "absent": False}),
            },
            bad={
                "set-missing": jcase(doc, {"path": "/r", "set": ["a", "b"]}),
                "set-extra": jcase(doc, {"path": "/r", "set": ["a", "b", "c", "d"]}),
                "set-dup": jcase(doc, {"path": "/d", "set": [1, 2, 2]}),
                "set-bool": jcase(doc, {"path": "/flags", "set": [1]}),
                "contains": jcase(doc, {"path": "/r", "contains": ["z"]}),
                "contains-twice": jcase(doc, {"path": "/r", "contains": ["a", "a"]}),
                "length-string": jcase(doc, {"path": "/s", "length": 6}),
                "length-object": jcase(doc, {"path": "/o", "length": 1}),
                "length-number": jcase(doc, {"path": "/o/x", "length": 1}),
                "absent": jcase(doc, {"path": "/o/x", "absent": True}),
                "absent-with-check": jcase(doc, {"path": "/gone", "absent": True,
                                                 "equals": 1}),
                "present": jcase(doc, {"path": "/gone", "absent": False}),
            })

    def test_pointer(self):
        doc = '{"a/b": {"m~n": 1}, "": {"": 2}, "l": [10, 20]}'
        self.check(
            good={
                "escapes": jcase(doc, {"path": "/a~1b/m~0n", "equals": 1}),
                "empty-keys": jcase(doc, {"path": "//", "equals": 2}),
                "index": jcase(doc, {"path": "/l/1", "equals": 20}),
            },
            bad={
                "unescaped": jcase(doc, {"path": "/a/b/m~0n", "equals": 1}),
                "leading-zero": jcase(doc, {"path": "/l/01", "equals": 20}),
                "bad-escape": jcase(doc, {"path": "/a~2b", "equals": 1}),
                "no-slash": jcase(doc, {"path": "l/0", "equals": 10}),
            })

    def test_regex_and_startswith(self):
        doc = '{"tool": "infragate", "version": "0.1.0", "verb": "lint", "n": 3}'
        self.check(
            good={
                "regex": jcase(doc, {"path": "/version", "regex": r"^\d+\.\d+\.\d+$"}),
                "startswith": jcase(doc, {"path": "", "startswith":
                                          ["tool", "version", "verb"]}),
            },
            bad={
                "regex": jcase(doc, {"path": "/tool", "regex": "^lint"}),
                "regex-number": jcase(doc, {"path": "/n", "regex": "3"}),
                "startswith-order": jcase(doc, {"path": "", "startswith":
                                                ["version", "tool", "verb"]}),
                "bad-regex": jcase(doc, {"path": "/tool", "regex": "("}),
            })

    def test_not_json(self):
        self.check(
            good={"json": jcase('  {"a": 1}\n')},
            bad={
                "text": jcase("hello"),
                "two-documents": jcase('{"a": 1} {"b": 2}'),
                "nan": jcase('{"a": NaN}'),
                "infinity": jcase('{"a": 1e999}'),
                "duplicate-key": jcase('{"a": 1, "a": 1}'),
                "empty": jcase(""),
            })

    # --- the case format ----------------------------------------------------------

    def test_unknown_keys_fail(self):
        ok = jcase('{"a": 1}', {"path": "/a", "equals": 1})
        top = dict(ok, stderr_contains=["x"])
        exp = dict(ok, expect=dict(ok["expect"], stderr_contains=["x"]))
        lines = dict(ok, expect=dict(ok["expect"], stdout_json_lines=True))
        fact = dict(ok, expect=dict(ok["expect"], facts=[{"path": "/a", "equal": 1}]))
        fact2 = dict(ok, expect=dict(ok["expect"],
                                     facts=[{"path": "/a", "equals": 1, "approxx": 1}]))
        run = self.check(good={"ok": ok},
                         bad={"top": top, "expect": exp, "json-lines": lines,
                              "fact": fact, "fact-beside": fact2})
        self.assertIn("'stderr_contains'", run.line["bad-expect.yaml"])
        self.assertIn("'equal'", run.line["bad-fact.yaml"])

    def test_case_shape(self):
        ok = case("say", ["x"], expect={"rc": 0})
        dup = textwrap.dedent("""\
            about: a key written twice
            command: say
            args: [x]
            expect: {rc: 1}
            expect: {rc: 0}
            """)
        date_text = textwrap.dedent("""\
            about: an unquoted date is not a JSON value
            command: say
            args: ['"2026-01-01"']
            expect:
              stdout_json: true
              facts: [{path: "", equals: 2026-01-01}]
            """)
        self.check(
            good={"ok": ok,
                  "numbers-in-args": case("lines", ["gate", "--density", 40, 2.5],
                                          expect={"stdout_equals":
                                                  "gate\n--density\n40\n2.5\n"})},
            bad={
                "no-about": {"command": "say", "args": ["x"], "expect": {"rc": 0}},
                "about-not-string": dict(ok, about=3),
                "no-command": {"about": "x", "args": [], "expect": {"rc": 0}},
                "no-expect": case("say", ["x"]),
                "empty-expect": case("say", ["x"], expect={}),
                "bool-arg": case("say", [True], expect={"rc": 0}),
                "null-arg": case("say", [None], expect={"rc": 0}),
                "args-not-list": dict(ok, args="x"),
                "contains-not-list": case("say", ["x"], expect={"stdout_contains": "x"}),
                "no-program": case("nosuch", expect={"rc": 0}),
                "duplicate-key": dup,
                "yaml-date": date_text,
                "not-a-mapping": "- just\n- a list\n",
                "bad-yaml": "about: [unclosed\n",
                "fact-checks-nothing": jcase("1", {"path": ""}),
                "facts-without-json": case("say", ["1"], expect={
                    "stdout_json": False, "facts": [{"path": "", "equals": 1}]}),
                "rc-bool": case("say", ["x"], expect={"rc": False}),
                "files-escape": case("say", ["x"], files={"../x": "y"}, expect={"rc": 0}),
            })

    # --- text, exit code, files -----------------------------------------------------

    def test_text_checks(self):
        two = case("say", ["first line\nsecond 99.7813\n"], expect={"rc": 0})

        def with_exp(**exp):
            return dict(two, expect=dict(two["expect"], **exp))
        self.check(
            good={
                "rc": with_exp(),
                "rc3": case("say", ["", "oops", 3], expect={"rc": 3, "stderr_nonempty": True,
                                                            "stdout_empty": True}),
                "contains": with_exp(stdout_contains=["99.7813", "first"]),
                "not-contains": with_exp(stdout_not_contains=["third"]),
                "equals": with_exp(stdout_equals="first line\nsecond 99.7813\n"),
                "lines": with_exp(stdout_lines=2),
                "lines-unterminated": case("say", ["a\nb"], expect={"stdout_lines": 2}),
                "regex": with_exp(stdout_regex=[r"^second \d+\.\d+$", "line"]),
                "stderr-empty": with_exp(stderr_empty=True),
                "stderr-regex": case("say", ["", "error: bad\nline 2"], expect={
                    "stderr_regex": [r"^line \d$", "bad"]}),
                "xml": case("say", ['<?xml version="1.0"?><testsuites><a/></testsuites>'],
                            expect={"stdout_xml": True}),
            },
            bad={
                "rc": case("say", ["x", "", 1], expect={"rc": 0}),
                "rc-other": case("say", ["x"], expect={"rc": 2}),
                "contains": with_exp(stdout_contains=["99.7814"]),
                "not-contains": with_exp(stdout_not_contains=["second"]),
                "equals": with_exp(stdout_equals="first line\nsecond 99.7813"),
                "lines": with_exp(stdout_lines=3),
                "regex": with_exp(stdout_regex=["^line"]),
                "stdout-empty": with_exp(stdout_empty=True),
                "stderr-empty": case("say", ["", "noise"], expect={"stderr_empty": True}),
                "stderr-nonempty": with_exp(stderr_nonempty=True),
                "stderr-blank": case("say", ["", "  \n"], expect={"stderr_nonempty": True}),
                "stderr-regex": case("say", ["", "error"], expect={"stderr_regex": ["^x"]}),
                "xml": case("say", ["<a><b></a>"], expect={"stdout_xml": True}),
                "crash": case("crash", expect={"stdout_empty": True}),
            })

    def test_files_stdin(self):
        payload = "kind: demo-item\nname: small\n"
        self.check(
            good={
                "nested": case("catin", ["dir/sub/a.yaml"], files={"dir/sub/a.yaml": payload},
                               expect={"rc": 0, "stdout_equals": payload}),
                "base64": case("catin", ["bin.dat"], files={"bin.dat": {"base64": "AAH/Cg=="}},
                               expect={"stdout_regex": ["^\x00\x01"], "stdout_lines": 1}),
                "copy-file": case("catin", ["r.py"],
                                  files={"r.py": {"copy": "tests/cli/runcases.py"}},
                                  expect={"stdout_contains": ["def check_fact("]}),
                "copy-folder": case("catin", ["t/runcases.py"],
                                    files={"t": {"copy": "tests/cli"}},
                                    expect={"stdout_contains": ["def check_fact("]}),
                "symlink": case("catin", ["link.yaml"],
                                files={"a.yaml": "linked\n", "link.yaml": {"symlink": "a.yaml"}},
                                expect={"stdout_equals": "linked\n"}),
                "stdin": case("catin", stdin="fed\n", expect={"stdout_equals": "fed\n"}),
                "no-stdin": case("catin", expect={"rc": 0, "stdout_empty": True}),
                "present-absent": case("mk", ["out/report.xml"], files={"in.yaml": "x"},
                                       expect={"files_present": ["out/report.xml", "in.yaml"],
                                               "files_absent": ["other"]}),
            },
            bad={
                "present": case("mk", ["a"], expect={"files_present": ["b"]}),
                "absent": case("mk", ["a"], expect={"files_absent": ["a"]}),
                "copy-missing": case("catin", ["x"], files={"x": {"copy": "no/such/file"}},
                                     expect={"rc": 0}),
                "base64-bad": case("catin", ["x"], files={"x": {"base64": "@@@"}},
                                   expect={"rc": 0}),
                "file-spec": case("catin", ["x"], files={"x": {"text": "y"}},
                                  expect={"rc": 0}),
                "symlink-empty": case("catin", ["x"], files={"x": {"symlink": ""}},
                                      expect={"rc": 0}),
            })

    def test_environment_cwd_argv0(self):
        env = {"INFRAGATE_HOME": "/leak", "NO_COLOR": "1", "LC_ALL": "POSIX", "FOO": "outer"}
        self.check(
            good={
                "defaults": case("showenv", expect={"stdout_contains": [
                    "LC_ALL=C.UTF-8\n", "HOME_SET=\n", "NO_COLOR_SET=\n", "FOO=outer\n"]}),
                "case-env": case("showenv", env={"INFRAGATE_HOME": "/h", "LC_ALL": "C",
                                                 "FOO": None},
                                 expect={"stdout_contains": ["INFRAGATE_HOME=/h\n",
                                                             "LC_ALL=C\n", "FOO=\n"]}),
                "cwd": case("showenv", cwd="a/b", files={"a/b/x.yaml": "x"},
                            expect={"stdout_regex": [r"^PWD=/tmp/.*/a/b$"],
                                    "stdout_not_contains": ["PWD=/work"]}),
                "argv0": case("py", ["-c", "import sys; print(sys.orig_argv[0])"],
                              argv0="pue-ladder", expect={"stdout_equals": "pue-ladder\n"}),
            },
            bad={
                "cwd-escape": case("showenv", cwd="../x", expect={"rc": 0}),
                "env-bool": case("showenv", env={"FOO": True}, expect={"rc": 0}),
            },
            env=env)

    def test_wrap(self):
        self.check(
            good={
                "wrapped": case("showenv", expect={"stdout_contains": ["FOO=wrapped\n"]}),
                "argv0": case("py", ["-c", "import sys, os; print(os.path.basename("
                                     "sys.orig_argv[0]))"],
                              argv0="edge-placement",
                              expect={"stdout_equals": "edge-placement\n"}),
            },
            bad={}, opts=["--wrap", "env FOO=wrapped"])

    def test_hang(self):
        pidfile = os.path.join(self.tmp, "sleeper.pid")
        start = time.monotonic()
        run = self.check(
            good={"quick": case("slowok", ["0"], timeout=5, expect={"stdout_equals": "done\n"})},
            bad={"sleeps": case("sleeper", timeout=1, env={"PIDFILE": pidfile},
                                expect={"rc": 0})})
        self.assertLess(time.monotonic() - start, 15)
        self.assertRegex(run.line["bad-sleeps.yaml"], r": hang\b")
        # the background child of the script went with its process group
        with open(pidfile) as f:
            pid = int(f.read())
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
            except FileNotFoundError:
                break
            if state == "Z":
                break
            time.sleep(0.05)
        else:
            self.fail(f"process {pid} survived the hang")

    def test_timeout_options(self):
        self.check(good={"fast": case("slowok", ["0"], expect={"rc": 0})},
                   bad={"slow": case("slowok", ["3"], expect={"rc": 0})},
                   opts=["--timeout", "1"])
        self.check(good={"scaled": case("slowok", ["1.5"], timeout=1, expect={"rc": 0})},
                   bad={}, opts=["--timeout-factor", "3"])

    def test_golden(self):
        cases = {
            "match.yaml": case("say", ["hello\n"], expect={"stdout_file": "_data/match.out"}),
            "differ.yaml": case("say", ["hello\nnew\n"],
                                expect={"stdout_file": "_data/differ.out"}),
            "missing.yaml": case("say", ["x"], expect={"stdout_file": "_data/missing.out"}),
        }
        folder = self.write_cases(cases)
        os.makedirs(os.path.join(folder, "_data"))
        for name, text in (("match.out", "hello\n"), ("differ.out", "hello\nold\n")):
            with open(os.path.join(folder, "_data", name), "w") as f:
                f.write(text)
        # _data holds a .yaml that must not be taken for a case
        with open(os.path.join(folder, "_data", "not-a-case.yaml"), "w") as f:
            f.write("junk: [\n")
        run = self.run_cases(None, folder=folder)
        self.expect(run, ["match.yaml"], ["differ.yaml", "missing.yaml"])
        self.assertIn("+new", run.out)
        self.assertIn("-old", run.out)
        run = self.run_cases(None, folder=folder, env={"UPDATE_GOLDEN": "1"})
        self.expect(run, ["match.yaml", "differ.yaml", "missing.yaml"])
        with open(os.path.join(folder, "_data", "differ.out")) as f:
            self.assertEqual(f.read(), "hello\nnew\n")
        with open(os.path.join(folder, "_data", "missing.out")) as f:
            self.assertEqual(f.read(), "x")
        run = self.run_cases(None, folder=folder)
        self.expect(run, ["match.yaml", "differ.yaml", "missing.yaml"])

    # --- the runner's command line ------------------------------------------------

    def test_order_filter_and_output(self):
        cases = {f"{n}.yaml": case("slowok", ["0.%d" % (9 - i)], expect={"rc": 0})
                 for i, n in enumerate(["b", "a/z", "a.b", "c", "a/a"])}
        cases["B.yaml"] = case("say", ["x"], expect={"rc": 1})
        folder = self.write_cases(cases)
        run = self.run_cases(None, "--jobs", "4", folder=folder)
        names = [ln.split()[1].rstrip(":") for ln in run.out.splitlines()[:-1]
                 if not ln.startswith(" ")]
        rel = [os.path.relpath(n, folder) for n in names]
        self.assertEqual(rel, ["B.yaml", "a.b.yaml", "a/a.yaml", "a/z.yaml", "b.yaml",
                               "c.yaml"])
        self.assertEqual(run.rc, 1)
        self.assertRegex(run.out, r"(?m)^FAIL \S+/B\.yaml: rc: expected 1, got 0$")
        self.assertRegex(run.out, r"(?m)^    stdout \(1 line\):\n      \| x$")
        self.assertRegex(run.out, r"(?m)^    stderr: \(empty\)$")
        self.assertTrue(run.out.endswith("5 passed, 1 failed\n"))
        run = self.run_cases(None, "--filter", "a/", folder=folder)
        self.expect(run, ["a/a.yaml", "a/z.yaml"])
        one = os.path.join(folder, "c.yaml")
        proc = self.run_runner(["--bin", self.bin, one])
        self.assertEqual(proc.stdout, f"ok   {one}\n1 passed, 0 failed\n")
        self.assertEqual(proc.returncode, 0)

    def test_usage_errors(self):
        folder = self.write_cases({"a.yaml": case("say", ["x"], expect={"rc": 0})})
        empty = os.path.join(self.tmp, "empty-folder")
        os.makedirs(empty, exist_ok=True)
        for args in (["--bin", self.bin, "--frobnicate", folder],
                     ["--bin", self.bin],
                     ["--bin", self.bin, empty],
                     ["--bin", self.bin, os.path.join(self.tmp, "no-such")],
                     ["--bin", os.path.join(self.tmp, "no-bin"), folder],
                     ["--bin", self.bin, "--filter", "zzz", folder],
                     ["--bin", self.bin, "--jobs", "0", folder],
                     ["--bin", self.bin, "--timeout", "-1", folder]):
            proc = self.run_runner(args)
            self.assertEqual(proc.returncode, 2, f"{args}: {proc.stdout}{proc.stderr}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
