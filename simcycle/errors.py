"""Errors meant for people: what is wrong and where (file, key, value)."""

from __future__ import annotations


class ScenarioError(Exception):
    """Bad input, refused at the edge.  The CLI prints it and exits with status 2."""

    def __init__(self, message: str, *, file: str | None = None, key: str | None = None,
                 value: object = None, has_value: bool | None = None):
        self.message = message
        self.file = str(file) if file is not None else None
        self.key = key
        self.value = value
        self.has_value = value is not None if has_value is None else has_value
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ": ".join(p for p in (self.file, self.key) if p)
        text = f"{where}: {self.message}" if where else self.message
        if self.has_value:
            text += f" (got {self.value!r})"
        return text

    def located(self, file: str | None = None, key_prefix: str | None = None) -> "ScenarioError":
        """Return a copy with the file filled in and the key prefixed."""
        key = self.key
        if key_prefix:
            key = f"{key_prefix}.{key}" if key else key_prefix
        return ScenarioError(self.message, file=self.file or file, key=key,
                             value=self.value, has_value=self.has_value)
