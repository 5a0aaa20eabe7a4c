"""The simulation's compiled build (mypyc group ``ibm1013._sim``, ``setup.py``) says exactly what its
Python source says: the same report, timeline (every frame, times as exact floats) and cards
accepted, for every case of ``tests/sim_cases.py`` — clean, noisy (BER up to 1e-2), bursts, half
duplex, partial and column-binary layouts, a cut line, card mechanics.  The source half runs in a
subprocess with ``IBM1013_PURE_PYTHON=1``, which makes :mod:`emulator.compiled` (asked by
:mod:`ibm1013`) load the ``.py`` files even where the compiled modules sit beside them."""

from __future__ import annotations

import functools
import json
import operator
import os
import random
import subprocess
import sys
from pathlib import Path

import external
import sim_cases

import ibm1013
from emulator import compiled

TESTS = Path(__file__).parent
ONE_RUN = """
import json, sys
sys.path.insert(0, sys.argv[1])
import sim_cases
import ibm1013
print(json.dumps({"core": ibm1013.CORE, "cases": {n: sim_cases.outcome(n) for n in sim_cases.CASES}}))
"""


def built() -> None:
    """Skip (fail under CI) where the compiled build is not loaded."""
    if ibm1013.CORE != "compiled":
        external.unavailable("the simulation's compiled build is not loaded: pip install -e . (or "
                             "python setup.py build_ext --inplace) on a machine with a C compiler")


def test_the_compiled_modules_are_loaded():
    built()
    for name in ibm1013.SIM_MODULES:
        assert Path(sys.modules[name].__file__ or "").suffix == ".so", name


def test_compiled_and_source_builds_give_the_same_report_and_timeline():
    built()
    env = {**os.environ, "IBM1013_PURE_PYTHON": "1"}
    run = subprocess.run([sys.executable, "-c", ONE_RUN, str(TESTS)], env=env, capture_output=True,
                         text=True, timeout=600, check=True)
    source = json.loads(run.stdout)
    assert source["core"] == "python"
    assert sorted(source["cases"]) == sorted(sim_cases.CASES)
    for name in sim_cases.CASES:
        assert sim_cases.outcome(name) == source["cases"][name], name


def test_the_source_runs_when_asked_for():
    env = {**os.environ, "IBM1013_PURE_PYTHON": "1"}
    code = ("import ibm1013, ibm1013.sim.terminal, emulator.sim.line\n"
            "print(ibm1013.CORE, ibm1013.sim.terminal.__file__, emulator.sim.line.__file__)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                         check=True).stdout.split()
    assert out[0] == "python" and out[1].endswith("terminal.py") and out[2].endswith("line.py")


def test_an_edit_newer_than_the_compiled_module_is_noticed(tmp_path):
    source, module, group = tmp_path / "line.py", tmp_path / "line.so", tmp_path / "_sim__mypyc.so"
    for f, when in ((source, 2000), (module, 1000), (group, 1000)):
        f.write_text("")
        os.utime(f, (when, when))
    assert compiled.edited(str(source), str(module), str(group))
    os.utime(group, (3000, 3000))            # a rebuild that rewrote only the group module
    assert not compiled.edited(str(source), str(module), str(group))
    os.utime(group, (1000, 1000))            # a rebuild whose group failed: only the stubs are new
    os.utime(module, (3000, 3000))
    assert compiled.edited(str(source), str(module), str(group))
    os.utime(source, (500, 500))
    assert not compiled.edited(str(source), str(module), None)


def test_the_built_module_is_found_from_one_listing_per_directory(tmp_path):
    """:func:`~emulator.compiled.compiled_file` lists each directory once (start-up: no failed
    ``stat`` per suffix per module) and finds what a ``stat`` per suffix finds."""
    from importlib.machinery import EXTENSION_SUFFIXES

    (tmp_path / f"built{EXTENSION_SUFFIXES[-1]}").write_bytes(b"")
    (tmp_path / "source.py").write_text("")
    listings: dict[str, frozenset[str]] = {}
    found = [compiled.compiled_file(str(tmp_path / name), listings) for name in ("built", "source", "none")]
    assert found == [str(tmp_path / f"built{EXTENSION_SUFFIXES[-1]}"), None, None]
    assert found == [next((str(tmp_path / name) + s for s in EXTENSION_SUFFIXES
                           if os.path.exists(str(tmp_path / name) + s)), None)
                     for name in ("built", "source", "none")]
    assert list(listings) == [str(tmp_path)]
    assert compiled.compiled_file(str(tmp_path / "missing" / "built")) is None


LRC_RUN = """
import json, random
from ibm1013.str import fourofeight as fo
rng = random.Random(1013)
samples = [bytes(rng.randrange(256) for _ in range(n)) for n in [*range(300), 400, 513, 1000]]
refused = fo.barred(fo.CARD_CHARS)
allowed = [fo.lrc_if_allowed(s, refused) for s in samples]
cards = [bytes(rng.choice(fo.CARD_CHARS) for _ in range(80)) for _ in range(50)]
allowed += [fo.lrc_if_allowed(s, refused) for s in cards]
print(json.dumps({"compiled": fo._COMPILED, "lrcs": [fo.lrc(s) for s in samples], "allowed": allowed}))
"""


def test_each_build_takes_its_own_lrc_loop_and_both_give_the_xor():
    """:func:`ibm1013.str.fourofeight.lrc` (and ``lrc_if_allowed``) loop over the bytes when compiled and
    fold a big integer as source: both are the XOR of the characters."""
    built()
    runs = {}
    for build, pure in (("compiled", ""), ("python", "1")):
        env = {**os.environ, "IBM1013_PURE_PYTHON": pure}
        out = subprocess.run([sys.executable, "-c", LRC_RUN], env=env, capture_output=True, text=True,
                             timeout=60, check=True)
        runs[build] = json.loads(out.stdout)
    assert runs["compiled"]["compiled"] is True and runs["python"]["compiled"] is False
    rng = random.Random(1013)
    samples = [bytes(rng.randrange(256) for _ in range(n)) for n in [*range(300), 400, 513, 1000]]
    xors = [functools.reduce(operator.xor, s, 0) for s in samples]
    assert runs["compiled"]["lrcs"] == xors and runs["python"]["lrcs"] == xors
    assert runs["compiled"]["allowed"] == runs["python"]["allowed"]
    assert runs["compiled"]["allowed"][:len(xors)].count(-1) > 290      # random bytes: refused
    assert -1 not in runs["compiled"]["allowed"][len(xors):]              # card characters only
