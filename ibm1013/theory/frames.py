"""What the receiving end makes of one frame, and the sending end of one reply, as matrices.

The receiving core (:class:`ibm1013.str.Receiver`) reads a record frame
``IDLE… TL SORn data… TL LRC`` (one frame, one chunk) and does one of four things:

* **accepts** it and answers ``CL ACKn`` — the framing arrived as sent, every data character is a
  data character of the layout and the LRC matches (clean, or wrong data that got through:
  :mod:`ibm1013.theory.undetected`);
* **refuses** it and answers ``CL ERR`` — a ``TL`` was found after the start, but the record is not
  good: a character failed four-of-eight or is a control pattern, the LRC does not match, a data
  character turned into ``TL`` cut the record short (its length is wrong), or the ``SOR`` was hit
  (any code but ``TEL`` makes the ``TL`` a record start whose number is unreadable or the other one);
* **stays silent** with nothing pending — the ``IDLE`` before the ``TL`` was hit (a sequence must
  follow an idle), the leading ``TL`` was hit, or the ``SOR`` turned into ``TEL`` (an operator
  call, not a record); the sender's reply timer runs out;
* **stays silent inside a record** (*stuck*) — the record started but no ``TL`` follows (the closing
  ``TL`` was hit and no data character turned into one).  The receiver keeps its last character and
  waits; the next frame finishes that record, which is too long, so it is refused with ``CL ERR``
  whatever it carried (unless it too holds no ``TL``: stuck again).  The next frame may be the bid
  after the retry limit: it is refused the same way and the sender, waiting for ``CL ACK2``, times
  out once more.

Conventions the counts depend on (each pinned by ``tests/test_theory_frames.py``):

* a data character turned into a control pattern (``TL`` included) is caught, as any character that
  is not one of the layout's data characters;
* a hit ``SOR`` never lets a record through as new: as the other number it is a repeat (refused
  unless it repeats the card last accepted), unreadable it is refused;
* the LRC may arrive as any pattern; only its equality with the XOR of the data counts;
* a character left behind by a frame is harmless, except as described for *stuck*.

Neglected (each needs two rarely-hit characters at once, and ends at worst in an extra timeout): a
data character turned into ``IDLE`` followed by ``TL`` inside a frame whose ``IDLE`` was hit, the
leftover LRC of a stuck record being ``TL``, replies whose ``CL`` was hit leaving a ``CL`` behind.

Replies: ``CL ACKn`` delivers the card; ``CL ERR``, the other ``ACK`` or a code that means nothing
make the sender send again at once; a hit ``CL`` or a code turned into ``TEL`` or ``IDLE`` is
ignored (the reply timer runs out); ``CL EOT`` ends the session (``aborted by receiver``).  A
``CL ERR`` turned into the awaited ``CL ACKn`` makes the sender move on with a refused card: the
receiver stops the session with a sequence fault.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ibm1013.str import fourofeight as fo
from ibm1013.theory.noise import power

_SORS = (fo.SOR1, fo.SOR2)


def _mean(m: np.ndarray, patterns: list[int]) -> np.ndarray:
    """The mean of ``m[e]`` over ``patterns`` (a character that is one of several, evenly)."""
    result: np.ndarray = m[patterns].mean(axis=0)
    return result


@dataclass
class RecordFrame:
    """Outcomes of a record frame, each ``(n, S, S)`` over the data direction's noise states."""

    accepted: np.ndarray       # clean: accepted, right data
    wrong: np.ndarray          # accepted with wrong data (undetected)
    refused: np.ndarray        # CL ERR
    silent: np.ndarray         # nothing, receiver waiting for the next sequence
    stuck: np.ndarray          # nothing, receiver inside a record with no end
    stuck_refused: np.ndarray  # receiver stuck: this frame ends the record, CL ERR
    stuck_silent: np.ndarray   # receiver stuck: no TL in this frame either


@dataclass
class BidFrame:
    """Outcomes of ``IDLE TL INQ`` (the bid after the retry limit)."""

    answered: np.ndarray       # CL ACK2 sent
    silent: np.ndarray
    stuck: np.ndarray          # INQ hit into a record start: the next frame is eaten
    stuck_refused: np.ndarray  # receiver stuck: CL ERR, which the bidding sender ignores
    stuck_silent: np.ndarray


