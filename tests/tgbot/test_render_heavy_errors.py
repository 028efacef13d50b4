"""What a player reads when a heavy request is refused: one at a time, or too heavy, in
English and in Russian (the errors come from core.runtime.heavy)."""

from __future__ import annotations

from core.runtime.errors import OneAtATime, TooHeavy
from core.words.i18n import lang_for
from tgbot.render.errors import user_message

EN, RU = lang_for("en"), lang_for("ru")


def test_one_at_a_time_in_both_languages() -> None:
    assert user_message(OneAtATime(), EN) == (
        "⏳ One at a time, please: I'm still working out your last request. "
        "Send this one again once that one is answered."
    )
    assert user_message(OneAtATime(), RU) == (
        "⏳ По одному, пожалуйста: я ещё считаю ваш прошлый запрос. "
        "Отправьте этот снова, когда придёт ответ на тот."
    )


def test_too_heavy_names_the_limit_in_both_languages() -> None:
    assert user_message(TooHeavy(seconds=10), EN) == (
        "🤔 That was too heavy to work out: I stopped after 10 seconds. "
        "Try fewer dice or fewer sides."
    )
    assert user_message(TooHeavy(seconds=4), RU) == (
        "🤔 Это слишком тяжело посчитать: я остановился через 4 с. "
        "Возьмите меньше костей или меньше граней."
    )
