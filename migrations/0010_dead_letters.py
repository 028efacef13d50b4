from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0009_lock_fence')]

    initial = False

    operations = [
        ops.CreateModel(
            name='DeadLetter',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('update_id', fields.BigIntField(null=True)),
                ('reason', fields.CharField(max_length=300)),
                ('body', fields.TextField(unique=False)),
                ('received_at', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'dead_letter', 'app': 'models', 'pk_attr': 'id', 'table_description': 'An update the bot can never use (unreadable, or its handling failed unexpectedly).'},
            bases=['Model'],
        ),
    ]
