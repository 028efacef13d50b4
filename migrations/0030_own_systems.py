from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0029_player_seen')]

    initial = False

    operations = [
        ops.CreateModel(
            name='OwnSystem',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('chat_tg_id', fields.BigIntField(db_index=True)),
                ('key', fields.CharField(max_length=32)),
                ('name_en', fields.CharField(max_length=60)),
                ('name_ru', fields.CharField(max_length=60)),
                ('version', fields.IntField(default=1)),
                ('share_token', fields.CharField(null=True, unique=True, max_length=32)),
                ('created_by_tg_id', fields.BigIntField()),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_by_tg_id', fields.BigIntField()),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'own_system', 'app': 'models', 'unique_together': (('chat_tg_id', 'key'),), 'pk_attr': 'id', 'table_description': 'A game system a group wrote for itself (core/campaigns/own_systems.py): its key and'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='OwnSystemVersion',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('system', fields.ForeignKeyField('models.OwnSystem', source_field='system_id', db_constraint=True, to_field='id', related_name='versions', on_delete=OnDelete.CASCADE)),
                ('version', fields.IntField()),
                ('text', fields.TextField(unique=False)),
                ('saved_by_tg_id', fields.BigIntField()),
                ('saved_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'own_system_version', 'app': 'models', 'unique_together': (('system', 'version'),), 'pk_attr': 'id', 'table_description': "One saved text of a group's own system: every version is kept, so a roll or a"},
            bases=['Model'],
        ),
    ]
