"""Pictures of a sweep: what a person would rather look at than a table of runs.

Three panels, drawn from the per-point summary:

1. cards per minute against columns sent, a line per bit rate (on a clean line), with the reference
   table's figures (:mod:`~ibm1013.sweep.reference`) marked beside ours as hollow diamonds;
2. cards per minute against bit error rate (log scale), a line per bit rate, with the 95 %
   confidence band over seeds; the clean line's figure is a dotted level (0 has no place on a log
   axis);
3. line efficiency — data characters delivered over all characters on the line (idles, record
   framing, replies and retransmissions included) — against columns sent, a line per bit error rate
   (or against bit error rate when the sweep sends one width only).

With ``sweep --theory`` the simulated figures of panels 1 and 2 are points (with their interval or
band) and the theory (:mod:`ibm1013.theory`) is the line through them.

A sweep varies more settings than a flat picture can show: each panel holds the others at a baseline
(the clean line, no bursts, no cut, and the first value given of everything else) and says so under
its title; up to four combinations of duplex, turnaround, column binary, mechanics, bursts and
what a card given up does get line styles of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from emulator.words import counted
from ibm1013.report import Row
from ibm1013.sweep.grid import DIMENSIONS
from ibm1013.sweep.reference import REFERENCE_CARDS_PER_MINUTE
from ibm1013.sweep.results import summarize

Summary = list[dict[str, Any]]
"""A sweep's summary as the drawing reads it (each value the number or text its column holds)."""
_STYLES = ("-", "--", ":", "-.")
_SECONDARY = ("duplex", "turnaround", "column_binary", "mechanics", "burst", "on_give_up")


def draw(rows: Sequence[Row], path: str, *, title: str | None = None) -> None:
    """Draw the sweep whose runs are ``rows`` into ``path`` (PNG, SVG or PDF)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from emulator.atomic import atomic_output

    summary = summarize(rows)
    fig, axes = plt.subplots(1, 3, figsize=(17, 5.6), layout="constrained")
    _by_columns(axes[0], summary)
    _by_ber(axes[1], summary)
    _efficiency(axes[2], summary)
    fig.suptitle(title or headline(rows, summary), fontsize=14)
    fmt = path.rsplit(".", 1)[-1].lower()
    with atomic_output(path) as out:
        fig.savefig(out, format=fmt, dpi=110)
    plt.close(fig)


# -- choosing what to draw --------------------------------------------------------------------------
def headline(rows: Sequence[Row], summary: Sequence[Row]) -> str:
    """The picture's title: what was swept, how many runs ended ``complete`` (the far end holds
    every card), and how many cards the far end lacks, given up, in how many runs — the cards per
    minute of a run that gave cards up are not a delivered deck's."""
    seeds = max(_count(s, "runs") for s in summary)
    given_up = sum(_count(s, "failed_cards") for s in summary)  # cards, over every run
    giving_up = sum(1 for row in rows if row["failed_cards"])  # runs
    short = sum(_count(s, "not_complete") for s in summary)
    ends = f"{len(rows) - short} of {len(rows)} runs complete" + (
        f", {counted(given_up, 'card')} given up in {counted(giving_up, 'run')}" if given_up else "")
    return (f"IBM 1013 throughput sweep — {rows[0]['deck_cards']} cards per run, {len(summary)} points, "
            f"up to {seeds} seeds each; {ends}")


def _count(point: Row, name: str) -> int:
    """A count of a point's summary (:func:`~ibm1013.sweep.results.summarize` makes it a whole number)."""
    return cast(int, point[name])


def _values(summary: Summary, name: str) -> list[Any]:
    """The values of one setting, in sweep order."""
    return list(dict.fromkeys(s[name] for s in summary))


def _baseline(summary: Summary, name: str) -> Any:
    values = _values(summary, name)
    if name == "ber":
        return min(values)
    for quiet in ("none", None):
        if name in ("burst", "cut_at") and quiet in values:
            return quiet
    return values[0]


def _slice(summary: Summary, free: Sequence[str]) -> tuple[Summary, list[str], str]:
    """The points with every setting except ``free`` at its baseline — except that up to four
    combinations of the secondary settings stay free as line styles.  Returns the points, the
    secondary settings kept free, and a note of what was held fixed."""
    styled = [n for n in _SECONDARY if n not in free and len(_values(summary, n)) > 1]
    combos = 1
    for n in styled:
        combos *= len(_values(summary, n))
    if combos > len(_STYLES):
        styled = []
    fixed = [n for n in DIMENSIONS if n not in free and n not in styled]
    base = {n: _baseline(summary, n) for n in fixed}
    points = [s for s in summary if all(s[n] == base[n] for n in fixed)]
    held = [_show(n, base[n]) for n in fixed if len(_values(summary, n)) > 1]
    return points, styled, ("at " + ", ".join(held)) if held else ""


