"""How No Stone Unturned looks in the chat: worldbuilding, cards, characters, adventure.

Pure: panel views in, HTML and buttons out. What the group sees comes from the
rules' public projections (:func:`board`, :func:`scene`); a card's face is only
rendered into notes addressed to people the rules name (the author, the
Arbiters). Every piece of player text goes through :func:`esc`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from urllib.parse import urlencode

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from core.campaigns import PanelView
from core.rules.choice import Choice
from core.rules.names import in_play
from core.rules.nsu import SYSTEM as NSU
from core.rules.nsu.adventure_panel import (
    ADVENTURE_PANEL,
    AdventurePanelState,
    AdventureVerb,
    PaintThePicture,
    SceneBriefing,
    adventure_choices,
    scene,
)
from core.rules.nsu.campaign import (
    Phase,
    SafetyEntryAdded,
    SafetyKind,
    campaign_of,
    character_of,
)
from core.rules.nsu.cards_panel import (
    CARDS_PANEL,
    FIELDS,
    CardsPanelState,
    CardsVerb,
    cards_choices,
    cards_view,
)
from core.rules.nsu.character_panel import (
    ASPECT_CHOICES,
    CHARACTER_PANEL,
    STEPS,
    CharacterFinished,
    CharacterPanelState,
    CreationVerb,
    CreationView,
    creation_choices,
    creation_view,
)
from core.rules.nsu.glance import LEVEL_NAMES
from core.rules.nsu.safety_panel import SAFETY_PANEL, SafetyPanelState, SafetyVerb, safety_choices
from core.rules.nsu.setup import (
    LOCATIONS_PER_PLAYER,
    ActionKind,
    LocationAuthored,
    SetupStep,
    describe_step,
    expected_step_order,
)
from core.rules.nsu.setup_panel import (
    SETUP_PANEL,
    TOOLS,
    Board,
    BoardCard,
    BoardVerb,
    SetupPanelState,
    board,
)
from core.rules.nsu.sheet import CharacterDraft, CreationStep
from core.rules.nsu.terms import Die
from core.rules.nsu.world import (
    CLOCK_SEGMENTS,
    RESOURCE_COUNT,
    CardView,
    LocationCard,
    SafetyTool,
)
from core.rules.table import Table
from core.rules.waiting import Waiting
from core.words.i18n import N_, Lang, lang_for
from core.words.map_words import back_marks, mark
from core.words.pronouns import Gender, gender_of
from tgbot.buttons.nsu import (
    AdventureButton,
    CardsButton,
    CharacterButton,
    KnockButton,
    MapButton,
    XCardButton,
)
from tgbot.callback import GeneralButton
from tgbot.i18n import voice
from tgbot.panels import FollowUp, Note, Refresh, button, keyboard
from tgbot.render.layout import ONE_ROW, fit_name, label_width, named, phone_rows
from tgbot.render.text import esc, now_line

SHORT = 160
EN = lang_for("en")
TOOL_NAMES = {
    SafetyTool.X_CARD: N_("X-card"),
    SafetyTool.LINES_AND_VEILS: N_("Lines & veils"),
    SafetyTool.KNOCKS: N_("Knocks"),
}
STEP_TITLES = {
    CreationStep.NAME: N_("Name"),
    CreationStep.PRONOUNS_AND_LOOK: N_("Pronouns and look"),
    CreationStep.MOODS: N_("Three moods"),
    CreationStep.ASPECTS: N_("Aspects"),
    CreationStep.SENTIMENTS: N_("Three sentiments"),
    CreationStep.SKILLS: N_("Three skills"),
    CreationStep.RUMOURS: N_("Rumours"),
}
# The buttons whose label is always the same, by the verb they send: a sign and a word.
VERB_LABELS: dict[Enum, tuple[str, str]] = {
    BoardVerb.AGREE: ("👍", N_("Agree")),
    BoardVerb.PASS: ("🙅", N_("Pass")),
    BoardVerb.FULL: ("🟥", N_("Card is full")),
    BoardVerb.NEXT_QUESTION: ("⏭", N_("Next question")),
    BoardVerb.SCOPE_DONE: ("✅", N_("Scope done")),
    BoardVerb.ROLL: ("🎲", N_("Roll Danger and Reward")),
    AdventureVerb.SPLIT: ("✂️", N_("Split")),
    AdventureVerb.CANCEL: ("✖", N_("Cancel")),
    AdventureVerb.HOME: ("🏠", N_("Home")),
    AdventureVerb.SWITCH: ("🔁", N_("Switch focus")),
    AdventureVerb.REGROUP: ("🤝", N_("Regroup")),
    AdventureVerb.TICK: ("🕰", N_("+1 tick")),
    AdventureVerb.UNTICK: ("🕰", N_("−1 tick")),
}
X_CARD_TEXT = N_(
    "🛑 <b>X-card.</b> Someone tapped the X-card. Drop or rewind what is happening now "
    "— no questions asked, no explanations needed."
)
KNOCK_TEXT = N_(
    "✊ <b>Knock.</b> Someone knocked. Walk back what is being described, "
    "or skip ahead until it's over."
)


def short(text: str, limit: int = SHORT) -> str:
    """Escaped, cut to ``limit`` characters."""
    text = " ".join(text.split())
    return esc(text if len(text) <= limit else text[: limit - 1] + "…")


def name_of(table: Table, player_id: int, lang: Lang = EN) -> str:
    seat = table.seat(player_id)
    return esc(seat.name) if seat is not None else lang.gettext("someone who left")


def names(table: Table, players: Sequence[int], lang: Lang = EN) -> str:
    return ", ".join(name_of(table, p, lang) for p in players) or lang.gettext("nobody")


def safety_row(campaign_id: int, lang: Lang = EN) -> list[InlineKeyboardButton]:
    """The X-card and the knock, one tap away on every NSU panel (worded in ``lang``)."""
    x_card, knock = "🛑 " + lang.gettext("X-card"), "✊ " + lang.gettext("Knock")
    return [
        InlineKeyboardButton(x_card, callback_data=XCardButton(campaign_id).encode()),
        InlineKeyboardButton(knock, callback_data=KnockButton(campaign_id).encode()),
    ]


def general(label: str, button: GeneralButton) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=button.encode())


def clock_text(ticks: int) -> str:
    return "●" * ticks + "○" * (CLOCK_SEGMENTS - ticks) + f" {ticks}/{CLOCK_SEGMENTS}"


def back_text(card: CardView | LocationCard | BoardCard, lang: Lang = EN) -> str:
    """A card's back in the reader's letters: ``D2 R4``, ``О2 Н4`` (``D? R?`` unrolled)."""
    if card.danger is None or card.reward is None:
        return back_marks(None, None, lang)
    return back_marks(card.danger.label, card.reward.label, lang)


def app_button(
    label: str,
    *,
    private: bool,
    webapp_url: str | None,
    bot: str,
    short_name: str | None,
    token: str,
    page: str | None = None,
) -> InlineKeyboardButton | None:
    """A button that opens the Mini App on a campaign (t.me link in groups).

    Args:
        page: a tab to open instead of the sheet ("map"); the Mini App reads it
            from the start parameter ``<token>-<page>``.
    """
    if webapp_url is None:
        return None
    if page is not None:
        token = f"{token}-{page}"
    if private:
        return InlineKeyboardButton(
            label, web_app=WebAppInfo(url=f"{webapp_url}?{urlencode({'startapp': token})}")
        )
    path = f"{bot}/{short_name}" if short_name else bot
    return InlineKeyboardButton(label, url=f"https://t.me/{path}?{urlencode({'startapp': token})}")


# -- the full face of a card, only for notes to people allowed to see it ------------------


def card_face(card: LocationCard, heading: str, lang: Lang = EN) -> str:
    lines = [
        heading,
        f"<b>{esc(card.title)}</b> · {back_text(card, lang)}",
        f"<i>{esc(card.description)}</i>",
        "⚠️ " + lang.gettext("Danger: {text}", text=esc(card.danger_type)),
        "💎 " + lang.gettext("Treasure: {text}", text=esc(card.treasure_type)),
        "🕰 "
        + lang.gettext(
            "Collateral Clock: {target} — {clock}",
            target=esc(card.collateral_target),
            clock=clock_text(card.clock.ticks),
        ),
    ]
    if card.danger is not None:
        lines.append(f"{mark(card.danger.label, lang)}: {esc(lang.gettext(card.danger.guide))}")
    if card.reward is not None:
        lines.append(f"{mark(card.reward.label, lang)}: {esc(lang.gettext(card.reward.guide))}")
    return "\n".join(lines)


def waiting(kind: str, view: PanelView, typed: type[object]) -> Waiting:
    """What an NSU panel of ``kind`` waits for now, as its rules say (the choices its "👉"
    line names)."""
    return NSU.panel(kind).waiting(view.table, view.typed(typed))


# -- worldbuilding ---------------------------------------------------------------------


class SetupRenderer:
    kind = SETUP_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        table = view.table
        b = board(table, view.typed(SetupPanelState))
        cid = view.campaign.id
        mine, set_out = "🧍 " + lang.gettext("My character"), "🧭 " + lang.gettext("Set out")
        if b is None or view.closed:
            return built_text(table, lang), keyboard(
                [
                    [
                        general(mine, CharacterButton(cid, view.id)),
                        general(set_out, AdventureButton(cid)),
                    ],
                    safety_row(cid, lang),
                ]
            )
        steps: list[SetupStep] = [s for s in expected_step_order() if s is not SetupStep.DONE]
        number = steps.index(b.step) + 1
        lines = [
            "🌍 "
            + lang.gettext(
                "<b>Worldbuilding</b> — step {number} of {total}: <i>{step}</i>",
                number=number,
                total=len(steps),
                step=esc(lang.gettext(describe_step(b.step))),
            ),
            *summary_lines(table, b, lang),
            "",
            *prompt_lines(table, b, lang),
        ]
        now = now_line(
            waiting(self.kind, view, SetupPanelState).choices,
            lambda p: name_of(table, p, lang),
            lambda c: lang.gettext(_SETUP_PHRASES[c.verb]),
            lang=lang,
        )
        if now:
            lines.append(now)
        rows = step_buttons(view, b, lang)
        rows.append([general(mine, CharacterButton(cid, view.id))])
        rows.append(safety_row(cid, lang))
        return "\n".join(lines), keyboard(rows)


_SETUP_PHRASES = {
    ActionKind.PROPOSE_TONE: N_("propose the tone (reply)"),
    ActionKind.AGREE_TONE: N_("agree"),
    ActionKind.BAN: N_("ban one thing (reply)"),
    ActionKind.PASS_BAN: N_("pass"),
    ActionKind.CHOOSE_FIRST_SPEAKER: N_("choose who goes first"),
    ActionKind.MAKE_STATEMENT: N_("add a fact (reply)"),
    ActionKind.PASS_STATEMENT: N_("pass"),
    ActionKind.DECLARE_CARD_FULL: N_("say the card is full"),
    ActionKind.ANSWER_SCOPE: N_("answer (reply)"),
    ActionKind.FINISH_SCOPE: N_("finish the scope"),
    ActionKind.NAME_RESOURCE: N_("name a resource (reply)"),
    ActionKind.CHOOSE_ABUNDANCE: N_("choose the abundance"),
    ActionKind.AUTHOR_LOCATION: N_("write your locations"),
    ActionKind.DEAL_MAP: N_("deal the map"),
    ActionKind.ROLL_DANGER_AND_REWARD: N_("roll Danger and Reward"),
}


def summary_lines(table: Table, b: Board, lang: Lang = EN) -> list[str]:
    lines: list[str] = []
    if b.tone and b.step is not SetupStep.TONE:
        tools = esc(", ".join(lang.gettext(TOOL_NAMES[t]) for t in b.tools))
        lines.append("🎭 " + lang.gettext("Tone: {tone}", tone=short(b.tone)) + f" · 🛟 {tools}")
    if b.bans:
        banned = "; ".join(short(text, 80) for _, text in b.bans)
        lines.append("🚫 " + lang.gettext("Banned: {bans}", bans=banned))
    if b.settlement:
        lines.append("🏘 " + lang.gettext("The settlement:"))
        lines += [
            f"  {i + 1}. " + ("" if on is None else f"↳{on + 1} ") + short(text, 120)
            for i, (_, text, on) in enumerate(b.settlement)
        ]
    if b.scope:
        scope = "; ".join(short(text, 80) for _, text in b.scope)
        lines.append("🧭 " + lang.gettext("Scope: {scope}", scope=scope))
    if b.resources:
        resources = ", ".join(
            f"{esc(n)} ({lang.gettext(LEVEL_NAMES[level])})" for n, level in b.resources
        )
        lines.append("📦 " + lang.gettext("Resources: {resources}", resources=resources))
    if b.map_rows:
        lines.append("🗺 " + lang.gettext("The map (face down):"))
        lines += [
            "  "
            + "  ".join(
                "·" * 7 if c is None else f"{mark(c.id, lang)} {back_text(c, lang)}" for c in row
            )
            for row in b.map_rows
        ]
    return lines


def prompt_lines(table: Table, b: Board, lang: Lang = EN) -> list[str]:
    _ = lang.gettext
    waiting = names(table, b.waiting_for(), lang)
    step = b.step
    if step is SetupStep.TONE:
        lines = [
            _("Talk about the world you want: touchstones, mood, how scenes are framed."),
            _(
                "Then anyone <b>replies to this message</b> with a few words to write the tone "
                "down, and chooses the safety tools below. Everyone else taps Agree."
            ),
        ]
        if b.tone_proposed:
            lines.append("🎭 " + _("Proposed: {tone}", tone=short(b.tone, 400)))
            tools = ", ".join(esc(_(TOOL_NAMES[t])) for t in b.tools)
            lines.append("🛡 " + _("Safety tools: {tools}", tools=tools))
            pending = [p for p in b.players if p not in b.agreed]
            lines.append(
                "👍 "
                + _(
                    "Agreed: {agreed} · waiting for {pending}",
                    agreed=names(table, sorted(b.agreed), lang),
                    pending=names(table, pending, lang),
                )
            )
        return lines
    if step is SetupStep.BANS:
        return [
            _("Each of you may ban one thing from the setting: <b>reply</b> with it, or pass."),
            "⏳ " + _("Waiting for: {names}", names=waiting),
        ]
    if step is SetupStep.SETTLEMENT:
        speaker = "—" if b.speaker is None else name_of(table, b.speaker, lang)
        lines = [
            "🗣 "
            + _(
                "<b>{name}</b>'s turn: <b>reply</b> with one fact about the settlement, "
                "or pass. To build on fact 2, start with ^2.",
                name=speaker,
            ),
            _(
                "The round ends when two players in a row pass (whoever passed may speak again "
                "next round), or when anyone taps “Card is full”."
            ),
        ]
        if b.passes_in_row:
            lines.append(_("The last player passed: one more pass ends the round."))
        return lines
    if step is SetupStep.SCOPE:
        question = _("Anything else to note? Reply, or tap Done.")
        if b.question is not None:
            question = f"❓ {esc(_(b.question.prompt))}"
        return [question, _("<b>Reply</b> to answer; skip the questions that don't matter.")]
    if step is SetupStep.RESOURCES:
        if not b.everyone_named:  # one each first: until then nobody names two
            return [
                _(
                    "Name what your community needs most: <b>reply</b> with one resource each "
                    "({count} of {total}).",
                    count=len(b.resources),
                    total=RESOURCE_COUNT,
                ),
                "⏳ " + _("Waiting for: {names}", names=waiting),
            ]
        return [
            _(
                "Everyone has named one. Agree on the rest together: anyone <b>replies</b> "
                "with another resource until there are {total} ({count} of {total}).",
                count=len(b.resources),
                total=RESOURCE_COUNT,
            ),
        ]
    if step is SetupStep.ABUNDANCE:
        return [_("Which of these does the settlement have plenty of? The rest are scarce.")]
    if step is SetupStep.LOCATIONS:
        progress = ", ".join(
            f"{name_of(table, p, lang)} {b.written.get(p, 0)}/{LOCATIONS_PER_PLAYER}"
            for p in b.players
        )
        return [
            _(
                "Each of you writes two locations <b>in private</b>: nobody else sees them "
                "until they are flipped."
            ),
            "✍️ " + _("Written: {progress}", progress=progress),
        ]
    if step is SetupStep.MAP:
        return [_("Shuffle the cards face down into a map. How many cards wide?")]
    return [_("Roll two d4 per card: the first is its Danger, the second its Reward.")]


def plain_name(table: Table, player_id: int) -> str:
    """A seat's name for a button label (labels are plain text, not HTML), whole: the label
    fits it in whole words (:func:`~tgbot.render.layout.named`)."""
    seat = table.seat(player_id)
    return seat.name if seat is not None else str(player_id)


def verb_label(verb: Enum, lang: Lang) -> str:
    """The label of a button that is always the same (:data:`VERB_LABELS`)."""
    sign, word = VERB_LABELS[verb]
    return f"{sign} {lang.gettext(word)}"


def _step_button(view: PanelView, c: Choice[BoardVerb], lang: Lang) -> InlineKeyboardButton:
    """One worldbuilding choice as a button."""
    _ = lang.gettext
    if c.verb is BoardVerb.TOOL:
        tool = TOOLS[int(c.argument)]
        return button(
            view, ("✅ " if c.selected else "▫️ ") + _(TOOL_NAMES[tool]), c.verb.value, c.argument
        )
    if c.verb is BoardVerb.FIRST:
        first = _("{name} first", name="{}")
        return button(view, named(first, plain_name(view.table, c.count)), c.verb.value, c.argument)
    if c.verb is BoardVerb.ABUNDANCE:
        return button(view, fit_name(c.name, ONE_ROW), c.verb.value, c.argument)
    if c.verb is BoardVerb.WRITE_LOCATIONS:
        return general("✍️ " + _("Write my locations"), CardsButton(view.campaign.id, view.id))
    if c.verb is BoardVerb.DEAL:
        return button(view, _("{num} wide", num=c.count), c.verb.value, c.argument)
    return button(view, verb_label(c.verb, lang), c.verb.value, c.argument)


def step_buttons(view: PanelView, b: Board, lang: Lang = EN) -> list[list[InlineKeyboardButton]]:
    """The worldbuilding step's buttons: one per choice the rules offer, labelled."""
    choices = b.button_choices()

    def of(*verbs: BoardVerb) -> list[InlineKeyboardButton]:
        return [_step_button(view, c, lang) for c in choices if c.verb in verbs]

    rows: list[list[InlineKeyboardButton]] = []
    rows += phone_rows(of(BoardVerb.TOOL))
    rows += [[x] for x in of(BoardVerb.AGREE)]
    if b.step is SetupStep.BANS:
        rows += [[x] for x in of(BoardVerb.PASS)]
    else:
        rows += phone_rows(of(BoardVerb.FIRST))
        rows += phone_rows(of(BoardVerb.PASS, BoardVerb.FULL))
    rows += phone_rows(of(BoardVerb.NEXT_QUESTION, BoardVerb.SCOPE_DONE))
    rows += [[x] for x in of(BoardVerb.ABUNDANCE, BoardVerb.WRITE_LOCATIONS)]
    rows += phone_rows(of(BoardVerb.DEAL))
    rows += [[x] for x in of(BoardVerb.ROLL)]
    return rows


