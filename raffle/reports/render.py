"""The reports as files: PDF through `core.pdf.render_pdf` (letter, page
numbers, the licence number and organisation on every page) and CSV through
`core.csvsafe` (formulas neutralised).

CSV: one row per draw with named columns, then the totals as rows labelled
in the first column (the label is repeated in `draw_number`, where the first
exports put it)."""

from django.utils import timezone
from django.utils.translation import gettext

from core.audit import anchor_text
from core.csvsafe import csv_text
from core.pdf import render_pdf
from licensing.services import report_to_correct
from raffle.reports.builders import FinalReport, FourDrawReport, final_report, four_draw_report


def _footer(licence) -> str:
    return gettext("Licence %(number)s · %(organisation)s") % {
        "number": licence.number,
        "organisation": licence.organisation.name,
    }


def four_draw_pdf(report: FourDrawReport) -> bytes:
    return render_pdf("pdf/four_draw_report.html", {"r": report, "footer_left": _footer(report.licence)})


def final_pdf(report: FinalReport) -> bytes:
    return render_pdf("pdf/final_report.html", {"r": report, "footer_left": _footer(report.licence)})


DRAW_COLUMNS = [
    "licence",
    "organisation",
    "draw_number",
    "draw_date",
    "ticket_sales",
    "draw_prize",
    "jackpot_contribution",
    "licensee_share",
    "jackpot_after",
    "winning_ticket",
    "winner",
    "envelope",
    "card",
    "destroyed_by",
    "verified_by",
    "video_reference",
    "deposited",
    "reconciliation",
    "scheduled_at",
    "held_at",
    "tickets_sold",
    "voided_tickets",
    "voided_serials",
    "sales_by_price",
    "jackpot_before",
    "claimed_at",
    "must_go_shares",
    "postponed_to",
]


def _when(value) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if value else ""


def _draw_rows(report, reconciliation):
    recon = {line.draw.pk: line for line in reconciliation}
    for line in report.lines:
        d = line.draw
        r = recon.get(d.pk)
        yield [
            report.licence.number,
            report.licence.organisation.name,
            d.number,
            line.date.isoformat(),
            d.ticket_sales,
            d.draw_prize,
            d.jackpot_contribution,
            d.licensee_share,
            d.jackpot_after,
            d.winning_serial,
            d.winner_name,
            d.envelope.number if d.envelope_id else "",
            line.card,
            line.destroyed_by,
            line.verified_by,
            line.video,
            r.deposited if r else "",
            r.status if r else "",
            _when(line.scheduled_at),
            _when(line.held_at),
            line.tickets_sold if line.tickets_sold is not None else "",
            line.void_count if line.void_count is not None else "",
            " ".join(line.void_serials),
            "; ".join(f"{t.label} x{t.units} = {t.amount}" for t in line.tiers),
            d.jackpot_before,
            _when(line.claimed_at),
            "; ".join(
                f"{t.winning_serial} {t.winner_name} {t.card} {t.draw_prize_share or 0}+{t.jackpot_share or 0}".replace(
                    "  ", " "
                )
                for t in line.must_go
            ),
            _when(line.postponed_to),
        ]


def _total(licence, label: str, **values) -> list:
    values = {"licence": label, "organisation": licence.organisation.name, "draw_number": label, **values}
    return [values.get(column, "") for column in DRAW_COLUMNS]


def four_draw_csv(report: FourDrawReport) -> str:
    """One row per draw, then the period's totals, prize board, fee, its payment and the due date."""
    t, licence = report.totals, report.licence
    rows = list(_draw_rows(report, report.reconciliation))
    rows += [
        _total(
            licence,
            "total",
            ticket_sales=t.ticket_sales,
            draw_prize=t.draw_prizes,
            jackpot_contribution=t.jackpot_contributions,
            licensee_share=t.licensee_shares,
            tickets_sold=t.tickets_sold,
            voided_tickets=t.void_count,
        ),
        _total(licence, "prize_board", ticket_sales=report.period_prize_board),
        _total(licence, f"fee_{report.fee_rate}_percent", ticket_sales=report.fee),
        _total(licence, "due_on", draw_date=report.due_on.isoformat()),
        _total(licence, "prize_board_used_to_date", ticket_sales=report.prize_board_to_date),
        _total(licence, "prize_board_remaining", ticket_sales=report.prize_board_remaining),
        _total(licence, "seed", ticket_sales=report.seed, winner=report.seed_source),
        _total(licence, "expenses", ticket_sales=report.expenses_total),
    ]
    rows += [
        _total(licence, "fee_paid", ticket_sales=f.amount, draw_date=f.paid_on.isoformat(), winning_ticket=f.reference)
        for f in report.fee_payments
    ]
    rows += [
        _total(licence, "expense", ticket_sales=e.amount, draw_date=e.paid_on.isoformat(), winner=e.description)
        for e in report.expenses
    ]
    rows += [_total(licence, label, winner=value) for label, value in correction_lines(report)]
    rows.append(_total(licence, "audit_anchor", draw_date=anchor_text(licence.organisation_id)))
    return csv_text(DRAW_COLUMNS, rows)


