from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0003_panel_message_index')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ProcessedUpdate',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('update_id', fields.BigIntField(unique=True)),
                ('created_at', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'processed_update', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A Telegram update whose changes were committed, so a redelivery changes nothing.'},
            bases=['Model'],
        ),
    ]
