"""The Rules of Play, generated from the event's settings (RULES R4, T8, T9,
T10, D4, D9, P1, P7, P2, P3, P5, T12). One source for the public page and the PDF,
so the two always say the same thing, in the reader's language (#16): every
sentence goes through the French catalogue, with its figures and dates written
the way that language writes them (`1 234,50 $`, `jeudi 10 décembre 2026 à 19 h 30`)."""

import datetime
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.money import DRAW_PRIZE_PERCENT, JACKPOT_PERCENT, LICENSEE_PERCENT, Rounding
from licensing.models import SalesChannel
from licensing.terms import licence_terms_on
from raffle.envelope_taken import opened_envelope_sentence
from raffle.models import DeckKind, Event, MustGoPayout
from raffle.rules_text import (
    RUN_OUT_DRAW_PRIZE,
    day,
    electronic_system_text,
    money,
    postponement_text,
    purchase_limits_text,
    seed_text,
    when,
)

HELPLINE = "ConnexOntario 1-866-531-2600"  # R:T10
# The most draws the schedule lists (a deck has 52 envelopes).
SCHEDULE_LIMIT = 52


@dataclass
class Section:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)


def draw_schedule(event: Event) -> list[datetime.datetime]:
    """Every draw the event may hold before its licence expires, from the
    first, up to its fixed last draw (P7)."""
    # An approved amendment of the licence's dates holds from its effective date (L5).
    expires_on = licence_terms_on(event.licence, timezone.localdate()).expires_on
    first = timezone.localtime(event.first_draw_at)
    dates = []
    for number in range(min(SCHEDULE_LIMIT, event.last_draw_number or SCHEDULE_LIMIT)):
        # Same local time every draw, across daylight-saving changes.
        day = first.date() + datetime.timedelta(days=event.draw_interval_days * number)
        if day > expires_on:
            break
        dates.append(timezone.make_aware(datetime.datetime.combine(day, first.time().replace(tzinfo=None))))
    return dates


