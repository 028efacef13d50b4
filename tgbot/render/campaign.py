"""How campaigns look in the chat."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import CampaignView
from core.rules.registry import Registry
from core.rules.table import Role
from core.store.models import CampaignStatus
from tgbot.callback import GeneralButton
from tgbot.render.text import esc

STATUS = {
    CampaignStatus.ACTIVE: "▶️ playing",
    CampaignStatus.PAUSED: "⏸ paused",
    CampaignStatus.ARCHIVED: "🏁 ended",
}
ROLE_BADGE = {Role.HOST: "host", Role.GAME_MASTER: "GM"}


def system_choice(registry: Registry) -> tuple[str, InlineKeyboardMarkup]:
    """The message that asks which game to start."""
    rows = [
        [InlineKeyboardButton(s.name, callback_data=GeneralButton("newgame", s.key).encode())]
        for s in registry
    ]
    return "🎲 <b>Which game shall we play?</b>", InlineKeyboardMarkup(rows)


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
    return (
        f"🎉 {who} started a game of <b>{esc(view.system.name)}</b>.\n"
        f"{esc(view.system.summary)}\n\nEveryone who wants to play: tap /join."
    )
