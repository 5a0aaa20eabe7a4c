"""The commands of ``ibm1013`` as Python functions: the public :func:`ibm1013.simulate`,
:func:`ibm1013.transfer`, :func:`ibm1013.work_out` and :func:`ibm1013.sweep_grid` (the package's top
names them lazily, so that importing ``ibm1013`` costs the command line nothing).

Each takes the command's options as keywords, builds the command's arguments with the command's own
parser (:mod:`ibm1013.cli.keywords`: the same checks, defaults and refusals) and runs what the
command runs (:func:`ibm1013.cli.simulate.simulated`, :func:`ibm1013.cli.theory.worked_out`,
:func:`ibm1013.cli.sweep.swept`); only the printing is left out.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from emulator.card import Card
    from ibm1013.report import TransferReport
    from ibm1013.sim.transfer import Transfer
    from ibm1013.sweep.runner import SweepResult
    from ibm1013.theory.figures import Figures


def _deck_and_path(deck: Any) -> tuple[Any, tuple[str, ...]]:
    """A deck file's name goes to the command as its DECK; cards or a deck array go as they are."""
    if isinstance(deck, str | os.PathLike):
        return None, (os.fspath(deck),)
    return deck, ()


def transfer(
    deck: Sequence[Card] | np.ndarray | str | os.PathLike[str], *, bit_rate: int = 1200,
    duplex: str = "full", turnaround: float = 0.2, columns: str | int = "80", column_binary: bool = False,
    mechanics: str = "none", ber: float = 0.0, burst: tuple[float, float, float] | None = None,
    cut_at: float | None = None, on_give_up: str = "stop", seed: int = 0, start_at: int = 1,
    format: str = "auto", code: str = "029",
) -> Transfer:
    """Send ``deck`` (cards, a deck array, or a deck file's name) from one simulated 1013 to another,
    as ``ibm1013 simulate`` does with the same settings: the :class:`Transfer`, its ``report`` and
    what the far end punched (``received_cards()``).

    >>> from emulator import Card
    >>> deck = [Card.from_text(f"CARD {n}") for n in range(1, 4)]
    >>> run = transfer(deck, ber=1e-3, seed=7)
    >>> run.received_cards() == deck, run.report.ended
    (True, 'complete')
    """
    settings = dict(locals())
    from ibm1013.cli import keywords
    from ibm1013.cli.simulate import register, simulated

    cards, path = _deck_and_path(settings.pop("deck"))
    args = keywords.parse(register, "simulate", settings, path)
    return simulated(args, cards)


def simulate(
    deck: Sequence[Card] | np.ndarray | str | os.PathLike[str], *, bit_rate: int = 1200,
    duplex: str = "full", turnaround: float = 0.2, columns: str | int = "80", column_binary: bool = False,
    mechanics: str = "none", ber: float = 0.0, burst: tuple[float, float, float] | None = None,
    cut_at: float | None = None, on_give_up: str = "stop", seed: int = 0, start_at: int = 1,
    format: str = "auto", code: str = "029",
) -> TransferReport:
    """``ibm1013 simulate``: send ``deck`` between two simulated 1013s; the :class:`TransferReport`.

    The keywords are the command's options (``bit_rate`` is ``--bit-rate``), with its defaults: a
    1200 bit/s full-duplex line, 80 columns a card, no noise — the documented 100 cards a minute.
    Same seed, same run.

    >>> from emulator import Card
    >>> deck = [Card.from_text(f"CARD {n}") for n in range(1, 6)]
    >>> simulate(deck).cards_per_minute
    100.0
    >>> simulate(deck, bit_rate=2400).cards_per_minute  # the 0.02 s a card on the line stays
    193.548
    >>> simulate(deck, ber=2)
    Traceback (most recent call last):
    ...
    ibm1013.cli.keywords.SettingError: simulate: argument --ber: must be a number from 0 to 1, not '2'
    """
    return transfer(deck, bit_rate=bit_rate, duplex=duplex, turnaround=turnaround, columns=columns,
                    column_binary=column_binary, mechanics=mechanics, ber=ber, burst=burst, cut_at=cut_at,
                    on_give_up=on_give_up, seed=seed, start_at=start_at, format=format, code=code).report