def rules_of_play(event: Event) -> dict:
    licence = event.licence
    terms = licence_terms_on(licence, timezone.localdate())  # approved amendments from their effective dates
    draw_place = terms.draw_place or event.draw_place
    organisation = licence.organisation
    registration = (
        _(", charitable registration %(number)s") % {"number": organisation.charity_registration_number}
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
            _("The licensee and the licence"),
            [
                _(
                    "This Catch the Ace lottery is conducted and managed by %(organisation)s%(registration)s, "
                    "under lottery licence %(licence)s issued by %(authority)s. The licence is in force until "
                    "%(expires)s; the prize board is %(prize_board)s."
                )
                % {
                    "organisation": organisation.name,
                    "registration": registration,
                    "licence": licence.number,
                    "authority": licence.authority_name,
                    "expires": day(terms.expires_on),
                    "prize_board": money(terms.prize_board),
                },
                (  # R:R4 the authority's approval, recorded before the first sale
                    _("These Rules of Play were approved by %(authority)s on %(day)s (reference %(reference)s).")
                    % {
                        "authority": licence.authority_name,
                        "day": day(event.rules_approved_on),
                        "reference": event.rules_approval_reference,
                    }
                    if event.rules_approved_on
                    else _("These Rules of Play await the approval of %(authority)s; no ticket is sold before it.")
                    % {"authority": licence.authority_name}
                ),
                _("Players must be 18 years of age or older."),
            ],
        )
    )

    channel = str(terms.channel_label).lower()
    ticket_items = [
        ngettext("%(count)s ticket for %(price)s", "%(count)s tickets for %(price)s", t.quantity)
        % {"count": t.quantity, "price": money(t.price)}
        for t in tiers
    ]
    ticket_text = [_("Tickets are sold as %(channel)s. Prices:") % {"channel": channel}]
    if event.is_bingo:  # R:T12
        ticket_text = [
            _("This is a bingo revenue model event: stub tickets only, sold only inside %(place)s. Prices:")
            % {"place": draw_place}
        ]
    sections.append(
        Section(
            _("Tickets and prices"),
            ticket_text,
            ticket_items
            + [
                _(
                    "A ticket is eligible only for the draw it was bought for; tickets do not carry over to later "
                    "draws."
                ),
            ]
            + purchase_limits_text(event),
        )
    )

    sections.append(
        Section(
            _("The draws"),
            [
                (
                    ngettext(
                        "Draws are held every %(count)s day at %(place)s, starting %(first)s.",
                        "Draws are held every %(count)s days at %(place)s, starting %(first)s.",
                        event.draw_interval_days,
                    )
                    if draw_place
                    else ngettext(
                        "Draws are held every %(count)s day, starting %(first)s.",
                        "Draws are held every %(count)s days, starting %(first)s.",
                        event.draw_interval_days,
                    )
                )
                % {"count": event.draw_interval_days, "place": draw_place, "first": when(event.first_draw_at)}
                + " "
                + _(
                    "Ticket sales for a draw close before that draw. The ticket sales, the draw prize and the "
                    "progressive jackpot are announced immediately before each draw. The winner need not be present."
                ),
                postponement_text(licence.authority_name, draw_place),
                _("The draw schedule (until the ace is found or the licence expires):"),
            ],
            [
                _("Draw %(number)s: %(when)s") % {"number": n, "when": when(at)}
                for n, at in enumerate(schedule, start=1)
            ],
        )
    )

    rounding = _("down to the cent") if event.rounding == Rounding.CENT else _("down to the whole dollar")
    sections.append(
        Section(
            _("The prizes"),
            [  # R:P1
                _(
                    "Each draw's ticket sales are split: %(draw_prize)s%% to the draw prize, %(jackpot)s%% to the "
                    "progressive jackpot and %(licensee)s%% to %(organisation)s. The draw prize and the jackpot "
                    "share are rounded %(rounding)s; the licensee's share is what remains, so the three always add "
                    "up to the sales exactly."
                )
                % {
                    "draw_prize": DRAW_PRIZE_PERCENT,
                    "jackpot": JACKPOT_PERCENT,
                    "licensee": LICENSEE_PERCENT,
                    "organisation": organisation.name,
                    "rounding": rounding,
                },
                _(
                    "The winning ticket's holder wins the draw prize and chooses a sealed envelope. If it holds the "
                    "Ace of Spades, the holder also wins the progressive jackpot and the lottery ends. Otherwise the "
                    "card is destroyed in front of witnesses and the jackpot rolls over to the next draw."
                ),
                _(
                    "There are no early-bird or consolation prizes. Prizes are paid in Canadian funds by cheque or "
                    "electronic transfer."
                ),  # R:P2 R:P3
                *seed_text(event),
            ],
        )
    )

    if roll:
        choose = _(
            "The winning ticket's holder chooses the envelope at the draw (or, if absent, when claiming the prize)."
        )
    else:  # R:T9
        choose = _(
            "Each stub or electronic ticket carries the purchaser's name, contact and the envelope "
            "number the purchaser picked when buying it; that envelope is opened if the ticket wins."
        )
    # R:T9 the same sentence the wizard shows and the service keeps (raffle.envelope_taken)
    taken = opened_envelope_sentence(event, picked_on_ticket=licence.sales_channel != SalesChannel.PAPER_ROLL)
    sections.append(
        Section(
            _("Choosing the envelope"),
            [
                _(
                    "The 52 cards of a standard deck are sealed in identical numbered envelopes, displayed at every "
                    "draw."
                ),
                choose,
                taken,
            ],
        )
    )

    days = event.claim_period_days
    claim = [
        ngettext(
            "A winner has %(count)s day after the draw to claim the prize.",
            "A winner has %(count)s days after the draw to claim the prize.",
            days,
        )
        % {"count": days}
    ]
    if roll:  # R:T8 the claim procedure the draw machine keeps (raffle.services.winner)
        claim += [
            _(
                "Roll tickets carry no name, and their holder need not be at the draw. If nobody at the draw "
                "holds the winning roll ticket, the draw waits for its holder: no envelope is opened for them."
            ),
            ngettext(
                "The holder has %(count)s day from the moment the ticket is drawn to come forward with it. Their "
                "name, the identification they show and who checked it are recorded, and they choose the envelope "
                "then.",
                "The holder has %(count)s days from the moment the ticket is drawn to come forward with it. Their "
                "name, the identification they show and who checked it are recorded, and they choose the envelope "
                "then.",
                days,
            )
            % {"count": days},
            ngettext(
                "If nobody comes forward within that %(count)s day, another ticket of the same draw is drawn, and "
                "its holder has the same %(count)s day. Every ticket drawn is recorded. Once an envelope is chosen, "
                "no other ticket is drawn.",
                "If nobody comes forward within those %(count)s days, another ticket of the same draw is drawn, and "
                "its holder has the same %(count)s days. Every ticket drawn is recorded. Once an envelope is "
                "chosen, no other ticket is drawn.",
                days,
            )
            % {"count": days},
            _("While a draw waits for its holder, the next draw is not held."),
        ]
    claim.append(event.unclaimed_prize_policy)  # R:P5 the licensee's own words, as approved
    sections.append(Section(_("Claiming prizes and unclaimed prizes"), claim))

    if paper:  # R:D4
        recording = _(
            "Every draw is video recorded (at least 720p, well lit, unobstructed): the selection of "
            "the winning ticket, the envelope, the card reveal and the destruction of the card. "
            "Recordings are kept at least 30 days after the draw."
        )
    else:
        recording = _(
            "The winning ticket's number, the envelope and the card of every draw are logged. The draw is "
            "video recorded and the recording kept at least 30 days."
        )
    sections.append(Section(_("Draws are recorded"), [recording]))
    if terms.sales_channel not in SalesChannel.paper() or not paper:
        sections.append(Section(_("The electronic raffle system"), electronic_system_text(licence, paper_deck=paper)))

    payout = event.must_go_payout
    exit_text = [
        _(
            "If the lottery must end before the Ace of Spades is found (the last scheduled draw, the licence's "
            "expiry, or the prizes reaching the prize board), the final draw is a must-go draw: winning tickets "
            "keep being drawn and envelopes opened until the Ace of Spades is revealed, and every re-draw is "
            "recorded."
        ),
    ]
    if event.last_draw_number:  # R:P7 a fixed last draw
        exit_text.append(
            _(
                "Draw %(number)s is the last draw of this lottery: it is the must-go final draw, and no draw is "
                "held after it."
            )
            % {"number": event.last_draw_number}
        )
    if payout:  # R:P7
        exit_text.append(f"{MustGoPayout(payout).label}.")
        exit_text.append(
            _(
                "If every valid ticket of the final draw has been drawn before the Ace of Spades is found, the "
                "lowest-numbered sealed envelopes are opened one at a time, in order, until the Ace of Spades is "
                "revealed. No ticket found it, so the jackpot is then shared equally by the holders of all the "
                "tickets drawn in the final draw, and %(draw_prize)s."
            )
            % {"draw_prize": RUN_OUT_DRAW_PRIZE[MustGoPayout(payout)]}
        )
        exit_text.append(
            _(
                "Shares are to the cent; the cents left over go one each to the tickets drawn first. Each holder is "
                "paid their own share, by their own cheque or transfer."
            )
        )
    else:
        exit_text.append(
            _("NOT YET STATED: how the holders of the final draw are paid. Choose it before the first sale.")
        )
    sections.append(Section(_("Exit strategy: the must-go final draw"), exit_text))

    sections.append(
        Section(
            _("Help with gambling"),
            [  # R:T10
                _(
                    "If you or someone you know has a problem with gambling, call %(helpline)s: free, confidential, "
                    "24 hours a day."
                )
                % {"helpline": HELPLINE},
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
