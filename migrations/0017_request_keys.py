from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0016_log_words')]

    initial = False

    operations = [
        ops.CreateModel(
            name='RequestKey',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user_tg_id', fields.BigIntField()),
                ('idem_key', fields.CharField(max_length=100)),
                ('fingerprint', fields.CharField(max_length=64)),
                ('status', fields.IntField(null=True)),
                ('response', fields.TextField(null=True, unique=False)),
                ('created_at', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'request_key', 'app': 'models', 'unique_together': (('user_tg_id', 'idem_key'),), 'pk_attr': 'id', 'table_description': "A Mini App change's idempotency key (``Idempotency-Key``), written in the change's"},
            bases=['Model'],
        ),
    ]