def built_text(table: Table, lang: Lang = EN) -> str:
    campaign = campaign_of(table)
    world = campaign.current_world()
    lines = ["🌍 " + lang.gettext("<b>The world is built.</b>")]
    if world is not None:
        lines.append(f"🎭 {short(world.tone)}")
        lines.append(
            "🗺 "
            + lang.ngettext(
                "{num} location lies face down around the settlement:",
                "{num} locations lie face down around the settlement:",
                len(world.cards),
            )
        )
        if world.grid is not None:
            for row in world.grid.rows:
                cells = [
                    "·" * 7
                    if cid is None
                    else f"{mark(cid, lang)} {back_text(world.card(cid), lang)}"
                    for cid in row
                ]
                lines.append("  " + "  ".join(cells))
    lines.append(
        lang.gettext(
            "Next: everyone makes a character (🧍 below, or /character), "
            "then set out with /adventure."
        )
    )
    return "\n".join(lines)


# -- private: locations ------------------------------------------------------------------


class CardsRenderer:
    kind = CARDS_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        _ = lang.gettext
        cv = cards_view(view.table, view.typed(CardsPanelState))
        lines = [
            "✍️ " + _("<b>Your locations</b> — secret: only you see these until they are flipped.")
        ]
        for i, card in enumerate(cv.written):
            lines.append(f"\n<b>{i + 1}. {esc(card.title)}</b>\n<i>{short(card.description)}</i>")
            lines.append("🕰 " + _("Could be harmed: {text}", text=esc(card.collateral_target)))
            lines.append(f"⚠️ {esc(card.danger_type)} · 💎 {esc(card.treasure_type)}")
        rows: list[list[InlineKeyboardButton]] = []
        choices = cards_choices(cv)
        if cv.field is None and cv.dealt:
            lines.append(
                "\n🗺 "
                + _("The map is dealt: your locations lie face down on it until they are flipped.")
            )
        elif cv.field is None:
            lines.append(
                "\n✅ "
                + (
                    _(
                        "Both written. They go face down when the table deals the map; "
                        "until then you can still edit them."
                    )
                    if cv.revisable
                    else _("Both written. They go face down when the table deals the map.")
                )
            )
        elif cv.editing is not None:
            lines.append("\n✏️ " + _("<b>Rewriting {title}</b>", title=esc(cv.editing.title)))
            lines.append(_("Now: {text}", text=short(cv.fields.get(cv.field.key, ""), 200)))
            lines.append(
                f"\n👉 <b>{spec_label(cv.field.label, lang)}</b>: {esc(_(cv.field.prompt))}"
            )
            lines.append(_("<b>Reply to this message</b> with a new answer, or keep this one."))
            labels = {CardsVerb.BACK: "◀ " + _("Back"), CardsVerb.RESTART: "✖ " + _("Cancel")}
            rows += [
                [button(view, "✔️ " + _("Keep as it is"), c.verb.value)]
                for c in choices
                if c.verb is CardsVerb.KEEP
            ]
            rows.append(
                [button(view, labels[c.verb], c.verb.value) for c in choices if c.verb in labels]
            )
        else:
            lines.append(
                "\n"
                + _(
                    "<b>Location {number} of {total}</b>",
                    number=len(cv.written) + 1,
                    total=LOCATIONS_PER_PLAYER,
                )
            )
            for spec in FIELDS:
                if spec.key in cv.fields:
                    said = short(cv.fields[spec.key], 80)
                    lines.append(f"✔️ {spec_label(spec.label, lang)}: {said}")
            lines.append(
                f"\n👉 <b>{spec_label(cv.field.label, lang)}</b>: {esc(_(cv.field.prompt))}"
            )
            lines.append(_("<b>Reply to this message</b> with your answer."))
            labels = {CardsVerb.BACK: "◀ " + _("Back"), CardsVerb.RESTART: "↺ " + _("Start over")}
            rows.append(
                [button(view, labels[c.verb], c.verb.value) for c in choices if c.verb in labels]
            )
        edits = [c for c in choices if c.verb is CardsVerb.EDIT]
        if edits and cv.field is not None:
            lines.append("✏️ " + _("You can edit a saved card until the table deals the map."))
        for c in edits:
            title = fit_name(c.name, 24)
            label = "✏️ " + _("Edit {number}. {title}", number=c.count, title=title)
            rows.append([button(view, label, c.verb.value, c.argument)])
        now = now_line(  # what must be done; a rewrite or keeping an answer is optional
            waiting(self.kind, view, CardsPanelState).choices,
            lambda p: name_of(view.table, p, lang),
            lambda c: _cards_phrase(c, lang),
            lang=lang,
        )
        if not now and cv.built:  # what comes next is no longer the dealing
            now = "👉 " + _(
                "Next: make your character with /character, then set out with /adventure."
            )
        elif not now and cv.dealt:
            now = "👉 " + _("Next: the table rolls Danger and Reward in the group chat.")
        lines.append(now or "👉 " + _("Next: the table deals the map in the group chat."))
        rows.append(safety_row(view.campaign.id, lang))
        return "\n".join(lines), keyboard(rows)

    def follow_ups(self, view: PanelView) -> Sequence[FollowUp]:
        board_id = view.typed(CardsPanelState).board
        if board_id and any(isinstance(e, LocationAuthored) for e in view.events):
            return [Refresh(board_id)]
        return []


