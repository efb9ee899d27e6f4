"""Setting up an event: the event, its price tiers, 52 envelopes, draw 1."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from core.audit import audit_record
from core.money import Rounding, parse_amount
from licensing.models import Licence, LicenceStatus, SalesChannel
from licensing.terms import licence_expires_on, licence_in_force_on
from raffle.errors import RaffleError
from raffle.models import (
    ENVELOPE_COUNT,
    DeckKind,
    Draw,
    Envelope,
    EnvelopeTakenProcedure,
    Event,
    MustGoPayout,
    PriceTier,
    RevenueModel,
    SeedSource,
)
from raffle.services.deck import deck_root, deck_shuffle_and_commit
from raffle.services.must_go import draw_mark_if_last
from raffle.services.must_go_settings import check_last_draw, check_must_go_payout
from raffle.services.seed import check_seed_terms

DEFAULT_PRICE_TIERS = [(1, "5.00"), (3, "10.00")]


def _parse_price_tiers(price_tiers) -> list[tuple[int, object]]:
    parsed = []
    for quantity, price in price_tiers:
        try:
            quantity = int(quantity)
        except (TypeError, ValueError):
            message = gettext("A price tier's ticket count must be a whole number, not %(quantity)s.")
            raise RaffleError(message % {"quantity": repr(quantity)}) from None
        if quantity < 1:
            raise RaffleError(gettext("A price tier must sell at least one ticket."))
        what = ngettext("The price of %(quantity)s ticket", "The price of %(quantity)s tickets", quantity)
        parsed.append((quantity, parse_amount(price, what=what % {"quantity": quantity}, allow_zero=False)))
    if not parsed:
        raise RaffleError(gettext("Give at least one ticket price, for example 1 for $5."))
    if len({q for q, _ in parsed}) != len(parsed):
        raise RaffleError(gettext("Two price tiers sell the same number of tickets; keep one price per quantity."))
    return parsed


@transaction.atomic
def event_setup(
    *,
    actor,
    licence: Licence,
    name: str,
    first_draw_at: datetime.datetime,
    price_tiers=DEFAULT_PRICE_TIERS,
    deck_kind: str = DeckKind.PAPER,
    rounding: str = Rounding.CENT,
    envelope_taken_procedure: str = EnvelopeTakenProcedure.NEXT_HIGHER,
    claim_period_days: int = 7,
    draw_interval_days: int = 7,
    draw_place: str = "",
    seed_jackpot="0",
    seed_source: str = SeedSource.ORGANISATION,
    seed_letter_of_credit: str = "",
    seed_credit_issuer: str = "",
    seed_credit_expires_on: datetime.date | None = None,
    revenue_model: str = RevenueModel.STANDARD,
    must_go_payout: str | None = None,
    unclaimed_prize_policy: str | None = None,
    max_tickets_per_person: int | None = None,
    rules_approved_on: datetime.date | None = None,
    rules_approval_reference: str = "",
    last_draw_number: int | None = None,
) -> Event:
    """Create the event of a licence with its 52 envelopes and its first draw;
    the authority's approval of its Rules of Play when it is already known (R4).
    R:P7 `last_draw_number` fixes the event's last draw (e.g. 40 weekly
    draws): that draw is the must-go final draw, and none is scheduled after it."""
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    if licence.status != LicenceStatus.ACTIVE:
        raise RaffleError(
            gettext("Licence %(number)s is %(lower)s; a new event needs a new licence.")
            % {"number": licence.number, "lower": licence.get_status_display().lower()},
            rule="P4",
        )
    if Event.objects.filter(licence=licence).exists():
        raise RaffleError(
            gettext("Licence %(number)s already has its event; one licence runs one event.")
            % {"number": licence.number}
        )
    if deck_kind not in DeckKind.values:
        raise RaffleError(gettext("The deck must be 'paper' or 'electronic'."))
    if deck_kind == DeckKind.ELECTRONIC and not licence.has_system_approval:  # R:E4 R:D5
        raise RaffleError(
            gettext(
                "Licence %(number)s records no approval of this software's electronic deck; use a paper "
                "deck (or the registered supplier's), or record the approval's reference and date on the "
                "licence first."
            )
            % {"number": licence.number},
            rule="E4",
        )
    Rounding.quantum(rounding)
    if envelope_taken_procedure not in EnvelopeTakenProcedure.values:
        raise RaffleError(gettext("Choose what happens when the picked envelope is already open."))
    if draw_interval_days < 1:
        raise RaffleError(gettext("Draws must be at least one day apart."))
    first_day = timezone.localdate(first_draw_at)
    if not licence_in_force_on(licence, first_day):  # R:L8 an approved amendment of the dates included
        raise RaffleError(
            gettext("The first draw is after the licence expires (%(licence_expires_on)s).")
            % {"licence_expires_on": format(licence_expires_on(licence, first_day), "%Y-%m-%d")}
        )
    tiers = _parse_price_tiers(price_tiers)
    seed = parse_amount(seed_jackpot, what=gettext("The seed jackpot"))
    credit = check_seed_terms(
        licence=licence,
        seed=seed,
        source=seed_source,
        reference=seed_letter_of_credit,
        issuer=seed_credit_issuer,
        expires_on=seed_credit_expires_on,
    )
    _check_revenue_model(licence=licence, revenue_model=revenue_model, draw_place=draw_place)
    if must_go_payout is None:
        # A bingo event's exit strategy is chosen on purpose (T12); others start from the usual one.
        must_go_payout = "" if revenue_model == RevenueModel.BINGO else MustGoPayout.SHARE_NON_ACE
    check_must_go_payout(must_go_payout)
    last_draw_number = check_last_draw(
        licence=licence,
        number=last_draw_number,
        first_draw_at=first_draw_at,
        interval_days=draw_interval_days,
        payout=must_go_payout,
    )

    event = Event(
        licence=licence,
        name=(name or "").strip() or f"Catch the Ace - {licence.organisation.name}",
        deck_kind=deck_kind,
        rounding=rounding,
        envelope_taken_procedure=envelope_taken_procedure,
        claim_period_days=claim_period_days,
        first_draw_at=first_draw_at,
        draw_interval_days=draw_interval_days,
        draw_place=draw_place,
        jackpot=seed,
        seed_jackpot=seed,
        seed_source=seed_source,
        **credit,
        revenue_model=revenue_model,
        must_go_payout=must_go_payout,
        last_draw_number=last_draw_number,
        max_tickets_per_person=max_tickets_per_person or None,  # stated in the Rules of Play
    )
    if rules_approved_on is not None:
        _check_rules_approval(rules_approved_on, rules_approval_reference)
        event.rules_approved_on, event.rules_approval_reference = rules_approved_on, rules_approval_reference.strip()
    if unclaimed_prize_policy is not None:
        event.unclaimed_prize_policy = _clean_policy(unclaimed_prize_policy)
    event.full_clean()
    event.save()
    PriceTier.objects.bulk_create([PriceTier(event=event, quantity=q, price=p) for q, p in tiers])
    # R:E1 52 envelopes numbered 1 to 52.
    Envelope.objects.bulk_create([Envelope(event=event, number=n) for n in range(1, ENVELOPE_COUNT + 1)])
    deck = {}
    if deck_kind == DeckKind.ELECTRONIC:  # R:E4 shuffled and committed before the first sale
        commitments = deck_shuffle_and_commit(event=event)
        deck = {"deck_root": deck_root(commitments), "commitments": commitments}
    first = Draw.objects.create(event=event, number=1, scheduled_at=first_draw_at)
    audit_record(
        actor=actor,
        action="raffle.event.setup",
        obj=event,
        data={
            "licence": licence.number,
            "deck_kind": deck_kind,
            "rounding": rounding,
            "price_tiers": [[q, p] for q, p in tiers],
            "first_draw_at": first_draw_at,
            "seed_jackpot": seed,
            "rules_approved_on": event.rules_approved_on,
            "rules_approval_reference": event.rules_approval_reference,
            "seed_source": seed_source,
            **credit,
            **deck,
            "revenue_model": revenue_model,
            "must_go_payout": must_go_payout,
            "last_draw_number": last_draw_number,
        },
    )
    draw_mark_if_last(actor=actor, event=event, draw=first)
    return event


def _check_revenue_model(*, licence: Licence, revenue_model: str, draw_place: str) -> None:
    if revenue_model not in RevenueModel.values:
        raise RaffleError(gettext("The revenue model must be 'standard' or 'bingo'."))
    if revenue_model != RevenueModel.BINGO:
        return
    if licence.sales_channel != SalesChannel.PAPER_STUB:  # R:T12
        raise RaffleError(
            gettext("A bingo revenue model event sells stub tickets only; licence %(number)s is for %(lower)s.")
            % {"number": licence.number, "lower": licence.get_sales_channel_display().lower()},
            rule="T12",
        )
    if not (draw_place or "").strip():  # R:T12
        raise RaffleError(
            gettext(
                "Name the bingo hall: a bingo revenue model event sells its tickets and holds its draws "
                "inside the hall only."
            ),
            rule="T12",
        )


def _clean_policy(text: str) -> str:
    text = (text or "").strip()
    if not text:  # R:P5
        raise RaffleError(gettext("The Rules of Play must say how unclaimed prizes are handled."), rule="P5")
    return text


def rules_frozen(event: Event) -> bool:
    """The Rules of Play cannot change once tickets may have been sold: from
    the moment any draw's sales open."""
    return event.draws.filter(sales_opened_at__isnull=False).exists()


