from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0014_forum_topics')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Player',
            name='language',
            field=fields.CharField(default='en', db_default='en', max_length=8),
        ),
    ]
