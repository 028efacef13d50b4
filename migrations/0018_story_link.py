from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0017_request_keys')]

    initial = False

    operations = [
        ops.CreateModel(
            name='StoryLink',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('campaign', fields.ForeignKeyField('models.Campaign', source_field='campaign_id', db_constraint=True, to_field='id', related_name='story_links', on_delete=OnDelete.CASCADE)),
                ('secret', fields.CharField(unique=True, max_length=64)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('withdrawn_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'story_link', 'app': 'models', 'pk_attr': 'id', 'table_description': "A campaign's story published behind a secret link (core/views/story.py): read-only, for"},
            bases=['Model'],
        ),
    ]
