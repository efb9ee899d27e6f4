"""`core.prepared.instance_from_row` (#18): a model instance built from a row
without `Model.__init__` is the instance the ORM builds, and a model whose
instances something else would change at init is built by the ORM."""

import pytest
from django.contrib.auth import get_user_model
from django.db.models import signals

from core.prepared import instance_from_row, row_by_pk
from raffle.models import Draw
from tests.factories import event_with_draw


def row_of(obj) -> tuple[list[str], list]:
    names = [field.attname for field in type(obj)._meta.concrete_fields]
    return names, [getattr(obj, name) for name in names]


@pytest.mark.django_db
def test_an_instance_from_a_row_is_the_orms_instance(staff_user):
    draw = event_with_draw(actor=staff_user).draws.get(number=1)
    ours = instance_from_row(Draw, *row_of(draw))
    orms = Draw.objects.get(pk=draw.pk)
    assert {k: v for k, v in vars(ours).items() if k != "_state"} == {
        k: v for k, v in vars(orms).items() if k != "_state"
    }
    assert ours == orms and not ours._state.adding and ours._state.db == "default"
    assert ours.event == draw.event  # its relations read as the ORM's do
    ours.save(update_fields=["scheduled_at"])  # an update, not an insert: it is a saved row


@pytest.mark.django_db
def test_a_user_read_by_its_prepared_statement_is_the_orms(staff_user):
    staff_user.set_password("a-password-of-theirs")
    staff_user.save()
    read = row_by_pk(get_user_model(), staff_user.pk)
    assert read == staff_user and read.get_username() == "drawstaff" and read.is_staff
    assert read.check_password("a-password-of-theirs") and not read.check_password("another")


@pytest.mark.django_db
def test_a_model_something_listens_to_at_init_is_built_by_the_orm(staff_user):
    draw = event_with_draw(actor=staff_user).draws.get(number=1)
    seen = []

    def listener(sender, instance, **kwargs):
        seen.append(instance)

    signals.post_init.connect(listener, sender=Draw)
    try:
        built = instance_from_row(Draw, *row_of(draw))
    finally:
        signals.post_init.disconnect(listener, sender=Draw)
    assert seen == [built]


@pytest.mark.django_db
def test_a_row_without_every_field_is_built_by_the_orm(staff_user):
    draw = event_with_draw(actor=staff_user).draws.get(number=1)
    built = instance_from_row(Draw, ["id", "number"], [draw.pk, draw.number])
    assert built.get_deferred_fields() >= {"state", "event_id"}
    assert built.state == draw.state  # read when asked, as a deferred field is
