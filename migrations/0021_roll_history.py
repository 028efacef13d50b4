from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0020_outbox')]

    initial = False

    operations = [
        ops.AddField(
            model_name='RollRecord',
            name='campaign_id',
            field=fields.BigIntField(null=True),
        ),
        ops.AddField(
            model_name='RollRecord',
            name='revealed',
            field=fields.BooleanField(default=False, db_default=False),
        ),
        ops.AddField(
            model_name='RollRecord',
            name='seen_by',
            field=fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
        ops.AddField(
            model_name='RollRecord',
            name='topic_id',
            field=fields.BigIntField(default=0, db_default=0),
        ),
        ops.AddIndex(
            model_name='RollRecord',
            index=Index(fields=['chat_id', 'topic_id', 'id']),
        ),
    ]
