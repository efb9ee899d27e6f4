"""Where the seed jackpot shows (RULES P6, L9, L12): the fee of the period
it was added, its deposit, the reports' own line, the public board and the
Rules of Play."""

import csv
import datetime
import io
from decimal import Decimal

import pytest
from django.urls import reverse

from core import roles
from core.pdf import pdf_text
from licensing.models import AuthorityKind
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, SeedSource
from raffle.reports.builders import final_report, four_draw_report
from raffle.reports.reconciliation import deposit_allocations
from raffle.reports.render import final_pdf, four_draw_csv, four_draw_pdf
from raffle.reports.trust_ledger import ledger_entries
from raffle.rules_of_play import rules_of_play
from tests.factories import (
    LicenceFactory,
    event_with_closed_draws,
    members_for,
    once,
    run_draw,
    trust_account_for,
    user_with_role,
)

pytestmark = pytest.mark.django_db
D = Decimal


def _municipal_licence(**kwargs):
    """A $50,000 municipal licence, fee 3% of the prize board (L2, L9)."""
    return LicenceFactory(
        authority_kind=AuthorityKind.MUNICIPALITY,
        authority_name="Town of Cobourg",
        prize_board=D("50000.00"),
        fee_rate_percent=D("3.00"),
        **kwargs,
    )


def _seeded_season(actor, sales, *, source=SeedSource.ORGANISATION):
    first = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=7 * len(sales) + 1)
    licence = _municipal_licence(issued_on=first.date() - datetime.timedelta(days=30))
    return event_with_closed_draws(
        sales, actor=actor, licence=licence, first_draw_at=first, seed_jackpot="10000", seed_source=source
    )


def _text(pdf: bytes) -> str:
    return " ".join(pdf_text(pdf).split())


def test_the_seed_counts_in_the_fee_of_the_period_it_was_added_and_only_that_one(treasurer):  # R:L9 R:P6
    """Cobourg's Rotary seeds $10,000 and sells $1,000 a draw. Report 1's
    prize board is the seed plus four draws' prizes ($12,000), so its fee is
    3% of that, $360; report 2 pays 3% of its own $2,000 of prizes, $60."""
    event, draws = _seeded_season(treasurer, ["1000.00"] * 8, source=SeedSource.SPONSOR)
    first, second = four_draw_report(event, 1), four_draw_report(event, 2)
    assert first.totals.prize_board + first.seed == D("12000.00") and first.fee == D("360.00")
    assert second.totals.prize_board == D("2000.00") and second.fee == D("60.00")
    assert first.prize_board_to_date == D("12000.00") and second.prize_board_to_date == D("14000.00")
    text = _text(four_draw_pdf(first))
    assert (
        "Seed jackpot $10,000.00 from a sponsor (P6): counted in the prize board and its fee, not in ticket sales"
        in text
    )
    assert "Prize board of the period (prizes and seed) $12,000.00" in text
    rows = {row["licence"]: row for row in csv.DictReader(io.StringIO(four_draw_csv(first)))}
    assert (rows["seed"]["ticket_sales"], rows["seed"]["winner"]) == ("10000.00", "a sponsor")
    assert rows["prize_board"]["ticket_sales"] == "12000.00"
    assert second.seed == 0 and "Seed jackpot" not in _text(four_draw_pdf(second))  # only where it was added
    assert "Prize board used to date (seed $10,000.00 included) $14,000.00" in _text(four_draw_pdf(second))
    final = final_report(event)
    assert [f.fee for f in final.fees] == [D("360.00"), D("60.00")] and final.fee_total == D("420.00")


def test_final_report_net_proceeds_are_the_licensees_share_less_fees_with_a_seed(treasurer):  # R:P6 R:R2 R:L9
    """The Ace is found in draw 3 after a $10,000 seed: the jackpot paid holds
    the seed, and the seed's own line balances it, so the net proceeds are the
    licensee's 50% of the sales less the fees, never negative."""
    event, draws = _seeded_season(treasurer, ["2000.00", "3000.00"])
    destroyer, verifier = members_for(event)
    ace = run_draw(
        Draw.objects.get(event=event, number=3),
        actor=treasurer,
        sales="4000.00",
        card="AS",
        destroyer=destroyer,
        verifier=verifier,
    )
    event.refresh_from_db()
    assert event.is_concluded and ace.jackpot_awarded == D("10000.00") + D("2700.00")
    report = final_report(event)
    assert report.is_final and report.seed == D("10000.00")
    assert report.fee_total == D("435.00")  # 3% of (10,000 + 4,500)
    assert report.net_proceeds == D("4500.00") - D("435.00")  # the 50% of $9,000, less the fee
    text = _text(final_pdf(report))
    assert "Seed jackpot from the organisation's own funds (not ticket sales, P6) $10,000.00" in text


