"""Where and when each draw's winners were published (R:D10), for the
four-draw report's "publication of the winners"."""

from django.db.models import Prefetch
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.roles import role_required
from raffle import services
from raffle.forms import treasury as tf
from raffle.models import Draw, DrawState, WinnersPublication
from raffle.views.treasury.common import READ, WRITE, event_for, page_context, write_and_back


@role_required(*READ)
def publications(request, event_id: int):
    event = event_for(request, event_id)
    draws = Draw.objects.filter(event=event, state=DrawState.CLOSED).order_by("number")
    draws = draws.prefetch_related(Prefetch("publications", WinnersPublication.objects.order_by("published_on", "pk")))
    return render(
        request,
        "treasury/publications.html",
        page_context(request, event, draws=draws, publication_form=tf.WinnersPublicationForm(event=event)),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def publication_add(request, event_id: int):
    event = event_for(request, event_id)
    form = tf.WinnersPublicationForm(request.POST, event=event)
    return write_and_back(
        request,
        form,
        lambda d: services.winners_publication_record(
            actor=request.user, draw=d["draw"], published_on=d["published_on"], where=d["where"]
        ),
        done=_("Publication of the winners recorded."),
        back=reverse("treasury_publications", args=[event.pk]),
    )
