"""Every write of the game. Import services from here:

    from raffle.services import draw_close_sales
"""

from raffle.services.draws import (  # noqa: F401
    draw_announce,
    draw_award_jackpot,
    draw_choose_envelope,
    draw_close_sales,
    draw_open_sales,
    draw_record_winning_ticket,
    draw_reveal_card,
    draw_roll_over,
)
from raffle.services.events import event_setup  # noqa: F401
from raffle.services.tickets import (  # noqa: F401
    SaleLine,
    roll_issue,
    roll_return,
    sale_print,
    sale_void,
    ticket_sell,
    tickets_import,
)
from raffle.services.winner import draw_redraw_unclaimed, winner_claim  # noqa: F401
