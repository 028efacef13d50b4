"""A game system's own roll made in secret (``/roll +2 secret``, ``/sroll +2``): rolled
by the game's rules as its roll panel rolls it, kept in the roll history with who saw it
(:mod:`core.campaigns.secret_rolls`), and sent privately, as a dice roll in secret is.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.campaigns.base import CampaignsBase, built, check_playing, check_seated
from core.campaigns.play import ChatRef, PlayerRef
from core.campaigns.views import NO_GAME
from core.rules.errors import Malformed, NotAllowedNow
from core.store.presses import history_statement
from core.store.repo import guarded
from core.store.sql import fetch
from core.store.unit import UnitOfWork

NOT_THE_GAMES = "That isn't this game's own roll."


@dataclass(frozen=True)
class SecretSystemRoll:
    """A game system's roll in secret, as recorded to the outbox: the rolled panel's
    state (``rolled``, what its messages are drawn from) and the history row's id."""

    rolled: object
    roll_id: int


class SystemRolls(CampaignsBase):
    """A game's own roll outside a panel: in secret."""

    async def roll_in_secret(
        self,
        chat: ChatRef,
        player: PlayerRef,
        text: str,
        seen_by: tuple[int, ...],
        *,
        unit: UnitOfWork,
    ) -> SecretSystemRoll:
        """Roll ``text`` (the game's short form, ``+2``) for ``player``, seen by ``seen_by``.

        Raises:
            Malformed: ``text`` is not the game's own roll (dice notation: roll it as
                dice), or the game has none; ``Mistyped`` (a ``Malformed``): the game's
                reason the text can't be read.
            NotAllowedNow: no game here, or it is paused or over.
            NotYourTurn: the player isn't in the game.
        """
        async with guarded():
            campaign = await self._live(chat.tg_id, chat.topic)
        if campaign is None:
            raise NotAllowedNow(NO_GAME)
        system = self.registry.find(campaign.system)
        if system.roll_panel is None or not text.strip():
            raise Malformed(NOT_THE_GAMES)
        async with guarded(), unit.atomic():  # writes the roll's record only
            _, table, _ = await built(self.registry, campaign)
            # dice notation (Malformed) rolls as dice anywhere, by anyone: read it first
            outcome = system.panel(system.roll_panel).open(table, player.tg_id, text, self.rng)
            rolls = system.history(table, outcome)
            if not rolls:
                raise Malformed(NOT_THE_GAMES)
            check_playing(campaign)
            check_seated(table, player.tg_id)
            found = await fetch(*history_statement(campaign.id, rolls[0], seen_by))
            kept = SecretSystemRoll(outcome.model, int(found[0]["id"]))
            await unit.record(kept)  # its private message and the chat's line, after the commit
        return kept
