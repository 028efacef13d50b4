"""A Mini App edit reads its campaign once, in a bounded number of statements, counted
by the database itself (SQLite's trace of the ORM's connection; PostgreSQL's log).

What the thirteen are, in order, and why each is there:

1. the membership check, before the body is read (a stranger's request is refused
   without reading what it sends);
2. in one transaction, under the campaign's lock: the lock's fence (a holder whose
   lease ran out saves nothing);
3. the idempotency key written (a retry of an action already saved finds it there
   and is answered from it; nothing runs twice);
4. the campaign read (with its chat, host, members and their sheets);
5. the sheet saved;
6. the undo step kept (what the edit replaced);
7. the undo offers and the open panels read together (the group's panel is redrawn);
8. the panel's edit written to the outbox (drawn and sent after the commit);
9.-12. the table moved on, so the wait restarts: its start kept with the game's
   reminder settings read back, the awaited players' quiet hours read, the met
   reminders dropped, the new ones written (whom the open panels wait on is read from
   the panels read in 7);
13. after the commit, the answer kept with the key, for a retry to replay.
"""

from __future__ import annotations

import pytest

from tests.bench.edits import FULL_READ, MOST, edit_statements
from tests.conftest import BACKEND

pytestmark = [pytest.mark.db]


async def test_an_edit_reads_its_campaign_once_in_at_most_thirteen_statements(
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
