"""``ibm1013 sweep`` on a process pool: the grid, derived seeds, rows against simulate's report,
summaries checked against the rows, rows kept when a sweep fails or a worker dies, --resume, the
command line's checks, and the plot (stopped from outside: test_sweep_stop.py; how points are
handed out: test_sweep_batches.py).

The reference table is copied from the project's reference notes (str-protocol §6)."""

import functools
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest
from PIL import Image

from emulator.errors import IbmError
from ibm1013.cli.main import main
from ibm1013.report import TransferReport
from ibm1013.sim.transfer import simulate
from ibm1013.sweep import COLUMNS, ResultsFile, grid, run_one, run_sweep, summarize
from ibm1013.sweep.backends import ProcessPool
from ibm1013.sweep.grid import Run, config_of, derive_seed, run_many, synthetic_deck
from ibm1013.sweep.reference import REFERENCE_CARDS_PER_MINUTE, model_cards_per_minute
from ibm1013.sweep.results import t975

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""The checkout: the sweeps run as subprocesses import our packages and ``tests`` from here."""

DECK = synthetic_deck(8)
VALUES = {"bit_rate": [1200, 2400], "ber": [0.0, 2e-3]}
SEEDS = 3

TABLE = {  # bit rate -> {columns: cards/min}, str-protocol §6
    600: {80: 51, 60: 66, 40: 93, 20: 158, 10: 243},
    1200: {80: 100, 60: 129, 40: 180, 20: 300, 10: 450},
    2000: {80: 163, 60: 208, 40: 288, 20: 469, 10: 682},
    2400: {80: 194, 60: 247, 40: 340, 20: 545, 10: 783},
}


@functools.cache
def reference_bytes() -> bytes:
    """The sweep run by one local process: the bytes every other way of running it must give."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "ref.csv")
        run_sweep(DECK, grid(VALUES), SEEDS, backend=ProcessPool(1), outputs=[path])
        with open(path, "rb") as f:
            return f.read()


@pytest.fixture
def reference_csv():
    return reference_bytes()


# -- tasks for the failure tests (module level: the pool's workers import them) -------------------
def fail_at_noise(deck, runs):
    if runs[0].point["ber"] > 0 and runs[0].point["bit_rate"] == 2400:
        raise RuntimeError("the simulator broke")
    return run_many(deck, runs)


def die_once(marker, deck, runs):
    """Kill the worker process the first time any worker runs the noisy 2400 bit/s point."""
    if runs[0].point["ber"] > 0 and runs[0].point["bit_rate"] == 2400 and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(9)
    return run_many(deck, runs)


def die_always(deck, runs):
    if runs[0].point["ber"] > 0 and runs[0].point["bit_rate"] == 2400:
        os._exit(9)
    return run_many(deck, runs)


def die_always_beside(marks, deck, runs):
    """As die_always, and the noisy 1200 bit/s point is running whenever the worker beside it dies:
    the killer waits until that point has started once more than the killer has died, or its rows
    are written.  The point, once started, sleeps 2 s, by when the broken pool has taken it down with
    the killer (it ignores SIGTERM, but its rows are lost); run alone next, nothing kills it."""
    starts, deaths = os.path.join(marks, "starts"), os.path.join(marks, "deaths")
    size = lambda path: os.path.getsize(path) if os.path.exists(path) else 0  # noqa: E731
    point = runs[0].point
    if point["ber"] > 0 and point["bit_rate"] == 2400:
        deadline = time.monotonic() + 120
        written = os.path.join(marks, "runs.csv")
        while size(starts) <= size(deaths) and time.monotonic() < deadline and not any(
                line.startswith("1200,") and ",0.002," in line for line in open(written)):
            time.sleep(0.01)
        with open(deaths, "a") as f:
            f.write("x")
        os._exit(9)
    if point["ber"] > 0:
        with open(starts, "a") as f:
            f.write("x")
        time.sleep(2)
    return run_many(deck, runs)