RULES_FIELDS = (
    "rounding",
    "envelope_taken_procedure",
    "claim_period_days",
    "draw_interval_days",
    "draw_place",
    "must_go_payout",
    "unclaimed_prize_policy",
)


@transaction.atomic
def event_update_rules(*, actor, event: Event, price_tiers=None, **changes) -> Event:
    """Change the settings the Rules of Play are generated from (R4). Refused
    after the first sale: players bought their tickets under the rules as
    published."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    unknown = set(changes) - set(RULES_FIELDS)
    if unknown:
        raise RaffleError(
            gettext("These are not Rules of Play settings: %(sorted)s.") % {"sorted": ", ".join(sorted(unknown))}
        )
    if rules_frozen(event):  # R:R4
        raise RaffleError(
            gettext(
                "Tickets are on sale for %(event)s already, so its Rules of Play can no longer change: "
                "players bought their tickets under the rules as published."
            )
            % {"event": event},
            rule="R4",
        )
    if "rounding" in changes:
        Rounding.quantum(changes["rounding"])
    if (
        "envelope_taken_procedure" in changes
        and changes["envelope_taken_procedure"] not in EnvelopeTakenProcedure.values
    ):
        raise RaffleError(gettext("Choose what happens when the picked envelope is already open."))
    if "draw_interval_days" in changes and int(changes["draw_interval_days"]) < 1:
        raise RaffleError(gettext("Draws must be at least one day apart."))
    if "claim_period_days" in changes and int(changes["claim_period_days"]) < 1:
        raise RaffleError(gettext("Give winners at least one day to claim their prize."), rule="T8")
    if "must_go_payout" in changes:
        check_must_go_payout(changes["must_go_payout"], event=event)
    if "unclaimed_prize_policy" in changes:
        changes["unclaimed_prize_policy"] = _clean_policy(changes["unclaimed_prize_policy"])
    if "draw_place" in changes:
        changes["draw_place"] = (changes["draw_place"] or "").strip()
        if event.is_bingo:
            _check_revenue_model(
                licence=event.licence, revenue_model=event.revenue_model, draw_place=changes["draw_place"]
            )
    for name, value in changes.items():
        setattr(event, name, value)
    event.full_clean()
    fields = list(changes)
    if event.rules_submitted_on and fields:
        event.rules_submitted_on = None  # changed rules go back for review
        fields.append("rules_submitted_on")
    if event.rules_approved_on and fields:  # R:R4 changed rules need the authority's approval again
        event.rules_approved_on, event.rules_approval_reference = None, ""
        fields += ["rules_approved_on", "rules_approval_reference"]
    event.save(update_fields=fields)
    data = {name: getattr(event, name) for name in changes}
    if price_tiers is not None:
        tiers = _parse_price_tiers(price_tiers)
        event.price_tiers.all().delete()
        PriceTier.objects.bulk_create([PriceTier(event=event, quantity=q, price=p) for q, p in tiers])
        data["price_tiers"] = [[q, p] for q, p in tiers]
    audit_record(actor=actor, action="raffle.event.update_rules", obj=event, data=data)
    return event


@transaction.atomic
def event_submit_rules(*, actor, event: Event, submitted_on: datetime.date) -> Event:
    """Record that the Rules of Play went to the regulator for review (T12)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if not event.must_go_payout:  # R:T12
        raise RaffleError(
            gettext(
                "The Rules of Play must contain an exit strategy: choose how the holders of a must-go "
                "final draw are paid before submitting them."
            ),
            rule="T12",
        )
    if submitted_on > timezone.localdate():
        raise RaffleError(gettext("The submission cannot be dated in the future."))
    event.rules_submitted_on = submitted_on
    event.save(update_fields=["rules_submitted_on"])
    audit_record(actor=actor, action="raffle.event.submit_rules", obj=event, data={"submitted_on": submitted_on})
    return event


