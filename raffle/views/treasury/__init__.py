"""The treasurer's pages, by area (`deposits`, `prizes`, `spending`,
`reports`; shared parts in `common`), usable without the admin: the trust account and
deposits with their reconciliation, prize payments and unclaimed prizes,
approved uses and spending, the publication of the winners, the reports (PDF, CSV, issued copies), the ledger
and the deadlines (page and iCalendar).

Auditors and administrators read everything; only treasurers and
administrators write. Each write parses a form, calls one service, and shows
the refusal in plain words.
"""

from raffle.views.treasury.deposits import (  # noqa: F401
    account_officers,
    account_open,
    deposit_add,
    deposit_cover,
    deposit_slip,
    deposits,
)
from raffle.views.treasury.prizes import (  # noqa: F401
    prize_attempt,
    prize_pay,
    prize_to_proceeds,
    prize_unclaimed,
    prizes,
)
from raffle.views.treasury.publications import (  # noqa: F401
    publication_add,
    publications,
)
from raffle.views.treasury.reports import (  # noqa: F401
    deadlines_feed,
    deadlines_feed_token,
    issued_download,
    ledger_download,
    overview,
    report_issue,
    report_return,
    report_view,
    treasury_home,
)
from raffle.views.treasury.spending import (  # noqa: F401
    donated_add,
    expense_add,
    spending,
    use_add,
)
