"""The base of every domain error.

Each app raises its own subclass (`LicensingError`, `RaffleError`); views and
admin actions catch `DomainError` and show `str(error)`, so every message must
be one a volunteer can act on without reading code.
"""


class DomainError(Exception):
    """A business rule refused the request. Nothing was changed."""

    def __init__(self, message: str, *, rule: str | None = None):
        message = str(message)  # a lazy translation is read now, in the language of the request that raised it
        super().__init__(message)
        self.message = message
        self.rule = rule  # the RULES.md ID the refusal enforces, when there is one

    def __str__(self) -> str:
        return self.message
