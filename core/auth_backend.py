"""Django's ModelBackend, reading the signed-in user of each request by a
prepared statement (core.prepared, #18): the same user, the same checks.
The same statement reads the names of the user's groups, which hold their
roles (core.roles), and their confirmed authenticators (core.twofactor): the
role check every staff page makes, and the check of the device the session
was verified with, then need no statement of their own."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.core.exceptions import ValidationError

from core.prepared import row_by_pk
from core.roles import GROUP_NAMES_OF, GROUPS_READ_WITH_USER
from core.twofactor import DEVICES_READ_WITH_USER, devices_read_with_user_sql

# The user's group names, in the user's own statement (auth_user is the table read).
GROUP_NAMES = f"ARRAY({GROUP_NAMES_OF.format(user='auth_user.id')})"


class ModelBackend(DjangoModelBackend):
    def get_user(self, user_id):
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        user = row_by_pk(
            model, pk, also={GROUPS_READ_WITH_USER: GROUP_NAMES, DEVICES_READ_WITH_USER: devices_read_with_user_sql()}
        )
        return user if user is not None and self.user_can_authenticate(user) else None
