"""In-process helpers for the serial endpoint tests: one end in a thread, exact reads from a link."""

import threading
import time
from collections.abc import Callable
from typing import Any

from emulator.serial import Link


class InThread(threading.Thread):
    """``call()`` in a thread; ``result`` is what it returned or the exception it raised."""

    def __init__(self, call: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.call = call
        self.result: Any = None

    def run(self) -> None:
        try:
            self.result = self.call()
        except Exception as err:  # noqa: BLE001 - handed back to the test
            self.result = err

    def outcome(self, timeout: float = 30) -> Any:
        """Wait (at most ``timeout`` s) and give the result; an end still running fails the test."""
        self.join(timeout)
        assert not self.is_alive(), f"{self.call} still running after {timeout} s"
        return self.result


def read_exactly(link: Link, n: int, timeout: float = 5.0) -> bytes:
    """Up to ``n`` bytes from ``link``, waiting at most ``timeout`` s for all of them."""
    got = bytearray()
    deadline = time.monotonic() + timeout
    while len(got) < n and time.monotonic() < deadline:
        got += link.read(n - len(got), 0.2)
    return bytes(got)


def until(condition: Callable[[], Any], timeout: float = 30.0, what: str = "") -> Any:
    """Wait for ``condition()`` to come true and return it; ``timeout`` is only a guard against a
    hang (the test fails after it), never part of what is checked."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"still waiting after {timeout} s for {what or condition}"
        time.sleep(0.01)
    return value


class Clock:
    """A clock the test moves by hand (``clock.now = 0.6``): give it to a
    :class:`~emulator.virtual_line.VirtualLine` to check its pacing and cuts on any machine load."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