def _show(name: str, value: Any) -> str:
    """A setting as a phrase: ``1200 bit/s``, ``80 columns``, ``half duplex``, ``BER 1e-05`` …"""
    if name == "bit_rate":
        return f"{value} bit/s"
    if name == "columns":
        return f"{value} columns"
    if name == "duplex":
        return f"{value} duplex"
    if name == "turnaround":
        return f"turnaround {value:g} s"
    if name == "column_binary":
        return "column binary" if value else "BCD"
    if name == "ber":
        return f"BER {value:g}"
    if name == "burst":
        return "no bursts" if value == "none" else f"bursts {value}"
    if name == "cut_at":
        return "no cut" if value is None else f"cut at {value:g} s"
    if name == "on_give_up":
        return f"{value} at a card given up"
    return f"mechanics {value}"


def _groups(points: Summary, keys: Sequence[str]) -> list[tuple[tuple[Any, ...], Summary]]:
    groups: dict[tuple[Any, ...], Summary] = {}
    for s in points:
        groups.setdefault(tuple(s[k] for k in keys), []).append(s)
    return list(groups.items())


def _style_of(points: Summary, styled: Sequence[str]) -> dict[tuple[Any, ...], str]:
    combos = list(dict.fromkeys(tuple(s[n] for n in styled) for s in points))
    return {c: _STYLES[i % len(_STYLES)] for i, c in enumerate(combos)}


def _style_label(styled: Sequence[str], combo: tuple[Any, ...]) -> str:
    return ", ".join(_show(n, v) for n, v in zip(styled, combo, strict=True))


def _palette(points: Summary, first: str, styled: Sequence[str]) -> tuple[Any, bool]:
    """``color(group key)``: a colour per value of ``first`` — or, when it has one value only, per
    combination of the styled settings (so no two lines share a colour); and whether by ``first``."""
    firsts = _values(points, first)
    if len(firsts) > 1 or not styled:
        by_first = _colors(firsts)
        return (lambda key: by_first[key[0]]), True
    by_combo = _colors(list(dict.fromkeys(tuple(s[n] for n in styled) for s in points)))
    return (lambda key: by_combo[tuple(key[1:])]), False


def _colors(values: Sequence[Any]) -> dict[Any, Any]:
    import matplotlib

    cmap = matplotlib.colormaps["viridis" if len(values) > 10 else "tab10"]
    if len(values) > 10:
        return {v: cmap(i / max(1, len(values) - 1)) for i, v in enumerate(values)}
    return {v: cmap(i) for i, v in enumerate(values)}


def _decorate(ax: Any, title: str, note: str, xlabel: str, ylabel: str) -> None:
    ax.set_title(title + (f"\n{note}" if note else ""), fontsize=11)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", alpha=0.35)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8.5, loc="best")


def _empty(ax: Any, title: str, text: str) -> None:
    ax.set_title(title, fontsize=11)
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=10, color="0.35")
    ax.set_xticks([])
    ax.set_yticks([])


# -- the panels -------------------------------------------------------------------------------------
def _by_columns(ax: Any, summary: Summary) -> None:
    points, styled, note = _slice(summary, ("bit_rate", "columns"))
    points = [s for s in points if s["columns_sent"] is not None]
    title = "Cards per minute against columns sent"
    if not points:
        _empty(ax, title, "no card got through on the baseline line")
        return
    color, by_rate = _palette(points, "bit_rate", styled)
    styles = _style_of(points, styled)
    for (rate, *combo), group in _groups(points, ["bit_rate", *styled]):
        group = sorted(group, key=lambda s: s["columns_sent"])
        x = [s["columns_sent"] for s in group]
        y = [s["cards_per_minute"] for s in group]
        err = _errors(group)
        label = f"{rate} bit/s" + (f", {_style_label(styled, tuple(combo))}" if styled else "")
        theory = _has_theory(group)
        ax.errorbar(x, y, yerr=err, color=color((rate, *combo)), marker="o", markersize=5, capsize=3,
                    linestyle="none" if theory else styles[tuple(combo)],
                    label=label + (" (simulated)" if theory else ""))
        if theory:
            _theory_line(ax, x, group, color((rate, *combo)), styles[tuple(combo)])
    _reference(ax, points, lambda rate: color((rate,)) if by_rate else "0.25")
    ax.set_xlim(0, 85)
    ax.set_ylim(bottom=0)
    _decorate(ax, title, note, "columns sent per card", "cards per minute")


