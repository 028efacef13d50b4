from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0021_roll_history')]

    initial = False

    operations = [
        ops.CreateModel(
            name='InlineRoll',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('inline_message_id', fields.CharField(unique=True, max_length=255)),
                ('player', fields.ForeignKeyField('models.Player', source_field='player_id', db_constraint=True, to_field='id', related_name='inline_rolls', on_delete=OnDelete.CASCADE)),
                ('notation', fields.CharField(max_length=300)),
                ('label', fields.CharField(default='', max_length=160)),
                ('total', fields.BigIntField()),
                ('faces', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('text', fields.TextField(unique=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'inline_roll', 'app': 'models', 'indexes': [Index(fields=['player_id', 'created_at'])], 'pk_attr': 'id', 'table_description': 'A roll made from an inline query (``@bot 2d6+3`` in any chat), once, when the'},
            bases=['Model'],
        ),
    ]
