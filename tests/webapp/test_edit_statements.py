"""A Mini App edit reads its campaign once, in a bounded number of statements, counted
by the database itself (SQLite's trace of the ORM's connection; PostgreSQL's log).

What the sixteen are, in order: the membership check before the body is read, the
idempotency key looked up (a retry is answered from it), then in one transaction the
lock's fence, the campaign read (with its chat, host and members), the sheet saved,
the undo step kept, the undo offers and the open panels read (the group's panel is
redrawn), the panel's edit written to the outbox, the wait restarted (its start kept
with the game's reminder settings read back, the panels waiting read, the awaited
players' quiet hours read, the met reminders dropped, the new ones written), the key
kept; after the commit, the answer kept with the key for a retry to replay.
"""

from __future__ import annotations

import pytest

from tests.bench.edits import FULL_READ, MOST, edit_statements
from tests.conftest import BACKEND

pytestmark = [pytest.mark.db]


async def test_an_edit_reads_its_campaign_once_in_at_most_sixteen_statements(
    db: str, request: pytest.FixtureRequest
) -> None:
    if BACKEND == "postgres":
        from tests.support.statements import logging_statements

        server = request.getfixturevalue("postgres_server")
        async with logging_statements(server):
            seen = await edit_statements(db, server, db.rsplit("/", 1)[1])
    else:
        seen = await edit_statements(db)
    assert sum(FULL_READ in s for s in seen) == 1, seen
    assert any(s.startswith("INSERT INTO lock_fence") for s in seen), seen
    assert any(s.startswith("INSERT INTO outbox") for s in seen), seen  # the panel redrawn
    assert any(s.startswith("INSERT INTO request_key") for s in seen), seen
    assert any(s.startswith("INSERT INTO undo_step") for s in seen), seen
    assert len(seen) <= MOST, "\n".join(seen)
