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
