"""Django's ModelBackend, reading the signed-in user of each request by a
prepared statement (core.prepared, #18): the same user, the same checks."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.core.exceptions import ValidationError

from core.prepared import row_by_pk


class ModelBackend(DjangoModelBackend):
    def get_user(self, user_id):
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        user = row_by_pk(model, pk)
        return user if user is not None and self.user_can_authenticate(user) else None
