"""What a card transfer achieved: the :class:`TransferReport`.

Both the SimPy model (``ibm1013.sim.transfer``) and the serial endpoints fill one in.  Card numbers are
deck positions, 1-based.  ``to_json()`` gives the keys scripts rely on; ``to_text()`` a short table for
people.

How the session ended is in ``ended`` (``"complete"`` when the receiving end holds every card and the
end of transmission was confirmed — over a real line, only when the receiving end's verdict said it
wrote the deck; ``"delivered, not confirmed"`` when that verdict was lost; ``"cards given up"`` when
the session ended in order but the far end lacks the ``failed_cards``) with a one-line ``message``;
``resume_at`` is the deck position to start a new session from when the session stopped early
(``None`` when nothing is left to send).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import TypeAlias

from emulator.errors import ExitStatus as ExitStatus  # re-exported (its home, emulator.errors, is light)

UNFINISHED = "unfinished"
"""A report's ``ended`` until whoever fills it in says otherwise (never ``complete`` by default)."""
LINE_CUT = "line cut"
"""A simulated transfer whose line was cut before the session could end in order."""
FAILED = "failed"
"""A real end stopped on an error (the port, the far end, the deck) before the session ended."""
INTERRUPTED = "interrupted"
"""A real end stopped by the user (Ctrl-C, a signal) before the session ended."""

JsonValue: TypeAlias = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]
"""A value as JSON writes it: ``None``, a bool, a number, a string, a list or a dict of them.  The
reports' dicts (:meth:`TransferReport.to_dict`, ``TransferReport.settings``), a sweep's rows and
summary (:class:`~ibm1013.sweep.runner.SweepResult`) and the datascope's counts hold these."""

Row: TypeAlias = dict[str, JsonValue]
"""One JSON object: a report as a dict, a row of a sweep's results file, a point's summary."""

# The session outcomes (``complete``, ``cards given up`` …) are the STR core's: ibm1013.str.events.


@dataclass
class TransferReport:
    """Counts and rates of one transfer (simulated or over a real line)."""

    cards_sent: int = 0
    """Cards the transmitting terminal finished with: acknowledged or given up."""
    cards_received: int = 0
    """Cards the receiving terminal accepted and punched."""
    cards_per_minute: float = 0.0
    """Steady rate: cards acknowledged per minute from the start of the first record to the last
    acknowledgement (line start-up and sign-off do not count)."""
    simulated_seconds: float = 0.0
    """Duration of the whole session, start-up and sign-off included (line time, not wall time)."""
    characters_on_line: int = 0
    """Characters sent in both directions (records, replies, idles that were sent)."""
    retransmissions: int = 0
    """Records (and bids) sent again after an error reply, a wrong or garbled reply or a timeout."""
    detected_errors: int = 0
    """Records the receiver refused: character error (not four-of-eight), LRC error, wrong length."""
    undetected_errors: int = 0
    """Cards accepted although they differ from the card sent: STR's checks missed the damage."""
    failed_cards: list[int] = field(default_factory=list)
    """Cards given up after the retry limit that the receiving end does not hold: send them again."""
    unconfirmed_cards: list[int] = field(default_factory=list)
    """Cards the transmitting terminal gave up although the receiving end holds them (every
    acknowledgement was lost): delivered, not confirmed.  Do not send them again."""
    lost: int = 0
    """Cards acknowledged to the transmitter that the receiver never accepted (must be 0)."""
    duplicated: int = 0
    """Cards accepted more than once by the receiver (must be 0)."""
    ended: str = UNFINISHED
    """How the session ended: ``complete``, ``cards given up``, ``delivered, not confirmed``, ``line cut``,
    ``no answer``, ``protocol error`` …
    (``unfinished`` until whoever fills the report in says otherwise: never "complete" by default)."""
    message: str = ""
    """One line saying why the session ended, naming the peer state."""
    resume_at: int | None = None
    """Deck position to start again from if the session stopped early."""
    flipped_bits: int | None = 0
    """Bits the line noise flipped (simulation only; ``None``, unknown, from the real ends, which
    cannot count them)."""
    operator_calls: int = 0
    """TEL sequences (telephone requests) received."""
    settings: Row = field(default_factory=dict)
    """The main settings of the run (bit rate, duplex, columns …), for the record."""

    def to_dict(self) -> Row:
        """The report as plain values, ready for JSON."""
        return asdict(self)

    def to_json(self) -> str:
        """The report as JSON text (what ``--json`` prints)."""
        return json.dumps(self.to_dict(), indent=2, sort_keys=False)

    def to_text(self) -> str:
        """A short table for people."""
        return "\n".join(f"{label:<17} {value}" for label, value in self.rows())

    def rows(self) -> list[tuple[str, str]]:
        """The lines of :meth:`to_text` (and of the notebook's table) as ``(label, value)``."""
        failed = card_numbers(self.failed_cards)
        rows = [
            ("session", f"{self.ended}" + (f": {self.message}" if self.message else "")),
            ("cards sent", f"{self.cards_sent}"),
            ("cards received", f"{self.cards_received}"),
            ("cards per minute", f"{self.cards_per_minute:.1f}"),
            ("seconds", f"{self.simulated_seconds:.2f}" + (
                f" (the deck session; {self.settings['run_seconds']:.2f} in all)"
                if "run_seconds" in self.settings else "")),
            ("characters", f"{self.characters_on_line}"),
            ("retransmissions", f"{self.retransmissions}"),
            ("detected errors", f"{self.detected_errors}"),
            ("undetected errors", f"{self.undetected_errors}"),
            ("failed cards", f"{failed or 'none'}"),
            ("lost / duplicated", f"{self.lost} / {self.duplicated}"),
        ]
        if self.unconfirmed_cards:
            rows.append(("unconfirmed cards", f"{card_numbers(self.unconfirmed_cards)} "
                         "(received; acknowledgement lost)"))
        if self.resume_at is not None:
            rows.append(("resume at card", f"{self.resume_at}"))
        if self.settings.get("deck_ended"):  # a followed deck: what ended it (send --follow)
            rows.append(("deck ended", f"{self.settings['deck_ended']}"))
        if self.flipped_bits:
            rows.append(("bits flipped", f"{self.flipped_bits}"))
        if self.operator_calls:
            rows.append(("operator calls", f"{self.operator_calls}"))
        return rows

    def _repr_html_(self) -> str:
        """The report as an HTML table (Jupyter shows it): the rows of :meth:`to_text`.

        >>> "<th>cards per minute</th><td>100.0</td>" in TransferReport(cards_per_minute=100)._repr_html_()
        True
        """
        from html import escape

        body = "\n".join(f"<tr><th>{escape(label)}</th><td>{escape(value)}</td></tr>"
                         for label, value in self.rows())
        return f'<table class="ibm1013-report">\n{body}\n</table>'


def card_numbers(cards: list[int]) -> str:
    """Card numbers for a report: the first 20, then how many in all."""
    text = ", ".join(str(n) for n in cards[:20])
    return text + (f", … ({len(cards)} in all)" if len(cards) > 20 else "")
