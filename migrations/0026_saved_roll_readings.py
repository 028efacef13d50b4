from typing import Any

from tortoise import fields, migrations
from tortoise.migrations import operations as ops

from core.rules.dice import counts_rewritten, reading_changes


async def reread(apps: Any, schema_editor: Any) -> None:
    """Saved rolls whose text the notation now reads otherwise: ``cs``/``cf`` counts are
    rewritten to today's equivalent (``6d6cs6`` to ``6d6=6``); those rewritten, and those
    whose meaning changed, keep their old text in ``was_text`` so their owner sees the old
    and the new reading once. The roll history's notation is rewritten alike."""
    client = schema_editor.client
    mark = "?" if client.capabilities.dialect == "sqlite" else "$"
    _, rows = await client.execute_query("SELECT id, text FROM saved_roll")
    for row in rows:
        old = str(row["text"])
        new = counts_rewritten(old)
        if new == old and not reading_changes(old):
            continue
        if mark == "?":
            sql = "UPDATE saved_roll SET text = ?, was_text = ? WHERE id = ?"
        else:
            sql = "UPDATE saved_roll SET text = $1, was_text = $2 WHERE id = $3"
        await client.execute_query(sql, [new, old, row["id"]])
    # the history's canonical notation wrote a failure count "cf": now "f" (the same count)
    for table in ("roll_record", "inline_roll"):
        _, rows = await client.execute_query(
            f"SELECT id, notation FROM {table} WHERE notation LIKE '%cf%'"
        )
        for row in rows:
            new = counts_rewritten(str(row["notation"]))
            if mark == "?":
                sql = f"UPDATE {table} SET notation = ? WHERE id = ?"
            else:
                sql = f"UPDATE {table} SET notation = $1 WHERE id = $2"
            await client.execute_query(sql, [new, row["id"]])


class Migration(migrations.Migration):
    dependencies = [("models", "0025_roll_notation_text")]

    initial = False

    operations = [
        ops.AddField(
            model_name="SavedRoll",
            name="was_text",
            field=fields.CharField(default="", db_default="", max_length=1000),
        ),
        ops.RunPython(reread, ops.RunPython.noop),
    ]
