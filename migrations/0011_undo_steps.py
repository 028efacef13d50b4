from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0010_dead_letters')]

    initial = False

    operations = [
        ops.CreateModel(
            name='UndoStep',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.ForeignKeyField('models.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='undo_steps', on_delete=OnDelete.CASCADE)),
                ('actor_tg_id', fields.BigIntField()),
                ('label', fields.CharField(max_length=160)),
                ('rolled', fields.BooleanField(default=False)),
                ('final', fields.BooleanField(default=False)),
                ('undone', fields.BooleanField(default=False)),
                ('campaign_state', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('campaign_version_before', fields.IntField()),
                ('campaign_version_after', fields.IntField()),
                ('sheets', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('panel_id', fields.BigIntField(null=True)),
                ('panel_state', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('panel_closed', fields.BooleanField(default=False)),
                ('panel_version_before', fields.IntField(null=True)),
                ('panel_version_after', fields.IntField(null=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'undo_step', 'app': 'models', 'indexes': [Index(fields=['campaign_id', 'id'])], 'pk_attr': 'id', 'table_description': 'One recent step of a campaign, with what it replaced, so its author can take it back.'},
            bases=['Model'],
        ),
    ]
