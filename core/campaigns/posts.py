"""Posts in character: ``/say`` (as the player's character), ``/npc`` (as anyone else,
by the host or the game master) and the same picked inline from any chat.

One use case each, in the shape of every other: the words are read and their dice
rolled (:func:`core.rules.in_character.read_post`) before the lock, so a refused post
changes nothing; the post is drawn (a post too long for Telegram is refused there,
still before anything is saved); then, under the game's lock, the log keeps it, the
roll history keeps its rolls, the game's wait restarts (the player acted) and its
message is recorded, to be sent after the commit.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from enum import StrEnum

from core.campaigns.base import CampaignsBase, built, check_playing, check_seated
from core.campaigns.play import _ADD_ROLL, ChatRef, PlayerRef, _roll_rows
from core.campaigns.portraits import PortraitRef, portrait_file_ids, speaker_portrait
from core.campaigns.saved_rolls import Table as SavedTable
from core.campaigns.saved_rolls import listed
from core.campaigns.views import NO_GAME
from core.rules.catalogue import N_
from core.rules.errors import NotAllowedNow, NotYourTurn
from core.rules.in_character import EMPTY_NPC, EMPTY_SAY, NARRATOR, Post, npc_speaker, read_post
from core.rules.log import LogKind, LogLine, words
from core.rules.saved import key
from core.rules.table import Role, Table
from core.store.models import Campaign, CampaignStatus
from core.store.presses import log_statement
from core.store.repo import guarded, player_id
from core.store.sql import execute
from core.store.unit import UnitOfWork

ONLY_GM = N_(
    "Only the host or the game master speaks for others here. /say speaks as your character."
)
SAID = N_("{name} says: {text}")  # the log's line of a post
NARRATED = N_("Narrator: {text}")
LOG_KIND = LogKind.SAID


class Speaker(StrEnum):
    """Whose voice a post is in."""

    CHARACTER = "character"  # the player's own character (or the player, unnamed)
    OTHER = "other"  # a character the host or game master plays
    NARRATOR = "narrator"


@dataclass(frozen=True)
class Posted:
    """A post in character, as its message is drawn from: where it goes (the game's chat
    and topic; an inline message by its id instead), who speaks, the post, the game's
    language, and the speaker's portrait."""

    campaign_id: int
    chat_tg_id: int
    topic: int
    speaker: Speaker
    name: str
    post: Post
    language: str
    inline_message_id: str | None = None
    # the speaker's portrait, sent with the post when the post fits a picture's caption
    portrait: PortraitRef | None = None
    # an inline post picked with the portrait: its message is a picture, the post its caption
    pictured: bool = False


@dataclass(frozen=True)
class Character:
    """One character a player may post as (inline): their game, its chat's title, and
    the portrait Telegram knows (an inline result sends a picture Telegram has)."""

    campaign_id: int
    name: str
    chat_title: str
    portrait_file_id: str | None = None  # Telegram's id of the character's portrait, once known


_OFFER = re.compile(r"([sp])(\d{1,19}):([0-9a-f]{32})")


