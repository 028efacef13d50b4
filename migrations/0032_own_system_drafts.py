from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0031_character_portraits')]

    initial = False

    operations = [
        ops.CreateModel(
            name='OwnSystemDraft',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('chat_tg_id', fields.BigIntField()),
                ('author_tg_id', fields.BigIntField()),
                ('step', fields.CharField(max_length=16)),
                ('answers', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('asked_message_id', fields.BigIntField(null=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'own_system_draft', 'app': 'models', 'unique_together': (('chat_tg_id', 'author_tg_id'),), 'pk_attr': 'id', 'table_description': 'A game system a host is writing step by step by reply (/system new alone): the'},
            bases=['Model'],
        ),
    ]
