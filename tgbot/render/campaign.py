"""How campaigns look in the chat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import CampaignView, EndedGame
from core.rules.errors import Malformed
from core.rules.lifecycle import RESUME_DAYS
from core.rules.registry import Registry
from core.rules.table import Role
from core.store.models import CampaignStatus
from tgbot.callback import OUTDATED, GeneralButton, decode
from tgbot.render.text import esc

STATUS = {
    CampaignStatus.ACTIVE: "▶️ playing",
    CampaignStatus.PAUSED: "⏸ paused",
    CampaignStatus.ARCHIVED: "🏁 ended",
}
ROLE_BADGE = {Role.HOST: "host", Role.GAME_MASTER: "GM"}


def system_choice(
    registry: Registry, last: EndedGame | None = None
) -> tuple[str, InlineKeyboardMarkup]:
    """The message that asks which game to start (and says if the last one can come back)."""
    rows = [
        [InlineKeyboardButton(s.name, callback_data=GeneralButton("newgame", s.key).encode())]
        for s in registry
    ]
    text = "🎲 <b>Which game shall we play?</b>"
    if last is not None and last.resumable:
        text += (
            f"\n\nThe <b>{esc(last.campaign.system.name)}</b> game that ended here can still "
            f"come back with /resume until {day(last.resumable_until)}, instead of a new one."
        )
    return text, InlineKeyboardMarkup(rows)


def day(moment: datetime) -> str:
    """A date as players read it: 23 December 2026."""
    return f"{moment.day} {moment:%B %Y}"


END_VERB = "endgame"
END_YES, END_NO = "end", "keep"


@dataclass(frozen=True)
class EndAnswer:
    """The host's answer to "end the game?" (End or Cancel), for the campaign as asked.

    Packed as ``g1:endgame:<end|keep>.<campaign>.<version>`` (well within 64 bytes).
    """

    answer: str
    campaign_id: int
    version: int

    def encode(self) -> str:
        return GeneralButton(END_VERB, f"{self.answer}.{self.campaign_id}.{self.version}").encode()

    @classmethod
    def decode(cls, data: str | None) -> EndAnswer:
        """Read a pressed End or Cancel button.

        Raises:
            Malformed: not such a button (old, forged or garbage data).
        """
        button = decode(data)
        if isinstance(button, GeneralButton) and button.verb == END_VERB:
            parts = button.argument.split(".")
            if (
                len(parts) == 3
                and parts[0] in (END_YES, END_NO)
                and all(p.isascii() and p.isdigit() for p in parts[1:])
            ):
                return cls(parts[0], int(parts[1]), int(parts[2]))
        raise Malformed(OUTDATED)


def end_question(view: CampaignView) -> tuple[str, InlineKeyboardMarkup]:
    """The host's confirmation before a game ends: what is kept, and how it comes back."""
    host = view.member(view.host_id)
    who = esc(host.name) if host else "the host"
    text = (
        f"🏁 <b>End the {esc(view.system.name)} game?</b>\n"
        "Nothing is deleted: everyone's sheets, the map and the world so far, and the "
        "log are kept.\n"
        f"For {RESUME_DAYS} days after it ends, /resume brings it back here as it was.\n\n"
        f"Only {who} (the host) can answer."
    )
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    "🏁 End the game",
                    callback_data=EndAnswer(END_YES, view.id, view.version).encode(),
                ),
                InlineKeyboardButton(
                    "✖️ Cancel", callback_data=EndAnswer(END_NO, view.id, view.version).encode()
                ),
            ]
        ]
    )
    return text, markup


def ended_text(ended: EndedGame) -> str:
    return (
        f"🏁 The <b>{esc(ended.campaign.system.name)}</b> game has ended. Thanks for playing!\n"
        "Sheets, the map and the log are kept. The host can bring it back with /resume "
        f"until {day(ended.resumable_until)}."
    )


def kept_text(view: CampaignView) -> str:
    return f"▶️ The <b>{esc(view.system.name)}</b> game goes on; nothing ended."


def resumed_text(view: CampaignView, came_back: bool) -> str:
    if not came_back:
        return "▶️ The game goes on!"
    return (
        f"▶️ The <b>{esc(view.system.name)}</b> game is back, just as you left it. "
        "/status shows where you were."
    )


def member_line(view: CampaignView, player_id: int) -> str:
    member = view.member(player_id)
    if member is None:
        return ""
    badges = [ROLE_BADGE[r] for r in sorted(member.roles) if r in ROLE_BADGE]
    return esc(member.name) + (f" <i>({', '.join(badges)})</i>" if badges else "")


def status_text(view: CampaignView, system_lines: tuple[str, ...] = ()) -> str:
    """The campaign at a glance, with what its system says of it (plain text, escaped here)."""
    lines = [
        f"<b>{esc(view.system.name)}</b> — {STATUS[view.status]}",
        f"👥 Players ({len(view.members)}):",
        *(f"• {member_line(view, m.player_id)}" for m in view.members),
        *(esc(line) for line in system_lines),
    ]
    if view.status is CampaignStatus.ACTIVE:
        lines.append("\nNew here? Tap /join. Open your sheet with /sheet.")
    return "\n".join(lines)


def started_text(view: CampaignView) -> str:
    host = view.member(view.host_id)
    who = esc(host.name) if host else "Someone"
    text = (
        f"🎉 {who} started a game of <b>{esc(view.system.name)}</b>.\n"
        f"{esc(view.system.summary)}\n\nEveryone who wants to play: tap /join."
    )
    if view.system.first_step:
        text += f"\n👉 {esc(view.system.first_step)}"
    return text
