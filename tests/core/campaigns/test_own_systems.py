"""A group's own game systems in the store: create, edit, delete, list, share, import."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable

import pytest

from core.campaigns import Campaigns
from core.campaigns import own_systems as own
from core.campaigns.play import ChatRef, PlayerRef
from core.rules import systems
from core.rules.errors import Malformed, NotAllowedNow
from core.rules.rng import SeededRng
from core.rules.systems import definition as fmt
from core.rules.systems.play import TOO_LARGE_DEFINITION
from core.runtime.locks import InProcessKeyedLock
from core.store.models import OwnSystem, OwnSystemVersion
from core.store.unit import UnitOfWork
from tests.support.counter_system import counter_registry
from tests.support.own_system import OUR_GAME

pytestmark = pytest.mark.db

GROUP, OTHER = -100123, -100456
HANA, BEN = 1, 2
LOCKS = InProcessKeyedLock(5, 2)

GOOD = OUR_GAME


def variant(change: Callable[[dict[str, object]], None]) -> str:
    data = tomllib.loads(GOOD)
    change(data)
    return json.dumps(data, ensure_ascii=False)


def renamed(key: str, en: str, ru: str) -> str:
    def change(data: dict[str, object]) -> None:
        data["key"] = key
        data["name"] = {"en": en, "ru": ru}

    return variant(change)


async def create(text: str, chat: int = GROUP, user: int = HANA) -> own.OwnVersion:
    return await own.create(chat, user, text, locks=LOCKS, unit=UnitOfWork())


async def test_create_list_show_and_read_for_a_game(db: str) -> None:
    made = await create(GOOD)
    assert (made.key, made.version, made.definition.name.ru) == ("mine", 1, "Наша игра")
    listed = await own.listed(GROUP)
    assert listed[0] == own.Listed("mine", "Our game", "Наша игра", 1, own=True)
    assert [s.key for s in listed[1:]] == list(systems.LIBRARY)
    assert await own.listed(OTHER) == tuple(s for s in listed if not s.own)
    definition, version = await own.own_definition(GROUP, "MINE")
    assert (definition.key, version) == ("mine", 1)
    with pytest.raises(NotAllowedNow):
        await own.own_definition(OTHER, "mine")
    row = await OwnSystem.get(chat_tg_id=GROUP, key="mine")
    assert (row.created_by_tg_id, row.updated_by_tg_id) == (HANA, HANA)


async def test_edit_keeps_every_version(db: str) -> None:
    await create(GOOD)
    text = GOOD.replace("max = 3", "max = 4")
    edited = await own.edit(GROUP, BEN, "mine", text, locks=LOCKS, unit=UnitOfWork())
    assert edited.version == 2
    assert await own.versions(GROUP, "mine") == (1, 2)
    first, _ = await own.own_definition(GROUP, "mine", 1)
    now, version = await own.own_definition(GROUP, "mine")
    assert (first.inputs[0].high, now.inputs[0].high, version) == (3, 4, 2)
    row = await OwnSystem.get(chat_tg_id=GROUP, key="mine")
    assert (row.created_by_tg_id, row.updated_by_tg_id) == (HANA, BEN)
    with pytest.raises(NotAllowedNow) as caught:  # a new key is a new system
        await own.edit(
            GROUP, HANA, "mine", renamed("yours", "Yours", "Ваша"), locks=LOCKS, unit=UnitOfWork()
        )
    assert caught.value.message_id == own.KEY_CHANGED
    assert await own.versions(GROUP, "mine") == (1, 2)


def _unbounded(data: dict[str, object]) -> None:
    data["dice"] = {"roll": {"count": "2", "die": "d6!>0"}}


def _overlap(data: dict[str, object]) -> None:
    data["outcomes"][1]["max"] = 8  # type: ignore[index]


def _html(data: dict[str, object]) -> None:
    data["outcomes"][0]["label"]["en"] = "<b>Good</b>"  # type: ignore[index]


def _huge(data: dict[str, object]) -> None:
    data["inputs"][0]["max"] = 400  # type: ignore[index]
    data["dice"] = {"roll": {"count": "max(mod, 1)", "die": "d20!"}}


@pytest.mark.parametrize(
    ("change", "message", "field"),
    [
        (_unbounded, fmt.UNBOUNDED, "dice.roll.die"),
        (_overlap, fmt.BANDS_OVERLAP, "outcomes"),
        (_html, fmt.LABEL_HTML, "outcomes[0].label.en"),
        (_huge, TOO_LARGE_DEFINITION, "inputs"),
    ],
)
async def test_a_bad_definition_is_refused_naming_the_field_and_nothing_is_stored(
    db: str, change: Callable[[dict[str, object]], None], message: str, field: str
) -> None:
    with pytest.raises(Malformed) as caught:
        await create(variant(change))
    assert caught.value.message_id == message
    assert str(caught.value.values["field"]).startswith(field)
    await create(GOOD)
    with pytest.raises(Malformed):
        await own.edit(GROUP, HANA, "mine", variant(change), locks=LOCKS, unit=UnitOfWork())
    assert await OwnSystemVersion.all().count() == 1


async def test_a_key_or_name_taken_here_or_in_the_library_is_refused(db: str) -> None:
    await create(GOOD)
    cases = [
        (renamed("mine", "Another", "Другая"), own.KEY_TAKEN),
        (renamed("other", "our GAME", "Другая"), own.NAME_TAKEN),
        (renamed("other", "Another", "Наша игра"), own.NAME_TAKEN),
        (renamed("pbta", "Another", "Другая"), own.KEY_TAKEN),
        (renamed("other", "Powered by the Apocalypse", "Другая"), own.NAME_TAKEN),
        (renamed("nsu", "Another", "Другая"), own.KEY_TAKEN),
    ]
    for text, message in cases:
        with pytest.raises(NotAllowedNow) as caught:
            await create(text)
        assert caught.value.message_id == message
    assert await OwnSystem.all().count() == 1
    await create(renamed("mine", "Our game", "Наша игра"), chat=OTHER)  # another group's


async def test_limits_systems_per_group_and_size(db: str) -> None:
    for i in range(own.MAX_OWN_SYSTEMS):
        await create(renamed(f"s{i}", f"System {i}", f"Система {i}"))
    with pytest.raises(NotAllowedNow) as caught:
        await create(renamed("one_more", "One more", "Ещё одна"))
    assert caught.value.values == {"limit": own.MAX_OWN_SYSTEMS}
    padded = GOOD + "#" * (own.MAX_OWN_BYTES - len(GOOD.encode()) + 1)
    assert len(padded) < fmt.MAX_DEFINITION  # the store's limit is the tighter
    with pytest.raises(Malformed) as too_long:
        await create(padded, chat=OTHER)
    assert too_long.value.message_id == own.TOO_LONG
    assert await OwnSystem.filter(chat_tg_id=OTHER).count() == 0


async def test_only_a_host_of_a_game_here_may_change_the_systems(db: str) -> None:
    campaigns = Campaigns(counter_registry(), SeededRng(3), LOCKS)
    await campaigns.new_game(ChatRef(GROUP, "supergroup"), PlayerRef(HANA, "Hana"), "counter")
    with pytest.raises(NotAllowedNow) as caught:
        await create(GOOD, user=BEN)
    assert caught.value.message_id == own.NOT_HOST
    await create(GOOD, user=HANA)
    for refused in (
        own.delete(GROUP, BEN, "mine", locks=LOCKS, unit=UnitOfWork()),
        own.share(GROUP, BEN, "mine", locks=LOCKS, unit=UnitOfWork()),
        own.edit(GROUP, BEN, "mine", GOOD, locks=LOCKS, unit=UnitOfWork()),
    ):
        with pytest.raises(NotAllowedNow):
            await refused
    assert await own.versions(GROUP, "mine") == (1,)
    with pytest.raises(NotAllowedNow) as private:
        await create(GOOD, chat=BEN)
    assert private.value.message_id == own.NOT_A_GROUP


async def test_share_then_import_a_copy_into_another_group(db: str) -> None:
    await create(GOOD)
    await own.edit(
        GROUP, HANA, "mine", GOOD.replace("max = 3", "max = 2"), locks=LOCKS, unit=UnitOfWork()
    )
    token = await own.share(GROUP, HANA, "mine", locks=LOCKS, unit=UnitOfWork())
    assert token == await own.share(GROUP, HANA, "mine", locks=LOCKS, unit=UnitOfWork())
    copy = await own.import_shared(
        OTHER, BEN, own.SHARE_PREFIX + token, locks=LOCKS, unit=UnitOfWork()
    )
    assert (copy.key, copy.version, copy.definition.inputs[0].high) == ("mine", 1, 2)
    with pytest.raises(NotAllowedNow):  # already there
        await own.import_shared(OTHER, BEN, token, locks=LOCKS, unit=UnitOfWork())
    with pytest.raises(NotAllowedNow) as gone:
        await own.import_shared(OTHER, BEN, "nothing", locks=LOCKS, unit=UnitOfWork())
    assert gone.value.message_id == own.NO_SHARED
    assert await own.delete(GROUP, HANA, "MINE", locks=LOCKS, unit=UnitOfWork()) == "mine"
    assert await own.versions(GROUP, "mine") == ()
    assert await own.versions(OTHER, "mine") == (1,)  # the copy is the group's own
    with pytest.raises(NotAllowedNow):
        await own.import_shared(-100789, BEN, token, locks=LOCKS, unit=UnitOfWork())
