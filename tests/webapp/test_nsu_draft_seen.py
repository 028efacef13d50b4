"""What the table sees of a character still being made: its player works on the whole
draft; every other member sees only that a character is being made and, once its
player has chosen it, its name (docs/nsu-in-telegram.md, docs/miniapp-nsu.md)."""

from __future__ import annotations

import pytest

from core.rules.nsu.sheet import CharacterDraft, choose_name, describe, pick_moods
from core.store.models import Member
from tests.support.stack import Stack, running_stack
from tests.webapp.test_nsu_app import ALICE, BO, CHIDI, fetch, start_table
from tgbot.sandbox.fake_api import default_cast

pytestmark = [pytest.mark.db, pytest.mark.e2e]

LOOK = "Ink-stained cuffs, a borrowed lantern"


@pytest.fixture
async def stack(db: str) -> Stack:  # type: ignore[misc]
    async with running_stack(db, players=default_cast()) as running:
        yield running


async def sheet_page(stack: Stack, who: int, token: str) -> str:
    status, raw = await fetch(stack, "GET", f"/app/c/{token}", who, token)
    assert status == 200, raw
    return raw.decode()


async def test_the_others_see_only_that_a_character_is_being_made_and_its_chosen_name(
    stack: Stack,
) -> None:
    token, campaign_id = await start_table(stack)
    chidi = await Member.get(campaign_id=campaign_id, player__tg_id=CHIDI)

    async def holds(draft: CharacterDraft) -> None:
        await Member.filter(id=chidi.id).update(sheet={"draft": draft.to_dict()})

    await holds(CharacterDraft())
    for other in (ALICE, BO):
        page = await sheet_page(stack, other, token)
        assert "Making a character…" in page

    named = pick_moods(
        describe(choose_name(CharacterDraft(), "Chi"), "ze/zir", LOOK),
        "Restless",
        "Guarded",
        "Sullen",
    )
    await holds(named)
    for other in (ALICE, BO):
        page = await sheet_page(stack, other, token)
        assert "Making a character: Chi…" in page
        for private in (LOOK, "ze/zir", "Guarded"):
            assert private not in page, (other, private)
    own = await sheet_page(stack, CHIDI, token)
    assert LOOK in own and "Guarded" in own