# -- the grid and one run ---------------------------------------------------------------------------
def test_grid_is_the_cross_product_last_dimension_fastest():
    points = grid({"bit_rate": [600, 2400], "columns": ["80", "1-20+41-60"], "ber": [0.0, 1e-4, 1e-3]})
    assert len(points) == 12
    assert [(p["bit_rate"], p["columns"], p["ber"]) for p in points[:4]] == [
        (600, "80", 0.0), (600, "80", 1e-4), (600, "80", 1e-3), (600, "1-20+41-60", 0.0)]
    assert all(p["duplex"] == "full" and p["burst"] == "none" for p in points)
    assert config_of(points[3], 1).session.columns.count == 40  # the mask's two ranges
    with pytest.raises(ValueError, match="empty"):
        grid({"ber": []})
    with pytest.raises(ValueError, match="unknown"):
        grid({"speed": [1]})


def test_seeds_depend_on_point_and_index_only():
    a, b = grid({"ber": [1e-4, 1e-3]})
    seeds = {derive_seed(p, i) for p in (a, b) for i in range(50)}
    assert len(seeds) == 100 and all(0 <= s < 2**63 for s in seeds)
    assert derive_seed(dict(reversed(list(a.items()))), 7) == derive_seed(a, 7)  # key order
    assert Run(a, 7).seed == derive_seed(a, 7)


def test_a_row_is_the_configuration_and_every_key_of_the_report():
    point = grid({"columns": ["40"], "ber": [2e-3], "duplex": ["half"]})[0]
    row = run_one(DECK, Run(point, 2))
    assert tuple(row) == COLUMNS
    report = simulate(DECK, config_of(point, row["seed"]))
    for key, value in report.to_dict().items():
        if key != "settings":
            assert row[key] == value, key
    settings = report.settings
    assert (settings["bit_rate"], settings["duplex"], settings["ber"], settings["seed"]) == (
        row["bit_rate"], row["duplex"], row["ber"], row["seed"])
    assert {f for f in TransferReport.__dataclass_fields__} - {"settings"} <= set(COLUMNS)
    assert row["data_characters"] == 40 * row["cards_received"]
    assert row["line_efficiency"] == pytest.approx(row["data_characters"] / row["characters_on_line"],
                                                   abs=1e-6)


def test_summary_is_checked_against_the_rows():
    rows = run_many(DECK, [Run(p, i) for p in grid(VALUES) for i in range(4)])
    summary = summarize(rows)
    assert len(summary) == 4
    for s in summary:
        mine = [r for r in rows if r["bit_rate"] == s["bit_rate"] and r["ber"] == s["ber"]]
        rates = [r["cards_per_minute"] for r in mine]
        half = t975(3) * statistics.stdev(rates) / 2
        assert s["runs"] == 4
        assert s["cards_per_minute"] == pytest.approx(statistics.fmean(rates), abs=1e-3)
        assert s["ci95_low"] == pytest.approx(statistics.fmean(rates) - half, abs=2e-3)
        for key in ("retransmissions", "detected_errors", "undetected_errors", "lost", "duplicated"):
            assert s[key] == sum(r[key] for r in mine), key
        assert s["failed_cards"] == sum(len(r["failed_cards"]) for r in mine)
    noisy = [s for s in summary if s["ber"] > 0]
    assert all(s["retransmissions"] > 0 and s["ci95_high"] > s["ci95_low"] for s in noisy)
    clean = [s for s in summary if s["ber"] == 0]
    assert all(s["ci95_low"] == s["cards_per_minute"] == s["ci95_high"] for s in clean)


def test_students_t():
    assert t975(1) == 12.706 and t975(30) == 2.042
    for df, table in ((40, 2.021), (60, 2.000), (120, 1.980), (10_000, 1.960)):
        assert t975(df) == pytest.approx(table, abs=6e-4)
    assert math.isnan(t975(0))


