from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0008_campaign_ended_at')]

    initial = False

    operations = [
        ops.CreateModel(
            name='LockFence',
            fields=[
                ('lock_key', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=64)),
                ('token', fields.BigIntField()),
            ],
            options={'table': 'lock_fence', 'app': 'models', 'pk_attr': 'lock_key', 'table_description': 'The largest fencing token that committed a change under a lock key.'},
            bases=['Model'],
        ),
    ]
