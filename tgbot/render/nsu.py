"""How No Stone Unturned looks in the chat: worldbuilding, cards, characters, adventure.

Pure: panel views in, HTML and buttons out. What the group sees comes from the
rules' public projections (:func:`board`, :func:`scene`); a card's face is only
rendered into notes addressed to people the rules name (the author, the
Arbiters). Every piece of player text goes through :func:`esc`.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlencode

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from core.campaigns import PanelView
from core.i18n import Lang
from core.rules.choice import Choice
from core.rules.names import in_play
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
from core.rules.nsu.safety_panel import SAFETY_PANEL, SafetyPanelState, SafetyVerb, safety_choices
from core.rules.nsu.setup import (
    ActionKind,
    LocationAuthored,
    SetupStep,
    describe_step,
    expected_step_order,
)
from core.rules.nsu.setup_panel import SETUP_PANEL, TOOLS, Board, BoardCard, SetupPanelState, board
from core.rules.nsu.sheet import CharacterDraft, CreationStep
from core.rules.nsu.world import (
    CLOCK_SEGMENTS,
    CardView,
    LocationCard,
    ResourceLevel,
    SafetyTool,
)
from core.rules.table import Table
from tgbot.buttons.nsu import (
    AdventureButton,
    CardsButton,
    CharacterButton,
    KnockButton,
    MapButton,
    XCardButton,
)
from tgbot.callback import GeneralButton
from tgbot.panels import FollowUp, Note, Refresh, button, keyboard
from tgbot.render.layout import ONE_ROW, named, phone_rows
from tgbot.render.layout import short as short_name
from tgbot.render.text import esc, now_line

SHORT = 160
TOOL_NAMES = {
    SafetyTool.X_CARD: "X-card",
    SafetyTool.LINES_AND_VEILS: "Lines & veils",
    SafetyTool.KNOCKS: "Knocks",
}
LEVEL_NAMES = {
    ResourceLevel.SCARCITY: "scarce",
    ResourceLevel.NEUTRAL: "steady",
    ResourceLevel.ABUNDANCE: "abundant",
}
STEP_TITLES = {
    CreationStep.NAME: "Name",
    CreationStep.PRONOUNS_AND_LOOK: "Pronouns and look",
    CreationStep.MOODS: "Three moods",
    CreationStep.ASPECTS: "Aspects",
    CreationStep.SENTIMENTS: "Three sentiments",
    CreationStep.SKILLS: "Three skills",
    CreationStep.RUMOURS: "Rumours",
}
X_CARD_TEXT = (
    "🛑 <b>X-card.</b> Someone tapped the X-card. Drop or rewind what is happening now "
    "— no questions asked, no explanations needed."
)
KNOCK_TEXT = (
    "✊ <b>Knock.</b> Someone knocked. Walk back what is being described, "
    "or skip ahead until it's over."
)


def short(text: str, limit: int = SHORT) -> str:
    """Escaped, cut to ``limit`` characters."""
    text = " ".join(text.split())
    return esc(text if len(text) <= limit else text[: limit - 1] + "…")


def name_of(table: Table, player_id: int) -> str:
    seat = table.seat(player_id)
    return esc(seat.name) if seat is not None else "someone who left"


def names(table: Table, players: Sequence[int]) -> str:
    return ", ".join(name_of(table, p) for p in players) or "nobody"


def safety_row(campaign_id: int) -> list[InlineKeyboardButton]:
    """The X-card and the knock, one tap away on every NSU panel."""
    return [
        InlineKeyboardButton("🛑 X-card", callback_data=XCardButton(campaign_id).encode()),
        InlineKeyboardButton("✊ Knock", callback_data=KnockButton(campaign_id).encode()),
    ]


def general(label: str, button: GeneralButton) -> InlineKeyboardButton:
    return InlineKeyboardButton(label, callback_data=button.encode())


def clock_text(ticks: int) -> str:
    return "●" * ticks + "○" * (CLOCK_SEGMENTS - ticks) + f" {ticks}/{CLOCK_SEGMENTS}"


def back_text(card: CardView | LocationCard | BoardCard) -> str:
    if card.danger is None or card.reward is None:
        return "D? R?"
    return f"{card.danger.label} {card.reward.label}"


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


def card_face(card: LocationCard, heading: str) -> str:
    lines = [
        heading,
        f"<b>{esc(card.title)}</b> · {back_text(card)}",
        f"<i>{esc(card.description)}</i>",
        f"⚠️ Danger: {esc(card.danger_type)}",
        f"💎 Treasure: {esc(card.treasure_type)}",
        f"🕰 Collateral Clock: {esc(card.collateral_target)} — {clock_text(card.clock.ticks)}",
    ]
    if card.danger is not None:
        lines.append(f"{card.danger.label}: {esc(card.danger.guide)}")
    if card.reward is not None:
        lines.append(f"{card.reward.label}: {esc(card.reward.guide)}")
    return "\n".join(lines)


# -- worldbuilding ---------------------------------------------------------------------


class SetupRenderer:
    kind = SETUP_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        table = view.table
        b = board(table, view.typed(SetupPanelState))
        cid = view.campaign.id
        if b is None or view.closed:
            return built_text(table), keyboard(
                [
                    [
                        general("🧍 My character", CharacterButton(cid, view.id)),
                        general("🧭 Set out", AdventureButton(cid)),
                    ],
                    safety_row(cid),
                ]
            )
        steps: list[SetupStep] = [s for s in expected_step_order() if s is not SetupStep.DONE]
        number = steps.index(b.step) + 1
        lines = [
            f"🌍 <b>Worldbuilding</b> — step {number} of {len(steps)}: "
            f"<i>{esc(describe_step(b.step))}</i>",
            *summary_lines(table, b),
            "",
            *prompt_lines(table, b),
        ]
        now = now_line(b.choices(), lambda p: name_of(table, p), _setup_phrase)
        if now:
            lines.append(now)
        rows = step_buttons(view, b)
        rows.append([general("🧍 My character", CharacterButton(cid, view.id))])
        rows.append(safety_row(cid))
        return "\n".join(lines), keyboard(rows)


_SETUP_PHRASES = {
    ActionKind.PROPOSE_TONE: "propose the tone (reply)",
    ActionKind.AGREE_TONE: "agree",
    ActionKind.BAN: "ban one thing (reply)",
    ActionKind.PASS_BAN: "pass",
    ActionKind.CHOOSE_FIRST_SPEAKER: "choose who goes first",
    ActionKind.MAKE_STATEMENT: "add a fact (reply)",
    ActionKind.PASS_STATEMENT: "pass",
    ActionKind.DECLARE_CARD_FULL: "say the card is full",
    ActionKind.ANSWER_SCOPE: "answer (reply)",
    ActionKind.FINISH_SCOPE: "finish the scope",
    ActionKind.NAME_RESOURCE: "name a resource (reply)",
    ActionKind.CHOOSE_ABUNDANCE: "choose the abundance",
    ActionKind.AUTHOR_LOCATION: "write their locations",
    ActionKind.DEAL_MAP: "deal the map",
    ActionKind.ROLL_DANGER_AND_REWARD: "roll Danger and Reward",
}


def _setup_phrase(choice: Choice[ActionKind]) -> str:
    return _SETUP_PHRASES[choice.verb]


def summary_lines(table: Table, b: Board) -> list[str]:
    lines: list[str] = []
    if b.tone and b.step is not SetupStep.TONE:
        tools = esc(", ".join(TOOL_NAMES[t] for t in b.tools))
        lines.append(f"🎭 Tone: {short(b.tone)} · 🛟 {tools}")
    if b.bans:
        lines.append("🚫 Banned: " + "; ".join(short(text, 80) for _, text in b.bans))
    if b.settlement:
        lines.append("🏘 The settlement:")
        lines += [
            f"  {i + 1}. " + ("" if on is None else f"↳{on + 1} ") + short(text, 120)
            for i, (_, text, on) in enumerate(b.settlement)
        ]
    if b.scope:
        lines.append("🧭 Scope: " + "; ".join(short(text, 80) for _, text in b.scope))
    if b.resources:
        lines.append(
            "📦 Resources: "
            + ", ".join(f"{esc(n)} ({LEVEL_NAMES[level]})" for n, level in b.resources)
        )
    if b.map_rows:
        lines.append("🗺 The map (face down):")
        lines += [
            "  " + "  ".join("·" * 7 if c is None else f"{c.id} {back_text(c)}" for c in row)
            for row in b.map_rows
        ]
    return lines


def prompt_lines(table: Table, b: Board) -> list[str]:
    waiting = names(table, b.waiting_for())
    step = b.step
    if step is SetupStep.TONE:
        lines = [
            "Talk about the world you want: touchstones, mood, how scenes are framed.",
            "Then anyone <b>replies to this message</b> with a few words to write the tone "
            "down, and chooses the safety tools below. Everyone else taps Agree.",
        ]
        if b.tone_proposed:
            lines.append(f"🎭 Proposed: {short(b.tone, 400)}")
            pending = [p for p in b.players if p not in b.agreed]
            lines.append(
                f"👍 Agreed: {names(table, sorted(b.agreed))} · waiting for {names(table, pending)}"
            )
        return lines
    if step is SetupStep.BANS:
        return [
            "Each of you may ban one thing from the setting: <b>reply</b> with it, or pass.",
            f"⏳ Waiting for: {waiting}",
        ]
    if step is SetupStep.SETTLEMENT:
        speaker = "—" if b.speaker is None else name_of(table, b.speaker)
        lines = [
            f"🗣 <b>{speaker}</b>'s turn: <b>reply</b> with one fact about the settlement, "
            "or pass. To build on fact 2, start with ^2.",
            "The round ends when two players in a row pass (whoever passed may speak again "
            "next round), or when anyone taps “Card is full”.",
        ]
        if b.passes_in_row:
            lines.append("The last player passed: one more pass ends the round.")
        return lines
    if step is SetupStep.SCOPE:
        question = "Anything else to note? Reply, or tap Done."
        if b.question is not None:
            question = f"❓ {esc(b.question.prompt)}"
        return [question, "<b>Reply</b> to answer; skip the questions that don't matter."]
    if step is SetupStep.RESOURCES:
        if not b.everyone_named:  # one each first: until then nobody names two
            return [
                f"Name what your community needs most: <b>reply</b> with one resource each "
                f"({len(b.resources)} of 5).",
                f"⏳ Waiting for: {waiting}",
            ]
        return [
            f"Everyone has named one. Agree on the rest together: anyone <b>replies</b> "
            f"with another resource until there are five ({len(b.resources)} of 5).",
        ]
    if step is SetupStep.ABUNDANCE:
        return ["Which of these does the settlement have plenty of? The rest are scarce."]
    if step is SetupStep.LOCATIONS:
        progress = ", ".join(f"{name_of(table, p)} {b.written.get(p, 0)}/2" for p in b.players)
        return [
            "Each of you writes two locations <b>in private</b>: nobody else sees them "
            "until they are flipped.",
            f"✍️ Written: {progress}",
        ]
    if step is SetupStep.MAP:
        return ["Shuffle the cards face down into a map. How many cards wide?"]
    return ["Roll two d4 per card: the first is its Danger, the second its Reward."]


def plain_name(table: Table, player_id: int) -> str:
    """A seat's name for a button label (labels are plain text, not HTML)."""
    seat = table.seat(player_id)
    return seat.name[:24] if seat is not None else str(player_id)