def test_reference_table_is_the_documented_one_and_its_arithmetic():
    assert REFERENCE_CARDS_PER_MINUTE == TABLE
    for rate, row in TABLE.items():
        for columns, cpm in row.items():
            assert abs(model_cards_per_minute(rate, columns) - cpm) <= 0.5, (rate, columns)


# -- running: determinism, failures, resume ---------------------------------------------------------
def test_two_workers_give_the_bytes_of_one(tmp_path, reference_csv):
    csv_path, jsonl_path = str(tmp_path / "two.csv"), str(tmp_path / "two.jsonl")
    progress = []
    result = run_sweep(DECK, grid(VALUES), SEEDS, backend=ProcessPool(2), outputs=[csv_path, jsonl_path],
                       on_progress=lambda *a: progress.append(a))
    assert open(csv_path, "rb").read() == reference_csv
    assert result.ran == len(result.rows) == 4 * SEEDS
    assert progress[0] == (0, 4, 0) and progress[-1] == (4, 4, 12)
    assert ResultsFile(jsonl_path).read() == ResultsFile(csv_path).read() == result.rows
    assert [json.loads(line)["seed_index"] for line in open(jsonl_path)] == [0, 1, 2] * 4


def test_a_failing_run_keeps_the_rows_written_and_resume_finishes(tmp_path, reference_csv):
    path = str(tmp_path / "runs.csv")
    points = grid(VALUES)
    with pytest.raises(IbmError, match="bit_rate=2400.*RuntimeError: the simulator broke"):
        run_sweep(DECK, points, SEEDS, backend=ProcessPool(1), outputs=[path], task=fail_at_noise)
    kept = ResultsFile(path).read()
    assert {(r["bit_rate"], r["ber"]) for r in kept} >= {(1200, 0.0), (1200, 2e-3)}
    assert all(r["bit_rate"] == 1200 or r["ber"] == 0 for r in kept)
    result = run_sweep(DECK, points, SEEDS, backend=ProcessPool(2), outputs=[path], resume=True)
    assert result.ran == 4 * SEEDS - len(kept)
    assert open(path, "rb").read() == reference_csv


def test_a_dead_worker_is_replaced_and_its_points_run_again(tmp_path, reference_csv):
    path, marker = str(tmp_path / "runs.csv"), str(tmp_path / "died")
    run_sweep(DECK, grid(VALUES), SEEDS, backend=ProcessPool(2), outputs=[path],
              task=functools.partial(die_once, marker))
    assert os.path.exists(marker)
    assert open(path, "rb").read() == reference_csv


def test_a_point_that_always_kills_its_worker_ends_the_sweep_with_rows_kept(tmp_path):
    path = str(tmp_path / "runs.csv")
    with pytest.raises(IbmError, match="died each of 3 times it ran the same batch alone; 1 point not run "
                                       r"\(the first: bit_rate=2400"):
        run_sweep(DECK, grid(VALUES), SEEDS, backend=ProcessPool(2), outputs=[path], task=die_always)
    kept = ResultsFile(path).read()
    assert len(kept) == 3 * SEEDS and not any(r["bit_rate"] == 2400 and r["ber"] > 0 for r in kept)


def test_a_point_running_beside_the_one_that_kills_its_worker_is_not_blamed(tmp_path):
    """The batch that was running when the pool broke runs again alone, and finishes: only the
    guilty point is left out (a busy machine once had the innocent one die with it three times)."""
    path = str(tmp_path / "runs.csv")
    with pytest.raises(IbmError, match=r"1 point not run \(the first: bit_rate=2400, .*ber=0.002"):
        run_sweep(DECK, grid(VALUES), SEEDS, backend=ProcessPool(2), outputs=[path],
                  task=functools.partial(die_always_beside, str(tmp_path)))
    kept = ResultsFile(path).read()
    assert sorted({(r["bit_rate"], r["ber"]) for r in kept}) == [(1200, 0.0), (1200, 2e-3), (2400, 0.0)]
    assert len(kept) == 3 * SEEDS