def correction_lines(report) -> list[tuple[str, str]]:
    """R:R1 R:R2 the version a corrected report replaces, and why it was sent back."""
    replaced = getattr(report, "correction", None)
    if replaced is None:
        return []
    returned = replaced.return_record
    return [
        ("corrects_version", f"{replaced.version} issued {_when(replaced.generated_at)}"),
        ("corrects_sha256", replaced.sha256),
        ("sent_back", f"{returned.returned_on:%Y-%m-%d} by {returned.returned_by} {returned.reference}".strip()),
        ("sent_back_reasons", returned.reasons),
    ]


def final_summary(report: FinalReport) -> list[list]:
    summary = [
        ["end", report.end_reason or "draft: the licence has not ended"],
        ["gross_receipts", report.gross_receipts],
        ["tickets_sold", report.totals.tickets_sold],
        ["tickets_voided", report.totals.void_count],
        ["seed", report.seed],
        ["seed_source", report.seed_source or ("organisation funds" if report.seed else "")],
        ["interest_earned", report.interest],
        ["draw_prizes", report.totals.draw_prizes],
        ["must_go_shares", report.must_go_shares],
        ["jackpot_awarded", report.jackpot_awarded],
        ["unclaimed_prizes_added_to_proceeds", report.forfeited_prizes],
        ["prizes_total", report.prizes_total],
        ["jackpot_still_held", report.jackpot_held],
        ["expenses", report.expenses_total],
    ]
    summary += [[f"expenses: {label}", amount] for label, amount in report.expense_categories]
    summary += [
        ["licence_fees", report.fee_total],
        ["licence_fees_paid", report.fees_paid],
        ["net_proceeds", report.net_proceeds],
        ["net_proceeds_used", report.uses_total],
        ["net_proceeds_unspent", report.net_unspent],
        ["unclaimed_prizes_held_in_trust", report.unclaimed_total],
        ["trust_account_closing_balance", report.ledger_balance],
        ["donated_prizes_not_deducted", report.donated_total],
    ]
    if report.statement:
        summary += [
            ["bank_closing_balance", report.statement.statement.closing_balance],
            ["bank_difference", report.statement.difference],
        ]
    summary += [[f"use: {u.use.description}", u.spent] for u in report.uses]
    return summary


def final_csv(report: FinalReport) -> str:
    """The financial summary (line, amount), then every draw as in the four-draw CSV."""
    summary = [
        *final_summary(report),
        *map(list, correction_lines(report)),
        ["audit_anchor", anchor_text(report.licence.organisation_id)],
    ]
    head = csv_text(["line", "amount"], summary)
    return head + "\n" + csv_text(DRAW_COLUMNS, _draw_rows(report, report.reconciliation))


def report_file(event, kind: str, period: int | None, file_format: str, *, latest=...):
    """(content, filename, fee, due_on) of a report rendered now: what the page
    previews and issues, and what `manage.py export_report` writes (`latest`:
    the latest version issued, when the caller has read it)."""
    number = event.licence.number
    # R:R1 R:R2 after the licensing officer sent the issued report back, the
    # report says which version it corrects, when it was returned and why.
    correction = report_to_correct(
        event.licence, kind, period if kind == "four_draw" else None, file_format, latest=latest
    )
    if kind == "four_draw":
        report = four_draw_report(event, period)
        report.correction = correction
        content = four_draw_pdf(report) if file_format == "pdf" else four_draw_csv(report).encode()
        return content, f"{number}-four-draw-{period}.{file_format}", report.fee, report.due_on
    report = final_report(event)
    report.correction = correction
    content = final_pdf(report) if file_format == "pdf" else final_csv(report).encode()
    return content, f"{number}-final-report.{file_format}", report.fee_total, report.due_on
