"""The Rules of Play, public (R4): a page and a PDF to post where the draw is held."""

import hashlib

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.http import HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.pdf import html_to_pdf, pdf_response
from core.roles import ADMINISTRATOR, AUDITOR, DRAW_STAFF, TREASURER, role_required, user_has_role
from core.scope import own
from raffle import selectors, services
from raffle.forms import MustGoForm, RulesApprovalForm, RulesSettingsForm
from raffle.rules_of_play import rules_of_play as build_rules


def rules_of_play(request, event_id: int):
    event = get_object_or_404(selectors.event_list(), pk=event_id)
    return render(request, "raffle/rules_of_play.html", build_rules(event))


# Browsers and proxies may keep the PDF a few minutes, then ask again (a 304 while it is unchanged).
RULES_PDF_MAX_AGE = 300


def rules_of_play_pdf(request, event_id: int):
    """R:T10 the public Rules of Play as a PDF, rendered once per version: the
    text is built (cheap) and its hash names the stored PDF, made only when
    the text changed (`rules_pdf_stored`); an unchanged version is a 304.

    Which version is current is remembered for `RULES_PDF_VERSION_SECONDS`
    (#15: sixteen visitors fetching it must not slow a seller), so most
    requests only read the stored file: a change to the rules reaches the PDF
    within those seconds, well inside the five minutes browsers may keep it."""
    language = get_language() or settings.LANGUAGE_CODE
    memo = f"rules-pdf-version:{event_id}:{language}"
    known = cache.get(memo)
    content = known and _stored(known["version"], event_id)
    if content is None:
        event = get_object_or_404(selectors.event_list(), pk=event_id)
        version = _current_version(event, language)
        known = {"version": version["version"], "filename": f"rules-of-play-{event.licence.number}.pdf"}
        content = rules_pdf_stored(event, version["version"], version["html"])
        cache.set(memo, known, settings.RULES_PDF_VERSION_SECONDS)
    etag = f'"{known["version"]}"'
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = pdf_response(content, known["filename"])
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=RULES_PDF_MAX_AGE)
    # A shared cache keeps one copy per language: chosen by the browser, or by the switch's cookie.
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _current_version(event, language: str) -> dict:
    """The Rules of Play PDF's HTML as the event stands, and its version name."""
    context = build_rules(event)
    context["footer_left"] = _("Rules of Play · %(name)s · licence %(number)s") % {
        "name": event.name,
        "number": event.licence.number,
    }
    html = render_to_string("pdf/rules_of_play.html", context)
    # The language is part of the version (#16): a French reader never gets the English file, nor the reverse.
    return {"html": html, "version": f"{language}-{hashlib.sha256(html.encode()).hexdigest()[:32]}"}


def _stored_name(event_id: int, version: str) -> str:
    return f"rules_of_play/event-{event_id}-{version}.pdf"


def _stored(version: str, event_id: int) -> bytes | None:
    """The stored PDF of this version, or None when it is not (or no longer) there."""
    try:
        with default_storage.open(_stored_name(event_id, version), "rb") as stored:
            return stored.read()
    except FileNotFoundError:
        return None


def rules_pdf_stored(event, version: str, html: str) -> bytes:
    """The PDF of this version of the text, from storage; rendered and stored
    the first time it is asked for (two first requests at once may both
    render it; the file is the same)."""
    name = _stored_name(event.pk, version)
    stored = _stored(version, event.pk)
    if stored is not None:
        return stored
    pdf = html_to_pdf(html, base_url=str(settings.BASE_DIR))
    if not default_storage.exists(name):
        default_storage.save(name, ContentFile(pdf))
    return pdf


@role_required(ADMINISTRATOR, TREASURER, DRAW_STAFF, AUDITOR)
def exit_strategy(request, event_id: int):
    """The Rules of Play settings, the prize board forecast (L3) and the
    must-go final draw (P7) of one event."""
    event = own(request, selectors.event_list(), pk=event_id)
    current = selectors.current_draw(event)
    initial = {name: getattr(event, name) for name in RulesSettingsForm.base_fields}
    settings_form = RulesSettingsForm(initial=initial)
    forecast = selectors.prize_board_forecast(event)
    must_go_form = MustGoForm(initial={"reason": forecast.must_go_due or None})
    approval_form = RulesApprovalForm()
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "rules":
                if not user_has_role(
                    request.user, ADMINISTRATOR, TREASURER, organisation=event.licence.organisation_id
                ):
                    raise PermissionDenied
                settings_form = RulesSettingsForm(request.POST)
                if settings_form.is_valid():
                    services.event_update_rules(actor=request.user, event=event, **settings_form.cleaned_data)
                    messages.success(request, gettext("Rules of Play updated."))
                    return redirect("exit_strategy", event.pk)
            elif action == "approval":
                if not user_has_role(
                    request.user, ADMINISTRATOR, TREASURER, organisation=event.licence.organisation_id
                ):
                    raise PermissionDenied
                approval_form = RulesApprovalForm(request.POST)
                if approval_form.is_valid():
                    services.event_record_rules_approval(actor=request.user, event=event, **approval_form.cleaned_data)
                    messages.success(request, gettext("The approval of the Rules of Play is recorded."))
                    return redirect("exit_strategy", event.pk)
            elif action == "must_go" and current is not None:
                if not user_has_role(
                    request.user, ADMINISTRATOR, TREASURER, DRAW_STAFF, organisation=event.licence.organisation_id
                ):
                    raise PermissionDenied
                must_go_form = MustGoForm(request.POST)
                if must_go_form.is_valid():
                    services.draw_set_must_go(actor=request.user, draw=current, **must_go_form.cleaned_data)
                    messages.success(
                        request, gettext("Draw %(number)s is the must-go final draw.") % {"number": current.number}
                    )
                    return redirect("exit_strategy", event.pk)
        except DomainError as error:
            messages.error(request, str(error))
    return render(
        request,
        "raffle/exit_strategy.html",
        {
            "event": event,
            "current": current,
            "forecast": forecast,
            "settings_form": settings_form,
            "must_go_form": must_go_form,
            "approval_form": approval_form,
            "frozen": services.rules_frozen(event),
            "must_go_tickets": current.must_go_tickets.all() if current is not None else [],
        },
    )