def test_resume_after_a_crash_mid_line_runs_only_what_is_missing(tmp_path, reference_csv):
    path = str(tmp_path / "runs.csv")
    lines = reference_csv.split(b"\n")
    with open(path, "wb") as f:  # header, 5 rows in another order, half a row
        f.write(b"\n".join([lines[0], lines[7], lines[1], lines[2], lines[9], lines[3], lines[5][:30]]))
    result = run_sweep(DECK, grid(VALUES), SEEDS, backend=ProcessPool(2), outputs=[path], resume=True)
    assert result.ran == 12 - 5
    assert open(path, "rb").read() == reference_csv
    again = run_sweep(DECK, grid(VALUES), SEEDS, backend=ProcessPool(2), outputs=[path], resume=True)
    assert again.ran == 0 and open(path, "rb").read() == reference_csv
    # more seeds and another point: only those run; rows of points no longer asked for are kept
    more = run_sweep(DECK, grid({"bit_rate": [2400], "ber": [0.0]}), SEEDS + 1, backend=ProcessPool(1),
                     outputs=[path], resume=True)
    assert more.ran == 1 and len(more.rows) == SEEDS + 1 and len(more.kept) == 3 * SEEDS
    assert len(ResultsFile(path).read()) == 4 * SEEDS + 1


def test_resume_refuses_another_deck_and_a_fresh_sweep_refuses_an_old_file(tmp_path, reference_csv):
    path = tmp_path / "runs.csv"
    path.write_bytes(reference_csv)
    with pytest.raises(IbmError, match="another deck"):
        run_sweep(synthetic_deck(9), grid(VALUES), SEEDS, outputs=[str(path)], resume=True)
    with pytest.raises(IbmError, match="exists: add --resume"):
        run_sweep(DECK, grid(VALUES), SEEDS, outputs=[str(path)])
    assert path.read_bytes() == reference_csv


