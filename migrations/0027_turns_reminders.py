from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0026_saved_roll_readings')]

    initial = False

    operations = [
        ops.CreateModel(
            name='GameNudges',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.OneToOneField('models.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='nudges', on_delete=OnDelete.CASCADE)),
                ('wait_minutes', fields.IntField(null=True)),
                ('since', fields.FloatField(default=0.0)),
                ('muted', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('turn_order', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'game_nudges', 'app': 'models', 'pk_attr': 'id', 'table_description': "A game's reminders and turn order, for games played over days (core/store/reminders.py)."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PlayerQuiet',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('player_tg_id', fields.BigIntField(unique=True)),
                ('start', fields.CharField(max_length=5)),
                ('end', fields.CharField(max_length=5)),
                ('zone', fields.CharField(max_length=64)),
            ],
            options={'table': 'player_quiet', 'app': 'models', 'pk_attr': 'id', 'table_description': "A player's quiet hours, on their own clock: ``zone`` is the name or UTC offset"},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ReminderRow',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.ForeignKeyField('models.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='reminders', on_delete=OnDelete.CASCADE)),
                ('player_tg_id', fields.BigIntField()),
                ('stage', fields.CharField(max_length=8)),
                ('due_at', fields.FloatField(db_index=True)),
                ('claimed_until', fields.FloatField(default=0.0)),
                ('claimed_by', fields.CharField(default='', max_length=32)),
            ],
            options={'table': 'reminder', 'app': 'models', 'unique_together': (('campaign', 'player_tg_id'),), 'pk_attr': 'id', 'table_description': 'The next reminder to one player a game waits on: private, then the group line.'},
            bases=['Model'],
        ),
    ]
