"""How an operator adds a person: `manage.py add_user USERNAME --organisation
NAME --role ROLE`. The password is typed at a prompt (never on the command
line), or read from standard input when it is not a terminal. Adding a role to
someone who already has an account asks no password and changes none."""

import getpass
import sys

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from core.errors import DomainError
from core.roles import ALL_ROLES
from licensing.models import Organisation
from licensing.services import membership_add

# On the command line a role is one word: `draw_staff` for "draw staff".
ROLE_ARGUMENTS = {role.replace(" ", "_"): role for role in ALL_ROLES}


class Command(BaseCommand):
    help = "Add a person (or a role to an existing person) in one organisation, with one of the five roles."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--organisation", required=True, help="The organisation's name, as recorded.")
        parser.add_argument("--role", required=True, choices=sorted(ROLE_ARGUMENTS))
        parser.add_argument("--email", default="")

    def handle(self, *args, username, organisation, role, email, **options):
        organisation_row = Organisation.objects.filter(name=organisation).first()
        if organisation_row is None:
            known = ", ".join(Organisation.objects.order_by("name").values_list("name", flat=True)) or "none yet"
            raise CommandError(f"No organisation is named {organisation!r} (recorded: {known}).")
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        password = None if user is not None else self._password(User(username=username, email=email))
        try:
            with transaction.atomic():
                if user is None:
                    user = User.objects.create_user(username=username, email=email, password=password)
                membership_add(actor=None, user=user, organisation=organisation_row, role=ROLE_ARGUMENTS[role])
        except DomainError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            self.style.SUCCESS(f"{username} works for {organisation_row.name} as {ROLE_ARGUMENTS[role]}.")
        )

    def _password(self, user) -> str:
        if sys.stdin.isatty():
            password = getpass.getpass("Password: ")
            if password != getpass.getpass("Password (again): "):
                raise CommandError("The two passwords differ; nothing was added.")
        else:
            password = sys.stdin.readline().rstrip("\n")
        if not password:
            raise CommandError("A password is needed (typed at the prompt, or one line on standard input).")
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        return password
