from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0011_undo_steps')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Campaign',
            name='language',
            field=fields.CharField(default='en', db_default='en', max_length=8),
        ),
    ]