def step_buttons(view: PanelView, b: Board) -> list[list[InlineKeyboardButton]]:
    step = b.step
    rows: list[list[InlineKeyboardButton]] = []
    if step is SetupStep.TONE:
        tools = [
            button(view, ("✅ " if t in b.tools else "▫️ ") + TOOL_NAMES[t], "tool", str(i))
            for i, t in enumerate(TOOLS)
        ]
        rows += phone_rows(tools)
        if b.tone_proposed:
            rows.append([button(view, "👍 Agree", "agree")])
        return rows
    if step is SetupStep.BANS:
        return [[button(view, "🙅 Pass", "pass")]]
    if step is SetupStep.SETTLEMENT:
        if b.open_to(ActionKind.CHOOSE_FIRST_SPEAKER):
            rows += phone_rows(
                [
                    button(view, named("{} first", plain_name(view.table, p)), "first", str(i))
                    for i, p in enumerate(b.players)
                ]
            )
        row = [button(view, "🙅 Pass", "pass")]
        if b.open_to(ActionKind.DECLARE_CARD_FULL):
            row.append(button(view, "🟥 Card is full", "full"))
        return rows + phone_rows(row)
    if step is SetupStep.SCOPE:
        return phone_rows(
            [button(view, "⏭ Next question", "skipq"), button(view, "✅ Scope done", "scope")]
        )
    if step is SetupStep.ABUNDANCE:
        return [
            [button(view, short_name(name, ONE_ROW), "abundance", str(i))]
            for i, (name, _) in enumerate(b.resources)
        ]
    if step is SetupStep.LOCATIONS:
        return [[general("✍️ Write my locations", CardsButton(view.campaign.id, view.id))]]
    if step is SetupStep.MAP:
        return phone_rows([button(view, f"{w} wide", "deal", str(w)) for w in b.column_choices])
    if step is SetupStep.DANGER_AND_REWARD:
        return [[button(view, "🎲 Roll Danger and Reward", "roll")]]
    return []