_FIELD_PHRASES = {
    "title": N_("reply with the title"),
    "description": N_("reply with the description"),
    "collateral_target": N_("reply with the what could be harmed"),
    "danger_type": N_("reply with the danger"),
    "treasure_type": N_("reply with the treasure"),
}


def _cards_phrase(choice: Choice[CardsVerb], lang: Lang = EN) -> str:
    if choice.verb is CardsVerb.WRITE:
        key = next((f.key for f in FIELDS if f.label == choice.name), "")
        if key in _FIELD_PHRASES:
            return lang.gettext(_FIELD_PHRASES[key])
        return lang.gettext("reply with the {field}", field=esc(choice.name.lower()))
    if choice.verb is CardsVerb.BACK:
        return lang.gettext("go back a field")
    return lang.gettext("start the card over")


def _aspects_label(choice: Choice[CreationVerb], lang: Lang) -> str:
    """How an aspects choice shares the dice (``Body d8 · Mind d6 · Heart d4``)."""
    body, mind, heart = ASPECT_CHOICES[int(choice.argument)]
    return aspects_text(body, mind, heart, " · ", lang)


def spec_label(label: str, lang: Lang = EN) -> str:
    return esc(lang.gettext(label))


# -- private: character creation ------------------------------------------------------


def draft_lines(
    draft: CharacterDraft, cards: Sequence[LocationCard] = (), lang: Lang = EN
) -> list[str]:
    _ = lang.gettext

    def val(text: str | None) -> str:
        return "—" if text is None else esc(text)

    lines = [_("Name: {name}", name=val(draft.name))]
    if draft.pronouns or draft.look:
        lines.append(
            _(
                "Pronouns: {pronouns} · Look: {look}",
                pronouns=val(draft.pronouns),
                look=short(draft.look or "", 100),
            )
        )
    if draft.moods:
        d8, d6, d4 = draft.moods
        moods = f"{esc(d8)} (d8), {esc(d6)} (d6), {esc(d4)} (d4)"
        lines.append(_("Moods: {moods}", moods=moods))
    if draft.aspects:
        a = draft.aspects
        dice = aspects_text(a.body, a.mind, a.heart, ", ", lang)
        lines.append(_("Aspects: {aspects}", aspects=dice))
    if draft.sentiments:
        held = ", ".join(_("(blank)") if s is None else esc(s) for s in draft.sentiments)
        lines.append(_("Sentiments: {sentiments}", sentiments=held))
    if draft.skills:
        skills = ", ".join(f"{esc(s)} +1" for s in draft.skills)
        lines.append(_("Skills: {skills}", skills=skills))
    return lines + _rumour_lines(draft.rumours, cards, lang)


