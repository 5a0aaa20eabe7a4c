"""``ibm1013 sweep`` on real Dask clusters: a LocalCluster of two worker processes, and a ``dask
scheduler`` with two ``dask worker`` processes on 127.0.0.1 (started here, stopped afterwards).
Each must give the process pool's file byte for byte; a worker killed mid-sweep is replaced and its
point run again; an unreachable scheduler is one line and exit 2, within the timeout."""

import functools
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import external
import pytest

external.module("distributed")  # of the [test] extra: a skip here (a failure under CI) says so

from distributed import Client  # noqa: E402
from test_sweep import DECK, SEEDS, VALUES, die_once, fail_at_noise, reference_bytes  # noqa: E402

from emulator.errors import IbmError  # noqa: E402
from ibm1013.cli.main import main  # noqa: E402
from ibm1013.sweep import grid, run_sweep  # noqa: E402
from ibm1013.sweep.backends import DASK_BATCHES_PER_WORKER  # noqa: E402
from ibm1013.sweep.cluster import DaskCluster  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def reference_csv():
    """What the process pool writes for the same sweep."""
    return reference_bytes()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, os.path.join(ROOT, "tests")])}
QUIET = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": ENV, "cwd": ROOT,
         "start_new_session": True}


@pytest.fixture(scope="module")
def bare_scheduler():
    """A ``dask scheduler`` on 127.0.0.1 with no workers yet: its address, and the list of processes
    to stop afterwards (the workers added later too)."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1",
                               "--port", str(port), "--no-dashboard"], **QUIET)]
    try:
        deadline = time.monotonic() + 60
        while True:  # the scheduler takes a moment to listen
            try:
                Client(address, timeout=5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        yield address, procs
    finally:
        for proc in reversed(procs):  # the workers (each a nanny and its worker), then the scheduler
            stop(proc)


@pytest.fixture(scope="module")
def scheduler(bare_scheduler):
    """The scheduler with two ``dask worker`` processes; its address."""
    address, procs = bare_scheduler
    for _ in range(2):
        procs.append(subprocess.Popen([sys.executable, "-m", "dask", "worker", address, "--nthreads",
                                       "1", "--no-dashboard", "--death-timeout", "60"], **QUIET))
    with Client(address, timeout=10) as client:
        client.wait_for_workers(2, timeout=60)
    return address


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM; after 5 s SIGKILL to its whole process group (a nanny's worker too)."""
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)


@pytest.mark.timeout(120)
def test_local_cluster_of_two_workers_gives_the_pools_bytes(tmp_path, reference_csv):
    path = str(tmp_path / "local.csv")
    cluster = DaskCluster("local", 2, timeout=60)
    try:
        assert "2 workers" in cluster.description
        assert cluster.batches_per_worker == DASK_BATCHES_PER_WORKER
        result = run_sweep(DECK, grid(VALUES), SEEDS, backend=cluster, outputs=[path])
    finally:
        cluster.close()
    assert result.ran == 4 * SEEDS
    assert open(path, "rb").read() == reference_csv


@pytest.mark.timeout(60)
def test_a_scheduler_without_workers_is_one_line_after_the_timeout(bare_scheduler):
    address, _ = bare_scheduler
    start = time.monotonic()
    with pytest.raises(IbmError, match=f"--dask {address}: the scheduler has no workers .waited 1 s"):
        DaskCluster(address, 2, timeout=1)
    assert time.monotonic() - start < 45  # a guard against a hang (the test's own timeout is 60 s)


@pytest.mark.timeout(120)
def test_scheduler_and_two_workers_give_the_pools_bytes(tmp_path, scheduler, reference_csv, capsys):
    path = str(tmp_path / "tcp.csv")
    code = main(["sweep", "--cards", "8", "--bit-rate", "1200,2400", "--ber", "0,2e-3", "--seeds",
                 str(SEEDS), "--dask", scheduler, "--dask-timeout", "30", "-o", path])
    out, err = capsys.readouterr()
    assert code == 0 and err == "", err
    assert f"Dask at {scheduler} (2 workers)" in out
    assert open(path, "rb").read() == reference_csv


@pytest.mark.timeout(120)
def test_a_dask_worker_that_dies_is_replaced_and_its_point_rerun(tmp_path, scheduler, reference_csv):
    path, marker = str(tmp_path / "tcp.csv"), str(tmp_path / "died")
    cluster = DaskCluster(scheduler, 2, timeout=30)
    try:
        run_sweep(DECK, grid(VALUES), SEEDS, backend=cluster, outputs=[path],
                  task=functools.partial(die_once, marker))
    finally:
        cluster.close()
    assert os.path.exists(marker)
    assert open(path, "rb").read() == reference_csv


