"""Saved rolls in the store: save, list, resolve, rename, delete, suggestions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.campaigns.saved_rolls import (
    MAX_SAVED,
    SavedRoll,
    Table,
    delete,
    find,
    listed,
    rename,
    resolve,
    save,
    suggestions,
    usable,
)
from core.rules.errors import Malformed, NotAllowedNow
from core.store.models import SavedRoll as SavedRow

pytestmark = pytest.mark.db

ADA, BEA = 1001, 1002
TABLE = Table(-500, 0)
TOPIC = Table(-500, 7)


async def test_save_list_and_replace(db: str) -> None:
    saved, replaced = await save(ADA, "Atk", "1d20+5  adv")
    assert (saved.name, saved.text, replaced) == ("Atk", "1d20+5 adv", False)
    _, replaced = await save(ADA, "ATK", "1d20+6")
    assert replaced
    assert [(s.name, s.text) for s in await listed(ADA)] == [("ATK", "1d20+6")]
    assert await listed(BEA) == ()


async def test_the_table_and_own_rolls(db: str) -> None:
    await save(ADA, "init", "1d20+2", TABLE)
    await save(ADA, "fire", "8d6", TABLE)
    await save(BEA, "fire", "2d6")
    seen = await listed(BEA, TABLE)
    assert [(s.name, s.text, s.table) for s in seen] == [
        ("fire", "2d6", False),
        ("init", "1d20+2", True),
    ]
    assert await listed(BEA, TOPIC) == tuple(s for s in seen if not s.table)
    found = await resolve("init + fire", BEA, TABLE)
    assert found is not None
    assert found.expression.notation == "(1d20 + 2) + (2d6)"
    assert found.expression.label == "init, fire"
    assert await resolve("init", BEA, TOPIC) is None  # another topic, another table


async def test_resolve_names_the_saved_roll_and_keeps_a_note(db: str) -> None:
    await save(ADA, "атака", "1d20+5 удар мечом")
    await save(ADA, "dmg", "1d8+3")
    await save(ADA, "crit", "dmg*2")
    found = await resolve("Атака", ADA)
    assert found is not None and found.expression.label == "атака: удар мечом"
    crit = await resolve("crit", ADA)
    assert crit is not None and crit.expression.notation == "((1d8 + 3) * 2)"
    assert await resolve("1d20+5", ADA) is None
    assert await resolve("", ADA) is None


async def test_bad_input_changes_nothing(db: str) -> None:
    await save(ADA, "a", "1d4")
    for name, text in [
        ("d20", "1d6"),
        ("<b>x</b>", "1d6"),
        ("x" * 40, "1d6"),
        ("b", "1d6" + "+1" * 600),
        ("b", "<script>"),
        ("b", "b+1"),
        ("a", "a+1"),
    ]:
        with pytest.raises(Malformed):
            await save(ADA, name, text)
    assert [(s.name, s.text) for s in await listed(ADA)] == [("a", "1d4")]


async def test_a_loop_made_afterwards_is_refused_when_rolled(db: str) -> None:
    await save(ADA, "a", "1d4")
    await save(ADA, "b", "a+1")
    row = await SavedRow.get(owner_tg_id=ADA, name_key="a")
    row.text = "b+1"  # as a rename could leave it
    await row.save()
    with pytest.raises(Malformed) as raised:
        await resolve("b", ADA)
    assert raised.value.values["loop"] == "b → a → b"


async def test_rename_and_delete(db: str) -> None:
    atk, _ = await save(ADA, "atk", "1d20")
    await save(ADA, "dmg", "1d8")
    renamed = await rename(atk.id, ADA, "Удар")
    assert (renamed.roll.name, renamed.updated) == ("Удар", ())
    assert (await find(ADA, "удар")).text == "1d20"
    with pytest.raises(NotAllowedNow):
        await rename(atk.id, ADA, "DMG")
    with pytest.raises(NotAllowedNow):
        await rename(atk.id, BEA, "mine")
    with pytest.raises(NotAllowedNow):
        await delete(atk.id, BEA)
    await delete(atk.id, ADA)
    with pytest.raises(NotAllowedNow):
        await delete(atk.id, ADA)
    with pytest.raises(NotAllowedNow):
        await find(ADA, "удар")


async def test_renaming_rewrites_the_rolls_that_use_it(db: str) -> None:
    dmg, _ = await save(ADA, "dmg", "1d8+3")
    await save(ADA, "crit", "dmg*2 [dmg twice]")
    await save(ADA, "combo", "(1d20 + DMG) - dmg")
    await save(ADA, "other", "1d6 dmg")  # after the arithmetic "dmg" is a note, not a use
    await save(BEA, "dmg", "1d4")
    await save(BEA, "crit", "dmg*2")  # someone else's: not theirs to follow
    await save(ADA, "dmg", "1d10", TABLE)
    await save(ADA, "big", "dmg*3", TABLE)  # the table's: its own rolls only
    done = await rename(dmg.id, ADA, "damage")
    assert (done.roll.name, done.updated) == ("damage", ("combo", "crit"))
    texts = {s.name: s.text for s in await listed(ADA)}
    assert texts == {
        "combo": "(1d20 + damage) - damage",
        "crit": "damage*2 [dmg twice]",
        "damage": "1d8+3",
        "other": "1d6 dmg",
    }
    crit = await resolve("crit", ADA)
    assert crit is not None and crit.expression.notation == "((1d8 + 3) * 2[dmg twice])"
    assert (await find(BEA, "crit")).text == "dmg*2"
    assert (await find(ADA, "big", TABLE)).text == "dmg*3"
    # a table's roll renamed by its host: the table's rolls follow, nobody's own do
    table_dmg = await find(ADA, "dmg", TABLE)
    done = await rename(table_dmg.id, BEA, "hit", TABLE)
    assert done.updated == ("big",)
    assert (await find(ADA, "big", TABLE)).text == "hit*3"
    # only the case changed: every use still finds it, nothing is rewritten
    done = await rename(dmg.id, ADA, "Damage")
    assert done.updated == ()


async def test_a_rename_that_would_make_a_use_too_long_changes_nothing(db: str) -> None:
    a, _ = await save(ADA, "a", "1d4")
    long = "+".join(["a"] * 60)
    await save(ADA, "many", long)
    with pytest.raises(NotAllowedNow):
        await rename(a.id, ADA, "a" + "x" * 30)
    assert {s.name: s.text for s in await listed(ADA)} == {"a": "1d4", "many": long}


async def test_the_host_changes_the_tables_rolls(db: str) -> None:
    init, _ = await save(ADA, "init", "1d20+2", TABLE)
    with pytest.raises(NotAllowedNow):
        await delete(init.id, BEA)  # not hosting
    with pytest.raises(NotAllowedNow):
        await delete(init.id, BEA, TOPIC)  # hosting another table
    assert (await usable(init.id, BEA, TABLE)).name == "init"
    with pytest.raises(NotAllowedNow):
        await usable(init.id, BEA, TOPIC)
    await rename(init.id, BEA, "start", TABLE)
    await delete(init.id, BEA, TABLE)
    assert await listed(BEA, TABLE) == ()


async def test_at_most_so_many(db: str) -> None:
    for n in range(MAX_SAVED):
        await save(ADA, f"r{n}x", "1d6")
    with pytest.raises(NotAllowedNow):
        await save(ADA, "more", "1d6")
    await save(ADA, "r1x", "1d8")  # replacing one is fine


async def test_suggestions(db: str) -> None:
    for name in ["Atk", "atk2", "Attack", "dmg", "атака"]:
        await save(ADA, name, "1d20")
    await save(BEA, "atk", "1d4")
    await save(ADA, "attable", "1d4", TABLE)
    found = await suggestions(ADA, "AT")
    assert found == [SavedRoll("Atk", "1d20", found[0].id), *found[1:]]
    assert [s.name for s in found] == ["Atk", "atk2", "Attack"]
    assert [s.name for s in await suggestions(ADA, "at", limit=2)] == ["Atk", "atk2"]
    assert [s.name for s in await suggestions(ADA, "")] == ["Atk", "atk2", "Attack", "dmg", "атака"]
    assert [s.name for s in await suggestions(ADA, "АТ")] == ["атака"]
    assert await suggestions(ADA, "zz") == []
    assert await suggestions(ADA, "%") == []
    assert await suggestions(ADA, "_") == []


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.text(max_size=50) | st.sampled_from(["atk", "d20", "<b>x</b>", "Атака", "ß" * 17]),
    st.text(max_size=80) | st.sampled_from(["1d20+5 adv", "atk+1", "1d6" * 400, "<i>"]),
)
async def test_any_input_is_saved_or_refused_in_words(db: str, name: str, text: str) -> None:
    before = await listed(ADA)
    try:
        saved, _ = await save(ADA, name, text)
    except Malformed:
        assert await listed(ADA) == before  # refused: nothing changed
        return
    assert saved.name == name.strip() and len(saved.name) <= 32
    assert (await find(ADA, name)).text == saved.text
    await delete(saved.id, ADA)