def built_text(table: Table) -> str:
    campaign = campaign_of(table)
    world = campaign.current_world()
    lines = ["🌍 <b>The world is built.</b>"]
    if world is not None:
        lines.append(f"🎭 {short(world.tone)}")
        lines.append(f"🗺 {len(world.cards)} locations lie face down around the settlement:")
        if world.grid is not None:
            for row in world.grid.rows:
                cells = [
                    "·" * 7 if cid is None else f"{cid} {back_text(world.card(cid))}" for cid in row
                ]
                lines.append("  " + "  ".join(cells))
    lines.append(
        "Next: everyone makes a character (🧍 below, or /character), then set out with /adventure."
    )
    return "\n".join(lines)


# -- private: locations ------------------------------------------------------------------


class CardsRenderer:
    kind = CARDS_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        cv = cards_view(view.table, view.typed(CardsPanelState))
        lines = ["✍️ <b>Your locations</b> — secret: only you see these until they are flipped."]
        for i, card in enumerate(cv.written):
            lines.append(f"\n<b>{i + 1}. {esc(card.title)}</b>\n<i>{short(card.description)}</i>")
            lines.append(f"🕰 Could be harmed: {esc(card.collateral_target)}")
            lines.append(f"⚠️ {esc(card.danger_type)} · 💎 {esc(card.treasure_type)}")
        rows: list[list[InlineKeyboardButton]] = []
        choices = cards_choices(cv)
        if cv.field is None:
            lines.append(
                "\n✅ Both written. They go face down when the table deals the map"
                + ("; until then you can still edit them." if cv.revisable else ".")
            )
        elif cv.editing is not None:
            lines.append(f"\n✏️ <b>Rewriting {esc(cv.editing.title)}</b>")
            lines.append(f"Now: {short(cv.fields.get(cv.field.key, ''), 200)}")
            lines.append(f"\n👉 <b>{spec_label(cv.field.label)}</b>: {esc(cv.field.prompt)}")
            lines.append("<b>Reply to this message</b> with a new answer, or keep this one.")
            rows.append([button(view, "✔️ Keep as it is", "keep")])
            rows.append([button(view, "◀ Back", "back"), button(view, "✖ Cancel", "restart")])
        else:
            lines.append(f"\n<b>Location {len(cv.written) + 1} of 2</b>")
            for spec in FIELDS:
                if spec.key in cv.fields:
                    lines.append(f"✔️ {spec.label}: {short(cv.fields[spec.key], 80)}")
            lines.append(f"\n👉 <b>{spec_label(cv.field.label)}</b>: {esc(cv.field.prompt)}")
            lines.append("<b>Reply to this message</b> with your answer.")
            labels = {CardsVerb.BACK: "◀ Back", CardsVerb.RESTART: "↺ Start over"}
            rows.append(
                [button(view, labels[c.verb], c.verb.value) for c in choices if c.verb in labels]
            )
        if cv.editing is None and not cv.fields and cv.revisable:
            if cv.field is not None:
                lines.append("✏️ You can edit a saved card until the table deals the map.")
            for card in cv.revisable:
                number = cv.written.index(card) + 1
                title = card.title if len(card.title) <= 24 else card.title[:23] + "…"
                rows.append([button(view, f"✏️ Edit {number}. {title}", "edit", card.id)])
        now = now_line(choices, lambda p: name_of(view.table, p), _cards_phrase)
        lines.append(now or "👉 Next: the table deals the map in the group chat.")
        rows.append(safety_row(view.campaign.id))
        return "\n".join(lines), keyboard(rows)

    def follow_ups(self, view: PanelView) -> Sequence[FollowUp]:
        board_id = view.typed(CardsPanelState).board
        if board_id and any(isinstance(e, LocationAuthored) for e in view.events):
            return [Refresh(board_id)]
        return []


