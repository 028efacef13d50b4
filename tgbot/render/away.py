"""While you were away: the digest a returning player gets in private (see tgbot.away)."""

from __future__ import annotations

from core.views.away import Digest
from core.words.i18n import Lang
from tgbot.render.text import esc


def digest_text(digest: Digest, lang: Lang) -> str:
    """``👋 While you were away from …``, the newest lines and how many more (HTML)."""
    game = esc(lang.gettext(digest.campaign.system.name))
    lines = [
        "👋 "
        + lang.gettext(
            "While you were away from <b>{game}</b> in {chat}:",
            game=game,
            chat=esc(digest.campaign.chat_title),
        )
    ]
    lines += [f"• {esc(line.text_in(lang))}" for line in digest.lines]
    if digest.more:
        lines.append(
            lang.ngettext(
                "…and {num} more entry in the game's log (Mini App).",
                "…and {num} more entries in the game's log (Mini App).",
                digest.more,
            )
        )
    return "\n".join(lines)


def digest_app(digest: Digest, lang: Lang) -> tuple[str, str]:
    """The digest's button to the game in the Mini App: its label and the game's token."""
    return "📜 " + lang.gettext("Open the game"), digest.campaign.app_token
