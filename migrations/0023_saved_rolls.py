from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0022_inline_roll')]

    initial = False

    operations = [
        ops.CreateModel(
            name='SavedRoll',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('owner_tg_id', fields.BigIntField(null=True)),
                ('table_chat_tg_id', fields.BigIntField(null=True)),
                ('topic_id', fields.BigIntField(default=0, db_default=0)),
                ('name', fields.CharField(max_length=32)),
                ('name_key', fields.CharField(max_length=32)),
                ('text', fields.CharField(max_length=1000)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'saved_roll', 'app': 'models', 'unique_together': (('owner_tg_id', 'name_key'), ('table_chat_tg_id', 'topic_id', 'name_key')), 'pk_attr': 'id', 'table_description': 'A roll a player saved under a name (core/campaigns/saved_rolls.py): their own, everywhere'},
            bases=['Model'],
        ),
    ]