# -- the command line -------------------------------------------------------------------------------
def run_cli(capsys, *argv):
    code = main(["sweep", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv, needle", [
    (["--bit-rate", "100000"], "argument --bit-rate: must be a whole number from 1 to 99999, not '100000'"),
    (["--bit-rate", ""], "argument --bit-rate: an empty list or an empty item"),
    (["--ber", "0,,1e-4"], "an empty list or an empty item"),
    (["--ber", "nan"], "argument --ber: must be a number from 0 to 1, not 'nan'"),
    (["--ber", "inf"], "argument --ber: must be a number from 0 to 1, not 'inf'"),
    (["--ber=-1e-4"], "argument --ber: must be a number from 0 to 1, not '-1e-4'"),
    (["--ber", "0,1e-4,0"], "0 is given twice"),
    (["--turnaround", "-0.2"], "argument --turnaround: must be a number >= 0, not '-0.2'"),
    (["--cut-at", "nan"], "argument --cut-at: must be a number >= 0, not 'nan'"),
    (["--duplex", "full,quarter"], "argument --duplex: invalid choice: 'quarter' (choose from 'full', 'half"),
    (["--mechanics", "fast"], "argument --mechanics: invalid choice: 'fast'"),
    (["--columns", "80,81"], "argument --columns: columns per card must be 1 to 80, not 81"),
    (["--column-binary", "maybe"], "argument --column-binary: invalid choice: 'maybe'"),
    (["--burst", "0.1,0.2"], "argument --burst: burst must be P_GB,P_BG,BER_BAD"),
    (["--seeds", "0"], "argument --seeds: must be a whole number from 1 to 100000, not '0'"),
    (["--workers", "-2"], "argument --workers"),
    (["--cards", "0"], "argument --cards"),
    (["deck.cbn", "--cards", "5"], "not both"),
    (["--dask", "8786"], "argument --dask: must be 'local' or an address like tcp://HOST:8786, not '8786'"),
    (["--dask", "tcp://h:1", "--workers", "2"], "--workers is for local processes"),
    (["-o", "runs.txt"], "argument -o/--output: runs.txt: the name must end in .csv or .jsonl"),
    (["-o", "/no/such/dir/runs.csv"], "argument -o/--output: /no/such/dir/runs.csv: no such directory"),
    (["--plot", "runs.gif"], "argument --plot: runs.gif: the name must end in .png or .svg or .pdf"),
    (["--resume"], "--resume needs the -o file"),
])
def test_bad_arguments_are_one_line_exit_2_before_any_work(capsys, tmp_path, monkeypatch, argv, needle):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "--cards", "2", *argv) if "--cards" not in argv and "deck.cbn" \
        not in argv else run_cli(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ibm1013: ") and needle in lines[0], err
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("option, one, listed", [
    ("--bit-rate", "100000", "1200,100000"), ("--ber", "nan", "0,nan"), ("--ber", "1.5", "1.5"),
    ("--turnaround", "-1", "0.2,-1"), ("--cut-at", "inf", "none,inf"),
    ("--duplex", "quarter", "full,quarter"), ("--mechanics", "fast", "none,fast"),
    ("--columns", "81", "80,81"), ("--columns", "1-20,41-90", "1-20,41-90"),
    ("--burst", "0.1,nan,0.5", "0.1,nan,0.5"), ("--code", "nosuch", "nosuch"),
    ("--format", "nosuch", "nosuch"),
])
def test_a_bad_value_in_a_list_is_refused_as_simulate_refuses_it(capsys, tmp_path, monkeypatch,
                                                                   option, one, listed):
    """Each value of a sweep's list is checked, when parsed, by the type simulate gives the option:
    one line naming the option and the value, in simulate's words, exit 2."""
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "deck.cbn", option, one]) == 2
    alone = capsys.readouterr().err.strip()
    code, out, err = run_cli(capsys, "--cards", "2", option, listed)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.strip() == alone.replace("ibm1013: simulate: ", "ibm1013: sweep: "), (alone, err)
    assert os.listdir(tmp_path) == []


def test_cli_sweep_json_csv_plot_and_the_plot_command(tmp_path, reference_csv, capsys):
    runs, png = str(tmp_path / "runs.csv"), str(tmp_path / "sweep.png")
    env = {**os.environ, "PYTHONPATH": ROOT}
    cmd = [sys.executable, "-m", "ibm1013", "sweep", "--cards", "8", "--bit-rate", "1200,2400",
           "--ber", "0,2e-3", "--seeds", str(SEEDS), "--workers", "2", "-o", runs, "--json"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    report = json.loads(done.stdout)
    assert report["runs"] == report["simulated_now"] == 12 and report["lost"] == 0
    assert [p["cards_per_minute"] for p in report["points"] if p["ber"] == 0] == [100.0, 193.548]
    assert open(runs, "rb").read() == reference_csv
    assert main(cmd[3:-1] + ["--resume", "--plot", png]) == 0
    out = capsys.readouterr().out
    assert "12 runs (0 simulated now" in out
    assert "bit_rate" in out.splitlines()[0] and "95% CI" in out
    with Image.open(png) as image:
        assert image.size[0] > 1200 and len(np.unique(np.asarray(image.convert("L")))) > 20
    other = str(tmp_path / "other.png")
    assert main(["plot", runs, "-o", other]) == 0
    assert os.path.getsize(other) > 20_000 and capsys.readouterr().out.strip() == other


def test_plot_command_errors(tmp_path, capsys):
    assert main(["plot", str(tmp_path / "none.csv")]) == 2
    assert "none.csv: no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n")
    assert main(["plot", str(bad)]) == 2
    assert "not a results file" in capsys.readouterr().err
    assert not (tmp_path / "bad.png").exists()


