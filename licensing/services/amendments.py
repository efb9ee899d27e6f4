"""Amending a granted licence's figures (RULES L2, L3, L5, L8).

One request service for every figure (prize board, draw schedule and sales
plan, dates, draw place, channel) and one approval. A request is the written
change on the organisation's letterhead signed by the Licence Application
signers, with the notice its authority needs; nothing changes before approval,
and the new figure holds from the effective date (`licensing.terms`).
"""

import datetime
from collections.abc import Callable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from core.audit import audit_record
from core.money import format_money, format_money_here, parse_amount
from licensing.errors import LicensingError
from licensing.models import (
    NOTICE_DAYS_BY_AUTHORITY,
    AmendedDraw,
    AmendmentKind,
    AmendmentStatus,
    Application,
    AuthorityKind,
    Licence,
    LicenceAmendment,
    LicenceStatus,
    SafetyPlan,
    SalesChannel,
)
from licensing.services.applications import sales_plan_parse
from licensing.services.licences import check_authority_allows, check_not_expired
from licensing.terms import licence_expires_on, licence_in_force_on, licence_terms_on

# What follows an approved amendment outside licensing (the draws' dates,
# which licensing cannot see: licensing never imports raffle). The raffle app
# registers its function when it starts (`raffle.apps.RaffleConfig.ready`).
_followers: list[Callable] = []


def register_amendment_follower(follower: Callable) -> None:
    """`follower(actor=..., amendment=...)` runs in the approval's transaction;
    a domain error it raises refuses the approval, and nothing changes."""
    if follower not in _followers:
        _followers.append(follower)


def _check_amendable(licence: Licence, today: datetime.date) -> None:
    check_not_expired(licence, today)  # R:L8
    if licence.status != LicenceStatus.ACTIVE:
        raise LicensingError(
            gettext("Licence %(number)s is %(lower)s; only a licence in force can be amended.")
            % {"number": licence.number, "lower": licence.get_status_display().lower()}
        )


def _check_channel(licence: Licence, from_channel: str, to_channel: str) -> None:
    if to_channel == SalesChannel.ONLINE:  # R:L5
        raise LicensingError(
            gettext(
                "Online sales must be chosen before the event and used for every draw; a licence cannot be "
                "amended to online sales. Keep selling on paper (an AGCO licence may move to electronic "
                "in-person sales)."
            ),
            rule="L5",
        )
    if from_channel not in SalesChannel.paper() or to_channel != SalesChannel.ELECTRONIC:  # R:L5
        raise LicensingError(
            gettext(
                "The only amendment allowed is from paper to electronic in-person sales; this licence sells %(lower)s."
            )
            % {"lower": SalesChannel(from_channel).label.lower()},
            rule="L5",
        )
    if licence.authority_kind != AuthorityKind.AGCO:  # R:L5
        raise LicensingError(
            gettext(
                "Licence %(number)s was issued by %(authority_name)s; a municipal or First Nation licence "
                "cannot be amended to electronic sales. Electronic raffles need an AGCO licence."
            )
            % {"number": licence.number, "authority_name": licence.authority_name},
            rule="L5",
        )


def _check_notice(licence: Licence, notice_given_on, effective_on, today) -> None:
    if notice_given_on > today:
        raise LicensingError(gettext("The written notice cannot be dated in the future; record it once it is sent."))
    if effective_on <= today:  # R:L5 later draws only
        raise LicensingError(gettext("The amendment applies to later draws only: choose a day after today."), rule="L5")
    days = NOTICE_DAYS_BY_AUTHORITY.get(licence.authority_kind, 1)
    if (effective_on - notice_given_on).days < days:  # R:L5
        earliest = notice_given_on + datetime.timedelta(days=days)
        raise LicensingError(
            gettext(
                "%(authority_name)s needs %(value)s' written notice: with notice given on "
                "%(notice_given_on)s the change can take effect on %(earliest)s at the earliest."
            )
            % {
                "authority_name": licence.authority_name,
                "value": gettext("two weeks")
                if days == 14
                else ngettext("%(days)s day", "%(days)s days", days) % {"days": days},
                "notice_given_on": format(notice_given_on, "%Y-%m-%d"),
                "earliest": format(earliest, "%Y-%m-%d"),
            },
            rule="L5",
        )
    if not licence_in_force_on(licence, effective_on):  # R:L8 the expiry in force, amendments included
        raise LicensingError(
            gettext("The licence expires on %(licence_expires_on)s, before the change would take effect.")
            % {"licence_expires_on": format(licence_expires_on(licence, effective_on), "%Y-%m-%d")}
        )


