"""The solver's compiled core (mypyc, ``setup.py``) searches exactly as its Python source does, and the
package loads the source where the compiled modules are missing or older than an edit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import external

from decks import engine, solver

CASES = [("klondike-flip3", 1, 4000), ("klondike-flip3", 5, 4000), ("king-albert", 2, 4000),
         ("la-belle-lucie", 3, 4000), ("klondike", 23, 2000), ("indian", 4, 2000), ("parallels", 1, 1500),
         ("the-plot", 2, 1500), ("queen-of-italy", 1, 1500), ("colorado", 2, 1500), ("spiderette", 1, 2000),
         ("auld-lang-syne", 12, 2000), ("british-constitution", 5, 1500), ("agnes", 1, 2000)]
"""Games whose search runs through every part of the core: native stock turns, the engine's
actions and hooks, two packs, gap filling, a hand card, a game lost outright."""

ONE_RUN = """
import json, sys
from decks import engine, solver
out = []
for game, deal, nodes in json.loads(sys.argv[1]):
    r = solver.solve(engine.deal(game, deal), nodes)
    out.append([solver.CORE, r.status, r.nodes, r.best_home, [str(m) for m in r.moves or r.best_moves]])
print(json.dumps(out))
"""


def compiled() -> None:
    """Skip (fail under CI) where the compiled core is not loaded."""
    if solver.CORE != "compiled":
        external.unavailable("the solver's compiled core is not built: pip install -e . on a machine "
                             "with a C compiler")


def test_the_compiled_core_is_loaded():
    compiled()
    from decks.solver import position, search
    assert Path(position.__file__).suffix == Path(search.__file__).suffix == ".so"


def test_compiled_and_python_cores_search_alike_node_for_node():
    compiled()
    env = {**os.environ, "IBM1013_PURE_PYTHON": "1"}
    run = subprocess.run([sys.executable, "-c", ONE_RUN, json.dumps(CASES)], env=env, capture_output=True,
                         text=True, timeout=300, check=True)
    python = json.loads(run.stdout)
    for (game, deal, nodes), (core, status, count, home, moves) in zip(CASES, python, strict=True):
        assert core == "python"
        r = solver.solve(engine.deal(game, deal), nodes)
        assert [r.status, r.nodes, r.best_home, [str(m) for m in r.moves or r.best_moves]] == \
            [status, count, home, moves], (game, deal)


def make_tree(tmp_path: Path, source_newer: bool) -> tuple[str, str, str]:
    """A checkout holding one compiled solver module: its root, source and compiled file."""
    compiled_file = tmp_path / "decks" / "solver" / "position.cpython-311-x86_64-linux-gnu.so"
    compiled_file.parent.mkdir(parents=True)
    (tmp_path / "setup.py").write_text("")
    source = compiled_file.with_name("position.py")
    source.write_text("")
    compiled_file.write_bytes(b"")
    os.utime(compiled_file, (1000, 1000))
    os.utime(source, (2000 if source_newer else 500,) * 2)
    return str(tmp_path), str(source), str(compiled_file)


def test_an_edit_newer_than_the_compiled_module_is_noticed_in_a_checkout(tmp_path):
    """The solver's build is chosen by the one loader (:mod:`emulator.compiled`), as the simulation's is."""
    from emulator.compiled import edited

    root, source, module = make_tree(tmp_path / "a", source_newer=True)
    assert edited(source, module, None, root)
    root, source, module = make_tree(tmp_path / "b", source_newer=False)
    assert not edited(source, module, None, root)
    root, source, module = make_tree(tmp_path / "c", source_newer=True)
    os.unlink(os.path.join(root, "setup.py"))        # site-packages: no setup.py above the package
    assert not edited(source, module, None, root)
    root, source, module = make_tree(tmp_path / "d", source_newer=True)  # a build that rewrote the group only
    group = os.path.join(os.path.dirname(module), "_core__mypyc.cpython-311-x86_64-linux-gnu.so")
    Path(group).write_bytes(b"")
    os.utime(group, (3000, 3000))
    assert not edited(source, module, group, root)
    os.utime(group, (1500, 1500))
    assert edited(source, module, group, root)


def test_the_source_runs_when_asked_for():
    env = {**os.environ, "IBM1013_PURE_PYTHON": "1"}
    code = "from decks import solver\nprint(solver.CORE, solver.position.__file__)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                         check=True).stdout.split()
    assert out[0] == "python" and out[1].endswith("position.py")