@dataclass
class Reply:
    """Outcomes of a reply at the sender, each ``(n, S, S)`` over the reply direction's states."""

    as_sent: np.ndarray        # read as sent
    resend: np.ndarray         # read as another reply that makes the sender send again now
    ignored: np.ndarray        # not read as a reply: the reply timer runs out
    ends: np.ndarray           # read as CL EOT: the session ends
    false_ack: np.ndarray      # (ERR only) read as the awaited CL ACKn


def record_frame(m: np.ndarray, data_chars: np.ndarray, pre_idles: int, mix: np.ndarray,
                 wrong: np.ndarray) -> RecordFrame:
    """The outcomes of records of ``data_chars`` (one number a setting) characters after
    ``pre_idles`` idles.  ``m``: :func:`~ibm1013.theory.noise.char_matrices`; ``mix``: ``(n, 256)``,
    the chance of each character at a data position; ``wrong``: the accepted-with-wrong-data
    matrices (:mod:`~ibm1013.theory.undetected`)."""
    clean = m[0]
    every = m.sum(axis=0)
    hit = every - clean
    n = data_chars
    pre = power(every, pre_idles - 1)  # idles before the last: whatever happens to them
    sor_to_tel = _mean(m, [s ^ fo.TEL for s in _SORS])
    data_to_tl = np.einsum("nc,cnab->nab", mix, m[np.arange(256) ^ fo.TL])
    data_no_tl = power(every - data_to_tl, n)
    accepted = power(clean, pre_idles + n + 4)
    tail = 1 + n + 2  # SOR, data, TL, LRC
    silent = pre @ (hit @ power(every, tail + 1) + clean @ hit @ power(every, tail)
                    + clean @ clean @ sor_to_tel @ power(every, tail - 1))
    stuck = pre @ clean @ clean @ (every - sor_to_tel) @ data_no_tl @ hit @ every
    total = power(every, pre_idles + n + 4)
    refused = total - accepted - wrong - silent - stuck
    # stuck before this frame: it is refused unless it holds no TL followed by a character
    idle_no_tl = every - m[fo.IDLE ^ fo.TL]
    sor_no_tl = every - _mean(m, [s ^ fo.TL for s in _SORS])
    stuck_silent = power(idle_no_tl, pre_idles) @ hit @ sor_no_tl @ data_no_tl @ hit @ every
    return RecordFrame(accepted, wrong, refused, silent, stuck, total - stuck_silent, stuck_silent)


def bid_frame(m: np.ndarray, pre_idles: int) -> BidFrame:
    clean = m[0]
    every = m.sum(axis=0)
    hit = every - clean
    pre = power(every, pre_idles - 1)
    answered = pre @ clean @ clean @ clean
    no_record = m[fo.INQ ^ fo.TEL] + m[fo.INQ ^ fo.EOT]  # operator call; or an end (session over)
    silent = pre @ (hit @ every @ every + clean @ hit @ every + clean @ clean @ no_record)
    stuck = pre @ clean @ clean @ (hit - no_record)
    total = power(every, pre_idles + 2)
    stuck_silent = power(every - m[fo.IDLE ^ fo.TL], pre_idles) @ hit @ every
    return BidFrame(answered, silent, stuck, total - stuck_silent, stuck_silent)


def reply(m: np.ndarray, codes: tuple[int, ...], awaited: tuple[int, ...] | None = None) -> Reply:
    """A reply ``CL code`` (``codes``: the code, or the two ACKs, evenly); ``awaited``: the ACKs the
    sender waits for when ``code`` is ``ERR`` (for the false-ACK case), in step with ``codes``."""
    clean = m[0]
    every = m.sum(axis=0)
    hit = every - clean
    as_sent = clean @ clean
    ignored = hit @ every + clean @ _mean(m, [c ^ x for c in codes for x in (fo.TEL, fo.IDLE)]) * 2
    ends = clean @ _mean(m, [c ^ fo.EOT for c in codes])
    false_ack = (clean @ _mean(m, [c ^ a for c in codes for a in awaited]) if awaited
                 else np.zeros_like(clean))
    resend = every @ every - as_sent - ignored - ends - false_ack
    return Reply(as_sent, resend, ignored, ends, false_ack)
