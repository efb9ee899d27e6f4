"""The four-draw report (R1) and the final report (R2) as data, one module
per report; import them from here."""

from raffle.reports.builders.common import SlipCopy, Totals  # noqa: F401
from raffle.reports.builders.draw_lines import DrawLine, TierSale  # noqa: F401
from raffle.reports.builders.final import FinalReport, PeriodFee, UseOfProceeds, final_report  # noqa: F401
from raffle.reports.builders.four_draw import (  # noqa: F401
    FourDrawReport,
    available_periods,
    expenses_of_period,
    four_draw_report,
    reportable_period_ends,
)
from raffle.reports.builders.periods import (  # noqa: F401
    DRAWS_PER_PERIOD,
    FINAL_DUE_DAYS,
    FOUR_DRAW_DUE_DAYS,
    expense_period,
    final_report_due,
    held_at,
    licence_end,
    licence_ended_on,
    period_numbers,
    period_of,
    report_day,
)
