"""Server-drawn SVG charts (no JavaScript, no external service): ticket sales
as bars and the jackpot as a line, draw by draw. Used by the dashboard and the
final report."""

from dataclasses import dataclass
from decimal import Decimal

from django.utils.html import escape


@dataclass(frozen=True)
class ChartPoint:
    draw_number: int
    ticket_sales: Decimal
    jackpot_after: Decimal


def sales_and_jackpot_svg(
    points: list[ChartPoint],
    *,
    width: int = 720,
    height: int = 260,
    title: str = "Ticket sales and jackpot, draw by draw",
) -> str:
    left, right, top, bottom = 70, 20, 30, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = max([p.ticket_sales for p in points] + [p.jackpot_after for p in points] + [Decimal(1)])
    scale = Decimal(plot_h) / top_value
    step = Decimal(plot_w) / max(len(points), 1)
    bar_w = max(step * Decimal("0.6"), Decimal(1))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="chart-title" class="chart">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#444"/>',
        f'<text x="{left - 8}" y="{top + 4}" text-anchor="end" font-size="11">${top_value:,.0f}</text>',
        f'<text x="{left - 8}" y="{top + plot_h}" text-anchor="end" font-size="11">$0</text>',
    ]
    line = []
    for i, p in enumerate(points):
        x = Decimal(left) + step * i + (step - bar_w) / 2
        h = p.ticket_sales * scale
        parts.append(
            f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bar_w:.1f}" height="{h:.1f}" '
            f'fill="#6fa8dc"><title>Draw {p.draw_number}: sales ${p.ticket_sales:,.2f}</title></rect>'
        )
        cx = Decimal(left) + step * i + step / 2
        line.append(f"{cx:.1f},{top + plot_h - p.jackpot_after * scale:.1f}")
        if len(points) <= 26 or p.draw_number % 4 == 0:
            parts.append(
                f'<text x="{cx:.1f}" y="{top + plot_h + 16}" text-anchor="middle" font-size="11">{p.draw_number}</text>'
            )
    if line:
        parts.append(f'<polyline points="{" ".join(line)}" fill="none" stroke="#b45f06" stroke-width="3"/>')
    parts.append(
        f'<text x="{left}" y="{height - 6}" font-size="12">Bars: ticket sales · Line: jackpot after '
        "the draw · Axis: draw number</text>"
    )
    parts.append("</svg>")
    return "".join(parts)
