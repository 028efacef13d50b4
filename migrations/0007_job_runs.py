from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0006_pending_notes')]

    initial = False

    operations = [
        ops.CreateModel(
            name='JobRun',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('name', fields.CharField(unique=True, max_length=64)),
                ('ran_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'job_run', 'app': 'models', 'pk_attr': 'id', 'table_description': 'When a periodic job last ran anywhere, so several workers run it once between them.'},
            bases=['Model'],
        ),
    ]
