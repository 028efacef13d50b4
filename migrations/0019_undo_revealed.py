from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0018_story_link')]

    initial = False

    operations = [
        ops.AddField(
            model_name='UndoStep',
            name='revealed',
            field=fields.BooleanField(default=False),
        ),
    ]