def _rumour_lines(rumours: Sequence[str], cards: Sequence[LocationCard], lang: Lang) -> list[str]:
    """Each rumour, about the card it goes with."""
    _ = lang.gettext
    lines = []
    for n, rumour in enumerate(rumours):
        if n < len(cards):
            lines.append(
                _(
                    "Rumour about <b>{title}</b>: {rumour}",
                    title=esc(cards[n].title),
                    rumour=short(rumour, 120),
                )
            )
        else:
            lines.append(_("Rumour: {rumour}", rumour=short(rumour, 120)))
    return lines


def aspects_text(body: Die, mind: Die, heart: Die, separator: str, lang: Lang = EN) -> str:
    """Body d8, Mind d6, Heart d4: the Aspects' dice, named in ``lang``."""
    named_dice = ((N_("Body"), body), (N_("Mind"), mind), (N_("Heart"), heart))
    return separator.join(f"{lang.gettext(name)} {die.label}" for name, die in named_dice)


STEP_PROMPTS = {
    CreationStep.NAME: N_("What is your character called? (You may also skip and name them last.)"),
    CreationStep.MOODS: N_(
        "Three moods your character often acts from, one per line or separated by commas: "
        "the d8 one (careful with the world), the d6, and the d4 (guarding themselves)."
    ),
    CreationStep.ASPECTS: N_(
        "Put Body, Mind and Heart on the d8, d6 and d4. A bigger aspect die protects you "
        "better, at the world's expense."
    ),
    CreationStep.SENTIMENTS: N_(
        "Three things your character holds dear — a possession, a belief, a bond — one per "
        "line or separated by commas. Write - to leave a line blank for a bond made later."
    ),
    CreationStep.SKILLS: N_("Three things your character is good at, separated by commas."),
}