def offer_id(campaign_id: int, text: str, *, pictured: bool = False) -> str:
    """The inline result id of a post in one game: ``s`` (``p``: with the character's
    portrait), the game, a digest of the text (at most 54 bytes; the text is found again
    from the query, never from the id)."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    return f"{'p' if pictured else 's'}{campaign_id}:{digest}"


def chosen_game(result_id: str, text: str) -> int | None:
    """The game a chosen post result names, when it is a post offered for ``text``."""
    match = _OFFER.fullmatch(result_id)
    pictured = match is not None and match.group(1) == "p"
    if match is None or offer_id(int(match.group(2)), text, pictured=pictured) != result_id:
        return None
    return int(match.group(2))


class Posts(CampaignsBase):
    """Posting in character in a game."""

    async def say(
        self, chat: ChatRef, player: PlayerRef, text: str, *, unit: UnitOfWork | None = None
    ) -> Posted:
        """``/say I swing [1d20+5]``: the player's character speaks, its dice rolled.

        Raises:
            Malformed: nothing to say, dice asking too much, a post too long to send.
            NotAllowedNow: no game here, or it is paused. NotYourTurn: not in the game.
        """
        campaign = await self._game(chat)
        return await self._post(campaign, chat, player, text, None, unit)

    async def npc(
        self, chat: ChatRef, player: PlayerRef, text: str, *, unit: UnitOfWork | None = None
    ) -> Posted:
        """``/npc Gobbo: Stop [1d20]!`` (a named character) or ``/npc The door creaks.``
        (the narrator): the host or the game master only.

        Raises:
            NotYourTurn: anyone else. Malformed, NotAllowedNow: as :meth:`say`.
        """
        campaign = await self._game(chat)
        name, said = npc_speaker(text)
        return await self._post(campaign, chat, player, said, name, unit)

    async def say_inline(
        self,
        player: PlayerRef,
        campaign_id: int,
        text: str,
        inline_message_id: str,
        *,
        unit: UnitOfWork | None = None,
        pictured: bool = False,
    ) -> Posted:
        """An inline post picked "as Mirra": said in the game ``campaign_id`` (kept in its
        log), shown in the inline message ``inline_message_id`` wherever it was posted
        (``pictured``: a picture, the character's portrait, whose caption the post is).

        Raises:
            As :meth:`say`; a pictured post longer than a caption is refused.
        """
        async with guarded():
            campaign = await Campaign.get_or_none(id=campaign_id, live_chat_id__isnull=False)
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        chat = ChatRef(int(campaign.live_chat_id or 0), "group", "", campaign.topic_id)
        return await self._post(
            campaign, chat, player, text, None, unit, inline_message_id, pictured=pictured
        )

    async def characters_of(self, player: PlayerRef) -> tuple[Character, ...]:
        """The characters a player may post as inline: one per live game they play in,
        newest game first."""
        async with guarded():
            tokens = (
                await Campaign.filter(
                    members__player__tg_id=player.tg_id,
                    members__active=True,
                    live_chat_id__isnull=False,
                    status=CampaignStatus.ACTIVE,
                )
                .order_by("-id")
                .values_list("id", "app_token")
            )
        found = []
        for token in dict(tokens).values():  # each game once, read through the loader
            view, table = await self._for_viewer(str(token), player)
            if table.seat(player.tg_id) is not None:
                name = self._name(table, player.tg_id)
                found.append(Character(view.id, name, view.chat_title))
        pictured = await portrait_file_ids(player.tg_id, (c.campaign_id for c in found))
        return tuple(replace(c, portrait_file_id=pictured.get(c.campaign_id)) for c in found)

    async def _game(self, chat: ChatRef) -> Campaign:
        async with guarded():
            campaign = await self._live(chat.tg_id, chat.topic)
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        return campaign

    def _name(self, table: Table, player: int) -> str:
        """The player's character's name where the game names characters, else theirs."""
        named = self.registry.find(table.system).campaign.character_names(table)
        seat = table.seat(player)
        return named.get(player) or (seat.name if seat is not None else "")

    async def _post(
        self,
        campaign: Campaign,
        chat: ChatRef,
        player: PlayerRef,
        text: str,
        other: str | None,
        unit: UnitOfWork | None,
        inline_message_id: str | None = None,
        *,
        pictured: bool = False,
    ) -> Posted:
        """Post ``text`` in the game: as the player's character (``other`` None), as the
        character ``other`` names, or as the narrator (``other`` is :data:`NARRATOR`)."""
        unit = unit or UnitOfWork()
        check_playing(campaign)
        async with guarded():
            _, table, _ = await built(self.registry, campaign)
            saved = await listed(player.tg_id, SavedTable(chat.tg_id, chat.topic))
        check_seated(table, player.tg_id)
        gm = table.with_role(Role.HOST) | table.with_role(Role.GAME_MASTER)
        if other is not None and player.tg_id not in gm:
            raise NotYourTurn(ONLY_GM)
        book = {key(s.name): s.text for s in saved}
        post = read_post(text, book, self.rng, EMPTY_SAY if other is None else EMPTY_NPC)
        speaker = (
            Speaker.CHARACTER
            if other is None
            else (Speaker.NARRATOR if other == NARRATOR else Speaker.OTHER)
        )
        name = self._name(table, player.tg_id) if other is None else other
        portrait = None
        if speaker is Speaker.CHARACTER and inline_message_id is None:
            portrait = await speaker_portrait(campaign.id, player.tg_id)
        posted = Posted(
            campaign.id, chat.tg_id, chat.topic, speaker, name, post, campaign.language,
            inline_message_id, portrait, pictured,
        )  # fmt: skip
        effects = await unit.plan(posted)  # drawn before the lock: a post too long saves nothing
        plain = post.plain()
        said = (
            words(NARRATED, text=plain)
            if speaker is Speaker.NARRATOR
            else words(SAID, name=name, text=plain)
        )
        line = LogLine.of(LOG_KIND, said, (player.tg_id,) if other is None else ())
        async with self.saving(unit, campaign.id):  # the player acted: the wait restarts
            await execute(*log_statement(campaign.id, [line]))
            if post.rolls:  # in the game's roll history, like any roll
                chat_row = int(campaign.chat_id)  # type: ignore[attr-defined]  # the game's chat
                player_row = await player_id(
                    player.tg_id, player.first_name, player.last_name, player.username,
                    player.language_code,
                )  # fmt: skip
                for rolled in post.rolls:
                    expression = rolled.result.expression
                    for values in _roll_rows(
                        chat_row, player_row, chat, expression, rolled.result, None
                    ):
                        await execute(_ADD_ROLL, values)
            await unit.record(posted, effects=effects)
        return posted
