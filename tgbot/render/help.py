"""The /help text: what the bot does, and each game's own commands."""

from __future__ import annotations

from collections.abc import Iterable

from core.rules.dicesystem import ROLL_PANEL as LIBRARY_ROLL
from core.rules.registry import Registry
from core.rules.systems import LIBRARY, Definition, library_definition
from core.words.i18n import Lang
from tgbot.render.campaign import library_games
from tgbot.render.text import esc
from tgbot.updates import CommandSpec


def general(lang: Lang) -> str:
    """What Stonetable does and its common commands (HTML)."""
    return "\n".join(
        (
            lang.gettext(
                "<b>Stonetable</b> runs tabletop roleplaying games right here in Telegram."
            ),
            "",
            *_dice_lines(lang),
            *_game_lines(lang),
        )
    )


def dice_help(lang: Lang, bot_username: str) -> str:
    """How to write a roll (HTML): for ``/start dice``, where the button above inline
    results that are no roll leads."""
    return "\n".join(
        (
            "<b>" + lang.gettext("🎲 How to write a roll") + "</b>",
            "",
            *_dice_lines(lang),
            "💬 "
            + lang.gettext(
                "In any chat, type <code>@{bot} 2d6+3</code> and pick the roll: it is posted "
                "as yours, and the dice are rolled once it is.",
                bot=esc(bot_username),
            ),
        )
    )


def _dice_lines(lang: Lang) -> tuple[str, ...]:
    """Rolling dice, the last rolls and saved rolls."""
    return (
        "🎲 "
        + lang.gettext(
            "<code>/roll 2d6+3</code> — roll dice. Also <code>4d6kh3</code> (keep highest 3), "
            "<code>2d20kl1</code> (keep lowest), <code>1d20+5 adv</code> / <code>dis</code>, "
            "<code>2d6!</code> (exploding), <code>1d20r1</code> (reroll 1s), "
            "<code>10d10>=8</code> (successes), <code>4d6kh3 x6</code> (six rolls), "
            "and a note after the dice: <code>/roll d20+5 sneak attack</code>. "
            "<code>/odds 1d20+5 adv >= 15</code> — the exact odds of any roll."
        ),
        "📊 "
        + lang.gettext(
            "/rolls — the last ten rolls in this chat; the Mini App keeps the game's "
            "roll history, with each player's average."
        ),
        "💾 "
        + lang.gettext(
            "<code>/save atk 1d20+5 adv</code> — save a roll under a name, then "
            "<code>/roll atk</code>, <code>/roll atk+2</code> or <code>/roll atk dis</code>; "
            "/saved lists them with a button to roll each (and renames or deletes one)."
        ),
    )


def _game_lines(lang: Lang) -> tuple[str, ...]:
    """The sheet, a game's commands, undo, the story and reminders."""
    return (
        "📜 " + lang.gettext("/sheet — open your sheet and the map in the Mini App."),
        "🎮 "
        + lang.gettext(
            "/newgame — start a game in a group; /join, /leave, /status; the host can "
            "/pause, /resume and /endgame; /language en|ru changes the game's language."
        ),
        "💬 "
        + lang.gettext(
            "<code>/say I swing [1d20+5] and hit for [1d8+3]</code> — speak as your character; "
            "dice in square brackets (or a saved roll, <code>[atk]</code>) are rolled where "
            "they stand. The host or game master: <code>/npc Gobbo: Halt!</code> speaks as "
            "anyone, <code>/npc</code> with no name and colon as the narrator. In any chat, "
            "the bot's @name and your words offer the same post as each of your characters."
        ),
        "↩ "
        + lang.gettext(
            "/undo — take back your last step (a tap, an answer, a Mini App edit) until "
            "someone else acts or the dice are rolled; the panel also shows ↩ Undo to you."
        ),
        "🔁 "
        + lang.gettext(
            "/turns — the host sets the turn order: <code>/turns Ana, Bo, Cy</code>, "
            "<code>/turns roll</code> (a d20 each), or /turns alone to tap the players in "
            "order; /next passes the turn on (its holder or the host)."
        ),
        "📖 "
        + lang.gettext(
            "/story — the host shares the campaign's story as a read-only link; "
            "<code>/story off</code> withdraws it."
        ),
        "⏳ "
        + lang.gettext(
            "/nudge 12h — the host sets how long the game waits on a player before a "
            "private reminder (1m to 7d; a line in the group after a second wait), "
            "<code>/nudge off</code> stops them; <code>/nudge mute</code> silences yours. "
            "Quiet hours: in the Mini App's preferences."
        ),
    )


def library_game_help(key: str, lang: Lang, definition: Definition | None = None) -> str:
    """The library game played here (or the ``definition`` the game plays, a group's own
    system's): what a roll is, and how to type one."""
    definition = definition or library_definition(key)
    if definition.key in LIBRARY:  # the library's words are in the catalogue
        name, about = lang.gettext(definition.name.en), lang.gettext(definition.about.en)
    else:  # the group's own words, in its languages
        name, about = (
            definition.name.in_language(lang.code),
            definition.about.in_language(lang.code),
        )
    example = f"<code>/roll {esc(definition.example)}</code>"
    odds = f"<code>/odds {esc(definition.odds_example)}</code>"
    return (
        f"🎲 <b>{esc(name)}</b> "
        + lang.gettext("(playing here)")
        + "\n"
        + esc(about)
        + "\n"
        + lang.gettext(
            "Roll: {example}; every outcome's chance: {odds}.", example=example, odds=odds
        )
    )


def help_text(
    registry: Registry,
    commands: Iterable[CommandSpec],
    current: str | None,
    lang: Lang,
    definition: Definition | None = None,
) -> str:
    """General help, then every game's commands (the game running here first, with the
    ``definition`` it plays when it plays a game system as data)."""
    by_system: dict[str, list[str]] = {}
    for spec in commands:
        if spec.game is None or spec.game not in registry.systems:
            continue
        by_system.setdefault(spec.game, []).append(
            f"/{spec.name} — {esc(lang.gettext(spec.description))}"
        )
    order = sorted(by_system, key=lambda k: (k != current, registry.systems[k].name))
    parts = [general(lang)]
    playing = registry.systems.get(current or "")
    if playing is not None and playing.roll_panel == LIBRARY_ROLL:  # the game here first
        parts.append(library_game_help(playing.key, lang, definition))
    for key in order:
        system = registry.systems[key]
        marker = " " + lang.gettext("(playing here)") if key == current else ""
        lines = "\n".join(by_system[key])
        name = esc(lang.gettext(system.name))
        parts.append(f"<b>{name}</b>{marker} — <code>/newgame {key}</code>\n{lines}")
    listed = library_games(registry, lang)
    if listed:
        parts.append(listed)
    return "\n\n".join(parts)
