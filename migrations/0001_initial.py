from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from core.store.models import ChatKind
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name='Chat',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tg_id', fields.BigIntField(unique=True)),
                ('kind', fields.CharEnumField(description='PRIVATE: private\nGROUP: group\nSUPERGROUP: supergroup\nCHANNEL: channel', enum_type=ChatKind, max_length=16)),
                ('title', fields.CharField(default='', max_length=255)),
                ('app_token', fields.CharField(unique=True, max_length=32)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'chat', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A Telegram chat the bot has been used in.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Player',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tg_id', fields.BigIntField(unique=True)),
                ('first_name', fields.CharField(default='', max_length=128)),
                ('last_name', fields.CharField(default='', max_length=128)),
                ('username', fields.CharField(default='', max_length=64)),
                ('started_private', fields.BooleanField(default=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'player', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A Telegram user who has used the bot.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='RollRecord',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('chat', fields.ForeignKeyField('models.Chat', source_field='chat_id', db_constraint=True, to_field='id', related_name='rolls', on_delete=OnDelete.CASCADE)),
                ('player', fields.ForeignKeyField('models.Player', source_field='player_id', db_constraint=True, to_field='id', related_name='rolls', on_delete=OnDelete.CASCADE)),
                ('notation', fields.CharField(max_length=300)),
                ('label', fields.CharField(default='', max_length=160)),
                ('total', fields.BigIntField()),
                ('faces', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'roll_record', 'app': 'models', 'indexes': [Index(fields=['player_id', 'created_at']), Index(fields=['chat_id', 'created_at'])], 'pk_attr': 'id', 'table_description': 'One dice roll made with /roll, kept for the log.'},
            bases=['Model'],
        ),
    ]