@pytest.mark.timeout(60)
def test_unreachable_scheduler_is_one_line_within_the_timeout(tmp_path, capsys):
    address = f"tcp://127.0.0.1:{free_port()}"
    start = time.monotonic()
    code = main(["sweep", "--cards", "2", "--dask", address, "--dask-timeout", "2",
                 "-o", str(tmp_path / "runs.csv")])
    err = capsys.readouterr().err
    assert code == 2 and time.monotonic() - start < 45  # a guard against a hang
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"ibm1013: --dask {address}: no Dask scheduler "
                                                   f"answered within 2 s"), err
    assert os.listdir(tmp_path) == []


def _sweep_tasks(dask_scheduler) -> int:
    """On the scheduler: the batches of a sweep it knows (``client.run_on_scheduler``)."""
    return sum("_dask_work" in str(key) for key in dask_scheduler.tasks)


def _plugins(dask_scheduler) -> list[str]:
    return [name for name in dask_scheduler.worker_plugins if name.startswith("ibm1013-shared-")]


def _shared_on_worker() -> list[str]:
    from ibm1013.sweep.dask_shared import SHARED

    return list(SHARED)


def _nothing_left(cluster: DaskCluster) -> bool:
    """No sweep's plugin on the scheduler, and no sweep's value on any worker."""
    client = cluster.client
    return client.run_on_scheduler(_plugins) == [] and \
        all(v == [] for v in client.run(_shared_on_worker).values())


@pytest.mark.timeout(120)
def test_the_batches_go_out_while_the_plugin_is_registered_and_it_is_gone_after(tmp_path, reference_csv):
    """The batches need not wait for the round trip that registers what they share (a batch that
    reaches a worker first waits there for it): here the registration itself waits until the
    scheduler has the batches.  A sweep that registered first, then handed out its batches, never
    gets there and fails.  When run_sweep returns, nothing of the sweep is left on the scheduler or
    the workers, after a sweep that failed too."""
    cluster = DaskCluster("local", 2, timeout=60)
    register = cluster.client.register_plugin

    def after_the_batches(plugin, name):
        deadline = time.monotonic() + 20
        while not cluster.client.run_on_scheduler(_sweep_tasks):
            if time.monotonic() > deadline:
                raise TimeoutError("the batches were not handed out before the plugin was registered")
            time.sleep(0.01)
        return register(plugin, name=name)

    path = str(tmp_path / "local.csv")
    try:
        cluster.client.register_plugin = after_the_batches
        result = run_sweep(DECK, grid(VALUES), SEEDS, backend=cluster, outputs=[path])
        assert result.ran == 4 * SEEDS and open(path, "rb").read() == reference_csv
        assert _nothing_left(cluster)
        cluster.client.register_plugin = register
        with pytest.raises(IbmError, match="run failed at"):
            run_sweep(DECK, grid(VALUES), SEEDS, backend=cluster, outputs=[str(tmp_path / "failed.csv")],
                      task=fail_at_noise)
        assert _nothing_left(cluster)
    finally:
        cluster.close()


def test_a_batch_waits_for_the_shared_value_and_gives_up_after_its_timeout():
    from ibm1013.sweep.dask_shared import Shared, shared

    got = []
    waiting = threading.Thread(target=lambda: got.append(shared("waited-for", 60)))
    waiting.start()
    plugin = Shared("waited-for", "the deck")
    plugin.setup(None)
    waiting.join(60)
    assert got == [(True, "the deck")]
    plugin.teardown(None)
    assert shared("waited-for", 60) == (False, None)  # the sweep ended: no waiting
    assert shared("never-registered", 0.01) == (False, None)


@pytest.mark.timeout(120)
def test_a_local_cluster_says_nothing_when_another_dask_holds_its_port(tmp_path):
    """``sweep --dask local`` while another Dask holds port 8787 (where a scheduler serves its health
    checks over HTTP, dashboard or not): the rows and the summary, and not a word on stderr."""
    holder = socket.socket()
    try:
        try:
            holder.bind(("", 8787))
            holder.listen()
        except OSError:
            pass  # held by something else already: the same case
        command = ["sweep", "--cards", "4", "--ber", "0", "--seeds", "2", "--dask", "local", "--workers", "1",
                   "-o", str(tmp_path / "out.csv")]
        done = subprocess.run([sys.executable, "-m", "ibm1013", *command], capture_output=True, text=True,
                              env=ENV, cwd=tmp_path, timeout=100)
    finally:
        holder.close()
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (tmp_path / "out.csv").read_text().count("\n") == 3  # the header and two runs
