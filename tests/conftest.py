import pytest

from tests.factories import UserFactory, event_with_draw


@pytest.fixture
def staff_user(db):
    return UserFactory(username="drawstaff", is_staff=True)


@pytest.fixture
def treasurer(db):
    return UserFactory(username="treasurer")


@pytest.fixture
def event(db, staff_user):
    return event_with_draw(actor=staff_user)


@pytest.fixture
def draw(event):
    return event.draws.get(number=1)
