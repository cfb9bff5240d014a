"""Sphinx extension: the automatic CLI reference (stub)."""


def setup(app):
    return {"parallel_read_safe": True, "version": "0"}
