"""Sphinx extension: pages generated from the statement registry (stub)."""


def setup(app):
    return {"parallel_read_safe": True, "version": "0"}
