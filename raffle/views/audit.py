"""The auditor's pages: the audit trail and its verification, the card
destruction log (PDF, CSV), the video register, the Registrar register, and
the public deck verification page of an electronic deck.

Every page is read-only for the auditor; writing pages accept POST only from
the roles that keep the register (a refused POST is a 403)."""

import json

from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import roles
from core.audit import SYSTEM_CHAIN, chain_heads, verify_incremental
from core.csvsafe import csv_attachment, csv_download, csv_text
from core.errors import DomainError
from core.pdf import pdf_response, render_pdf
from core.scope import organisations_of, own, scoped, trail_of
from raffle import selectors, services
from raffle.forms.audit import RegistrarNotificationForm, VideoForm
from raffle.models import COMMITMENT_DOMAIN, DeckKind, Draw, DrawVideo, Event

READERS = (roles.AUDITOR, roles.ADMINISTRATOR, roles.TREASURER, roles.DRAW_STAFF)
TRAIL_READERS = (roles.AUDITOR, roles.ADMINISTRATOR, roles.TREASURER)
VIDEO_KEEPERS = (roles.DRAW_STAFF, roles.ADMINISTRATOR)
REGISTRAR_KEEPERS = (roles.DRAW_STAFF, roles.TREASURER, roles.ADMINISTRATOR)


def _event(request, event_id: int) -> Event:
    return own(request, selectors.event_list(), pk=event_id)


TRAIL_HEADER = [
    "id",
    "at",
    "actor_id",
    "actor",
    "action",
    "object_type",
    "object_id",
    "object",
    "data",
    "chain",
    "seq",
    "prev_hash",
    "hash",
]


@roles.role_required(*TRAIL_READERS)
def audit_trail(request):
    """The whole trail, newest first, with the chains' verification (D7, R:E3):
    each chain is checked from its last verified entry, so the page's cost does
    not grow with the trail (`verify_audit` checks from the first entry)."""
    report = verify_incremental()
    entries = trail_of(request.user, *TRAIL_READERS).order_by("-id")
    action = request.GET.get("action", "").strip()
    if action:
        entries = entries.filter(action__startswith=action)
    if request.GET.get("format") == "csv":
        rows = (
            [
                e.pk,
                e.at.isoformat(),
                e.actor_id or "",
                e.actor_label,
                e.action,
                e.object_type,
                e.object_id,
                e.object_repr,
                json.dumps(e.data, sort_keys=True, ensure_ascii=False),
                e.chain,
                e.seq,
                e.prev_hash,
                e.hash,
            ]
            for e in entries.order_by("id").iterator(chunk_size=2000)
        )
        return csv_download(TRAIL_HEADER, rows, "audit-trail.csv")  # read as it is sent (#18)
    page = Paginator(entries, 100).get_page(request.GET.get("page"))
    for entry in page:
        entry.data_json = json.dumps(entry.data, sort_keys=True, ensure_ascii=False)
    return render(
        request,
        "raffle/audit/trail.html",
        {
            "report": report,
            "page": page,
            "action": action,
            "events": scoped(selectors.event_list(), request.user),
            "heads": _chain_heads(organisations_of(request.user, *TRAIL_READERS)),
        },
    )


def _chain_heads(organisations) -> list[tuple[str, object]]:
    """Each chain's anchor (newest entry and hash), for the auditor to note:
    two queries whatever the number of organisations."""
    names = [(org.pk, str(org)) for org in organisations.order_by("name")]
    names.append((SYSTEM_CHAIN, _("System (sign-ins, users, no organisation)")))
    heads = chain_heads(chain for chain, _name in names)
    return [(name, heads[chain]) for chain, name in names if chain in heads]


