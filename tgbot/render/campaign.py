"""How campaigns look in the chat."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from core.campaigns import CampaignView, EndedGame
from core.campaigns.own_systems import Listed
from core.rules.dicesystem import ROLL_PANEL as LIBRARY_ROLL
from core.rules.lifecycle import RESUME_DAYS
from core.rules.registry import Registry
from core.rules.said import worded
from core.rules.systems import LIBRARY, library_definition
from core.rules.table import Role
from core.store.models import CampaignStatus
from core.words.i18n import N_, Lang, language_name
from tgbot.buttons.campaign import EndAnswer, EndButton, NewGameButton
from tgbot.render.text import esc

STATUS = {
    CampaignStatus.ACTIVE: ("▶️", N_("playing")),
    CampaignStatus.PAUSED: ("⏸", N_("paused")),
    CampaignStatus.ARCHIVED: ("🏁", N_("ended")),
}
ROLE_BADGE = {Role.HOST: N_("host"), Role.GAME_MASTER: N_("GM")}
GM_SEAT = {"cortex": N_("Watchtower")}
"""A game's own name for its game master's seat, where it has one."""


def system_choice(
    registry: Registry,
    lang: Lang,
    last: EndedGame | None = None,
    own: Sequence[Listed] = (),
) -> tuple[str, InlineKeyboardMarkup]:
    """The message that asks which game to start (and says if the last one can come back);
    ``own``: the group's own systems, listed first."""
    rows = [
        [InlineKeyboardButton(lang.gettext(s.name), callback_data=NewGameButton(s.key).encode())]
        for s in registry
        if s.roll_panel != LIBRARY_ROLL
    ]
    text = "🎲 <b>" + lang.gettext("Which game shall we play?") + "</b>"
    if own:
        text += "\n\n" + own_games(own, lang)
    listed = library_games(registry, lang)
    if listed:
        text += "\n\n" + listed
    if last is not None and last.resumable:
        text += "\n\n" + lang.gettext(
            "The <b>{game}</b> game that ended here can still come back with /resume "
            "until {day}, instead of a new one.",
            game=esc(lang.gettext(last.campaign.system.name)),
            day=lang.day(last.resumable_until),
        )
    return text, InlineKeyboardMarkup(rows)


def own_games(own: Sequence[Listed], lang: Lang) -> str:
    """The group's own systems in one paragraph, each by name, key and newest version."""
    games = [
        lang.gettext(
            "{name} <code>{key}</code> (version {version})",
            name=esc(s.name(lang.code)),
            key=esc(s.key),
            version=s.version,
        )
        for s in own
    ]
    return (
        "🛠 "
        + lang.gettext("This group's own games, started with /newgame and the key:")
        + " "
        + ", ".join(games)
        + "."
    )


def library_games(registry: Registry, lang: Lang) -> str:
    """The library's games in one paragraph, each by name and key (empty: none)."""
    games = [
        f"{esc(lang.gettext(library_definition(s.key).name.en))} <code>{s.key}</code>"
        for s in registry
        if s.roll_panel == LIBRARY_ROLL and s.key in LIBRARY
    ]
    if not games:
        return ""
    return (
        "📚 "
        + lang.gettext("More games, started with /newgame and the key:")
        + " "
        + ", ".join(games)
        + ". "
        + lang.gettext("In them, /roll and /odds take the game's own roll, as in /roll +2.")
    )


def end_question(view: CampaignView, lang: Lang) -> tuple[str, InlineKeyboardMarkup]:
    """The host's confirmation before a game ends: what is kept, and how it comes back."""
    host = view.member(view.host_id)
    who = esc(host.name) if host else lang.gettext("the host")
    text = "\n".join(
        (
            "🏁 <b>"
            + lang.gettext("End the {game} game?", game=esc(lang.gettext(view.system.name)))
            + "</b>",
            lang.gettext(view.system.kept_at_end),
            lang.ngettext(
                "For {num} day after it ends, /resume brings it back here as it was.",
                "For {num} days after it ends, /resume brings it back here as it was.",
                RESUME_DAYS,
            ),
            "",
            lang.gettext("Only {name} (the host) can answer.", name=who),
        )
    )
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    "🏁 " + lang.gettext("End the game"),
                    callback_data=EndButton(EndAnswer.END, view.id, view.version).encode(),
                ),
                InlineKeyboardButton(
                    "✖️ " + lang.gettext("Cancel"),
                    callback_data=EndButton(EndAnswer.KEEP, view.id, view.version).encode(),
                ),
            ]
        ]
    )
    return text, markup


