"""The public Rules of Play PDF is rendered once per version of its text and
served from storage with cache headers (#15: sixteen anonymous clients
fetching it no longer render a PDF each)."""

import pytest
from django.core.files.storage import default_storage
from django.urls import reverse

from core.pdf import pdf_text
from raffle import services
from raffle.views import rules as rules_views
from tests.factories import event_with_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch):
    made = []
    render = rules_views.html_to_pdf

    def counting(html, **kwargs):
        made.append(html)
        return render(html, **kwargs)

    monkeypatch.setattr(rules_views, "html_to_pdf", counting)
    return made


def test_the_rules_pdf_is_rendered_once_per_version_and_served_with_cache_headers(client, staff_user, renders):  # R:T10
    event = event_with_draw(actor=staff_user)
    url = reverse("rules_of_play_pdf", args=[event.pk])
    first = client.get(url)
    assert first.status_code == 200 and "1-866-531-2600" in pdf_text(first.content)
    assert "public" in first["Cache-Control"] and "max-age=300" in first["Cache-Control"]
    for _ in range(5):  # other visitors: the stored file, not a new rendering
        again = client.get(url)
        assert again.content == first.content and again["ETag"] == first["ETag"]
    assert len(renders) == 1
    assert default_storage.exists(f"rules_of_play/event-{event.pk}-{first['ETag'].strip(chr(34))}.pdf")
    # A browser that has this version is told it is unchanged, without the file.
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert unchanged.status_code == 304 and not unchanged.content


def test_a_change_to_the_rules_is_a_new_version_rendered_once(client, staff_user, renders):  # R:R4 R:T10
    event = event_with_draw(actor=staff_user)
    url = reverse("rules_of_play_pdf", args=[event.pk])
    before = client.get(url)
    services.event_update_rules(actor=staff_user, event=event, claim_period_days=45)
    after = client.get(url)
    assert after["ETag"] != before["ETag"] and "45 days" in pdf_text(after.content).replace("\n", " ")
    assert client.get(url, HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 200  # the old version is stale
    client.get(url)
    assert len(renders) == 2


def test_the_current_version_is_remembered_a_few_seconds_so_most_requests_only_read_the_file(
    client, staff_user, renders, settings, django_assert_num_queries
):  # R:T10
    """#15 sixteen visitors on the PDF: within RULES_PDF_VERSION_SECONDS a request
    reads the stored file without building the text (no query at all); a change
    to the rules reaches the PDF once the memo expires."""
    from django.core.cache import cache

    settings.RULES_PDF_VERSION_SECONDS = 30
    cache.clear()
    event = event_with_draw(actor=staff_user)
    url = reverse("rules_of_play_pdf", args=[event.pk])
    first = client.get(url)
    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    services.event_update_rules(actor=staff_user, event=event, claim_period_days=45)
    assert client.get(url)["ETag"] == first["ETag"]  # within the memo's seconds: the version it knew
    cache.clear()  # the seconds have passed
    after = client.get(url)
    assert after["ETag"] != first["ETag"] and "45 days" in pdf_text(after.content).replace("\n", " ")
    assert len(renders) == 2
    # French readers have their own memo and their own file.
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr-CA")
    assert french["ETag"].startswith('"fr-') and french.content != after.content