def _cards_phrase(choice: Choice[CardsVerb]) -> str:
    if choice.verb is CardsVerb.WRITE:
        return f"reply with the {esc(choice.name.lower())}"
    return "go back a field" if choice.verb is CardsVerb.BACK else "start the card over"


def spec_label(label: str) -> str:
    return esc(label)


# -- private: character creation ------------------------------------------------------


def draft_lines(draft: CharacterDraft, cards: Sequence[LocationCard] = ()) -> list[str]:
    def val(text: str | None) -> str:
        return "—" if text is None else esc(text)

    lines = [f"Name: {val(draft.name)}"]
    if draft.pronouns or draft.look:
        lines.append(f"Pronouns: {val(draft.pronouns)} · Look: {short(draft.look or '', 100)}")
    if draft.moods:
        d8, d6, d4 = draft.moods
        lines.append(f"Moods: {esc(d8)} (d8), {esc(d6)} (d6), {esc(d4)} (d4)")
    if draft.aspects:
        a = draft.aspects
        lines.append(f"Aspects: Body {a.body.label}, Mind {a.mind.label}, Heart {a.heart.label}")
    if draft.sentiments:
        lines.append(
            "Sentiments: " + ", ".join("(blank)" if s is None else esc(s) for s in draft.sentiments)
        )
    if draft.skills:
        lines.append("Skills: " + ", ".join(f"{esc(s)} +1" for s in draft.skills))
    for n, rumour in enumerate(draft.rumours):
        about = f" about <b>{esc(cards[n].title)}</b>" if n < len(cards) else ""
        lines.append(f"Rumour{about}: {short(rumour, 120)}")
    return lines