def _check_written_request(licence: Licence, signed_by: list[str], letterhead, letterhead_note: str) -> list[str]:
    """The guide: changes to a submitted package are made in writing on the
    organisation's letterhead, signed by the Licence Application signers."""
    names = [name.strip() for name in signed_by or [] if name and name.strip()]
    if not letterhead and not (letterhead_note or "").strip():
        raise LicensingError(
            gettext(
                "Attach the signed request on the organisation's letterhead, or say where the signed letter is kept."
            )
        )
    application = Application.objects.filter(licence=licence).first()
    required = [signer.name for signer in application.signers.all()] if application else []
    missing = [name for name in required if name not in names]
    if missing:
        raise LicensingError(
            gettext("The written request must be signed by every Licence Application signer; missing: %(names)s.")
            % {"names": ", ".join(missing)}
        )
    if not names:
        raise LicensingError(gettext("Name who signed the written request (the Licence Application signers)."))
    return names


@transaction.atomic
def licence_amend(
    *,
    actor,
    licence: Licence,
    kind: str,
    notice_given_on: datetime.date,
    effective_on: datetime.date,
    signed_by: list[str],
    letterhead=None,
    letterhead_note: str = "",
    to_channel: str = "",
    new_prize_board=None,
    new_expires_on: datetime.date | None = None,
    new_draw_place: str = "",
    schedule=None,
    safety_plan: SafetyPlan | None = None,
    today: datetime.date | None = None,
) -> LicenceAmendment:
    """Request an amendment of one figure of a granted licence. Nothing
    changes until `licence_amendment_approve`."""
    today = today or timezone.localdate()
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    _check_amendable(licence, today)
    if kind not in AmendmentKind.values:
        raise LicensingError(gettext("Choose which figure of the licence the amendment changes."))
    terms = licence_terms_on(licence, effective_on)
    fields, draws = {}, []
    if kind == AmendmentKind.CHANNEL:
        _check_channel(licence, terms.sales_channel, to_channel)  # the channel in force then (an earlier one counts)
        fields = {"from_channel": terms.sales_channel, "to_channel": to_channel}
    elif kind == AmendmentKind.PRIZE_BOARD:
        board = parse_amount(new_prize_board, what=gettext("The new prize board"), allow_zero=False)
        check_authority_allows(  # R:L2
            authority_kind=licence.authority_kind, sales_channel=terms.sales_channel, prize_board=board
        )
        if board == terms.prize_board:
            raise LicensingError(
                gettext("The prize board is already %(format_money)s.") % {"format_money": format_money_here(board)}
            )
        fields = {"new_prize_board": board, "from_value": format_money(terms.prize_board)}
    elif kind == AmendmentKind.SCHEDULE:
        draws, _ = sales_plan_parse(schedule, terms.prize_board)
        if not licence_in_force_on(licence, draws[-1][0]):  # R:L8
            raise LicensingError(
                gettext(
                    "The amended schedule's last draw (%(draws)s) is after the licence expires "
                    "(%(licence_expires_on)s); amend the dates too, or plan fewer draws."
                )
                % {
                    "draws": format(draws[-1][0], "%Y-%m-%d"),
                    "licence_expires_on": format(licence_expires_on(licence, draws[-1][0]), "%Y-%m-%d"),
                }
            )
        fields = {"from_value": "the application's plan" if terms.schedule is None else "the amended plan"}
    elif kind == AmendmentKind.DATES:
        if not isinstance(new_expires_on, datetime.date) or new_expires_on <= max(today, licence.issued_on):
            raise LicensingError(gettext("Give the new expiry date; it must be after today."))
        if new_expires_on == terms.expires_on:
            raise LicensingError(
                gettext("The licence already expires on %(new_expires_on)s.")
                % {"new_expires_on": format(new_expires_on, "%Y-%m-%d")}
            )
        if new_expires_on < effective_on:  # the licence is in force when its new dates take effect
            raise LicensingError(
                gettext(
                    "The new expiry (%(new_expires_on)s) comes before the day the change takes effect "
                    "(%(effective_on)s); choose an earlier effective day."
                )
                % {
                    "new_expires_on": format(new_expires_on, "%Y-%m-%d"),
                    "effective_on": format(effective_on, "%Y-%m-%d"),
                }
            )
        fields = {"new_expires_on": new_expires_on, "from_value": f"{terms.expires_on:%Y-%m-%d}"}
    elif kind == AmendmentKind.DRAW_PLACE:
        new_draw_place = (new_draw_place or "").strip()
        if not new_draw_place:
            raise LicensingError(gettext("Give the new draw place: the hall's name and address."))
        fields = {"new_draw_place": new_draw_place, "from_value": terms.draw_place or ""}
    _check_notice(licence, notice_given_on, effective_on, today)
    names = _check_written_request(licence, signed_by, letterhead, letterhead_note)
    if licence.amendments.filter(status=AmendmentStatus.REQUESTED, kind=kind).exists():
        raise LicensingError(
            gettext("An amendment of this licence's %(lower)s is already awaiting approval.")
            % {"lower": AmendmentKind(kind).label.lower()}
        )
    amendment = LicenceAmendment(
        licence=licence,
        kind=kind,
        notice_given_on=notice_given_on,
        effective_on=effective_on,
        letterhead_note=(letterhead_note or "").strip(),
        signed_by=names,
        # The plan's version goes with the request: the one given, else the latest.
        safety_plan=safety_plan or SafetyPlan.objects.filter(organisation_id=licence.organisation_id).first(),
        requested_by=actor if actor is not None and actor.is_authenticated else None,
        **fields,
    )
    if letterhead:
        amendment.letterhead = letterhead
    amendment.save()
    AmendedDraw.objects.bulk_create(
        [AmendedDraw(amendment=amendment, number=n, draw_on=d, max_sales=s) for n, (d, s) in enumerate(draws, 1)]
    )
    audit_record(
        actor=actor,
        action="licensing.licence.amend_request",
        obj=licence,
        data={
            "kind": kind,
            **{key: value for key, value in fields.items() if value not in ("", None)},
            "draws": [[d, s] for d, s in draws],
            "notice_given_on": notice_given_on,
            "effective_on": effective_on,
            "signed_by": names,
            "safety_plan_version": amendment.safety_plan.version if amendment.safety_plan else None,
        },
    )
    return amendment