def _check_rules_approval(approved_on, reference: str) -> None:
    if not isinstance(approved_on, datetime.date) or approved_on > timezone.localdate():
        raise RaffleError(
            gettext("Give the day the licensing authority approved the Rules of Play (not a day to come).")
        )
    if not (reference or "").strip():
        raise RaffleError(
            gettext("Give the authority's reference of the approval (its letter, e-mail or file number).")
        )


@transaction.atomic
def event_record_rules_approval(*, actor, event: Event, approved_on: datetime.date, reference: str) -> Event:
    """R:R4 the licensing authority approved the Rules of Play as generated:
    its date and reference are recorded before the first sale and printed in them."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if rules_frozen(event):  # R:R4
        raise RaffleError(
            gettext(
                "Tickets are on sale for %(event)s already; the approval of its Rules of Play was due "
                "before the first sale."
            )
            % {"event": event},
            rule="R4",
        )
    _check_rules_approval(approved_on, reference)
    event.rules_approved_on, event.rules_approval_reference = approved_on, reference.strip()[:120]
    event.save(update_fields=["rules_approved_on", "rules_approval_reference"])
    audit_record(
        actor=actor,
        action="raffle.event.rules_approved",
        obj=event,
        data={"approved_on": approved_on, "reference": event.rules_approval_reference},
    )
    return event


def event_check_ready_to_sell(event: Event) -> None:
    """R:T12 a bingo revenue model event starts only with an exit strategy in
    Rules of Play submitted for review; R:R4 every event only once the
    authority's approval of its Rules of Play is recorded."""
    if not event.is_bingo:
        _check_rules_approved(event)
        return
    if not event.must_go_payout:
        raise RaffleError(
            gettext(
                "This bingo revenue model event has no exit strategy in its Rules of Play; choose how a "
                "must-go final draw is paid before selling."
            ),
            rule="T12",
        )
    if event.rules_submitted_on is None:
        raise RaffleError(
            gettext(
                "Submit this bingo revenue model event's Rules of Play for review, and record the day, before selling."
            ),
            rule="T12",
        )
    _check_rules_approved(event)


def _check_rules_approved(event: Event) -> None:
    if event.rules_approved_on is None:  # R:R4
        raise RaffleError(
            gettext(
                "Record the licensing authority's approval of the Rules of Play of %(event)s (date and "
                "reference) before the first sale."
            )
            % {"event": event},
            rule="R4",
        )
