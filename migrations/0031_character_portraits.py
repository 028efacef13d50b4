from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0030_own_systems')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Portrait',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.ForeignKeyField('models.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='portraits', on_delete=OnDelete.CASCADE)),
                ('player_tg_id', fields.BigIntField()),
                ('media_type', fields.CharField(max_length=16)),
                ('data', fields.BinaryField()),
                ('digest', fields.CharField(max_length=32)),
                ('file_id', fields.CharField(null=True, max_length=256)),
                ('set_by_tg_id', fields.BigIntField()),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'portrait', 'app': 'models', 'unique_together': (('campaign', 'player_tg_id'),), 'pk_attr': 'id', 'table_description': "A character's portrait in one game (PNG or JPEG, checked by its bytes), shown on"},
            bases=['Model'],
        ),
    ]
