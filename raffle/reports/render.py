"""The reports as files: PDF through `core.pdf.render_pdf` (letter, page
numbers, the licence number and organisation on every page) and CSV through
`core.csvsafe` (formulas neutralised)."""

from core.audit import anchor_text
from core.csvsafe import csv_text
from core.pdf import render_pdf
from raffle.reports.builders import FinalReport, FourDrawReport


def _footer(licence) -> str:
    return f"Licence {licence.number} · {licence.organisation.name}"


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
]


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
            ", ".join(r.flags) if r and r.flags else "ok",
        ]


def _row(licence, **values) -> list:
    values = {"licence": licence.number, "organisation": licence.organisation.name, **values}
    return [values.get(column, "") for column in DRAW_COLUMNS]


def four_draw_csv(report: FourDrawReport) -> str:
    """One row per draw, then the period's totals, prize board, fee and due date."""
    t, licence = report.totals, report.licence
    rows = list(_draw_rows(report, report.reconciliation))
    rows += [
        _row(
            licence,
            draw_number="total",
            ticket_sales=t.ticket_sales,
            draw_prize=t.draw_prizes,
            jackpot_contribution=t.jackpot_contributions,
            licensee_share=t.licensee_shares,
        ),
        _row(licence, draw_number="prize_board", ticket_sales=t.prize_board),
        _row(licence, draw_number=f"fee_{report.fee_rate}_percent", ticket_sales=report.fee),
        _row(licence, draw_number="due_on", draw_date=report.due_on.isoformat()),
        _row(licence, draw_number="audit_anchor", draw_date=anchor_text(licence.organisation_id)),
    ]
    return csv_text(DRAW_COLUMNS, rows)


def final_csv(report: FinalReport) -> str:
    """The financial summary (line, amount), then every draw as in the four-draw CSV."""
    summary = [
        ["gross_receipts", report.gross_receipts],
        ["draw_prizes", report.totals.draw_prizes],
        ["jackpot_awarded", report.jackpot_awarded],
        ["unclaimed_prizes_added_to_proceeds", report.forfeited_prizes],
        ["prizes_total", report.prizes_total],
        ["jackpot_still_held", report.jackpot_held],
        ["expenses", report.expenses_total],
        ["net_proceeds", report.net_proceeds],
        ["net_proceeds_used", report.uses_total],
        ["net_proceeds_unspent", report.net_unspent],
        ["donated_prizes_not_deducted", report.donated_total],
        ["licence_fees", report.fee_total],
    ]
    summary += [[f"use: {u.use.description}", u.spent] for u in report.uses]
    summary.append(["audit_anchor", anchor_text(report.licence.organisation_id)])
    head = csv_text(["line", "amount"], summary)
    return head + "\n" + csv_text(DRAW_COLUMNS, _draw_rows(report, report.reconciliation))
