"""Sphinx configuration: the guides in this folder (Markdown, through MyST) and the API reference
built from the public names' docstrings, as one site.

Build it with ``python -m sphinx -W --keep-going -b html docs docs/_build/html``; warnings are
errors (a broken link, a bad cross-reference, a public name without a docstring)."""

from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.abspath(".."))  # a checkout's packages, installed or not
os.environ["IBM1013_PURE_PYTHON"] = "1"  # the source's docstrings and signatures: mypyc's build has none

project = "ibm1013"
author = "the ibm1013 developers"
copyright = "2026, the ibm1013 developers"
try:
    from importlib.metadata import version as _version

    release = _version("ibm1013")
except Exception:  # noqa: BLE001 - not installed: the site still builds from a checkout
    release = "unreleased"

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.viewcode"]
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
    # A TypedDict for the type checker only (emulator.codes imports no typing at run time, for the
    # start-up); Code.from_punches's docstring names its keywords.
    (r"py:class", r"CodeOptions"),
    # emulator.codes names collections.abc for the type checker only (the same start-up): autodoc
    # cannot evaluate Code.decode's annotations then, and shows them as written, unqualified.
    (r"py:class", r"Substitutions"),
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


OUR_PACKAGES = ("emulator", "decks", "ibm1013")


def _exists(dotted: str) -> bool:
    """Whether ``dotted`` names a module of ours, or something inside one."""
    import importlib

    parts = dotted.split(".")
    if parts[0] not in OUR_PACKAGES:
        return False
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return False
        return True
    return False


def _homes(dotted: list[str]) -> list[str]:
    """The modules that define the objects along ``dotted`` (``emulator.Card`` lives in
    ``emulator.card``)."""
    import importlib

    homes = []
    try:
        obj: Any = importlib.import_module(dotted[0])
        for name in dotted[1:]:
            obj = getattr(obj, name)
            home = getattr(obj, "__module__", None)
            if isinstance(home, str):
                homes.append(home)
    except (ImportError, AttributeError):
        pass
    return homes


def _inside_reference(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """A reference to a name of ours outside the public API (a module, a helper type named in a
    signature) has no page to link to: shown as code when the name exists, left to fail when not.
    The names are looked up from the referring docstring's module and class, and from the module
    that defines the documented object (a public name is documented where it is re-exported)."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    if "[" in target or "," in target:       # a fragment of a generic such as dict[str, int]
        return contnode if target.split("[")[0] in {"dict", "list", "tuple", "set", "frozenset"} else None
    module, cls = node.get("py:module"), node.get("py:class")
    candidates = [target]
    if module:
        candidates += [f"{module}.{cls}.{target}" if cls else None, f"{module}.{target}"]
    source = node.source or ""                # "FILE:docstring of decks.solver.search.solve"
    if "docstring of " in source:             # a re-exported name: its own module's names too
        owner = source.rsplit("docstring of ", 1)[1].split(".")
        candidates += [".".join([*owner[:cut], target]) for cut in range(len(owner) - 1, 0, -1)]
        candidates += [f"{home}.{target}" for home in _homes(owner)]
    return contnode if any(c and _exists(c) for c in candidates) else None


def _load_public_names() -> None:
    """The packages load their public names when first asked (PEP 562); ask for each now, so that
    autodoc, which looks in a module's namespace, finds every name ``__all__`` lists."""
    import importlib

    for package in OUR_PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            getattr(module, name)


def setup(app: Any) -> None:
    _load_public_names()
    app.connect("autodoc-process-docstring", _undocumented)
    app.connect("missing-reference", _inside_reference)