class CharacterRenderer:
    kind = CHARACTER_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        _ = lang.gettext
        cid = view.campaign.id
        if view.closed:
            character = character_of(view.table.seat(view.typed(CharacterPanelState).owner))
            who = esc(character.name) if character else _("Your character")
            text = "🧍 " + _ready(who, character.pronouns if character else None, lang)
            text += "\n👉 " + _("Next: play on in the group chat.")
            return text, keyboard([safety_row(cid, lang)])
        cv = creation_view(view.table, view.typed(CharacterPanelState))
        choices = creation_choices(cv)
        lines = ["🧍 " + _("<b>Your character</b>"), *draft_lines(cv.draft, cv.cards, lang), ""]
        rows: list[list[InlineKeyboardButton]] = []
        index = STEPS.index(cv.step) if cv.step is not None else len(STEPS)
        if cv.step is None:
            if cv.missing:
                missing = ", ".join(_(STEP_TITLES[s]) for s in cv.missing)
                lines.append(_("Still missing: {steps}.", steps=missing))
                lines.append("👉 " + _("Tap a step below to fill it in, then Finish."))
            else:
                lines.append("✅ " + _("All set. Tap Finish to make it your sheet."))
        else:
            lines.append(
                "👉 "
                + _(
                    "<b>Step {number} of {total}: {step}</b>",
                    number=index + 1,
                    total=len(STEPS),
                    step=_(STEP_TITLES[cv.step]),
                )
            )
            lines.append(self._prompt(cv.step, cv, lang))
            rows += [
                [button(view, _aspects_label(c, lang), c.verb.value, c.argument)]
                for c in choices
                if c.verb is CreationVerb.ASPECTS
            ]
            if any(c.verb is CreationVerb.ANSWER for c in choices):
                lines.append(_("<b>Reply to this message</b> with your answer."))
        nav_labels = {
            CreationVerb.BACK: "◀ " + _("Back"),
            CreationVerb.SKIP: _("Skip") + " ▶",
            CreationVerb.FINISH: "✅ " + _("Finish"),
        }
        nav = [
            button(view, nav_labels[c.verb], c.verb.value, c.argument)
            for c in choices
            if c.verb in nav_labels and not c.name
        ]
        rows += [nav[i : i + 2] for i in range(0, len(nav), 2)]
        rows += [  # each step still missing, straight from the review, one to a row
            [button(view, "✏️ " + _(STEP_TITLES[CreationStep(c.name)]), c.verb.value, c.argument)]
            for c in choices
            if c.verb is CreationVerb.BACK and c.name
        ]
        lines.append(
            now_line(
                waiting(self.kind, view, CharacterPanelState).choices,
                lambda p: name_of(view.table, p, lang),
                lambda c: _creation_phrase(c, lang),
                lang=lang,
            )
        )
        rows.append(safety_row(cid, lang))
        return "\n".join(lines), keyboard(rows)

    def follow_ups(self, view: PanelView) -> Sequence[FollowUp]:
        board_id = view.typed(CharacterPanelState).board
        if board_id and any(isinstance(e, CharacterFinished) for e in view.events):
            return [Refresh(board_id)]
        return []

    @staticmethod
    def _prompt(step: CreationStep, cv: CreationView, lang: Lang = EN) -> str:
        _ = lang.gettext
        gender = gender_of(cv.pronouns)
        if step is CreationStep.PRONOUNS_AND_LOOK:
            if cv.waiting_pronouns:
                if gender is Gender.SHE:
                    return _("And how does she look? What does she wear?")
                if gender is Gender.HE:
                    return _("And how does he look? What does he wear?")
                return _("And how do they look? What do they wear?")
            return _("Their pronouns first (then you'll describe their look).")
        if step is CreationStep.RUMOURS:
            card = cv.rumour_for
            if card is None:
                if not cv.cards:
                    return _("Rumours are about the two locations you write; come back after that.")
                return _("You have a rumour for each of your locations.")
            if gender is Gender.SHE:
                return _(
                    "What has your character heard about <b>{title}</b> (your own card)? "
                    "She doesn't know where it is, but would know it on sight.",
                    title=esc(card.title),
                )
            if gender is Gender.HE:
                return _(
                    "What has your character heard about <b>{title}</b> (your own card)? "
                    "He doesn't know where it is, but would know it on sight.",
                    title=esc(card.title),
                )
            return _(
                "What has your character heard about <b>{title}</b> (your own card)? "
                "They don't know where it is, but would know it on sight.",
                title=esc(card.title),
            )
        return _(STEP_PROMPTS[step])


