"""Pages that do not grow with the season: every page, as the administrator,
costs a fixed number of queries, at most 20, on a season with many draws;
the admin lists and the event's pages cost the same after more draws are run.
Counts, not times (speed is measured in bench/)."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

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
# Every page is held to MAX_QUERIES, none excepted (#18, #14). The ones that
# were over read each kind of record once and share it: the final report's draw
# lines, ledger, reconciliation and totals (the draws carry their pool,
# settlement, destruction, claim, voids, videos and deposits as columns); the
# audit page verifies every chain and reads every anchor in a fixed number of
# queries whatever the number of organisations; the dashboard's forecasts use
# the draws it has read; the trust ledger reads the ledger once for the
# position and every statement; a role check's groups serve the navigation.


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
    over = {key: (url, n) for key, (url, status, n) in counts.items() if n > MAX_QUERIES}
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


def test_the_audit_page_costs_the_same_with_more_organisations(client, world, two_factor_on):
    """#18: the page verifies every chain and shows the reader's anchors in a
    fixed number of queries, not a few per organisation's chain."""
    from core.audit import audit_record
    from tests.factories import OrganisationFactory, works_for_every_organisation

    sign_in(client, roles.ADMINISTRATOR, world)
    url = reverse("audit_trail")
    client.get(url)  # the first visit verifies every chain from its first entry
    before = _queries(client, url)[1]
    admin = world["users"][roles.ADMINISTRATOR]
    for number in range(3):
        organisation = OrganisationFactory(name=f"Another charity {number}")
        audit_record(actor=admin, action="test.entry", organisation=organisation, data={"n": number})
    works_for_every_organisation(admin, [roles.ADMINISTRATOR])
    status, after = _queries(client, url)
    assert status == 200 and after == before
