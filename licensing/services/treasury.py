"""Writes of the treasury: the trust account and its signing officers,
deposits, approved uses of net proceeds and spending (RULES L9-L12).

Each service validates, locks what it changes, writes and appends to the audit
trail in one transaction. Links from deposits to draws are written by
`raffle.services.treasury` (licensing never imports raffle).
"""

import datetime
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext

from core.audit import audit_record
from core.money import Rounding, parse_amount, percent_of
from licensing.errors import LicensingError
from licensing.models import (
    ApprovedUse,
    BonaFideMember,
    Deposit,
    DonatedPrize,
    Expense,
    ExpenseCategory,
    ExpenseKind,
    Licence,
    PaymentMethod,
    TrustAccount,
)
from licensing.services.members import check_member_may_act
from licensing.services.trust_guard import check_spending

MIN_SIGNING_OFFICERS = 2  # R:L12


def licence_fee(*, prize_board: Decimal, rate_percent: Decimal) -> Decimal:
    """R:L9 the fee of a period: the rate times the prize board that period
    created. Rounded DOWN to the cent by `core.money` (1% of $1,007.50 is
    $10.075, so the fee is $10.07): the regulator's rate is a ceiling, and a
    fee rounded up would charge more than the rate allows."""
    return percent_of(prize_board, rate_percent, rounding=Rounding.CENT)


def _officers(licence: Licence, members) -> list[BonaFideMember]:
    ids = {getattr(m, "pk", m) for m in members or []}
    found = list(BonaFideMember.objects.filter(pk__in=ids).select_related("user"))
    if len(found) != len(ids):
        raise LicensingError(gettext("One of the signing officers is not a recorded bona fide member."))
    for member in found:
        if member.organisation_id != licence.organisation_id or not member.is_active:  # R:L12
            raise LicensingError(
                gettext(
                    "%(full_name)s is not an active bona fide member of %(organisation)s; only they may sign "
                    "for the trust account."
                )
                % {"full_name": member.full_name, "organisation": licence.organisation},
                rule="L12",
            )
        check_member_may_act(member, role=gettext("sign for the lottery trust account"))  # R:L13
    if len({m.user_id for m in found}) < MIN_SIGNING_OFFICERS:  # R:L12
        raise LicensingError(
            gettext("The lottery trust account needs at least two different bona fide members as signing officers."),
            rule="L12",
        )
    return found


@transaction.atomic
def trust_account_open(
    *,
    actor,
    licence: Licence,
    bank_name: str,
    account_number: str,
    opened_on: datetime.date,
    signing_officers,
    branch: str = "",
    deposit_within_days: int = 3,
) -> TrustAccount:
    """R:L10 record the event's separate lottery trust account."""
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    if TrustAccount.objects.filter(licence=licence).exists():
        raise LicensingError(
            gettext(
                "Licence %(number)s already has its lottery trust account; one account holds all of the event's funds."
            )
            % {"number": licence.number},
            rule="L10",
        )
    if not (bank_name or "").strip() or not (account_number or "").strip():
        raise LicensingError(gettext("Give the bank and the account number of the trust account."))
    if deposit_within_days < 0 or deposit_within_days > 30:
        raise LicensingError(gettext("Deposits are due within 0 to 30 days of the draw."))
    officers = _officers(licence, signing_officers)
    account = TrustAccount.objects.create(
        licence=licence,
        bank_name=bank_name.strip(),
        branch=(branch or "").strip(),
        account_number=account_number.strip(),
        opened_on=opened_on,
        deposit_within_days=deposit_within_days,
    )
    account.signing_officers.set(officers)
    audit_record(
        actor=actor,
        action="licensing.trust_account.open",
        obj=account,
        data={
            "licence": licence.number,
            "bank": account.bank_name,
            "account_number": account.account_number,
            "signing_officers": sorted(m.full_name for m in officers),
        },
    )
    return account


@transaction.atomic
def trust_account_set_officers(*, actor, account: TrustAccount, signing_officers) -> TrustAccount:
    account = TrustAccount.objects.select_for_update().select_related("licence").get(pk=account.pk)
    officers = _officers(account.licence, signing_officers)
    before = sorted(account.signing_officers.values_list("full_name", flat=True))
    account.signing_officers.set(officers)
    audit_record(
        actor=actor,
        action="licensing.trust_account.set_officers",
        obj=account,
        data={"before": before, "after": sorted(m.full_name for m in officers)},
    )
    return account


