"""The documentation site builds from a checkout with warnings as errors: the guides in docs/ and
the API reference made from the public names' docstrings (docs/conf.py says what fails it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import external

ROOT = Path(__file__).resolve().parents[1]


def build(out: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", *options,
                           "-b", "html", str(ROOT / "docs"), str(out)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)


def test_the_site_builds_without_a_warning(tmp_path: Path) -> None:
    for name in ("sphinx", "furo", "myst_parser"):
        external.module(name, extra="docs")
    result = build(tmp_path / "html")
    assert result.returncode == 0, result.stderr[-4000:]
    index = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert "ibm1013" in index
    for page in ("ibm1013", "serial", "cards", "games", "api/emulator", "api/decks", "api/ibm1013"):
        assert (tmp_path / "html" / f"{page}.html").exists(), page


def run(source: Path, where: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-E", "-b", "html",
                           str(source), str(where / "html")], capture_output=True, text=True, timeout=600,
                          cwd=where, env={**os.environ, "PYTHONPATH": str(where)})


def test_a_missing_docstring_or_a_broken_reference_fails_the_build(tmp_path: Path) -> None:
    """The site's own rules, on a site of one page: what they refuse in docs/ they refuse here."""
    external.module("sphinx", extra="docs")
    source = tmp_path / "docs"
    source.mkdir()
    (source / "conf.py").write_text((ROOT / "docs" / "conf.py").read_text(encoding="utf-8"))
    (tmp_path / "undocumented.py").write_text('"""A module."""\n\ndef public(x: int) -> int:\n    return x\n')
    (source / "index.md").write_text("# Site\n\n```{automodule} undocumented\n```\n")
    result = run(source, tmp_path)
    assert result.returncode != 0
    assert "public name without a docstring: undocumented.public" in result.stderr
    (tmp_path / "undocumented.py").write_text('"""A module."""\n\ndef public(x: int) -> int:\n'
                                              '    """Gives ``x`` back."""\n    return x\n')
    (source / "index.md").write_text("# Site\n\n```{automodule} undocumented\n```\n\n"
                                     "See {py:func}`elsewhere` and [a page](missing.md).\n")
    result = run(source, tmp_path)
    assert result.returncode != 0
    assert "elsewhere" in result.stderr and "missing" in result.stderr, result.stderr
