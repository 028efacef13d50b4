from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0023_saved_rolls')]

    initial = False

    operations = [
        ops.CreateModel(
            name='SavedList',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('chat_tg_id', fields.BigIntField()),
                ('message_id', fields.BigIntField()),
                ('owner_tg_id', fields.BigIntField()),
                ('topic_id', fields.BigIntField(default=0, db_default=0)),
                ('in_group', fields.BooleanField(default=False, db_default=False)),
                ('language', fields.CharField(default='en', db_default='en', max_length=8)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'saved_list', 'app': 'models', 'unique_together': (('chat_tg_id', 'message_id'),), 'indexes': [Index(fields=['owner_tg_id']), Index(fields=['chat_tg_id', 'topic_id'])], 'pk_attr': 'id', 'table_description': 'A ``/saved`` list on screen (core/campaigns/saved_rolls.py): the message showing a'},
            bases=['Model'],
        ),
    ]
