from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from core.store.models import CampaignStatus
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0001_initial')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Campaign',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('chat', fields.ForeignKeyField('models.Chat', source_field='chat_id', db_constraint=True, to_field='id', related_name='campaigns', on_delete=OnDelete.CASCADE)),
                ('live_chat_id', fields.BigIntField(null=True, unique=True)),
                ('system', fields.CharField(max_length=32)),
                ('status', fields.CharEnumField(default=CampaignStatus.ACTIVE, description='ACTIVE: active\nPAUSED: paused\nARCHIVED: archived', enum_type=CampaignStatus, max_length=16)),
                ('host', fields.ForeignKeyField('models.Player', source_field='host_id', db_constraint=True, to_field='id', related_name='hosted', on_delete=OnDelete.CASCADE)),
                ('app_token', fields.CharField(unique=True, max_length=32)),
                ('state', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('version', fields.IntField(default=0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'campaign', 'app': 'models', 'pk_attr': 'id', 'table_description': 'One game played in one chat. At most one per chat is live (active or paused).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Member',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.ForeignKeyField('models.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='members', on_delete=OnDelete.CASCADE)),
                ('player', fields.ForeignKeyField('models.Player', source_field='player_id', db_constraint=True, to_field='id', related_name='memberships', on_delete=OnDelete.CASCADE)),
                ('roles', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('sheet', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('active', fields.BooleanField(default=True)),
                ('joined_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'member', 'app': 'models', 'unique_together': (('campaign', 'player'),), 'pk_attr': 'id', 'table_description': 'A player in a campaign, with their roles and sheet.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Panel',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.ForeignKeyField('models.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='panels', on_delete=OnDelete.CASCADE)),
                ('kind', fields.CharField(max_length=32)),
                ('state', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('version', fields.IntField(default=0)),
                ('closed', fields.BooleanField(default=False)),
                ('chat_tg_id', fields.BigIntField()),
                ('message_id', fields.BigIntField(null=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'panel', 'app': 'models', 'pk_attr': 'id', 'table_description': 'One running procedure shown as one message edited in place.'},
            bases=['Model'],
        ),
    ]
