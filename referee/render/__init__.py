"""Renderers: result values to rich tables, plain text or JSON. Imported by the edges only."""