def test_lost_or_duplicated_cards_are_reported_loudly(capsys):
    """The model has never lost a card; a row claiming so (as a broken model would) must be shouted."""
    from types import SimpleNamespace

    from ibm1013.cli.sweep import _print

    rows = run_many(DECK, [Run(grid({})[0], i) for i in range(2)])
    rows[1]["lost"] = 2
    result = SimpleNamespace(rows=rows, summary=summarize(rows), ran=2)
    assert _print(result, SimpleNamespace(json=False, output=[]), "test") == 1
    out, err = capsys.readouterr()
    assert "2 cards LOST and 0 DUPLICATED in 1 points" in err and "2!" in out


def test_a_deck_file_is_swept_and_an_empty_one_refused(tmp_path, capsys):
    from emulator.card import Card
    from emulator.formats import write_deck

    cards = [Card.from_text(f"CARD {i:03d} OF THE SWEEP DECK") for i in range(6)]
    deck, empty = tmp_path / "deck.cbn", tmp_path / "empty.cbn"
    with open(deck, "wb") as f:
        write_deck(cards, f, "cbn")
    empty.write_bytes(b"")
    runs = str(tmp_path / "runs.jsonl")
    assert main(["sweep", str(deck), "--columns", "auto,20", "--seeds", "1", "--workers", "1",
                 "-o", runs, "--json"]) == 0
    points = json.loads(capsys.readouterr().out)["points"]
    assert [p["columns_sent"] for p in points] == [26.0, 20.0]  # auto: up to the last punch
    rows = ResultsFile(runs).read()
    assert [r["deck_cards"] for r in rows] == [6, 6] and rows[0]["cards_received"] == 6
    assert main(["sweep", str(empty), "--seeds", "1"]) == 2
    assert "empty.cbn: the deck has no cards" in capsys.readouterr().err
    words = np.array([c.columns for c in cards])
    words[1, 5] = 0xFFF  # no BCD character: only column binary can send it
    with open(deck, "wb") as f:
        write_deck([Card(w) for w in words], f, "cbn")
    assert main(["sweep", str(deck), "--column-binary", "on,off", "--seeds", "1"]) == 2
    assert f"{deck}: card 2, column 6: punches 12-11-0-1-2-3-4-5-6-7-8-9" in capsys.readouterr().err


def test_a_long_comma_list_is_checked_for_repeats_in_one_pass():
    """Each value is compared with the others through one dict look-up, not with every value
    before it (10,000 values of --ber: about 50 million comparisons before)."""
    from ibm1013.cli.argtypes import ListOf

    compared = [0]

    class Value(str):
        def __eq__(self, other):
            compared[0] += 1
            return str.__eq__(self, other)

        __hash__ = str.__hash__

    values = ListOf(Value)(",".join(str(i) for i in range(10_000)))
    assert values == [str(i) for i in range(10_000)] and compared[0] < 10_100
    with pytest.raises(Exception, match="7 is given twice in"):
        ListOf(Value)("1,7,3,7")


def test_a_failure_in_a_batch_names_the_point_that_failed():
    from ibm1013.sweep.backends import _failed, _guarded

    deck = DECK.copy()
    deck[3, 5] = 0xFFF  # every punch in one column: no BCD character, only column binary sends it
    runs = [Run(p, 0) for p in grid({"column_binary": [True, False]})]
    error = _failed(runs, _guarded(run_many, deck, runs))
    assert "run failed at" in str(error) and "column_binary=False" in str(error)
    assert "card 4, column 6" in str(error)


