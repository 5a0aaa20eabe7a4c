"""The shared registry behind :func:`emulator.codes.get_code` and :func:`emulator.formats.get_format`."""

from __future__ import annotations

import pytest

from emulator.codes import code_names, get_code
from emulator.errors import CardError, IbmError
from emulator.formats import format_names, get_format


def test_every_public_module_registers_on_first_lookup():
    assert {"029", "026-commercial", "026-fortran", "simh029", "dec029", "simh026", "ge635"} <= set(
        code_names()
    )
    assert {"bin", "cbn", "ebcdic", "text", "art", "rowbin", "i1401", "i1401-cbn", "i7094"} <= set(
        format_names()
    )
    assert code_names() == sorted(code_names()) and format_names() == sorted(format_names())


def test_the_listed_names_are_the_registered_ones():
    from emulator.codes import CODE_NAMES
    from emulator.formats import FORMAT_NAMES

    assert list(CODE_NAMES) == code_names() and list(FORMAT_NAMES) == format_names()


def test_aliases_find_the_code_but_are_not_listed():
    assert get_code("bcd") is get_code("ge635") and get_code("026c") is get_code("026-commercial")
    assert "bcd" not in code_names() and "026c" not in code_names()


def test_unknown_names_list_the_known_ones():
    with pytest.raises(CardError, match=r"unknown card code 'x' \(known: 026-commercial, 026-fortran, 029"):
        get_code("x")
    with pytest.raises(CardError, match=r"unknown deck format 'y' \(known: art, bin, cbn"):
        get_format("y")


def test_output_format_follows_the_name_then_the_extension():
    from emulator.formats import output_format

    assert output_format("deck.TXT") == "text" and output_format("deck.ebc") == "ebcdic"
    assert output_format("deck.cbn", "bin") == "bin"
    assert output_format("deck.unknown") == "cbn" and output_format("deck", "auto") == "cbn"


def test_a_registry_with_no_games_is_an_error(monkeypatch, tmp_path):
    """``decks.games`` found in a folder with no game modules (one that hides the package) says so."""
    import decks.games
    from decks.engine import registry

    monkeypatch.setattr(registry.GAMES, "_by_name", {})
    monkeypatch.setattr(registry.GAMES, "_loaded", False)
    monkeypatch.setattr(decks.games, "__path__", [str(tmp_path)])
    with pytest.raises(IbmError, match=f"no solitaire games found: decks.games was imported from {tmp_path}"):
        registry.game_names()
    with pytest.raises(IbmError, match="no solitaire games found"):
        registry.get_game("klondike")


def test_the_registry_finds_the_modules_pkgutil_finds(tmp_path):
    """The registries list a package's modules without pkgutil (it imports inspect, slow to load on
    every deck command): the same names, in the same order, for every package of the project and for
    a folder of odd files."""
    import pkgutil

    import decks
    import emulator
    import emulator.codes
    import emulator.formats
    import ibm1013
    from emulator.registry import module_names

    for package in (emulator, emulator.codes, emulator.formats, decks, ibm1013):
        found = [m.name for m in pkgutil.iter_modules(package.__path__)]
        assert module_names(list(package.__path__)) == found
    for name in ("b.py", "a.py", "_c.py", "d.txt", "e.cpython-311-x86_64-linux-gnu.so", "__init__.py",
                 "f.pyc", "g-h.py"):
        (tmp_path / name).write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "empty").mkdir()
    (tmp_path / "x.y").mkdir()
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.py").write_text("")
    (other / "z.py").write_text("")
    where = [str(tmp_path), str(other)]
    assert module_names(where) == [m.name for m in pkgutil.iter_modules(where)]


def test_each_code_name_lives_where_the_homes_map_says():
    """:data:`~emulator.codes.CODE_HOMES` names, for every name and alias the code modules register,
    the one module that registers it: looking a name up imports that module alone, and finds what
    loading every module finds."""
    import importlib
    import pkgutil

    import emulator.codes
    from emulator.codes import CODE_HOMES, Code, code_names

    code_names()  # every module loaded
    registered = {key for name in code_names() for key in (name, *get_code(name).aliases)}
    assert set(CODE_HOMES) == registered
    public = [m.name for m in pkgutil.iter_modules(emulator.codes.__path__) if not m.name.startswith("_")]
    for module in public:
        held = [v for v in vars(importlib.import_module(f"emulator.codes.{module}")).values()
                if isinstance(v, Code) and any(get_code(key) is v for key in registered)]
        for key in (k for code in held for k in (code.name, *code.aliases)):
            assert CODE_HOMES[key] == module, key  # no other module registers that name


@pytest.mark.parametrize("name", ["029", "026c", "bsd-bcd", "simh026"])
def test_looking_up_a_code_imports_its_module_alone(name):
    """In a fresh process, :func:`get_code` of a name imports the module that registers it (and what
    that module imports: the 026's tables are the 1401's BCD), not every code's."""
    import subprocess
    import sys

    from emulator.codes import CODE_HOMES

    run = subprocess.run([sys.executable, "-c", f"""
import sys
from emulator.codes import get_code
print(get_code({name!r}).name)
print(*sorted(m for m in sys.modules if m.startswith('emulator.codes.') and '._' not in m))
"""], capture_output=True, text=True, check=True, timeout=60)
    found, loaded = run.stdout.splitlines()
    assert found == get_code(name).name
    assert set(loaded.split()) - {"emulator.codes.bcd1401"} == {f"emulator.codes.{CODE_HOMES[name]}"}
