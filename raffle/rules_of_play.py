"""The Rules of Play, generated from the event's settings (RULES R4, T8, T9,
T10, D4, D9, P1, P7, P2, P3, P5, T12). One source for the public page and the PDF,
so the two always say the same thing."""

import datetime
from dataclasses import dataclass, field

from django.utils import timezone

from core.money import DRAW_PRIZE_PERCENT, JACKPOT_PERCENT, LICENSEE_PERCENT, Rounding, format_money
from licensing.models import SalesChannel
from licensing.terms import licence_terms_on
from raffle.envelope_taken import opened_envelope_sentence
from raffle.models import DeckKind, Event, MustGoPayout, SeedSource

HELPLINE = "ConnexOntario 1-866-531-2600"  # R:T10
# The most draws the schedule lists (a deck has 52 envelopes).
SCHEDULE_LIMIT = 52


@dataclass
class Section:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)


def draw_schedule(event: Event) -> list[datetime.datetime]:
    # An approved amendment of the licence's dates holds from its effective date (L5).
    expires_on = licence_terms_on(event.licence, timezone.localdate()).expires_on
    """Every draw the event may hold before its licence expires, from the first."""
    first = timezone.localtime(event.first_draw_at)
    dates = []
    for number in range(SCHEDULE_LIMIT):
        # Same local time every draw, across daylight-saving changes.
        day = first.date() + datetime.timedelta(days=event.draw_interval_days * number)
        if day > expires_on:
            break
        dates.append(timezone.make_aware(datetime.datetime.combine(day, first.time().replace(tzinfo=None))))
    return dates


def _when(at: datetime.datetime) -> str:
    local = timezone.localtime(at)
    return f"{local:%A %B} {local.day}, {local.year} at {local:%H:%M}"


def postponement_text(authority_name: str, draw_place: str) -> str:
    """R:D9 the postponement procedure as the system keeps it (`draw_postpone`)."""
    return (
        "No winning ticket is drawn before the date and time advertised here. If a draw cannot be held then, "
        f"it is postponed to a later date and time, and only before its winning ticket is drawn: {authority_name} "
        "is told first (who was told, when and how is recorded), and the new date and time and the reason are "
        f"posted on the public envelope board{f' and at {draw_place}' if draw_place else ''}. Tickets bought for "
        "a postponed draw stay in it. The later draws keep their dates unless the notice says they move with it."
    )


def purchase_limits_text(event: Event) -> list[str]:
    """Who may buy, and how many: checked at every sale and import."""
    text = [
        f"Members of {event.licence.organisation.name}'s board, the volunteers who run the draws, the staff of "
        "the electronic raffle supplier, and the members of their households may not buy tickets."
    ]
    if event.max_tickets_per_person:
        text.append(
            f"One person (the same name and phone or e-mail) may buy at most {event.max_tickets_per_person} "
            "tickets for a draw, on every sales channel together."
        )
    return text


def electronic_system_text(licence, *, paper_deck: bool) -> list[str]:
    """R:D5 R:E4 who runs the electronic sales and draws: the AGCO-registered
    supplier's system, named with its registration; this software's own RNG
    and electronic deck only under the approval the licence records."""
    if licence.supplier_recorded:
        supplier = (
            f"Electronic tickets are sold and the winning tickets drawn on {licence.supplier_system_name} "
            f"version {licence.supplier_system_version}, the electronic raffle system of "
            f"{licence.supplier_name}, a gaming supplier registered with the AGCO (registration "
            f"{licence.supplier_registration_number}), following that system's draw process."
        )
    else:
        supplier = (
            "NOT YET STATED: the AGCO-registered supplier of the electronic raffle system and its registration "
            "number. Record them on the licence before the first sale."
        )
    if licence.has_system_approval:
        draw = (
            f"Under approval {licence.system_approval_reference} of "
            f"{licence.system_approval_on:%B %-d, %Y}, the winning ticket is drawn among the draw's valid "
            "tickets with a cryptographic random number generator, and every draw's inputs and outcome are logged."
        )
    else:
        draw = (
            "The winning ticket is the one that system draws with its cryptographic random number generator; "
            f"{licence.organisation.name} records the system's result and its reference for every draw."
        )
    text = [supplier, draw]
    if not paper_deck and licence.has_system_approval:  # R:E4
        text.append(
            "The deck is electronic: the 52 cards were shuffled and a commitment to every envelope published "
            "before the first sale, so anyone can check that no card was moved."
        )
    return text