def test_the_seeds_deposit_is_recorded_as_the_seed_not_flagged_as_foreign_money(treasurer):  # R:P6 R:L12
    """The treasurer banks the $10,000 seed on slip SEED-1 and says so: the
    slip is lottery money given to the seed, nothing is left unallocated; a
    second slip cannot claim more seed than there is."""
    event, draws = _seeded_season(treasurer, ["1000.00"])
    account = trust_account_for(event, actor=treasurer)
    services.deposit_record_for_draws(
        actor=treasurer,
        account=account,
        slip_number="SEED-1",
        deposited_on=account.opened_on,
        amount="10000.00",
        seed="10000.00",
    )
    [allocation] = deposit_allocations(event)
    assert allocation.seed == D("10000.00") and allocation.unallocated == 0
    assert ledger_entries(event.licence)[0].description == "Deposit slip SEED-1 (the seed jackpot, P6)"
    with pytest.raises(RaffleError, match=r"The seed jackpot is \$10,000.00 .* at most \$0.00") as refused:
        services.deposit_record_for_draws(
            actor=treasurer,
            account=account,
            slip_number="SEED-2",
            deposited_on=account.opened_on,
            amount="500.00",
            seed="500.00",
        )
    assert refused.value.rule == "P6"
    assert [a.deposit.slip_number for a in deposit_allocations(event)] == ["SEED-1"]  # all or nothing


def test_a_slip_with_sales_and_seed_cannot_give_more_than_it_holds(treasurer):  # R:P6 R:L12
    event, draws = _seeded_season(treasurer, ["1000.00"])
    account = trust_account_for(event, actor=treasurer)
    with pytest.raises(RaffleError, match=r"Slip MIX-1 is for \$10,500.00"):
        services.deposit_record_for_draws(
            actor=treasurer,
            account=account,
            slip_number="MIX-1",
            deposited_on=account.opened_on,
            amount="10500.00",
            seed="10000.00",
            amounts={draws[0]: "1000.00"},
        )
    services.deposit_record_for_draws(
        actor=treasurer,
        account=account,
        slip_number="MIX-1",
        deposited_on=account.opened_on,
        amount="11000.00",
        seed="10000.00",
        amounts={draws[0]: "1000.00"},
    )
    [allocation] = deposit_allocations(event)
    assert allocation.allocated == D("11000.00") and allocation.unallocated == 0


def test_the_public_board_and_the_rules_of_play_show_the_seed_as_its_own_line(client, treasurer):  # R:P6 R:R4
    licence = _municipal_licence()
    event = services.event_setup(
        actor=treasurer,
        licence=licence,
        name="Cobourg Catch the Ace",
        first_draw_at=datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=2),
        seed_jackpot="15000",
        seed_source=SeedSource.SPONSOR,
        seed_letter_of_credit="SLC-88",
        seed_credit_issuer="Kawartha Credit Union",
        seed_credit_expires_on=licence.expires_on + datetime.timedelta(days=60),
    )
    page = client.get(reverse("public_board", args=[event.pk])).content.decode()
    assert "including a seed of $15,000.00 from a sponsor" in page
    prizes = next(s for s in rules_of_play(event)["sections"] if s.title == "The prizes")
    seed = prizes.paragraphs[-1]
    assert seed.startswith("The progressive jackpot starts at $15,000.00, a seed from a sponsor")
    assert "counts in the licence's prize board" in seed
    assert "letter of credit SLC-88 from Kawartha Credit Union" in seed


def test_the_treasurer_banks_the_seed_from_the_deposits_page(client, treasurer):  # R:P6 R:L12
    """On the trust account page the treasurer records slip SEED-1 with its
    seed part; the slip shows as the seed jackpot, nothing left unallocated."""
    event, draws = _seeded_season(treasurer, ["1000.00"])
    account = trust_account_for(event, actor=treasurer)
    client.force_login(user_with_role(roles.TREASURER, username="tina"))
    response = client.post(
        reverse("treasury_deposit_add", args=[event.pk]),
        once(slip_number="SEED-1", deposited_on=account.opened_on, amount="10000.00", seed_amount="10000"),
        follow=True,
    )
    page = response.content.decode()
    assert "Deposit recorded." in page and "(the seed jackpot: $10,000.00)" in page
    assert '<strong class="error">$10,000.00</strong>' not in page  # not flagged as money of no draw
    assert deposit_allocations(event)[0].unallocated == 0
