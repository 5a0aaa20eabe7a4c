"""The process pool's fixed costs (issue 52): the deck handed to the workers in shared memory."""

import multiprocessing
import pickle

import numpy as np

from ibm1013.sweep.backends import _in_shared_memory
from ibm1013.sweep.grid import synthetic_deck


def test_what_the_batches_share_goes_to_the_workers_as_pickled_bytes_in_shared_memory():
    """The deck is pickled once, into memory the workers map, not into each worker's pipe (the
    sweeps of tests/test_sweep.py check that the workers read it back whole)."""
    deck = synthetic_deck(1000)
    block = _in_shared_memory(multiprocessing.get_context("forkserver"), deck)
    assert np.array_equal(pickle.loads(memoryview(block)), deck)
    assert len(block) > 160_000  # the whole deck, 2 bytes a column
    assert type(block).__module__ == "multiprocessing.sharedctypes"
