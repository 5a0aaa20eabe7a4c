"""The records files of docs/ hold the solver's results that the docs quote.  They are tied to the code
by :data:`decks.solver.SEARCH_VERSION` — and, since a change to the search can forget to change it, a
few cheap records of each file are searched again here and must come out exactly the same: verdict
and positions searched (issue 25 §9).  Records of the search before the restarts
(:data:`decks.solver.ONE_ORDER_VERSION`) are searched again by it (``solve(..., restarts=False)``).
A record of an earlier version is searched again where today's search is still that version's
for its game (:func:`decks.solver.same_search`, ``SolverTuning.changed_since``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from decks import engine, solver

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CHEAP = 3_000
"""Records decided within this many positions are searched again (each well under a second)."""
PER_GAME = 2
VERDICT = {solver.WON: "won", solver.EXHAUSTED: "lost"}


def load(name: str) -> list[dict]:
    return [json.loads(line) for line in (DOCS / name).read_text(encoding="utf-8").splitlines()]


def bench_cases() -> list[tuple]:
    """``docs/solver-bench.jsonl`` (``python -m tools.bench_decks``): the new solver's records."""
    return [(r["game"], {}, r["deal"], r["node_limit"], r["verdict"], r["nodes"],
             r["version"].removesuffix(" compiled"))
            for r in load("solver-bench.jsonl") if r["solver"] != "baseline"]


def winrate_cases(name: str = "winrates-two-pack.jsonl") -> list[tuple]:
    """``docs/winrates-two-pack.jsonl``, ``winrates-restarts.jsonl`` or ``winrates-targets.jsonl``
    (``python -m tools.measure_games``).  A search the clock stopped (``max_seconds``) is the search
    limited to the positions it had expanded: that is its limit."""
    return [(r["game"], r["options"], r["deal"], limit_of(r), r["outcome"], r["nodes"], r["search"])
            for r in load(name) if r["search"] != "exact"]


def limit_of(record: dict) -> int:
    stopped = record.get("max_seconds") is not None and record["outcome"] == "unknown"
    return record["nodes"] if stopped else record["max_nodes"]


FILES = {"solver-bench.jsonl": bench_cases, "winrates-two-pack.jsonl": winrate_cases,
         "winrates-restarts.jsonl": lambda: winrate_cases("winrates-restarts.jsonl"),
         "winrates-targets.jsonl": lambda: winrate_cases("winrates-targets.jsonl"),
         "winrates-1000.jsonl": lambda: winrate_cases("winrates-1000.jsonl")}


def cheap(cases: list[tuple]) -> list[tuple]:
    """Per game and verdict, the ``PER_GAME`` decided records that took fewest positions (if cheap),
    of a search that is still today's for the game."""
    chosen: dict[tuple, list[tuple]] = {}
    unique = {(c[0], json.dumps(c[1], sort_keys=True), c[2], c[3], c[6]): c for c in cases
              if solver.same_search(c[6], c[0])}.values()
    for case in sorted(unique, key=lambda c: (c[5], c[0], c[2], c[6])):
        game, _, _, _, verdict, nodes, version = case
        picked = chosen.setdefault((game, verdict, version), [])
        if verdict in ("won", "lost") and nodes <= CHEAP and len(picked) < PER_GAME:
            picked.append(case)
    return [case for picked in chosen.values() for case in picked]


def test_every_records_file_in_docs_is_checked_here():
    assert sorted(p.name for p in DOCS.glob("*.jsonl")) == sorted(FILES)


def test_the_records_were_made_by_this_search():
    bench = load("solver-bench.jsonl")
    restarts = {solver.SEARCH_VERSION, *solver.versions.EARLIER_VERSIONS} - {solver.ONE_ORDER_VERSION}
    searches = restarts | {solver.ONE_ORDER_VERSION}
    assert {r["version"].removesuffix(" compiled") for r in bench if r["solver"] != "baseline"} <= searches
    assert {r["search"] for r in load("winrates-two-pack.jsonl")} <= searches | {"exact"}
    assert {r["search"] for r in load("winrates-restarts.jsonl")} <= restarts | {"exact"}
    assert {r["search"] for r in load("winrates-targets.jsonl")} <= restarts


