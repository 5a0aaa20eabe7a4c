"""A picture of who sends what when: the two pairs of the line as lanes over time.

Records going out are drawn on the upper lane (first transmissions in blue, retransmissions in
orange), control sequences (sync idles, bids, EOT) in grey; replies on the lower lane (``ACK`` green,
``ERR`` red).  The legend names only the kinds the picture shows.  Drawn with matplotlib's Agg
backend, so it works without a display.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from ibm1013.str import fourofeight as fo

_COLOURS = {"record": "#1f77b4", "again": "#ff7f0e", "control": "#999999", "ack": "#2ca02c",
            "err": "#d62728", "other": "#9467bd"}


def classify(direction: str, data: bytes, card: object, seen: set[object]) -> str:
    """Kind of a frame for the picture."""
    if direction == "data":
        if card is None:
            return "control"
        kind = "again" if card in seen else "record"
        seen.add(card)
        return kind
    codes = data[1::2] if data[:1] == bytes([fo.CL]) else b""
    if fo.ERR in codes:
        return "err"
    if fo.ACK1 in codes or fo.ACK2 in codes:
        return "ack"
    return "control" if fo.IDLE in data[:2] or fo.EOT in codes else "other"


def draw(
    timeline: Sequence[tuple[str, float, float, bytes, object]], path: str | os.PathLike[str], *,
    title: str = "", until: float | None = None, xlabel: str = "simulated seconds",
) -> None:
    """Write the timeline (from :func:`ibm1013.sim.transfer.run_transfer`) as a PNG to ``path``.

    ``until`` limits the picture to the first seconds (default: all, up to 120 s, so bars stay
    visible).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    from emulator.atomic import atomic_output

    end = max((e[2] for e in timeline), default=1.0)
    limit = until if until is not None else min(end, 120.0)
    fig, ax = plt.subplots(figsize=(12, 3.2), dpi=100)
    seen: set[object] = set()
    lanes = {"data": 1.0, "reply": 0.0}
    labels_done = 0
    shown: set[str] = set()
    for direction, start, stop, data, card in timeline:
        kind = classify(direction, data, card, seen)
        if start > limit:
            continue
        shown.add(kind)
        width = stop - start
        thin = width < limit / 300
        ax.broken_barh([(start, max(width, limit / 600))], (lanes[direction] - 0.35, 0.7),
                       facecolors=_COLOURS[kind], edgecolor="black", linewidth=0.0 if thin else 0.3)
        if kind in ("record", "again") and labels_done < 60 and stop - start > limit / 80:
            ax.text((start + stop) / 2, lanes[direction], str(card), ha="center", va="center",
                    fontsize=7, color="white")
            labels_done += 1
    ax.set_yticks([0.0, 1.0], ["receiver → sender\n(replies)", "sender → receiver\n(records)"])
    ax.set_xlim(0, limit)
    ax.set_ylim(-0.6, 1.6)
    ax.set_xlabel(xlabel)
    ax.set_title(title or "IBM 1013 transfer: who sends what when")
    names = {"record": "record", "again": "retransmission", "control": "sync / bid / EOT",
             "ack": "CL ACK", "err": "CL ERR", "other": "other"}
    handles = [Patch(color=_COLOURS[k], label=v) for k, v in names.items() if k in shown]
    if handles:  # only what the picture shows
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.28), ncol=6, fontsize=8,
                  frameon=False)
    fig.tight_layout()
    with atomic_output(path) as out:
        fig.savefig(out, format="png")
    plt.close(fig)