@transaction.atomic
def deposit_record(
    *,
    actor,
    account: TrustAccount,
    slip_number: str,
    deposited_on: datetime.date,
    amount,
    slip_scan=None,
    note: str = "",
) -> Deposit:
    """R:L12 a deposit of lottery money into the trust account. Which draws it
    covers is recorded with `raffle.services.deposit_cover_draws`."""
    account = TrustAccount.objects.select_for_update().get(pk=account.pk)
    slip_number = (slip_number or "").strip()
    if not slip_number:
        raise LicensingError(gettext("Give the deposit slip's number."))
    if Deposit.objects.filter(account=account, slip_number=slip_number).exists():
        raise LicensingError(
            gettext("Deposit slip %(slip_number)s is already recorded.") % {"slip_number": slip_number}
        )
    amount = parse_amount(amount, what=gettext("The deposit"), allow_zero=False)
    if deposited_on < account.opened_on:
        raise LicensingError(
            gettext("The trust account was opened on %(opened_on)s; a deposit cannot be earlier.")
            % {"opened_on": format(account.opened_on, "%Y-%m-%d")}
        )
    deposit = Deposit(
        account=account,
        slip_number=slip_number,
        deposited_on=deposited_on,
        amount=amount,
        note=(note or "").strip()[:200],
        recorded_by=actor,
    )
    if slip_scan:
        deposit.slip_scan = slip_scan
    deposit.save()
    audit_record(
        actor=actor,
        action="licensing.deposit.record",
        obj=deposit,
        data={
            "slip_number": slip_number,
            "deposited_on": deposited_on,
            "amount": amount,
            "slip_scan": deposit.slip_scan.name if deposit.slip_scan else "",
        },
    )
    return deposit


@transaction.atomic
def approved_use_add(
    *,
    actor,
    licence: Licence,
    description: str,
    approved_on: datetime.date,
    is_amendment: bool = False,
    approval_reference: str = "",
    approval_document=None,
) -> ApprovedUse:
    """R:L11 a use of net proceeds: listed on the licence, or an amendment
    that records the written approval and its date."""
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    description = (description or "").strip()
    if not description:
        raise LicensingError(gettext("Describe the approved use, as the licence or the approval words it."))
    if ApprovedUse.objects.filter(licence=licence, description__iexact=description).exists():
        raise LicensingError(
            gettext("“%(description)s” is already an approved use of licence %(number)s.")
            % {"description": description, "number": licence.number}
        )
    approval_reference = (approval_reference or "").strip()
    if is_amendment and not approval_reference:  # R:L11
        raise LicensingError(
            gettext(
                "A new use of net proceeds needs the regulator's written approval: give the reference of "
                "the approval letter or e-mail."
            ),
            rule="L11",
        )
    use = ApprovedUse(
        licence=licence,
        description=description,
        approved_on=approved_on,
        is_amendment=is_amendment,
        approval_reference=approval_reference[:120],
        recorded_by=actor,
    )
    if approval_document:
        use.approval_document = approval_document
    use.save()
    audit_record(
        actor=actor,
        action="licensing.approved_use.add",
        obj=use,
        data={
            "licence": licence.number,
            "description": description,
            "approved_on": approved_on,
            "is_amendment": is_amendment,
            "approval_reference": use.approval_reference,
        },
    )
    return use