def test_no_record_decided_by_a_search_since_changed_for_its_game():
    """A game whose search changed (its ``SolverTuning.changed_since``) has no record of the
    earlier search that decided a deal: none stands unchecked (Colorado's records of 30 November
    are all undecided)."""
    stale = [c for make in FILES.values() for c in make()
             if c[6] != "exact" and not solver.same_search(c[6], c[0]) and c[4] in ("won", "lost")]
    assert stale == []
    assert [c for c in bench_cases() if c[0] == "colorado"] == []
    assert {c[4] for c in winrate_cases() if c[0] == "colorado"} == {"unknown"}


NO_CHEAP: dict[str, set[str]] = {}
"""Games of a file none of whose decided deals took CHEAP positions or fewer (none since search
2026-12-03: the Spider games' best-first order wins some of deals 1-20 within 3,000 positions)."""


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_file_has_cheap_records_of_every_game_in_it(name):
    """Every game of a file is searched again here, but a game none of whose deals was decided within
    the limit (Colorado, in the two-pack win rates: 200 deals, none decided in 50,000 positions)."""
    cases = FILES[name]()
    undecided = {c[0] for c in cases} - {c[0] for c in cases if c[4] in ("won", "lost")}
    assert undecided <= {"colorado"}
    assert {c[0] for c in cheap(cases)} == {c[0] for c in cases} - undecided - NO_CHEAP.get(name, set())


@pytest.mark.parametrize(("game", "options", "deal", "limit", "verdict", "nodes", "version"),
                         [case for make in FILES.values() for case in cheap(make())],
                         ids=lambda value: str(value) if not isinstance(value, dict) else "")
def test_a_cheap_record_is_found_again(game, options, deal, limit, verdict, nodes, version):
    restarts = version != solver.ONE_ORDER_VERSION
    result = solver.solve(engine.deal(game, deal, options), limit, restarts=restarts)
    assert (VERDICT.get(result.status, "undecided"), result.nodes) == (verdict, nodes), (
        f"{game} deal {deal} no longer searches as recorded: if the search changed, change "
        "SEARCH_VERSION, name the version before in the changed games' SolverTuning.changed_since and make "
        "their records again")


def test_the_readmes_klondike_figures_are_the_records_and_the_search():
    """The README: ``solve klondike-flip3 --deal 1`` wins in 172 moves after 265 positions."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    found = re.search(r"`ibm1013 solve klondike-flip3 --deal 1` wins in (\d+) moves after searching "
                      r"([\d,]+) positions", readme)
    assert found, "the README's sentence on klondike-flip3 deal 1 is not where this test looks"
    moves, positions = int(found.group(1)), int(found.group(2).replace(",", ""))
    key = ("klondike-flip3", 1, "new", 50_000)
    recorded = {r["nodes"] for r in load("solver-bench.jsonl")
                if (r["game"], r["deal"], r["solver"], r["node_limit"]) == key
                and r["version"] != solver.ONE_ORDER_VERSION + " compiled"
                and solver.same_search(r["version"].removesuffix(" compiled"), "klondike-flip3")}
    assert recorded == {positions}
    result = solver.solve(engine.deal("klondike-flip3", 1), 50_000)
    assert result.won and (len(result.moves), result.nodes) == (moves, positions)


ANY_SEARCH_CHEAP = 5_000
"""A verdict any record proved within this many positions, by any search, is proved again by
today's search within :data:`ANY_SEARCH_LIMIT`."""
ANY_SEARCH_LIMIT = 20_000