def _ready(name: str, pronouns: str | None, lang: Lang) -> str:
    """ "{name} is ready", agreeing with the character's pronouns where a language needs it."""
    gender = gender_of(pronouns)
    if gender is Gender.SHE:
        return lang.pgettext(
            "a character who is she",
            "<b>{name}</b> is ready. See the whole sheet with /sheet.",
            name=name,
        )
    if gender is Gender.HE:
        return lang.pgettext(
            "a character who is he",
            "<b>{name}</b> is ready. See the whole sheet with /sheet.",
            name=name,
        )
    return lang.gettext("<b>{name}</b> is ready. See the whole sheet with /sheet.", name=name)


_CREATION_PHRASES = {
    CreationVerb.ASPECTS: N_("pick how Body, Mind and Heart share the dice"),
    CreationVerb.BACK: N_("go back a step"),
    CreationVerb.SKIP: N_("skip this step"),
    CreationVerb.FINISH: N_("finish the character"),
}
_REPLY_PHRASES = {
    CreationStep.NAME: N_("reply with your character's name"),
    CreationStep.PRONOUNS_AND_LOOK: N_("reply with pronouns and look"),
    CreationStep.MOODS: N_("reply with three moods"),
    CreationStep.ASPECTS: N_("reply with aspects"),
    CreationStep.SENTIMENTS: N_("reply with three sentiments"),
    CreationStep.SKILLS: N_("reply with three skills"),
    CreationStep.RUMOURS: N_("reply with a rumour"),
}