def ended_text(ended: EndedGame, lang: Lang) -> str:
    system = ended.campaign.system
    text = "🏁 " + lang.gettext(
        "The <b>{game}</b> game has ended. Thanks for playing!\n{kept}\n"
        "The host can bring it back with /resume until {day}.",
        game=esc(lang.gettext(system.name)),
        kept=lang.gettext(system.kept_at_end),
        day=lang.day(ended.resumable_until),
    )
    if ended.story_shared:
        text += "\n📖 " + lang.gettext(
            "The story's link stays up: anyone who has it can still read it. The host "
            "withdraws it with <code>/story off</code> here, or in the Mini App (the "
            "game's log page, reached from the home page)."
        )
    return text


def kept_text(view: CampaignView, lang: Lang) -> str:
    return "▶️ " + lang.gettext(
        "The <b>{game}</b> game goes on; nothing ended.", game=esc(lang.gettext(view.system.name))
    )


def resumed_text(view: CampaignView, came_back: bool, lang: Lang) -> str:
    if not came_back:
        return "▶️ " + lang.gettext("The game goes on!")
    return "▶️ " + lang.gettext(
        "The <b>{game}</b> game is back, just as you left it. /status shows where you were.",
        game=esc(lang.gettext(view.system.name)),
    )


def member_line(view: CampaignView, player_id: int, lang: Lang) -> str:
    member = view.member(player_id)
    if member is None:
        return ""
    badge = dict(ROLE_BADGE)
    if view.system.key in GM_SEAT:
        badge[Role.GAME_MASTER] = GM_SEAT[view.system.key]
    badges = [lang.gettext(badge[r]) for r in sorted(member.roles) if r in badge]
    return esc(member.name) + (f" <i>({', '.join(badges)})</i>" if badges else "")


def status_text(view: CampaignView, lang: Lang, system_lines: tuple[str, ...] = ()) -> str:
    """The campaign at a glance, with what its system says of it (plain text, worded in
    ``lang`` when the system said it as message ids, escaped here)."""
    symbol, status = STATUS[view.status]
    count = len(view.members)
    lines = [
        f"<b>{esc(lang.gettext(view.system.name))}</b> — {symbol} {lang.gettext(status)}",
        "👥 " + lang.gettext("Players ({num}):", num=lang.number(count)),
        *(f"• {member_line(view, m.player_id, lang)}" for m in view.members),
        *(esc(worded(line, lang.gettext)) for line in system_lines),
    ]
    if view.status is CampaignStatus.ACTIVE:
        lines.append("\n" + lang.gettext("New here? Tap /join. Open your sheet with /sheet."))
    return "\n".join(lines)


def started_text(view: CampaignView, lang: Lang) -> str:
    host = view.member(view.host_id)
    who = esc(host.name) if host else lang.gettext("Someone")
    text = (
        "🎉 "
        + lang.gettext(
            "{name} started a game of <b>{game}</b>.",
            name=who,
            game=esc(lang.gettext(view.system.name)),
        )
        + f"\n{esc(lang.gettext(view.system.summary))}\n\n"
        + lang.gettext("Everyone who wants to play: tap /join.")
    )
    if view.system.first_step:
        text += f"\n👉 {esc(lang.gettext(view.system.first_step))}"
    return text


def joined_text(name: str, lang: Lang) -> str:
    return "✅ " + lang.gettext("{name} joined the game.", name=esc(name))


def welcome_text(view: CampaignView, lang: Lang, *, joining: bool) -> str:
    """The private note to a player joining (or who has joined) a group's game."""
    game, chat = esc(lang.gettext(view.system.name)), esc(view.chat_title)
    if joining:
        return "🎲 " + lang.gettext(
            "You're joining the <b>{game}</b> game of <b>{chat}</b>. "
            "Secret things will arrive here.",
            game=game,
            chat=chat,
        )
    return "✅ " + lang.gettext(
        "You're in the <b>{game}</b> game of <b>{chat}</b>. Secret things will arrive here.",
        game=game,
        chat=chat,
    )


def language_now(game: str | None, lang: Lang, known: str) -> str:
    """The answer to /language with nothing after it: which language the game here
    speaks (``game``; None: no game runs here, so each player reads their own), and how
    the host changes it (``known``: the languages, as /language takes them)."""
    if game is None:
        return "🗣 " + lang.gettext(
            "No game runs here yet, so I answer each of you in your own Telegram language "
            "({language} for you). A game speaks its host's language; the host changes it "
            "with /language and a code or a name: {known}.",
            language=esc(language_name(lang.code, lang.code)),
            known=esc(known),
        )
    return "🗣 " + lang.gettext(
        "This game speaks {language}. The host changes that with /language and a code or "
        "a name: {known}.",
        language=esc(language_name(game, lang.code)),
        known=esc(known),
    )


def language_text(lang: Lang) -> str:
    """The answer to /language: the game now speaks ``lang``."""
    return "🗣 " + lang.gettext("From now on this game speaks English.")
