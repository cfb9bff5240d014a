"""The refusal of a certificate (the one exception the kinds raise)."""


class Refused(Exception):
    """A certificate is refused: the message says which recorded item failed."""