def _creation_phrase(choice: Choice[CreationVerb], lang: Lang = EN) -> str:
    if choice.verb is CreationVerb.ANSWER:
        return lang.gettext(_REPLY_PHRASES[CreationStep(choice.name)])
    if choice.verb is CreationVerb.BACK and choice.name:
        return lang.gettext("fill in a missing step")
    return lang.gettext(_CREATION_PHRASES[choice.verb])


# -- the adventure --------------------------------------------------------------------------


def place_text(card: CardView, lang: Lang = EN) -> str:
    if not card.face_visible or card.title is None:
        return lang.gettext(
            "{id} (face down, {back})", id=mark(card.id, lang), back=back_text(card, lang)
        )
    return f"{esc(card.title)} ({back_text(card, lang)})"


class AdventureRenderer:
    kind = ADVENTURE_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        _ = lang.gettext
        table = view.table
        sc = scene(table, view.typed(AdventurePanelState))
        cid = view.campaign.id
        lines = ["🧭 " + _("<b>Adventure</b>")]
        if sc.here is None:
            lines.append("📍 " + _("At home, in the settlement."))
        else:
            here = sc.here
            name = here.title or mark(here.id, lang)
            lines.append(f"📍 <b>{esc(name)}</b> · {back_text(here, lang)}")
            if here.description:
                lines.append(f"<i>{esc(here.description)}</i>")
            if here.collateral_target is not None and here.clock_ticks is not None:
                lines.append(
                    "🕰 "
                    + _(
                        "Collateral: {target} — {clock}",
                        target=esc(here.collateral_target),
                        clock=clock_text(here.clock_ticks),
                    )
                )
        if sc.groups:
            on_screen = ", ".join(_in_play(table, p, True, lang) for p in sorted(sc.on_screen))
            lines.append("🎬 " + _("On screen: {names}", names=on_screen))
            arbiters = ", ".join(_in_play(table, p, True, lang) for p in sorted(sc.arbiters))
            lines.append("⚖️ " + _("Arbiters: {names}", names=arbiters or _("nobody")))
        else:
            together = ", ".join(_in_play(table, p, True, lang) for p in sc.players)
            others = set(table.seats) - set(sc.players)  # nobody left to arbitrate: say nothing
            lines.append(
                "👥 "
                + (
                    _("Together: {names} — the others arbitrate each roll.", names=together)
                    if others
                    else _("Together: {names}", names=together)
                )
            )
        if sc.phase is Phase.DOWNTIME:
            # drawn as this panel closes; it must stay true after downtime ends too
            lines.append("🏕 " + _("The party went into downtime; after it, /adventure goes on."))
        elif sc.picking is None and not sc.without_character:
            lines.append(
                _(
                    "🎲 Something risky? <code>/act what you want to happen</code> · "
                    "🌙 Rest: <code>/downtime home</code> (or <code>camp</code>)"
                )
            )
        if sc.without_character:
            making = names(table, sc.without_character, lang)
            lines.append("🧍 " + _("Still making a character: {names}", names=making))
        choices = adventure_choices(sc)
        of = {verb: [c for c in choices if c.verb is verb] for verb in AdventureVerb}

        def make(choice: Choice[AdventureVerb], label: str) -> InlineKeyboardButton:
            return button(view, label[:60], choice.verb.value, choice.argument)

        rows: list[list[InlineKeyboardButton]] = []
        if sc.picking is not None:
            first = ", ".join(_in_play(table, p, lang=lang) for p in sorted(sc.picking))
            lines.append(
                "✂️ "
                + _(
                    "Tap who goes in the first group, then Split. First group: {names}",
                    names=first or _("nobody"),
                )
            )
            rows += [
                [
                    make(
                        c,
                        named(
                            ("✅ " if c.selected else "▫️ ") + "{}",
                            _plain_seat(table, sc.players[i]),
                        ),
                    )
                ]
                for i, c in enumerate(of[AdventureVerb.PICK])
            ]
        elif of[AdventureVerb.GO]:
            lines.append(
                "🗺 " + _("Where next? Face-down places show their Danger (D) and Reward (R).")
            )
            if sc.groups:  # travelling regroups the party: said before anyone picks
                lines.append(
                    "🤝 "
                    + _(
                        "The party meets up to travel: everyone goes together, and there "
                        "the others arbitrate each roll until you split up again."
                    )
                )
        cards = {c.id: c for c in sc.reachable}
        room = ONE_ROW - label_width("➡️ ")
        rows += [
            [make(c, "➡️ " + fit_name(place_plain(cards[c.name], lang), room))]
            for c in of[AdventureVerb.GO]
        ]
        rows += [
            [make(c, "◀️ " + _("Back") if c.argument else "➡️ " + _("Travel"))]
            for c in of[AdventureVerb.TRAVEL]
        ]
        for group in (
            (AdventureVerb.SPLIT, AdventureVerb.CANCEL),
            (AdventureVerb.HOME, AdventureVerb.SWITCH, AdventureVerb.REGROUP),
            (AdventureVerb.TICK, AdventureVerb.UNTICK),
        ):
            row = [make(c, verb_label(c.verb, lang)) for verb in group for c in of[verb]]
            if group[0] is AdventureVerb.HOME and sc.picking is None:
                row += [make(c, "✂️ " + _("Split up")) for c in of[AdventureVerb.PICK]]
            rows += phone_rows(row)
        now = now_line(
            waiting(self.kind, view, AdventurePanelState).choices,
            lambda p: _in_play(table, p, False, lang),  # each was named with their player above
            lambda c: _adventure_phrase(c, lang),
            lang=lang,
        )
        if now:
            lines.append(now)
        if not sc.travelling:
            map_label, mine = "🗺 " + _("Map"), "🧍 " + _("My character")
            rows += phone_rows(
                [general(map_label, MapButton(cid))]
                + ([general(mine, CharacterButton(cid, view.id))] if sc.without_character else [])
            )
        rows.append(safety_row(cid, lang))
        return "\n".join(lines), keyboard(rows)

    def follow_ups(self, view: PanelView) -> Sequence[FollowUp]:
        world = campaign_of(view.table).current_world()
        if world is None:
            return []
        notes: list[FollowUp] = []
        painted: set[tuple[str, int]] = set()
        for event in view.events:
            if isinstance(event, PaintThePicture):
                card = world.card(event.card_id)
                painted.add((card.id, event.author_id))
                lang = voice(view.campaign, event.author_id)
                heading = "🖌 " + lang.gettext(
                    "<b>Your location was flipped.</b> Paint the picture for the "
                    "table: what it looks like, what is at stake, and the reward to "
                    "be found. Let Danger and Reward set the intensity."
                )
                notes.append(Note(event.author_id, card_face(card, heading, lang)))
            elif isinstance(event, SceneBriefing):
                card = world.card(event.card_id)
                for arbiter in sorted(event.arbiters):
                    if (card.id, arbiter) in painted:
                        continue
                    lang = voice(view.campaign, arbiter)
                    heading = "⚖️ " + lang.gettext(
                        "<b>You arbitrate this scene.</b> The whole card, for the Arbiters only:"
                    )
                    notes.append(Note(arbiter, card_face(card, heading, lang)))
        return notes


