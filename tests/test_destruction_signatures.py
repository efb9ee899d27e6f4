"""Logging a card's destruction waits for two members' passwords (E3). Each
is checked at the full cost of the project's password hasher, as at sign-in;
the two checks run side by side, so the volunteers wait for one hash, not two
in series (issue 16: it took 3 to 5 s behind a "Working..." button)."""

import pytest

from core.models import AuditEntry
from raffle import services
from raffle.errors import RaffleError
from raffle.models import CardDestruction, DrawState
from tests.factories import PASSWORD, members_for, run_draw
from tests.hashers import SideBySideHasher

pytestmark = pytest.mark.django_db


@pytest.fixture
def side_by_side(settings):
    """Members whose passwords are stored with a hasher whose checks each wait
    for the other: made one after the other, the first check never returns."""
    settings.PASSWORD_HASHERS = ["tests.hashers.SideBySideHasher"]
    SideBySideHasher.barrier.reset()
    SideBySideHasher.threads.clear()
    yield
    SideBySideHasher.barrier.reset()


def roll_over(draw, actor, destroyer, verifier, **passwords):
    return services.draw_roll_over(
        actor=actor,
        draw=draw,
        destroyed_by=destroyer,
        verified_by=verifier,
        **{"destroyer_password": PASSWORD, "verifier_password": PASSWORD, **passwords},
    )


def test_both_members_passwords_are_checked_side_by_side_not_in_series(side_by_side, draw, staff_user):  # R:E3
    revealed = run_draw(draw, actor=staff_user, card="9H", until=DrawState.CARD_REVEALED)
    destroyer, verifier = members_for(revealed.event)  # their passwords stored with the side-by-side hasher
    roll_over(revealed, staff_user, destroyer, verifier)
    assert len(SideBySideHasher.threads) == 2 and len(set(SideBySideHasher.threads)) == 2
    log = CardDestruction.objects.get()
    assert log.destroyed_by == destroyer and log.verified_by == verifier


@pytest.mark.parametrize("wrong", ["destroyer", "verifier"])
def test_checked_side_by_side_either_wrong_password_is_still_refused_and_audited(
    side_by_side, draw, staff_user, wrong
):  # R:E3 R:D7
    revealed = run_draw(draw, actor=staff_user, card="9H", until=DrawState.CARD_REVEALED)
    destroyer, verifier = members_for(revealed.event)
    with pytest.raises(RaffleError, match="must type their own password"):
        roll_over(revealed, staff_user, destroyer, verifier, **{f"{wrong}_password": "not-the-password"})
    revealed.refresh_from_db()
    assert revealed.state == DrawState.CARD_REVEALED and not CardDestruction.objects.exists()
    refused = AuditEntry.objects.get(action="raffle.card.signature_refused")
    assert refused.data["member"] == (destroyer if wrong == "destroyer" else verifier).full_name
