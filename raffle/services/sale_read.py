"""The one statement a sale reads before it takes its draw's lock (#18).

A sale needs its draw with the event and the licence, and what none of them
carries: the prizes committed by the event's closed draws and the approved
sales plan's line for the draw (L3, as `prize_board.sale_columns`), the
event's price tiers (T1), its sealed envelopes (T9), the organisation's
excluded persons (the Rules of Play) and whether the licence has any approved
amendment (L3, L5). On PostgreSQL all of it comes back from ONE statement
written once per process from the models' own columns, and the draw, event
and licence are built from its row as the ORM builds them (`from_db`, by
`core.prepared.instance_from_row`):
no query is compiled per sale. Nothing here is locked: `sale_write.write_sales`
takes the draw's lock and checks its state again. The same statement says
whether the person selling works for the draw's organisation in one of the
page's roles (#15), so the sales page needs no query of its own for that.

The sale's checks read these through `sale_path.price_tiers`,
`sale_path.sealed_envelopes`, `purchase_limits` and `licensing.terms`, which
query the database themselves for a draw read any other way (SQLite, the
demo; the close of sales; the reports).
"""

import functools

from core.prepared import instance_from_row, prepared_cursor
from licensing.models import AmendmentStatus, ExcludedPerson, Licence, Membership
from licensing.terms import read_amendments_once
from raffle.models import Draw, Event, PriceTier


def _columns(model, alias: str) -> str:
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


@functools.cache
def draw_read_sql() -> str:
    """The statement, written from the models' columns the first time a sale runs."""
    return f"""
SELECT {_columns(Draw, "d")}, {_columns(Event, "e")}, {_columns(Licence, "l")},
  (SELECT SUM(c.draw_prize + c.jackpot_contribution) FROM raffle_draw c
    WHERE c.event_id = d.event_id AND c.ticket_sales IS NOT NULL),
  (SELECT p.max_sales FROM licensing_planneddraw p JOIN licensing_application a ON a.id = p.application_id
    WHERE a.licence_id = l.id AND p.number = d.number LIMIT 1),
  EXISTS (SELECT 1 FROM licensing_planneddraw p JOIN licensing_application a ON a.id = p.application_id
    WHERE a.licence_id = l.id),
  ARRAY(SELECT ARRAY[t.id, t.quantity, t.price] FROM raffle_pricetier t
    WHERE t.event_id = d.event_id ORDER BY t.quantity),
  ARRAY(SELECT v.number FROM raffle_envelope v WHERE v.event_id = d.event_id AND v.opened_at IS NULL),
  ARRAY(SELECT ARRAY[x.full_name, x.contact, x.reason] FROM licensing_excludedperson x
    WHERE x.organisation_id = l.organisation_id ORDER BY x.full_name, x.id),
  EXISTS (SELECT 1 FROM licensing_licenceamendment m WHERE m.licence_id = l.id AND m.status = %s),
  EXISTS (SELECT 1 FROM {Membership._meta.db_table} w
    WHERE w.user_id = %s AND w.organisation_id = l.organisation_id AND w.role = ANY(%s))
FROM raffle_draw d
JOIN raffle_event e ON e.id = d.event_id
JOIN licensing_licence l ON l.id = e.licence_id
WHERE d.id = %s"""


TIER_FIELDS = ("id", "event_id", "quantity", "price")


@functools.cache
def _attnames(model) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)


def _instance(model, row: tuple, start: int):
    """`model` from its columns in `row` from `start`, as a queryset builds it."""
    names = _attnames(model)
    values = row[start : start + len(names)]
    return instance_from_row(model, names, values), start + len(names)


def read_draw_for_sale(pk: int, *, user=None, roles: tuple[str, ...] = ()) -> Draw:
    """The draw `pk` with its event and licence and everything a sale checks
    (see the module's docstring), in one statement. PostgreSQL only. With a
    `user`, a draw of an organisation they do not work for in one of `roles`
    is not found (Draw.DoesNotExist), as `core.scope.own` would have it; a
    superuser works for every organisation."""
    everyone = user is None or user.is_superuser
    with prepared_cursor() as cursor:  # planned once per connection: planning was most of its cost
        # no OR with a value in the statement: its plan stays the same for every sale
        cursor.execute(draw_read_sql(), [AmendmentStatus.APPROVED, None if everyone else user.pk, list(roles), pk])
        row = cursor.fetchone()
    if row is None or not (everyone or row[-1]):
        raise Draw.DoesNotExist("Draw matching query does not exist.")
    draw, at = _instance(Draw, row, 0)
    event, at = _instance(Event, row, at)
    licence, at = _instance(Licence, row, at)
    Draw.event.field.set_cached_value(draw, event)
    Event.licence.field.set_cached_value(event, licence)
    committed, planned, has_plan, tiers, sealed, excluded, amended, _theirs = row[at:]
    # R:L3 as `prize_board.sale_columns` annotates them
    draw.committed_prizes, draw.planned_max, draw.has_plan = committed, planned, has_plan
    # R:T1 the event's price tiers, by quantity
    draw.sale_tiers = {
        int(quantity): instance_from_row(PriceTier, TIER_FIELDS, (int(pk), event.pk, int(quantity), price))
        for pk, quantity, price in tiers
    }
    draw.sale_sealed = set(sealed)  # R:T9 the envelopes a purchaser may pick
    draw.sale_excluded = [
        ExcludedPerson(organisation_id=licence.organisation_id, full_name=name, contact=contact, reason=reason)
        for name, contact, reason in excluded
    ]
    # R:L3 R:L5 the approved amendments, read only when the licence has one
    read_amendments_once(licence, none_approved=not amended)
    return draw
