"""The user docs: links resolve, tables match the code's tables, and nothing cites ../shared."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from emulator.card import word_to_punches
from emulator.codes import get_code
from emulator.codes.ibm029 import EBCDIC_TO_WORD
from ibm1013.str import fourofeight as fo

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md")) + [ROOT / "README.md", ROOT / "examples" / "README.md"]


def table(page: str, header: str) -> list[list[str]]:
    """Cells of the Markdown table whose header row starts with ``header``."""
    lines = (DOCS / page).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
    return rows


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_resolve(page):
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://")):
            continue
        path = (page.parent / target).resolve()
        assert path.exists(), f"{page.name}: broken link {target}"


def test_four_of_eight_table_is_the_code_table():
    rows = table("ibm1013.md", "| hex | bits")
    assert len(rows) == 64
    for row, (char, g7701, g1130, bcd, punches) in zip(rows, fo.DATA_TABLE, strict=True):
        assert row[0] == f"{char:02X}" and row[1] == f"{char:08b}" and row[1].count("1") == 4
        assert int(row[2], 8) == bcd
        assert row[3] == {"": "none (blank)", None: "no card code"}.get(punches, punches)
        assert [g.replace("\\|", "|") for g in row[4:6]] == [g7701 or "—", g1130 or "—"]


def test_ebcdic_table_is_the_code_table():
    rows = table("cards.md", "| hi\\lo")
    assert len(rows) == 16
    for hi, row in enumerate(rows):
        assert row[0] == f"{hi:X}_"
        for lo, cell in enumerate(row[1:]):
            assert cell == (word_to_punches(EBCDIC_TO_WORD[hi * 16 + lo]) or "—")


def test_special_character_table_is_the_code_tables():
    rows = table("cards.md", "| char |")
    names = ["029", "simh029", "dec029", "simh026", "026-commercial", "026-fortran", "ge635"]
    assert len(rows) == 32
    for row in rows:
        char = row[0].strip("` ").replace("\\|", "|") or "`"
        for name, cell in zip(names, row[1:], strict=True):
            word = get_code(name).encoding.get(char)
            assert cell == ("—" if word is None else word_to_punches(word) or "none"), (char, name)


def test_nothing_cites_the_shared_reference():
    for top in ("emulator", "ibm1013", "decks", "tools", "docs", "examples"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix in (".py", ".md"):
                text = path.read_text(encoding="utf-8")
                assert "../shared" not in text and "/work/shared" not in text, path


def every_option() -> list[tuple[str, list[str]]]:
    """(command, its option strings) for every option of every command and action of the parser."""
    import argparse

    from ibm1013.cli.main import build_parser

    def walk(parser: argparse.ArgumentParser, path: list[str]):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    yield from walk(sub, [*path, name])
            elif action.option_strings and "--help" not in action.option_strings:
                yield " ".join(path), action.option_strings

    return list(walk(build_parser(), []))


def test_every_option_of_every_command_is_in_the_docs():
    """An option no page names is one a user cannot find (--dask was in none): each option appears
    in README.md or docs/ under one of its names (-o FILE is how --output is written; --seconds
    stands for its alias --max-seconds)."""
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    text = "".join(path.read_text(encoding="utf-8") for path in pages)
    missing = [f"{command} {names[-1]}" for command, names in every_option()
               if not any((name if name.startswith("--") else f"{name} ") in text for name in names)]
    assert not missing, missing