def _reference(ax: Any, points: Summary, color: Any) -> None:
    """The reference table's figures for the bit rates drawn, where ours were drawn under the
    table's conditions (full duplex, line-bound, no column binary, clean line)."""
    table_like = [s for s in points if s["duplex"] == "full" and s["mechanics"] == "none"
                  and not s["column_binary"] and s["ber"] == 0 and s["burst"] == "none"]
    labelled = False
    for rate in _values(table_like, "bit_rate"):
        figures = REFERENCE_CARDS_PER_MINUTE.get(rate)
        if not figures:
            continue
        ax.plot(list(figures), list(figures.values()), linestyle="none", marker="D", markersize=9,
                markerfacecolor="none", markeredgecolor=color(rate), markeredgewidth=1.6,
                label=None if labelled else "reference table (1013 timing arithmetic)")
        labelled = True


def _has_theory(group: Summary) -> bool:
    """Whether every point of a line has the theory's figure (``sweep --theory``)."""
    return all(s.get("theory_cards_per_minute") is not None for s in group)


def _theory_line(ax: Any, x: list[float], group: Summary, color: Any, style: str) -> None:
    """The theory's cards per minute (``docs/throughput.md``) as a line through the simulated points."""
    ax.plot(x, [s["theory_cards_per_minute"] for s in group], color=color, linestyle=style, linewidth=1.6,
            label="theory" if not ax.get_legend_handles_labels()[1].count("theory") else None)


def _errors(group: Summary) -> Any:
    if any(s["ci95_low"] is None for s in group):
        return None
    return [[s["cards_per_minute"] - s["ci95_low"] for s in group],
            [s["ci95_high"] - s["cards_per_minute"] for s in group]]


def _by_ber(ax: Any, summary: Summary) -> None:
    title = "Cards per minute against bit error rate"
    points, styled, note = _slice(summary, ("bit_rate", "ber"))
    noisy = [s for s in points if s["ber"] > 0]
    if not noisy:
        _empty(ax, title, "no bit error rate above 0 in this sweep\n(try --ber 0,1e-5,1e-4,1e-3)")
        return
    color_of, _ = _palette(points, "bit_rate", styled)
    styles = _style_of(points, styled)
    clean_labelled = band_labelled = False
    for (rate, *combo), group in _groups(points, ["bit_rate", *styled]):
        line = sorted((s for s in group if s["ber"] > 0), key=lambda s: s["ber"])
        label = f"{rate} bit/s" + (f", {_style_label(styled, tuple(combo))}" if styled else "")
        color, style = color_of((rate, *combo)), styles[tuple(combo)]
        if line:
            x = [s["ber"] for s in line]
            theory = _has_theory(line)
            ax.plot(x, [s["cards_per_minute"] for s in line], color=color, marker="o", markersize=5,
                    linestyle="none" if theory else style, label=label + (" (simulated)" if theory else ""))
            if theory:
                _theory_line(ax, x, line, color, style)
            if all(s["ci95_low"] is not None for s in line):
                ax.fill_between(x, [max(0.0, s["ci95_low"]) for s in line], [s["ci95_high"] for s in line],
                                color=color, alpha=0.18, linewidth=0,
                                label=None if band_labelled else "95 % confidence band")
                band_labelled = True
        for s in group:
            if s["ber"] == 0:
                ax.axhline(s["cards_per_minute"], color=color, linestyle=":", linewidth=1.2,
                           label=None if clean_labelled else "BER 0 (dotted level)")
                clean_labelled = True
    ax.set_xscale("log")
    ax.set_ylim(bottom=0)
    _decorate(ax, title, note, "bit error rate (errors per bit, log scale)", "cards per minute")


def _efficiency(ax: Any, summary: Summary) -> None:
    title = "Line efficiency"
    widths = [c for c in _values(summary, "columns")]
    against_ber = len(widths) < 2 and any(s["ber"] > 0 for s in summary)
    x_name, line_name = ("ber", "columns") if against_ber else ("columns", "ber")
    points, styled, note = _slice(summary, (x_name, line_name))
    points = [s for s in points if s["columns_sent"] is not None and (not against_ber or s["ber"] > 0)]
    if not points:
        _empty(ax, title, "no card got through on the baseline line")
        return
    color, _ = _palette(points, line_name, styled)
    styles = _style_of(points, styled)
    for (key, *combo), group in _groups(points, [line_name, *styled]):
        x_of: Callable[[dict[str, Any]], Any] = (
            (lambda s: s["ber"]) if against_ber else (lambda s: s["columns_sent"]))
        group = sorted(group, key=x_of)
        label = _show(line_name, key) + (
            f", {_style_label(styled, tuple(combo))}" if styled else "")
        ax.plot([x_of(s) for s in group], [100 * s["line_efficiency"] for s in group],
                color=color((key, *combo)), linestyle=styles[tuple(combo)], marker="o", markersize=5,
                label=label)
    if against_ber:
        ax.set_xscale("log")
    else:
        ax.set_xlim(0, 85)
    ax.set_ylim(0, 100)
    xlabel = "bit error rate (log scale)" if against_ber else "columns sent per card"
    _decorate(ax, title + ": data characters / characters on the line", note, xlabel,
              "line efficiency (%)")


