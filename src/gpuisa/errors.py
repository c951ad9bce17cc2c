"""User-facing errors: printed by the CLI as one line, exit code 2."""


class UserError(Exception):
    """A bad request from the user (what was wrong and what is allowed, in one line)."""