def licence_amend_channel(*, actor, licence: Licence, to_channel: str, **kwargs) -> LicenceAmendment:
    """Request the one channel change the rules allow (L5): an AGCO paper
    licence to electronic in-person sales, for later draws."""
    return licence_amend(actor=actor, licence=licence, kind=AmendmentKind.CHANNEL, to_channel=to_channel, **kwargs)


@transaction.atomic
def licence_amendment_approve(
    *,
    actor,
    amendment: LicenceAmendment,
    approved_on: datetime.date,
    reference: str = "",
    today: datetime.date | None = None,
) -> LicenceAmendment:
    """Record the authority's written approval. The new figure holds from the
    amendment's effective day (`licensing.terms`), the channel too: the
    licence keeps its figures as granted."""
    today = today or timezone.localdate()
    amendment = LicenceAmendment.objects.select_for_update().get(pk=amendment.pk)
    licence = Licence.objects.select_for_update().get(pk=amendment.licence_id)
    _check_amendable(licence, today)
    if amendment.status != AmendmentStatus.REQUESTED:
        raise LicensingError(gettext("This amendment was already approved."))
    if approved_on > amendment.effective_on or approved_on < amendment.notice_given_on:
        raise LicensingError(
            gettext(
                "The approval must fall between the notice (%(notice_given_on)s) and the effective day "
                "(%(effective_on)s); after that, request a new effective day."
            )
            % {
                "notice_given_on": format(amendment.notice_given_on, "%Y-%m-%d"),
                "effective_on": format(amendment.effective_on, "%Y-%m-%d"),
            },
            rule="L5",
        )
    amendment.status = AmendmentStatus.APPROVED
    amendment.approved_on = approved_on
    amendment.approval_reference = (reference or "").strip()
    amendment.save(update_fields=["status", "approved_on", "approval_reference"])
    for follower in _followers:
        follower(actor=actor, amendment=amendment)
    audit_record(
        actor=actor,
        action="licensing.licence.amend_approve",
        obj=licence,
        data={
            "kind": amendment.kind,
            "new": amendment.new_value,
            "approved_on": approved_on,
            "reference": amendment.approval_reference,
            "effective_on": amendment.effective_on,
        },
    )
    return amendment
