"""Settings of an STR session, each with where its value comes from.

``source`` in each field's metadata names the page of the user docs (``docs/…``) or says
``our estimate`` where the documents give no number.  :func:`parameter_sources` lists them for
``--help`` texts and reports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

from ibm1013.str.layout import ColumnLayout

REF = "docs/str.md"
TIMING = "docs/ibm1013.md"


GIVE_UP_STOP = "stop"
"""A card given up after ``max_retries``: ``TL EOT`` at once, the session ends ``aborted`` with
``resume_at`` at that card (the real ends' way: a deck with a hole fails its trailer check).  The
default everywhere: the library, ``simulate``, ``theory``, ``sweep``; ``send`` knows no other."""
GIVE_UP_SKIP = "skip"
"""A card given up after ``max_retries``: the next card goes, and the far end lacks this one (to
measure the raw throughput of a noisy line: ``--on-give-up skip``)."""
GIVE_UP_POLICIES = (GIVE_UP_STOP, GIVE_UP_SKIP)
"""What a card given up does, the default first."""


def _p(default: Any, source: str) -> Any:
    return field(default=default, metadata={"source": source})


@dataclass(frozen=True)
class SessionConfig:
    """Line-control settings both terminals of an STR session share."""

    bit_rate: int = _p(1200, f"{REF} §2 (SCA line rates 600/1200/2000/2400); "
                             f"{TIMING} §2 (1200 bit/s gives the documented 100 cards/min)")
    """Line speed in bit/s (the SCA's modems: 600, 1200, 2000 or 2400; any whole rate works, the
    timing is :attr:`chars_per_second`); sets how many idles fill the sync time."""
    columns: ColumnLayout = _p(ColumnLayout(), f"{TIMING} §1 (partial cards); layout is our design, {REF} §3")
    sync_idle_s: float = _p(1.3, f"{REF} §1-§2 (idles for about 1.3 s)")
    listen_s: float = _p(3.0, f"{REF} §1-§2 (listens about 3 s for CL IDLE)")
    pre_idles: int = _p(1, f"{REF} §1-§2 (at least one idle before every transmission)")
    ack_timeout_s: float = _p(3.0, f"{REF} §2 (1130 SCA 3 s timer)")
    max_retries: int = _p(3, f"{REF} §2 (SCAT1: 3 retries for data, EOT and TEL)")
    sync_retries: int = _p(7, f"{REF} §2 (SCAT1: up to 7 retries for sync/INQ)")
    idle_timeout_s: float = _p(
        20.0, f"our estimate (the BSC 20 s disconnect rule, borrowed for STR; {REF} §2)"
    )
    on_give_up: str = _p(
        GIVE_UP_STOP, "our design: a card given up after max_retries: stop (TL EOT at once; resume "
                      "from it, as the real ends do) or skip (the next card goes, the far end lacks it)")
    babble_limit: int = _p(
        8, "our estimate: records' worth (of the longest) of non-idle characters without a valid sequence"
    )

    @property
    def chars_per_second(self) -> float:
        """Eight-bit characters per second on the line."""
        return self.bit_rate / 8

    @property
    def sync_idles(self) -> int:
        """Idles sent in synchronize mode (1.3 s worth at the line rate)."""
        return max(1, math.ceil(self.sync_idle_s * self.chars_per_second))

    @property
    def sync_listen_s(self) -> float:
        """How long a station in synchronize mode listens before it cycles again: ``listen_s``, but
        at most a third of ``idle_timeout_s`` (our estimate), so that a station with a short bound on
        the session start still offers its end-of-idle three times.  Otherwise one lost ``CL IDLE``
        (sent before the far end was listening) would end the session start unanswered."""
        return min(self.listen_s, self.idle_timeout_s / 3)

    @property
    def babble_chars(self) -> int:
        """Non-idle characters tolerated without one valid sequence before the peer is declared mad:
        ``babble_limit`` of the longest records (a record and its framing: ``max_chars + 8``)."""
        return self.babble_limit * (self.columns.max_chars + 8)


def parameter_sources(obj: DataclassInstance) -> list[tuple[str, object, str]]:
    """``(name, value, source)`` of every documented field of a config dataclass."""
    return [(f.name, getattr(obj, f.name), f.metadata.get("source", "")) for f in fields(obj)]