def test_rows_read_back_exactly_with_cuts_failures_and_empty_cells(tmp_path):
    runs = [Run(p, 0) for p in grid({"cut_at": [None, 3.0], "ber": [0.0, 1e-2]})]
    rows = run_many(DECK, runs)
    cut = [r for r in rows if r["cut_at"] == 3.0]
    assert all(r["ended"] == "line cut" and r["resume_at"] is not None for r in cut)
    assert any(r["failed_cards"] for r in rows) and any(r["resume_at"] is None for r in rows)
    for name in ("rows.csv", "rows.jsonl"):
        f = ResultsFile(str(tmp_path / name))
        f.rewrite(rows)
        assert f.read() == rows


def test_runs_that_gave_cards_up_are_not_complete_in_rows_summary_table_and_plot(capsys):
    """Issue 25 §2: the sweep rows, the summary, the table and the plot's title name the outcome."""
    from types import SimpleNamespace

    from ibm1013.cli.sweep import _print
    from ibm1013.sweep.plot import headline

    rows = run_many(DECK, [Run(p, i) for p in grid({"ber": [0.0, 1e-2], "on_give_up": ["skip"]})
                           for i in range(4)])
    given_up = [r for r in rows if r["failed_cards"]]
    assert given_up and all(r["ended"] != "complete" for r in given_up)
    assert all(r["cards_received"] == r["deck_cards"] for r in rows if r["ended"] == "complete")
    summary = summarize(rows)
    noisy = next(s for s in summary if s["ber"] == 1e-2)
    assert noisy["not_complete"] == sum(r["ended"] != "complete" for r in rows if r["ber"] == 1e-2) > 0
    assert noisy["cards_given_up_runs"] == sum(r["ended"] == "cards given up" for r in rows) > 0
    complete = sum(r["ended"] == "complete" for r in rows)
    # the title counts the cards given up (issue 50 §7: it said "5 cards given up" of 5 runs that
    # gave up 33), and the runs that gave them up, each from the rows themselves
    cards = sum(len(r["failed_cards"]) for r in rows)
    assert cards > len(given_up) > 1  # else the two counts could not be told apart
    assert headline(rows, summary).endswith(
        f"{complete} of {len(rows)} runs complete, {cards} cards given up in {len(given_up)} runs")
    _print(SimpleNamespace(rows=rows, summary=summary, ran=len(rows)),
           SimpleNamespace(json=False, output=[]), "test")
    table = capsys.readouterr().out.splitlines()
    column = table[0].index("not complete") + len("not complete")
    assert [line[:column].split()[-1] for line in table[1:3]] == ["0", str(noisy["not_complete"])]


def test_every_sweep_option_is_in_the_docs():
    """--dask was in no doc: every option of sweep (its long name) appears in README.md or docs/."""
    import glob

    from ibm1013.cli.main import build_parser

    root = os.path.join(os.path.dirname(__file__), "..")
    docs = [os.path.join(root, "README.md"), *glob.glob(os.path.join(root, "docs", "*.md"))]
    text = "".join(open(path, encoding="utf-8").read() for path in docs)
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    options = [o for a in sub.choices["sweep"]._actions for o in a.option_strings
               if o.startswith("--") and o not in ("--help", "--output")]  # -o is how it is written
    assert "--dask" in options and [o for o in options if o not in text] == []


def test_a_column_mask_is_written_as_in_simulate(tmp_path, capsys):
    """simulate --columns 1-20,41-60 and sweep --columns 1-20,41-60 mean the same mask (the sweep
    wrote it 1-20+41-60); --columns again adds a layout; the old spelling still works."""
    runs = tmp_path / "runs.csv"
    assert main(["sweep", "--cards", "4", "--seeds", "1", "--columns", "1-20,41-60", "--columns", "80,auto",
                 "-o", str(runs), "--json"]) == 0
    capsys.readouterr()
    rows = ResultsFile(str(runs)).read()
    assert [r["columns"] for r in rows] == ["1-20+41-60", "80", "auto"]
    assert main(["sweep", "--cards", "4", "--seeds", "1", "--columns", "1-20,41-60",
                 "--columns", "1-20+41-60"]) == 2
    assert "given twice" in capsys.readouterr().err
