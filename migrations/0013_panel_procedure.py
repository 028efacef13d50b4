from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0012_campaign_language')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Panel',
            name='procedure',
            field=fields.CharField(null=True, max_length=64),
        ),
    ]
