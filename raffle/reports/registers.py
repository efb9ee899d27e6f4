"""The video register (D4) and the Registrar issues register (D6) as the
reports read them.

Those registers are built in another issue (`raffle/models/video.py`,
`raffle/models/compliance.py`). The reports ask these two selectors only, and
the selectors find the models by module, so the reports pick the registers up
as soon as they exist. Without them the report says "no register", never a
made-up reference.
"""

from django.apps import apps

from raffle.models import Draw, Event


def _models_in(module: str):
    return [m for m in apps.get_app_config("raffle").get_models() if m.__module__ == module]


def _fk_to(model, target):
    for field in model._meta.get_fields():
        if getattr(field, "many_to_one", False) or getattr(field, "one_to_one", False):
            if field.related_model is target and field.concrete:
                return field.name
    return None


def video_register_available() -> bool:
    return any(_fk_to(m, Draw) for m in _models_in("raffle.models.video"))


def video_references(draws) -> dict[int, str]:
    """{draw id: "reference; reference"} from the video register (R:D4)."""
    refs: dict[int, list[str]] = {}
    ids = [d.pk for d in draws]
    for model in _models_in("raffle.models.video"):
        fk = _fk_to(model, Draw)
        if fk:
            for row in model.objects.filter(**{f"{fk}__in": ids}).order_by("pk"):
                refs.setdefault(getattr(row, f"{fk}_id"), []).append(str(row))
    return {pk: "; ".join(values) for pk, values in refs.items()}


def compliance_register_available() -> bool:
    return any(_fk_to(m, Event) or _fk_to(m, Draw) for m in _models_in("raffle.models.compliance"))


def compliance_issues(event: Event) -> list[str]:
    """The Registrar issues register of the event (R:D6), as one line each."""
    lines = []
    for model in _models_in("raffle.models.compliance"):
        fk = _fk_to(model, Event)
        if fk:
            lines += [str(row) for row in model.objects.filter(**{fk: event}).order_by("pk")]
            continue
        fk = _fk_to(model, Draw)
        if fk:
            lines += [str(row) for row in model.objects.filter(**{f"{fk}__event": event}).order_by("pk")]
    return lines
