"""Sphinx configuration: the guides in this folder (Markdown, through MyST) and the API reference
built from the public names' docstrings, as one site.

Build it with ``python -m sphinx -W --keep-going -b html docs docs/_build/html``; warnings are
errors (a broken link, a bad cross-reference, a public name without a docstring)."""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.abspath(".."))  # a checkout's packages, installed or not

project = "ibm1013"
author = "the ibm1013 developers"
copyright = "2026, the ibm1013 developers"
try:
    from importlib.metadata import version as _version

    release = _version("ibm1013")
except Exception:  # noqa: BLE001 - not installed: the site still builds from a checkout
    release = "unreleased"

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode"]
root_doc = "index"
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "README.md"]  # README.md is the folder's index on GitHub; index.md here
html_theme = "furo"
html_title = f"ibm1013 {release}"

myst_heading_anchors = 3                 # links to a section by its GitHub slug (page.md#a-heading)
myst_enable_extensions = ["colon_fence"]
suppress_warnings = ["myst.header"]      # pages start at ## under a # title, as GitHub renders them

nitpicky = True                          # every cross-reference must resolve
nitpick_ignore_regex = [
    # Other projects' types: no network here to fetch their inventories (intersphinx).
    (r"py:.*", r"(numpy|np|simpy|serial|pandas|matplotlib|PIL|rich|textual|bitarray|dask|distributed)\b.*"),
    (r"py:.*", r"(collections\.abc|typing|types|argparse|pathlib|os|io|enum|datetime|threading)\..*"),
    (r"py:.*", r"(NDArray|ArrayLike|Path|PathLike|Callable|Iterable|Iterator|Sequence|Mapping)"),
]
autodoc_default_options = {"members": True, "undoc-members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True


def _undocumented(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """A public name the reference shows without a docstring is a warning, so an error under -W."""
    if not any(line.strip() for line in lines) and not name.rsplit(".", 1)[-1].startswith("_"):
        from sphinx.util import logging

        logging.getLogger(__name__).warning("public name without a docstring: %s", name,
                                            type="ibm1013", subtype="docstring")


def setup(app: Any) -> None:
    app.connect("autodoc-process-docstring", _undocumented)