@transaction.atomic
def expense_record(
    *,
    actor,
    licence: Licence,
    kind: str,
    paid_on: datetime.date,
    amount,
    payee: str,
    description: str,
    reference: str,
    method: str = PaymentMethod.CHEQUE,
    approved_use: ApprovedUse | None = None,
    category: str = ExpenseCategory.OTHER,
    cheque_image=None,
    fee_period: int | None = None,
) -> Expense:
    """Money out of the trust account that is not a prize. Withdrawals are by
    cheque (L12); spending net proceeds needs a use approved before the money
    is spent (L11); no cheque may leave less than the jackpot and the unpaid
    prizes in the account (L10). Fees the bank or a supplier deducts
    themselves are recorded with `deduction_record`."""
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    if kind not in ExpenseKind.values:
        raise LicensingError(gettext("Say whether this is an expense of the lottery or a use of net proceeds."))
    amount = parse_amount(amount, what=gettext("The amount"), allow_zero=False)
    if not (payee or "").strip() or not (description or "").strip():
        raise LicensingError(gettext("Give the payee and what the money was for."))
    if not (reference or "").strip():
        raise LicensingError(
            gettext("Give the cheque number (withdrawals from the trust account are by cheque)."), rule="L12"
        )
    if method != PaymentMethod.CHEQUE:  # R:L12
        raise LicensingError(
            gettext(
                "Withdrawals from the lottery trust account are by cheque only. A bank charge or a fee the "
                "supplier deducted is recorded as a deduction, with the statement that shows it."
            ),
            rule="L12",
        )
    if category not in ExpenseCategory.values:
        raise LicensingError(gettext("Choose the kind of expense (licence fee, advertising, printing, ...)."))
    if kind == ExpenseKind.PROCEEDS_USE:
        if approved_use is None:  # R:L11
            raise LicensingError(
                gettext(
                    "Net proceeds may only be spent on an approved use: choose one, or record the written "
                    "approval of a new use first."
                ),
                rule="L11",
            )
        approved_use = ApprovedUse.objects.filter(pk=approved_use.pk, licence=licence).first()
        if approved_use is None:  # R:L11
            raise LicensingError(
                gettext("That use is not approved for licence %(number)s.") % {"number": licence.number}, rule="L11"
            )
        if approved_use.approved_on > paid_on:  # R:L11
            raise LicensingError(
                gettext(
                    "“%(description)s” was approved on %(approved_on)s, after this payment (%(paid_on)s); "
                    "money may not be spent on a use before its written approval."
                )
                % {
                    "description": approved_use.description,
                    "approved_on": format(approved_use.approved_on, "%Y-%m-%d"),
                    "paid_on": format(paid_on, "%Y-%m-%d"),
                },
                rule="L11",
            )
    elif approved_use is not None:
        raise LicensingError(
            gettext(
                "An expense of the lottery is not a use of net proceeds; leave the approved use empty or "
                "record it as a use of net proceeds."
            )
        )
    if fee_period is not None and category != ExpenseCategory.LICENCE_FEE:
        raise LicensingError(gettext("Only a licence fee pays a four-draw period; choose the licence fee category."))
    check_spending(licence, amount)  # R:L10
    expense = Expense(
        licence=licence,
        kind=kind,
        category=category if kind == ExpenseKind.EXPENSE else ExpenseCategory.OTHER,
        approved_use=approved_use,
        paid_on=paid_on,
        amount=amount,
        payee=payee.strip()[:150],
        description=description.strip()[:200],
        method=method,
        reference=reference.strip()[:60],
        fee_period=fee_period,
        recorded_by=actor,
    )
    if cheque_image:
        expense.cheque_image = cheque_image
    expense.save()
    audit_record(
        actor=actor,
        action="licensing.expense.record",
        obj=expense,
        data={
            "kind": kind,
            "category": expense.category,
            "fee_period": fee_period,
            "amount": amount,
            "paid_on": paid_on,
            "payee": expense.payee,
            "approved_use": approved_use.description if approved_use else "",
            "reference": expense.reference,
        },
    )
    return expense


@transaction.atomic
def donated_prize_record(
    *, actor, licence: Licence, description: str, donor: str, value, received_on: datetime.date
) -> DonatedPrize:
    """R:R2 a donated prize, shown in the final report and not deducted from gross receipts."""
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    if not (description or "").strip() or not (donor or "").strip():
        raise LicensingError(gettext("Describe the donated prize and name its donor."))
    value = parse_amount(value, what=gettext("The prize's value"), allow_zero=False)
    prize = DonatedPrize.objects.create(
        licence=licence,
        description=description.strip()[:200],
        donor=donor.strip()[:150],
        value=value,
        received_on=received_on,
        recorded_by=actor,
    )
    audit_record(
        actor=actor,
        action="licensing.donated_prize.record",
        obj=prize,
        data={"description": prize.description, "donor": prize.donor, "value": value},
    )
    return prize
