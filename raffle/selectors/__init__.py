"""Reads behind the pages and reports, each a fixed number of queries, by
area: `events` (event pages, dashboard), `board` (the public envelope board),
`prize_board` (the forecast), `drawnight`, `sales`, `audit` (the integrity
registers). Re-exported here so `from raffle import selectors` keeps working."""

from raffle.selectors.audit import (
    deck_commitments,
    destruction_log,
    draws_needing_video,
    registrar_register,
    video_register_rows,
)
from raffle.selectors.board import public_board
from raffle.selectors.drawnight import (
    SalesReconciliation,
    draw_drawings,
    draw_sales_reconciliation,
    draws_for_night,
    winning_sale,
)
from raffle.selectors.events import (
    current_draw,
    current_of,
    draw_history,
    envelope_board,
    event_dashboard,
    event_list,
    event_summary,
)
from raffle.selectors.prize_board import (
    FORECAST_RECENT_DRAWS,
    PRIZE_BOARD_DANGER_PERCENT,
    PRIZE_BOARD_WARNING_PERCENT,
    PrizeBoardForecast,
    prize_board_forecast,
)
from raffle.selectors.sales import (
    TICKET_LOG_HEADER,
    draw_rolls,
    draw_sales_summary,
    draw_ticket_log_rows,
    recent_sales,
    sale_with_tickets,
    sealed_envelope_numbers,
)
from raffle.selectors.supplier import SupplierDrawStatus, supplier_draw_status

__all__ = [
    "SupplierDrawStatus",
    "supplier_draw_status",
    "FORECAST_RECENT_DRAWS",
    "PRIZE_BOARD_DANGER_PERCENT",
    "PRIZE_BOARD_WARNING_PERCENT",
    "TICKET_LOG_HEADER",
    "PrizeBoardForecast",
    "SalesReconciliation",
    "current_draw",
    "current_of",
    "deck_commitments",
    "destruction_log",
    "draw_history",
    "draw_rolls",
    "draw_sales_reconciliation",
    "draw_sales_summary",
    "draw_ticket_log_rows",
    "draws_for_night",
    "draws_needing_video",
    "envelope_board",
    "event_dashboard",
    "event_list",
    "event_summary",
    "prize_board_forecast",
    "public_board",
    "recent_sales",
    "registrar_register",
    "draw_drawings",
    "sale_with_tickets",
    "sealed_envelope_numbers",
    "video_register_rows",
    "winning_sale",
]