STEP_PROMPTS = {
    CreationStep.NAME: "What is your character called? (You may also skip and name them last.)",
    CreationStep.MOODS: (
        "Three moods your character often acts from, one per line or separated by commas: "
        "the d8 one (careful with the world), the d6, and the d4 (guarding themselves)."
    ),
    CreationStep.ASPECTS: (
        "Put Body, Mind and Heart on the d8, d6 and d4. A bigger aspect die protects you "
        "better, at the world's expense."
    ),
    CreationStep.SENTIMENTS: (
        "Three things your character holds dear — a possession, a belief, a bond — one per "
        "line or separated by commas. Write - to leave a line blank for a bond made later."
    ),
    CreationStep.SKILLS: "Three things your character is good at, separated by commas.",
}


class CharacterRenderer:
    kind = CHARACTER_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        cid = view.campaign.id
        if view.closed:
            character = character_of(view.table.seat(view.typed(CharacterPanelState).owner))
            who = esc(character.name) if character else "Your character"
            text = f"🧍 <b>{who}</b> is ready. See the whole sheet with /sheet."
            text += "\n👉 Next: play on in the group chat."
            return text, keyboard([safety_row(cid)])
        cv = creation_view(view.table, view.typed(CharacterPanelState))
        choices = creation_choices(cv)
        lines = ["🧍 <b>Your character</b>", *draft_lines(cv.draft, cv.cards), ""]
        rows: list[list[InlineKeyboardButton]] = []
        index = STEPS.index(cv.step) if cv.step is not None else len(STEPS)
        if cv.step is None:
            if cv.missing:
                missing = ", ".join(STEP_TITLES[s] for s in cv.missing)
                lines.append(f"Still missing: {missing}.")
            else:
                lines.append("✅ All set. Tap Finish to make it your sheet.")
        else:
            lines.append(f"👉 <b>Step {index + 1} of {len(STEPS)}: {STEP_TITLES[cv.step]}</b>")
            lines.append(self._prompt(cv.step, cv))
            if cv.step is CreationStep.ASPECTS:
                rows += [
                    [
                        button(
                            view,
                            f"Body {b.label} · Mind {m.label} · Heart {h.label}",
                            "aspects",
                            str(i),
                        )
                    ]
                    for i, (b, m, h) in enumerate(ASPECT_CHOICES)
                ]
            elif cv.step is not CreationStep.RUMOURS or cv.rumour_for is not None:
                lines.append("<b>Reply to this message</b> with your answer.")
        nav_labels = {
            CreationVerb.BACK: "◀ Back",
            CreationVerb.SKIP: "Skip ▶",
            CreationVerb.FINISH: "✅ Finish",
        }
        nav = [
            button(view, nav_labels[c.verb], c.verb.value, c.argument)
            for c in choices
            if c.verb in nav_labels
        ]
        rows += [nav[i : i + 2] for i in range(0, len(nav), 2)]
        lines.append(now_line(choices, lambda p: name_of(view.table, p), _creation_phrase))
        rows.append(safety_row(cid))
        return "\n".join(lines), keyboard(rows)

    def follow_ups(self, view: PanelView) -> Sequence[FollowUp]:
        board_id = view.typed(CharacterPanelState).board
        if board_id and any(isinstance(e, CharacterFinished) for e in view.events):
            return [Refresh(board_id)]
        return []

    @staticmethod
    def _prompt(step: CreationStep, cv: CreationView) -> str:
        if step is CreationStep.PRONOUNS_AND_LOOK:
            if cv.waiting_pronouns:
                return "And how do they look? What do they wear?"
            return "Their pronouns first (then you'll describe their look)."
        if step is CreationStep.RUMOURS:
            card = cv.rumour_for
            if card is None:
                if not cv.cards:
                    return "Rumours are about the two locations you write; come back after that."
                return "You have a rumour for each of your locations."
            return (
                f"What has your character heard about <b>{esc(card.title)}</b> (your own card)? "
                "They don't know where it is, but would know it on sight."
            )
        return STEP_PROMPTS[step]


