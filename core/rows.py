"""Inserting one model row with a statement written once per model (#18).

`insert_one(obj)` writes what `obj.save(force_insert=True)` writes, with the
values every field prepares for the database (`pre_save`, `get_db_prep_save`),
but through an INSERT written once per process from the model's columns
instead of a query compiled per row: a sale writes two rows (the sale and its
audit entry) and compiling each was a measurable part of it. It sends no
signals (as `bulk_create`): use it only for models nothing listens to. A model
with a database-side default or a generated column, a value that is an SQL
expression, or another database than PostgreSQL goes through the ORM.
"""

import functools
import re
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import NOT_PROVIDED

from core.prepared import prepared_cursor


@dataclass(frozen=True)
class _Plan:
    """A model's INSERT, written once: its table, its columns and the key it returns."""

    table: str
    fields: tuple
    columns: str
    returning: str

    def values_sql(self) -> str:
        values = ", ".join(["%s"] * len(self.fields))
        return f"INSERT INTO {self.table} ({self.columns}) VALUES ({values}) {self.returning}"


@functools.cache
def _plan(model) -> _Plan | None:
    meta = model._meta
    if not getattr(meta.pk, "db_returning", False):  # the database numbers the row (an AutoField)
        return None
    fields = tuple(f for f in meta.concrete_fields if not f.primary_key)
    if any(f.db_default is not NOT_PROVIDED or getattr(f, "generated", False) for f in fields):
        return None
    quote = connection.ops.quote_name
    return _Plan(
        table=quote(meta.db_table),
        fields=fields,
        columns=", ".join(quote(f.column) for f in fields),
        returning=f"RETURNING {quote(meta.pk.column)}",
    )


def insert_statement(obj) -> tuple[str, list] | None:
    """The INSERT ... RETURNING pk of `obj` (not saved yet) and its parameters,
    or None where it goes through the ORM (see above)."""
    # the connection itself, not `connection`, which looks it up again on every attribute each field reads
    db = connections[DEFAULT_DB_ALIAS]
    plan = _plan(type(obj)) if db.vendor == "postgresql" else None
    if plan is None:
        return None
    obj._prepare_related_fields_for_save(operation_name="insert")
    values = [field.pre_save(obj, True) for field in plan.fields]
    if any(hasattr(value, "resolve_expression") for value in values):
        return None
    params = [field.get_db_prep_save(value, db) for field, value in zip(plan.fields, values, strict=True)]
    return plan.values_sql(), params


@functools.cache
def _select_sql(model, source: str, expressions: tuple[tuple[str, str], ...]) -> str:
    plan, given = _plan(model), dict(expressions)
    selected = ", ".join(given.get(f.attname) or f"%s::{_base_type(f.db_type(connection))}" for f in plan.fields)
    return f"INSERT INTO {plan.table} ({plan.columns}) SELECT {selected} FROM {source} {plan.returning}"


def _base_type(db_type: str) -> str:
    """The column's type without its length or precision: a value too long
    for a varchar(n) is then refused by the INSERT's assignment, never cut
    short by an explicit cast."""
    return re.sub(r"\(.*\)$", "", db_type)


def insert_select_statement(obj, *, source: str, expressions: dict[str, str]) -> tuple[str, list] | None:
    """`insert_statement` as an INSERT ... SELECT ... FROM `source` (a CTE of
    the same statement), so that nothing is inserted when `source` has no
    row. `expressions` gives some columns an SQL expression over `source`
    instead of the object's value. None where `insert_statement` is."""
    statement = insert_statement(obj)
    if statement is None:
        return None
    _sql, params = statement
    fields = _plan(type(obj)).fields
    sql = _select_sql(type(obj), source, tuple(sorted(expressions.items())))
    return sql, [value for field, value in zip(fields, params, strict=True) if field.attname not in expressions]


def inserted(obj, pk) -> None:
    """`obj` is in the database now, as `save()` leaves it."""
    obj.pk = pk
    obj._state.adding, obj._state.db = False, DEFAULT_DB_ALIAS


def insert_one(obj) -> None:
    """INSERT `obj` (not saved yet) and give it its primary key, as `save()` would."""
    statement = insert_statement(obj)
    if statement is None:
        obj.save(force_insert=True)
        return
    with prepared_cursor() as cursor:  # planned once per connection (core.prepared)
        cursor.execute(*statement)
        inserted(obj, cursor.fetchone()[0])
