"""Errors a user can act on, and the exit statuses commands end with (:class:`ExitStatus`).

Every error that reaches the command line is an :class:`IbmError`: the CLI prints its message as one
line on stderr and exits with status 2, with no traceback.  Messages name the file, card (1-based) and
column (1-based) where they can, e.g. ``deck.cbn: card 3, column 17: invalid punch 12-11-1-2``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported at run time: every command reading a deck comes here
if TYPE_CHECKING:
    from emulator.exit_status import ExitStatus as ExitStatus


def __getattr__(name: str) -> object:
    """:class:`ExitStatus`, loaded from :mod:`emulator.exit_status` when first asked for (PEP 562):
    it is an :class:`enum.IntEnum`, and importing :mod:`enum` would cost a small command (``cards
    decode`` of a few cards, in a wheel install) a tenth of its start-up; the errors are on its path."""
    if name == "ExitStatus":
        from emulator.exit_status import ExitStatus

        return ExitStatus
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class IbmError(Exception):
    """Base of every user-facing error in the project."""


class CardError(IbmError, ValueError):
    """A card or column that cannot be encoded, decoded or punched.

    ``card`` and ``column`` are 1-based (as printed on a real card); ``source`` is a file name.
    """

    def __init__(
        self,
        message: str,
        *,
        card: int | None = None,
        column: int | None = None,
        source: str | None = None,
    ) -> None:
        self.reason = message
        self.card = card
        self.column = column
        self.source = source
        super().__init__(self._render())

    def _render(self) -> str:
        where = []
        if self.source:
            where.append(self.source)
        loc = []
        if self.card is not None:
            loc.append(f"card {self.card}")
        if self.column is not None:
            loc.append(f"column {self.column}")
        if loc:
            where.append(", ".join(loc))
        return ": ".join([*where, self.reason]) if where else self.reason

    def located(
        self, *, card: int | None = None, source: str | None = None
    ) -> CardError:
        """The same error with the card number and/or file name filled in (if not yet known)."""
        return type(self)(
            self.reason,
            card=self.card if self.card is not None else card,
            column=self.column,
            source=self.source if self.source is not None else source,
        )


class FormatError(CardError):
    """A deck file that is malformed for its format (truncated record, bad parity, ...)."""


class CodeError(CardError):
    """A punch pattern the card code prints no character for, or a character it has no punch for: a
    deck read or written in another code may not have it (``cards decode`` then names the codes that
    do)."""