_CREATION_PHRASES = {
    CreationVerb.ASPECTS: "pick how Body, Mind and Heart share the dice",
    CreationVerb.BACK: "go back a step",
    CreationVerb.SKIP: "skip this step",
    CreationVerb.FINISH: "finish the character",
}


def _creation_phrase(choice: Choice[CreationVerb]) -> str:
    if choice.verb is CreationVerb.ANSWER:
        step = CreationStep(choice.name)
        special = {CreationStep.NAME: "their name", CreationStep.RUMOURS: "a rumour"}
        return f"reply with {special.get(step, STEP_TITLES[step].lower())}"
    return _CREATION_PHRASES[choice.verb]


# -- the adventure --------------------------------------------------------------------------


def place_text(card: CardView) -> str:
    if not card.face_visible or card.title is None:
        return f"{card.id} (face down, {back_text(card)})"
    return f"{esc(card.title)} ({back_text(card)})"


class AdventureRenderer:
    kind = ADVENTURE_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        table = view.table
        sc = scene(table, view.typed(AdventurePanelState))
        cid = view.campaign.id
        lines = ["🧭 <b>Adventure</b>"]
        if sc.here is None:
            lines.append("📍 At home, in the settlement.")
        else:
            here = sc.here
            lines.append(f"📍 <b>{esc(here.title or here.id)}</b> · {back_text(here)}")
            if here.description:
                lines.append(f"<i>{esc(here.description)}</i>")
            if here.collateral_target is not None and here.clock_ticks is not None:
                lines.append(
                    f"🕰 Collateral: {esc(here.collateral_target)} — {clock_text(here.clock_ticks)}"
                )
        if sc.groups:
            on_screen = ", ".join(_in_play(table, p, True) for p in sorted(sc.on_screen))
            lines.append(f"🎬 On screen: {on_screen}")
            lines.append(f"⚖️ Arbiters: {names(table, sorted(sc.arbiters))}")
        else:
            together = ", ".join(_in_play(table, p, True) for p in sc.players)
            lines.append(f"👥 Together: {together} — the others arbitrate each roll.")
        if sc.phase is Phase.DOWNTIME:
            lines.append("🏕 Downtime.")
        elif sc.picking is None and not sc.without_character:
            lines.append(
                "🎲 Something risky? <code>/act what you want to happen</code> · "
                "🌙 Rest: <code>/downtime home</code> (or <code>camp</code>)"
            )
        if sc.without_character:
            lines.append(f"🧍 Still making a character: {names(table, sc.without_character)}")
        choices = adventure_choices(sc)
        of = {verb: [c for c in choices if c.verb is verb] for verb in AdventureVerb}

        def make(choice: Choice[AdventureVerb], label: str) -> InlineKeyboardButton:
            return button(view, label[:60], choice.verb.value, choice.argument)

        rows: list[list[InlineKeyboardButton]] = []
        if sc.picking is not None:
            lines.append(
                "✂️ Tap who goes in the first group, then Split. "
                "First group: "
                + (", ".join(_in_play(table, p) for p in sorted(sc.picking)) or "nobody")
            )
            rows += [
                [make(c, ("✅ " if c.selected else "▫️ ") + _plain_seat(table, sc.players[i]))]
                for i, c in enumerate(of[AdventureVerb.PICK])
            ]
        elif of[AdventureVerb.GO]:
            lines.append("🗺 Where next? Face-down places show their Danger (D) and Reward (R).")
        cards = {c.id: c for c in sc.reachable}
        rows += [
            [make(c, short_name(f"➡️ {place_plain(cards[c.name])}", ONE_ROW))]
            for c in of[AdventureVerb.GO]
        ]
        rows += [
            [make(c, "◀️ Back" if c.argument else "➡️ Travel")] for c in of[AdventureVerb.TRAVEL]
        ]
        labels = {
            AdventureVerb.SPLIT: "✂️ Split",
            AdventureVerb.CANCEL: "✖ Cancel",
            AdventureVerb.HOME: "🏠 Home",
            AdventureVerb.SWITCH: "🔁 Switch focus",
            AdventureVerb.REGROUP: "🤝 Regroup",
            AdventureVerb.TICK: "🕰 +1 tick",
            AdventureVerb.UNTICK: "🕰 −1 tick",
        }
        for group in (
            (AdventureVerb.SPLIT, AdventureVerb.CANCEL),
            (AdventureVerb.HOME, AdventureVerb.SWITCH, AdventureVerb.REGROUP),
            (AdventureVerb.TICK, AdventureVerb.UNTICK),
        ):
            row = [make(c, labels[c.verb]) for verb in group for c in of[verb]]
            if group[0] is AdventureVerb.HOME and sc.picking is None:
                row += [make(c, "✂️ Split up") for c in of[AdventureVerb.PICK]]
            rows += phone_rows(row)
        now = now_line(choices, lambda p: _in_play(table, p, True), _adventure_phrase)
        if now:
            lines.append(now)
        if not sc.travelling:
            rows += phone_rows(
                [general("🗺 Map", MapButton(cid))]
                + (
                    [general("🧍 My character", CharacterButton(cid, view.id))]
                    if sc.without_character
                    else []
                )
            )
        rows.append(safety_row(cid))
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
                notes.append(
                    Note(
                        event.author_id,
                        card_face(
                            card,
                            "🖌 <b>Your location was flipped.</b> Paint the picture for the "
                            "table: what it looks like, what is at stake, and the reward to "
                            "be found. Let Danger and Reward set the intensity.",
                        ),
                    )
                )
            elif isinstance(event, SceneBriefing):
                card = world.card(event.card_id)
                for arbiter in sorted(event.arbiters):
                    if (card.id, arbiter) in painted:
                        continue
                    notes.append(
                        Note(
                            arbiter,
                            card_face(
                                card,
                                "⚖️ <b>You arbitrate this scene.</b> "
                                "The whole card, for the Arbiters only:",
                            ),
                        )
                    )
        return notes


