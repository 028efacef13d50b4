"""Lines the rules say to users, kept as message ids with values so the edge can word them.

A :class:`Said` is a ``str`` (its English, as it always read) that also remembers
its message id and values, so anything that takes plain lines keeps working while
an edge that knows the reader's language words it again with :func:`worded`. A
value may itself be a :class:`Said` (translated too) or a :class:`Joined` list of
them, or a :class:`Term` (a word with a catalogue context); any other value (a name, a
number, player text) is inserted as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Value = str | int


class Said(str):
    """A message id and its values; as a ``str``, the English sentence."""

    message_id: str
    values: dict[str, Value]

    def __new__(cls, message: str, **values: Value) -> Said:
        said = super().__new__(cls, message.format(**values) if values else message)
        said.message_id = message
        said.values = values
        return said


class Joined(str):
    """Values shown one after another with ``separator`` between them (each worded)."""

    separator: str
    items: tuple[Value, ...]

    def __new__(cls, separator: str, items: Sequence[Value]) -> Joined:
        joined = super().__new__(cls, separator.join(str(i) for i in items))
        joined.separator = separator
        joined.items = tuple(items)
        return joined


class Term(str):
    """A game's word the catalogue holds under a context (another game may share the
    English word with another meaning); as a ``str``, the English word."""

    context: str

    def __new__(cls, context: str, word: str) -> Term:
        term = super().__new__(cls, word)
        term.context = context
        return term


def worded(
    value: Value,
    gettext: Callable[..., str],
    pgettext: Callable[[str, str], str] | None = None,
) -> str:
    """``value`` in the language of ``gettext`` (``lang.gettext``): a plain str stays as it
    is; a :class:`Term` is translated when ``pgettext`` (``lang.pgettext``) is given."""
    if isinstance(value, Said):
        values = {k: worded(v, gettext, pgettext) for k, v in value.values.items()}
        return gettext(value.message_id, **values)
    if isinstance(value, Joined):
        return value.separator.join(worded(i, gettext, pgettext) for i in value.items)
    if isinstance(value, Term) and pgettext is not None:
        return pgettext(value.context, str(value))
    return str(value)
