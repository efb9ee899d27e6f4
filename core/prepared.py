"""The statements every sale runs, planned once per database connection (#18).

Django sends each statement with its values written in (psycopg's client-side
binding), so PostgreSQL parses and plans it on every execution. For the sale
path's statements that planning is most of their cost in the database: the
read of the draw with everything a sale checks (`raffle.services.sale_read`)
takes about 1.5 ms to plan and 0.25 ms to run. `prepared_cursor()` gives a
cursor that sends its values apart and asks PostgreSQL to keep the plan of
each statement on the connection (a prepared statement, made the first time
the connection runs it), so later executions skip the planning.

It goes through Django's cursor wrapper, so errors are Django's, and tests
that count queries see these statements like any other. PostgreSQL only.

Operators: a prepared statement lives as long as its connection
(`DATABASE_CONN_MAX_AGE`). Restart the application after `migrate` (as the
deploy guide says) so no connection keeps a plan made before the change; a
connection pooler in transaction mode must pass prepared statements through
(PgBouncer 1.21 and later with `max_prepared_statements`).
"""

import functools

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model, signals
from django.db.models.base import ModelState


class _PreparedCursor(psycopg.Cursor):
    """A server-side binding cursor whose every statement is prepared."""

    def execute(self, query, params=None, *, prepare=None, binary=None):
        return super().execute(query, params, prepare=True, binary=binary)


# Django turns psycopg's prepared statements off (`prepare_threshold` None) so
# that no statement is prepared behind its back. Its own cursors bind on the
# client and never prepare; with a threshold no connection reaches, only the
# statements sent here with `prepare=True` are.
ONLY_WHEN_ASKED = 2**31 - 1


def prepared_cursor():
    """A cursor of the default connection whose statements are planned once per connection."""
    db = connections[DEFAULT_DB_ALIAS]  # the wrapper itself: `connection` looks it up on every attribute
    db.ensure_connection()
    raw = db.connection
    if raw.prepare_threshold is None:
        raw.prepare_threshold = ONLY_WHEN_ASKED
    cursor = _PreparedCursor(raw)
    if db.queries_logged:
        return db.make_debug_cursor(cursor)
    return db.make_cursor(cursor)


@functools.cache
def _row_by_pk_plan(model, also: tuple[str, ...]) -> tuple[str, list[str], list[tuple]]:
    """What `row_by_pk` needs of `model`, worked out once per model and extra
    expressions: its SELECT, the fields' names and each field's converters."""
    quote = connection.ops.quote_name
    fields = model._meta.concrete_fields
    table = quote(model._meta.db_table)
    columns = [f"{table}.{quote(f.column)}" for f in fields] + list(also)
    sql = f"SELECT {', '.join(columns)} FROM {table} WHERE {quote(model._meta.pk.column)} = %s"
    converters = [(field, tuple(field.get_db_converters(connection))) for field in fields]
    return sql, [f.attname for f in fields], converters


def row_by_pk(model, pk, *, also: dict[str, str] | None = None):
    """The `model` instance whose primary key is `pk`, or None, read by one
    prepared statement. For the reads every signed-in request makes before
    its view (its user, its OTP device, #18), which Django would compile and
    PostgreSQL plan on every request. `also` names further values read in
    the same statement, {attribute: SQL expression over the row's table},
    set on the instance as the ORM's `annotate` would; on SQLite (the demo)
    the ORM reads the row and the expressions are left to the caller."""
    if connection.vendor != "postgresql":
        return model._default_manager.filter(pk=pk).first()
    also = also or {}
    sql, names, converters = _row_by_pk_plan(model, tuple(also.values()))
    with prepared_cursor() as cursor:
        cursor.execute(sql, [model._meta.pk.get_db_prep_value(pk, connection)])
        row = cursor.fetchone()
    if row is None:
        return None
    values = []
    for (field, field_converters), value in zip(converters, row[: len(names)], strict=True):
        for converter in field_converters:
            value = converter(value, field, connection)
        values.append(value)
    obj = instance_from_row(model, names, values)
    for name, value in zip(also, row[len(names) :], strict=True):
        setattr(obj, name, value)
    return obj


def instance_from_row(model, names: list[str] | tuple[str, ...], values):
    """What `model.from_db(DEFAULT_DB_ALIAS, names, values)` builds from a row
    of every concrete field, in the fields' order, without going through
    `Model.__init__`: its values are put straight into the instance's
    attributes, as `__init__` would set them on a new instance. About 5% of a
    sale POST's instructions went to `__init__` for the draw, event, licence,
    user and device each read (#18). A model whose instances `__init__` or an
    init signal would change (a model with its own `__init__`, something
    listening to `pre_init` or `post_init`), or a row without every field,
    is built by `from_db`."""
    if (
        len(values) != len(model._meta.concrete_fields)
        or model.__init__ is not Model.__init__
        or signals.pre_init.has_listeners(model)
        or signals.post_init.has_listeners(model)
    ):
        return model.from_db(DEFAULT_DB_ALIAS, names, values)
    obj = model.__new__(model)
    obj.__dict__.update(zip(names, values, strict=True))
    state = obj._state = ModelState()
    state.adding, state.db = False, DEFAULT_DB_ALIAS
    return obj