_ADVENTURE_PHRASES = {
    AdventureVerb.GO: "pick where to go",
    AdventureVerb.HOME: "head home",
    AdventureVerb.PICK: "split up",
    AdventureVerb.SPLIT: "split",
    AdventureVerb.CANCEL: "stay together",
    AdventureVerb.SWITCH: "switch focus",
    AdventureVerb.REGROUP: "regroup",
    AdventureVerb.TICK: "tick the clock",
    AdventureVerb.UNTICK: "untick the clock",
}


def _adventure_phrase(choice: Choice[AdventureVerb]) -> str:
    if choice.verb is AdventureVerb.PICK and choice.argument:
        return "pick who goes in the first group"
    if choice.verb is AdventureVerb.TRAVEL:
        return "go back" if choice.argument else "travel somewhere"
    return _ADVENTURE_PHRASES[choice.verb]


def _plain_seat(table: Table, player: int) -> str:
    """A button's plain label for a player: their character, as in play."""
    seat = table.seats.get(player)
    if seat is None:
        return str(player)
    character = character_of(seat)
    return in_play(None if character is None else character.name, seat.name)


def _in_play(table: Table, player: int, introduce: bool = False) -> str:
    """A player by the name in play: their character's, or theirs until they make one.

    ``introduce`` adds the player's own name, "Birch (Alice)" (core.rules.names).
    """
    seat = table.seat(player)
    if seat is None:
        return "someone who left"
    character = character_of(seat)
    return esc(
        in_play(None if character is None else character.name, seat.name, introduce=introduce)
    )