def proved_by_any_search() -> dict[tuple[str, str, int], tuple[str, int]]:
    """Every deal some record of docs/ decided (by any search: the baseline, the search of 30
    November, the restarts, an exact search): its verdict and the fewest positions it took."""
    proved: dict[tuple[str, str, int], tuple[str, int]] = {}
    verdicts: dict[tuple[str, str, int], set[str]] = {}
    for make in FILES.values():
        for game, options, deal, _limit, verdict, nodes, _version in make():
            if verdict in ("won", "lost"):
                key = (game, json.dumps(options, sort_keys=True), deal)
                verdicts.setdefault(key, set()).add(verdict)
                if key not in proved or nodes < proved[key][1]:
                    proved[key] = (verdict, nodes)
    assert all(len(v) == 1 for v in verdicts.values()), "two records of one deal disagree"
    for bench in load("solver-bench.jsonl"):        # the baseline's records too
        key = (bench["game"], "{}", bench["deal"])
        if bench["solver"] == "baseline" and bench["verdict"] in ("won", "lost"):
            assert verdicts.setdefault(key, {bench["verdict"]}) == {bench["verdict"]}, key
            if key not in proved or bench["nodes"] < proved[key][1]:
                proved[key] = (bench["verdict"], bench["nodes"])
    return proved


def cheap_proofs() -> list[tuple[str, str, int, str]]:
    """Per game and verdict, the ``PER_GAME`` deals proved in fewest positions (within
    :data:`ANY_SEARCH_CHEAP`), whichever search proved them."""
    chosen: dict[tuple[str, str], list[tuple[str, str, int, str]]] = {}
    for (game, options, deal), (verdict, nodes) in sorted(proved_by_any_search().items(),
                                                          key=lambda item: (item[1][1], item[0])):
        picked = chosen.setdefault((game, verdict), [])
        if nodes <= ANY_SEARCH_CHEAP and len(picked) < PER_GAME:
            picked.append((game, options, deal, verdict))
    return [case for picked in chosen.values() for case in picked]


NOT_CHEAP_ANYWHERE = {"auld-lang-syne"}
"""Games no record proved a deal of within ANY_SEARCH_CHEAP positions (Auld Lang Syne's records are
of its exact search, not the solver's).  Colorado left this set when its deals 1-1000 were searched
(winrates-1000.jsonl: 11 won)."""


def test_every_game_with_a_cheap_proof_is_searched_again():
    games = {game for game, *_ in cheap_proofs()}
    assert games == set(engine.game_names()) - NOT_CHEAP_ANYWHERE


@pytest.mark.parametrize(("game", "options", "deal", "verdict"), cheap_proofs())
def test_no_verdict_proved_by_any_search_changes(game, options, deal, verdict):
    """Issue 24: no verdict may change from one proved before.  A deal some record (any search)
    proved won or lost within a few thousand positions, today's search (the restarts) decides the
    same way within 20,000."""
    result = solver.solve(engine.deal(game, deal, json.loads(options)), ANY_SEARCH_LIMIT)
    assert VERDICT.get(result.status, "undecided") == verdict, (game, deal, result.status)


def test_a_larger_budget_gives_every_verdict_of_a_smaller_one_in_the_same_positions():
    """A search stopped at a limit is the start of the search with a larger one (the restarts'
    schedule does not depend on the limit), so where two records of one deal and one search differ
    only in their limits, a verdict the smaller limit reached is the larger one's too, after exactly
    as many positions (e.g. docs/solver-bench.jsonl at 50,000 against winrates-targets.jsonl at
    150,000).  Records of versions with the restarts that are the same search for their game count as one
    search."""
    by_deal: dict[tuple, list[tuple]] = {}
    for make in FILES.values():
        for game, options, deal, limit, verdict, nodes, version in make():
            same = version != solver.ONE_ORDER_VERSION and solver.same_search(version, game)
            search = solver.SEARCH_VERSION if same else version
            by_deal.setdefault((game, json.dumps(options, sort_keys=True), deal, search), []).append(
                (limit, verdict, nodes))
    compared = 0
    for key, records in by_deal.items():
        for limit, verdict, nodes in records:
            if verdict not in ("won", "lost"):
                continue
            for other, other_verdict, other_nodes in records:
                if other > limit:
                    assert (other_verdict, other_nodes) == (verdict, nodes), (key, limit, other)
                    compared += 1
    assert compared >= 200
