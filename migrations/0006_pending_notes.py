from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0005_card_pictures')]

    initial = False

    operations = [
        ops.CreateModel(
            name='PendingNote',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('player_tg_id', fields.BigIntField(db_index=True)),
                ('text', fields.TextField(unique=False)),
                ('markup', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'pending_note', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A private message the bot could not deliver yet (the player never started it or'},
            bases=['Model'],
        ),
    ]
