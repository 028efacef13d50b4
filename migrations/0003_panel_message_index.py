from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0002_campaigns')]

    initial = False

    operations = [
        ops.AddIndex(
            model_name='Panel',
            index=Index(fields=['chat_tg_id', 'message_id']),
        ),
    ]