_ADVENTURE_PHRASES = {
    AdventureVerb.GO: N_("pick where to go"),
    AdventureVerb.HOME: N_("head home"),
    AdventureVerb.PICK: N_("split up"),
    AdventureVerb.SPLIT: N_("split"),
    AdventureVerb.CANCEL: N_("stay together"),
    AdventureVerb.SWITCH: N_("switch focus"),
    AdventureVerb.REGROUP: N_("regroup"),
    AdventureVerb.TICK: N_("tick the clock"),
    AdventureVerb.UNTICK: N_("untick the clock"),
}


def _adventure_phrase(choice: Choice[AdventureVerb], lang: Lang = EN) -> str:
    _ = lang.gettext
    if choice.verb is AdventureVerb.PICK and choice.argument:
        return _("pick who goes in the first group")
    if choice.verb is AdventureVerb.TRAVEL:
        return _("go back") if choice.argument else _("travel somewhere")
    return _(_ADVENTURE_PHRASES[choice.verb])


def _plain_seat(table: Table, player: int) -> str:
    """A button's plain label for a player: their character, as in play."""
    seat = table.seats.get(player)
    if seat is None:
        return str(player)
    character = character_of(seat)
    return in_play(None if character is None else character.name, seat.name)


def _in_play(table: Table, player: int, introduce: bool = False, lang: Lang = EN) -> str:
    """A player by the name in play: their character's, or theirs until they make one.

    ``introduce`` adds the player's own name, "Birch (Alice)" (core.rules.names).
    """
    seat = table.seat(player)
    if seat is None:
        return lang.gettext("someone who left")
    character = character_of(seat)
    return esc(
        in_play(None if character is None else character.name, seat.name, introduce=introduce)
    )


def place_plain(card: CardView, lang: Lang = EN) -> str:
    if card.face_visible and card.title is not None:
        return f"{card.title} · {back_text(card, lang)}"
    return f"{mark(card.id, lang)} · {back_text(card, lang)}"


# -- private: lines and veils --------------------------------------------------------------


class SafetyRenderer:
    kind = SAFETY_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        _ = lang.gettext
        safety = campaign_of(view.table).safety
        kind = view.typed(SafetyPanelState).kind
        add_as = (
            _("<b>Reply to this message</b> with a topic to add it as a <b>line</b>.")
            if kind is SafetyKind.LINE
            else _("<b>Reply to this message</b> with a topic to add it as a <b>veil</b>.")
        )
        lines = [
            "🚧 "
            + _(
                "<b>Lines and veils</b> — anonymous: the group sees the topic, never who wrote it."
            ),
            _("Lines: {topics}", topics="; ".join(esc(x) for x in safety.lines) or _("none yet")),
            _("Veils: {topics}", topics="; ".join(esc(x) for x in safety.veils) or _("none yet")),
            "",
            _("A <b>line</b> never comes up in the story; a <b>veil</b> may happen, off screen."),
            add_as,
        ]
        choices = safety_choices(view.typed(SafetyPanelState))
        kind_labels = {SafetyKind.LINE.value: _("Line"), SafetyKind.VEIL.value: _("Veil")}
        rows = [
            [
                button(
                    view,
                    ("✅ " if c.selected else "") + kind_labels[c.argument],
                    c.verb.value,
                    c.argument,
                )
                for c in choices
                if c.verb is SafetyVerb.KIND
            ],
            safety_row(view.campaign.id, lang),
        ]
        lines.append(
            now_line(
                waiting(self.kind, view, SafetyPanelState).choices,
                lambda p: name_of(view.table, p, lang),
                lambda c: _safety_phrase(c, lang),
                lang=lang,
            )
        )
        return "\n".join(lines), keyboard(rows)

    def follow_ups(self, view: PanelView) -> Sequence[FollowUp]:
        notes: list[FollowUp] = []
        lang = lang_for(view.campaign.language)
        for event in view.events:
            if isinstance(event, SafetyEntryAdded):
                topic = esc(event.text)
                text = (
                    lang.gettext("🚧 A new line for this table: <b>{topic}</b>", topic=topic)
                    if event.kind is SafetyKind.LINE
                    else lang.gettext("🚧 A new veil for this table: <b>{topic}</b>", topic=topic)
                )
                notes.append(Note(view.campaign.chat_tg_id, text))
        return notes


def _safety_phrase(choice: Choice[SafetyVerb], lang: Lang = EN) -> str:
    _ = lang.gettext
    line = choice.name == SafetyKind.LINE.value
    if choice.verb is SafetyVerb.ADD:
        return (
            _("reply with a topic to add as a line")
            if line
            else _("reply with a topic to add as a veil")
        )
    return _("switch to adding lines") if line else _("switch to adding veils")


RENDERERS = [
    SetupRenderer(),
    CardsRenderer(),
    CharacterRenderer(),
    AdventureRenderer(),
    SafetyRenderer(),
]
