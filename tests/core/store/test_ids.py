"""Every column holding a Telegram id (user, chat, message, update) is 64-bit."""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

from core.store import models

TELEGRAM_ID_NAMES = ("tg_id", "chat_id", "message_id", "update_id")
STRING_IDS = {"inline_message_id"}  # Telegram gives an inline message's id as a string


def test_every_telegram_id_column_is_a_big_integer() -> None:
    found = []
    for model in vars(models).values():
        if not (isinstance(model, type) and issubclass(model, Model) and model is not Model):
            continue
        for name, field in model._meta.fields_map.items():
            if name in STRING_IDS:
                assert isinstance(field, fields.CharField), f"{model.__name__}.{name}"
                continue
            if name.endswith(TELEGRAM_ID_NAMES) and not isinstance(
                field, fields.relational.RelationalField
            ):
                found.append(name)
                assert isinstance(field, fields.BigIntField), f"{model.__name__}.{name}"
    assert {"tg_id", "live_chat_id", "chat_tg_id", "message_id", "update_id"} <= set(found)