def place_plain(card: CardView) -> str:
    if card.face_visible and card.title is not None:
        return f"{card.title} · {back_text(card)}"
    return f"{card.id} · {back_text(card)}"


# -- private: lines and veils --------------------------------------------------------------


class SafetyRenderer:
    kind = SAFETY_PANEL

    def render(self, view: PanelView, lang: Lang) -> tuple[str, InlineKeyboardMarkup | None]:
        safety = campaign_of(view.table).safety
        kind = view.typed(SafetyPanelState).kind
        lines = [
            "🚧 <b>Lines and veils</b> — anonymous: the group sees the topic, never who wrote it.",
            "Lines: " + ("; ".join(esc(x) for x in safety.lines) or "none yet"),
            "Veils: " + ("; ".join(esc(x) for x in safety.veils) or "none yet"),
            "",
            "A <b>line</b> never comes up in the story; a <b>veil</b> may happen, off screen.",
            f"<b>Reply to this message</b> with a topic to add it as a <b>{kind.value}</b>.",
        ]
        rows = [
            [
                button(view, ("✅ " if kind is SafetyKind.LINE else "") + "Line", "kind", "line"),
                button(view, ("✅ " if kind is SafetyKind.VEIL else "") + "Veil", "kind", "veil"),
            ],
            safety_row(view.campaign.id),
        ]
        choices = safety_choices(view.typed(SafetyPanelState))
        lines.append(now_line(choices, lambda p: name_of(view.table, p), _safety_phrase))
        return "\n".join(lines), keyboard(rows)

    def follow_ups(self, view: PanelView) -> Sequence[FollowUp]:
        notes: list[FollowUp] = []
        for event in view.events:
            if isinstance(event, SafetyEntryAdded):
                what = "line" if event.kind is SafetyKind.LINE else "veil"
                notes.append(
                    Note(
                        view.campaign.chat_tg_id,
                        f"🚧 A new {what} for this table: <b>{esc(event.text)}</b>",
                    )
                )
        return notes


def _safety_phrase(choice: Choice[SafetyVerb]) -> str:
    if choice.verb is SafetyVerb.ADD:
        return f"reply with a topic to add as a {choice.name}"
    return f"switch to adding {choice.name}s"


RENDERERS = [
    SetupRenderer(),
    CardsRenderer(),
    CharacterRenderer(),
    AdventureRenderer(),
    SafetyRenderer(),
]
