"""Read-only admin views of the treasury records, for auditors browsing the
records. Every write goes through the treasurer's pages and their services."""

from django.contrib import admin

from core.admin import ScopedAdminMixin
from licensing.models import ApprovedUse, Deposit, DonatedPrize, Expense, IssuedReport, TrustAccount
from raffle.models import ContactAttempt, DepositCoverage, PrizePayment, UnclaimedPrize


class ReadOnlyAdmin(ScopedAdminMixin, admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(TrustAccount)
class TrustAccountAdmin(ReadOnlyAdmin):
    list_display = ["licence", "bank_name", "account_number", "opened_on", "deposit_within_days"]


@admin.register(Deposit)
class DepositAdmin(ReadOnlyAdmin):
    list_display = ["slip_number", "account", "deposited_on", "amount", "recorded_by"]
    list_filter = ["account__licence"]
    search_fields = ["slip_number"]


@admin.register(DepositCoverage)
class DepositCoverageAdmin(ReadOnlyAdmin):
    list_display = ["deposit", "draw", "amount"]


@admin.register(ApprovedUse)
class ApprovedUseAdmin(ReadOnlyAdmin):
    list_display = ["description", "licence", "approved_on", "is_amendment", "approval_reference"]


@admin.register(Expense)
class ExpenseAdmin(ReadOnlyAdmin):
    list_display = ["paid_on", "licence", "kind", "payee", "description", "reference", "amount"]
    list_filter = ["kind", "licence"]


@admin.register(DonatedPrize)
class DonatedPrizeAdmin(ReadOnlyAdmin):
    list_display = ["description", "donor", "value", "received_on", "licence"]


@admin.register(IssuedReport)
class IssuedReportAdmin(ReadOnlyAdmin):
    list_display = ["licence", "kind", "period", "file_format", "generated_at", "generated_by", "sha256"]
    list_filter = ["kind", "licence"]


@admin.register(PrizePayment)
class PrizePaymentAdmin(ReadOnlyAdmin):
    list_display = ["draw", "kind", "amount", "method", "reference", "paid_on", "payee"]


@admin.register(UnclaimedPrize)
class UnclaimedPrizeAdmin(ReadOnlyAdmin):
    list_display = ["draw", "kind", "amount", "unclaimed_since", "hold_until", "added_to_proceeds_on"]


@admin.register(ContactAttempt)
class ContactAttemptAdmin(ReadOnlyAdmin):
    list_display = ["prize", "attempted_on", "means", "outcome", "made_by"]
