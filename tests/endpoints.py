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
