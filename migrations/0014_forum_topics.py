from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.migrations.constraints import UniqueConstraint

class Migration(migrations.Migration):
    dependencies = [('models', '0013_panel_procedure')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ForumTopic',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('chat_tg_id', fields.BigIntField()),
                ('thread_id', fields.BigIntField()),
                ('name', fields.CharField(max_length=128)),
                ('closed', fields.BooleanField(default=False)),
                ('refused', fields.BooleanField(default=False)),
                ('paused_game', fields.BooleanField(default=False)),
            ],
            options={'table': 'forum_topic', 'app': 'models', 'unique_together': (('chat_tg_id', 'thread_id'),), 'pk_attr': 'id', 'table_description': "A forum topic's name, as its service messages tell it (created, edited)."},
            bases=['Model'],
        ),
        ops.AlterModelOptions(
            name='Campaign',
            options={'table': 'campaign', 'app': 'models', 'unique_together': (('live_chat_id', 'topic_id'),), 'pk_attr': 'id', 'table_description': 'One game played in one topic of one chat. At most one per topic is live.'},
        ),
        ops.AlterField(
            model_name='Campaign',
            name='live_chat_id',
            field=fields.BigIntField(null=True),
        ),
        ops.AddField(
            model_name='Campaign',
            name='topic_id',
            field=fields.BigIntField(default=0, db_default=0),
        ),
        ops.AddConstraint(
            model_name='Campaign',
            constraint=UniqueConstraint(fields=('live_chat_id', 'topic_id'), name=None),
        ),
    ]
