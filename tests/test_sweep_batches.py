"""How a sweep hands its points out: batches of whole points, fewer for Dask than for a pool, as
many for ten thousand points as for two hundred; and its own work per point and per row."""

import os

from test_sweep import DECK

from ibm1013.sweep import ResultsFile, grid, run_one, run_sweep
from ibm1013.sweep.backends import BATCHES_PER_WORKER, DASK_BATCHES_PER_WORKER, ProcessPool
from ibm1013.sweep.grid import Run
from ibm1013.sweep.runner import plan


def test_many_points_go_out_in_batches_of_whole_points():
    points = grid({"bit_rate": [600, 1200, 2000, 2400], "columns": ["80", "60", "40", "20", "10"],
                   "ber": [0.0, 1e-5, 1e-4, 1e-3, 2e-3, 3e-3, 5e-3, 1e-2, 2e-2, 5e-2]})
    done = {(Run(points[0], 1).key)}
    batches = plan(points, 2, done, workers=2)
    sizes = [len({r.key[0] for r in b}) for b in batches]
    assert sizes == [13] * 12 + [11, 9, 6, 5, 4, 3, 2, 2, 2]  # the last ones shrink: the workers end together
    runs = [r.key for b in batches for r in b]
    assert len(runs) == len(set(runs)) == 399 and Run(points[0], 0).key in runs
    assert len(plan(points[:4], 3, set(), workers=2)) == 4  # few points: one a batch


def _ber_points(n: int) -> list[dict]:
    return grid({"ber": [round(1e-7 * i, 12) for i in range(n)]})


def test_a_dask_cluster_gets_fewer_bigger_batches_than_a_pool():
    """A Dask hand-out costs the client, the scheduler and the worker milliseconds of CPU, so a
    cluster asks for 2 batches a worker where a pool asks for 8; the last ones shrink all the same."""
    points = _ber_points(200)
    pool = plan(points, 1, set(), workers=2)
    dask = plan(points, 1, set(), workers=2, per_worker=DASK_BATCHES_PER_WORKER)
    assert (len(pool), len(dask)) == (21, 11)
    assert [len(b) for b in dask] == [50, 38, 28, 21, 16, 12, 9, 7, 7, 7, 5]
    assert [r.key for b in dask for r in b] == [r.key for b in pool for r in b]
    assert ProcessPool(2).batches_per_worker == BATCHES_PER_WORKER == 8


def test_ten_thousand_points_go_out_in_as_many_batches_as_two_hundred():
    """The number of hand-outs depends on the workers, not on the points: a 10,000-point sweep's
    batches are about 50 times as big as a 200-point one's, every run once, in sweep order."""
    for n, count in ((200, 21), (10_000, 24)):  # full batches of 13 and 625 points: 8 a worker
        points = _ber_points(n)
        done = {Run(points[-1], 0).key}
        batches = plan(points, 2, done, workers=2)
        assert len(batches) == count
        full = -(-n // 16)
        assert max(len(b) for b in batches) == 2 * full
        assert all(len(b) >= 2 * -(-full // 8) for b in batches[:-1])  # none smaller than 1/8
        runs = [r.key for b in batches for r in b]
        keys = [Run(p, i).key for p in points for i in range(2)]
        assert runs == keys[:-2] + keys[-1:]  # in order, the one done left out


def test_a_sweeps_work_per_point_does_not_grow_with_the_points(monkeypatch, tmp_path):
    """Count the canonical texts of points a whole sweep builds (its commonest operation: planning,
    rows in order, summary), with a task that makes rows without simulating: the same per point for
    100 points and 2,000."""
    import importlib

    grid_module, results_module, runner_module = (
        importlib.import_module(f"ibm1013.sweep.{name}") for name in ("grid", "results", "runner"))

    template = run_one(DECK, Run(_ber_points(1)[0], 0))
    calls = [0]
    real = grid_module.point_key

    def counted(point):
        calls[0] += 1
        return real(point)

    for module in (grid_module, results_module, runner_module):
        monkeypatch.setattr(module, "point_key", counted)

    class Here:
        workers = 2

        def map(self, deck, batches, task):
            return (task(deck, b) for b in batches)

    def task(deck, runs):
        return [{**template, **r.point, "seed_index": r.seed_index, "seed": r.seed} for r in runs]

    per_point = []
    for n in (100, 2000):
        calls[0] = 0
        outputs = [str(tmp_path / f"{n}.csv"), str(tmp_path / f"{n}.jsonl")]
        result = run_sweep(DECK, _ber_points(n), 2, backend=Here(), outputs=outputs, task=task)
        assert len(result.rows) == 2 * n and len(result.summary) == n
        per_point.append(calls[0] / n)
    assert per_point[0] == per_point[1], per_point


def test_each_row_is_encoded_once_a_file_and_the_rewrite_keeps_its_bytes(monkeypatch, tmp_path):
    """A results file is a journal rewritten in sweep order at the end: the rewrite puts the lines
    appended in order rather than encoding every row's cells again (a row was encoded twice a file,
    two fifths of the sweep process's own work), and gives the bytes a fresh encoding gives."""
    import ibm1013.sweep.results as results_module

    template = run_one(DECK, Run(_ber_points(1)[0], 0))
    lines = [0]
    real = results_module.ResultsFile._line

    def counted(self, row):
        lines[0] += 1
        return real(self, row)

    monkeypatch.setattr(results_module.ResultsFile, "_line", counted)

    class Backwards:  # the batches come back last first: the rewrite has to reorder every line
        workers = 2

        def map(self, deck, batches, task):
            return (task(deck, b) for b in reversed(batches))

    def task(deck, runs):
        return [{**template, **r.point, "seed_index": r.seed_index, "seed": r.seed} for r in runs]

    outputs = [str(tmp_path / "a.csv"), str(tmp_path / "a.jsonl")]
    result = run_sweep(DECK, _ber_points(50), 2, backend=Backwards(), outputs=outputs, task=task)
    assert lines[0] == 2 * len(result.rows) == 200
    for path in outputs:
        fresh = ResultsFile(str(tmp_path / ("fresh" + os.path.splitext(path)[1])))
        fresh.open_append(fresh=True)
        fresh.close()
        fresh.rewrite(result.rows)
        with open(path, "rb") as a, open(fresh.path, "rb") as b:
            assert a.read() == b.read(), path
