"""The supplier import page (RULES D5): upload a draw's files from the
AGCO-registered supplier, see what they hold (counts and totals) before
anything is written, then confirm. The files wait in storage between the
preview and the confirmation, named by a random token kept in the session."""

import secrets

from django.contrib import messages
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import roles
from core.errors import DomainError
from core.scope import own
from raffle import services
from raffle.forms import SupplierImportForm
from raffle.models import Draw
from raffle.services.supplier_formats import SupplierFile, mapping_named

STAFF_WHO_IMPORT = (roles.DRAW_STAFF, roles.TREASURER, roles.ADMINISTRATOR)
KINDS = ("sales", "result", "settlement")


def _session_key(draw: Draw) -> str:
    return f"supplier_import_{draw.pk}"


def _stash(request, draw: Draw, files: dict[str, SupplierFile], mapping: str) -> str:
    token = secrets.token_hex(16)
    paths = {
        kind: default_storage.save(f"supplier_uploads/{token}/{kind}/{f.name}", ContentFile(f.content))
        for kind, f in files.items()
    }
    request.session[_session_key(draw)] = {"token": token, "paths": paths, "mapping": mapping}
    return token


def _unstash(request, draw: Draw, token: str) -> tuple[dict[str, SupplierFile], str, dict]:
    stashed = request.session.get(_session_key(draw))
    if not stashed or not secrets.compare_digest(stashed["token"], token or ""):
        raise Http404("No import waiting for confirmation.")
    files = {}
    for kind, path in stashed["paths"].items():
        with default_storage.open(path, "rb") as handle:
            files[kind] = SupplierFile(name=path.rsplit("/", 1)[-1], content=handle.read())
    return files, stashed["mapping"], stashed


def _forget(request, draw: Draw, stashed: dict) -> None:
    for path in stashed["paths"].values():
        default_storage.delete(path)
    request.session.pop(_session_key(draw), None)


@roles.role_required(*STAFF_WHO_IMPORT)
def supplier_import(request, draw_id: int):
    draw = own(request, Draw.objects.select_related("event__licence"), pk=draw_id)
    form = SupplierImportForm(request.POST or None, request.FILES or None)
    context = {"draw": draw, "event": draw.event, "form": form}
    if request.method == "POST" and form.is_valid():
        files = {
            kind: SupplierFile(name=upload.name, content=upload.read())
            for kind in KINDS
            if (upload := form.cleaned_data.get(kind))
        }
        mapping = form.cleaned_data["mapping"]
        try:
            summary = services.supplier_draw_import(
                actor=request.user, draw=draw, mapping=mapping_named(mapping), dry_run=True, **files
            )
        except DomainError as error:
            form.add_error(None, str(error))
            return render(request, "raffle/supplier/import.html", context, status=400)
        context.update(summary=summary, token=_stash(request, draw, files, mapping), files=files)
    elif request.method == "POST":
        return render(request, "raffle/supplier/import.html", context, status=400)
    return render(request, "raffle/supplier/import.html", context)


@roles.role_required(*STAFF_WHO_IMPORT)
@require_POST
def supplier_import_confirm(request, draw_id: int):
    draw = own(request, Draw.objects.select_related("event__licence"), pk=draw_id)
    files, mapping, stashed = _unstash(request, draw, request.POST.get("token", ""))
    try:
        summary = services.supplier_draw_import(actor=request.user, draw=draw, mapping=mapping_named(mapping), **files)
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("supplier_import", draw_id=draw.pk)
    finally:
        _forget(request, draw, stashed)
    messages.success(
        request,
        _("Imported for draw %(number)s: %(sold)s ticket(s) sold, %(void)s void or refunded.")
        % {"number": draw.number, "sold": summary.tickets_sold, "void": summary.tickets_void},
    )
    if roles.user_has_role(
        request.user, roles.DRAW_STAFF, roles.ADMINISTRATOR, organisation=draw.event.licence.organisation_id
    ):
        return redirect("draw_night", draw_id=draw.pk)
    return redirect("supplier_import", draw_id=draw.pk)
