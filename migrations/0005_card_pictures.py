from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0004_processed_updates')]

    initial = False

    operations = [
        ops.CreateModel(
            name='CardPicture',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.ForeignKeyField('models.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='card_pictures', on_delete=OnDelete.CASCADE)),
                ('key', fields.CharField(max_length=32)),
                ('author_tg_id', fields.BigIntField()),
                ('media_type', fields.CharField(max_length=16)),
                ('data', fields.BinaryField()),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'card_picture', 'app': 'models', 'unique_together': (('campaign', 'key'),), 'pk_attr': 'id', 'table_description': "A location card's picture (PNG or JPEG, checked by its bytes), shown with its face."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='LogEntry',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.ForeignKeyField('models.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='log_entries', on_delete=OnDelete.CASCADE)),
                ('kind', fields.CharField(max_length=16)),
                ('text', fields.CharField(max_length=500)),
                ('player_ids', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'log_entry', 'app': 'models', 'indexes': [Index(fields=['campaign_id', 'id'])], 'pk_attr': 'id', 'table_description': "One line of a campaign's log (a roll, a detail...), in the order it happened."},
            bases=['Model'],
        ),
    ]