def work_out(
    deck: Sequence[Card] | np.ndarray | str | os.PathLike[str] | None = None, *, cards: int | None = None,
    bit_rate: int = 1200, duplex: str = "full", turnaround: float = 0.2, columns: str | int = "80",
    column_binary: bool = False, mechanics: str = "none", ber: float = 0.0,
    burst: tuple[float, float, float] | None = None, on_give_up: str = "stop",
    format: str = "auto", code: str = "029",
) -> Figures:
    """``ibm1013 theory``: what a transfer with these settings gives, worked out rather than
    simulated (``docs/throughput.md``); the :class:`Figures`.  ``deck`` (optional) gives the
    characters and the length, ``cards`` the length alone (default: a long deck).

    >>> round(work_out().cards_per_minute, 3)
    100.0
    >>> round(work_out(ber=1e-4, columns=20).retransmissions_per_card, 4)
    0.0227
    """
    settings = dict(locals())
    from ibm1013.cli import keywords
    from ibm1013.cli.theory import register, worked_out

    given, path = _deck_and_path(settings.pop("deck"))
    args = keywords.parse(register, "theory", settings, path)
    if given is not None:
        from ibm1013.str import deck_words

        given = deck_words(given)
    return worked_out(args, given)[0]


def sweep_grid(
    deck: Sequence[Card] | np.ndarray | str | os.PathLike[str] | None = None, *, cards: int | None = None,
    seeds: int = 5, bit_rate: int | Sequence[int] = 1200, duplex: str | Sequence[str] = "full",
    turnaround: float | Sequence[float] = 0.2, columns: str | int | Sequence[str | int] = "80",
    column_binary: bool | Sequence[bool] = False, mechanics: str | Sequence[str] = "none",
    ber: float | Sequence[float] = 0.0,
    burst: tuple[float, float, float] | None | Sequence[tuple[float, float, float] | None] = None,
    cut_at: float | None | Sequence[float | None] = None, on_give_up: str | Sequence[str] = "stop",
    theory: bool = False, workers: int | None = None, format: str = "auto", code: str = "029",
) -> SweepResult:
    """``ibm1013 sweep``: simulate a transfer at every point of the cross product of the settings
    (each a value or a list of values), ``seeds`` seeds a point; the :class:`SweepResult`, one row a
    run and a summary a point (``to_pandas()`` makes either a DataFrame).  ``theory`` adds the
    theory's figures to each row; ``workers``: processes (default: every core; they start as
    multiprocessing starts them, so a script calling this needs the ``if __name__ == "__main__":``
    guard).  The deck is ``deck`` or else ``cards`` synthetic cards (default 100).

    >>> result = sweep_grid(cards=5, ber=[0, 1e-3], seeds=2, workers=1)
    >>> [(row["ber"], row["runs"]) for row in result.summary]
    [(0.0, 2), (0.001, 2)]
    >>> result.summary[0]["cards_per_minute"]
    100.0
    """
    settings = dict(locals())
    from ibm1013.cli import keywords
    from ibm1013.cli.sweep import register, swept

    given, path = _deck_and_path(settings.pop("deck"))
    args = keywords.parse(register, "sweep", _sweep_words(settings), path)
    if given is not None:
        from ibm1013.str import deck_words

        given = deck_words(given)
    return swept(args, given)[0]


def _sweep_words(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings of :func:`sweep_grid` as ``sweep`` takes them: ``columns`` and ``burst`` one
    option a value, ``column_binary`` as ``off`` and ``on``."""
    return {**settings, "columns": _listed(settings["columns"]), "burst": _listed(settings["burst"]),
            "column_binary": [_on_off(v) for v in _listed(settings["column_binary"])]}


def _listed(value: Any) -> list[Any]:
    """A setting of a sweep as a list of values (one value is a list of one)."""
    if isinstance(value, Sequence) and not isinstance(value, str | tuple):
        return list(value)
    if isinstance(value, tuple) and value and not isinstance(value[0], int | float):
        return list(value)  # a tuple of bursts
    return [value]


def _on_off(value: Any) -> Any:
    """``column_binary`` of a sweep in the command's words (``off``, ``on``)."""
    return {True: "on", False: "off"}.get(value, value) if isinstance(value, bool) else value
