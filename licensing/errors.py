from core.errors import DomainError


class LicensingError(DomainError):
    """A licensing rule refused the request; nothing was changed."""
