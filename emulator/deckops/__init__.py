"""The card room: what the sorter, collator and reproducing punch did to decks, on deck arrays.

Card rooms kept decks in order with a few machines: the IBM 082/083 sorter (one column at a time
into 13 pockets), the 085/088 collator (merging two sorted decks and matching their cards), the
514/519 reproducing punch (copying fields card by card through a plugboard) and the keypunch
operator's eye for sequence numbers in columns 73–80.  Each module here is one of those jobs,
working on deck arrays (:mod:`emulator.deck`): numpy passes over whole columns, never a Python
object per card.

* :mod:`~emulator.deckops.fields` — column fields (``73-80``) and card ranges (``10-20,40-``);
* :mod:`~emulator.deckops.collate` — the collating sequence of a code's punches;
* :mod:`~emulator.deckops.keys` — fields turned into numpy sort keys (characters or numbers);
* :mod:`~emulator.deckops.select` — pulling cards by number, content or holes;
* :mod:`~emulator.deckops.sort` — stable multi-key sorts, and the 083's pass-by-pass sort;
* :mod:`~emulator.deckops.merge` — the collator's merge and match;
* :mod:`~emulator.deckops.sequence` — checking and punching sequence numbers;
* :mod:`~emulator.deckops.reproduce` — the 514's plugboard: copy fields, gang-punch constants;
* :mod:`~emulator.deckops.stacked` — several decks in one file, separated by end-of-file cards.

A file may hold several decks separated by end-of-file cards (:data:`~emulator.deck.EOF_FLAG`
rows).  Sorting sorts each deck on its own and leaves the end-of-file cards where they are; the
other jobs pass end-of-file cards through untouched.
"""
