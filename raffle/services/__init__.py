"""Every write of the game. Import services from here:

from raffle.services import draw_close_sales
"""

from raffle.services.deck import deck_verify  # noqa: F401
from raffle.services.draw_sales import (  # noqa: F401
    CloseSalesFigures,
    close_sales_figures,
    draw_announce,
    draw_close_sales,
    draw_open_sales,
)
from raffle.services.draws import (  # noqa: F401
    draw_award_jackpot,
    draw_choose_envelope,
    draw_record_winning_ticket,
    draw_reveal_card,
    draw_roll_over,
)
from raffle.services.events import (  # noqa: F401
    event_check_ready_to_sell,
    event_record_rules_approval,
    event_setup,
    event_submit_rules,
    event_update_rules,
    rules_frozen,
)
from raffle.services.history import history_import  # noqa: F401
from raffle.services.integrity import registrar_notification_record, video_register  # noqa: F401
from raffle.services.members_in_charge import (  # noqa: F401
    check_members_in_charge,
    draw_name_members_in_charge,
    members_in_charge_problem,
)
from raffle.services.must_go import (  # noqa: F401
    draw_must_go_open_next,
    draw_must_go_redraw,
    draw_set_must_go,
    must_go_payouts,
    must_go_settle,
)
from raffle.services.prize_board import prize_board_check, prizes_committed  # noqa: F401
from raffle.services.rolls import check_no_roll_out, roll_declare_lost, roll_issue, roll_return, rolls_out  # noqa: F401
from raffle.services.schedule import advertised, check_draw_time, draw_postpone  # noqa: F401
from raffle.services.seed import deposit_cover_seed  # noqa: F401
from raffle.services.supplier_import import ImportSummary, supplier_draw_import  # noqa: F401
from raffle.services.tickets import (  # noqa: F401
    SaleLine,
    sale_print,
    sale_void,
    ticket_sell,
    ticket_sell_in_transaction,
    tickets_import,
)
from raffle.services.treasury import (  # noqa: F401
    deposit_cover_draws,
    deposit_record_for_draws,
    event_report_issue,
    prize_payment_record,
    winners_publication_record,
)
from raffle.services.unclaimed import (  # noqa: F401
    prize_add_to_proceeds,
    prize_log_contact_attempt,
    prize_mark_unclaimed,
)
from raffle.services.winner import draw_await_claim, draw_claim, draw_redraw_unclaimed  # noqa: F401
