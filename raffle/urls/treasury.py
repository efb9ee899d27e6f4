"""The treasurer's pages, under /treasury/."""

from django.urls import path

from raffle.views import treasury as v
from raffle.views import trust_ledger as tl

urlpatterns = [
    path("", v.treasury_home, name="treasury_home"),
    path("<int:event_id>/", v.overview, name="treasury_overview"),
    path("<int:event_id>/deposits/", v.deposits, name="treasury_deposits"),
    path("<int:event_id>/deposits/account/", v.account_open, name="treasury_account_open"),
    path("<int:event_id>/deposits/officers/", v.account_officers, name="treasury_account_officers"),
    path("<int:event_id>/deposits/add/", v.deposit_add, name="treasury_deposit_add"),
    path("<int:event_id>/deposits/<int:deposit_id>/cover/", v.deposit_cover, name="treasury_deposit_cover"),
    path("<int:event_id>/deposits/<int:deposit_id>/slip/", v.deposit_slip, name="treasury_deposit_slip"),
    path("<int:event_id>/trust-ledger/", tl.trust_ledger, name="treasury_trust_ledger"),
    path("<int:event_id>/trust-ledger/deduction/", tl.deduction_add, name="treasury_deduction_add"),
    path("<int:event_id>/trust-ledger/interest/", tl.interest_add, name="treasury_interest_add"),
    path("<int:event_id>/trust-ledger/statement/", tl.statement_import, name="treasury_statement_import"),
    path("<int:event_id>/prizes/", v.prizes, name="treasury_prizes"),
    path("<int:event_id>/prizes/pay/", v.prize_pay, name="treasury_prize_pay"),
    path("<int:event_id>/prizes/unclaimed/", v.prize_unclaimed, name="treasury_prize_unclaimed"),
    path("<int:event_id>/prizes/<int:prize_id>/attempt/", v.prize_attempt, name="treasury_prize_attempt"),
    path("<int:event_id>/prizes/<int:prize_id>/proceeds/", v.prize_to_proceeds, name="treasury_prize_proceeds"),
    path("<int:event_id>/publications/", v.publications, name="treasury_publications"),
    path("<int:event_id>/publications/add/", v.publication_add, name="treasury_publication_add"),
    path("<int:event_id>/spending/", v.spending, name="treasury_spending"),
    path("<int:event_id>/spending/use/", v.use_add, name="treasury_use_add"),
    path("<int:event_id>/spending/expense/", v.expense_add, name="treasury_expense_add"),
    path("<int:event_id>/spending/donated/", v.donated_add, name="treasury_donated_add"),
    path(
        "<int:event_id>/reports/period/<int:period>.<str:file_format>",
        v.report_view,
        {"kind": "four_draw"},
        name="treasury_period_report",
    ),
    path(
        "<int:event_id>/reports/final.<str:file_format>", v.report_view, {"kind": "final"}, name="treasury_final_report"
    ),
    path("<int:event_id>/reports/issue/", v.report_issue, name="treasury_report_issue"),
    path("<int:event_id>/reports/issued/<int:report_id>/", v.issued_download, name="treasury_issued"),
    path("<int:event_id>/reports/issued/<int:report_id>/return/", v.report_return, name="treasury_report_return"),
    path("<int:event_id>/ledger.csv", v.ledger_download, name="treasury_ledger"),
    path("<int:event_id>/deadlines.ics", v.deadlines_feed, name="treasury_deadlines_ics"),
]
