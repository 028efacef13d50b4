"""The Russian catalogue never guesses a person's gender with «(а)»: a sentence about a
player or a character is worded neutrally, or agrees with the character's pronouns."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

PO = Path(__file__).resolve().parents[3] / "locale" / "ru" / "LC_MESSAGES" / "messages.po"


def test_no_russian_message_hedges_a_gender() -> None:
    with PO.open("rb") as f:
        catalogue = read_po(f)
    hedged = []
    for message in catalogue:
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            if re.search(r"\w\((?:а|ла|на|ось|ась)\)", form or ""):
                hedged.append(form)
            if re.search(r"\{\w+\}\s*(?:—|:)?\s*(?:Сломлен|выбит)\b", form or ""):
                hedged.append(form)  # a state as a past participle: «в состоянии «Сломлен»»
    assert hedged == []
