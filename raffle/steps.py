"""Which service runs the next step of a draw, given the draw's state and the
parsed form. Shared by the admin's draw page and the staff pages, so both
perform a step exactly the same way."""

from licensing.models import BonaFideMember
from raffle import services
from raffle.forms import (
    STEP_FORMS,
    ConfirmForm,
    DestructionForm,
    ImportedCloseSalesForm,
    PaperCloseSalesForm,
    PaperMustGoRedrawForm,
    PaperWinningTicketForm,
    RngMustGoRedrawForm,
    RngWinningTicketForm,
    SupplierWinningTicketForm,
    WinningTicketForm,
)
from raffle.models import Draw, DrawState
from raffle.services.pool import draws_by_rng, draws_by_supplier, is_electronic_draw


def step_form_class(draw: Draw):
    if draw.state == DrawState.CARD_REVEALED:
        if draw.is_ace:
            return ConfirmForm
        if not draw.must_go:
            return DestructionForm
        return RngMustGoRedrawForm if draws_by_rng(draw) else PaperMustGoRedrawForm  # R:P7
    if draw.state == DrawState.SELLING:
        if draw.is_imported:
            return ImportedCloseSalesForm
        # R:D5 electronic sales close on the tickets sold or imported; paper counts its container.
        return STEP_FORMS[draw.state] if is_electronic_draw(draw) else PaperCloseSalesForm
    if draw.state == DrawState.ANNOUNCED:
        if draw.is_imported:
            return WinningTicketForm
        if draws_by_supplier(draw):
            return SupplierWinningTicketForm
        return RngWinningTicketForm if draws_by_rng(draw) else PaperWinningTicketForm
    return STEP_FORMS.get(draw.state)


def step_form(draw: Draw, data=None):
    form_class = step_form_class(draw)
    if form_class is None:
        return None
    if issubclass(form_class, DestructionForm):
        members = BonaFideMember.objects.filter(organisation_id=draw.event.licence.organisation_id, is_active=True)
        return form_class(data, members=members)
    return form_class(data)


def unclaimed_redraw_form(draw: Draw, data=None) -> PaperWinningTicketForm | None:
    """R:T8 the form of a re-draw after an unclaimed roll ticket: the serial
    drawn from the container typed twice, or nothing when the RNG draws."""
    return None if draws_by_rng(draw) else PaperWinningTicketForm(data)


def perform_unclaimed_redraw(*, actor, draw: Draw, cleaned: dict, expected_serial: str | None = None) -> str:
    selection = services.draw_redraw_unclaimed(
        actor=actor,
        draw=draw,
        serial=cleaned.get("serial", ""),
        serial_again=cleaned.get("serial_again"),
        expected_serial=expected_serial,
    )
    return (
        f"Draw {draw.number}: ticket {selection.ticket.serial} is drawn in place of the unclaimed one; "
        "the re-draw is logged."
    )


def perform_next_step(*, actor, draw: Draw, cleaned: dict) -> tuple[Draw, str]:
    """Run the service for the draw's next step; return the draw and what happened."""
    state = draw.state
    if state == DrawState.SCHEDULED:
        draw = services.draw_open_sales(actor=actor, draw=draw)
        return draw, f"Ticket sales are open for draw {draw.number}."
    if state == DrawState.SELLING:
        draw = services.draw_close_sales(
            actor=actor,
            draw=draw,
            ticket_sales=cleaned.get("ticket_sales") or None,
            container_count=cleaned.get("container_count"),
        )
        return draw, f"Sales closed at ${draw.ticket_sales:,.2f}."
    if state == DrawState.SALES_CLOSED:
        draw = services.draw_announce(actor=actor, draw=draw)
        return draw, "Announced."
    if state == DrawState.ANNOUNCED:
        draw = services.draw_record_winning_ticket(
            actor=actor,
            draw=draw,
            serial=cleaned.get("serial", ""),
            serial_again=cleaned.get("serial_again"),
            winner_name=cleaned.get("winner_name", ""),
            rng_reference=cleaned.get("rng_reference", ""),
        )
        holder = f" ({draw.winner_name})" if draw.winner_name else ""
        return draw, f"Winning ticket {draw.winning_serial}{holder}."
    if state == DrawState.TICKET_DRAWN:
        draw = services.draw_choose_envelope(
            actor=actor, draw=draw, envelope_number=cleaned.get("envelope_number") or None
        )
        return draw, f"Envelope {draw.envelope.number} chosen."
    if state == DrawState.ENVELOPE_CHOSEN:
        draw = services.draw_reveal_card(actor=actor, draw=draw, card=cleaned["card"])
        return draw, f"The card is the {draw.envelope.card_name}."
    if state == DrawState.CARD_REVEALED and draw.is_ace:
        draw = services.draw_award_jackpot(actor=actor, draw=draw)
        return draw, f"Jackpot of ${draw.jackpot_awarded:,.2f} awarded. The event is concluded."
    if state == DrawState.CARD_REVEALED and draw.must_go:  # R:P7
        draw = services.draw_must_go_redraw(
            actor=actor,
            draw=draw,
            destroyed_by=cleaned["destroyed_by"],
            verified_by=cleaned["verified_by"],
            destroyer_password=cleaned["destroyer_password"],
            verifier_password=cleaned["verifier_password"],
            serial=cleaned.get("serial", ""),
            serial_again=cleaned.get("serial_again"),
            winner_name=cleaned.get("winner_name", ""),
        )
        return draw, (
            f"Card destruction logged. Must-go final draw: ticket {draw.winning_serial} drawn; "
            "its holder chooses an envelope."
        )
    if state == DrawState.CARD_REVEALED:
        draw = services.draw_roll_over(
            actor=actor,
            draw=draw,
            destroyed_by=cleaned["destroyed_by"],
            verified_by=cleaned["verified_by"],
            destroyer_password=cleaned["destroyer_password"],
            verifier_password=cleaned["verifier_password"],
        )
        return draw, "Card destruction logged; the jackpot rolls over to the next draw."
    return draw, "This draw is closed."
