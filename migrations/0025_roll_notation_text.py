from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0024_saved_lists')]

    initial = False

    operations = [
        ops.AlterField(
            model_name='InlineRoll',
            name='notation',
            field=fields.TextField(unique=False),
        ),
        ops.AlterField(
            model_name='RollRecord',
            name='notation',
            field=fields.TextField(unique=False),
        ),
    ]
