from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0028_undo_turn_steps')]

    initial = False

    operations = [
        ops.CreateModel(
            name='PlayerSeen',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.ForeignKeyField('models.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='seen', on_delete=OnDelete.CASCADE)),
                ('player_tg_id', fields.BigIntField()),
                ('at', fields.FloatField()),
                ('log_id', fields.BigIntField(default=0)),
            ],
            options={'table': 'player_seen', 'app': 'models', 'unique_together': (('campaign', 'player_tg_id'),), 'pk_attr': 'id', 'table_description': 'When a player last acted in a game, by a command or a press, and the newest log'},
            bases=['Model'],
        ),
    ]
