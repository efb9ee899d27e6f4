"""The Rules of Play (RULES R4, T8, T9, T10, D4, P1, P7) and the bingo variant (T12)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from core.models import AuditEntry
from core.pdf import pdf_text, render_pdf
from licensing.models import SalesChannel
from raffle import services
from raffle.errors import RaffleError
from raffle.models import DrawState, EnvelopeTakenProcedure, Event, MustGoPayout, RevenueModel, Sale
from raffle.rules_of_play import rules_of_play
from tests.factories import (
    LicenceFactory,
    OrganisationFactory,
    UserFactory,
    event_with_draw,
    once,
    run_draw,
)

pytestmark = pytest.mark.django_db


def _known_event(user, **overrides):
    organisation = OrganisationFactory(name="Harbourview Hospice Foundation")
    licence = LicenceFactory(
        number="M-2026-117", organisation=organisation, authority_name="AGCO", sales_channel=SalesChannel.PAPER_ROLL
    )
    first = timezone.make_aware(
        datetime.datetime.combine(timezone.localdate() + datetime.timedelta(days=3), datetime.time(19, 30))
    )
    kwargs = dict(
        actor=user,
        licence=licence,
        name="Harbourview Catch the Ace",
        first_draw_at=first,
        price_tiers=[(1, "5"), (3, "10"), (10, "20")],
        rounding="dollar",
        envelope_taken_procedure=EnvelopeTakenProcedure.NEXT_HIGHER,
        claim_period_days=14,
        draw_place="Legion Branch 6, Owen Sound",
        must_go_payout=MustGoPayout.SHARE_NON_ACE,
    )
    kwargs.update(overrides)
    return event_with_draw(**kwargs)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_rules_of_play_pdf_holds_every_required_element(staff_user):  # R:R4 R:T8 R:T9 R:T10 R:D4 R:P1 R:P7
    event = _known_event(staff_user)
    text = _flat(pdf_text(render_pdf("pdf/rules_of_play.html", rules_of_play(event))))
    first = timezone.localtime(event.first_draw_at)
    for element in [
        "Harbourview Hospice Foundation",
        "lottery licence M-2026-117",  # organisation and licence
        "1 ticket for $5.00",
        "3 tickets for $10.00",
        "10 tickets for $20.00",  # prices
        "every 7 days at Legion Branch 6, Owen Sound",
        f"Draw 1: {first:%A %B} {first.day}, {first.year} at 19:30",
        "20% to the draw prize",
        "30% to the progressive jackpot",
        "50% to Harbourview Hospice Foundation",  # P1
        "rounded down to the whole dollar",  # rounding rule
        "chooses the envelope",  # how the envelope is chosen
        # R:T9 a roll ticket carries no pick: its holder chooses, never an opened envelope
        "If the chosen envelope has already been opened, the holder chooses another envelope that is still sealed",
        "14 days after the draw to claim",
        "another ticket of the same draw is drawn, and its holder has the same 14 days",  # T8
        "video recorded",
        "720p",
        "at least 30 days",  # D4
        "held in the lottery trust account for at least six months",  # unclaimed prizes  R:P5
        "paid in Canadian funds by cheque or electronic transfer",  # R:P3
        "must-go draw",
        "share the draw prize equally",  # P7
        "no early-bird or consolation prizes",  # P2
        "ConnexOntario 1-866-531-2600",  # T10
    ]:
        assert element in text, element


def test_the_rules_of_play_state_the_postponement_procedure_the_system_keeps(staff_user):  # R:D9 R:R4
    event = _known_event(staff_user)
    text = _flat(pdf_text(render_pdf("pdf/rules_of_play.html", rules_of_play(event))))
    authority = event.licence.authority_name
    for element in [
        "No winning ticket is drawn before the date and time advertised here",
        f"{authority} is told first (who was told, when and how is recorded)",
        "posted on the public envelope board and at Legion Branch 6, Owen Sound",
        "only before its winning ticket is drawn",
        "The later draws keep their dates unless the notice says they move with it",
    ]:
        assert element in text, element


def test_stub_tickets_carry_the_envelope_picked_at_purchase(staff_user):  # R:T9
    event = _known_event(staff_user, licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB))
    text = _flat(" ".join(p for s in rules_of_play(event)["sections"] for p in s.paragraphs))
    assert "envelope number the purchaser picked" in text
    assert "another winning ticket is drawn" not in text  # the T8 roll-ticket rule does not apply


def test_the_rules_of_play_page_is_public_and_links_the_pdf(client, staff_user):  # R:R4 R:T10
    event = _known_event(staff_user)
    response = client.get(reverse("rules_of_play", args=[event.pk]))
    assert response.status_code == 200
    page = _flat(response.content.decode())
    assert "Rules of Play: Harbourview Catch the Ace" in page and "1-866-531-2600" in page
    assert reverse("rules_of_play_pdf", args=[event.pk]) in page
    pdf = client.get(reverse("rules_of_play_pdf", args=[event.pk]))
    assert pdf["Content-Type"] == "application/pdf" and "M-2026-117" in pdf_text(pdf.content)


def test_the_rules_can_change_before_the_first_sale_but_not_after(staff_user):  # R:R4
    event = _known_event(staff_user)
    services.event_update_rules(
        actor=staff_user,
        event=event,
        claim_period_days=30,
        must_go_payout=MustGoPayout.FIRST_TICKET,
        price_tiers=[(1, "10")],
    )
    event = Event.objects.get(pk=event.pk)
    assert event.claim_period_days == 30 and event.must_go_payout == MustGoPayout.FIRST_TICKET
    assert [(t.quantity, t.price) for t in event.price_tiers.all()] == [(1, 10)]
    event = services.event_record_rules_approval(  # R:R4 the changed rules approved again
        actor=staff_user, event=event, approved_on=timezone.localdate(), reference="RP-2"
    )
    run_draw(event.draws.get(number=1), actor=staff_user, until=DrawState.SELLING)
    with pytest.raises(RaffleError, match="can no longer change") as refused:
        services.event_update_rules(actor=staff_user, event=event, claim_period_days=7)
    assert refused.value.rule == "R4"
    assert Event.objects.get(pk=event.pk).claim_period_days == 30


def test_a_bingo_event_sells_stub_tickets_only(staff_user):  # R:T12
    licence = LicenceFactory(sales_channel=SalesChannel.PAPER_ROLL)
    with pytest.raises(RaffleError, match="stub tickets only"):
        event_with_draw(
            actor=staff_user, licence=licence, revenue_model=RevenueModel.BINGO, draw_place="Delta Bingo, Kingston"
        )
    with pytest.raises(RaffleError, match="Name the bingo hall"):
        event_with_draw(
            actor=staff_user,
            licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB),
            revenue_model=RevenueModel.BINGO,
        )
    assert not Event.objects.exists()


def _selling_bingo_draw(user):
    event = event_with_draw(
        actor=user,
        licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB),
        revenue_model=RevenueModel.BINGO,
        draw_place="Delta Bingo, Kingston",
        must_go_payout=MustGoPayout.SHARE_ALL,
    )
    services.event_submit_rules(actor=user, event=event, submitted_on=timezone.localdate())
    return services.draw_open_sales(actor=user, draw=event.draws.get(number=1))


def _stub(draw, user, serial, **kwargs):
    return services.ticket_sell(
        actor=user,
        draw=draw,
        tier_quantity=1,
        serials=[serial],
        purchaser_name="Pat Buyer",
        purchaser_contact="613-555-0100",
        envelope_pick=7,
        **kwargs,
    )


def test_a_bingo_event_sells_stubs_inside_its_hall_and_nothing_else(staff_user):  # R:T12
    draw = _selling_bingo_draw(staff_user)
    with pytest.raises(RaffleError, match="stub tickets only; issue a book") as refused:
        services.roll_issue(actor=staff_user, draw=draw, seller_name="Sam", first_serial=1, last_serial=100)
    assert refused.value.rule == "T12"
    services.roll_issue(actor=staff_user, draw=draw, seller_name="Sam", first_serial=1, last_serial=100, kind="book")
    sale = _stub(draw, staff_user, "1", place="delta bingo,  Kingston")
    assert sale.channel == SalesChannel.PAPER_STUB
    assert AuditEntry.objects.filter(action="raffle.ticket.sell").get().data["place"] == "Delta Bingo, Kingston"
    with pytest.raises(RaffleError, match="sold inside Delta Bingo, Kingston only, not at the Legion") as refused:
        _stub(draw, staff_user, "2", place="the Legion")
    assert refused.value.rule == "T12" and Sale.objects.count() == 1


def test_the_sales_page_of_a_bingo_event_asks_that_the_sale_is_inside_the_hall(staff_user, client):  # R:T12
    draw = _selling_bingo_draw(staff_user)
    services.roll_issue(actor=staff_user, draw=draw, seller_name="Sam", first_serial=1, last_serial=100, kind="book")
    client.force_login(UserFactory(is_superuser=True))
    url = reverse("sales_sell", args=[draw.pk])
    assert "This sale is made inside Delta Bingo, Kingston" in client.get(url).content.decode()
    sale = {
        "purchaser_name": "Lou",
        "purchaser_contact": "lou@example.org",
        "tier": 1,
        "units": 1,
        "envelope_pick": 9,
        "device": "Sam",
        "serials": "1",
    }
    refused = client.post(url, once(sale)).content.decode()
    assert "sold inside Delta Bingo, Kingston only: tick the box" in refused and not Sale.objects.exists()
    client.post(url, once(sale, inside_hall="on"))
    assert Sale.objects.get().channel == SalesChannel.PAPER_STUB
    assert AuditEntry.objects.get(action="raffle.ticket.sell").data["place"] == "Delta Bingo, Kingston"


def test_a_bingo_event_amended_to_electronic_still_sells_stubs_only(staff_user):  # R:T12 R:L5
    from licensing.services import licence_amend_channel, licence_amendment_approve

    draw = _selling_bingo_draw(staff_user)
    today = timezone.localdate()
    amendment = licence_amend_channel(
        actor=staff_user,
        licence=draw.event.licence,
        to_channel=SalesChannel.ELECTRONIC,
        notice_given_on=today,
        effective_on=today + datetime.timedelta(days=14),
        signed_by=["Ana Roy"],
        letterhead_note="Signed letter on letterhead",
    )
    licence_amendment_approve(actor=staff_user, amendment=amendment, approved_on=today)
    draw.refresh_from_db()
    for sell in (
        lambda: services.ticket_sell(
            actor=staff_user,
            draw=draw,
            tier_quantity=1,
            device="POS-1",
            purchaser_name="Pat",
            purchaser_contact="613-555-0100",
            envelope_pick=7,
        ),
        lambda: services.tickets_import(
            actor=staff_user,
            draw=draw,
            device="POS-1",
            lines=[
                services.SaleLine(
                    tier_quantity=1, purchaser_name="Pat", purchaser_contact="613-555-0100", envelope_pick=7
                )
            ],
        ),
    ):
        with pytest.raises(RaffleError, match="bingo revenue model event: it sells stub tickets only") as refused:
            sell()
        assert refused.value.rule == "T12"
    assert not Sale.objects.exists()


def test_a_bingo_event_cannot_start_without_an_exit_strategy_submitted_for_review(staff_user):  # R:T12
    event = event_with_draw(
        actor=staff_user,
        licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB),
        revenue_model=RevenueModel.BINGO,
        draw_place="Delta Bingo, Kingston",
    )
    assert event.must_go_payout == ""
    draw = event.draws.get(number=1)
    with pytest.raises(RaffleError, match="no exit strategy"):
        services.draw_open_sales(actor=staff_user, draw=draw)
    with pytest.raises(RaffleError, match="must contain an exit strategy"):
        services.event_submit_rules(actor=staff_user, event=event, submitted_on=timezone.localdate())
    services.event_update_rules(actor=staff_user, event=event, must_go_payout=MustGoPayout.SHARE_ALL)
    with pytest.raises(RaffleError, match="Submit this bingo"):
        services.draw_open_sales(actor=staff_user, draw=draw)
    services.event_submit_rules(actor=staff_user, event=event, submitted_on=timezone.localdate())
    services.event_record_rules_approval(  # R:R4 the changed rules approved again
        actor=staff_user, event=event, approved_on=timezone.localdate(), reference="RP-BINGO"
    )
    assert services.draw_open_sales(actor=staff_user, draw=draw).state == DrawState.SELLING
    text = _flat(" ".join(p for s in rules_of_play(Event.objects.get(pk=event.pk))["sections"] for p in s.paragraphs))
    assert "stub tickets only, sold only inside Delta Bingo, Kingston" in text


def test_the_rules_say_when_the_exit_strategy_is_missing(staff_user):  # R:P7
    event = event_with_draw(actor=staff_user, must_go_payout="")
    context = rules_of_play(event)
    assert not context["complete"]
    assert "NOT YET STATED" in " ".join(context["sections"][-2].paragraphs)


def test_the_schedule_keeps_the_local_draw_time_across_daylight_saving(staff_user):  # R:R4
    from raffle.rules_of_play import draw_schedule

    event = _known_event(staff_user)
    times = {timezone.localtime(at).strftime("%H:%M") for at in draw_schedule(event)}
    # Licence ends 355 days from today, first draw in 3 days: 51 weekly draws fit.
    assert times == {"19:30"} and len(draw_schedule(event)) == 51


def test_the_pdf_footer_shows_the_licence_number_as_printed(staff_user):
    event = _known_event(staff_user)
    context = {**rules_of_play(event), "footer_left": f"Rules of Play · licence {event.licence.number}"}
    assert "licence M-2026-117" in pdf_text(render_pdf("pdf/rules_of_play.html", context))
