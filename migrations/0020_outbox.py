from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0019_undo_revealed')]

    initial = False

    operations = [
        ops.CreateModel(
            name='OutboxRow',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('update_id', fields.BigIntField(null=True, db_index=True)),
                ('kind', fields.CharField(max_length=16)),
                ('target', fields.CharField(default='', db_index=True, max_length=48)),
                ('payload', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('claimed_until', fields.FloatField(default=0.0)),
                ('claimed_by', fields.CharField(default='', max_length=32)),
                ('sent', fields.BooleanField(default=False, db_index=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'outbox', 'app': 'models', 'pk_attr': 'id', 'table_description': 'One thing a committed change sends to Telegram (a message, an edit, a private note).'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='DeadLetter',
            name='replayed_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