def _local(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M:%S %Z") if moment else ""


def _destruction_rows(log):
    for d in log:
        yield [
            d.draw.number,
            d.draw.held_on,  # R:D9 the day the draw was held
            d.card,
            d.get_card_display(),
            d.get_method_display(),
            d.envelope.number,
            d.destroyed_by_name,
            _local(d.destroyer_authenticated_at),
            d.verified_by_name,
            _local(d.verifier_authenticated_at),
            _local(d.destroyed_at),
            d.recorded_by.get_username(),
        ]


# Column titles for a reader (a spreadsheet), in the reader's language; nothing
# reads this file back, unlike the trail's machine columns above.
DESTRUCTION_HEADER = [
    gettext_lazy("Draw"),
    gettext_lazy("Draw date"),
    gettext_lazy("Card"),
    gettext_lazy("Card name"),
    gettext_lazy("Method"),
    gettext_lazy("Envelope"),
    gettext_lazy("Destroyed by"),
    gettext_lazy("Destroyer signed in at"),
    gettext_lazy("Verified by (in charge)"),
    gettext_lazy("Verifier signed in at"),
    gettext_lazy("Logged at"),
    gettext_lazy("Logged by"),
]


@roles.role_required(*READERS)
def destruction_log(request, event_id: int):
    """R:E3 the destruction/deletion log; ?format=pdf or ?format=csv to export."""
    event = _event(request, event_id)
    log = list(selectors.destruction_log(event))
    fmt = request.GET.get("format")
    stamp = timezone.localtime().strftime("%Y-%m-%d %H:%M %Z")
    if fmt == "csv":
        rows = csv_text(DESTRUCTION_HEADER, _destruction_rows(log))  # at most 52 cards: sent whole
        return csv_attachment(rows, f"destruction-log-{event.licence.number}.csv")
    context = {
        "event": event,
        "log": log,
        "generated_at": stamp,
        "missing_video": list(selectors.draws_needing_video(event)),
    }
    if fmt == "pdf":
        pdf = render_pdf(
            "pdf/destruction_log.html",
            {
                **context,
                "footer_left": _("%(event)s · destruction log · %(stamp)s") % {"event": event.name, "stamp": stamp},
            },
            request=request,
        )
        return pdf_response(pdf, f"destruction-log-{event.licence.number}.pdf")
    return render(request, "raffle/audit/destructions.html", context)


@roles.role_required(*READERS)
def video_register(request, event_id: int):
    """R:D4 the recordings of paper draws; draws with none are flagged."""
    event = _event(request, event_id)
    can_write = roles.user_has_role(request.user, *VIDEO_KEEPERS, organisation=event.licence.organisation_id)
    draws = Draw.objects.filter(event=event, card_revealed_at__isnull=False).order_by("number")
    form = None
    if event.deck_kind == DeckKind.PAPER:
        form = VideoForm(request.POST or None, request.FILES or None, draws=draws)
    if request.method == "POST":
        if not can_write:
            raise PermissionDenied
        if form is not None and form.is_valid():
            try:
                services.video_register(actor=request.user, **form.cleaned_data)
            except DomainError as error:
                form.add_error(None, str(error))
            else:
                return redirect("audit_videos", event_id=event.pk)
    return render(
        request,
        "raffle/audit/videos.html",
        {
            "event": event,
            "videos": selectors.video_register_rows(event),
            "missing": selectors.draws_needing_video(event),
            "form": form if can_write else None,
        },
    )


@roles.role_required(*READERS)
def video_file(request, event_id: int, video_id: int):
    """R:D4 the recording kept by the application, for the auditor to view."""
    video = own(request, DrawVideo, pk=video_id, draw__event_id=event_id)
    if not video.file:
        raise Http404("This recording is kept outside the application; see its location.")
    return FileResponse(video.file.open("rb"), as_attachment=True, filename=video.file.name.rsplit("/", 1)[-1])


@roles.role_required(*READERS)
def registrar_register(request, event_id: int):
    """R:D6 issues notified to the Registrar."""
    event = _event(request, event_id)
    can_write = roles.user_has_role(request.user, *REGISTRAR_KEEPERS, organisation=event.licence.organisation_id)
    form = RegistrarNotificationForm(request.POST or None)
    if request.method == "POST":
        if not can_write:
            raise PermissionDenied
        if form.is_valid():
            try:
                services.registrar_notification_record(actor=request.user, event=event, **form.cleaned_data)
            except DomainError as error:
                form.add_error(None, str(error))
            else:
                return redirect("audit_registrar", event_id=event.pk)
    return render(
        request,
        "raffle/audit/registrar.html",
        {
            "event": event,
            "entries": selectors.registrar_register(event),
            "form": form if can_write else None,
        },
    )


def deck_public(request, event_id: int):
    """R:E4 public: the commitments, each revealed one recomputed in the open."""
    event = get_object_or_404(
        Event.objects.select_related("licence__organisation"), pk=event_id, deck_kind=DeckKind.ELECTRONIC
    )
    report = services.deck_verify(event=event)
    rows = selectors.deck_commitments(event)
    checks = {c.number: c for c in report.checks}
    for row in rows:
        check = checks.get(row["number"])
        row["ok"] = check.ok if check else None
    context = {"event": event, "rows": rows, "report": report, "domain": COMMITMENT_DOMAIN}
    if request.GET.get("format") == "pdf":
        stamp = timezone.localtime().strftime("%Y-%m-%d %H:%M %Z")
        pdf = render_pdf(
            "pdf/deck_commitments.html",
            {
                **context,
                "generated_at": stamp,
                "footer_left": _("%(event)s · deck commitments · %(stamp)s") % {"event": event.name, "stamp": stamp},
            },
            request=request,
        )
        return pdf_response(pdf, f"deck-commitments-{event.licence.number}.pdf")
    return render(request, "raffle/audit/deck.html", context)