def seed_text(event: Event) -> list[str]:
    """R:P6 the seed (guaranteed minimum) jackpot as set up: how much, from
    whom, its letter of credit, and that it counts in the prize board."""
    if not event.seed_jackpot:
        return []
    source = (
        "a sponsor" if event.seed_source == SeedSource.SPONSOR else f"{event.licence.organisation.name}'s own funds"
    )
    text = (
        f"The progressive jackpot starts at {format_money(event.seed_jackpot)}, a seed from {source}; "
        "the seed counts in the licence's prize board."
    )
    if event.seed_letter_of_credit:
        text += (
            f" It is guaranteed by irrevocable standby letter of credit {event.seed_letter_of_credit} from "
            f"{event.seed_credit_issuer}, in force until {event.seed_credit_expires_on:%B %-d, %Y}."
        )
    return [text]


def rules_of_play(event: Event) -> dict:
    licence = event.licence
    terms = licence_terms_on(licence, timezone.localdate())  # approved amendments from their effective dates
    draw_place = terms.draw_place or event.draw_place
    organisation = licence.organisation
    registration = (
        f", charitable registration {organisation.charity_registration_number}"
        if organisation.charity_registration_number
        else ""
    )
    tiers = list(event.price_tiers.all())
    schedule = draw_schedule(event)
    paper = event.deck_kind == DeckKind.PAPER
    roll = terms.sales_channel == SalesChannel.PAPER_ROLL  # R:L5 the channel in force today
    sections = []

    sections.append(
        Section(
            "The licensee and the licence",
            [
                f"This Catch the Ace lottery is conducted and managed by {organisation.name}"
                f"{registration}"
                f", under lottery licence {licence.number} issued by {licence.authority_name}. "
                f"The licence is in force until {terms.expires_on:%B %-d, %Y}; the prize board is "
                f"{format_money(terms.prize_board)}.",
                (  # R:R4 the authority's approval, recorded before the first sale
                    f"These Rules of Play were approved by {licence.authority_name} on "
                    f"{event.rules_approved_on:%B %-d, %Y} (reference {event.rules_approval_reference})."
                    if event.rules_approved_on
                    else f"These Rules of Play await the approval of {licence.authority_name}; "
                    "no ticket is sold before it."
                ),
                "Players must be 18 years of age or older.",
            ],
        )
    )

    channel = terms.channel_label.lower()
    ticket_items = [f"{t.quantity} ticket{'s' if t.quantity > 1 else ''} for {format_money(t.price)}" for t in tiers]
    ticket_text = [f"Tickets are sold as {channel}. Prices:"]
    if event.is_bingo:  # R:T12
        ticket_text = [
            f"This is a bingo revenue model event: stub tickets only, sold only inside {draw_place}. Prices:"
        ]
    sections.append(
        Section(
            "Tickets and prices",
            ticket_text,
            ticket_items
            + [
                "A ticket is eligible only for the draw it was bought for; tickets do not carry over to later draws.",
            ]
            + purchase_limits_text(event),
        )
    )

    sections.append(
        Section(
            "The draws",
            [
                f"Draws are held every {event.draw_interval_days} day{'s' if event.draw_interval_days > 1 else ''}"
                f"{f' at {draw_place}' if draw_place else ''}, starting {_when(event.first_draw_at)}. "
                "Ticket sales for a draw close before that draw. The ticket sales, the draw prize and the "
                "progressive jackpot are announced immediately before each draw. The winner need not be present.",
                postponement_text(licence.authority_name, draw_place),
                "The draw schedule (until the ace is found or the licence expires):",
            ],
            [f"Draw {n}: {_when(at)}" for n, at in enumerate(schedule, start=1)],
        )
    )

    rounding = "down to the cent" if event.rounding == Rounding.CENT else "down to the whole dollar"
    sections.append(
        Section(
            "The prizes",
            [  # R:P1
                f"Each draw's ticket sales are split: {DRAW_PRIZE_PERCENT}% to the draw prize, {JACKPOT_PERCENT}% to "
                f"the progressive jackpot and {LICENSEE_PERCENT}% to {organisation.name}. The draw prize and the "
                f"jackpot share are rounded {rounding}; the licensee's share is what remains, so the three always "
                "add up to the sales exactly.",
                "The winning ticket's holder wins the draw prize and chooses a sealed envelope. If it holds the Ace "
                "of Spades, the holder also wins the progressive jackpot and the lottery ends. Otherwise the card "
                "is destroyed in front of witnesses and the jackpot rolls over to the next draw.",
                "There are no early-bird or consolation prizes. Prizes are paid in Canadian funds by cheque or "
                "electronic transfer.",  # R:P2 R:P3
                *seed_text(event),
            ],
        )
    )

    if roll:
        choose = (
            "The winning ticket's holder chooses the envelope at the draw (or, if absent, when claiming the prize)."
        )
    else:  # R:T9
        choose = (
            "Each stub or electronic ticket carries the purchaser's name, contact and the envelope "
            "number the purchaser picked when buying it; that envelope is opened if the ticket wins."
        )
    # R:T9 the same sentence the wizard shows and the service keeps (raffle.envelope_taken)
    taken = opened_envelope_sentence(event, picked_on_ticket=licence.sales_channel != SalesChannel.PAPER_ROLL)
    sections.append(
        Section(
            "Choosing the envelope",
            [
                "The 52 cards of a standard deck are sealed in identical numbered envelopes, displayed at every draw.",
                choose,
                taken,
            ],
        )
    )

    claim = [
        f"A winner has {event.claim_period_days} day{'s' if event.claim_period_days > 1 else ''} "
        "after the draw to claim the prize."
    ]
    if roll:  # R:T8 the claim procedure the draw machine keeps (raffle.services.winner)
        days = f"{event.claim_period_days} day{'s' if event.claim_period_days > 1 else ''}"
        claim += [
            "Roll tickets carry no name, and their holder need not be at the draw. If nobody at the draw "
            "holds the winning roll ticket, the draw waits for its holder: no envelope is opened for them.",
            f"The holder has {days} from the moment the ticket is drawn to come forward with it. Their name, "
            "the identification they show and who checked it are recorded, and they choose the envelope then.",
            f"If nobody comes forward within those {days}, another ticket of the same draw is drawn, and its "
            f"holder has the same {days}. Every ticket drawn is recorded. Once an envelope is chosen, no other "
            "ticket is drawn.",
            "While a draw waits for its holder, the next draw is not held.",
        ]
    claim.append(event.unclaimed_prize_policy)  # R:P5
    sections.append(Section("Claiming prizes and unclaimed prizes", claim))

    if paper:  # R:D4
        recording = (
            "Every draw is video recorded (at least 720p, well lit, unobstructed): the selection of "
            "the winning ticket, the envelope, the card reveal and the destruction of the card. "
            "Recordings are kept at least 30 days after the draw."
        )
    else:
        recording = (
            "The winning ticket's number, the envelope and the card of every draw are logged. The draw is "
            "video recorded and the recording kept at least 30 days."
        )
    sections.append(Section("Draws are recorded", [recording]))
    if terms.sales_channel not in SalesChannel.paper() or not paper:
        sections.append(Section("The electronic raffle system", electronic_system_text(licence, paper_deck=paper)))

    payout = event.must_go_payout
    exit_text = [
        "If the lottery must end before the Ace of Spades is found (the last scheduled draw, the licence's "
        "expiry, or the prizes reaching the prize board), the final draw is a must-go draw: winning tickets "
        "keep being drawn and envelopes opened until the Ace of Spades is revealed, and every re-draw is "
        "recorded.",
    ]
    if payout:  # R:P7
        exit_text.append(MustGoPayout(payout).label + ".")
        if payout != MustGoPayout.FINAL_WINNER:
            exit_text.append("Shares are to the cent; a cent left over goes to the ticket drawn first.")
    else:
        exit_text.append("NOT YET STATED: how the holders of the final draw are paid. Choose it before the first sale.")
    sections.append(Section("Exit strategy: the must-go final draw", exit_text))

    sections.append(
        Section(
            "Help with gambling",
            [  # R:T10
                f"If you or someone you know has a problem with gambling, call {HELPLINE}: free, confidential, "
                "24 hours a day.",
            ],
        )
    )
    return {
        "event": event,
        "licence": licence,
        "organisation": organisation,
        "sections": sections,
        "helpline": HELPLINE,
        "complete": bool(payout),
    }
