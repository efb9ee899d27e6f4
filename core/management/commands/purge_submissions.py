from django.core.management.base import BaseCommand

from core.once import TOKEN_LIFETIME, purge_used_tokens


class Command(BaseCommand):
    help = (
        "Remove the records of one-time form tokens used more than a day ago (core.once): a page that old "
        "is refused anyway, so the record protects nothing. Run daily (docs/deploy.md); safe at any time."
    )

    def handle(self, *args, **options):
        removed = purge_used_tokens()
        hours = int(TOKEN_LIFETIME.total_seconds() // 3600)
        self.stdout.write(self.style.SUCCESS(f"{removed} used form token(s) older than {hours} hours removed."))
